"""A maneuver a reaction gives its blocker for the combat that follows the block ("[AUS] As above,
with 1 optional maneuver during the resulting combat if this vampire blocks": Spirit's Touch,
Guard Dogs; rulebook, "Combat": a card may give a maneuver for a later combat).

The sentence is read here (:func:`read`, consulted through :mod:`engine.games.vtes.more_readings`);
as the block succeeds and combat opens, the blocker's reactions played in the action that give such
a maneuver are carried into the combat (:func:`at_block`: ``Combat.carried``, the card named by
its position in the ash heap); the blocker makes it in the range step as a ``maneuver`` naming that
card (:func:`engine.games.vtes.combat.maneuver`), once. A card played at a Discipline level is
read at the best level its minion has (the act does not name it; superior adds the maneuver).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.games.base import Pos
from engine.games.vtes.card_effects import Effect, EffectKind
from engine.games.vtes.card_record import record
from engine.games.vtes.cards import card_id

if TYPE_CHECKING:
    from engine.games.vtes.state import Action
    from engine.games.vtes.work import Work

IF_BLOCKS = "in the resulting combat if it blocks"
"""The ``whom`` of an optional maneuver (:attr:`EffectKind.MANEUVER`) a reaction gives its minion
for the combat that follows its block."""
_READ = {
    "1 optional maneuver during the resulting combat if this vampire blocks": (
        Effect(EffectKind.MANEUVER, 1, optional=True, whom=IF_BLOCKS),
    ),
}


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effects of ``sentence`` (lower case, as :func:`engine.games.vtes.card_effects.sentences`
    gives it) when it is one of this module's shapes, else None."""
    return _READ.get(sentence)


def at_block(w: Work, a: Action) -> tuple[tuple[Pos, Pos], ...]:
    """The maneuvers ``a``'s blocker carries into the combat its block opens: ``(blocker, card)``
    for each card it played in the action (``Action.played``) whose clause at the best level it
    has gives one (:data:`IF_BLOCKS`), the card found in its owner's ash heap, the latest first."""
    if not a.blocker:
        return ()
    info = w.info(a.blocker)
    have = frozenset(info.disciplines) if info is not None else frozenset()
    out: list[tuple[Pos, Pos]] = []
    for minion, cid in a.played:
        rec = record(cid) if minion == a.blocker else None
        clauses = rec.clauses_for(have) if rec is not None else ()
        best = max(clauses, key=lambda c: c.superior, default=None)
        if best is None or not any(e.kind == EffectKind.MANEUVER and e.whom == IF_BLOCKS for e in best.effects):
            continue
        owner = w.cards[a.blocker].controller
        card = next(
            (p for p in reversed(w.ashed) if w.cards[p].owner == owner and card_id(w.cards[p].card) == cid), None
        )
        if card is not None and (a.blocker, card) not in out:
            out.append((a.blocker, card))
    return tuple(out)
