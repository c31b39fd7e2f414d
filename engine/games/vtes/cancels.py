"""The answer window: a card announced, that the other Methuselahs may cancel "as it is played"
(rulebook, "Cancel": a card canceled as it is played has no effect and its cost is not paid; it
is still played: it goes to the ash heap and is replaced, and a master phase action used for it
stays used). docs/vtes-windows.md, "Cancel as it is played".

A master card played with no other window open (:func:`engine.games.vtes.cancel_reading.answerable`)
is *announced*: checked in full (every refusal it would meet is met now, on a copy), revealed, put
in its owner's ash heap and replaced; its cost is not yet paid and its effects not yet applied. An
:class:`~engine.games.vtes.state.Answer` window opens over the other Methuselahs in the game, from
the player's left. Each passes, or plays a card that cancels it (Sudden Reversal, Wash:
:mod:`engine.games.vtes.cancel_reading`). When the last passes, the card is applied as its act
said (cost paid, effects, a card put in play); a cancel instead closes the window with the card's
cost unpaid and no effect, narrated with both cards' names.

Hidden information: the table cannot know who holds a cancel, so every other Methuselah in the
game is asked, every time; a seat's automatic pass (:mod:`engine.games.vtes.autopass`) answers at
once when its hand holds no card that fits, so a seat without one never delays the play, and a seat
that stops tells the others only what a player who says "wait" at a real table tells them.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.games.base import IllegalMove, Pos, seat_ref
from engine.games.vtes import windows
from engine.games.vtes.act_records import PlayAct
from engine.games.vtes.acts import esc
from engine.games.vtes.cancel_reading import BY_NEIGHBOUR, answerable, cancel_of, misfit
from engine.games.vtes.card_record import record
from engine.games.vtes.claims import act_of, frozen
from engine.games.vtes.state import Answer, OpenWindow
from engine.games.vtes.vocab import Do, Phase, Target
from engine.games.vtes.work import Work

type Apply = Callable[[Work, PlayAct, bool], None]
"""What a play does once checked (``rules``' own): the act's card, cost and effects applied;
the flag: the card was announced (already in the ash heap and replaced)."""


def answering(w: Work) -> Answer | None:
    """The answer window when it is the innermost one, else None."""
    top = w.innermost
    return top if isinstance(top, Answer) else None


def opens(w: Work, pos: Pos) -> bool:
    """The card ``pos`` the act's author plays is announced first: a master card that is not a
    cancel, played with no window open, with another Methuselah in the game to answer it."""
    ident = w.cards[pos].card or w.revealed.get(pos, "")
    others = [s for s in w.in_game() if s != w.author]
    return w.innermost is None and bool(others) and answerable(record(ident) if ident else None)


def announce(w: Work, act: PlayAct) -> None:
    """Announce ``act``'s card (already checked, on a copy, by the caller): revealed and put in the
    ash heap, and replaced; the answer window opens."""
    pos, seat = act.card, w.author
    w.move(pos, Target.ASH)
    if not act.no_replace:
        w.refill(seat, pos)
    order = [w.seating[(w.seating.index(seat) + i) % len(w.seating)] for i in range(1, len(w.seating))]
    windows.put(w, Answer(seat, pos, frozen(act.to_map()), windows.loop(order, w.in_game())))
    w.note(f"{seat_ref(seat)} plays {w.name(pos)}: the others may cancel it as it is played", seat)


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


def cancelled(w: Work, answer: Answer, by: Pos) -> None:
    """The card ``by`` (played and applied) cancels the announced one: the window closes, that
    card's cost is not paid and it has no effect; Wash gives its player back the master phase
    action it used, when it is their master phase."""
    windows.pop(w, answer)
    w.note(
        f"{seat_ref(w.author)} cancels {seat_ref(answer.seat)}'s {w.name(answer.card)} with {w.name(by)}: "
        "its cost is not paid and it has no effect",
        w.author,
        answer.seat,
    )
    cancel = cancel_of(record(w.cards[by].card))
    if cancel is not None and cancel.whom == BY_NEIGHBOUR and w.acting == answer.seat and w.phase == Phase.MASTER:
        w.master_actions = max(0, w.master_actions - 1)
        w.note(f"{w.name(by)}: {seat_ref(answer.seat)} gets +1 master phase action", answer.seat)


def kind(apply: Apply) -> windows.Kind:
    """The answer window's kind (:func:`engine.games.vtes.windows.register`): when every other
    Methuselah passed, the card announced is applied by ``apply`` as its player's act said; where
    it no longer fits (a change by hand since), it has no effect, and the table says why."""

    def close(w: Work, window: OpenWindow) -> None:
        assert isinstance(window, Answer)
        windows.pop(w, window)
        play = act_of(window.play)
        assert isinstance(play, PlayAct)
        # Applied as its player's play (the entry that let it through pays its cost): what it
        # changes is said to be the play's, by its player (a withdrawal it breaks names the play).
        author, do = w.author, w.do
        w.author, w.do = window.seat, Do.PLAY
        try:
            try:
                apply(w.trial(), play, True)
            except IllegalMove as e:
                w.note(f"{w.name(window.card)} no longer fits and has no effect: {e}", window.seat)
                return
            apply(w, play, True)
        finally:
            w.author, w.do = author, do

    return windows.Kind(close=close)
