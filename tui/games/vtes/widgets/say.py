"""The line under the table: whose turn and phase it is (the turn line), or what the screen has
to say: a refusal (``-illegal``) or what to do by hand after a play (``-todo``), which stay until
the next key, or a passing word the next redraw replaces (a hint, a vote's sources). Every one
wraps whole: the line is as tall as its words. A refusal the table has moved on from (a move
folded since) stays, muted (``-past``), marked as said before it, until the next key or until the
turn line changes (another phase, another turn): then it is of a moment long gone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.widgets import Static

from engine.games.base import Note
from tui.games.vtes.widgets.redraw import show
from tui.widgets.common.notes import is_chat

#: What a refusal becomes once the table has moved on (:meth:`SayLine.outdate`).
PAST = "Before the last move: "


def moved_on(notes: Sequence[Note]) -> bool:
    """``notes`` (the log's since a refusal) tell of a move, not only chat."""
    return any(not is_chat(n) for n in notes)


#: The turn line now, and whether it has its row (no box, action, combat or referendum, says it
#: all); None before the table has started.
Turn = tuple[str, bool] | None


class SayLine(Static):
    """The turn line (``turn()``), or the screen's last word. :meth:`say` shows a word;
    :meth:`show_turn` the turn line unless a word that stays is shown; :meth:`unstick` lets the
    turn line back. Its classes ``-illegal`` and ``-todo`` are styled (and sized) by the screen's
    stylesheet, beside the rows around it."""

    def __init__(self, turn: Callable[[], Turn], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._turn = turn
        #: The turn line when an after-play note was shown: a new one replaces the note.
        self._turn_at_note = ""
        #: The turn line when the refusal shown was marked as said before the last move.
        self._turn_at_past = ""
        self._said = ""

    @property
    def sticky(self) -> bool:
        """A refusal or an after-play note is shown: it stays until the next key."""
        return self.has_class("-illegal") or self.has_class("-todo") or self.has_class("-past")

    def say(self, text: str, illegal: bool, todo: bool = False) -> None:
        """Show ``text``, wrapped whole: ``illegal`` (a refusal) and ``todo`` (what to do by hand
        after a play) stay until the next key (a ``todo`` note, or until the turn line changes);
        any other text, until the next redraw replaces it."""
        self.display = True
        self.update(text)
        self._said = text
        self.set_class(illegal, "-illegal")
        self.set_class(False, "-past")
        self.set_class(todo and not illegal, "-todo")
        now = self._turn() if todo else None
        if now is not None:
            self._turn_at_note = now[0]

    def outdate(self) -> None:
        """The table moved on since the refusal shown (a move folded): it stays until the next
        key, muted and marked as said before that move (:data:`PAST`); nothing else changes."""
        if self.has_class("-illegal"):
            self.set_class(False, "-illegal")
            self.set_class(True, "-past")
            self.update(PAST + self._said)
            now = self._turn()
            self._turn_at_past = now[0] if now is not None else ""

    def show_turn(self) -> None:
        """Show the turn line, unless a refusal or a note that outlives it is shown. During an
        action, a combat or a referendum the box says it all: the line gives its row back, but a
        refusal or a note still shows."""
        now = self._turn()
        if now is None:
            return
        turn, quiet = now
        if self.has_class("-past") and turn != self._turn_at_past:
            self.set_class(False, "-past")  # a refusal of another phase or turn: stale
        self.display = quiet or self.sticky
        if self.has_class("-illegal") or self.has_class("-past"):
            return  # the last refusal stays until the next key
        if self.has_class("-todo"):
            if turn == self._turn_at_note:
                return  # what to do after a play stays until the next key, or news of the turn
            self.set_class(False, "-todo")  # the turn changed (a phase, a withdrawal that fails)
        show(self, turn)

    def unstick(self) -> None:
        """The person moved on: the turn line replaces the last refusal or after-play note."""
        if self.sticky and self._turn() is not None:
            self.set_class(False, "-illegal")
            self.set_class(False, "-todo")
            self.set_class(False, "-past")
            self.show_turn()


__all__ = ["PAST", "SayLine", "Turn", "moved_on"]
