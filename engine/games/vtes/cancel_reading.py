"""What a card that cancels another "as it is played" cancels, read from its record (the effect
:attr:`~engine.games.vtes.card_effects.EffectKind.CANCEL`), and whether it fits a card announced
(rulebook, "Cancel": a card canceled as it is played has no effect, and its cost is not paid).

The window that asks for the answer is :mod:`engine.games.vtes.cancels`; this module only reads.
"""

from __future__ import annotations

from typing import Literal

from engine.games.vtes.card_effects import Effect, EffectKind
from engine.games.vtes.card_record import CardRecord
from engine.games.vtes.card_sentences import SentenceKind
from engine.games.vtes.vocab import Phase

BY_ANOTHER = "a master card played by another Methuselah"
"""``whom`` of a cancel of any master card another Methuselah plays (Sudden Reversal)."""
BY_NEIGHBOUR = "a master card played by your predator or prey"
"""``whom`` of a cancel of a master card the player's predator or prey plays (Wash)."""
MINION_CARD = "a minion card"
"""``whom`` of a cancel of a minion card (Direct Intervention): of those the table announces, a card
played from the hand inside an action or a combat (an action modifier, a reaction, a combat card)."""
ANSWERED = frozenset({BY_ANOTHER, BY_NEIGHBOUR, MINION_CARD})
"""The cancels the table answers a play with (:mod:`engine.games.vtes.cancels`). All are
out-of-turn master cards (a test checks it): :func:`asked` reads that."""


def cancel_of(rec: CardRecord | None) -> Effect | None:
    """The cancel the card ``rec`` makes, of a kind the table answers a play with, or None."""
    if rec is None:
        return None
    return next((e for e in rec.effects if e.kind == EffectKind.CANCEL and e.whom in ANSWERED), None)


type Cancelled = Literal["master card", "minion card"]
"""What a card that only cancels cancels: a master card (answered in the table's window) or a
minion card (one played during an action, a combat or a referendum)."""


def cancels_only(rec: CardRecord | None) -> Cancelled | None:
    """What the card ``rec`` cancels when a cancel "as it is played" is all it does when played:
    its first sentence past its conditions ("Master: out-of-turn.") is "Cancel a master card …" or
    "Cancel a minion card …" (Sudden Reversal, Wash, Direct Intervention); None for any other card
    (one that also does something else when played, or cancels an event or a frenzy card)."""
    if rec is None:
        return None
    said = [
        r.sentence
        for c in rec.clauses
        for r in c.readings
        if r.kind != SentenceKind.CONDITION and not r.sentence.startswith("master:")
    ]
    if not said or not said[0].startswith("cancel ") or "as it is played" not in said[0]:
        return None
    for what in ("master card", "minion card"):
        if said[0].startswith(f"cancel a {what}"):
            return what
    return None


def is_minion_card(rec: CardRecord) -> bool:
    """A library card that is played by a minion: neither a master card nor an event (rulebook,
    "Card Types")."""
    return not {"Master", "Event"} & set(rec.types)


def answerable(rec: CardRecord | None, minion_window: bool) -> bool:
    """A card whose play the table announces first, for a cancel to answer: a master card (a
    cancel too: a cancel of a cancel is a master card canceling a master card), or a minion card
    played inside an action or a combat (``minion_window``)."""
    if rec is None:
        return False
    return "Master" in rec.types or (minion_window and is_minion_card(rec))


def waiting(announced: CardRecord | None) -> Cancelled | None:
    """What the card ``announced`` (waiting for answers) is, for a cancel: a master card or a
    minion card; None when no card waits, or it is neither."""
    if announced is None:
        return None
    return "master card" if "Master" in announced.types else "minion card" if is_minion_card(announced) else None


def asked(seat: int, acting: int, phase: Phase) -> bool:
    """Whether ``seat`` is asked to answer a card announced: the cancels the table answers with
    are out-of-turn master cards (:data:`ANSWERED`), played in another Methuselah's turn or in
    one's own master phase (rulebook, "Card Types": Master), so the acting Methuselah is asked only
    in its master phase."""
    return seat != acting or phase == Phase.MASTER


def misfit(
    canceller: CardRecord | None, played: CardRecord, seat: int, player: int, near: tuple[int, int]
) -> str | None:
    """Why ``seat`` cannot cancel with ``canceller`` the card ``played`` announced by ``player``
    (``near``: the player's predator and prey), as a sentence; None when it fits."""
    name = canceller.name if canceller is not None else "that card"
    cancel = cancel_of(canceller)
    if cancel is None:
        return f"{played.name} waits for answers: only a card that cancels it as it is played may be played now, and {name} does not"
    if seat == player:
        return f"{name} cancels {cancel.whom}, and {played.name} is yours"
    if cancel.whom == MINION_CARD:
        if not is_minion_card(played):
            return f"{name} cancels a minion card, and {played.name} is not one"
    elif "Master" not in played.types:
        return f"{name} cancels {cancel.whom}, and {played.name} is not a master card"
    if cancel.whom == BY_NEIGHBOUR and seat not in near:
        return f"{name} cancels {cancel.whom}, and the player of {played.name} is neither"
    return None
