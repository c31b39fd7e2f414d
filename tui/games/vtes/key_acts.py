"""What the VTES table screen's keys make of the seat's view and the card selected on the table:
the act a key builds (``p`` a hand card with its destination and printed cost), the minion it
acts with (``b`` blocks with, ``a`` announces with, ``f`` fights with), and whether a key can act
now. A key is a filter of the seat's offers (:mod:`engine.games.vtes.offers`): what is legal is
said there once, never here; why a key cannot act is the engine's sentence for the act it would
make (:meth:`tui.games.vtes.acting.ActSender.why`). No Textual here: the screen
(:mod:`tui.games.vtes.table`) routes its keys to these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.games.base import Act
from engine.games.vtes.offers import Offer, answers, is_action_card, offers, vote_sources, with_terms
from engine.games.vtes.terms_choices import terms_choices
from engine.games.vtes.view import CardView, VtesView
from engine.games.vtes.vocab import REACTION, CombatStep, Do, Poll, Target, Zone
from tui.games.vtes import play_command
from tui.games.vtes.answer_text import answer_window
from tui.games.vtes.command_words import Context

if TYPE_CHECKING:
    from engine.games.vtes.card_play import Choice


def _minion(card: CardView) -> bool:
    return card.crypt or "Ally" in card.types


def _answers(view: VtesView | None, me: int | None) -> tuple[Offer, ...]:
    """``me``'s answers to the innermost window (none for another seat's view)."""
    return answers(view) if view is not None and me is not None and view.seat == me else ()


def blocker(view: VtesView | None, me: int | None, selected: CardView | None) -> CardView | None:
    """The minion ``b`` blocks with: ``selected`` if a block is offered with it, else the first
    offered whose attempt on this action has not failed (one that failed may try again,
    :meth:`VtesView.may_try`), else the first offered; None when no block is offered."""
    minions = [o.minion for o in _answers(view, me) if o.do == Do.BLOCK]
    if view is None or me is None or not minions:
        return None
    if selected is not None and selected.pos in minions:
        return selected
    fresh = [c for c in view.untried(me) if c.pos in minions]
    return fresh[0] if fresh else view.card(minions[0]) if minions[0] is not None else None


def blood_payer(view: VtesView | None, me: int | None, selected: CardView | None) -> CardView | None:
    """The vampire of ``me``'s a blood cost comes from: ``selected``, else the first ready one."""
    mine = [c for c in (view.cards if view else ()) if c.controller == me and c.crypt and c.zone == Zone.READY]
    return selected if selected in mine else (mine[0] if mine else None)


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
    """Playing a hand card by key: where it goes is :func:`play_command.play_destination`'s (in
    play, on a minion, or the ash heap, from its krcg type and text); its printed cost is paid
    (blood from the selected, or first, vampire of ``me``'s). During an action a reaction is
    played by the selected ready unlocked minion (else the engine's choice when there is one). A
    master card that moves blood to your pool moves it from the selected vampire, else the first
    with blood (:func:`engine.games.vtes.card_play.master_choices`)."""
    from engine.games.vtes.card_play import (
        after_choices,
        master_choices,
        pick,
        printed_cost,
        vote_choices,
        window_choices,
    )

    ways = combat_ways(view, me, card)
    if ways:  # in combat: the level the table applies (superior where both are), else the offer
        return dict(ways[-1][1])
    act: Act = {"do": Do.PLAY, "card": card.as_list()}
    mine = [c for c in (view.cards if view else ()) if c.controller == me and c.zone.in_play]
    minion = selected if selected is not None and selected in mine else None
    if view is not None and view.action is not None and me is not None and REACTION in card.types:
        # A reaction is played by a ready unlocked minion of yours: the selected one, else the
        # engine's choice when you have one only.
        ready = view.ready_unlocked(me)
        if minion in ready and minion is not None:
            act["minion"] = minion.as_list()
    if view is not None:
        # the card's numbers in the open action, else its unlock once an action of yours resolved
        best = pick(window_choices(view, card) if view.action is not None else after_choices(view, card))
        if best is not None:
            act.update(best.act_fields())
    if view is not None and view.referendum is not None:
        best = pick(vote_choices(view, card))  # the votes it gives while polling
        if best is not None:
            act.update(best.act_fields())
    if ctx is not None:
        act.update(play_command.play_destination(card, ctx))
    if view is not None and view.action is None and "Master" in card.types:
        # a master card that moves blood to your pool (from the selected vampire, else the first),
        # or adds blood to a vampire of yours (the selected one, else the first that fits)
        moves = master_choices(view, card)
        picked = selected.pos if selected is not None else None
        chosen = next(
            (m for m in moves if picked in (dict(m.fields).get("minion"), dict(m.fields).get("add_to"))), None
        )
        if chosen is not None or moves:
            act.update((chosen or moves[0]).act_fields())
    if "blood" not in act and "pool" not in act:
        act.update(printed_cost(card, mine, minion))
    return with_terms(view, act) if view is not None else act


