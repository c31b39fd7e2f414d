"""The VTES table's keys that show rather than act: ``e`` the shown card's whole text and
rulings in a box (just after a play, the card played), ``r`` the rulings in the card panel, ``H``
the ash heaps on the table, ``L`` the whole game log in a box (a window's passes as one line, as
in the log panel: :mod:`tui.games.vtes.passes`).

:class:`ReadingKeys` is a part of :class:`~tui.games.vtes.table.VtesTableScreen` (a mixin: the
bindings name its ``action_*`` methods), kept apart so that the screen reads as what it draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from engine.games.vtes.view import CardView, VtesView
from engine.replay import NoteRun
from tui.games.vtes.passes import DoneOnce, fold_passes
from tui.games.vtes.present import card_text, rulings_text
from tui.games.vtes.screen_part import ScreenPart

if TYPE_CHECKING:
    from tui.games.vtes.widgets.panes import TablePanes


class ReadingKeys(ScreenPart):
    """The reading keys of a VTES seat (see the module). The screen provides ``_panes`` (the
    board, the hand and the card panel), ``_played`` and ``_reads_played`` (the card of the last
    after-play note, and whether ``e`` reads it) and :meth:`_current_view`."""

    _played: CardView | None
    _reads_played: bool

    if TYPE_CHECKING:

        @property
        def _panes(self) -> TablePanes: ...

        def _current_view(self) -> VtesView | None: ...

    def action_card_box(self) -> None:
        """The shown card's whole text and rulings in a box (the panel may show only its start)."""
        from tui.games.vtes.menus import CardBox

        # Just after a play, its note says "e reads it": the card played, not the hand's next one.
        card = self._played if self._reads_played else self._panes.shown_card()
        if card is None:
            self.say("✗ No card to show: highlight one in your hand or on the table.", True)
            return
        if not card.known:
            self.say("✗ That card is face down: only its owner knows it.", True)
            return
        self.app.push_screen(CardBox(card_text(card), rulings_text(card)))

    def action_rulings(self) -> None:
        panel = self._panes.card_panel
        panel.rulings = not panel.rulings
        self._panes.show_card()

    def action_ash(self) -> None:
        board = self._panes.board
        board.ash = not board.ash
        view = self._current_view()
        if view is not None:
            board.show(view, list(self.session.table.names))
        self.say("Ash heaps shown on the table (H hides them)." if board.ash else "Ash heaps hidden.", False)

    def action_log_box(self) -> None:
        """The whole game log in a box (the log panel shows its last lines), at its end; a
        window's passes read as one line, and a seat's "done voting" once a referendum, as in the
        log panel (:mod:`tui.games.vtes.passes`)."""
        from tui.games.vtes.menus import CardBox

        names = list(self.session.table.names)
        text = Text("Game log\n", style="bold")
        run: NoteRun[None] = NoteRun(fold_passes, DoneOnce().shows)
        for note in self.session.table.notes:
            for _, said in run.add(None, note):
                text.append(said.render(names) + "\n")
        for _, said in run.flush():
            text.append(said.render(names) + "\n")
        self.app.push_screen(CardBox(text, Text(), at_end=True))


__all__ = ["ReadingKeys"]
