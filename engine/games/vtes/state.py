"""The VTES table state: frozen records of ints, strs, bools, tuples (shared/rules/vtes.md).

Every card is a **position** ``(event, index)`` of the shuffle event that dealt it, from the moment
its deck is shuffled to the end of the game; zones hold positions, and a card's identity is in the
state only once it is public (``CardState.card``). Pool, VP and counters are ints; VP are in
half-points (``vp=3`` is 1.5 VP).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.games.base import Op, Pos

PHASES = ("unlock", "master", "minion", "influence", "discard")
"""The five phases of a turn, in order (rules, "Turn sequence")."""

START_POOL = 30
HAND_SIZE = 7
CRYPT_MIN = 12
LIBRARY_MIN = 60
LIBRARY_MAX = 90
OPENING_HAND = 7
OPENING_UNCONTROLLED = 4

IN_PLAY = ("ready", "torpor", "on")
"""Zones of cards in play: controlled, public, may be locked and carry counters."""
HIDDEN = ("library", "crypt", "hand", "uncontrolled")
"""Zones whose cards are face down (the uncontrolled region: its owner may look)."""
PUBLIC = ("ready", "torpor", "on", "ash", "removed")
ZONES = HIDDEN + PUBLIC

STATUS_IN = "in"
STATUS_OUSTED = "ousted"
STATUS_WITHDRAWN = "withdrawn"
STATUS_ABANDONED = "abandoned"


@dataclass(frozen=True)
class CardState:
    """One physical card at the table.

    ``pos``: its position; ``owner``: the seat whose deck it comes from; ``crypt``: True for a card
    of a crypt (a vampire: its counters are blood); ``zone``: one of :data:`ZONES`; ``controller``:
    the seat controlling it (the owner outside play); ``card``: its identity once public, else "";
    ``known_owner``: opened to its owner; ``locked``; ``counters``: blood or life counters (>= 0);
    ``on``: the position of the card it is placed on (zone ``"on"``), else ``()``.
    """

    pos: Pos
    owner: int
    crypt: bool
    zone: str
    controller: int
    card: str = ""
    known_owner: bool = False
    locked: bool = False
    counters: int = 0
    on: Pos | tuple[()] = ()


@dataclass(frozen=True)
class EventRec:
    """A shuffle event: its number, the seat owning the deck, ``deck`` "crypt" or "library",
    and whether its seeds were revealed (``ended``)."""

    event: int
    owner: int
    deck: str
    ended: bool = False
    participants: tuple[int, ...] = ()


@dataclass(frozen=True)
class Methuselah:
    """One seat's player.

    ``crypt_size``/``library_size``: the public deck sizes it declared; ``pool``; ``vp`` in
    half-points; ``status``: "in", "ousted", "withdrawn" or "abandoned"; ``library``/``crypt``:
    the positions of those zones, top first (order hidden from everyone, owner included);
    ``hand_size``: the hand size counter; ``turns``: turns begun; ``hand_at_start``: cards in hand
    when its current or last turn began; ``withdrawing``: announced withdrawal pending;
    ``withdraw_fail``: why it can no longer succeed (a sentence with seat placeholders), or "".
    """

    seat: int
    declared: bool = False
    crypt_size: int = 0
    library_size: int = 0
    pool: int = START_POOL
    vp: int = 0
    status: str = STATUS_IN
    library: tuple[Pos, ...] = ()
    crypt: tuple[Pos, ...] = ()
    hand_size: int = HAND_SIZE
    turns: int = 0
    hand_at_start: int = 0
    withdrawing: bool = False
    withdraw_fail: str = ""


@dataclass(frozen=True)
class OutRecord:
    """A Methuselah who left the game: ``how`` is "ousted", "withdrawn" or "abandoned"; ``act``
    the act number that made it leave; ``predator`` its predator then (-1: none);
    ``credited``: that predator gained 1 VP for it."""

    seat: int
    how: str
    act: int
    predator: int
    credited: bool


@dataclass(frozen=True)
class VtesState:
    """The whole table.

    ``step``: "joining" (deck sizes), "seating" (the joint draw), "dealing" (shuffles and the
    opening deal), "play", "over". ``options``: sorted (name, value) pairs. ``seating``: seats
    clockwise, the first player first (turn order). ``queue``: table operations the game waits for.
    ``turn``: turns begun; ``acting``: the acting Methuselah (-1 before play); ``phase``: one of
    :data:`PHASES`. ``edge``: seat holding the Edge, -1 for nobody. ``transfers``: transfers left
    in this influence phase. ``acts``: acts applied so far (their numbers start at 1).
    ``time_calls``: seats that called time; ``time_called``: the game ends at the end of the current
    minion action or phase. ``outs``: who left, in order. ``end``: why the game ended ("ousts",
    "time", "abandon", "unstarted"), "" while it runs. ``last``: the seat that gained the
    last-Methuselah VP, or -1. ``abandons``: seats recorded as having abandoned.
    """

    seats: int
    options: tuple[tuple[str, Any], ...]
    players: tuple[Methuselah, ...]
    step: str = "joining"
    seating: tuple[int, ...] = ()
    cards: tuple[CardState, ...] = ()
    events: tuple[EventRec, ...] = ()
    queue: tuple[Op, ...] = ()
    turn: int = 0
    acting: int = -1
    phase: str = ""
    edge: int = -1
    edge_used: bool = False
    transfers: int = 0
    master_actions: int = 0
    discard_actions: int = 0
    acts: int = 0
    time_calls: tuple[int, ...] = ()
    time_called: bool = False
    outs: tuple[OutRecord, ...] = ()
    end: str = ""
    last: int = -1
    abandons: tuple[int, ...] = ()

    def option(self, name: str) -> Any:
        """The value of table option ``name``."""
        for key, value in self.options:
            if key == name:
                return value
        raise KeyError(name)

    @property
    def tournament(self) -> bool:
        """True when the table plays the tournament rules."""
        return self.option("ruleset") == "tournament"

    def in_game(self) -> tuple[int, ...]:
        """Seats still in the game, in seating order (turn order from the first player)."""
        return tuple(s for s in self.seating if self.players[s].status == STATUS_IN)

    def prey(self, seat: int) -> int:
        """The next Methuselah to ``seat``'s left still in the game (-1 if none)."""
        return _neighbour(self, seat, 1)

    def predator(self, seat: int) -> int:
        """The next Methuselah to ``seat``'s right still in the game (-1 if none)."""
        return _neighbour(self, seat, -1)


def _neighbour(state: VtesState, seat: int, step: int) -> int:
    order = state.seating
    if seat not in order:
        return -1
    i = order.index(seat)
    n = len(order)
    for k in range(1, n):
        other = order[(i + step * k) % n]
        if other != seat and state.players[other].status == STATUS_IN:
            return other
    return -1


def format_vp(halves: int) -> str:
    """VP in half-points as players write them: 0, 0.5, 1, 1.5, …"""
    whole, half = divmod(halves, 2)
    return f"{whole}.5" if half else f"{whole}"
