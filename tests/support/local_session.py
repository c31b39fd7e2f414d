"""TEST ONLY: a :class:`tui.session.TableSession` over :class:`engine.local.LocalGame`.

The real session is ``net.session.Session`` (a client over TCP); the end-to-end Pilot tests use
it. This adapter drives an in-process game (a host sequencer, seats and bots in one process, no
sockets) so that snapshot tests can freeze the table at an exact, reproducible moment: every key,
every secret and every clock reading comes from a seed.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.errors import VampireError
from engine.games import all_rules, find_game
from engine.games.base import Act, parse_options
from engine.local import LocalGame
from engine.protocol.identity import short_fingerprint
from engine.protocol.log import LogWriter
from engine.protocol.secrets import SecretsFile
from engine.seat import Seat
from engine.sequencer import Sequencer
from engine.table import TableRefusal
from tests.support.positions import once_per_run
from tui.session import SessionEvent

NAMES = ("Mina", "Lisa", "Scott", "Justine", "Richard", "Steve")
CLOCK_MS = 1_700_000_000_000


def seeded_key(rng: random.Random) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(rng.randbytes(32))


class SeededBytes:
    """A seat's seeded random bytes: an object, not a closure, so that a copied table copies its
    stream and every copy draws the same bytes."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, n: int) -> bytes:
        return self.rng.randbytes(n)


def fixed_clock() -> int:
    return CLOCK_MS


def build_local(
    seed: int,
    levels: Sequence[str | None],
    options: dict[str, Any] | None = None,
    names: Sequence[str] | None = None,
    save: Path | None = None,
    start: bool = True,
    seated: int | None = None,
) -> LocalGame:
    """A reproducible in-process table: fixed keys, secrets, bots and clock from ``seed``.
    ``levels[i]`` None marks the person's seat. ``seated``: how many seats join (default all);
    ``start``: the host starts the game once every seat joined."""
    games = all_rules()
    rng = random.Random(seed)
    typed = dict(parse_options(find_game("queen").option_schema, options or {}))
    host = Sequencer(seeded_key(rng), games, LogWriter(save) if save else None, fixed_clock)
    host.open_table("queen", typed, len(levels), "test table")
    names = list(names or NAMES[: len(levels)])
    seats = []
    for i in range(len(levels)):
        key = seeded_key(rng)
        srng = random.Random(rng.random())
        seats.append(Seat(key, names[i], games, SecretsFile(None), SeededBytes(srng), fixed_clock))
    bots = [find_game("queen").bot(lv, random.Random(rng.random())) if lv else None for lv in levels]
    local = LocalGame(host, seats, bots)
    for seat in seats:
        seat.fold(host.table.entries[0])
    for seat in seats[: len(levels) if seated is None else seated]:
        local.submit(seat, "join", {"name": seat.name, "deck": None})
    if start and (seated is None or seated == len(levels)):
        local.host_entry("start", {})
    return local


def advance(
    local: LocalGame, person: int, until: Callable[[LocalGame], bool], seed: int = 7, limit: int = 5000
) -> None:
    """Play the person's seat with a heuristic bot until ``until(local)`` holds at a moment when
    the table waits for the person's move (or the game ended). Raises RuntimeError if it never does."""
    policy = find_game("queen").bot("heuristic", random.Random(seed))
    seat = local.seats[person]
    for _ in range(limit):
        table = local.table
        waiting_on_me = (person, "move") in table.owed()
        if (waiting_on_me or table.phase != "running") and until(local):
            return
        if local.step():
            continue
        if not waiting_on_me:
            raise RuntimeError("the table waits for nobody")
        act = policy.choose(seat.view(), seat.legal_acts())
        local.submit(seat, "move", seat.move_body(act))
    raise RuntimeError("the condition never held")


def played_local(
    seed: int,
    levels: Sequence[str | None],
    options: dict[str, Any] | None,
    until: Callable[[LocalGame], bool],
    names: Sequence[str] | None = None,
) -> LocalGame:
    """``build_local(seed, levels, options, names)`` played by :func:`advance` (the person in seat
    0) until ``until`` holds, as a fresh copy: built once per test run and copied
    (:func:`tests.support.positions.once_per_run`), so the tests that freeze the table at one
    moment share its build. The same table, seat for seat, as building and advancing it here
    (a copy draws the same random bytes). ``until`` is named by its module and qualified name: a
    lambda or a nested function has no lasting name, and its table is built anew every call."""

    def build() -> LocalGame:
        local = build_local(seed, levels, options, names=names)
        advance(local, 0, until)
        return local

    named = f"{until.__module__}.{until.__qualname__}"
    if "<" in named:  # <lambda>, <locals>
        return build()
    key = repr((seed, tuple(levels), sorted((options or {}).items()), tuple(names or ()), named))
    return once_per_run(f"queen-{hashlib.sha256(key.encode()).hexdigest()[:20]}", build)


