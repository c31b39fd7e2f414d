"""The game log: a table's narration in a player's words, and chat lines set apart."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.widgets import RichLog

from engine.games.base import CHAT, Note


def is_chat(note: Note) -> bool:
    """A chat line (the table narrates chat as ``"{s1}: text"``, its news :data:`CHAT`)."""
    return note.news == CHAT


class NoteLog(RichLog):
    """Appends notes as they arrive; chat lines start with ``»`` and are italic. A game's log
    marks its own milestones by overriding :meth:`emphasis`. Its lines are wrapped again to the
    new width whenever it is resized (a RichLog only wraps what it writes, at the width it had)."""

    DEFAULT_CLASSES = "panel"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, highlight=False, min_width=20)
        self.can_focus = True
        self._written: list[Text] = []
        self._wrapped_at = 0
        self._last_from = 0  # the first of the lines the last write made
        self.writes = 0
        """How many writes this log took: a reader that rewrites its last line checks that no
        other line came after it."""

    def write(self, content: Any, *args: Any, **kwargs: Any) -> NoteLog:
        if isinstance(content, Text) and self._size_known:  # a deferred write is kept when replayed
            self._written.append(content)
        self._last_from = len(self.lines)
        super().write(content, *args, **kwargs)
        self.writes += 1
        return self

    def rewrite_last(self, text: Text) -> None:
        """Replace the line (wrapped over rows or not) the last :meth:`write` made by ``text``,
        e.g. a run of passes that grew by one."""
        if not self._size_known:
            if self._deferred_renders:
                self._deferred_renders.pop()
        else:
            if self._written:
                self._written.pop()
            del self.lines[self._last_from :]
            self._line_cache.clear()
        self.write(text)

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

    def emphasis(self, line: str) -> tuple[bool, bool]:
        """How a narration line (seat names filled in) stands out: ``(bold, ends a paragraph)``;
        a paragraph's end is followed by a blank line. Plain by default."""
        return False, False

    def add_news(self, text: str) -> None:
        """Append ``text``, news about the table that is not in its log (a player who left or
        came back), set apart in a dim italic."""
        self.write(Text("· " + text, style="italic dim"))

    def add_notes(self, notes: Sequence[Note], names: Sequence[str]) -> None:
        """Append ``notes``, their seat placeholders filled with ``names``."""
        for note in notes:
            line = note.render(names)
            if is_chat(note):
                self.write(Text("» " + line, style="italic"))
                continue
            bold, ends = self.emphasis(line)
            self.write(Text(line, style="bold" if bold else ""))
            if ends:
                self.write(Text(""))
