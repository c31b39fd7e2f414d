"""Aim cards, played as a minion chooses a strike (rulebook, "Strike"; Target Vitals: "Aim. Only
usable as this minion chooses a strike. A minion can play only one aim each strike. If any damage
from this strike is successfully inflicted on the opposing minion, they take +2 damage from this
strike, and they cannot press this round.").

The aim rides with the ``strike`` act (``aim``: the card's position in hand, docs/protocol.md
4.4.1), one per strike; the strike keeps the aim's points (:attr:`Strike.aim
<engine.games.vtes.state.Strike>`). As the pair resolves, a target that still takes some of the
strike's damage once prevention is taken off takes the aim's points more from that strike (what is
left of its prevention prevents them too) and cannot press this round (:attr:`Combat.no_press
<engine.games.vtes.state.Combat>`). An aim goes only with a strike that deals damage at the range.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.games.base import Act, IllegalMove, Pos
from engine.games.vtes.act_records import StrikeAct
from engine.games.vtes.card_effects import EffectKind
from engine.games.vtes.card_record import CardRecord, record
from engine.games.vtes.damage import prevented
from engine.games.vtes.state import Combat, Strike
from engine.games.vtes.vocab import Zone
from engine.games.vtes.work import Work

if TYPE_CHECKING:  # the view reads the rules that read this module
    from engine.games.vtes.view import CardView, VtesView


def aim_points(rec: CardRecord | None) -> int:
    """The points an aim card adds to the strike it is played with (0: ``rec`` is no aim)."""
    if rec is None:
        return 0
    return sum(e.amount for c in rec.clauses for e in c.effects if e.kind == EffectKind.AIM)


def lands(s: Strike, long: bool) -> bool:
    """The strike ``s`` deals damage to the opposing minion at the range (``long``): not a dodge,
    combat ends, a torpor or burn strike, nor a melee strike at long range (5.4)."""
    return (
        s.damage > 0
        and not (s.dodge or s.ends or s.torpor or s.burn or s.other or s.retainer)
        and (s.ranged or not long)
    )


def aimed_strike(w: Work, act: StrikeAct, s: Strike, long: bool) -> Strike:
    """The strike ``s`` with the aim card ``act.aim`` (None: ``s`` as it is). Raises IllegalMove
    for a card that is not an aim in the author's hand, or a strike an aim cannot go with."""
    if act.aim is None:
        return s
    held = w.card(act.aim)
    info = w.info(act.aim)
    points = aim_points(record(info.id) if info is not None else None)
    if held.zone != Zone.HAND or held.owner != w.author or not points:
        raise IllegalMove(f"{w.name(act.aim)} is not an aim card in your hand")
    if act.aim == act.card:
        raise IllegalMove(f"{w.name(act.aim)} is played once: as the strike or as its aim")
    if not lands(s, long):
        raise IllegalMove(f"{w.name(act.aim)} aims a strike that deals damage at this range")
    return replace(s, aim=points)


def aimed_damage(
    c: Combat, target: Pos, normal: int, aggravated: int, aim: tuple[int, bool], environmental: int
) -> tuple[int, int] | None:
    """The ``(normal, aggravated)`` points ``target`` takes when an aimed strike at it resolves
    with ``normal`` and ``aggravated`` points (``environmental`` of them not the strike's), the aim
    giving ``aim`` ``(points, aggravated)``: with the aim's points once some of the strike's damage
    gets through prevention; None when none of it does (no more damage, no bar on pressing)."""
    if sum(prevented(c, target, normal, aggravated)) <= environmental:
        return None
    points, agg = aim
    return prevented(c, target, normal + (0 if agg else points), aggravated + (points if agg else 0))


def aim_cards(view: VtesView, minion: CardView) -> list[CardView]:
    """The aim cards of the hand ``minion`` may play with its strike now: within their printed
    cost and limits, meeting their requirements."""
    from engine.games.vtes.card_checks import missing_requirement
    from engine.games.vtes.cards import card_base
    from engine.games.vtes.combat_cards import affordable_combat_cards

    who = card_base().info(minion.card) if minion.card else None
    return [
        held
        for held, rec in affordable_combat_cards(view, minion)
        if aim_points(rec) and (who is None or missing_requirement(rec, who, minion.name) is None)
    ]


def deals_damage(act: Mapping[str, object], long: bool) -> bool:
    """The ``strike`` act deals damage at the range (``long``): its card's damage, ranged at long
    range, or the hand strike at close range (an aim may go with it)."""
    if any(act.get(k) for k in ("dodge", "ends", "torpor", "burn", "retainer", "other")):
        return False
    if "damage" in act:
        return bool(act["damage"]) and (bool(act.get("ranged")) or not long)
    return not act.get("steal") and not long


def aimed_acts(view: VtesView, strikes: list[Act]) -> list[Act]:
    """The ``strike`` acts among ``strikes`` that deal damage, each with every aim card its minion
    may play (``aim``)."""
    c = view.combat
    if c is None:
        return []
    out: list[Act] = []
    for act in strikes:
        minion = view.card(tuple(act["minion"]))
        if minion is None or not deals_damage(act, c.long):
            continue
        out += [{**act, "aim": held.as_list()} for held in aim_cards(view, minion) if held.as_list() != act.get("card")]
    return out
