"""Actions a card in play gives minions against itself (rulebook, "Master Cards"; "3. Minion
Phase", "Directed actions"): "Other minions can burn this card as a Ⓓ action" (Pentex™
Subversion), "This vampire can burn this card as a +1 stealth Ⓓ action" (Haven Uncovered),
"Vampires can steal this location as a Ⓓ action" (Powerbase: Montreal); and a referendum to burn
it ("Vampires can call a referendum to burn this card as a +1 stealth political action": Anarch
Revolt): a political action naming the card in play, whose terms are that it burns
(:func:`burn_terms`), burned as it passes (:func:`burned_by_vote`). The ``action`` act names
the card in play as its ``card`` and as its ``target_card`` (``burn`` true for a burn); its target
is the card's controller; as it succeeds, the card burns, or comes under the actor's control
(:func:`succeeded`). A card's record says who may take the action and at what stealth
(:attr:`~engine.games.vtes.card_effects.EffectKind.BURN_ACTION`, ``STEAL_ACTION``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.games.base import IllegalMove, Pos, seat_ref
from engine.games.vtes.card_effects import Effect, EffectKind
from engine.games.vtes.card_record import record
from engine.games.vtes.vocab import ActionKind, Do, Target

if TYPE_CHECKING:
    from engine.games.base import Act
    from engine.games.vtes.act_records import ActionAct
    from engine.games.vtes.state import Action
    from engine.games.vtes.view import CardView, VtesView
    from engine.games.vtes.work import Work

TAKERS = ("minions", "other minions", "vampires", "this vampire", "vampires controlled by another methuselah")
"""Who may take a card's action, in its text's words: any minion, any but the one the card is on,
any vampire, only the vampire the card is on, a vampire its controller does not control."""


def card_action(ident: str) -> Effect | None:
    """The action the card ``ident`` gives against itself (a burn or a steal), or None."""
    rec = record(ident) if ident else None
    kinds = (EffectKind.BURN_ACTION, EffectKind.STEAL_ACTION)
    return next((e for e in rec.effects if e.kind in kinds), None) if rec is not None else None


def burn_vote(ident: str) -> Effect | None:
    """The referendum to burn it that the card ``ident`` lets a vampire call, or None."""
    rec = record(ident) if ident else None
    return next((e for e in rec.effects if e.kind == EffectKind.BURN_VOTE), None) if rec is not None else None


def gives(w: Work, pos: Pos) -> bool:
    """The card at ``pos`` is in play and gives an action against itself (a referendum to burn it
    too)."""
    c = w.cards[pos]
    ident = c.card or w.revealed.get(pos, "")
    return c.zone.in_play and (card_action(ident) is not None or burn_vote(ident) is not None)


def may_call(e: Effect, sect: str, titled: bool) -> bool:
    """A vampire of ``sect`` (lower case), ``titled`` or not, may call the referendum ``e``."""
    return not e.whom or (e.whom == "titled" and titled) or e.whom == sect


def burn_terms(w: Work, card: Pos | tuple[()]) -> str | None:
    """The terms of a referendum called with ``card``, a card in play whose text lets a vampire call
    one to burn it ("Anarch Revolt: Anarch Revolt burns"), or None for another card."""
    if not card or not w.cards[card].zone.in_play or burn_vote(w.cards[card].card or w.revealed.get(card, "")) is None:
        return None
    return f"{w.name(card)}: {w.name(card)} burns"


def burned_by_vote(w: Work, card: Pos | tuple[()]) -> None:
    """The referendum to burn ``card`` passed: it burns, if still in play (narrated)."""
    if card and burn_terms(w, card) is not None:
        w.move(card, Target.ASH)
        w.note(f"{w.name(card)} burns (the referendum passed)", w.cards[card].controller)


def may_take(e: Effect, host: Pos | tuple[()], controller: int, minion: Pos, vampire: bool, seat: int) -> bool:
    """The minion at ``minion`` (``vampire``: a vampire; controlled by ``seat``) may take the
    action ``e`` of a card on ``host`` (() for a card not on a minion) controlled by
    ``controller`` (:data:`TAKERS`)."""
    match e.whom:
        case "other minions":
            return minion != host
        case "vampires":
            return vampire
        case "this vampire":
            return minion == host
        case "vampires controlled by another methuselah":
            return vampire and seat != controller
    return True


def announced(w: Work, a: ActionAct) -> tuple[tuple[int, ...], Pos] | None:
    """The targets and the card of an ``action`` naming a card in play that gives an action against
    itself: its controller (unless the actor) and the card. None for an act that names no such
    card. Raises IllegalMove for such an act that is not that action: of another kind, naming
    another card, a burn that is a steal or the other way round, a minion the text does not let
    take it."""
    if a.card is None or not w.cards[a.card].zone.in_play:
        return None
    held = w.cards[a.card]
    e = card_action(held.card or w.revealed.get(a.card, ""))
    if e is None:
        return None
    name, burn = w.name(a.card), e.kind == EffectKind.BURN_ACTION
    if a.kind != ActionKind.OTHER or a.target_card not in (None, a.card) or bool(a.burn) != burn:
        verb = "burn" if burn else "steal"
        raise IllegalMove(f"{name} gives one action: to {verb} it (kind other, target_card the card itself)")
    if not may_take(e, held.on, held.controller, a.minion, w.cards[a.minion].crypt, w.author):
        raise IllegalMove(f"{w.name(a.minion)} may not take {name}'s action: {e.words()}")
    return ((held.controller,) if held.controller != w.author else ()), a.card


def stolen(w: Work, a: Action) -> str | None:
    """The action ``a`` that took a card's steal action has succeeded: the card comes under the
    actor's control, in their ready region (the words added to the narration). None for another
    action."""
    if not a.card or a.card != a.target_card:
        return None
    e = card_action(w.cards[a.card].card or w.revealed.get(a.card, ""))
    if e is None or e.kind != EffectKind.STEAL_ACTION:
        return None
    w.move(a.card, Target.READY, a.actor)
    return f": {seat_ref(a.actor)} takes control of {w.name(a.card)}"


def offers(view: VtesView, seat: int, minion: CardView) -> list[Act]:
    """The actions ``minion`` (ready, unlocked, of ``seat``) may take against another Methuselah's
    cards in play that give one (:func:`card_action`), with the stealth their text gives; and, for
    a vampire that may call it, the referendum to burn each card in play whose text allows one
    (:func:`burn_vote`)."""
    out: list[Act] = []
    for held in view.cards:
        e = card_action(held.card) if held.card and held.zone.in_play and held.controller != seat else None
        if e is None or not may_take(e, held.on, held.controller, minion.pos, minion.crypt, seat):
            continue
        act: Act = {"do": Do.ACTION, "kind": ActionKind.OTHER, "minion": minion.as_list(), "card": held.as_list()}
        act |= {"target_card": held.as_list(), "target": held.controller, "stealth": e.amount}
        if e.kind == EffectKind.BURN_ACTION:
            act["burn"] = True
        out.append(act)
    rec = record(minion.card) if minion.crypt and minion.card else None
    if rec is None or any(d.minion == minion.pos and d.kind == ActionKind.POLITICAL for d in view.done):
        return out
    sect, titled = rec.printed.sect.lower(), bool(rec.printed.title)
    for held in view.cards:
        vote = burn_vote(held.card) if held.card and held.zone.in_play else None
        if vote is not None and may_call(vote, sect, titled):
            card = {"card": held.as_list(), "stealth": vote.amount}
            out.append({"do": Do.ACTION, "kind": ActionKind.POLITICAL, "minion": minion.as_list(), **card})
    return out
