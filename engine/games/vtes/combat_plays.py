"""What a combat card played in a step of combat changes (shared/rules/vtes-actions.md 5.2–5.9,
P5): the numbers its ``play`` act carries (docs/protocol.md 4.4.1), applied by the table at once
and narrated with the card's name, and the condition that binds the card to a step checked first.

- ``strength``: the playing minion's strength for the rest of the combat (Torn Signpost): its hand
  strike deals that much;
- ``environmental``: ranged damage the opposing minion takes each round of the combat during
  normal strike resolution (Carrion Crows): no strike, so no dodge avoids it;
- ``grapple``: strikes that are not hand strikes cannot be used this round, by either combatant;
  ``close``: another round of this combat is at close range, its determine range step skipped
  (Immortal Grapple);
- ``gain_blood``: at the end of a round, the blood the opposing vampire lost to damage this round
  (Taste of Vitae), up to the vampire's capacity;
- ``press``: the card's optional press, made in this round's press step;
- ``aggravated``: the damage of the playing minion's hand strikes is aggravated this round (Claws
  of the Dead; Chiropteran Marauder, its blood burned with the act's ``blood``), with
  ``whole_combat`` for the rest of the combat (Raking Talons);
- ``equip``: a weapon card of the hand the playing minion equips with, its cost paid
  (Concealed Weapon, :mod:`engine.games.vtes.combat_equip`).
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.base import IllegalMove, Pos
from engine.games.vtes.act_records import PlayAct
from engine.games.vtes.acts import esc, within
from engine.games.vtes.card_record import record
from engine.games.vtes.combat_equip import equip
from engine.games.vtes.readings import bound
from engine.games.vtes.state import Combat
from engine.games.vtes.vocab import CombatStep, Lift, Zone, step_words
from engine.games.vtes.work import Work

FIELDS = ("strength", "environmental", "grapple", "close", "gain_blood", "press", "aggravated", "whole_combat", "equip")
"""The ``play`` act's fields a combat card's effects put in it (docs/protocol.md 4.4.1)."""


def carries(act: PlayAct) -> bool:
    """The act carries a combat card's effect (one of :data:`FIELDS`)."""
    return any(getattr(act, f) for f in FIELDS)


def check_bound(w: Work, c: Combat, pos: Pos) -> None:
    """Refuse (liftable, ``timing``) the combat card at ``pos`` outside the step, range or round
    its whole-card "Only usable …" condition names (:func:`engine.games.vtes.readings.bound`),
    in the card's words."""
    info = w.info(pos)
    rec = record(info.id) if info is not None else None
    if rec is None:
        return
    b = bound(rec)
    if not b.fits(c.step, c.long, c.round):
        where = f"{'long' if c.long else 'close'} range, round {c.round}, {step_words(c.step)}"
        w.refuse(Lift.TIMING, f'{esc(rec.name)} says "{b.words}", and this is {where}')


def apply_play(w: Work, c: Combat, pos: Pos, act: PlayAct, minion: Pos | None) -> Combat:
    """The combat ``c`` once the card at ``pos``, played by the combatant ``minion``, applies the
    effects its act carries (the module's list), each narrated with the card's name. Raises
    IllegalMove for an effect with no combatant to play it or that cannot apply now."""
    if not carries(act):
        return c
    name = w.name(pos)
    if minion is None or minion not in (c.acting, c.opposing):
        raise IllegalMove(f"{name}'s effects are a combatant's: name the minion of yours in this combat that plays it")
    other = c.opposing if minion == c.acting else c.acting
    who, them = w.name(minion), w.name(other)
    seats = (w.cards[c.acting].controller, w.cards[c.opposing].controller)
    if act.strength is not None:
        n = within(act.do, "strength", act.strength, low=0, high=10)
        c = replace(c, strength=(*((m, k) for m, k in c.strength if m != minion), (minion, n)))
        w.note(f"{who} has a strength of {n} this combat ({name})", *seats)
    if act.environmental is not None:
        n = within(act.do, "environmental", act.environmental, low=1, high=10)
        c = replace(c, environmental=(*c.environmental, (other, n)))
        w.note(f"{them} takes {n}R damage each round of this combat ({name})", *seats)
    if act.grapple or act.close:
        if c.long:
            raise IllegalMove(f"{name} grapples at close range, and the combat is at long range")
        c = replace(c, hand_only=c.hand_only or bool(act.grapple), close_next=c.close_next or bool(act.close))
        said = "only hand strikes this round" if act.grapple else ""
        said += (", and " if said else "") + "another round is at close range" if act.close else ""
        w.note(f"{name}: {said}", *seats)
    if act.gain_blood is not None:
        c = _drink(w, c, act, minion, other, name)
    if act.press:
        c = replace(c, presses=(*c.presses, (minion, pos)))
    if act.equip is not None:
        equip(w, pos, act.equip, minion)
    if act.aggravated or act.whole_combat:
        if act.whole_combat:
            c = replace(c, aggravated_combat=(*c.aggravated_combat, minion))
        else:
            c = replace(c, aggravated=(*c.aggravated, minion))
        how = "the rest of the combat" if act.whole_combat else "this round"
        w.note(f"{who}'s hand strikes deal aggravated damage {how} ({name})", *seats)
    return c


def _drink(w: Work, c: Combat, act: PlayAct, minion: Pos, other: Pos, name: str) -> Combat:
    """``gain_blood``: at the end of the round, the blood ``other`` lost to damage this round, to
    the ready vampire ``minion`` (what it cannot hold drains to the blood bank)."""
    from engine.games.vtes.combat import room

    n = within(act.do, "gain_blood", act.gain_blood, low=0, high=30)
    if c.step != CombatStep.END_OF_ROUND:
        raise IllegalMove(f"{name} is played at the end of a round, and this is {step_words(c.step)}")
    if not w.cards[minion].crypt or w.cards[minion].zone != Zone.READY:
        raise IllegalMove(f"{name} is played by a ready vampire: {w.name(minion)} is not one")
    lost = c.lost_by(other)
    if n != lost:
        raise IllegalMove(f"{w.name(other)} lost {lost} blood to damage this round: {name} gains that, not {n}")
    gain = room(w, minion, n)
    if gain:
        w.counters_delta(minion, gain, "drink")
    kept = f" ({n - gain} drains to the blood bank)" if gain < n else ""
    w.note(f"{w.name(minion)} gains {gain} blood ({name}){kept}", w.cards[minion].controller)
    return c
