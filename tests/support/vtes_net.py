"""TEST ONLY: two people at a VTES table over loopback TCP, dealt and ready to play: a real host
and two clients in this process, each bringing a bundled deck (shared/rules/vtes.md)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.games import all_rules
from engine.games.base import parse_options
from engine.games.vtes import bundled_decks
from engine.protocol.identity import new_key
from engine.protocol.log import LogWriter
from engine.seat import now_ms
from engine.sequencer import Sequencer
from net.client import Client, Seating, Store
from net.host import Host
from tests.support.net import FAST, QUICK_BACKOFF
from tests.support.poll import eventually


def state(client: Client) -> Any:
    """The client's replica of the game state."""
    assert client.table is not None
    return client.table.gstate


async def move(client: Client, act: dict[str, Any]) -> None:
    """Submit ``act`` as the client's move."""
    await client.submit("move", act)


@dataclass(frozen=True)
class TwoPeople:
    """The table of :func:`two_people`: the ``host``, both clients (``people``, Ann then Ben),
    the clients by seat (``by_seat``), the seat that plays ``first`` and its prey ``second``."""

    host: Host
    people: list[Client]
    by_seat: dict[int, Client]
    first: int
    second: int


@contextlib.asynccontextmanager
async def two_people(tmp_path: Path, auto: bool = True) -> AsyncIterator[TwoPeople]:
    """Yield :class:`TwoPeople` once Ann and Ben sit, declare their decks and the deal is done. ``auto``: the seats pass by themselves
    with nothing to play (False: they ask every time). Stops both and the host afterwards."""
    games = all_rules()
    sequencer = Sequencer(new_key(), games, LogWriter(tmp_path / "table.vtlog"), now_ms)
    sequencer.open_table("vtes", dict(parse_options(games["vtes"].option_schema, {})), 2, "two people")
    host = Host(sequencer, timeouts=FAST)
    await host.start("127.0.0.1", 0)
    decks = bundled_decks()
    people = [
        Client(
            ("127.0.0.1", host.port),
            new_key(),
            name=name,
            store=Store.memory(),
            seating=Seating(brought=decks[i], auto=auto),
            timeouts=FAST,
            backoff=QUICK_BACKOFF,
        )
        for i, name in enumerate(("Ann", "Ben"))
    ]
    try:
        for person in people:
            await person.start()
            await eventually(lambda p=person: p.seat is not None and p.seat.index is not None, 10, "a seat")
        await eventually(lambda: all(p.table is not None and p.table.gstate is not None for p in people), 20, "start")
        for i, person in enumerate(people):
            await move(person, decks[i].deck_act())
        await eventually(lambda: all(state(p).step == "play" for p in people), 60, "the deal")
        by_seat = {p.seat.index: p for p in people if p.seat is not None}
        first, second = state(people[0]).seating
        yield TwoPeople(host, people, by_seat, first, second)
    finally:
        for person in people:
            await person.stop()
        await host.close()
