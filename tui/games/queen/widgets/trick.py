"""The current trick: who led, each set played in order, the highest so far, who is still to play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Static

from tui.games.queen.present import last_trick_line, trick_rows, trick_title


class TrickView(Static):
    """Shows a Vampire Queen state's trick (or the last trick between tricks): one line per turn
    with the cards played, ``★ highest`` (or ``★ winning`` in a hunter trick) in words on the best
    so far, ``▶ to play`` on the seat whose turn it is. A hunter trick is titled HUNTER TRICK."""

    DEFAULT_CLASSES = "panel"

    def show(self, state: Any, names: Sequence[str], me: int | None = None) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        if state is None:
            self.update(text)
            return
        trick = state.trick
        self.set_class(bool(trick is not None and trick.hunter), "-hunter")
        if trick is None:
            if state.phase == "play":
                last = last_trick_line(state, names)
                if last:
                    text.append(last + "\n", style="dim")
                text.append(trick_title(state, names, me), style="bold")
            elif state.phase in ("shuffle", "deal", "dealer"):
                text.append("No trick yet: the cards are\nbeing shuffled and dealt.", style="dim")
            elif state.phase == "score":
                text.append("The round is over: its hands\nare being revealed.", style="dim")
            elif state.phase == "over":
                text.append("The game is over.", style="bold")
            self.update(text)
            return
        if trick.hunter:
            text.append(f"HUNTER TRICK: Hunter {trick.hunter}\n", style="bold reverse")
        else:
            size = trick.size
            need = "1 card" if size == 1 else f"{size} cards"
            text.append(f"Beat {trick.best.value} with {need}, or pass\n", style="bold")
        tie = dict(state.options).get("hunter_tie", "last")
        for row in trick_rows(trick, names, tie):
            text.append(f"{_name(row.name, row.seat == me)}")
            if not row.cards:
                text.append(row.what, style="dim")
            elif trick.hunter and row.lead:
                text.append(f"led H{trick.hunter}", style="bold red")
            else:
                text.append(row.cards, style="bold" if row.best else "")
                if row.lead:
                    text.append(" led", style="dim")
            if row.best:
                text.append("  ★ winning" if trick.hunter else "  ★ highest", style="bold")
            text.append("\n")
        for i, seat in enumerate(trick.waiting):
            text.append(_name(names[seat], seat == me))
            text.append("▶ to play" if i == 0 else "· waiting", style="bold" if i == 0 else "dim")
            text.append("\n")
        text.rstrip()
        self.update(text)


def _name(name: str, me: bool) -> str:
    label = "you" if me else name
    return f"{label[:9]:<10}"
