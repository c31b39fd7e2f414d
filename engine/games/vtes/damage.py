"""A strike in a player's words, and what damage does once prevented (shared/rules/vtes-actions.md
5.4, P5, P6): the arithmetic the table applies (:mod:`engine.games.vtes.combat`) and a screen
foresees, on the combat records of :mod:`engine.games.vtes.state`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.games.base import Pos
from engine.games.vtes.state import Combat, Strike


def strike_words(s: Strike) -> str:
    """A strike in a player's words ("hand strike, 1 damage", "dodge", "2R aggravated, first strike")."""
    if s.dodge:
        return "dodge" + (", unlocks" if s.unlock else "")
    if s.ends:
        return "combat ends" + (", unlocks" if s.unlock else "")
    if s.torpor or s.burn:
        return "the opposing vampire to torpor" if s.torpor else "burn the opposing ally"
    if s.other:
        return "a card's strike, applied by hand"
    parts = []
    if s.damage or not s.steal:
        parts.append(f"{s.damage}{'R' if s.ranged else ''} {'aggravated ' if s.aggravated else ''}damage")
    if s.steal:
        parts.append(f"steal {s.steal} blood{' at range' if s.ranged and not s.damage else ''}")
    if s.first:
        parts.append("first strike")
    if s.retainer:
        parts.append("at a retainer")
    if s.unlock:
        parts.append("unlocks")
    text = ", ".join(parts)
    return f"hand strike, {text}" if s.hand else text


def prevented(c: Combat, target: Pos, normal: int, aggravated: int) -> tuple[int, int]:
    """The ``(normal, aggravated)`` points of damage ``target`` still takes in the pair under way
    once the prevention recorded in ``c`` (``prevent`` acts, P5) is taken off; never below 0."""
    for minion, pn, pa in c.prevent:
        if minion == target:
            normal, aggravated = max(0, normal - pn), max(0, aggravated - pa)
    return normal, aggravated


@dataclass(frozen=True)
class DamageResult:
    """What ``normal`` and ``aggravated`` points of damage do to a minion (P6): ``left``: its
    blood (a vampire) or life (an ally or retainer) afterwards; ``wounded``: a vampire that could
    not mend it all, or was in torpor; ``burned``: it burns."""

    left: int
    wounded: bool
    burned: bool


def damage_result(counters: int, crypt: bool, torpor: bool, normal: int, aggravated: int) -> DamageResult:
    """The damage arithmetic of P6, after prevention, on a minion with ``counters`` blood (a
    vampire, ``crypt``) or life, ``torpor``: a vampire in torpor. A vampire mends normal damage
    with blood (what it cannot mend wounds it); aggravated damage cannot be mended, the first point
    wounds an unwounded vampire, each other point burns 1 blood or, with none left, burns the
    vampire. An ally or a retainer loses 1 life per point, burned at 0. Changes nothing: this is
    what :func:`engine.games.vtes.combat.apply_damage` applies and what a screen foresees."""
    if not crypt:
        left = max(0, counters - normal - aggravated)
        return DamageResult(left, False, left == 0 and bool(normal or aggravated))
    blood = counters - min(normal, counters)
    wounded = normal > counters or torpor
    left = aggravated
    if not wounded and left:
        wounded, left = True, left - 1
    burned = left > blood
    return DamageResult(max(0, blood - left), wounded, burned)
