"""The Vampire Queen game log: the end of a trick or a round in bold, tricks as paragraphs."""

from __future__ import annotations

from tui.widgets.common.notes import NoteLog


class GameLog(NoteLog):
    """The end of a trick or a round is bold and followed by a blank line, so tricks read as
    paragraphs; a round's start, a win and a proven cheat are bold."""

    def emphasis(self, line: str) -> tuple[bool, bool]:
        ends = (
            " wins the trick." in line
            or (" takes Hunter" in line and "drawn as dealer" not in line)
            or line.startswith("Nobody could play")
            or (line.startswith("Round") and " ends." in line)
        )
        big = line.startswith("Round") or "wins with" in line or "share the win" in line or "cheated" in line
        return ends or big, ends
