"""TEST ONLY: a played table's narration as its readers get it: its log saved as a file (for
``vampire replay``), and its notes told through a spectator's text feed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.protocol.log import LogWriter


def saved_log(table: Any, path: Path) -> Path:
    """``table``'s entries written to a log file at ``path``; returns ``path``."""
    writer = LogWriter(path)
    for entry in table.entries:
        writer.append(entry)
    writer.close()
    return path


def fed_lines(table: Any) -> list[str]:
    """The lines a spectator's text feed (:class:`tui.cli.narrate.FeedNotes`) prints for
    ``table``'s notes, each brought by an entry of its own as a live table tells them."""
    from net.events import Folded
    from tui.cli.narrate import FeedNotes

    class Client:  # what the feed reads of a client: its table
        pass

    client = Client()
    client.table = table  # type: ignore[attr-defined]
    names = list(table.names)
    said: list[str] = []
    feed = FeedNotes(client, said.append)  # type: ignore[arg-type]
    for note in table.notes:
        feed.show(Folded(table.entries[0], (note.render(names),), None, (note,)))
    feed.flush()
    return said
