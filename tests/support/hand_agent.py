"""TEST ONLY: one person at a VTES table in a process of its own, driven line by line from a test
(loopback only): ``python -m tests.support.hand_agent PORT NAME DECK [HOME]``. DECK is a bundled
deck's name or a deck file. HOME, when given, is the person's folder: their key and their copy of
the table live there, so that the same command run again (after the process stopped) takes the
same seat back where the log stands. The seat never passes by itself (the test passes for it, so
who holds an impulse is the test's doing). The agent joins the table on 127.0.0.1:PORT, declares its
deck (unless declared already), and answers each line of stdin (one JSON map) with one line of
stdout (one JSON map):

- ``{"act": {...}}``: submits the act as its move; ``{"ok": true}`` once folded, or
  ``{"refused": sentence}`` (its own table's or the host's). With ``"raw": true`` the agent skips
  its own table's check, as a client that checks nothing would, so the host's verdict is the
  answer; with ``"later_ms": N`` it signs the entry with its clock N ms ahead (a clock that has
  run on, within the host's tolerance);
- ``{"flood": {...}, "n": N}``: submits the act N times at once, unchecked (a raw-wire flood);
  ``{"ok": k, "refused": [each distinct sentence]}`` once every answer is in;
- ``{"look": true}``: what its replica holds: ``seat``, ``seating``, ``acts``, ``clock``,
  ``phase``, ``acting``, ``pools``, ``status``, ``hand`` (its hand's positions), ``hands`` (every
  seat's hand positions), ``library`` (every seat's library positions, top first), ``ready``,
  ``uncontrolled`` (every seat's), ``claims`` (``[act, author, seats, status, disputed, due]``),
  ``referendum`` (``[step, impulse]`` or None), ``action`` (``[window, impulse]`` or None),
  ``known`` (the positions whose identity this seat holds), ``public`` (positions with a public
  identity), ``hand_sizes``.

It prints ``{"seated": N}`` once the deal is done (at once when it comes back to a game under way),
and stops at end of input."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.errors import VampireError
from engine.games.vtes import bundled_deck
from engine.games.vtes.decks import Deck, load_deck
from engine.protocol.identity import load_key_file, new_key
from engine.seat import now_ms
from net.client import Client, Seating, Store
from tests.support.net import FAST, QUICK_BACKOFF
from tests.support.poll import eventually


def _look(client: Client) -> dict[str, Any]:
    assert client.table is not None and client.seat is not None
    s = client.table.gstate
    me = client.seat.index

    def zone(seat: int, name: str) -> list[list[int]]:
        return [list(c.pos) for c in s.cards if c.owner == seat and c.zone == name]

    r, a = s.open_referendum, s.open_action
    return {
        "seat": me,
        "seating": list(s.seating),
        "acts": s.acts,
        "clock": s.clock,
        "phase": str(s.phase),
        "acting": s.acting,
        "pools": [p.pool for p in s.players],
        "status": [str(p.status) for p in s.players],
        "hand_sizes": [p.hand_size for p in s.players],
        "hand": zone(me, "hand"),
        "hands": [zone(p.seat, "hand") for p in s.players],
        "library": [[list(pos) for pos in p.library] for p in s.players],
        "ready": [[list(c.pos) for c in s.cards if c.controller == p.seat and c.zone == "ready"] for p in s.players],
        "uncontrolled": [zone(p.seat, "uncontrolled") for p in s.players],
        "claims": [[c.act, c.author, list(c.seats), str(c.status), list(c.disputed), c.due] for c in s.claims],
        "referendum": None if r is None else [str(r.step), r.impulse],
        "action": None if a is None else [str(a.window), a.impulse, a.stealth],
        "combat": None if s.open_combat is None else [str(s.open_combat.step), s.open_combat.impulse],
        "known": [list(p) for p in client.seat.known],
        "public": [list(c.pos) for c in s.cards if c.card],
    }


@contextlib.contextmanager
def _raw(client: Client) -> Iterator[None]:
    """While it lasts, the seat is a client that checks nothing before it sends a move, and keeps
    no promise to send a refused move again (an honest seat keeps its sent move, to send the same
    act after a crash: PROTOCOL.md 3)."""
    seat = client.seat
    assert seat is not None
    check, put = seat.check_move, seat.secrets.put
    seat.check_move = lambda act: None  # type: ignore[method-assign]
    seat.secrets.put = lambda kind, key, value: value if kind == "intent" else put(kind, key, value)  # type: ignore[method-assign]
    try:
        yield
    finally:
        seat.check_move, seat.secrets.put = check, put  # type: ignore[method-assign]


async def _act(client: Client, ask: dict[str, Any]) -> dict[str, Any]:
    seat = client.seat
    assert seat is not None
    clock = seat.clock
    if later := ask.get("later_ms"):
        seat.clock = lambda: now_ms() + later
    try:
        with _raw(client) if ask.get("raw") else contextlib.nullcontext():
            await client.submit("move", ask["act"])
        return {"ok": True}
    except VampireError as err:
        return {"refused": str(err)}
    finally:
        seat.clock = clock


async def _flood(client: Client, act: dict[str, Any], n: int) -> dict[str, Any]:
    with _raw(client):
        answers = await asyncio.gather(*(client.submit("move", act) for _ in range(n)), return_exceptions=True)
    refused = sorted({str(a) for a in answers if isinstance(a, BaseException)})
    return {"ok": sum(1 for a in answers if not isinstance(a, BaseException)), "refused": refused}


def _deck(deck: str) -> Deck:
    return load_deck(deck) if Path(deck).is_file() else bundled_deck(deck)


async def main(port: int, name: str, deck: str, home: Path | None) -> None:
    brought = _deck(deck)
    client = Client(
        ("127.0.0.1", port),
        load_key_file(home / "key") if home is not None else new_key(),
        name=name,
        store=Store.in_dir(home / "table") if home is not None else Store.memory(),
        seating=Seating(brought=brought, auto=False),  # the test passes for it: no race for the impulse
        timeouts=FAST,
        backoff=QUICK_BACKOFF,
    )
    await client.start()
    loop = asyncio.get_running_loop()
    try:
        await eventually(lambda: client.seat is not None and client.seat.index is not None, 30, "a seat")
        await eventually(lambda: client.table is not None and client.table.gstate is not None, 60, "the start")
        if not client.table.gstate.players[client.seat.index].declared:
            await client.submit("move", brought.deck_act())
        await eventually(lambda: client.table is not None and client.table.gstate.step == "play", 120, "the deal")
        await eventually(lambda: not client.table.gstate.queue, 60, "the deal's openings")
        print(json.dumps({"seated": client.seat.index}), flush=True)
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            ask = json.loads(line)
            if "act" in ask:
                answer = await _act(client, ask)
            elif "flood" in ask:
                answer = await _flood(client, ask["flood"], ask["n"])
            else:
                answer = _look(client)
            print(json.dumps(answer), flush=True)
    finally:
        await client.stop("done")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], sys.argv[3], Path(sys.argv[4]) if len(sys.argv) > 4 else None))
