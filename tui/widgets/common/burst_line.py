"""A line typed in a burst: an :class:`Input` that a key opens and Enter sends, whatever the
terminal's pace.

A terminal hands on a fast burst (":next⏎n") before the first key is handled. Enter is taken by
the line itself, when it comes, not by Input's binding: a binding runs once the key has gone round
the screen, after the keys typed behind it, which would land in the words being sent. The keys
that come after Enter, before the line is open again, are dropped: they belong neither to the
words sent nor, typed blind, to the table; so are the keys still on their way to the line when it
was left (the screen has the focus back and guards its own keys). The first key dropped after
each Enter posts :class:`BurstLine.Dropped`, so that the screen says the keys were not taken
(never silently). The key that opens the line must be a priority binding that focuses it at once (:meth:`take_focus`), so that the keys typed
right after reach it.
"""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import Input


class BurstLine(Input):
    """An :class:`Input` whose Enter calls :meth:`enter` at once; while :attr:`sent` (set by
    :meth:`enter` when the line went out) or while it does not have the focus, keys are dropped."""

    class Dropped(Message):
        """Keys typed after the line went out (or was left) were dropped: posted once for the
        first of them, until the line takes the focus again."""

        def __init__(self, line: BurstLine) -> None:
            super().__init__()
            self.line = line

        @property
        def control(self) -> BurstLine:
            return self.line

    #: The line went out: the keys typed after it are dropped until :meth:`take_focus`.
    sent: bool = False
    #: :class:`Dropped` was posted since the line last took the focus.
    _told: bool = False

    def take_focus(self) -> None:
        """Take the focus for new words at once, not as Widget.focus does it (after the messages
        already queued, which the keys typed next would overtake)."""
        self.sent = False
        self._told = False
        self.screen.set_focus(self)

    async def enter(self) -> None:
        """Enter was pressed: send the line (and set :attr:`sent`)."""
        raise NotImplementedError

    async def _on_key(self, event: events.Key) -> None:
        if self.sent or self.screen.focused is not self:  # (has_focus follows a message later)
            event.stop()
            event.prevent_default()
            if not self._told:
                self._told = True
                self.post_message(self.Dropped(self))
            return
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            await self.enter()
        # Any other key: Input's own handler, which Textual calls after this one.


__all__ = ["BurstLine"]
