"""The automatic pass: a seat's answer when the innermost window waits for it and it has nothing to
decide (shared/rules/vtes-actions.md P1; README "Flow"). It reads the seat's offers
(:mod:`engine.games.vtes.offers`) and, for what a card in hand might still do there, the card
readings (:mod:`engine.games.vtes.readings`); it never restates what is legal.
"""

from __future__ import annotations

from engine.games.base import Act
from engine.games.vtes import lasting
from engine.games.vtes.aims import aim_points
from engine.games.vtes.card_checks import master_timing
from engine.games.vtes.card_effects import EffectKind
from engine.games.vtes.card_record import CardRecord, record
from engine.games.vtes.cards import card_id
from engine.games.vtes.combat_equip import becomes_weapon, equip_effect
from engine.games.vtes.offers import Offer, answers
from engine.games.vtes.politics import BLOOD_HUNT_BARS
from engine.games.vtes.readings import combat_steps
from engine.games.vtes.state import Action, Answer, Combat, Referendum
from engine.games.vtes.view import CardView, VtesView
from engine.games.vtes.vocab import CombatStep, Do, Poll, Window


def auto_pass(view: VtesView) -> Act | None:
    """The act the view's seat makes by itself now, or None (the player decides; nothing waits
    for it). Only ever one of its offers:

    - in an action (window A, B or C), ``pass`` when it may play no card (:func:`offers.window_cards`;
      one that wakes a minion to block counts only where a block could succeed) and has no block to
      decide (a block that could only fail, :func:`block_would_fail`, is no decision), unless it played
      in this action a card the table does not apply whole (its player applies the rest first);
    - in combat, ``pass`` where the offers hold only the pass (and a press no card gives); the hand
      strike when its strike is due and no card in hand or on its minion could strike instead;
    - a card announced (:mod:`engine.games.vtes.cancels`): ``pass`` when no card of the hand
      cancels it (:mod:`engine.games.vtes.cancel_offers`);
    - in a referendum, ``pass`` before votes with no card that could be played then; ``done`` with
      no vote to cast and no card in hand that could be played while polling.
    """
    seat, top = view.seat, view.innermost
    if seat is None or top is None:
        return None
    offered = answers(view)
    if not offered:
        return None
    match top:
        case Referendum():
            return _poll(view, top, offered)
        case Combat():
            return _combat(view, seat, top, offered)
        case Action():
            return _action(view, seat, top, offered)
        case Answer():  # a card that cancels the one announced is the seat's to decide
            return None if any(o.do == Do.PLAY for o in offered) else _only(offered, Do.PASS)
    return None


def _only(offered: tuple[Offer, ...], do: Do) -> Act | None:
    return next((dict(o.act) for o in offered if o.do == do), None)


def _action(view: VtesView, seat: int, a: Action, offered: tuple[Offer, ...]) -> Act | None:
    if a.window == Window.DIABLERIE or applying_by_hand(view, seat, a):
        return None
    hopeless = block_would_fail(view, seat, a)
    # a card that wakes a locked minion to block is no decision when its block could only fail
    if any(o.do == Do.PLAY and not (hopeless and _wakes(o)) for o in offered):
        return None
    if any(o.do == Do.BLOCK for o in offered) and not hopeless:
        return None
    if any(o.do == Do.ADJUST for o in offered):  # blood for intercept a card gives (offered where it matters)
        return None
    return _only(offered, Do.PASS)


def _wakes(o: Offer) -> bool:
    """The offered play wakes (or unlocks) a locked minion of the seat's to block (its act's
    ``wake`` or ``unlock``, as :func:`engine.games.vtes.card_play.window_choices` fills it)."""
    return bool(o.act.get("wake") or o.act.get("unlock"))


def applying_by_hand(view: VtesView, seat: int, a: Action) -> bool:
    """``seat`` played, in this action, a card whose text the table does not apply whole
    (:attr:`~engine.games.vtes.card_record.CardRecord.coverage`) and has not passed since
    (:attr:`~engine.games.vtes.state.Action.applying`): the next time it holds the impulse, its
    player applies the rest by hand (``:stealth +1 by CARD``, ``:amount``…) before passing; once it
    has passed, its passes are automatic again. A card whose rest comes after the action resolves
    ("… after action resolution": Daring the Dawn's damage) leaves nothing to apply in the window:
    no stop for it."""
    if seat not in a.applying:
        return False
    mine = [
        rec for m, cid in a.played if (c := view.card(m)) is not None and c.controller == seat and (rec := record(cid))
    ]
    return not mine or any(not any(_LATER in s for s in rec.by_hand) for rec in mine)


_LATER = "after action resolution"
"""Words of a card's text the table leaves by hand that put the rest after its action resolved."""


