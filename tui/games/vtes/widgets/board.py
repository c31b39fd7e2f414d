"""The table: every Methuselah's cards in play, torpor, cards on cards, uncontrolled region and,
when asked, ash heap (:func:`tui.games.vtes.present.board_rows`), as rows the person selects a
card among (the card ``b``, ``k``, ``x``, ``v``, ``<`` and ``>`` act on).
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.widgets.option_list import Option

from engine.games.vtes.view import VtesView
from tui.games.vtes.present import board_rows
from tui.games.vtes.widgets.card_list import CardList, id_pos, pos_id
from tui.games.vtes.widgets.fit import NameFirst


class BoardList(CardList):
    """The table's cards under headings; :meth:`show` fills it from a view, keeping the highlight
    on the card it was on; :attr:`ash` shows the ash heaps too."""

    PREFIX = "b"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        #: The ash heaps are listed too (``H`` shows or hides them).
        self.ash = False
        self._shown: tuple[str, ...] = ()

    def show(self, view: VtesView, names: Sequence[str]) -> None:
        """Fill the list from ``view`` (``names`` in seat order); unchanged rows are left alone."""
        self.view = view
        rows = board_rows(view, names, ash=self.ash)
        options: list[Option] = []
        ids: list[str] = []
        for i, row in enumerate(rows):
            if row.card is None:
                oid = f"head-{i}"
                options.append(Option(row.text, id=oid, disabled=True))
            else:
                oid = pos_id(self.PREFIX, row.card.pos)
                if oid in ids:  # the same card twice cannot happen; never crash on it
                    continue
                # a narrow board cuts the card's name, never its numbers
                options.append(Option(NameFirst(row.text, row.name) if row.name else row.text, id=oid))
            ids.append(oid)
        key = tuple(ids) + tuple(str(r.text) for r in rows)
        if key == self._shown:
            return
        self._shown = key
        old = self.highlighted_option.id if self.highlighted_option is not None else None
        self.set_options(options)
        if old is not None and old in ids:
            self.highlighted = ids.index(old)

    def highlight_first_card(self, me: int | None) -> None:
        """The highlight on the first card: one of ``me``'s minions in play if there is one."""
        cards = [(i, self.card_at(id_pos(self.get_option_at_index(i).id))) for i in range(self.option_count)]
        found = [(i, c) for i, c in cards if c is not None]
        mine = [i for i, c in found if c.controller == me and c.zone.in_play]
        if mine or found:
            self.highlighted = (mine or [found[0][0]])[0]


__all__ = ["BoardList"]
