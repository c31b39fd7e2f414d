"""Where this seat's answer to the innermost window stands, said once: the status line
(:mod:`tui.games.vtes.status_text`), the footer's answer keys and the line a refused answer key
leaves (:mod:`tui.games.vtes.table`) all read the one :class:`Answer` the screen decides at each
redraw, so that they never disagree. No Textual here.

The five states, in the order they are decided (rules/vtes-actions.md, P1: the table waits for the
holder of the impulse alone):

- ``SENT``: an act of this seat is on its way to the table (pressed, checked, not yet taken): the
  table no longer waits for it, whatever the view still shows;
- ``BY_ITSELF``: the seat's automatic pass answers now (never shown as waiting);
- ``NONE``: the innermost window offers this seat nothing (another holds the impulse, or nothing
  is open);
- ``SETTLING``: the answer would be this seat's, but the table does not wait for its move yet (a
  draw's shares, a shuffle come first);
- ``DUE``: the table waits for this seat's answer: its keys are in the footer.
"""

from __future__ import annotations

from enum import Enum

from engine.games.base import Act
from engine.games.vtes.view import VtesView
from tui.games.vtes import key_acts


class Answer(Enum):
    """Where this seat's answer stands (see the module)."""

    SENT = "sent"
    BY_ITSELF = "by itself"
    NONE = "none"
    SETTLING = "settling"
    DUE = "due"


def answer_now(view: VtesView | None, me: int | None, *, sending: bool, owed: bool, by_itself: Act | None) -> Answer:
    """The state of ``me``'s answer in ``view``: ``sending``, an act of this seat is on its way
    to the table; ``owed``, the table waits for this seat's move
    (:meth:`engine.table.table.Table.owes_move`); ``by_itself``, the act its automatic pass
    makes now (None: none)."""
    if sending:
        return Answer.SENT
    if by_itself is not None:
        return Answer.BY_ITSELF
    if not key_acts.answer_due(view, me):
        return Answer.NONE
    return Answer.DUE if owed else Answer.SETTLING


__all__ = ["Answer", "answer_now"]
