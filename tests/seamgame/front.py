"""High Card's front end: the smallest table screen a game can have, on the shared frame
(:class:`tui.screens.table.TableFrame`). It proves the TUI's seam with a game that is not Vampire
Queen: the registry finds it (``register_front_end(FRONT_END)``, or the entry point
:func:`tests.seamgame.plugin.install` declares), the shared screens draw the title, narration,
status and end, and this screen adds a line with the trick and one with the hand.

Keys: ``1`` to ``3`` play the hand's first to third card (lowest first).
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from engine.table import Table
from tests.seamgame.rules import NAME, TITLE, HighCardView, card_words
from tui.games import FrontEnd
from tui.screens.table import TableFrame
from tui.session import TableSession


def hand_line(view: HighCardView | None) -> str:
    """``"Your hand: 1 the 3 of spades · 2 the 9 of hearts"`` (a card not opened yet: ``?``)."""
    if view is None or view.seat is None:
        return "You are watching."
    cards = [f"{i} {card_words(card) if card else '?'}" for i, (_, card) in enumerate(view.hand, 1)]
    return "Your hand: " + (" · ".join(cards) if cards else "empty")


def trick_line(view: HighCardView | None) -> str:
    """``"Trick: the 7 of spades, the 2 of hearts"``, or the last trick between two."""
    if view is None:
        return ""
    trick = view.state.trick or view.state.last_trick
    word = "Trick" if view.state.trick else "Last trick"
    return f"{word}: " + ", ".join(card_words(p.card) for p in trick) if trick else "Trick: nothing played yet"


class HighCardScreen(TableFrame, inherit_bindings=False):
    """A seat at a High Card table: the trick, the hand, and a key per card."""

    BINDINGS = [
        Binding("1", "play(0)", "Play 1st"),
        Binding("2", "play(1)", "2nd"),
        Binding("3", "play(2)", "3rd"),
        *TableFrame.FRAME_BINDINGS,
    ]

    def compose_top(self) -> ComposeResult:
        yield Static(id="hc-trick")
        yield Static(id="hc-hand")

    def show_board(self, table: Table) -> None:
        view = self.session.view()
        self.query_one("#hc-trick", Static).update(trick_line(view))
        self.query_one("#hc-hand", Static).update(hand_line(view))

    def action_play(self, index: int) -> None:
        """Play the hand's ``index``-th card (from 0), when it is this seat's turn."""
        view = self.session.view()
        if not self.my_turn() or self.submitting or view is None or not 0 <= index < len(view.hand):
            return
        self.submit({"do": "play", "card": list(view.hand[index][0])})


def _table_screen(session: TableSession) -> Screen[Any]:
    return HighCardScreen(session)


FRONT_END = FrontEnd(
    NAME,
    TITLE,
    table_screen=_table_screen,
    help="[b]High Card in short[/b]\n  Play one card a trick (keys 1 to 3); the highest card wins it.",
)
