"""A whole game through the signed log and the deck protocol, in one process.

A host :class:`~engine.sequencer.Sequencer` orders the entries; every seat is a real
:class:`~engine.seat.Seat` with its own key, secrets and fold of the table; every shuffle, deal,
play and round end goes through signed entries. Used by ``vampire simulate --protocol``, the tests
and the benchmarks. Over the network, :mod:`net` runs the same seats and sequencer.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.games import all_rules
from engine.games.base import Note
from engine.opening import bot_names, open_sequencer, order_table
from engine.protocol.identity import new_key
from engine.protocol.log import Entry
from engine.protocol.secrets import SecretsFile
from engine.seat import Seat, now_ms
from engine.sequencer import Sequencer
from engine.table import Table, TableRefusal

Tamper = Callable[[int, str, dict[str, Any]], dict[str, Any]]
"""A cheat hook for tests: ``tamper(seat, kind, body) -> body`` changes a seat's entry body."""


@dataclass
class LocalGame:
    """A table with a host and seats in one process. ``seats[i]`` is seat i's private side;
    ``bots[i]`` its bot (None for a seat driven from outside)."""

    host: Sequencer
    seats: list[Seat]
    bots: list[Any]
    notes: list[Note] = field(default_factory=list)
    tamper: Tamper | None = None
    rejections: list[tuple[int, TableRefusal]] = field(default_factory=list)

    @property
    def table(self) -> Table:
        return self.host.table

    def seat_everyone(self) -> None:
        """Every seat folds the genesis entry and joins, in seat order; then the host starts the
        game (PROTOCOL.md 4: `table`, every `join`, `start`)."""
        for seat in self.seats:
            seat.fold(self.host.table.entries[0])
        for seat in self.seats:
            self.submit(seat, "join", seat.join_body())
        self.host_entry("start", {})

    def broadcast(self, entry: Entry) -> None:
        for seat in self.seats:
            seat.fold(entry)

    def submit(self, seat: Seat, kind: str, body: dict[str, Any]) -> Entry:
        """Sign ``body`` as ``seat`` on the head, submit it and let every seat fold it.
        Raises TableRefusal when the host refuses it."""
        if self.tamper is not None:
            body = self.tamper(seat.index if seat.index is not None else -1, kind, body)
        entry = seat.sign(kind, body)
        start = len(self.host.table.notes)
        self.host.submit(entry)
        self.notes.extend(self.host.table.notes[start:])
        self.broadcast(entry)
        return entry

    def host_entry(self, kind: str, body: dict[str, Any]) -> Entry:
        start = len(self.host.table.notes)
        entry, _ = self.host.submit(self.host.sign(kind, body))
        self.notes.extend(self.host.table.notes[start:])
        self.broadcast(entry)
        return entry

    def step(self) -> bool:
        """Make the next entry the table waits for (a duty or a bot's move). False when nothing
        more can happen without an outside player."""
        t = self.host.table
        if t.phase == "over" and not t.ended:
            result = t.final_result()
            self.host_entry("end", {"scores": list(result.scores), "winners": list(result.winners)})
            return True
        if t.phase != "running":
            return False
        for seat in self.seats:
            duty = seat.duty()
            if duty is not None:
                self.submit(seat, *duty)
                return True
        for s, kind in t.owed():
            if kind == "move" and self.bots[s] is not None:
                seat = self.seats[s]
                legal = seat.legal_acts()
                act = self.bots[s].choose(seat.view(), legal)
                if act is not None:
                    self.submit(seat, "move", seat.move_body(act))
                    return True
        return False

    def run(self, max_entries: int = 1_000_000) -> None:
        """Step until the game is over and ended, stopped, or waiting for an outside player."""
        for _ in range(max_entries):
            if not self.step():
                return
        raise RuntimeError("the game did not end")


def new_local_game(
    game: str,
    levels: Sequence[str | None],
    options: dict[str, Any] | None = None,
    save: Path | None = None,
    secrets_dir: Path | None = None,
    seed: int | None = None,
    names: Sequence[str] | None = None,
    tamper: Tamper | None = None,
    facts: Sequence[Mapping[str, str]] = (),
) -> LocalGame:
    """Open a table, seat one player per entry of ``levels`` (a bot level, or None for a seat driven
    from outside) and start the game. With ``seed``, bots and every secret come from a seeded
    generator (reproducible, for tests and benchmarks); otherwise from the OS random source.
    ``save``: the log file; ``secrets_dir``: where each seat's secrets file goes; ``facts``: what
    each player states at the table (the game's seat facts by key), in seat order, which their
    `join` entries record (missing: none).
    """
    order = order_table(
        game,
        people=sum(lv is None for lv in levels),
        bots=[lv for lv in levels if lv],
        seats=len(levels),
        rules=options,
        title="local table",
    )
    if seed is not None:
        rng = random.Random(seed)
        random_bytes: Callable[[int], bytes] = rng.randbytes
    else:
        rng = random.Random()
        random_bytes = os.urandom
    host = open_sequencer(order, new_key(), save, now_ms)
    games = all_rules()
    names = list(names or bot_names(len(levels)))
    decks: list[dict[str, list[str]] | None] = [None] * len(levels)
    kit = order.game.kit() if order.game.kit is not None else None
    bots: list[Any] = []
    taken: list[Any] = []
    for i, lv in enumerate(levels):
        bot_rng = random.Random(rng.random())
        # A seat that brings something (a deck) gets one the game ships for bots, unlike the others'.
        brought = kit.for_bot(bot_rng, taken) if kit is not None else None
        if kit is not None:
            decks[i] = kit.deck_lists(brought)
            taken.append(brought)
        bots.append(order.game.bot(lv, bot_rng, brought) if lv else None)
    seats = []
    for i in range(len(levels)):
        path = secrets_dir / f"seat{i}.secrets" if secrets_dir else None
        stated = facts[i] if i < len(facts) else None
        seats.append(Seat(new_key(), names[i], games, SecretsFile(path), random_bytes, decks=decks[i], facts=stated))
        seats[-1].bot = levels[i] is not None  # its join says a program plays it
    local = LocalGame(host, seats, bots, tamper=tamper)
    local.seat_everyone()
    return local
