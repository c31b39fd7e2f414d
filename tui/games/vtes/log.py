"""The VTES game log: the table's narration in players' words, each turn's start and every
ousting or win in bold, chat set apart."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from engine.games.base import Note
from tui.games.vtes.passes import DoneOnce, PassRun
from tui.widgets.common.notes import NoteLog, is_chat


class VtesLog(NoteLog):
    """A VTES narration line may read like chat (``"{s1}: influence phase, 4 transfers"``); only a
    line the table marks as chat (:func:`is_chat`) is shown as chat. A turn's start, an ousting, a
    withdrawal, a VP and the game's end are bold, and a turn ends a paragraph. It stays at its
    end (anchored) while the person does not scroll it up."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._passes = PassRun()
        self._done = DoneOnce()
        self._run_at = -1  # the log's write count when the run's line was written

    def on_mount(self) -> None:
        # Anchored to its end: every layout keeps the last line shown (a resumed game's log, a
        # terminal resized, a box that takes rows), until the person scrolls up; scrolling back
        # to the end anchors it again.
        self.anchor()

    def emphasis(self, line: str) -> tuple[bool, bool]:
        big = any(w in line for w in (" is ousted", " withdraws", " VP", "game ends", "Game over", "cheated"))
        turn = line.startswith("Turn ")
        return big or turn, False

    def add_notes(self, notes: Sequence[Note], names: Sequence[str]) -> None:
        """Append ``notes``, their seat placeholders filled with ``names``; a window's passes
        read as one line that grows as they come (:mod:`tui.games.vtes.passes`)."""
        for note in notes:
            if not self._done.shows(note):
                continue  # this seat said it is done already in this referendum
            line = note.render(names)
            if is_chat(note):
                self.write(Text("» " + line, style="italic"))
                continue
            if self.writes != self._run_at:
                self._passes.reset()  # another line came after the run's: a pass starts anew
            if self._passes.add(note) and self._passes.line is not None:
                self.rewrite_last(Text(self._passes.line.render(names)))
            else:
                bold, _ = self.emphasis(line)
                self.write(Text(line, style="bold" if bold else ""))
            self._run_at = self.writes
