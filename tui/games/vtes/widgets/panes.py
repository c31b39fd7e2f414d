"""The middle of the VTES table screen: the table (every card in play) over the game log, beside
your hand over the card panel. Tab goes round the hand, the table and the log (the one with the
focus is marked ``▸`` with its keys); the card panel shows the card highlighted in the hand or on
the table, whichever had the focus last, as it is now.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import DescendantBlur, DescendantFocus
from textual.message import Message
from textual.widget import Widget
from textual.widgets import OptionList

from engine.games.vtes.view import CardView, VtesView
from tui.games.vtes.widgets.board import BoardList
from tui.games.vtes.widgets.card_list import CardList, id_pos
from tui.games.vtes.widgets.card_panel import CardPanel
from tui.games.vtes.widgets.hand import HandList

PANELS: tuple[str, ...] = ("vt-hand", "vt-board", "log")
"""The panels Tab and Shift+Tab go round, in this order."""

_TITLES: dict[str, str] = {"vt-board": "Table", "log": "Game log"}


class TablePanes(Horizontal):
    """The table and ``log`` (the frame's log widget, ``id="log"``) beside the hand and the card
    panel. ``me``: this seat (None: a spectator), whose minions the table's highlight goes to
    first. Posts :class:`TablePanes.HighlightMoved` when the person moves the highlight the card
    panel follows (not when a redraw puts it back)."""

    class HighlightMoved(Message):
        """The person moved the highlight in the hand or on the table."""

    def __init__(self, log: Widget, me: Callable[[], int | None], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._log = log
        self._me = me
        #: The list the card panel follows: the hand or the board, whichever had the focus last.
        self._active_list = "vt-hand"
        #: The card the card panel follows (the last highlighted in that list).
        self._focus_card: CardView | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="vt-left"):
            yield BoardList(id="vt-board", classes="panel")
            yield self._log
        with Vertical(id="vt-side"):
            yield HandList(id="vt-hand", classes="panel")
            yield CardPanel(id="vt-card", classes="panel")

    @property
    def board(self) -> BoardList:
        """The table (its highlight: the selected card)."""
        return self.query_one("#vt-board", BoardList)

    @property
    def hand(self) -> HandList:
        """The hand (its highlight: the card ``p`` plays)."""
        return self.query_one("#vt-hand", HandList)

    @property
    def card_panel(self) -> CardPanel:
        """The card panel."""
        return self.query_one("#vt-card", CardPanel)

    def show(self, view: VtesView, names: Sequence[str]) -> None:
        """Draw the table, the hand and the card panel from ``view`` (``names`` in seat order)."""
        self.board.show(view, names)
        self.hand.show(view)
        self.titles()
        self.show_card()

    def titles(self) -> None:
        """Each panel's title; the one with the focus is marked (its border changes colour too)
        and says what its keys do."""
        focused = self.screen.focused
        titles = {"vt-hand": self.hand.title, **_TITLES}
        for wid, title in titles.items():
            here = focused is not None and focused.id == wid
            hint = " ↑↓ · Tab" if here and wid != "log" else " ↑↓ scroll" if here else ""
            self.query_one(f"#{wid}").border_title = f"▸ {title}{hint}" if here else title

    def cycle(self, step: int) -> None:
        """The focus to the next (``step`` 1) or the previous (-1) of the hand, the table and the
        log; from elsewhere (the command line), Tab goes to the table."""
        focused = self.screen.focused
        at = PANELS.index(focused.id) if focused is not None and focused.id in PANELS else -1
        if at < 0:
            at = 0 if step > 0 else 1
        self.screen.set_focus(self.query_one(f"#{PANELS[(at + step) % len(PANELS)]}"))

    def shown_card(self) -> CardView | None:
        """The card the card panel shows: the one highlighted in the hand or on the table, in
        whichever had the focus last, as it is now."""
        card = self.board.highlighted_card() if self._active_list == "vt-board" else self.hand.highlighted_card()
        return card or (self.board.card_at(self._focus_card.pos) if self._focus_card is not None else None)

    def show_card(self) -> None:
        """Draw the card panel again (a card that moved is shown as it is now, or not at all
        once gone)."""
        self.card_panel.show(self.shown_card())

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        cards = event.option_list
        if cards.id != self._active_list or not isinstance(cards, CardList):
            return  # a redraw of the list the card panel does not follow
        before = self._focus_card.pos if self._focus_card is not None else None
        self._focus_card = cards.card_at(id_pos(event.option.id))
        self.show_card()
        if self._focus_card is not None and self._focus_card.pos == before:
            return  # a redraw put the highlight back where it was: the person did not move it
        if before is not None and not cards.lists(before):
            return  # the card left the list (played, moved): a redraw, not the person's key
        self.post_message(self.HighlightMoved())

    @on(DescendantFocus)
    def _focused(self, event: DescendantFocus) -> None:
        focused = self.screen.focused
        if isinstance(focused, CardList) and focused.id in ("vt-hand", "vt-board"):
            self._active_list = focused.id
            board = self.board
            if focused is board and board.highlighted_card() is None:
                board.highlight_first_card(self._me())
            self._focus_card = focused.highlighted_card()
            self.show_card()
        self.titles()

    @on(DescendantBlur)
    def _blurred(self, event: DescendantBlur) -> None:
        self.titles()


__all__ = ["PANELS", "TablePanes"]
