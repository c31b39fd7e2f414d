"""The referendum box: the referendum under way at a glance (shared/rules/vtes-actions.md 7, P7).

Two lines (up to :data:`ROWS`, wrapped) above the command line, shown only during a referendum
(a blood hunt too): the terms; the votes for and against by source and who has not finished, or
who holds the impulse before votes; this seat's keys. Long terms give up their last words for the
rest (:func:`tui.games.vtes.widgets.fit.fit_lines`: the game log holds them whole); the tally and
the keys are never cut. With the table rule
``polling=15s`` it closes this seat's polling 15 s after the last vote (it says ``done`` for the
player, who may vote before then). The words come from :mod:`tui.games.vtes.fight_text`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static

from engine.games.base import Act
from engine.games.vtes.view import VtesView
from engine.games.vtes.vocab import Do, Poll
from tui.games.vtes.action_text import by_itself_words
from tui.games.vtes.fight_text import referendum_keys, referendum_lines
from tui.games.vtes.widgets.fit import box_width, fit_lines
from tui.games.vtes.widgets.redraw import show

ROWS = 5
"""The rows the box takes at most, unless the tally and the keys alone need more."""

CLOSE_AFTER = 15.0
"""Seconds after the last vote when ``polling=15s`` closes a seat's polling (7.1)."""


class ReferendumBox(Static):
    """The referendum under way, or nothing (hidden). :meth:`show_referendum` redraws it; it posts
    :class:`ReferendumBox.YourMove` when the referendum starts waiting for this seat, and
    :class:`ReferendumBox.CloseTime` when the 15 s after the last vote have passed."""

    COMPONENT_CLASSES = {"referendum-box--what", "referendum-box--detail", "referendum-box--key"}

    DEFAULT_CSS = """
    ReferendumBox { height: auto; padding: 0 1; background: $boost; display: none; }
    ReferendumBox.-open { display: block; }
    ReferendumBox.-yours { background: $warning 20%; }
    ReferendumBox > .referendum-box--what { text-style: bold; }
    ReferendumBox > .referendum-box--detail { color: $text-muted; }
    ReferendumBox > .referendum-box--key { color: $accent; text-style: bold; }
    """

    class YourMove(Message):
        """The referendum waits for this seat: terms, a pass before votes, or its votes."""

        def __init__(self, box: ReferendumBox) -> None:
            super().__init__()
            self.box = box

        @property
        def control(self) -> ReferendumBox:
            return self.box

    class CloseTime(Message):
        """15 s have passed since the last vote (table rule ``polling=15s``): this seat is done."""

        def __init__(self, box: ReferendumBox) -> None:
            super().__init__()
            self.box = box

        @property
        def control(self) -> ReferendumBox:
            return self.box

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._was_mine = False
        self._timer: Timer | None = None
        self._votes = -1

    def show_referendum(
        self,
        view: VtesView | None,
        names: Sequence[str],
        close_after: float | None = None,
        by_itself: Act | None = None,
        held: str | None = None,
    ) -> None:
        """Show ``view``'s referendum (hide the box when there is none); ``close_after``: seconds
        after the last vote when this seat's polling closes by itself (None: never); ``by_itself``:
        the act this seat makes by itself now (its automatic pass or done): the referendum is not
        shown as waiting for this seat, and no :class:`YourMove` is posted for it; ``held``: why
        this seat's answer is not asked for now though it would be its own (sent already, or a
        draw settles first), said instead of its keys."""
        r = view.referendum if view is not None else None
        self.set_class(r is not None, "-open")
        keys = referendum_keys(view, r) if r is not None and view is not None and by_itself is None else []
        aside = by_itself_words(by_itself) if by_itself is not None else held if keys else None
        if aside is not None:  # said instead of the keys
            keys = []
        mine = bool(keys)
        self.set_class(mine, "-yours")
        if mine and not self._was_mine:
            self.post_message(self.YourMove(self))
        self._was_mine = mine
        voting = r is not None and r.step == Poll.VOTING and view is not None and view.seat not in r.done
        votes = len(r.votes) if r is not None else -1
        if not voting or close_after is None:
            self._stop()
        elif votes != self._votes or self._timer is None:
            self._stop()
            self._timer = self.set_timer(close_after, self._close)
        self._votes = votes
        if r is None or view is None:
            show(self, "")
            return
        style = self.get_component_rich_style
        head, detail = referendum_lines(view, names, r, by_itself is not None and by_itself.get("do") == Do.DONE)
        lines = [Text(head, style("referendum-box--what")), Text(detail, style("referendum-box--detail"))]
        if aside is not None:
            lines.append(Text(aside, style("referendum-box--detail")))
        if keys:
            line = Text()
            for i, (key, words) in enumerate(keys):
                line.append(" · " if i else "")
                line.append(key, style("referendum-box--key"))
                line.append(" " + words)
            if voting and close_after is not None:
                line.append(f" · closes {close_after:g} s after the last vote", style("referendum-box--detail"))
            lines.append(line)
        width = box_width(self.size.width, self.app.size.width)
        show(self, fit_lines(self.app.console, lines, width, ROWS, cut=0))

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _close(self) -> None:
        self._timer = None
        self.post_message(self.CloseTime(self))


__all__ = ["ReferendumBox"]
