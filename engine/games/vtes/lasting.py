"""Lasting effects of cards in play, read by the table where they count (rulebook, "Master Cards",
"Retainers", "Equipment": a card in play applies its text while it stays in play): the extra
transfers of a location ("+2 transfers": Information Highway) as its controller's influence phase
begins, and the intercept a retainer or an equipment gives the minion it is on ("The employer gets
+1 intercept": Raven Spy, Mr. Winthrop) as that minion attempts to block, and what a card in play
gives as its controller locks it ("During your master phase, you can lock this card to get +1
master phase action": The Parthenon), and what a card does as it comes into play ("If you control
three copies of this card, remove all copies in play … from the game to gain 3 pool": Ashur
Tablets). A contested card is out
of play and gives nothing (rulebook, "Contested Cards"); a card's record says what it gives
(:class:`engine.games.vtes.card_effects.EffectKind` ``TRANSFERS``, ``CARRIED``).
"""

from __future__ import annotations

from engine.games.base import Pos, seat_ref
from engine.games.vtes.card_effects import THREE_COPIES, EffectKind
from engine.games.vtes.card_record import record
from engine.games.vtes.cards import card_id
from engine.games.vtes.vocab import Phase, Target, Zone
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


def lockable(actions: int, phase: Phase, acting: int, seat: int, controller: int, locked: bool) -> bool:
    """A card in play giving ``actions`` master phase actions when locked may be locked for them
    by ``seat`` now: in its own master phase (``phase``, ``acting``), as the card's
    ``controller``, while the card is not ``locked``."""
    return bool(actions) and phase == Phase.MASTER and acting == seat == controller and not locked


def master_actions_of(ident: str) -> int:
    """The master phase actions the card ``ident`` gives when locked (0 for none)."""
    rec = record(ident)
    return sum(e.amount for e in rec.effects if e.kind == EffectKind.MASTER_ACTION) if rec is not None else 0


def locked(w: Work, pos: Pos) -> None:
    """The card at ``pos``, just locked by its controller, gives what its text gives when locked:
    its master phase actions, in its controller's own master phase (narrated with its name); a
    card locked at another moment, or with no such text, gives nothing."""
    c = w.cards[pos]
    n = master_actions_of(c.card or w.revealed.get(pos, ""))
    if not lockable(n, w.phase, w.acting, w.author, c.controller, False):
        return
    w.master_actions -= n  # the actions used, less those the cards gave (rules.py)
    w.note(f"{w.name(pos)}: +{n} master phase action", w.author)


def arrived(w: Work, pos: Pos) -> None:
    """The card at ``pos``, just put in play by the author: with its pool gained on three copies
    (:data:`~engine.games.vtes.card_effects.THREE_COPIES`) and the author controlling three
    copies in play, every copy in play (anyone's) leaves the game and the author gains the pool,
    narrated with the card's name (the rest of such a text, the ash heap's cards, is by hand)."""
    ident = w.cards[pos].card or w.revealed.get(pos, "")
    rec = record(ident)
    gain = (
        next((e for e in rec.effects if e.kind == EffectKind.GAIN_POOL and e.whom == THREE_COPIES), None)
        if rec
        else None
    )
    if gain is None:
        return
    same = card_id(ident)
    copies = [
        p for p, c in sorted(w.cards.items()) if c.zone.in_play and card_id(c.card or w.revealed.get(p, "")) == same
    ]
    if sum(1 for p in copies if w.cards[p].controller == w.author) < 3:
        return
    for p in copies:
        w.move(p, Target.REMOVED)
    got = w.pool_delta(w.author, gain.amount, "card")
    w.note(
        f"{w.name(pos)}: {len(copies)} copies removed from the game, {seat_ref(w.author)} gains {got} pool "
        "(the cards from the ash heap are chosen by hand)",
        w.author,
    )
