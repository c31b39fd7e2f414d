"""The VTES table's automatic pass as the screen knows it: whether this seat passes by itself
with nothing to play (the session's ``auto_pass``), the act it makes by itself now (the game
spec's ``auto_act``, as the seat's driver makes it: decided before anything is drawn, so that a
window this seat passes by itself is never shown as waiting for it), ``A`` switching it, and what
``.`` says just after the seat passed by itself.

:class:`AutoPassKeys` is a part of :class:`~tui.games.vtes.table.VtesTableScreen` (a mixin: the
bindings name its ``action_*`` methods), kept apart so that the screen reads as what it draws.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.errors import VampireError
from engine.games.base import Act
from engine.games.vtes.spec import SPEC
from engine.games.vtes.view import VtesView
from engine.games.vtes.vocab import Step
from tui.errors import explain
from tui.games.vtes.action_text import PASS_KEY, by_itself_words
from tui.games.vtes.screen_part import ScreenPart

AUTO_TOLD_S = 3.0
"""Seconds after this seat's automatic act (its pass by itself) during which ``.`` says that the
seat passed by itself, not who holds the impulse now."""


class AutoPassKeys(ScreenPart):
    """The automatic pass of a VTES seat (see the module). The screen provides ``key_clock``
    (seconds, monotonic) and ``_by_itself_at`` (when a redraw last showed this seat's automatic
    act, on that clock)."""

    key_clock: Callable[[], float]
    _by_itself_at: float | None

    def _auto(self) -> bool | None:
        """The seat passes by itself with nothing to play (None: this session cannot)."""
        auto = getattr(self.session, "auto_pass", None)
        return None if auto is None else bool(auto)

    def _by_itself(self, view: VtesView | None) -> Act | None:
        """The act this seat makes by itself now (its game's automatic act: a pass with nothing to
        play: the game spec's ``auto_act``, as the seat's driver makes it, once the table waits for
        its move: :meth:`engine.table.table.Table.owes_move`) when its automatic pass is on; None: the table waits for the player (or not for this seat at all). Decided
        before anything is drawn, so that a window this seat passes by itself is never shown as
        waiting for it."""
        if view is None or view.seat is None or view.step != Step.PLAY or self._auto() is not True:
            return None
        if not self.session.table.owes_move(view.seat):
            # The seat's driver acts only once the table waits for its move (a draw's shares come
            # first, and the card drawn may be one to play): not announced before then.
            return None
        auto_act = SPEC.auto_act
        act = auto_act(view) if auto_act is not None else None
        if act is not None:
            self._by_itself_at = self.key_clock()
        return act

    def action_auto_pass(self, shown: bool = False) -> None:
        """``A``: pass by itself with nothing to play, or ask me every time (``shown``: the
        footer's A, the same)."""
        auto = self._auto()
        switch = getattr(self.session, "set_auto_pass", None)
        if auto is None or switch is None:
            self.say("✗ This table asks you every time: it passes nothing by itself.", True)
            return
        try:
            switch(not auto)
        except VampireError as err:
            self.say(f"✗ {explain(err)}", True)
            return
        if auto:
            self.say(
                f"Ask me every time: you decide every impulse, even with nothing to play ({PASS_KEY} passes).", False
            )
        else:
            self.say("Auto-pass: with nothing to block or play, your impulse passes by itself.", False)
        # Everything that says whether the table waits for this seat (status line, boxes, footer).
        self.refresh_table()

    def _passed_by_itself(self) -> str | None:
        """What ``.`` says when this seat passes by itself now, or passed by itself within
        :data:`AUTO_TOLD_S`; None: neither."""
        by_itself = self._by_itself(self._view)
        if by_itself is not None:
            words = by_itself_words(by_itself)
            return f"{words[0].upper()}{words[1:]}."
        told = self._by_itself_at
        if told is not None and self.key_clock() - told < AUTO_TOLD_S:
            return "Your seat passed by itself (A: ask every time)."
        return None


__all__ = ["AUTO_TOLD_S", "AutoPassKeys"]
