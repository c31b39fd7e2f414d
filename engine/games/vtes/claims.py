"""Changes by hand (docs/vtes-by-hand.md; vtes-actions.md P9): what a
Methuselah records by hand to another Methuselah's things is a **claim** that takes effect only
when every touched Methuselah accepts it, or once its time has run out undisputed; a change to
another's hidden cards waits for their owner's answer alone. The sources a change, a vote or a
lifted rule names are the author's own. Every seat's changes by hand are bounded in rate.

Time, deterministically. (Reading an entry's signed ``time`` departs from PROTOCOL.md 2, which
calls it informational: why, in :mod:`engine.rate`.) The table's time is :attr:`~engine.games.vtes.state.VtesState.clock`:
the latest signed ``time`` of the `move` entries folded so far (milliseconds; it never goes back,
so a seat gains nothing by dating an entry in the past). A claim made at clock ``c`` is *due* at
``c +`` :data:`CLAIM_WAIT_MS`. It lapses into effect through a ``lapse`` act, which any Methuselah
in the game **other than its author** may write, and only in an entry whose own signed time is at
least the due time: a witness says that the time has passed, and every peer and the audit check
the same two numbers in the log. Why an act and not "the first entry after the due time": the
moment a claim takes effect is then one entry anyone can point at, the touched Methuselah sees it
coming on the countdown, and an entry of an unrelated kind (a shuffle's proof, a chat line) never
changes the game. Why not the author: the host refuses an entry dated more than
:data:`~engine.rate.MAX_AHEAD_MS` ahead of its clock, but that tolerance is longer than the wait,
so the author could otherwise date its own ``lapse`` ahead; one seat alone cannot shorten the
wait, and the audit names a ``lapse`` dated before its claim's due time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from engine.games.base import IllegalMove, Pos, seat_ref
from engine.games.vtes.act_records import (
    BurnAct,
    CombatAct,
    CounterAct,
    DisputeAct,
    DisputeWhyAct,
    HandSizeAct,
    LockAct,
    MoveAct,
    PoolAct,
    ShuffleAct,
    VtesAct,
)
from engine.games.vtes.acts import esc, parse_act, plural
from engine.games.vtes.causes import own_cause
from engine.games.vtes.state import CardState, Claim, VtesState
from engine.games.vtes.vocab import ClaimStatus, Do, Status
from engine.games.vtes.work import Work
from engine.rate import Rate

CLAIM_WAIT_MS = 30_000
"""How long a claim waits for the touched Methuselah's answer before it may lapse into effect
(milliseconds of the table's time): long enough to read it and press a key, short enough not to
hold up play."""

BY_HAND_RATE = Rate(per_minute=30, burst=10)
"""How many changes by hand (:data:`BY_HAND`) one Methuselah may record: 30 a minute, 10 at once,
as many as chat lines. A table never meets it in play; a seat recording all it may adds about
700 KiB an hour to every log."""

SHUFFLE_RATE = Rate(per_minute=1, burst=2)
"""How many shuffles by hand one Methuselah may record: 1 a minute, 2 at once. Each is a whole
deck event (every seat's shuffle and proof, some 60 KiB of log for a library): about 3.6 MiB an
hour at most."""

BY_HAND: frozenset[Do] = frozenset(
    {
        Do.DRAW,
        Do.MOVE,
        Do.BURN,
        Do.LOCK,
        Do.UNLOCK,
        Do.BLOOD,
        Do.LIFE,
        Do.POOL,
        Do.HAND_SIZE,
        Do.SHUFFLE,
        Do.COMBAT,
    }
)
"""The acts recorded by hand, outside any window of play: bounded by :data:`BY_HAND_RATE`."""

ANSWERS_NOTHING: frozenset[Do] = BY_HAND | {Do.ACCEPT, Do.DISPUTE, Do.LAPSE, Do.RETRACT, Do.BURN_EDGE}
"""The acts that answer nothing the table waits for (PROTOCOL.md 6.5): a change by hand, a
claim's answer, and the Edge burned for a card's text (its effect is then applied by hand). The
acting Methuselah's own turn waits on it to play the turn (a phase, a transfer, an action, a card,
the end of the turn); one of these leaves that wait as it was, so a seat that only keeps changing
its counters is offered to the abandon vote like any other stall."""

type Claimed = MoveAct | BurnAct | LockAct | CounterAct | PoolAct | HandSizeAct | ShuffleAct | CombatAct
"""The acts that may change other Methuselahs' things by hand, naming a cause."""


def party(c: CardState) -> int:
    """Whose thing a card is: its controller in play, else its owner."""
    return c.controller if c.zone.in_play else c.owner


def own_source(w: Work, pos: Pos, what: str) -> None:
    """Raise IllegalMove unless the card at ``pos`` is face up (or played by this act) and the
    author's own: in play under its control, else owned by it (P9; a vote's, a lift's or a
    cause's source). ``what`` names the card's role ("the card that gives votes")."""
    c = w.card(pos)
    if c.zone.hidden and pos not in w.revealed:
        raise IllegalMove(f"{what} must be face up")
    owner = party(c)
    if owner != w.author:
        raise IllegalMove(
            f"{what} must be a card you control, and {w.name(pos)} is {seat_ref(owner)}'s: "
            "only its Methuselah may use it"
        )


def charge(w: Work, do: Do, at: int) -> None:
    """Pay for a change by hand at time ``at`` (ms) from the author's buckets. Raises IllegalMove
    with the bound's sentence when it is over :data:`BY_HAND_RATE` or, for a shuffle,
    :data:`SHUFFLE_RATE`."""
    if do not in BY_HAND:
        return
    p = w.p(w.author)
    if not p.by_hand.can_pay(BY_HAND_RATE, at):
        raise IllegalMove(
            f"a Methuselah records at most {BY_HAND_RATE.per_minute} changes by hand a minute "
            f"({BY_HAND_RATE.burst} at once): wait a moment"
        )
    changes = {"by_hand": p.by_hand.paid(BY_HAND_RATE, at)}
    if do == Do.SHUFFLE:
        if not p.shuffles.can_pay(SHUFFLE_RATE, at):
            raise IllegalMove(
                f"a Methuselah shuffles by hand at most {plural(SHUFFLE_RATE.per_minute, 'time')} a minute "
                f"({SHUFFLE_RATE.burst} at once): each is a whole deck event for every seat"
            )
        changes["shuffles"] = p.shuffles.paid(SHUFFLE_RATE, at)
    w.setp(w.author, **changes)


def cause_of(w: Work, act: Claimed) -> str:
    """The cause an act names: its ``cause`` phrase (a card or title it names the author's own:
    :func:`~engine.games.vtes.causes.own_cause`) and the card ``by`` that causes it (face up, the
    author's own). Raises IllegalMove otherwise."""
    parts = []
    if act.cause is not None:
        own_cause(w, act.cause)
        parts.append(act.cause)
    if act.by is not None:
        own_source(w, act.by, "the card named as a cause")
        parts.append(w.name(act.by))
    return ", ".join(parts)


def _hides(w: Work, act: Claimed) -> tuple[Pos, ...]:
    """The face-down cards of other Methuselahs that ``act`` moves (only their owner moves them)."""
    if not isinstance(act, MoveAct | BurnAct):
        return ()
    return tuple(
        pos
        for pos in act.cards
        if w.cards[pos].zone.hidden and not w.cards[pos].card and w.cards[pos].owner != w.author
    )


def claim(w: Work, act: Claimed, seats: set[int], text: str) -> bool:
    """Record a change by hand to other Methuselahs' things (``seats``; the author is left out)
    as a pending :class:`Claim`, with its cause, for everyone to see and the touched ones to
    answer; True when it was recorded (the act does nothing more now), False when it touches only
    the author's things or is a claim taking effect (the act goes on). Raises IllegalMove when it
    names no cause, or also turns the author's own cards face up."""
    if w.taking:
        return False
    cause = cause_of(w, act)  # its card is the author's own, whoever the change touches
    others = tuple(sorted(s for s in seats if s != w.author and s >= 0))
    if not others:
        return False
    if not cause:
        raise IllegalMove(
            "a change to another Methuselah's things names its cause: a card you control (by) or a rule (cause)"
        )
    if w.revealed:
        raise IllegalMove(
            "a change to another Methuselah's things turns none of your cards face up: play or move yours in an act "
            "of its own"
        )
    hidden = _hides(w, act)
    _ask(w, act, others, text, cause, due=0 if hidden else w.clock + CLAIM_WAIT_MS, holds=False)
    return True


def _ask(w: Work, act: VtesAct, others: tuple[int, ...], text: str, cause: str, due: int, holds: bool) -> None:
    """Record ``act`` as a pending claim on ``others`` and say so to them and the author."""
    w.claims.append(
        Claim(
            w.acts,
            w.author,
            others,
            text,
            cause,
            change=frozen(act.to_map()),
            due=due,
            status=ClaimStatus.PENDING,
            holds=holds,
        )
    )
    who = " and ".join(seat_ref(s) for s in others)
    if not due:
        when = f"only their owner moves hidden cards: it waits for {who} to accept it (and move them) or dispute it"
    else:
        when = f"it takes effect when {who} accept{'s' if len(others) == 1 else ''} it, or in {CLAIM_WAIT_MS // 1000} s unless disputed"
    if holds:
        when += "; the window waits for it"
    w.note(f"{seat_ref(w.author)} asks: {text} (cause: {esc(cause)}); act {w.acts} {when}", w.author, *others)


def in_the_open(w: Work, seats: set[int], text: str, cause: str, act: VtesAct) -> bool:
    """A change to other Methuselahs' things (``seats``; the author is left out) made in a window
    on the impulse with no card named (a maneuver, a press, a prevention or a strike by hand; the
    numbers of an action others are party to, by a rule): a pending :class:`Claim` with its
    ``cause`` that **holds the window** (vtes-actions.md P9; docs/vtes-by-hand.md): no move answers
    the window until the touched Methuselahs accept it, its time runs out undisputed, or it is
    disputed or retracted (the window then goes on without it). True when it was recorded (the
    act does nothing more now), False when it touches only the author's things or is the claim
    taking effect (the act goes on)."""
    others = tuple(sorted(s for s in seats if s != w.author and s >= 0))
    if w.taking or not others:
        return False
    _ask(w, act, others, text, cause, due=w.clock + CLAIM_WAIT_MS, holds=True)
    return True


def window_held(claims: Iterable[Claim]) -> Claim | None:
    """Of ``claims`` (a state's), the one made in a window that the window waits for
    (:func:`in_the_open`), or None."""
    return next((c for c in claims if c.holds and c.status == ClaimStatus.PENDING), None)


def must_not_hold(w: Work) -> None:
    """Raise IllegalMove while a claim made in a window holds it: only a claim's answer, or a
    change by hand, is made meanwhile."""
    c = window_held(w.claims)
    if c is not None:
        who = " and ".join(seat_ref(s) for s in c.seats if s not in c.accepted)
        raise IllegalMove(
            f"the window waits for {who}'s answer to act {c.act} ({c.text}): accept or dispute it, or its time runs out"
        )


def _find(w: Work, number: int) -> int:
    if number >= w.acts:
        raise IllegalMove(f"there is no act {number} yet (the last act is {w.acts - 1})")
    return next((i for i, c in enumerate(w.claims) if c.act == number), -1)


def answer(w: Work, act: DisputeAct, at: int) -> Claim | None:
    """``dispute``, ``accept``, ``lapse`` or ``retract`` the claim of act number ``act.act`` (time
    ``at``, ms); return the claim that takes effect now, if any (the caller applies its act).
    Raises IllegalMove with the rule's sentence."""
    number = act.act
    if number < 1:
        raise IllegalMove(f"'act' of the {act.do} act must be at least 1, not {number}")
    i = _find(w, number)
    if act.do == Do.DISPUTE:
        _dispute(w, number, i, act.why if isinstance(act, DisputeWhyAct) else None)
        return None
    if i < 0:
        raise IllegalMove(f"act {number} changed nothing of another Methuselah's by hand: there is nothing to {act.do}")
    c = w.claims[i]
    if c.status != ClaimStatus.PENDING:
        raise IllegalMove(f"act {number} is no longer waiting: it {_ended(c)}")
    match act.do:
        case Do.RETRACT:
            if w.author != c.author:
                raise IllegalMove(f"only {seat_ref(c.author)}, who recorded act {number}, may retract it")
            w.claims[i] = replace(c, status=ClaimStatus.RETRACTED, how=f"was retracted by {seat_ref(w.author)}")
            w.note(f"{seat_ref(w.author)} retracts act {number} ({c.text}): it never takes effect", *c.seats)
            return None
        case Do.ACCEPT:
            if w.author not in c.seats:
                raise IllegalMove(f"only the Methuselah whose things act {number} changes may accept it")
            if w.author in c.accepted:
                raise IllegalMove(f"you have already accepted act {number}")
            c = replace(c, accepted=(*c.accepted, w.author))  # a dispute before stays listed for the judge
            w.claims[i] = c
            if set(c.seats) - set(c.accepted):
                w.note(f"{seat_ref(w.author)} accepts act {number} ({c.text})", w.author, c.author)
                return None
            return _taken(w, i, f"was accepted by {' and '.join(seat_ref(s) for s in c.seats)}")
        case _:  # Do.LAPSE
            if w.author == c.author:
                raise IllegalMove(
                    f"a Methuselah other than {seat_ref(c.author)}, who recorded act {number}, says when its time has run out"
                )
            if not c.due:
                owner = " and ".join(seat_ref(s) for s in c.seats)
                raise IllegalMove(
                    f"act {number} moves hidden cards: it waits for {owner}, their owner, and no time lets it"
                )
            if c.holding:
                who = " and ".join(seat_ref(s) for s in c.holding)
                raise IllegalMove(
                    f"act {number} is disputed by {who}: it takes effect only if they accept it or it is retracted"
                )
            if at < c.due:
                raise IllegalMove(
                    f"act {number} waits {_seconds(c.due - at)} more for an answer before its time runs out"
                )
            return _taken(w, i, "took effect when its time ran out before any dispute")


def _seconds(ms: int) -> str:
    return plural(-(-ms // 1000), "second")


def _ended(c: Claim) -> str:
    return c.how or "took effect"


def _taken(w: Work, i: int, how: str) -> Claim:
    c = replace(w.claims[i], status=ClaimStatus.TAKEN, how=how)
    w.claims[i] = c
    w.note(f"Act {c.act} by {seat_ref(c.author)} ({c.text}) {how}", c.author, *c.seats)
    return c


def void(w: Work, number: int, why: str) -> None:
    """The claim of act ``number`` could not take effect when its turn came: ``why``."""
    i = _find(w, number)
    c = w.claims[i]
    w.claims[i] = replace(c, status=ClaimStatus.VOID, how=f"could no longer take effect ({why})")
    w.note(f"Act {number} by {seat_ref(c.author)} ({c.text}) can no longer take effect: {why}", c.author, *c.seats)


def _ousted_by(w: Work, seat: int, number: int) -> bool:
    return any(o.seat == seat and o.act == number and o.how == Status.OUSTED for o in w.outs)


def _dispute(w: Work, number: int, i: int, why: str | None = None) -> None:
    """A Methuselah disputes a change by hand to its things, waiting or taken, or the act that
    ousted it: recorded and shown (with ``why``, its reason, when it gives one), listed for the
    judge (``vampire result``)."""
    if i < 0:
        if not _ousted_by(w, w.author, number):
            raise IllegalMove(
                f"act {number} changed nothing of another Methuselah's by hand: there is nothing to dispute"
            )
        out = next(o for o in w.outs if o.seat == w.author and o.act == number)
        w.claims.append(Claim(number, out.author, (w.author,), f"the oust of {seat_ref(w.author)}", "", (w.author,)))
        w.note(f"{seat_ref(w.author)} disputes act {number}, which ousted them: a judge settles it", w.author)
        return
    c = w.claims[i]
    if w.author not in c.seats:
        raise IllegalMove(f"only the Methuselah whose things act {number} changed may dispute it")
    if w.author in c.disputed:
        raise IllegalMove(f"you have already disputed act {number}")
    if c.status in (ClaimStatus.RETRACTED, ClaimStatus.VOID):
        raise IllegalMove(f"act {number} {_ended(c)}: there is nothing to dispute")
    if c.holds and c.status == ClaimStatus.PENDING:
        w.claims[i] = replace(
            c,
            disputed=(*c.disputed, w.author),
            status=ClaimStatus.VOID,
            how="took no effect (the window went on without it)",  # ``disputed`` names who disputed it
        )
        w.note(
            f"{seat_ref(w.author)} disputes act {number} by {seat_ref(c.author)} ({c.text}, cause: {esc(c.cause)}): "
            f"{esc(why) + '; ' if why else ''}it takes no effect and the window goes on; a judge settles it",
            w.author,
            c.author,
        )
        return
    w.claims[i] = replace(c, disputed=(*c.disputed, w.author))
    held = "it takes no effect unless they accept it" if c.status == ClaimStatus.PENDING else "a judge settles it"
    if why:
        held = f"{esc(why)}; {held}"
    w.note(
        f"{seat_ref(w.author)} disputes act {number} by {seat_ref(c.author)} ({c.text}, cause: {esc(c.cause)}): {held}",
        w.author,
        c.author,
    )


def may_dispute(state: VtesState, seat: int) -> bool:
    """Whether ``seat``, out of the game, still has something to dispute: a change by hand to its
    things that took effect without its acceptance, or the act that ousted it."""
    for c in state.claims:
        if seat in c.seats and seat not in c.disputed and seat not in c.accepted and c.status != ClaimStatus.RETRACTED:
            return True
    disputed = {c.act for c in state.claims if seat in c.disputed}
    return any(o.seat == seat and o.how == Status.OUSTED and o.act not in disputed for o in state.outs)


def waiting(state: VtesState) -> tuple[Claim, ...]:
    """The claims still waiting for an answer or their time, oldest first."""
    return tuple(c for c in state.claims if c.status == ClaimStatus.PENDING)


def record_of(state: VtesState, number: int) -> VtesAct | None:
    """The act a waiting claim of act ``number`` applies when it takes effect, or None."""
    for c in state.claims:
        if c.act == number and c.status == ClaimStatus.PENDING:
            return change_of(c)
    return None


def change_of(c: Claim) -> VtesAct:
    """The act ``c`` applies when it takes effect, read again from its frozen map."""
    return act_of(c.change)


def act_of(change: tuple[tuple[str, object], ...]) -> VtesAct:
    """An act read again from its map frozen by :func:`frozen` (a state holds it so)."""
    return parse_act({key: _thawed(value) for key, value in change})


def frozen(value: Any) -> Any:
    """An act map's value, or the map itself, as plain tuples (a state holds no list or dict)."""
    if isinstance(value, dict):
        return tuple(sorted((k, frozen(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(frozen(v) for v in value)
    return value


def _thawed(value: Any) -> Any:
    return [_thawed(v) for v in value] if isinstance(value, tuple) else value
