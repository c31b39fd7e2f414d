"""The card panel: the krcg text of one card (type, clan or disciplines, capacity, cost, text),
or its rulings (``r``), with its name in the panel's title (so that at 80×24 every row of the
panel is the card's), scrolled when long; ``e`` shows it whole in a box; its keys are in the
panel's bottom border.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from engine.games.vtes.view import CardView
from tui.games.vtes.present import card_text, rulings_text
from tui.games.vtes.widgets.redraw import show


class CardPanel(VerticalScroll):
    """One card's text (``#vt-card-text`` inside); :meth:`show` draws a card (None: none) with
    its text or, while :attr:`rulings` is set, its rulings, and says so in the border title."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        #: The rulings are shown instead of the card's text.
        self.rulings = False

    def compose(self) -> ComposeResult:
        yield Static(id="vt-card-text")

    def show(self, card: CardView | None) -> None:
        """Draw ``card`` (its text or its rulings), or nothing; the title names the card."""
        shown = rulings_text(card, named=False) if self.rulings else card_text(card, named=False)
        show(self.query_one("#vt-card-text", Static), shown)
        name = card.name if card is not None and card.known else ""
        if self.rulings:
            self.border_title = f"Rulings: {name}" if name else "Rulings"
            self.border_subtitle = "r card · e all"
        else:
            self.border_title = name or "Card"
            self.border_subtitle = "r rulings · e all"


__all__ = ["CardPanel"]