def play_menu(
    card: CardView, view: VtesView | None, me: int | None, selected: CardView | None, ctx: Context | None
) -> list[tuple[str, Act]]:
    """The ways ``p`` may play ``card`` when the player has a choice to make (words, act), each
    :func:`play_act`'s act with one of the engine's choices: basic or superior where the minion may
    play both and they differ (in combat, :func:`combat_ways`; in an action, the card's numbers
    there, basic first); the amount and vampire of a master
    card that moves blood to your pool (the selected vampire's only, when it is one), the new target
    of a bleed a reaction redirects, the locked minion a reaction wakes. Empty when there is one way or none (``p`` plays it at once)."""
    from engine.games.vtes.card_play import master_choices, window_choices

    if view is None or me is None:
        return []
    ways = combat_ways(view, me, card)
    if len(ways) > 1:  # basic or superior: the player says which
        return ways
    base = play_act(card, view, me, selected, ctx)
    leveled = False  # the menu names each choice's level
    if view.action is not None:
        # basic or superior, where the minion may play both and they differ (Conditioning); a new
        # target of a bleed; which locked minion a card wakes (Wake with Evening's Freshness)
        offered = window_choices(view, card)
        leveled = len({c.superior for c in offered if c.clause is not None and c.clause.levels}) > 1
        if leveled:  # the best choice's fields leave the act each level's fields complete
            chosen = {k for c in offered for k, _ in c.fields}
            base = {k: v for k, v in base.items() if k not in chosen}
            choices = sorted(offered, key=lambda c: c.superior)
        else:
            choices = [c for c in offered if dict(c.fields).keys() & {"target", "wake", "unlock"}]
    elif "Master" in card.types:
        choices = [c for c in master_choices(view, card) if "move_blood" in dict(c.fields)]
        mine = [c for c in choices if selected is not None and dict(c.fields).get("minion") == selected.pos]
        choices = mine or choices
        if not choices and ctx is not None and not (selected is not None and selected.zone == Zone.READY):
            # a master card put on a minion, none selected: on which (Vessel, Fame, Pentex™ Subversion)
            on = play_command.minions_to_put_on(card, ctx)
            names = ctx.names
            menu = [
                (f"on {m.name}" + ("" if m.controller == me else f" ({_seat_name(names, m.controller)})"),
                 {**base, "to": Target.ON, "on": m.as_list()})
                for m in on
            ]  # fmt: skip
            # one way too, when it is another's minion: the menu says where the card goes
            return menu if len(menu) > 1 or any(m.controller != me for m in on) else []
    else:
        choices = []
    names = ctx.names if ctx is not None else []

    def words(choice: Choice) -> str:
        said = f"{'superior' if choice.superior else 'basic'}: {choice.words}" if leveled else choice.words
        target = dict(choice.fields).get("target")
        if not isinstance(target, int):
            return said
        return f"{said}: {names[target] if target < len(names) else f'seat {target + 1}'}"

    menu = [(words(c), {**base, **c.act_fields()}) for c in choices]
    return menu if len(menu) > 1 else []


def _seat_name(names: Sequence[str], seat: int | None) -> str:
    return names[seat] if seat is not None and seat < len(names) else f"seat {(seat or 0) + 1}"


def combat_ways(view: VtesView | None, me: int | None, card: CardView) -> list[tuple[str, Act]]:
    """The ways ``p`` plays the hand combat card ``card`` in a combat of ``me``'s minion (words,
    act): one per level whose text the table applies, basic first
    (:func:`engine.games.vtes.combat_cards.combat_levels`: a strike, a prevention, a move, a
    play that changes the combat); for a card of no level, the play the seat is offered with it
    (Taste of Vitae); empty outside such a combat or for a card applied by hand."""
    from engine.games.vtes.combat_cards import combat_levels

    c = view.combat if view is not None else None
    if view is None or c is None or me is None or "Combat" not in card.types:
        return []
    mine = [m for m in (view.card(c.acting), view.card(c.opposing)) if m is not None and m.controller == me]
    if not mine:
        return []
    ways: list[tuple[str, Act]] = [(w, with_terms(view, a)) for w, a in combat_levels(view, mine[0], card)]
    if not ways:
        ways = [("", dict(o.act)) for o in _answers(view, me) if o.card == card.pos][:1]
    return ways


def vote_words(view: VtesView, me: int) -> list[str]:
    """The sources of votes ``me`` holds, as ``V`` prefills them (``"calling"``, ``"title Ana"``)."""
    words = []
    for act in vote_sources(view, me):
        card = view.card(tuple(act["card"])) if "card" in act else None
        words.append(f"{act['source']}" + (f" {card.name.split(' (')[0]}" if card is not None else ""))
    return words


def may_pass(view: VtesView | None, me: int | None) -> bool:
    """``.`` can act: a ``pass`` or, while polling, a ``done`` is offered to this seat."""
    return any(o.do in (Do.PASS, Do.DONE) for o in _answers(view, me))


