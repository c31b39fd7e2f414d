"""What the VTES table screen's keys make of the seat's view and the card selected on the table:
the act a key builds (``p`` a hand card with its destination and printed cost), the minion it
acts with (``b`` blocks with, ``a`` announces with, ``f`` fights with), whether a key of an open
action, combat or referendum can act now, and, when it cannot, why. No Textual here: the screen
(:mod:`tui.games.vtes.table`) routes its keys to these.
"""

from __future__ import annotations

from engine.games.base import Act
from engine.games.vtes.actions import ACTION_TYPES, MODIFIER, REACTION
from engine.games.vtes.combat import step_words
from engine.games.vtes.view import CardView, VtesView, vote_sources
from engine.games.vtes.vocab import CombatStep, Do, Phase, Poll, Step, Zone
from tui.games.vtes import commands
from tui.games.vtes.command_words import Context
from tui.games.vtes.fight_text import may_flip


def _minion(card: CardView) -> bool:
    return card.crypt or "Ally" in card.types


def blocker(view: VtesView | None, me: int | None, selected: CardView | None) -> CardView | None:
    """The minion ``b`` blocks with: ``selected`` if it is a ready unlocked minion of ``me``'s
    (one whose attempt failed may try again, :meth:`VtesView.may_try`), else the first that has
    not tried to block this action, else the first; None when ``me`` may not block now."""
    if view is None or me is None or not view.may_block(me):
        return None
    ready = list(view.may_try(me))
    fresh = list(view.untried(me))
    if selected in ready:
        return selected
    return (fresh or ready)[0] if ready else None


def blood_payer(view: VtesView | None, me: int | None, selected: CardView | None) -> CardView | None:
    """The vampire of ``me``'s a blood cost comes from: ``selected``, else the first ready one."""
    mine = [c for c in (view.cards if view else ()) if c.controller == me and c.crypt and c.zone == Zone.READY]
    return selected if selected in mine else (mine[0] if mine else None)


def is_action_card(card: CardView) -> bool:
    """An action card (announced as a minion's action, not played), not a modifier or reaction."""
    types = set(card.types)
    return bool(types & ACTION_TYPES) and not types & {MODIFIER, REACTION}


def announcer(view: VtesView, me: int, selected: CardView | None) -> CardView | None:
    """The minion ``a`` proposes to act with: ``selected`` if it is a minion of ``me``'s, ready or
    in torpor; None: the menu proposes each."""
    mine = [c for c in view.cards if c.controller == me and c.zone in (Zone.READY, Zone.TORPOR)]
    return selected if selected in mine and selected is not None and _minion(selected) else None


def fighter(view: VtesView, me: int, selected: CardView | None) -> CardView | None:
    """The minion ``f`` fights with: ``selected`` if it is a minion ready or in torpor, else
    ``me``'s first ready one; None when there is none."""
    if selected is not None and selected.zone in (Zone.READY, Zone.TORPOR) and _minion(selected):
        return selected
    return next((c for c in view.controlled(me, Zone.READY) if _minion(c)), None)


def play_act(
    card: CardView, view: VtesView | None, me: int | None, selected: CardView | None, ctx: Context | None
) -> Act:
    """Playing a hand card by key: where it goes is :func:`commands.play_destination`'s (in
    play, on a minion, or the ash heap, from its krcg type and text); its printed cost is paid
    (blood from the selected, or first, vampire of ``me``'s). During an action a reaction is
    played by the selected ready unlocked minion (else the engine's choice when there is one)."""
    from engine.games.vtes.cards import card_base, card_id

    act: Act = {"do": Do.PLAY, "card": card.as_list()}
    mine = [c for c in (view.cards if view else ()) if c.controller == me and c.zone.in_play]
    minion = selected if selected is not None and selected in mine else None
    if view is not None and view.action is not None and me is not None and REACTION in card.types:
        # A reaction is played by a ready unlocked minion of yours: the selected one, else the
        # engine's choice when you have one only.
        ready = view.ready_unlocked(me)
        if minion in ready and minion is not None:
            act["minion"] = minion.as_list()
    if ctx is not None:
        act.update(commands.play_destination(card, ctx))
    cid = card_id(card.card)
    base = card_base().by_id(cid) if cid is not None else None
    cost = getattr(base, "cost", None)
    value = getattr(cost, "value", None)
    kind = getattr(getattr(cost, "type", None), "value", "")
    if isinstance(value, int) and value > 0:
        if kind == "Pool":
            act["pool"] = value
        elif kind == "Blood":
            payer = minion if minion is not None and minion.crypt else None
            payer = payer or next((c for c in mine if c.crypt and c.zone == Zone.READY), None)
            if payer is not None:
                act["blood"] = value
                act["minion"] = payer.as_list()
    return act


