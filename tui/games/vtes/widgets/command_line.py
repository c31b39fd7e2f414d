"""The command line (``:``): a command typed in the player's words
(:mod:`tui.games.vtes.commands`), completed as it is typed (→ takes the completion;
:mod:`tui.games.vtes.completion`). It tells the screen what was entered and what completes it;
the screen makes the act. Leaving it puts the focus back where it was before ``:``.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events, on
from textual.message import Message
from textual.suggester import Suggester
from textual.widget import Widget
from textual.widgets import Input

from tui.games.vtes.command_words import Context
from tui.games.vtes.completion import completions
from tui.widgets.common.burst_line import BurstLine

#: What the empty command line says.
PLACEHOLDER = ": a command: bleed 2, block, pass, play CARD, transfer 4 NAME… (→ completes)"


class CommandSuggester(Suggester):
    """Completes the command line as it is typed (→ takes the completion): command words, card
    names, zones and Methuselah names (:func:`tui.games.vtes.completion.completions`), read
    against ``context()`` (None: nothing to read against yet)."""

    def __init__(self, context: Callable[[], Context | None]) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.context = context

    async def get_suggestion(self, value: str) -> str | None:
        ctx = self.context()
        if ctx is None:
            return None
        found = completions(value, ctx)
        return found[0] if found else None


class CommandLine(BurstLine):
    """One line for a command. ``context``: what the words are read against now (None: no view
    yet); ``home``: where the focus goes when it leaves and was nowhere before; ``on_leave``:
    called each time it is left (Enter, Esc). Posts
    :class:`CommandLine.Entered` on Enter with a command, :class:`CommandLine.Hint` with the
    completions of what is typed."""

    class Entered(Message):
        """A command was entered (``line``: stripped, never empty); the screen makes its act and
        answers with :meth:`CommandLine.accepted` or :meth:`CommandLine.refused`."""

        def __init__(self, command_line: CommandLine, line: str) -> None:
            super().__init__()
            self.command_line = command_line
            self.line = line

        @property
        def control(self) -> CommandLine:
            return self.command_line

    class Hint(Message):
        """What completes the line as typed so far, in words (``"→ completes: …"``)."""

        def __init__(self, command_line: CommandLine, text: str) -> None:
            super().__init__()
            self.command_line = command_line
            self.text = text

        @property
        def control(self) -> CommandLine:
            return self.command_line

    def __init__(
        self,
        context: Callable[[], Context | None],
        home: Callable[[], Widget],
        *,
        id: str | None = None,
        on_leave: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(
            id=id,
            placeholder=PLACEHOLDER,
            suggester=CommandSuggester(context),
            # A prefilled line (V: "vote for ") keeps its text: the keys typed next complete it.
            select_on_focus=False,
        )
        self._read_context = context
        self._home = home
        #: Where the focus goes back after a command that went out (where it was before ``:``).
        self._before: Widget | None = None
        #: Told at once (not by a message, which keys already typed would overtake) when the line is left.
        self._when_left = on_leave
        #: The line was refused and is still wholly selected as it was (:meth:`refused`).
        self._refused_line = False

    def open(self) -> None:
        """Take the focus, remembering where it was."""
        # At once (BurstLine.take_focus): the keys typed right after ":" belong to the command
        # line, and a "p" among them must not play a card.
        screen = self.screen
        if screen.focused is not self:
            self._before = screen.focused
        self.take_focus()

    def prefill(self, text: str) -> None:
        """Take the focus with ``text`` typed, the cursor at its end."""
        self.open()
        self.value = text
        self.cursor_position = len(self.value)

    def leave(self) -> None:
        """The focus back where it was before ``:`` (else ``home``): the keys act again."""
        back = self._before
        self._before = None
        if back is None or not back.is_attached or back is self:
            back = self._home()
        self.screen.set_focus(back)
        if self._when_left is not None:
            self._when_left()

    def accepted(self) -> None:
        """The command went out (or waits its turn to): the line empties and is left."""
        self.value = ""
        self.leave()

    def refused(self) -> None:
        """The command was refused: the line stays to be mended, selected, so that typing a new
        one replaces it; Backspace mends it (one letter goes, not the whole line: "dispute 6",
        Backspace, "7" is "dispute 7")."""
        self.sent = False
        self.select_all()
        self._refused_line = True

    async def _on_key(self, event: events.Key) -> None:
        # Before BurstLine's and Input's handlers (Textual calls each class's own, subclass first).
        refused, self._refused_line = self._refused_line, False
        if refused and event.key == "backspace" and not self.sent and self.screen.focused is self:
            self.cursor_position = len(self.value)  # the selection goes; Input deletes one letter

    def cancel(self) -> None:
        """Esc: leave the line, dropping what was typed."""
        self.value = ""
        self.leave()

    def _on_paste(self, event: events.Paste) -> None:
        # ":bleed 2" pasted into the empty line: the ":" that opens the line is not a word of it.
        text = event.text.lstrip()
        if not self.value and text.startswith(":"):
            event.stop()
            event.prevent_default()  # not Input's handler: this one inserts it
            self.insert_text_at_cursor(text[1:].lstrip().splitlines()[0] if text[1:].strip() else "")

    async def enter(self) -> None:
        """Enter: an empty line is left; a command is :class:`Entered` (the keys typed after it
        are dropped until the screen answers: :meth:`accepted`, :meth:`refused`)."""
        line = self.value.strip()
        if not line:
            self.leave()
            return
        self.sent = True
        self.post_message(self.Entered(self, line))

    async def action_submit(self) -> None:
        """Input's Enter binding (a key Enter is taken before it: :meth:`enter`)."""
        await self.enter()

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        ctx = self._read_context()
        # A change typed before Enter in one burst comes after the line went out: its hint would
        # cover the screen's answer (a refusal).
        if ctx is None or not event.value.strip() or self.sent:
            return
        found = completions(event.value, ctx)
        if found:
            shown = " · ".join(found[:4])
            self.post_message(self.Hint(self, f"→ completes: {shown}{' …' if len(found) > 4 else ''}"))


__all__ = ["CommandLine", "CommandSuggester"]
