"""Readings of the sentences that bar an action ended by a card from being performed again that
turn (Change of Target: "This minion cannot perform the same action again this turn"; Obedience:
"The acting vampire cannot perform the same action this turn").

Kept apart from the patterns of :mod:`engine.games.vtes.card_effects`, which consults
:func:`read` for a sentence none of its own shapes reads; the table applies them as the card ends
the action (:func:`engine.games.vtes.plays.check_play`) and refuses the same action again
(:mod:`engine.games.vtes.actions`).
"""

from __future__ import annotations

import re

from engine.games.vtes.card_effects import Effect, EffectKind

_SAME_ACTION = re.compile(
    r"(?:\(do not lock this vampire if they are blocking\.\) )?"
    r"(?:this minion|this vampire|the acting minion|the acting vampire) cannot perform the same action "
    r"(?:again )?this turn"
)
"""The bar, with Obedience's reminder before it: a vampire that blocks is not locked when a card
ends the action (:func:`engine.games.vtes.plays.check_play` locks no blocker then)."""


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effects of ``sentence`` (lower case, as :func:`engine.games.vtes.card_sentences.sentences`
    gives it) when it is this module's shape, else None."""
    return (Effect(EffectKind.NO_REPEAT),) if _SAME_ACTION.fullmatch(sentence) else None
