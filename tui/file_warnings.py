"""Warnings about the player's own files, shown on screen (PROTOCOL.md 8): a secrets file that
others could read is made private with a warning that its secrets may have leaked. The engine says
it on the ``vampire.files`` logger, which the command line prints on stderr; a Textual app hides
stderr, so :class:`FileWarnings` turns each such warning into a notification."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from textual.app import App

from engine.protocol.secrets import log as files_log

NOTICE_SECONDS = 30
"""How long a file warning stays on screen: it asks the player to act (keep the secrets private)."""


class FileWarnings(logging.Handler):
    """A logging handler, on the ``vampire.files`` logger while an app runs (:meth:`attach`,
    :meth:`detach`), that shows each warning as a notification titled "Your files". Records from
    another thread are handed to the app's event loop without waiting (``call_soon_threadsafe``:
    never ``call_from_thread``, which would block a thread the loop itself may be waiting on)."""

    def __init__(self, app: App[Any]) -> None:
        super().__init__(logging.WARNING)
        self.app = app
        self.thread = threading.get_ident()
        self.loop: asyncio.AbstractEventLoop | None = None

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if threading.get_ident() == self.thread or self.loop is None:
            self._notify(text)
        else:
            self.loop.call_soon_threadsafe(self._notify, text)

    def _notify(self, text: str) -> None:
        self.app.notify(text, title="Your files", severity="warning", timeout=NOTICE_SECONDS, markup=False)

    def attach(self) -> None:
        """Start showing the file warnings (call on the app's thread, once it runs)."""
        self.thread = threading.get_ident()
        self.loop = asyncio.get_running_loop()
        files_log.addHandler(self)

    def detach(self) -> None:
        """Stop showing them (the app is done)."""
        files_log.removeHandler(self)
