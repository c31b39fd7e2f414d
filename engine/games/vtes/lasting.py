"""Lasting effects of cards in play, read by the table where they count (rulebook, "Master Cards",
"Retainers", "Equipment": a card in play applies its text while it stays in play): the extra
transfers of a location ("+2 transfers": Information Highway) as its controller's influence phase
begins, and the intercept a retainer or an equipment gives the minion it is on ("The employer gets
+1 intercept": Raven Spy, Mr. Winthrop) as that minion attempts to block. A contested card is out
of play and gives nothing (rulebook, "Contested Cards"); a card's record says what it gives
(:class:`engine.games.vtes.card_effects.EffectKind` ``TRANSFERS``, ``CARRIED``).
"""

from __future__ import annotations

from engine.games.base import Pos
from engine.games.vtes.card_effects import EffectKind
from engine.games.vtes.card_record import record
from engine.games.vtes.vocab import Zone
from engine.games.vtes.work import Work


def _given(w: Work, pos: Pos, kind: EffectKind, whom: str = "") -> int:
    """What the card at ``pos`` gives of ``kind`` (and ``whom``), by its record: the sum of its
    effects of that kind."""
    rec = record(w.cards[pos].card or w.revealed.get(pos, ""))
    if rec is None:
        return 0
    return sum(e.amount for e in rec.effects if e.kind == kind and (not whom or e.whom == whom))


def transfers(w: Work, seat: int) -> list[tuple[Pos, int]]:
    """The cards in play ``seat`` controls (not on a minion) that add transfers to its influence
    phase, with how many each adds: ``(card, transfers)``, by position."""
    out = []
    for pos, c in sorted(w.cards.items()):
        if c.controller == seat and c.zone == Zone.READY and not c.crypt:
            n = _given(w, pos, EffectKind.TRANSFERS)
            if n:
                out.append((pos, n))
    return out


def carried_intercept(w: Work, minion: Pos) -> list[tuple[Pos, int]]:
    """The cards on ``minion`` (its retainers and equipment) that give it intercept while they are
    on it, with how much each gives: ``(card, intercept)``, by position."""
    out = []
    for pos, c in sorted(w.cards.items()):
        if c.zone == Zone.ON and c.on == minion:
            n = _given(w, pos, EffectKind.CARRIED, "intercept")
            if n:
                out.append((pos, n))
    return out
