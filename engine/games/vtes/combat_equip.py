"""Combat cards that arm their minion: one equips it with a weapon from the hand (Concealed
Weapon: "Only usable before range is determined. This minion equips with a non-unique weapon card
from your hand (requirements and cost apply as normal). The weapon cannot cost 3 or more pool or
inflict (with a regular strike) aggravated damage or 4 or more damage."); one becomes a weapon
itself (Weighted Walking Stick: "Put this card with 5 counters on it on this minion; it becomes a
melee weapon equipment that can strike: strength+1 damage. For each damage inflicted by this strike
(even if prevented), burn 1 counter from this card. Burn this card if it has no counters. A minion
can have only one Weighted Walking Stick.").

The ``play`` act carries the weapon (``equip``: its position in hand, docs/protocol.md 4.4.1): the
table checks the card's limits (:func:`refusal`), the weapon's requirements against the minion,
takes its printed cost (pool from its Methuselah, blood from the vampire) and puts it on the minion,
where it strikes from play as any weapon does (:func:`engine.games.vtes.readings.weapon_strikes`).

The card that becomes a weapon is played with ``to`` "on" and ``on`` the playing minion: it goes
there with its counters (:func:`put_as_weapon`), strikes from play for the minion's strength plus
its bonus (:func:`stick_strike`), and each point of that strike's damage burns a counter, the card
burned with none left (:func:`wear`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.games.base import IllegalMove, Pos
from engine.games.vtes.card_effects import Effect, EffectKind
from engine.games.vtes.card_record import CardRecord, record
from engine.games.vtes.cards import CardInfo, card_base
from engine.games.vtes.state import Strike
from engine.games.vtes.vocab import Target, Zone

if TYPE_CHECKING:  # the view reads the rules that read this module
    from engine.games.vtes.act_records import PlayAct
    from engine.games.vtes.readings import StrikeReading
    from engine.games.vtes.view import CardView, VtesView
    from engine.games.vtes.work import Work


def equip_effect(rec: CardRecord | None) -> Effect | None:
    """The card's "equips with a weapon card from your hand" effect (``amount``: the damage its
    regular strike must stay under; ``least``: the pool its cost must stay under), or None."""
    if rec is None:
        return None
    return next((e for c in rec.clauses for e in c.effects if e.kind == EffectKind.EQUIP_WEAPON), None)


def refusal(e: Effect, weapon: CardInfo) -> str | None:
    """Why the card of effect ``e`` cannot equip with ``weapon`` (a sentence), or None: it is no
    weapon, is unique, costs ``e.least`` pool or more, or its regular strike inflicts aggravated
    damage or ``e.amount`` damage or more."""
    from engine.games.vtes.readings import is_weapon, strike_readings

    rec = record(weapon.id)
    if rec is None or not is_weapon(rec):
        return f"{weapon.name} is not a weapon"
    if rec.requires.unique:
        return f"{weapon.name} is unique"
    if weapon.pool_cost >= e.least:
        return f"{weapon.name} costs {weapon.pool_cost} pool ({e.least} or more)"
    for r in strike_readings(weapon.id):
        if r.aggravated or r.damage >= e.amount:
            what = "aggravated damage" if r.aggravated else f"{r.damage} damage"
            return f"{weapon.name}'s strike inflicts {what}"
    return None


def weapons_to_equip(view: VtesView, minion: CardView, e: Effect) -> list[CardView]:
    """The weapon cards of the hand ``minion`` may equip with by the card of effect ``e``: within
    its limits (:func:`refusal`), meeting the weapon's requirements, whose printed cost it can pay
    besides ``minion``'s blood and its Methuselah's pool."""
    from engine.games.vtes.card_checks import missing_requirement

    base = card_base()
    who = base.info(minion.card) if minion.card else None
    pool = view.players[minion.controller].pool
    out = []
    for held in view.hand:
        info = base.info(held.card) if held.card and "Equipment" in held.types else None
        if info is None or refusal(e, info) is not None or info.pool_cost > pool:
            continue
        if info.blood_cost and (not minion.crypt or minion.counters < info.blood_cost):
            continue
        rec = record(info.id)
        if who is not None and rec is not None and missing_requirement(rec, who, minion.name) is not None:
            continue
        out.append(held)
    return out


def equip(w: Work, card: Pos, weapon: Pos, minion: Pos) -> None:
    """The card at ``card`` equips the combatant ``minion`` with the weapon at ``weapon`` from the
    author's hand, its cost paid, narrated with both names. Raises IllegalMove for a card that
    equips nothing, a weapon not in the author's hand, one outside the card's limits or whose cost
    cannot be paid; refuses (liftable) one whose requirements ``minion`` does not meet."""
    from engine.games.vtes.card_checks import check_requirements

    info = w.info(card)
    e = equip_effect(record(info.id) if info is not None else None)
    name = w.name(card)
    if e is None:
        raise IllegalMove(f"{name} equips no weapon from the hand")
    held = w.cards.get(weapon)
    found = w.info(weapon) if held is not None else None
    if held is None or found is None or held.zone != Zone.HAND or held.owner != w.author:
        raise IllegalMove(f"{name} equips with a weapon card from your hand: that card is not in it")
    why = refusal(e, found)
    if why is not None:
        raise IllegalMove(f"{name} cannot equip with it: {why}")
    check_requirements(w, weapon, minion)
    if found.pool_cost:
        if w.p(w.author).pool < found.pool_cost:
            raise IllegalMove(f"{found.name} costs {found.pool_cost} pool and you have {w.p(w.author).pool}")
        w.pool_delta(w.author, -found.pool_cost, "cost")
    if found.blood_cost:
        if not w.cards[minion].crypt or w.cards[minion].counters < found.blood_cost:
            raise IllegalMove(f"{found.name} costs {found.blood_cost} blood and {w.name(minion)} cannot pay it")
        w.counters_delta(minion, -found.blood_cost, "cost")
    w.move(weapon, Target.ON, None, minion)
    w.note(f"{w.name(minion)} equips with {w.name(weapon)} ({name})", w.author)


def becomes_weapon(rec: CardRecord | None) -> Effect | None:
    """The card's "put this card on this minion; it becomes a melee weapon" effect (``amount``
    counters, strength + ``least`` damage), or None."""
    if rec is None:
        return None
    return next((e for c in rec.clauses for e in c.effects if e.kind == EffectKind.BECOMES_WEAPON), None)


def has_one(view: VtesView, minion: CardView, rec: CardRecord) -> bool:
    """``minion`` has a copy of the card ``rec`` on it already (one such weapon a minion)."""
    return any(c.on == minion.pos and c.card and record(c.card) == rec for c in view.cards)


def put_as_weapon(w: Work, pos: Pos, act: PlayAct, minion: Pos) -> None:
    """The card at ``pos``, played by the combatant ``minion``, goes on it as a weapon with its
    counters (the act's ``to`` "on" and ``on`` ``minion``; :func:`engine.games.vtes.rules` moves it
    there, keeping them). Does nothing for a card that becomes no weapon. Raises IllegalMove for an
    act that puts it elsewhere, or a minion that has one already."""
    info = w.info(pos)
    e = becomes_weapon(record(info.id) if info is not None else None)
    if e is None or info is None:
        return
    name = w.name(pos)
    if act.to != Target.ON or act.on != minion:
        raise IllegalMove(f"{name} goes on the minion that plays it: play it with to 'on' and on that minion")
    if any(c.on == minion and c.zone == Zone.ON and w.info(p) == info for p, c in w.cards.items()):
        raise IllegalMove(f"{w.name(minion)} has a {name} already: a minion can have only one")
    w.setc(pos, counters=e.amount)
    w.note(f"{name} goes on {w.name(minion)} with {e.amount} counters: a melee weapon", w.author)


def stick_strike(rec: CardRecord | None, strength: int) -> StrikeReading | None:
    """The strike of the card ``rec`` that became a weapon, for a minion of ``strength``: melee,
    strength + its bonus; None for another card."""
    from engine.games.vtes.readings import StrikeReading

    e = becomes_weapon(rec)
    return StrikeReading(levels=(), damage=strength + e.least) if e is not None else None


def wear(w: Work, s: Strike) -> None:
    """The strike ``s``, resolving with its damage inflicted, burns a counter of the card it
    struck with (``s.worn``) per point of that damage, even if prevented; the card burns with none
    left."""
    pos = s.worn
    if not pos or pos not in w.cards or w.cards[pos].zone != Zone.ON or not s.damage:
        return
    burned = min(s.damage, w.cards[pos].counters)
    left = w.cards[pos].counters - burned
    w.setc(pos, counters=left)
    controller = w.cards[pos].controller
    if left:
        w.note(f"{w.name(pos)} burns {burned} counters: {left} left", controller)
        return
    w.note(f"{w.name(pos)} has no counters left and is burned", controller)
    w.move(pos, Target.ASH)
