"""Which master card a bot plays in its master phase (DESIGN.md: a bot chooses among the acts the
table offers, from its seat's view; rulebook, "2. Master Phase"): one whose every effect the table
applies and serves its player, at a cost that leaves the bot its reserve of pool.

A card qualifies when its record's effects are all of :data:`SERVING` (transfers, master phase
actions, lock uses, hand size, a Discipline and capacity for a vampire of its own, blood added to a
vampire of its own, a rival's minion locked, blood moved to its pool while the pool is low, the top crypt card brought out,
library cards burned for pool while the library is deep, the pool of three copies; a card that
passes to its predator after serving it: The Coven) and the act
offered puts it where it works: in play for a card that stays ("Put this card in play", a
location), on a vampire of the bot's for a card that goes on one, the ash heap for one whose effects
are done as it is played. A unique card of which any Methuselah already controls a copy is left in
hand (it would contest, or burn: rulebook, "Contested Cards"). Cards that hurt their own player or
must go on another's minion (Fame, Pentex™ Subversion, Anarch Revolt) are never played by this bot;
nor are out-of-turn master cards, as the table applies none of them yet. An event whose effect the
table applies is played where it serves the bot (:func:`engine.games.vtes.events.serves`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.games.base import Act
from engine.games.vtes import events
from engine.games.vtes.card_effects import DISCARD_DRAW, THREE_COPIES, Effect, EffectKind
from engine.games.vtes.card_record import CardRecord, Coverage, record
from engine.games.vtes.cards import PlayPlace, card_base, play_place
from engine.games.vtes.contests import copies
from engine.games.vtes.vocab import Do, Target, Zone

if TYPE_CHECKING:
    from engine.games.vtes.view import CardView, VtesView

SERVING = frozenset(
    {
        EffectKind.TRANSFERS,
        EffectKind.MASTER_ACTION,
        EffectKind.LOCK_USE,
        EffectKind.LOCK_COUNTERS,
        EffectKind.HAND_SIZE,
        EffectKind.DISCIPLINE,
        EffectKind.CAPACITY,
        EffectKind.ADD_BLOOD,
        EffectKind.MOVE_BLOOD,
        EffectKind.CRYPT_DRAW,
        EffectKind.LIBRARY_BURN,
        EffectKind.GAIN_POOL,
        EffectKind.TO_PREDATOR,
        EffectKind.RECOVER,
        EffectKind.LOCK,
    }
)
"""The effects of a master card a bot plays it for (see the module)."""


def _unused(e: Effect) -> bool:
    """An effect of a serving kind this bot does not use: pool gained but on three copies (a card of
    another shape), a card locked to discard and draw (The Barrens: this bot never locks it)."""
    return (e.kind == EffectKind.GAIN_POOL and e.whom != THREE_COPIES) or (
        e.kind == EffectKind.LOCK_USE and e.whom == DISCARD_DRAW
    )


LOW_POOL = 10
"""A bot moves blood from its vampires to its pool only at this pool or below."""
DEEP_LIBRARY = 15
"""A bot burns library cards for pool only with at least this many more cards in its library."""


def master_play(view: VtesView, seat: int, legal: list[Act], reserve: int) -> Act | None:
    """The master card play among ``legal`` that ``seat``'s bot makes now, in its own master
    phase, keeping ``reserve`` pool; the first in hand order that :func:`serves`; None for none."""
    if view.acting != seat or view.master_actions:
        return None
    for act in legal:
        card = next((c for c in view.hand if c.as_list() == act.get("card")), None) if act["do"] == Do.PLAY else None
        if card is not None and serves(view, seat, card, act, reserve):
            return act
    return None


def serves(view: VtesView, seat: int, card: CardView, act: Act, reserve: int) -> bool:
    """The offered ``act`` playing the master ``card`` serves ``seat`` (see the module)."""
    rec = record(card.card) if card.card else None
    info = card_base().info(card.card) if card.card else None
    if rec is None or info is None or not {"Master", "Event"} & set(rec.types) or rec.coverage != Coverage.FULLY:
        return False
    me = view.players[seat]
    cost = act.get("pool", 0)
    if not isinstance(cost, int) or me.pool - cost < reserve:
        return False
    if "Event" in rec.types:
        return act.get("to") == Target.READY and events.serves(view, seat, rec)
    if any(e.kind not in SERVING or _unused(e) for e in rec.effects):
        return False
    if copies(view.cards, card):
        return False
    place = play_place(info)
    if place == PlayPlace.IN_PLAY and act.get("to") != Target.READY:
        return False
    if place == PlayPlace.ON_MINION and not _on_own_vampire(view, seat, act.get("on")):
        return False
    burned = sum(e.amount for e in rec.effects if e.kind == EffectKind.LIBRARY_BURN)
    if burned and view.players[seat].library_count < burned + DEEP_LIBRARY:
        return False
    if rec.has(EffectKind.MOVE_BLOOD) and me.pool > LOW_POOL:
        return False
    return _worth(view, seat, act, rec)


def _on_own_vampire(view: VtesView, seat: int, on: object) -> bool:
    target = view.card((on[0], on[1])) if isinstance(on, list) else None
    return target is not None and target.crypt and target.controller == seat and target.zone == Zone.READY


def _worth(view: VtesView, seat: int, act: Act, rec: CardRecord) -> bool:
    """The choices the act states are worth it: a rival's minion locked (a card that locks one,
    Misdirection, only so); blood added to a vampire of the bot's; blood moved from a vampire that
    keeps 1 blood or more."""
    locked = act.get("lock_minion")
    if isinstance(locked, list):  # a rival's minion, never its own
        target = view.card((locked[0], locked[1]))
        return target is not None and target.controller != seat
    if any(e.kind == EffectKind.LOCK for e in rec.effects):
        return False  # played to lock a minion, and this act locks none
    added = act.get("add_to")
    if isinstance(added, list):
        target = view.card((added[0], added[1]))
        return target is not None and seat in (target.controller, target.owner)
    moved = act.get("move_blood")
    minion = act.get("minion")
    if isinstance(moved, int) and isinstance(minion, list):
        vampire = view.card((minion[0], minion[1]))
        return vampire is not None and vampire.counters - moved >= 1
    return True
