"""The game log: the table's narration in a player's words, and chat lines set apart."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import RichLog

_CHAT = re.compile(r"^(\{s\d+\}|The host): ")


def is_chat(note: Any) -> bool:
    """A chat line (the table narrates chat as ``"{s1}: text"``)."""
    return bool(_CHAT.match(note.text))


class GameLog(RichLog):
    """Appends notes as they arrive. Chat lines start with ``»`` and are italic; the end of a
    trick or a round is bold and followed by a blank line, so tricks read as paragraphs."""

    DEFAULT_CLASSES = "panel"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, highlight=False, min_width=20)
        self.can_focus = True

    def add_notes(self, notes: Sequence[Any], names: Sequence[str]) -> None:
        for note in notes:
            line = note.render(names)
            if is_chat(note):
                self.write(Text("» " + line, style="italic"))
                continue
            ends = (
                " wins the trick." in line
                or (" takes Hunter" in line and "drawn as dealer" not in line)
                or line.startswith("Nobody could play")
                or (line.startswith("Round") and " ends." in line)
            )
            big = line.startswith("Round") or "wins with" in line or "share the win" in line or "cheated" in line
            self.write(Text(line, style="bold" if (ends or big) else ""))
            if ends:
                self.write(Text(""))
