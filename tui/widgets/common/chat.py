"""The chat line: one line of words to the table, sent by Enter.

Enter is taken by the line itself, when it comes, not by its binding: a binding runs once the
key has gone round the screen, after the keys typed in the same burst (a terminal sends "hi⏎n"
at once), which would land in the words being sent. Keys that come after Enter, before the line
closes, are dropped: they belong neither to the words sent nor, typed blind, to the table.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class ChatLine(Input):
    """An :class:`Input` whose Enter posts :class:`Input.Submitted` at once with the words typed
    so far; the keys after it are dropped until :meth:`open` takes the focus again."""

    def __init__(self, *, id: str | None = None, placeholder: str = "", max_length: int = 0) -> None:
        super().__init__(id=id, placeholder=placeholder, max_length=max_length)
        self._sent = False

    def open(self) -> None:
        """Show the line and take the focus for new words."""
        self._sent = False
        self.display = True
        self.focus()

    async def _on_key(self, event: events.Key) -> None:
        if self._sent:  # typed in the burst after Enter: neither chat nor a game key
            event.stop()
            event.prevent_default()
            return
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self._sent = True
            self.post_message(self.Submitted(self, self.value))
        # Any other key: Input's own handler, which Textual calls after this one.

    def _on_paste(self, event: events.Paste) -> None:
        if self._sent:
            event.stop()
            event.prevent_default()  # not Input's handler either


__all__ = ["ChatLine"]
