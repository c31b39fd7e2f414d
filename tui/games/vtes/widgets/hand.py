"""The hand: this seat's cards in hand (:func:`tui.games.vtes.present.hand_label`), the card
``p`` plays and ``D`` discards; a spectator's says that hands stay hidden.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets.option_list import Option

from engine.games.base import Pos
from engine.games.vtes.view import VtesView
from tui.games.vtes.present import hand_label
from tui.games.vtes.widgets.card_list import CardList, id_pos, pos_id


class HandList(CardList):
    """The seat's hand; :meth:`show` fills it from a view, the highlight staying on its card."""

    PREFIX = "h"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._shown: tuple[str, ...] = ()
        self._positions: tuple[Pos, ...] = ()  # the hand's cards as last shown

    @property
    def title(self) -> str:
        """The panel's title: how many cards the seat holds (a spectator: "Hand")."""
        view = self.view
        return f"Your hand ({len(view.hand)})" if view is not None and view.seat is not None else "Hand"

    def show(self, view: VtesView) -> None:
        """Fill the list from ``view``'s hand, each card in the list's width (:func:`hand_label`: a
        long name gives up its end before its cost); an unchanged hand is left alone."""
        self.view = view
        # The cells an option's words have: the list's (less its scrollbar, once the hand outgrows
        # the panel) less each option's padding.
        padding = self.get_component_styles("option-list--option").padding.width
        width = max(self.scrollable_content_region.width - padding, 0)
        options = [Option(hand_label(c, width), id=pos_id(self.PREFIX, c.pos)) for c in view.hand]
        if view.seat is None:
            # A spectator holds no hand: the panel says so once, instead of staying empty.
            options = [Option(Text("Watching: hands stay hidden.", style="dim"), id="h-none", disabled=True)]
        ids = tuple(str(o.id) for o in options) + tuple(str(o.prompt) for o in options)
        if ids == self._shown:
            return
        self._shown = ids
        old, opt = self.highlighted, self.highlighted_option
        pos = id_pos(opt.id) if opt is not None else None
        before = self._positions
        self._positions = tuple(c.pos for c in view.hand) if view.seat is not None else ()
        self.set_options(options)
        # the highlight stays on its card while the hand holds it (a card before it played or
        # drawn moves it in the list); once it left (played, discarded), on a neighbour that was
        # there before, the next one first, never the card drawn in its place; else at its place
        if not options or (pos is not None and self.highlight_pos(pos)):
            return
        at = before.index(pos) if pos in before else -1
        neighbours = (*before[at + 1 :], *reversed(before[:at])) if at >= 0 else ()
        if not any(self.highlight_pos(n) for n in neighbours):
            self.highlighted = min(old or 0, len(options) - 1)

    def on_resize(self) -> None:
        # The labels are fitted to the width: a new width fits them again.
        if self.view is not None:
            self.show(self.view)

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        # A scrollbar that comes or goes changes the width the labels have.
        if self.view is not None:
            self.call_after_refresh(self.show, self.view)


__all__ = ["HandList"]
