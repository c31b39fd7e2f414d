"""The action box: the open minion action at a glance (shared/rules/vtes-actions.md 4, P1–P3).

Two or three lines (each wrapped whole: the box is as tall as they are) above the command line,
shown only while an action is open: who acts with whom at what, stealth against intercept, the
bleed or hunt amount; the window and who holds the impulse; and, when the impulse is this seat's,
its keys (block, play a modifier or a reaction, pass). The words come from :mod:`tui.games.vtes.action_text`; the styles are the stylesheet's
(``COMPONENT_CLASSES``), not Rich styles written here.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from engine.games.base import Act
from engine.games.vtes.view import VtesView
from tui.games.vtes.action_text import (
    action_words,
    by_itself_words,
    impulse_words,
    numbers_words,
    window_words,
    your_keys,
)
from tui.games.vtes.widgets.redraw import show


class ActionBox(Static):
    """The open action, or nothing (hidden) when none is open. :meth:`show_action` redraws it;
    it posts :class:`ActionBox.ImpulseArrived` when the impulse comes to this seat."""

    COMPONENT_CLASSES = {
        "action-box--what",
        "action-box--impulse",
        "action-box--yours",
        "action-box--key",
        "action-box--dim",
    }

    DEFAULT_CSS = """
    ActionBox { height: auto; padding: 0 1; background: $boost; display: none; }
    ActionBox.-open { display: block; }
    ActionBox.-yours { background: $accent 20%; }
    ActionBox > .action-box--what { text-style: bold; }
    ActionBox > .action-box--impulse { color: $text-muted; }
    ActionBox > .action-box--yours { color: $warning; text-style: bold; }
    ActionBox > .action-box--key { color: $accent; text-style: bold; }
    ActionBox > .action-box--dim { color: $text-muted; }
    """

    class ImpulseArrived(Message):
        """The impulse of the open action has come to this seat: it is asked to block, play or pass."""

        def __init__(self, box: ActionBox) -> None:
            super().__init__()
            self.box = box

        @property
        def control(self) -> ActionBox:
            return self.box

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._had_impulse = False

    def show_action(
        self,
        view: VtesView | None,
        names: Sequence[str],
        blocker_name: str | None = None,
        auto: bool | None = None,
        by_itself: Act | None = None,
        held: str | None = None,
    ) -> None:
        """Show ``view``'s open action (hide the box when there is none). ``blocker_name``: the
        minion ``b`` would block with; ``auto``: this seat passes by itself with nothing to play
        (None: the session cannot); ``by_itself``: the act this seat makes by itself now (its
        automatic pass): the impulse is not shown as waiting for this seat, and no
        :class:`ImpulseArrived` is posted for it; ``held``: why this seat's answer is not asked
        for now though the impulse is its own (sent already, or a draw settles first), said instead
        of its keys."""
        action = view.action if view is not None else None
        self.set_class(action is not None, "-open")
        mine = action is not None and view is not None and view.seat is not None and action.impulse == view.seat
        mine = mine and by_itself is None and held is None
        self.set_class(mine, "-yours")
        if mine and not self._had_impulse:
            self.post_message(self.ImpulseArrived(self))
        self._had_impulse = mine
        if action is None or view is None:
            show(self, "")
            return
        style = self.get_component_rich_style
        text = Text(no_wrap=False)
        text.append(action_words(view, names, action), style("action-box--what"))
        text.append(" · " + numbers_words(action), style("action-box--dim"))
        keys = your_keys(view, blocker_name, auto) if by_itself is None and held is None else ()
        if keys:
            # the keys on a line of their own, before the window: a cut last line loses words, not keys
            text.append("\n")
            text.append("you: ", style("action-box--yours"))
            for i, key in enumerate(keys):
                if i:
                    text.append(" · ")
                text.append(key.key, style("action-box--key"))
                text.append(" " + key.words)
        text.append("\n")
        text.append(window_words(view, names, action, by_itself) + " · ")
        text.append(impulse_words(view, names, action), style("action-box--yours" if mine else "action-box--impulse"))
        if by_itself is not None:
            text.append(" · " + by_itself_words(by_itself), style("action-box--dim"))
        elif held is not None:
            text.append(" · " + held, style("action-box--dim"))
        elif not keys and auto is not None:
            text.append(" · " + ("auto-pass on (A)" if auto else "asks you every time (A)"), style("action-box--dim"))
        show(self, text)


__all__ = ["ActionBox"]
