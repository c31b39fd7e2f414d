"""The reading of a card that cancels a political action's referendum while it polls (Delaying
Tactics: "Cancel the referendum. Unlock the acting vampire. If a political action card was played
to call this referendum, return it to its owner's hand (discard down afterward). Minions controlled
by the acting Methuselah cannot perform the same political action again this turn."), consulted by
:func:`engine.games.vtes.card_sentences.read_sentence` (through :mod:`engine.games.vtes.more_readings`);
the table applies it in :mod:`engine.games.vtes.referendum_cancels`. Only a card whose every clause
cancels is applied so (a Discipline level that cancels beside one that does not stays by hand: the
act does not say which level was played).
"""

from __future__ import annotations

from engine.games.vtes.card_effects import Effect, EffectKind
from engine.games.vtes.card_record import CardRecord, record

THE_REFERENDUM = "the referendum"
"""The ``whom`` of a cancel of the referendum under way (:attr:`EffectKind.CANCEL`)."""
ACTING_UNLOCKS = "unlock the acting vampire"
"""The ``whom`` of the acting vampire's unlock as the referendum is canceled (:attr:`EffectKind.UNLOCK`)."""
CALLING_RETURNS = "the calling political action card returns to its owner's hand (discard down afterward)"
"""The ``whom`` of the calling card going back to its owner's hand (:attr:`EffectKind.DRAW`)."""
ACTING_METHUSELAH = "minions controlled by the acting methuselah"
"""The ``whom`` of a bar on the same political action for every minion of the acting Methuselah
(:attr:`EffectKind.NO_REPEAT`)."""
POLLING = "only usable during the polling step of a political action"
"""The condition the card prints, quoted in its refusal."""

_SHAPES: dict[str, Effect] = {
    "cancel the referendum": Effect(EffectKind.CANCEL, whom=THE_REFERENDUM),
    "unlock the acting vampire": Effect(EffectKind.UNLOCK, whom=ACTING_UNLOCKS),
    "if a political action card [political action] was played to call this referendum, return it to its owner's "
    "hand (discard down afterward)": Effect(EffectKind.DRAW, whom=CALLING_RETURNS),
    "minions controlled by the acting methuselah cannot perform the same political action again this turn": Effect(
        EffectKind.NO_REPEAT, whom=ACTING_METHUSELAH
    ),
}
WHOMS = frozenset(e.whom for e in _SHAPES.values())
"""The ``whom`` of every effect this module reads (the coverage counts them applied by
:func:`engine.games.vtes.referendum_cancels.cancel` for a card that :func:`cancels`)."""


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effects of ``sentence`` (lower case, as :func:`engine.games.vtes.card_sentences.sentences`
    gives it) when it is one of this module's shapes, else None."""
    found = _SHAPES.get(sentence)
    return (found,) if found is not None else None


def cancels(rec: CardRecord) -> bool:
    """Every clause of the card with effects or a Discipline level cancels the referendum (see the
    module)."""
    clauses = [c for c in rec.clauses if c.effects or c.levels]
    return bool(clauses) and all(
        any(e.kind == EffectKind.CANCEL and e.whom == THE_REFERENDUM for e in c.effects) for c in clauses
    )


def has(rec: CardRecord, kind: EffectKind, whom: str) -> bool:
    """The card has an effect of ``kind`` for ``whom``."""
    return any(e.kind == kind and e.whom == whom for e in rec.effects)


def bars_every_minion(card: int) -> bool:
    """The card of krcg id ``card`` that ended an action bars every minion of the acting
    Methuselah from the same action this turn, not only the acting one."""
    rec = record(card)
    return rec is not None and has(rec, EffectKind.NO_REPEAT, ACTING_METHUSELAH)
