"""Events in play and what they change for every Methuselah (rulebook, "Events": an event is put
in play and its effect applies to all, whoever played it): the intercept an event gives every ally
that attempts to block a vampire's action ("Allies get +1 intercept against vampires": The
Unmasking), counted as the ally attempts to block (:func:`ally_intercept`, read by
:func:`engine.games.vtes.actions.block`); a bot plays such an event where it serves it
(:func:`serves`).

The sentences are read here (:func:`read`, consulted by
:func:`engine.games.vtes.card_sentences.read_sentence`). Two copies of one event do not add up: the
rulebook allows one copy of an event in play at a time, so each event name counts once.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.games.base import Pos
from engine.games.vtes.card_effects import ALLIES_VS_VAMPIRES, Effect, EffectKind
from engine.games.vtes.card_record import CardRecord, record
from engine.games.vtes.vocab import Zone

if TYPE_CHECKING:
    from engine.games.vtes.view import VtesView
    from engine.games.vtes.work import Work

_ALLIES = re.compile(r"allies get \+(\d+) intercept against vampires")


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effects of ``sentence`` (lower case, as :func:`engine.games.vtes.card_sentences.sentences`
    gives it) when it is one of this module's shapes, else None."""
    if m := _ALLIES.fullmatch(sentence):
        return (Effect(EffectKind.CARRIED, int(m.group(1)), whom=ALLIES_VS_VAMPIRES),)
    return None


def ally_intercept(w: Work, blocker: Pos, acting: Pos) -> list[tuple[Pos, int]]:
    """The events in play that give ``blocker`` intercept as it attempts to block ``acting``'s
    action, with how much each gives: ``(event, intercept)``, by position; only for an ally
    (no crypt card) blocking a vampire, each event name once. [] otherwise."""
    ally = w.info(blocker)
    if w.cards[blocker].crypt or ally is None or "Ally" not in ally.types or not w.cards[acting].crypt:
        return []
    out: list[tuple[Pos, int]] = []
    seen: set[str] = set()
    for pos, c in sorted(w.cards.items()):
        rec = record(c.card or w.revealed.get(pos, "")) if c.zone == Zone.READY and not c.crypt else None
        if rec is None or "Event" not in rec.types or rec.name in seen:
            continue
        n = sum(e.amount for e in rec.effects if e.kind == EffectKind.CARRIED and e.whom == ALLIES_VS_VAMPIRES)
        if n:
            seen.add(rec.name)
            out.append((pos, n))
    return out


def serves(view: VtesView, seat: int, rec: CardRecord) -> bool:
    """The event ``rec`` serves ``seat``'s bot if it is put in play now: no copy of it is in play,
    and its intercept for allies blocking vampires goes to more allies of the bot's than of any
    other Methuselah's. False for an event of another effect."""
    if any(c.name.split(" (")[0] == rec.name and c.zone == Zone.READY for c in view.cards):
        return False
    if not any(e.kind == EffectKind.CARRIED and e.whom == ALLIES_VS_VAMPIRES for e in rec.effects):
        return False
    allies = {s: 0 for s in view.in_game()}
    for c in view.cards:
        if not c.crypt and "Ally" in c.types and c.zone == Zone.READY and c.controller in allies:
            allies[c.controller] += 1
    mine = allies.pop(seat, 0)
    return mine > max(allies.values(), default=0)
