"""The answer window: a card announced, that the other Methuselahs may cancel "as it is played"
(rulebook, "Cancel": a card canceled as it is played has no effect and its cost is not paid; it
is still played: it goes to the ash heap and is replaced, and a master phase action used for it
stays used). docs/vtes-windows.md, "Cancel as it is played".

A master card (a cancel too), and a minion card played inside an action or a combat (but at a
table whose rule ``cancels`` is ``master``) (:func:`opens`), is *announced*: checked in full (every
refusal it would meet is met now, on a copy), revealed, put in its owner's ash heap and replaced;
its cost is not yet paid and its effects not yet applied. An
:class:`~engine.games.vtes.state.Answer` window opens on top of the windows open, over the other
Methuselahs in the game from the player's left (:func:`engine.games.vtes.cancel_reading.asked`).
Each passes, or plays a card that cancels it (Sudden Reversal, Wash, Direct Intervention:
:mod:`engine.games.vtes.cancel_reading`), itself announced in its own window above. When the last
passes, the card is applied as its act said (cost paid, effects, a card put in play), and a cancel
so applied cancels the card below it: that window closes with the card's cost unpaid and no
effect, narrated with both cards' names.

Hidden information: the table cannot know who holds a cancel, so every Methuselah who may play
one is asked, every time; a seat's automatic pass (:mod:`engine.games.vtes.autopass`) answers at
once when its hand holds no card that fits, so a seat without one never delays the play, and a seat
that stops tells the others only what a player who says "wait" at a real table tells them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.games.base import IllegalMove, Pos, seat_ref
from engine.games.vtes import windows
from engine.games.vtes.act_records import (
    ActionAct,
    ActionEndAct,
    AdjustAct,
    BareAct,
    BlockAct,
    CombatCardAct,
    DiableriseAct,
    PlayAct,
    PreventAct,
    StrikeAct,
    TermsAct,
    VoteAct,
    VtesAct,
)
from engine.games.vtes.acts import esc
from engine.games.vtes.cancel_reading import BY_NEIGHBOUR, answerable, asked, cancel_of, misfit
from engine.games.vtes.card_record import CardTerms, record
from engine.games.vtes.claims import act_of, frozen
from engine.games.vtes.state import Action, Answer, Combat, OpenWindow
from engine.games.vtes.vocab import Do, Phase, Target
from engine.games.vtes.work import Work

type Apply = Callable[[Work, PlayAct, bool], None]
"""What a play does once checked (``rules``' own): the act checked, its card, cost and effects
applied; the flag: the card was announced (already in the ash heap and replaced)."""

_IN_WINDOWS = (ActionAct, BlockAct, DiableriseAct, AdjustAct, ActionEndAct, CombatCardAct, StrikeAct, PreventAct)
"""Acts of the windows a card announced waits in (an action, a combat): none is made meanwhile."""


def answering(w: Work) -> Answer | None:
    """The answer window when it is the innermost one, else None."""
    top = w.innermost
    return top if isinstance(top, Answer) else None


def _order(w: Work, seat: int) -> list[int]:
    """Who answers a card ``seat`` plays: the other Methuselahs from ``seat``'s left, but the
    acting one outside its master phase (:func:`engine.games.vtes.cancel_reading.asked`)."""
    n = len(w.seating)
    others = [w.seating[(w.seating.index(seat) + i) % n] for i in range(1, n)]
    return [s for s in others if s in w.in_game() and asked(s, w.acting, w.phase)]


def opens(w: Work, pos: Pos) -> bool:
    """The card ``pos`` the act's author plays is announced first: a master card (a cancel too)
    played with no window open, inside an action or a combat, or answering a card announced; a
    minion card played inside an action or a combat (but at a table whose rule ``cancels`` is
    ``master``); with another Methuselah to answer it."""
    ident = w.cards[pos].card or w.revealed.get(pos, "")
    top = w.innermost
    if top is not None and not isinstance(top, (Action, Combat, Answer)):
        return False
    minion_window = (
        isinstance(top, (Action, Combat)) and dict(w.options).get("cancels") != "master"
    )  # added: absent at its default, all
    return bool(_order(w, w.author)) and answerable(record(ident) if ident else None, minion_window)


def announce(w: Work, act: PlayAct) -> None:
    """Announce ``act``'s card (already checked, on a copy, by the caller): revealed and put in the
    ash heap, and replaced (a weapon it equips with from the hand, opened with it, stays known); its answer window opens on top of the windows open. A cancel announced
    against a card that waits returns that card's window's impulse to its first seat (5.1)."""
    pos, seat = act.card, w.author
    w.move(pos, Target.ASH)
    if act.equip is not None and not w.cards[act.equip].card and act.equip in w.revealed:
        # The weapon the card equips with, opened with the play, stays in the hand until it applies:
        # its identity is kept (public since the play opened it), for the play applied later.
        w.setc(act.equip, card=w.revealed[act.equip])
    if not act.no_replace:
        w.refill(seat, pos)
    outer = answering(w)
    if outer is not None:
        windows.put(w, windows.returned(outer, w.in_game()))
    windows.push(w, Answer(seat, pos, frozen(act.to_map()), windows.loop(_order(w, seat), w.in_game())))
    w.note(f"{seat_ref(seat)} plays {w.name(pos)}: the others may cancel it as it is played", seat)


def check_as_played(w: Work, act: VtesAct) -> None:
    """Raise IllegalMove for an act of an action or a combat, or a ``done`` while polling, made
    while a card announced waits for answers: only a cancel or a pass is made in that time
    (rulebook, "Playing a Card": cancels and wake effects are the only effects allowed during the
    "as played" time period of another card)."""
    answer = answering(w)
    if answer is None:
        return
    if isinstance(act, (*_IN_WINDOWS, TermsAct, VoteAct)) or (isinstance(act, BareAct) and act.do == Do.DONE):
        raise IllegalMove(
            f"{w.name(answer.card)} waits for the others' answers: only a card that cancels it, or a pass, comes first"
        )


def check_answer(w: Work, answer: Answer, pos: Pos) -> None:
    """Raise IllegalMove unless the act's author holds the answer window's impulse and ``pos`` is a
    card that cancels the card announced (:func:`engine.games.vtes.cancel_reading.misfit`)."""
    announced = record(w.cards[answer.card].card)
    name = esc(announced.name) if announced is not None else "the card"
    w.must_hold_impulse(answer.loop.holder, f"answer {name}")
    ident = w.cards[pos].card or w.revealed.get(pos, "")
    if announced is None:
        raise IllegalMove("the card announced is unknown to the table: nothing can cancel it")
    near = (w.predator(answer.seat), w.prey(answer.seat))
    why = misfit(record(ident) if ident else None, announced, w.author, answer.seat, near)
    if why is not None:
        raise IllegalMove(why)


def cancelled(w: Work, answer: Answer, by: Pos, seat: int) -> None:
    """The card ``by`` (played by ``seat`` and applied) cancels the announced one: the window
    closes, that card's cost is not paid and it has no effect; Wash gives its player back the
    master phase action it used, when it is their master phase. The canceled card was still played
    (rulebook, "Cancel"): a minion card played in an action is counted as its minion's play there,
    and the impulse of the window it was played in returns to that window's first seat (5.1)."""
    windows.pop(w, answer)
    w.note(
        f"{seat_ref(seat)} cancels {seat_ref(answer.seat)}'s {w.name(answer.card)} with {w.name(by)}: "
        "its cost is not paid and it has no effect",
        seat,
        answer.seat,
    )
    cancel = cancel_of(record(w.cards[by].card))
    if cancel is not None and cancel.whom == BY_NEIGHBOUR and w.acting == answer.seat and w.phase == Phase.MASTER:
        w.master_actions = max(0, w.master_actions - 1)
        w.note(f"{w.name(by)}: {seat_ref(answer.seat)} gets +1 master phase action", answer.seat)
    _still_played(w, answer)


def _still_played(w: Work, answer: Answer) -> None:
    """The canceled card of ``answer`` was played inside the window now innermost: in an action,
    its minion has played it there (2.1: once per minion and action); an action's or a combat's
    impulse returns to the first seat of its order, as after any play."""
    top = w.innermost
    if isinstance(top, Action):
        play = act_of(answer.play)
        info = w.info(answer.card)
        minion = play.minion if isinstance(play, PlayAct) and play.minion is not None else None
        minion = top.minion if minion is None and answer.seat == top.actor else minion
        if minion is not None and info is not None:
            top = replace(top, played=(*top.played, (minion, info.id)))
    if isinstance(top, (Action, Combat)):
        windows.put(w, windows.returned(top, w.in_game()))


def kind(apply: Apply) -> windows.Kind:
    """The answer window's kind (:func:`engine.games.vtes.windows.register`): when every Methuselah
    asked passed, the card announced is applied by ``apply`` as its player's act said; where
    it no longer fits (a change by hand since), it has no effect, and the table says why. A cancel
    so applied, played against a card that waits in the answer window now innermost, cancels it."""

    def close(w: Work, window: OpenWindow) -> None:
        assert isinstance(window, Answer)
        windows.pop(w, window)
        play = act_of(window.play)
        assert isinstance(play, PlayAct)
        # Applied as its player's play (the entry that let it through pays its cost): what it
        # changes is said to be the play's, by its player (a withdrawal it breaks names the play).
        author, do, lift, terms = w.author, w.do, (w.lift, w.lift_by, w.lifted), w.terms
        w.author, w.do, w.terms = window.seat, Do.PLAY, CardTerms.of(play)  # the limit the play states
        w.lift, w.lift_by, w.lifted = play.lift, play.by, False  # a rule the play's card lifts (P9)
        try:
            try:
                apply(w.trial(), play, True)
            except IllegalMove as e:
                w.note(f"{w.name(window.card)} no longer fits and has no effect: {e}", window.seat)
                return
            apply(w, play, True)
        finally:
            w.author, w.do, w.terms = author, do, terms
            w.lift, w.lift_by, w.lifted = lift
        target = answering(w)
        if target is not None:  # only a cancel is played while a card waits: this one cancels it
            cancelled(w, target, window.card, window.seat)

    return windows.Kind(close=close)
