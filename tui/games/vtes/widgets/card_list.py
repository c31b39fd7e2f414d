"""A list of a seat's cards (the base of the hand and of the table): each option is a card of
the view it was last filled from, its id the card's position (``h-3-1``, ``b-0-12``), so the
highlighted option reads back as a card.
"""

from __future__ import annotations

from typing import ClassVar

from textual.widgets import OptionList
from textual.widgets.option_list import OptionDoesNotExist

from engine.games.base import Pos
from engine.games.vtes.view import CardView, VtesView


def pos_id(prefix: str, pos: Pos) -> str:
    """The option id of the card at ``pos`` in a list whose ids start with ``prefix``."""
    return f"{prefix}-{pos[0]}-{pos[1]}"


def id_pos(option_id: str | None) -> Pos | None:
    """The card position an option id names (:func:`pos_id`); None for a heading or nothing."""
    if not option_id or option_id.count("-") != 2:
        return None
    _, event, index = option_id.split("-")
    return (int(event), int(index))


class CardList(OptionList):
    """An option list of cards of :attr:`view` (the view a subclass last filled it from)."""

    #: The first part of each option's id (:func:`pos_id`).
    PREFIX: ClassVar[str] = "c"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.view: VtesView | None = None

    def card_at(self, pos: Pos | None) -> CardView | None:
        """The card at ``pos`` in the view (in the hand or on the table), or None."""
        view = self.view
        if view is None or pos is None:
            return None
        for c in (*view.hand, *view.cards):
            if c.pos == pos:
                return c
        return None

    def highlighted_card(self) -> CardView | None:
        """The card highlighted in the list (None: a heading, or nothing)."""
        opt = self.highlighted_option
        return self.card_at(id_pos(opt.id if opt is not None else None))

    def highlight_pos(self, pos: Pos) -> bool:
        """Highlight the card at ``pos``; False (nothing changes) when the list does not hold it."""
        try:
            self.highlighted = self.get_option_index(pos_id(self.PREFIX, pos))
        except OptionDoesNotExist:
            return False
        return True

    def lists(self, pos: Pos) -> bool:
        """True when the card at ``pos`` is one of the list's options."""
        try:
            self.get_option_index(pos_id(self.PREFIX, pos))
        except OptionDoesNotExist:
            return False
        return True


__all__ = ["CardList", "id_pos", "pos_id"]
