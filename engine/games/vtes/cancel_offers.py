"""A seat's answers to a card announced (the answer window, :mod:`engine.games.vtes.cancels`):
``pass``, or each card of its hand that cancels that card as it is played and that it may play
now (its timing, a master phase action left for it in its own master phase, its printed cost). :mod:`engine.games.vtes.offers` lists them with the other
windows' answers; the automatic pass passes when none is a card.
"""

from __future__ import annotations

from engine.games.base import Act
from engine.games.vtes.cancel_reading import misfit
from engine.games.vtes.card_checks import master_timing
from engine.games.vtes.card_play import printed_cost
from engine.games.vtes.card_record import record
from engine.games.vtes.state import Answer
from engine.games.vtes.view import VtesView
from engine.games.vtes.vocab import Do


def cancel_acts(view: VtesView, seat: int, answer: Answer) -> list[Act]:
    """``seat``'s answers to ``answer`` when it holds its impulse (else none): ``pass``, then a
    ``play`` of each hand card that cancels the card announced, with its printed cost."""
    if answer.loop.holder != seat:
        return []
    acts: list[Act] = [{"do": Do.PASS}]
    announced = view.card(answer.card)
    played = record(announced.card) if announced is not None and announced.card else None
    if played is None:
        return acts
    me = view.players[seat]
    near = (view.players[answer.seat].predator, view.players[answer.seat].prey)
    mine = [c for c in view.cards if c.controller == seat and c.zone.in_play]
    for c in view.hand:
        rec = record(c.card) if c.card else None
        if rec is None or misfit(rec, played, seat, answer.seat, near) is not None:
            continue
        if master_timing(rec, seat == view.acting, view.phase) is not None:
            continue
        if seat == view.acting and view.master_actions >= 1:  # in its own master phase, one used
            continue
        cost = printed_cost(c, mine, None)
        pool = cost.get("pool", 0)
        if isinstance(pool, int) and pool > me.pool:
            continue
        acts.append({"do": Do.PLAY, "card": c.as_list(), **cost})
    return acts
