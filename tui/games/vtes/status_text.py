"""The status line at a VTES table, in words. The frame (:mod:`tui.table_text`) says "Your turn."
whenever the table waits for this seat's move; but any Methuselah may act at any time, so at a
VTES table that is said only on this seat's own turn of play, and during an open action, combat
or referendum the line names whom the table waits for (the holder of the impulse, P1). No
Textual here: the screen shows these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.games.base import Act
from engine.games.vtes.view import VtesView
from engine.games.vtes.vocab import Step
from engine.table import Table
from tui.games.vtes.action_text import waiting_words
from tui.games.vtes.answer_text import answer_window
from tui.games.vtes.present import seat_name

YOUR_TURN = "Your turn."
"""What the frame's status line says when the table waits for this seat's move
(:func:`tui.table_text.waiting_text`): at a VTES table, only true on this seat's own turn."""


@dataclass(frozen=True)
class Status:
    """What the status line becomes: ``text`` (None: the frame's words stay) and whether it is
    marked as this seat's turn."""

    text: str | None
    your_turn: bool


def _work_shown(said: str) -> bool:
    """The status line shows protocol work or a stopped table, not whom the table waits for."""
    return not (said.startswith(YOUR_TURN) or said.startswith("Waiting for"))


def vtes_status(
    said: str, view: VtesView | None, table: Table, me: int | None, by_itself: Act | None = None
) -> Status | None:
    """The status line for ``view``, from what the frame said (``said``), keeping whatever the
    frame added after whom it waits for (a vote, a stalled seat); None: the frame's line stays
    as it is. Not this seat's turn: whose turn it is, or what the table waits for from this
    seat (its deck). ``by_itself``: the act this seat makes by itself now (its automatic pass):
    the line says so, never that the table waits for this seat."""
    names: Sequence[str] = list(table.names)
    owed = table.owes_move(me)  # else a draw settles first: the third state, neither waited for nor passing
    during = waiting_words(view, names, by_itself, owed) if view is not None and view.step == Step.PLAY else None
    if during is not None and not _work_shown(said):
        # An open action: the table waits for the holder of the impulse alone (P1), whatever
        # the frame read from the seats that may act; what the frame added after stays.
        waited = table.waiting_on()
        rest = said[len(YOUR_TURN) :] if said.startswith(YOUR_TURN) else ""
        if not rest and said.startswith("Waiting for"):
            rest = said[said.find(".") + 1 :] if "." in said else ""
        # a card that waits for answers inside the action says whom it waits for itself
        answering = view is not None and answer_window(view) is not None
        action = view.action if view is not None and by_itself is None and not answering else None
        if waited and action is not None and waited != [action.impulse]:
            during = "Waiting for " + ", ".join(seat_name(names, s) for s in waited) + "."
        return Status(during + rest, False)
    if not said.startswith(YOUR_TURN):
        return None
    mine = view is not None and view.step == Step.PLAY and me is not None and view.acting == me
    if mine:
        return Status(None, said == YOUR_TURN)
    if view is not None and view.step == Step.PLAY:
        words = f"{seat_name(names, view.acting)}'s turn; you may act too (a card, a reaction)."
    elif view is not None and view.step == Step.JOINING:
        words = "The table waits for your deck's sizes."
    else:
        words = "The table waits for you."
    return Status(words + said[len(YOUR_TURN) :], False)


__all__ = ["YOUR_TURN", "Status", "vtes_status"]
