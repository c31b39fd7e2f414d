"""Your hand: sorted cards, a cursor moved with the arrows, cards picked with Space or the mouse."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from tui.games.queen.present import card_kind, card_label

_KIND_STYLE = {"queen": "bold magenta", "hunter": "bold red", "hidden": "dim", "number": ""}


@dataclass(frozen=True)
class HandCard:
    """A card in the hand: ``key`` is its position ``(event, index)`` or ``("H", 15)`` for a
    hunter; ``ident`` its identity (``"7-3"``, ``"Q-0"``, ``"H20"``; None while hidden)."""

    key: Any
    ident: str | None


class HandView(Widget, can_focus=True):
    """The player's hand. Picked cards are shown in brackets (``[7]``) and the cursor by ``▲``
    under the card, so neither depends on colour. Queens and hunters are styled to stand out and
    read as ``Q`` and ``H15``/``H20``. Posts :class:`HandView.PickChanged` on every change."""

    class PickChanged(Message):
        """The player picked or unpicked cards. ``keys``: the picked cards' keys (a position
        ``(event, index)``, or ``("H", 15)`` / ``("H", 20)`` for a hunter)."""

        def __init__(self, keys: tuple[Any, ...]) -> None:
            super().__init__()
            self.keys = keys

    BINDINGS = [
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
        Binding("space", "pick", "Pick"),
        Binding("escape", "clear", "Unpick", show=False),
    ]

    cursor: reactive[int] = reactive(0)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # No cards (a spectator, a hand played out): Space picks nothing, so it leaves the footer.
        if action == "pick" and not self.cards:
            return False
        return super().check_action(action, parameters)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: tuple[HandCard, ...] = ()
        self.picked: set[Any] = set()
        self._spans: list[tuple[int, int, int]] = []  # (row, start column, end column) per card

    # -- data ------------------------------------------------------------------------------------

    def set_cards(self, cards: Sequence[HandCard]) -> None:
        """Show ``cards`` (already sorted); picks of cards no longer held are dropped."""
        cards = tuple(cards)
        if cards == self.cards:
            return
        old = self.cards[self.cursor] if self.cards and self.cursor < len(self.cards) else None
        # Follow the card under the cursor as the hand changes, unless it was still hidden (a
        # fresh deal sorts itself as the cards are decoded: start from the left then).
        old_key = old.key if old is not None and old.ident is not None else None
        if len(cards) > len(self.cards) + 5:
            old_key = None  # a new deal: start from the left
        if bool(cards) != bool(self.cards) and self.is_attached:
            self.screen.refresh_bindings()  # Space picks something again, or nothing any more
        self.cards = cards
        keys = {c.key for c in cards}
        dropped = self.picked - keys
        self.picked &= keys
        index = next((i for i, c in enumerate(cards) if c.key == old_key), None)
        self.cursor = index if index is not None else min(self.cursor, max(len(cards) - 1, 0))
        self.refresh(layout=True)
        if dropped:
            self.post_message(self.PickChanged(self.picked_keys()))

    def picked_keys(self) -> tuple[Any, ...]:
        return tuple(c.key for c in self.cards if c.key in self.picked)

    def picked_cards(self) -> tuple[HandCard, ...]:
        return tuple(c for c in self.cards if c.key in self.picked)

    def clear_picks(self) -> None:
        if self.picked:
            self.picked.clear()
            self.refresh()
            self.post_message(self.PickChanged(()))

    # -- actions ---------------------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        # The cursor stops at either end instead of wrapping round: a player who presses Left
        # "enough times" to reach the lowest card must land on it, however many times that is.
        if self.cards:
            self.cursor = max(0, min(self.cursor + step, len(self.cards) - 1))

    def action_jump(self, index: int) -> None:
        if self.cards:
            self.cursor = index % len(self.cards)

    def action_pick(self) -> None:
        if not self.cards:
            return
        self._toggle(self.cursor)

    def action_clear(self) -> None:
        self.clear_picks()

    def _toggle(self, index: int) -> None:
        key = self.cards[index].key
        if key in self.picked:
            self.picked.discard(key)
        else:
            self.picked.add(key)
        self.refresh()
        self.post_message(self.PickChanged(self.picked_keys()))

    def watch_cursor(self) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for i, (row, start, end) in enumerate(self._spans):
            if offset.y == row * 2 and start <= offset.x < end:
                self.cursor = i
                self._toggle(i)
                return

    # -- drawing ---------------------------------------------------------------------------------

    def _tokens(self) -> list[str]:
        tokens = []
        for card in self.cards:
            label = card_label(card.ident)
            tokens.append(f"[{label:>2}]" if card.key in self.picked else f" {label:>2} ")
        return tokens

    def _gap(self, width: int) -> int:
        """Cells between two cards: one, or none when that keeps the hand on one row (a big
        hand at a 12-seat table, at 80 columns: the seats and the trick need the rows)."""
        tokens = self._tokens()
        spaced = sum(len(t) for t in tokens) + max(len(tokens) - 1, 0)
        packed = sum(len(t) for t in tokens)
        return 0 if spaced > width >= packed else 1

    def _layout(self, width: int) -> list[list[tuple[int, str]]]:
        rows: list[list[tuple[int, str]]] = [[]]
        used = 0
        gap = self._gap(width)
        self._spans = []
        for i, token in enumerate(self._tokens()):
            if rows[-1] and used + len(token) > width:
                rows.append([])
                used = 0
            self._spans.append((len(rows) - 1, used, used + len(token)))
            rows[-1].append((i, token))
            used += len(token) + gap
        return rows

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return max(1, len(self._layout(max(width, 8)))) * 2

    def render(self) -> Text:
        if not self.cards:
            return Text("(no cards in hand)", style="dim")
        text = Text(no_wrap=True)
        width = max(self.content_size.width, 8)
        rows = self._layout(width)
        gap = " " * self._gap(width)
        for r, row in enumerate(rows):
            marks = Text()
            for i, token in row:
                card = self.cards[i]
                style = _KIND_STYLE[card_kind(card.ident)]
                if card.key in self.picked:
                    style = (style + " reverse").strip()
                if i == self.cursor and self.has_focus:
                    style = (style + " underline").strip()
                text.append(token, style=style)
                text.append(gap)
                marks.append(" " + "▲" * (len(token) - 2) + " " if i == self.cursor else " " * len(token))
                marks.append(gap)
            text.append("\n")
            text.append_text(marks)
            if r < len(rows) - 1:
                text.append("\n")
        return text
