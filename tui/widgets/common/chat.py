"""The chat line: one line of words to the table, sent by Enter, whatever the terminal's pace
(:class:`tui.widgets.common.burst_line.BurstLine`)."""

from __future__ import annotations

from textual import events

from tui.widgets.common.burst_line import BurstLine


class ChatLine(BurstLine):
    """A :class:`BurstLine` whose Enter posts :class:`Input.Submitted` at once with the words typed
    so far; the keys after it are dropped until :meth:`open` takes the focus again."""

    def open(self) -> None:
        """Show the line and take the focus for new words."""
        self.display = True
        self.take_focus()

    async def enter(self) -> None:
        self.sent = True
        self.post_message(self.Submitted(self, self.value))

    def _on_paste(self, event: events.Paste) -> None:
        if self.sent:
            event.stop()
            event.prevent_default()  # not Input's handler either


__all__ = ["ChatLine"]
