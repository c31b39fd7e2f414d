"""Burning the Edge for a card (the act ``burn_edge``, docs/vtes-by-hand.md, "Burning the Edge for
a card"): who may, for which card, and what the card then does where the table reads it
(:mod:`engine.games.vtes.edge_readings`: Emily Carson unlocks, Hartmut Stover's Methuselah gains
1 pool); any other card's effect is applied by hand.
"""

from __future__ import annotations

from engine.games.base import IllegalMove, Pos, seat_ref
from engine.games.vtes import claims
from engine.games.vtes.acts import esc
from engine.games.vtes.card_effects import Effect, EffectKind
from engine.games.vtes.card_record import record
from engine.games.vtes.cards import card_base
from engine.games.vtes.edge_readings import BurnTime, burn_time
from engine.games.vtes.vocab import Zone
from engine.games.vtes.work import Work


def burned_for(ident: str) -> tuple[Effect, BurnTime] | None:
    """What the card ``ident`` does as the Edge is burned for it, with when it may be, where the
    table applies it; None: by hand (or nothing)."""
    rec = record(ident)
    for e in rec.effects if rec is not None else ():
        if (when := burn_time(e)) is not None:
            return e, when
    return None


def burn_edge(w: Work, by: Pos) -> None:
    """The author burns the Edge for the card at ``by``: the Edge then belongs to nobody (rulebook,
    "Requirements for Playing Cards": "the Methuselah must control the Edge to burn it for a
    cost"), and the card's effect is applied when the table reads it (:func:`burned_for`), at the
    time its text says. Raises IllegalMove when the author does not control the Edge, ``by`` is
    not a face-up card of its own whose text speaks of the Edge, or the card's effect may not be
    had now (its phase, its turn, ready, locked)."""
    if w.edge != w.author:
        has = "nobody has it" if w.edge < 0 else f"{seat_ref(w.edge)} has it"
        raise IllegalMove(f"only the Methuselah who controls the Edge may burn it, and {has}")
    claims.own_source(w, by, "the card that lets you burn the Edge")
    c = w.card(by)
    info = card_base().info(c.card)
    if info is not None and "edge" not in info.text.lower():
        raise IllegalMove(
            f"{esc(info.name)} says nothing of the Edge: name the card of yours whose text lets you burn it"
        )
    use = burned_for(c.card)
    if use is not None:
        _check_time(w, by, *use)
    w.edge = -1
    if use is None:
        return
    effect, _ = use
    if effect.kind == EffectKind.UNLOCK:
        w.setc(by, locked=False)
        w.note(f"{w.name(by)} unlocks (the Edge burned for it)", w.author)
    else:
        got = w.pool_delta(w.author, effect.amount, "card")
        w.note(f"{w.name(by)}: {seat_ref(w.author)} burns the Edge and gains {got} pool", w.author)


def _check_time(w: Work, by: Pos, effect: Effect, when: BurnTime) -> None:
    """Raise IllegalMove when the Edge may not be burned for ``effect`` of the card at ``by`` now."""
    c = w.card(by)
    name = w.name(by)
    said = f"{name}'s Methuselah may burn the Edge for it {when.words()}"
    if when.own and w.acting != w.author:
        raise IllegalMove(f"{said}, and this is {seat_ref(w.acting)}'s turn")
    if when.phase is not None and w.phase != when.phase:
        raise IllegalMove(f"{said}, and this is the {w.phase} phase")
    if c.zone not in (Zone.READY, Zone.TORPOR):
        raise IllegalMove(f"{name} is not in play")
    if when.ready and c.zone != Zone.READY:
        raise IllegalMove(f"{said}, and {name} is not ready")
    if effect.kind == EffectKind.UNLOCK and not c.locked:
        raise IllegalMove(f"{name} is not locked: burning the Edge to unlock it would do nothing")


__all__ = ["burn_edge", "burned_for"]
