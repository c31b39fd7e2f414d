"""Votes that grow with the blood paid for the card (Awe: "Only usable during the polling step of a
political action. [pre] This vampire gets +X+1 votes. [PRE] This vampire gets +2X+1 votes.", its
cost X blood): the reading (:func:`read`, consulted by
:func:`engine.games.vtes.card_sentences.read_sentence`), the votes for X (:func:`votes_for`), and the
check of a play's votes against the blood it pays (:func:`check`; rulebook 7.2, "Other Cards").
"""

from __future__ import annotations

import re

from engine.games.base import IllegalMove
from engine.games.vtes.card_effects import PER_BLOOD, Effect, EffectKind

_SHAPE = re.compile(r"this vampire gets \+(\d*)x\+(\d+) votes")


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effects of ``sentence`` (lower case) when it gives votes by X, else None."""
    m = _SHAPE.fullmatch(sentence)
    if m is None:
        return None
    return (Effect(EffectKind.VOTES, int(m.group(2)), whom=PER_BLOOD, least=int(m.group(1) or 1)),)


def votes_for(effects: tuple[Effect, ...], blood: int) -> int:
    """The votes ``effects`` give for X = ``blood``: each "+N votes", and each "+kX+N votes" as
    k×X+N."""
    return sum(
        e.amount + (e.least * blood if e.whom == PER_BLOOD else 0) for e in effects if e.kind == EffectKind.VOTES
    )


def by_blood(effects: tuple[Effect, ...]) -> bool:
    """Some of ``effects`` gives votes by X."""
    return any(e.kind == EffectKind.VOTES and e.whom == PER_BLOOD for e in effects)


def check(name: str, clauses_effects: list[tuple[Effect, ...]], votes: int, blood: int) -> None:
    """Refuse (IllegalMove) ``votes`` from a card whose votes grow with X when no level the
    minion may play (``clauses_effects``, their effects) gives that many for X = ``blood``; a card
    that gives no votes by X is not checked here."""
    levels = [effects for effects in clauses_effects if by_blood(effects)]
    if not levels:
        return
    most = max(votes_for(effects, blood) for effects in levels)
    if votes > most:
        raise IllegalMove(f"{name} gives at most {most} votes for X = {blood} blood paid, not {votes}")
