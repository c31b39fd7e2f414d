"""The seat list: every seat's name, hand size, hunters, total and what it did in this trick."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from tui.games.queen.present import SeatRow
from tui.widgets.common.title import show_in_place

_STATUS_STYLE = {
    "to play": "bold reverse",
    "passed": "dim",
    "out": "italic",
    "abandoned": "strike",
}


class SeatList(Static):
    """Renders :class:`tui.games.queen.present.SeatRow` rows. The seat to play is marked by ``▶`` and the words
    "to play" (never by colour alone); a seat the table waits for on a protocol duty by ``…``."""

    DEFAULT_CLASSES = "panel"

    def show(self, rows: Sequence[SeatRow]) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"  {'player':<12}{'cards':>5} {'hunters':<8}{'total':>5}  \n", style="dim")
        for i, row in enumerate(rows):
            marker = "▶ " if row.turn else ("… " if row.waited else "  ")
            name = row.name + (" (you)" if row.me else "")
            line = Text()
            line.append(marker, style="bold")
            line.append(f"{name[:12]:<12}", style="bold" if row.me else "")
            line.append(f"{row.cards:>5} ")
            hunters = " ".join(f"H{h}" for h in row.hunters)
            line.append(f"{hunters:<8}", style="bold red" if hunters else "")
            line.append(f"{row.total:>5}  ")
            line.append(row.status, style=_STATUS_STYLE.get(row.status, ""))
            if row.turn:
                line.stylize("bold", 0)
            text.append_text(line)
            if i < len(rows) - 1:
                text.append("\n")
        show_in_place(self, text)
