"""Messages the screens and widgets post to each other (Textual messages, handled with ``@on``)."""

from __future__ import annotations

from textual.message import Message

from tui.session import SessionEvent


class SessionUpdate(Message):
    """The session reported something (``event``); the screen re-reads the table and the view."""

    def __init__(self, event: SessionEvent) -> None:
        super().__init__()
        self.event = event


class AuditProgress(Message):
    """``done`` of ``total`` entries audited."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total


class ReplayLoaded(Message):
    """More frames of a replay are ready: ``count`` in all, ``total`` entries in the log,
    ``finished``: the whole log is folded."""

    def __init__(self, count: int, total: int, finished: bool) -> None:
        super().__init__()
        self.count = count
        self.total = total
        self.finished = finished