def block_would_fail(view: VtesView, seat: int, a: Action) -> bool:
    """A block attempt by ``seat`` could only fail: the action has stealth, no minion of the seat
    carries a card (a retainer or equipment may give intercept), and no card in its hand could
    give intercept (:func:`_gives_intercept`). A minion whose attempt failed may try again
    (rulebook, "Who May Attempt to Block"), but with nothing changed it would fail again: passing
    then declines, as the player would."""
    if a.stealth <= 0:
        return False
    # A minion whose attempt failed may try again, but with nothing changed it would fail again;
    # one that a card in play bars from blocking cannot try.
    ready = {m.pos for m in view.untried(seat) if lasting.may_block(view, m)}
    if any(c.on in ready for c in view.cards):
        return False
    return not any(_gives_intercept(held) for held in view.hand)


def _gives_intercept(held: CardView) -> bool:
    """A reaction in hand whose record gives intercept, or whose text left by hand speaks of it
    (a card not yet seen counts)."""
    if "Reaction" not in held.types:
        return False
    rec = record(held.card) if held.card else None
    return rec is None or rec.has(EffectKind.INTERCEPT) or any("intercept" in s for s in rec.by_hand)


def _combat_cards(view: VtesView, step: CombatStep) -> bool:
    """A combat card of the hand could be played in ``step``: its text does not bind it to
    another step (:func:`engine.games.vtes.readings.combat_steps`; a card not yet seen counts)."""
    for held in view.hand:
        if "Combat" not in held.types:
            continue
        cid = card_id(held.card) if held.card else None
        steps = combat_steps(cid) if cid is not None else None
        rec = record(cid) if cid is not None else None
        if aim_points(rec) or equip_effect(rec) is not None or becomes_weapon(rec) is not None:
            continue  # an aim fits where a strike is offered with it, an equip where a weapon is (:func:`_combat`)
        if steps is None or step in steps:
            return True
    return False


def _combat(view: VtesView, seat: int, c: Combat, offered: tuple[Offer, ...]) -> Act | None:
    """Outside the strike step, a seat passes where its offers hold only the pass (and a press no
    card gives): a card that fits the step is offered (:func:`engine.games.vtes.offers.answers`:
    its play, maneuver, press or prevention), and one the offers do not hold cannot change the step
    (a card left by hand is played with the automatic pass off, or by command). In the strike
    step, the hand strike unless a combat card in hand could strike instead, or its minion carries
    a card (a weapon, a retainer) that could."""
    if c.step == CombatStep.STRIKE:
        hand_strike = offered[0].act if offered and offered[0].do == Do.STRIKE else None
        if hand_strike is None:
            return None
        minion = tuple(hand_strike["minion"])
        armed = any(card.on == minion for card in view.cards)
        aimed = any("aim" in o.act for o in offered)  # an aim card offered with a strike that deals damage
        return None if _combat_cards(view, CombatStep.STRIKE) or armed or aimed else dict(hand_strike)
    if any(o.do != Do.PASS and not (o.do == Do.PRESS and o.card is None) for o in offered):
        return None  # a card that fits the step: its maneuver, press, prevention, equip or play
    return _only(offered, Do.PASS)


def _playable(view: VtesView, c: CardView, r: Referendum) -> CardRecord | None:
    """The record of a hand card its holder may play during the referendum ``r``, or None: a
    master card where its timing allows (:func:`engine.games.vtes.card_checks.master_timing`: an
    out-of-turn one in another's turn), the caller's action modifier or another Methuselah's
    reaction, none played only after its action resolved; in a blood hunt no action modifier nor
    reaction (rulebook, "The Blood Hunt")."""
    rec = record(c.card) if c.card else None
    types = set(c.types)
    if rec is None or (r.hunted and BLOOD_HUNT_BARS & types) or rec.after_resolution:
        return None
    if "Master" in types:
        return rec if master_timing(rec, view.acting == view.seat, view.phase) is None else None
    return rec if ("Action Modifier" in types if view.seat == r.caller else "Reaction" in types) else None


def _poll(view: VtesView, r: Referendum, offered: tuple[Offer, ...]) -> Act | None:
    """Before votes (7.1, P7), ``pass`` with no card in hand that could be played then
    (:func:`_playable`, whose record speaks of a referendum, votes, ballots or a political action,
    :attr:`~engine.games.vtes.card_record.CardRecord.in_referendum`, and is not played while
    polling; a political action card is burned for a vote in polling, not played before it);
    while polling (7.2), ``done`` with no vote to cast and no card in hand that could be played
    then (:attr:`~engine.games.vtes.card_record.CardRecord.in_polling`: Perfect Paragon's "+3
    votes", Delaying Tactics)."""
    playable = [rec for c in view.hand if (rec := _playable(view, c, r)) is not None]
    if r.step == Poll.BEFORE:
        return None if any(rec.in_referendum and not rec.in_polling for rec in playable) else _only(offered, Do.PASS)
    if r.step == Poll.VOTING and not any(o.do == Do.VOTE for o in offered):
        return None if any(rec.in_polling for rec in playable) else _only(offered, Do.DONE)
    return None


__all__ = ["auto_pass", "block_would_fail"]