def answer_due(view: VtesView | None, me: int | None) -> bool:
    """The table waits for this seat's answer: the innermost window offers it something."""
    return bool(_answers(view, me))


_FIGHT: dict[CombatStep, Do] = {CombatStep.STRIKE: Do.STRIKE, CombatStep.RANGE: Do.MANEUVER, CombatStep.PRESS: Do.PRESS}


def may_fight(view: VtesView | None, me: int | None, step: CombatStep) -> bool:
    """A combat key of ``step`` (``s`` strike, ``m`` range, ``P`` press) can act: a strike, a
    maneuver or a press is offered to this seat."""
    return any(o.do == _FIGHT[step] for o in _answers(view, me))


def fight_offer(view: VtesView | None, me: int | None, step: CombatStep) -> Act | None:
    """The act a combat key of ``step`` sends (``m`` range, ``P`` press): the first maneuver or
    press offered to this seat, each with the card that gives it (none is offered without one; a
    maneuver or press by hand is the command ``:maneuver``, ``:press``); None when none is."""
    return next((dict(o.act) for o in _answers(view, me) if o.do == _FIGHT[step]), None)


def may_vote(view: VtesView | None, me: int | None) -> bool:
    """``V`` can act: a vote is offered to this seat, or terms to choose (the caller's, for a card
    whose terms the table applies)."""
    if any(o.do == Do.VOTE for o in _answers(view, me)):
        return True
    if view is None or view.seat != me or view.referendum is None:
        return False
    r = view.referendum
    return r.step == Poll.TERMS and r.caller == me and bool(terms_choices(view, r))


def may_contest(view: VtesView | None, me: int | None) -> bool:
    """``Y`` can act: a contest of this seat's waits to be paid or yielded (its unlock phase)."""
    return view is not None and view.seat == me and any(o.do == Do.YIELD for o in offers(view))


def may_announce(view: VtesView | None, me: int | None) -> bool:
    """``a`` can announce an action: an action is offered to this seat (its minion phase, nothing
    open, a minion that may act)."""
    return view is not None and view.seat == me and any(o.do == Do.ACTION for o in offers(view))


def _offering(view: VtesView) -> bool:
    """An action, or a card announced that the others may cancel (:mod:`engine.games.vtes.cancels`),
    is the innermost window: ``p`` plays only a card offered there."""
    if view.innermost is None:
        return False
    return view.innermost is view.action or answer_window(view) is not None


def may_play(view: VtesView | None) -> bool:
    """``p`` can act: while an action or a card announced is the innermost window, only when the
    seat is offered a card to play there (:func:`not_offered_in_action` says why not); else always (the engine
    checks the card)."""
    if view is None or not _offering(view):
        return True
    return any(o.do == Do.PLAY for o in offers(view))


def card_to_play(view: VtesView | None, card: CardView) -> CardView:
    """The hand card ``p`` plays: the highlighted ``card``, unless an action is the innermost
    window, ``card`` is not offered there and exactly one card of the hand is, or copies of one
    card only: that one, the first copy in the hand (the action box's "you: p a reaction:
    Deflection" names it once, and a newcomer presses ``p`` for it)."""
    if view is None or not _offering(view):
        return card
    offered = {o.card for o in offers(view) if o.do == Do.PLAY and o.card is not None}
    if card.pos in offered:
        return card
    copies = [c for c in view.hand if c.pos in offered]
    return copies[0] if copies and len({c.name for c in copies}) == 1 else card


def not_offered_in_action(view: VtesView | None, card: CardView) -> str | None:
    """Why ``p`` does not play the hand ``card`` now: while an action is the innermost window,
    ``p`` plays only a card the seat is offered there (:func:`engine.games.vtes.offers.offers`: an
    action modifier of its acting minion, a reaction that fits, whose Disciplines its minion has);
    the sentence names the command that plays it by hand all the same. None: ``p`` may play it."""
    if view is None or not _offering(view):
        return None
    if any(o.card == card.pos for o in offers(view)):
        return None
    name = card.name.split(" (")[0] if card.name else "this card"
    answer = answer_window(view)
    if answer is not None:
        announced = view.card(answer.card)
        what = announced.name.split(" (")[0] if announced is not None and announced.name else "the card announced"
        return f"✗ {name} does not cancel {what} now: . lets it through."
    return (
        f"✗ {name} is not offered in this action (an action modifier of your acting minion, or a reaction "
        f"that fits, with the Disciplines it needs): :play {name} plays it by hand."
    )


__all__ = [
    "announcer",
    "answer_due",
    "blocker",
    "blood_payer",
    "card_to_play",
    "fighter",
    "is_action_card",
    "may_announce",
    "may_contest",
    "may_fight",
    "may_pass",
    "may_play",
    "may_vote",
    "not_offered_in_action",
    "play_act",
    "play_menu",
    "vote_words",
]
