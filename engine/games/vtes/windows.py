"""Windows of play as one stack of impulse loops (shared/rules/vtes-actions.md 5.1 and reading P1).

The state holds the open windows, outer to inner (``VtesState.windows``): a minion action
(:mod:`~engine.games.vtes.actions`), a combat (:mod:`~engine.games.vtes.combat`), a referendum
(:mod:`~engine.games.vtes.politics`). Each carries one :class:`~engine.games.vtes.state.Loop`: the
order in which the impulse passes and the seat that holds it. This module is the one place that
moves an impulse:

- the table waits for the holder of the innermost window's impulse (:func:`awaited`);
- a ``pass`` moves the impulse to the next seat of the order still in the game; the pass of the last
  one closes the loop: all have passed in order with no play since (:func:`pass_impulse`);
- a play returns the impulse to the first seat of the order (:func:`returned`);
- after any act, each open window checks who is still there, then a holder who left the game
  passes, as if it had (:func:`settle`): an absent seat passes its impulse, declines to block,
  strikes nothing and casts no vote; an action whose acting Methuselah is gone ends unresolved; a
  combat whose side is gone ends; a referendum whose caller is gone fails.

When a loop closes, the window's record is handed to that kind's ``close``, registered with
:func:`register` by the module of that kind, which opens its next step, resolves it, or pops it. A
new kind of window is one new record (with a ``loop`` field) and one :func:`register` call with its
``close`` (and, where a pass means more than passing, its ``passing``); ``docs/vtes-windows.md``
says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from engine.games.base import IllegalMove, seat_ref
from engine.games.vtes.state import Loop, OpenWindow, UnderWay
from engine.games.vtes.vocab import Status
from engine.games.vtes.work import Work


def loop(order: Sequence[int], in_game: Sequence[int]) -> Loop:
    """A new loop over ``order`` (each seat once, in that order; seats not in ``in_game`` left
    out), its first seat holding the impulse (-1 when none is left)."""
    seats = tuple(s for s in dict.fromkeys(order) if s in in_game)
    return Loop(seats, seats[0] if seats else -1)


def only(seat: int) -> Loop:
    """A step that is not a loop: ``seat`` alone acts (a strike, the terms, a diablerie)."""
    return Loop((), seat)


NOBODY = Loop()
"""No impulse: everyone acts in any order (a referendum's polling)."""


def next_after(lp: Loop, seat: int, in_game: Sequence[int]) -> Loop | None:
    """The loop once ``seat`` has passed: the next seat of the order still in the game holds the
    impulse; None when ``seat`` was the last (the loop closes)."""
    if seat not in lp.order:
        return None
    i = lp.order.index(seat)
    for other in lp.order[i + 1 :]:
        if other in in_game:
            return Loop(lp.order, other)
    return None


def returned[W: OpenWindow](window: W, in_game: Sequence[int]) -> W:
    """``window`` after a play: the impulse returns to the first seat of its order still in the
    game (5.1: any play returns it). A step that is not a loop is left as it is."""
    lp = window.loop
    if not lp.order:
        return window
    first = next((s for s in lp.order if s in in_game), -1)
    return replace(window, loop=Loop(lp.order, first))


def holder(under: UnderWay) -> int:
    """The seat holding the innermost window's impulse, or -1 (no window, or nobody holds it)."""
    top = under.innermost
    return top.loop.holder if top is not None else -1


# --- the kinds of windows -------------------------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    """What one kind of window does when its loop moves (:func:`register`).

    ``close(w, window)``: every seat of the order passed in turn with no play since: the window
    (its record as it stands) moves on to its next step, resolves, or is popped.
    ``may_pass(w, window)``: raises IllegalMove where the step is not passed (a strike is chosen,
    the terms are recorded, polling is answered with ``done``), before the impulse is checked.
    ``passed(w, window)``: what a pass by the holder means in this window (a blocker's decline):
    the window to move on, or None when the pass ended the window itself (a diablerie declined).
    ``left(w, window)``: the holder of a step that is not a loop has left the game.
    ``upkeep(w)``: after any act, the window of this kind checks who is still there (an acting
    minion or a caller gone, a combatant no longer ready, everyone done polling).
    ``absent(w, window, seat)``: what the pass of ``seat``, gone, means here in a player's words
    (default "passes")."""

    close: Callable[[Work, OpenWindow], None]
    may_pass: Callable[[Work, OpenWindow], None] | None = None
    passed: Callable[[Work, OpenWindow], OpenWindow | None] | None = None
    left: Callable[[Work, OpenWindow], None] | None = None
    upkeep: Callable[[Work], None] | None = None
    absent: Callable[[Work, OpenWindow, int], str] | None = None


_KINDS: dict[type, Kind] = {}


def register(record: type, kind: Kind) -> None:
    """Declare what the windows of record type ``record`` do when their loop moves."""
    _KINDS[record] = kind


def _kind(window: OpenWindow) -> Kind:
    return _KINDS[type(window)]


def put(w: Work, window: OpenWindow) -> None:
    """Replace the open window of ``window``'s kind with ``window`` (the innermost of that kind),
    or open it on top of the stack when none of its kind is open."""
    for i in range(len(w.windows) - 1, -1, -1):
        if type(w.windows[i]) is type(window):
            w.windows[i] = window
            return
    w.windows.append(window)


def push(w: Work, window: OpenWindow) -> None:
    """Open ``window`` on top of the stack, over any open window, one of its kind too (a card
    announced while another waits for answers: a cancel of a cancel)."""
    w.windows.append(window)


def pop(w: Work, window: OpenWindow) -> None:
    """Close the open window of ``window``'s kind (the innermost of that kind)."""
    for i in range(len(w.windows) - 1, -1, -1):
        if type(w.windows[i]) is type(window):
            del w.windows[i]
            return


def innermost(w: Work) -> OpenWindow:
    """The innermost open window. Raises IllegalMove when none is open."""
    top = w.innermost
    if top is None:
        raise IllegalMove("there is no open action, combat or referendum to pass in")
    return top


def pass_impulse(w: Work) -> None:
    """A ``pass`` by the act's author in the innermost window (5.1, P1): the kind checks the step,
    the author must hold the impulse, the kind records what the pass means, the impulse moves to
    the next seat of the order, and the pass of the last seat closes the loop."""
    top = innermost(w)
    kind = _kind(top)
    if kind.may_pass is not None:
        kind.may_pass(w, top)
    w.must_hold_impulse(top.loop.holder, "pass")
    moved = kind.passed(w, top) if kind.passed is not None else top
    if moved is None:
        return
    after = next_after(moved.loop, w.author, w.in_game())
    if after is not None:
        put(w, replace(moved, loop=after))
        return
    put(w, moved)
    kind.close(w, moved)


def settle(w: Work) -> None:
    """After any act, or a seat gone by abandon votes: each open window, outer to inner, checks
    who is still there (its kind's ``upkeep``); then a holder of the innermost window's impulse who
    has left the game passes, as if it had (the next seat of the order holds it; past the last,
    the loop closes), and a step that is not a loop asks its kind (``left``). Repeats while the
    innermost window changes so, so no window is left waiting on a seat out of the game."""
    for window in list(w.windows):
        upkeep = _kind(window).upkeep
        if upkeep is not None:
            upkeep(w)
    for _ in range(64):  # each round closes a step or moves the impulse past a seat that left
        top = w.innermost
        if top is None:
            return
        seat = top.loop.holder
        if seat < 0 or w.p(seat).status == Status.IN:
            return
        kind = _kind(top)
        if not top.loop.order:
            if kind.left is None:
                return
            kind.left(w, top)
        else:
            how = kind.absent(w, top, seat) if kind.absent is not None else "passes"
            w.note(f"{seat_ref(seat)} has left the game and {how}", seat)
            after = next_after(top.loop, seat, w.in_game())
            if after is not None:
                put(w, replace(top, loop=after))
            else:
                kind.close(w, top)
        if w.innermost is top:
            return


__all__ = [
    "NOBODY",
    "Kind",
    "holder",
    "innermost",
    "loop",
    "next_after",
    "only",
    "pass_impulse",
    "pop",
    "push",
    "put",
    "register",
    "returned",
    "settle",
]
