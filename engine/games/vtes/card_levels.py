"""The Discipline level a card was played at, read from the act that plays it (rulebook,
"Disciplines": a card's superior text is played by a vampire with the superior Discipline).

An act carries the numbers a card's clause changes, not the level: a level is known where only the
clauses of one level have every kind of effect the act shows (Instantaneous Transformation's
``unlock`` is its superior clause's; Sideslip's ``prevent`` its superior one's, its ``dodge`` its
basic one's). A limit printed "at superior" ("A vampire can play only one Sideslip at superior
each round") binds only a play so read (:meth:`engine.games.vtes.card_record.CardRecord.limits_at`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import fields, is_dataclass
from typing import TYPE_CHECKING

from engine.games.vtes.card_effects import EffectKind

if TYPE_CHECKING:
    from engine.games.vtes.card_record import CardRecord

_FIELDS: dict[str, EffectKind] = {
    "stealth": EffectKind.STEALTH,
    "intercept": EffectKind.INTERCEPT,
    "bleed_mod": EffectKind.BLEED,
    "unlock": EffectKind.UNLOCK,
    "wake": EffectKind.WAKE,
    "votes": EffectKind.VOTES,
    "dodge": EffectKind.DODGE,
    "ends": EffectKind.END_COMBAT,
    "additional": EffectKind.ADDITIONAL_STRIKE,
    "end_action": EffectKind.END_ACTION,
    "fail_block": EffectKind.FAIL_BLOCK,
    "strength": EffectKind.STRENGTH,
}
"""An act's field (docs/protocol.md 4.4) and the kind of effect of a card's clause it carries."""
_DOS: dict[str, EffectKind] = {
    "prevent": EffectKind.PREVENT,
    "maneuver": EffectKind.MANEUVER,
    "press": EffectKind.PRESS,
}
"""An act (``do``) that is itself one kind of effect of the card it plays."""


def shown(act: Collection[str], do: str) -> frozenset[EffectKind]:
    """The kinds of effect an act ``do`` with the fields ``act`` (their names; a field set to
    false or left out is not shown) carries of the card it plays."""
    kinds = {_FIELDS[f] for f in act if f in _FIELDS}
    if do in _DOS:
        kinds.add(_DOS[do])
    return frozenset(kinds)


def played_superior(rec: CardRecord, kinds: frozenset[EffectKind]) -> bool:
    """The card ``rec`` played by an act showing ``kinds`` (:func:`shown`) is played at superior:
    some clause has every one of them, and each such clause needs a superior Discipline. False for
    an act that shows none, or one a basic clause could make."""
    if not kinds:
        return False
    fits = [c for c in rec.clauses if kinds <= {e.kind for e in c.effects}]
    return bool(fits) and all(c.superior for c in fits)


def act_fields(act: object) -> tuple[frozenset[str], str]:
    """The fields an act shows (a map's keys, or a record's fields, with a true or nonzero value)
    and its ``do``."""
    if isinstance(act, dict):
        return frozenset(k for k, v in act.items() if v not in (None, False)), str(act.get("do", ""))
    if not is_dataclass(act):
        return frozenset(), ""
    present = frozenset(_KEYS.get(f.name, f.name) for f in fields(act) if getattr(act, f.name) not in (None, False))
    return present, str(getattr(act, "do", ""))


_KEYS = {"for_": "for"}


def known(rec: CardRecord) -> bool:
    """Each superior clause of ``rec`` is told from its basic ones by the act that plays it
    (:func:`played_superior` of the kinds of effect an act may carry): a limit it prints "at
    superior" is then checked."""
    carried = frozenset(_FIELDS.values()) | frozenset(_DOS.values())
    sup = [c for c in rec.clauses if c.superior]
    return bool(sup) and all(played_superior(rec, frozenset(e.kind for e in c.effects) & carried) for c in sup)
