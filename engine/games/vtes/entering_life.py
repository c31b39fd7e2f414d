"""The life a retainer or an ally enters play with: its printed life ("Animal with 1 life"), or
the life a level of its text gives instead (Raven Spy: "[ANI] As above, but Raven Spy has 2
life"), chosen with the level as the action that employs or recruits it is announced (the
``action`` act's ``life``; rulebook, "Retainers", "Allies").

The sentence is read here (:mod:`engine.games.vtes.card_effects` consults :func:`read`) as
:attr:`~engine.games.vtes.card_effects.EffectKind.GAIN_LIFE` of ``amount`` with ``whom``
:data:`ENTERS`.
"""

from __future__ import annotations

import re

from engine.games.vtes.card_effects import Effect, EffectKind
from engine.games.vtes.card_record import CardRecord

ENTERS = "as it enters play"
"""The ``whom`` of the life a card's level gives it as it enters play, instead of its printed life."""

_SHAPE = re.compile(r"[\w' -]+ has (\d+) life")


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effect of ``sentence`` (lower case, as :func:`engine.games.vtes.card_sentences.sentences`
    gives it) when it is this module's shape, else None."""
    m = _SHAPE.fullmatch(sentence)
    return (Effect(EffectKind.GAIN_LIFE, int(m.group(1)), whom=ENTERS),) if m else None


def level_life(effects: tuple[Effect, ...]) -> int | None:
    """The life a clause's ``effects`` give the card as it enters play, or None (its printed life)."""
    return next((e.amount for e in effects if e.kind == EffectKind.GAIN_LIFE and e.whom == ENTERS), None)


def lives(rec: CardRecord, disciplines: frozenset[str]) -> tuple[int, ...]:
    """The lives the card ``rec`` may enter play with, played by a minion with these Discipline
    levels (krcg's spelling): its printed life, and each level's it may play."""
    printed = rec.printed.life
    found = [x for c in rec.clauses if c.usable_by(disciplines) and (x := level_life(c.effects)) is not None]
    return tuple(dict.fromkeys([*([printed] if printed else []), *found]))