def vote_words(view: VtesView, me: int) -> list[str]:
    """The sources of votes ``me`` holds, as ``V`` prefills them (``"calling"``, ``"title Ana"``)."""
    words = []
    for act in vote_sources(view, me):
        card = view.card(tuple(act["card"])) if "card" in act else None
        words.append(f"{act['source']}" + (f" {card.name.split(' (')[0]}" if card is not None else ""))
    return words


def may_pass(view: VtesView | None, me: int | None) -> bool:
    """``.`` can act: this seat holds the impulse of the open action, of a combat step that is not
    the strikes, or before a referendum's votes; or it has not said it is done voting."""
    if view is None or me is None:
        return False
    if view.referendum is not None:
        r = view.referendum
        if r.step == Poll.TERMS:
            return False  # the caller records the terms first (:terms TEXT)
        return r.impulse == me if r.step != Poll.VOTING else me not in r.done
    if view.combat is not None:
        return view.combat.impulse == me and view.combat.step != CombatStep.STRIKE
    return view.action is not None and view.action.impulse == me


def answer_due(view: VtesView | None, me: int | None) -> bool:
    """The table waits for this seat's answer: it holds an impulse (``.`` can act), or its
    combatant's strike is due."""
    return may_pass(view, me) or may_fight(view, me, CombatStep.STRIKE)


def may_fight(view: VtesView | None, me: int | None, step: CombatStep) -> bool:
    """A combat key of ``step`` (``s`` strike, ``m`` range, ``P`` press) can act: the combat is
    at that step and waits for this seat (a maneuver or a press: by a minion that did not make the last one)."""
    c = view.combat if view is not None else None
    if view is None or c is None or c.step != step or c.impulse != me:
        return False
    return step not in (CombatStep.RANGE, CombatStep.PRESS) or may_flip(view, c, step)


def may_vote(view: VtesView | None, me: int | None) -> bool:
    """``V`` can act: a referendum is polling, this seat is not done and holds votes."""
    poll = view.referendum if view is not None else None
    voting = poll is not None and poll.step == Poll.VOTING and me not in poll.done
    return voting and view is not None and me is not None and bool(vote_sources(view, me))


def may_announce(view: VtesView | None, me: int | None) -> bool:
    """``a`` can announce an action: this seat's minion phase, with nothing open."""
    mine = (
        view is not None
        and view.step == Step.PLAY
        and view.acting == me
        and view.action is None
        and view.combat is None
        and view.referendum is None
    )
    return mine and view is not None and view.phase == Phase.MINION


def fight_refusal(what: str, view: VtesView | None, me: int | None) -> str | None:
    """Why a combat or referendum key (``strike``, ``maneuver``, ``press``, ``vote``) does
    nothing now (None: not such a key)."""
    combat = view.combat if view is not None else None
    poll = view.referendum if view is not None else None
    match what:
        case "strike" | "maneuver" | "press":
            step = {"strike": "strike", "maneuver": "range", "press": "press"}[what]
            if combat is None:
                return f"There is no combat now: {what} belongs to a combat's {step} step."
            if combat.impulse != me:
                return "The combat waits for another Methuselah now."
            if (
                what != "strike"
                and combat.step == step
                and view is not None
                and not may_flip(view, combat, combat.step)
            ):
                return f"Your minion made the last {what}: never two in a row by one minion (5.3, 5.9)."
            return f"This is the {step_words(combat.step)} step: {what} comes in the {step} step."
        case "vote":
            if poll is None:
                return "There is no referendum now: V votes while one is polling."
            if poll.step != Poll.VOTING:
                return "Polling has not begun: the terms and the cards before votes come first."
            return "You are done voting in this referendum."
    return None


__all__ = [
    "announcer",
    "answer_due",
    "blocker",
    "blood_payer",
    "fight_refusal",
    "fighter",
    "is_action_card",
    "may_announce",
    "may_fight",
    "may_pass",
    "may_vote",
    "play_act",
    "vote_words",
]
