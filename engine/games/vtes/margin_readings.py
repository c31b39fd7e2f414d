"""Readings of the sentences that pay a vampire for the votes by which a referendum passed
(Voter Captivation: "This vampire gains 1 blood for each vote by which the referendum passed";
at superior "As above, but move up to 2 of those blood to your pool instead of this vampire").

Kept apart from the patterns of :mod:`engine.games.vtes.card_effects`, which consults
:func:`read` for a sentence none of its own shapes reads; the table applies them after the
political action's resolution (:mod:`engine.games.vtes.referendum_gains`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.games.vtes.card_effects import Effect, EffectKind

MARGIN = "for each vote by which the referendum passed"
"""The ``whom`` of blood a vampire gains per vote by which its political action's referendum
passed (:attr:`EffectKind.GAIN_BLOOD`, ``amount`` per vote), and of the blood of those that its
controller moves to their pool instead (:attr:`EffectKind.MOVE_BLOOD`, up to ``amount``)."""

_SHAPES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], tuple[Effect, ...]]], ...] = (
    (
        re.compile(r"this vampire gains (\d+) blood for each vote by which the referendum passed"),
        lambda m: (Effect(EffectKind.GAIN_BLOOD, int(m.group(1)), whom=MARGIN),),
    ),
    (
        re.compile(r"move up to (\d+) of those blood to your pool instead of this vampire"),
        lambda m: (Effect(EffectKind.MOVE_BLOOD, int(m.group(1)), whom=MARGIN),),
    ),
)


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effects of ``sentence`` (lower case, as :func:`engine.games.vtes.card_sentences.sentences`
    gives it) when it is one of this module's shapes, else None."""
    for pattern, build in _SHAPES:
        m = pattern.fullmatch(sentence)
        if m is not None:
            return build(m)
    return None
