"""Whether a bot cancels a card announced (the answer window, :mod:`engine.games.vtes.cancels`):
the cards worth its cancel, read from what the table shows every seat (the windows open, the card
announced, whose it is). The offers say which cards of its hand may; this says whether to.
"""

from __future__ import annotations

from engine.games.vtes.card_record import record
from engine.games.vtes.state import Answer
from engine.games.vtes.view import VtesView


def worth_canceling(view: VtesView, seat: int, answer: Answer) -> bool:
    """``seat`` gains by canceling the card ``answer`` announced: a rival's master card (it helps
    that rival), but a cancel, worth canceling only when the card it would cancel is ``seat``'s own;
    a minion card played in an action directed at ``seat`` by its actor (a modifier of that action)
    or in a combat with one of ``seat``'s minions, by the other side."""
    if answer.seat == seat:
        return False
    card = view.card(answer.card)
    rec = record(card.card) if card is not None and card.card else None
    if rec is None:
        return False
    below = view.windows[-2] if len(view.windows) >= 2 and view.windows[-1] == answer else None
    if "Master" in rec.types:
        return below.seat == seat if isinstance(below, Answer) else True
    combat = view.combat
    if combat is not None and below is combat:
        mine = {c.pos for c in view.controlled(seat)}
        return bool({combat.acting, combat.opposing} & mine)
    action = view.action
    return action is not None and below is action and action.actor == answer.seat and seat in action.targets
