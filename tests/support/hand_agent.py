"""TEST ONLY: one person at a VTES table in a process of its own, driven line by line from a test
(loopback only): ``python -m tests.support.hand_agent PORT NAME DECK``. It joins the table on
127.0.0.1:PORT with a bundled deck, declares it, and answers each line of stdin (one JSON map) with
one line of stdout (one JSON map):

- ``{"act": {...}}``: submits the act as its move; ``{"ok": true}`` once folded, or
  ``{"refused": sentence}`` (its own table's or the host's);
- ``{"look": true}``: what its replica holds: ``seat``, ``seating``, ``acts``, ``clock``,
  ``pools``, ``status``, ``hand`` (its hand's positions), ``hands`` (every seat's hand
  positions), ``ready``, ``uncontrolled`` (every seat's), ``claims`` (``[act, author, seats, status, disputed, due]``), ``known`` (the
  positions whose identity this seat holds), ``public`` (positions with a public identity).

It prints ``{"seated": N}`` once the deal is done, and stops at end of input."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from engine.errors import VampireError
from engine.games.vtes import bundled_deck
from engine.protocol.identity import new_key
from net.client import Client, Seating, Store
from tests.support.net import FAST, QUICK_BACKOFF
from tests.support.poll import eventually


def _look(client: Client) -> dict[str, Any]:
    assert client.table is not None and client.seat is not None
    s = client.table.gstate
    me = client.seat.index
    return {
        "seat": me,
        "seating": list(s.seating),
        "acts": s.acts,
        "clock": s.clock,
        "pools": [p.pool for p in s.players],
        "status": [str(p.status) for p in s.players],
        "hand": [list(c.pos) for c in s.cards if c.owner == me and c.zone == "hand"],
        "hands": [[list(c.pos) for c in s.cards if c.owner == p.seat and c.zone == "hand"] for p in s.players],
        "ready": [[list(c.pos) for c in s.cards if c.controller == p.seat and c.zone == "ready"] for p in s.players],
        "uncontrolled": [
            [list(c.pos) for c in s.cards if c.owner == p.seat and c.zone == "uncontrolled"] for p in s.players
        ],
        "claims": [[c.act, c.author, list(c.seats), str(c.status), list(c.disputed), c.due] for c in s.claims],
        "known": [list(p) for p in client.seat.known],
        "public": [list(c.pos) for c in s.cards if c.card],
    }


async def main(port: int, name: str, deck: str) -> None:
    brought = bundled_deck(deck)
    client = Client(
        ("127.0.0.1", port),
        new_key(),
        name=name,
        store=Store.memory(),
        seating=Seating(brought=brought, auto=True),
        timeouts=FAST,
        backoff=QUICK_BACKOFF,
    )
    await client.start()
    loop = asyncio.get_running_loop()
    try:
        await eventually(lambda: client.seat is not None and client.seat.index is not None, 30, "a seat")
        await eventually(lambda: client.table is not None and client.table.gstate is not None, 60, "the start")
        await client.submit("move", brought.deck_act())
        await eventually(lambda: client.table is not None and client.table.gstate.step == "play", 120, "the deal")
        await eventually(lambda: not client.table.gstate.queue, 60, "the deal's openings")
        print(json.dumps({"seated": client.seat.index}), flush=True)
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            ask = json.loads(line)
            if "act" in ask:
                try:
                    await client.submit("move", ask["act"])
                    answer: dict[str, Any] = {"ok": True}
                except VampireError as err:
                    answer = {"refused": str(err)}
            else:
                answer = _look(client)
            print(json.dumps(answer), flush=True)
    finally:
        await client.stop("done")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], sys.argv[3]))
