"""The reading modules kept apart from the patterns of :mod:`engine.games.vtes.card_effects`, which
consults :func:`read` for a sentence none of its own shapes reads: each module's ``read(sentence)``
gives the sentence's effects, or None when it is none of its shapes. A new module of such shapes is
listed here, not in :mod:`engine.games.vtes.card_effects`.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.games.vtes import (
    bleed_burns,
    block_readings,
    blood_intercept,
    carried_moves,
    clan_terms,
    edge_readings,
    entering_life,
    events,
    margin_readings,
    poll_cancel_reading,
    repeat_readings,
    unlimited_readings,
    x_votes,
)
from engine.games.vtes.card_effects import Effect

_READERS: tuple[Callable[[str], tuple[Effect, ...] | None], ...] = tuple(
    m.read
    for m in (
        margin_readings,
        repeat_readings,
        block_readings,
        x_votes,
        clan_terms,
        events,
        poll_cancel_reading,
        bleed_burns,
        carried_moves,
        edge_readings,
        blood_intercept,
        entering_life,
        unlimited_readings,
    )
)


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effects of ``sentence`` (lower case, as :func:`engine.games.vtes.card_sentences.sentences`
    gives it) by the first module that reads it, else None."""
    for more in _READERS:
        if (effects := more(sentence)) is not None:
            return effects
    return None
