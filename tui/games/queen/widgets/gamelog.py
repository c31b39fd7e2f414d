"""The Vampire Queen game log: the end of a trick or a round in bold, tricks as paragraphs."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events

from tui.widgets.common.notes import NoteLog


class GameLog(NoteLog):
    """The end of a trick or a round is bold and followed by a blank line, so tricks read as
    paragraphs; a round's start, a win and a proven cheat are bold. Its lines are wrapped again
    to the new width whenever the terminal is resized (a log only wraps what it writes)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._written: list[Text] = []
        self._wrapped_at = 0

    def emphasis(self, line: str) -> tuple[bool, bool]:
        ends = (
            " wins the trick." in line
            or (" takes Hunter" in line and "drawn as dealer" not in line)
            or line.startswith("Nobody could play")
            or (line.startswith("Round") and " ends." in line)
        )
        big = line.startswith("Round") or "wins with" in line or "share the win" in line or "cheated" in line
        return ends or big, ends

    def write(self, content: Any, *args: Any, **kwargs: Any) -> GameLog:
        if isinstance(content, Text) and self._size_known:  # a deferred write is kept when replayed
            self._written.append(content)
        super().write(content, *args, **kwargs)
        return self

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width
        if width == self._wrapped_at or not self._written:
            self._wrapped_at = width
            return
        self._wrapped_at = width
        written, self._written = self._written, []
        self.clear()
        for text in written:
            self.write(text, scroll_end=False)
        self.scroll_end(animate=False)