class LocalGameSession:
    """TEST ONLY. A session over a LocalGame: ``seat`` is the person's seat; the bots and every
    protocol duty run as an asyncio task between awaits (``auto``), or not at all (``auto=False``,
    a frozen table for snapshots)."""

    def __init__(
        self,
        local: LocalGame,
        seat: int,
        log_path: Path | None = None,
        auto: bool = True,
        address: str | None = None,
        is_host: bool = True,
    ) -> None:
        self.local = local
        self.seat = seat
        self.name = local.seats[seat].name
        self.fingerprint = short_fingerprint(local.seats[seat].public)
        self.log_path = log_path
        self.address = address
        self.is_host = is_host
        seated = len(local.table.seats)
        # A bot names its level if it knows it (the Bot protocol asks only for choose()).
        self.bots = {i: getattr(b, "level", "bot") for i, b in enumerate(local.bots) if b is not None and i < seated}
        self.auto = auto
        self._subscribers: list[Callable[[SessionEvent], None]] = []
        self._task: asyncio.Task | None = None
        self._wake = asyncio.Event()
        self.submitted: list[Act] = []
        self.clock: Callable[[], float] | None = None
        self.catching_up = False  # a test sets it: the session has not caught up with the host yet
        """The clock the table's waits are read on (ms); None: the last entry's time, so no wait
        has run until a test moves the clock."""

    @property
    def table(self):
        return self.local.seats[self.seat].table

    def _emit(self, event: SessionEvent) -> None:
        for cb in list(self._subscribers):
            cb(event)

    async def start(self) -> None:
        if self.auto and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._drive())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _drive(self) -> None:
        while True:
            progressed = False
            while self.local.step():
                progressed = True
                self._emit(SessionEvent("entry", seq=self.table.seq - 1))
                await asyncio.sleep(0)
            if not progressed:
                self._wake.clear()
                await self._wake.wait()

    def subscribe(self, callback: Callable[[SessionEvent], None]) -> Callable[[], None]:
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback) if callback in self._subscribers else None

    def view(self) -> Any:
        return self.local.seats[self.seat].view()

    def check_move(self, act: Act) -> None:
        self.local.seats[self.seat].check_move(act)

    async def submit_move(self, act: Act) -> None:
        seat = self.local.seats[self.seat]
        seat.check_move(act)
        self.submitted.append(act)
        try:
            self.local.submit(seat, "move", seat.move_body(act))
        except TableRefusal as err:
            raise VampireError(f"the host refused the move: {err.detail}") from None
        self._emit(SessionEvent("entry", seq=self.table.seq - 1))
        self._wake.set()

    def move_of(self, seat: int, act: Act) -> None:
        """Another seat's ``act``, made now (as its bot or person would), folded and shown.
        Raises TableRefusal."""
        other = self.local.seats[seat]
        self.local.submit(other, "move", other.move_body(act))
        self._emit(SessionEvent("entry", seq=self.table.seq - 1))
        self._wake.set()

    async def chat(self, text: str) -> None:
        try:
            self.local.submit(self.local.seats[self.seat], "chat", {"text": text})
        except TableRefusal as err:
            raise VampireError(err.detail) from None
        self._emit(SessionEvent("entry", seq=self.table.seq - 1))

    def now_ms(self) -> float:
        if self.clock is not None:
            return self.clock()
        last = self.table.entries.last
        return float(last.time) if last is not None else 0.0

    def opened_ms(self) -> float | None:
        return None

    def caught_up(self) -> bool:
        return not self.catching_up

    async def vote_abandon(self, seat: int) -> None:
        try:
            self.local.submit(self.local.seats[self.seat], "abandon", {"seat": seat})
        except TableRefusal as err:
            raise VampireError(err.detail) from None
        self._emit(SessionEvent("entry"))
        self._wake.set()

    async def add_bot(self, level: str) -> None:
        """Seat the next of the table's prepared seats (its bot level was fixed at build time)."""
        table = self.local.table
        i = len(table.seats)
        if table.phase != "lobby" or i >= len(self.local.seats):
            raise VampireError("every seat is taken")
        seat = self.local.seats[i]
        self.local.submit(seat, "join", {"name": seat.name, "deck": None})
        if self.local.bots[i] is not None:
            self.bots[i] = self.local.bots[i].level
        self._emit(SessionEvent("entry"))

    async def remove_bot(self, seat: int) -> None:
        raise VampireError("this test table cannot remove bots")

    async def start_game(self) -> None:
        self.local.host_entry("start", {})
        self._emit(SessionEvent("entry"))
        self._wake.set()


def queen_only_a_pass(local: Any) -> bool:
    """Vampire Queen: seat 0's turn in a normal trick, with no play the rules allow but a pass
    (a condition for :func:`advance`)."""
    state = local.table.gstate
    trick = state.trick
    if state.phase != "play" or trick is None or trick.hunter or state.turn != 0:
        return False
    return all(act["do"] == "pass" for act in local.table.game.legal_acts(local.seats[0].view()))


class SpectatorSession(LocalGameSession):
    """TEST ONLY. A spectator's session: no seat, seat 0's copy of the table, no hand."""

    def __init__(self, local: LocalGame) -> None:
        super().__init__(local, 0, auto=False)
        self.seat = None  # type: ignore[assignment]

    @property
    def table(self) -> Any:
        return self.local.seats[0].table

    def view(self) -> Any:
        return None
