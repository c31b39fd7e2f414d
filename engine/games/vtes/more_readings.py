"""The readers of sentences kept apart from the patterns of
:mod:`engine.games.vtes.card_effects`, which consults :func:`read` for a sentence none of its own
shapes reads: each module's ``read`` in turn, the first that reads it wins."""

from __future__ import annotations

from collections.abc import Callable

from engine.games.vtes import (
    block_readings,
    blood_intercept,
    entering_life,
    margin_readings,
    repeat_readings,
    unlimited_readings,
    x_votes,
)
from engine.games.vtes.card_effects import Effect

_READERS: tuple[Callable[[str], tuple[Effect, ...] | None], ...] = (
    margin_readings.read,
    repeat_readings.read,
    block_readings.read,
    x_votes.read,
    blood_intercept.read,
    entering_life.read,
    unlimited_readings.read,
)


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effects one of the readers reads in ``sentence`` (lower case), or None."""
    for reader in _READERS:
        if (effects := reader(sentence)) is not None:
            return effects
    return None
