"""The terms a caller may choose for a referendum whose terms the table applies
(shared/rules/vtes-actions.md 7.1, P7; :mod:`engine.games.vtes.referendum_terms`): the ``terms``
acts the offers list, each with its words, for the menu, the command line and the bots.

An allocation card offers, for each pair of Methuselahs it may name, most points on one and 1 on
the other, and the points shared evenly; a share-out of a richer Methuselah's pool offers, for each
richer Methuselah, all of it to the caller, or 2 to the caller and 1 to another; a banishment
offers each ready younger vampire; a card that counts a chosen clan's vampires offers each clan of
the vampires in play; a card that leaves no choice offers its terms as printed. Any
other allocation is made with the command line's ``terms`` and its numbers.
"""

from __future__ import annotations

from itertools import combinations, permutations

from engine.games.base import Act, seat_ref
from engine.games.vtes import clan_terms
from engine.games.vtes.card_actions import burn_vote
from engine.games.vtes.cards import card_id
from engine.games.vtes.readings import TABLE_TERMS, TermsKind, terms_reading
from engine.games.vtes.state import Referendum
from engine.games.vtes.view import VtesView
from engine.games.vtes.vocab import Do, Zone


def terms_side(view: VtesView, seat: int) -> tuple[bool, str]:
    """The side of the referendum under way that its terms favour for ``seat`` (True: for), with
    why in words, "you" for ``seat`` ("" when nothing the table applies touches them): against
    when a blood hunt would burn their vampire (6.4), or when terms the table applies
    (:mod:`engine.games.vtes.referendum_terms`) send their vampire back or burn their pool, for
    when they gain pool; else for (terms in words are the player's to weigh). No referendum: for."""
    r = view.referendum
    if r is None:
        return True, ""
    hunted = view.card(r.hunted) if r.hunted else None
    if hunted is not None and hunted.controller == seat:
        return False, f"the blood hunt burns your {hunted.name.split(' (')[0]}"
    banished = view.card(r.banish) if r.table and r.banish else None
    if banished is not None and banished.controller == seat:
        return False, f"the terms send your {banished.name.split(' (')[0]} back"
    pool = _pool_change(view, r, seat) if r.table else 0
    if pool:
        return (
            pool > 0,
            f"the terms {'give you' if pool > 0 else 'burn'} {abs(pool)} {'' if pool > 0 else 'of your '}pool",
        )
    return True, ""


def _pool_change(view: VtesView, r: Referendum, seat: int) -> int:
    """The pool ``seat`` gains (negative: burns) if the terms the table applies pass as things stand
    now: their share, or an each-minion card's amount for each minion of the kind they control."""
    card = view.card(r.card) if r.card else None
    reading = terms_reading(card_id(card.card)) if card is not None and card.card else None
    if reading is not None and reading.kind == TermsKind.EACH:
        counted = [
            c
            for c in view.cards
            if c.controller == seat
            and reading.counted(c.crypt, "Ally" in c.types and not c.crypt, c.zone, c.locked, c.capacity)
        ]
        return reading.amount * len(counted)
    if reading is not None and reading.kind == TermsKind.CLAN and r.clan:
        return sum(d for s, d in clan_terms.changes(view, r.clan, reading.amount) if s == seat)
    return sum(d for s, d in r.shares if s == seat)


def _act(text: str, **choice: object) -> Act:
    return {"do": Do.TERMS, "text": text, **choice}


def terms_choices(view: VtesView, r: Referendum) -> list[Act]:
    """The ``terms`` acts the caller of ``r`` may choose from when the table applies its calling
    card's terms (a ``text`` naming seats as ``{sN}``, and the choices), or the card in play a
    vampire called it to burn (:func:`engine.games.vtes.card_actions.burn_vote`); [] for another
    card."""
    card = view.card(r.card) if r.card else None
    cid = card_id(card.card) if card is not None and card.card else None
    reading = terms_reading(cid) if cid is not None else None
    name = card.name.split(" (")[0] if card is not None else ""
    if card is not None and card.zone.in_play and burn_vote(card.card) is not None:
        return [_act(f"{name} burns, as printed", printed=True)]  # a referendum to burn it
    if card is None or reading is None or reading.kind not in TABLE_TERMS:
        return []
    seats = list(view.in_game())
    match reading.kind:
        case TermsKind.EACH:  # no choice: ``printed`` says the table applies them (referendum_terms)
            return [_act(f"{name}, as printed", printed=True)]
        case TermsKind.ALLOCATE:
            points = reading.amount or len(seats)
            named = [s for s in seats if not (reading.others and s == r.caller)]
            out = []
            for a, b in permutations(named, 2):
                split = [[a, points - 1], [b, 1]]
                out.append(_act(f"{name}: {seat_ref(a)} burns {points - 1}, {seat_ref(b)} burns 1", changes=split))
            if points % 2 == 0 and points > 2:
                for a, b in combinations(named, 2):
                    half = points // 2
                    even = [[a, half], [b, half]]
                    out.append(_act(f"{name}: {seat_ref(a)} and {seat_ref(b)} burn {half} each", changes=even))
            return out
        case TermsKind.PARITY:
            mine = view.players[r.caller].pool
            out = []
            for rich in (s for s in seats if view.players[s].pool > mine):
                out.append(_act(f"{name}: 3 of {seat_ref(rich)}'s pool to you", seat=rich, changes=[[r.caller, 3]]))
                for other in (s for s in seats if s not in (rich, r.caller)):
                    text = f"{name}: 3 of {seat_ref(rich)}'s pool, 2 to you and 1 to {seat_ref(other)}"
                    out.append(_act(text, seat=rich, changes=[[r.caller, 2], [other, 1]]))
            return out
        case TermsKind.CLAN:
            out = []
            for clan in clan_terms.in_play(view):
                gains = clan_terms.changes(view, clan, reading.amount)
                said = ", ".join(f"{seat_ref(s)} {d:+d}" for s, d in gains)
                out.append(_act(f"{name}: {clan} ({said} pool as things stand)", clan=clan))
            return out
        case TermsKind.BANISH:
            acting = view.card(r.minion) if r.minion else None
            if acting is None:
                return []
            younger = [c for c in view.cards if c.crypt and c.zone == Zone.READY and 0 < c.capacity < acting.capacity]
            return [
                _act(
                    f"{name}: {seat_ref(c.controller)}'s {c.name.split(' (')[0]} to the uncontrolled region",
                    card=c.as_list(),
                )
                for c in younger
            ]
    return []
