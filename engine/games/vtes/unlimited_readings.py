"""Readings of the sentences that give a bleed or an additional strike outside the limit ("[DOM]
+1 bleed that does not count against the limit": Command of the Beast; "[CEL] Additional strike
that does not count against the limit": Quickness): the same effect as a plain "+1 bleed" or
"Additional strike", not marked ``limited`` (rulebook, "Limited": only one limited effect of a
kind each action or round), applied as those are.

Kept apart from the patterns of :mod:`engine.games.vtes.card_effects`, which consults
:func:`read` for a sentence none of its own shapes reads.
"""

from __future__ import annotations

import re

from engine.games.vtes.card_effects import Effect, EffectKind

_BLEED = re.compile(r"\+(\d+) bleed that does not count against the limit")
_STRIKE = re.compile(r"(?:an? )?additional strike that does not count against the limit")


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effect of ``sentence`` (lower case, as :func:`engine.games.vtes.card_sentences.sentences`
    gives it) when it is one of this module's shapes, else None."""
    if m := _BLEED.fullmatch(sentence):
        return (Effect(EffectKind.BLEED, int(m.group(1))),)
    if _STRIKE.fullmatch(sentence):
        return (Effect(EffectKind.ADDITIONAL_STRIKE, 1),)
    return None
