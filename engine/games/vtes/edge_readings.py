"""Readings of the sentences of a card that let its Methuselah burn the Edge for an effect the
table applies (Emily Carson: "During your discard phase, Emily can burn the Edge to unlock";
Hartmut Stover: "You can burn the Edge during your discard phase to gain 1 pool"; Victoria:
"During your master phase, you may burn the Edge to gain 2 pool if Victoria is ready").

Kept apart from the patterns of :mod:`engine.games.vtes.card_effects`, which consults
:func:`read` for a sentence none of its own shapes reads. The effect is an :class:`Effect` of
kind ``unlock`` (the card unlocks) or ``gain pool`` (``amount`` pool), whose ``whom`` says when
the Edge may be burned for it (:func:`burn_time`); the table applies it as the Edge is burned for
the card (:mod:`engine.games.vtes.edge_burns`). Other uses of the Edge (look at a hand, enter
combat, a vote) stay by hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.games.vtes.card_effects import Effect, EffectKind
from engine.games.vtes.vocab import Phase

EDGE_BURN = "burning the edge"
"""The start of the ``whom`` of an effect the Edge is burned for (:func:`burn_time` reads the rest)."""

_WHEN = r"during (?P<whose>your|any methuselah's) (?:(?P<phase>unlock|master|minion|influence|discard) phase|turn)"
_WHAT = r"(?:unlock(?: \w+)?|gain (?P<pool>\d+) pool)"
_READY = r"(?: if (?P<ready>\w+) is ready)?"
_SHAPES = tuple(
    re.compile(s)
    for s in (
        rf"{_WHEN}, (?:\w+|you) (?:can|may) burn the edge to {_WHAT}{_READY}",  # Emily, Kalinda, Victoria
        rf"you (?:can|may) burn the edge {_WHEN} to {_WHAT}{_READY}",  # Isouda, Hartmut
    )
)


@dataclass(frozen=True)
class BurnTime:
    """When the Edge may be burned for an effect: in ``phase`` (None: any phase) of the turn of
    the card's Methuselah (``own``) or of anyone's; ``ready``: only while the card is ready."""

    phase: Phase | None
    own: bool
    ready: bool

    def words(self) -> str:
        """When, in the card's words ("during your discard phase", "if it is ready")."""
        whose = "your" if self.own else "any Methuselah's"
        when = f"during {whose} {self.phase} phase" if self.phase is not None else f"during {whose} turn"
        return when + (" while it is ready" if self.ready else "")


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effect of ``sentence`` (lower case, as :func:`engine.games.vtes.card_sentences.sentences`
    gives it) when it is one of this module's shapes, else None."""
    for shape in _SHAPES:
        if m := shape.fullmatch(sentence):
            whose = "your" if m["whose"] == "your" else "any"
            whom = f"{EDGE_BURN}: {whose} {m['phase'] or 'turn'}{' ready' if m['ready'] else ''}"
            if m["pool"]:
                return (Effect(EffectKind.GAIN_POOL, int(m["pool"]), whom=whom),)
            return (Effect(EffectKind.UNLOCK, whom=whom),)
    return None


def burn_time(e: Effect) -> BurnTime | None:
    """When the Edge may be burned for ``e``, or None when ``e`` is no effect of burning it."""
    if not e.whom.startswith(f"{EDGE_BURN}: "):
        return None
    whose, when, *ready = e.whom.removeprefix(f"{EDGE_BURN}: ").split(" ")
    return BurnTime(None if when == "turn" else Phase(when), whose == "your", bool(ready))


def edge_words(e: Effect) -> str | None:
    """``e`` in a player's words when it is an effect of burning the Edge ("burn the Edge during
    your discard phase: unlock"), else None."""
    when = burn_time(e)
    if when is None:
        return None
    what = "unlock" if e.kind == EffectKind.UNLOCK else f"gain {e.amount} pool"
    return f"burn the Edge {when.words()}: {what}"


__all__ = ["EDGE_BURN", "BurnTime", "burn_time", "edge_words", "read"]
