"""A table reopened from its log (`vampire host --resume`) starts every wait afresh (PROTOCOL.md
6.5): the time the table was down is nobody's stall, so the seats that vote to end a wait by
themselves do not vote the moment they are back; they vote once the reopened table has waited
their time again. Over loopback TCP, with the peers' clock injected (no wall-clock bound)."""

from __future__ import annotations

import random

from engine.games import all_rules
from engine.protocol.identity import new_key
from engine.protocol.log import LogWriter
from engine.seat import now_ms
from engine.sequencer import Sequencer
from net.client import Client, Seating, Store
from net.driver import Liveness
from net.events import Waiting
from net.host import Host
from net.local import bot_factory
from tests.support.net import FAST, QUICK_BACKOFF, open_host
from tests.support.poll import eventually

DOWN_MS = 10 * 60 * 1000
"""How long the table was down between its two runs."""

VOTE_AFTER = 30.0
"""Seconds of a wait after which the voters vote (on the injected clock)."""


async def test_a_resumed_table_does_not_count_the_time_it_was_down_before_the_abandon_vote(tmp_path):
    save = tmp_path / "host.vtlog"
    host = open_host(seats=3, save=save)
    await host.start("127.0.0.1", 0)
    keys = [new_key(), new_key()]
    now = [float(now_ms())]

    def voter(i: int, port: int, abandon_after: float | None) -> Client:
        return Client(
            ("127.0.0.1", port),
            keys[i],
            name=f"Voter {i}",
            store=Store.in_dir(tmp_path / f"voter{i}"),
            seating=Seating(bot=bot_factory("heuristic", random.Random(i))),
            timeouts=FAST,
            backoff=QUICK_BACKOFF,
            liveness=Liveness(stall_after=0.0, abandon_after=abandon_after, clock=lambda: now[0]),
        )

    # Seat 0 does its duties but never moves: the table comes to wait on it for a move.
    gone = Client(("127.0.0.1", host.port), new_key(), name="Gone", timeouts=FAST, backoff=QUICK_BACKOFF)
    await gone.start()
    await eventually(lambda: gone.seat is not None and gone.seat.index == 0, 10, "seat 0")
    first = [voter(i, host.port, None) for i in range(2)]
    for client in first:
        await client.start()
    t = host.table
    await eventually(lambda: t.phase == "running" and t.work is None and 0 in t.waits.since, 60, "a wait on seat 0")
    since = t.waits.since[0]
    for client in [*first, gone]:
        await client.stop()
    await host.close()

    # The host comes back ten minutes later; the voters with it, on the same clock.
    now[0] += DOWN_MS
    writer = LogWriter.open_existing(save)
    sequencer = Sequencer(host.sequencer.key, all_rules(), writer, lambda: int(now[0]))
    sequencer.replay(list(writer.loaded.entries), list(writer.loaded.heads))
    reopened = Host(sequencer, timeouts=FAST)
    await reopened.start("127.0.0.1", 0)
    back = [voter(i, reopened.port, VOTE_AFTER) for i in range(2)]
    waits: list[Waiting] = []
    back[0].listeners.subscribe(lambda e: waits.append(e) if isinstance(e, Waiting) else None)
    for client in back:
        await client.start()
    t = reopened.table
    assert t.waits.since[0] == since  # the log still waits on seat 0 from before the host went down
    await eventually(lambda: all(c.connected and c.table.seq == t.seq for c in back), 10, "back and caught up")
    await eventually(lambda: waits, 10, "the wait reported")
    for client in back:
        client.driver.check_waiting()  # as its watch does, a few times a second
    assert waits[-1].seats == (0,) and waits[-1].seconds < VOTE_AFTER  # not the ten minutes it was down
    assert not t.abandon_votes.get(0) and t.abandoned == []

    # Once the reopened table has waited that long, they vote and seat 0 is out.
    now[0] += VOTE_AFTER * 1000
    await eventually(lambda: t.abandoned == [0], 10, "the vote")
    assert {t.seat_of(e.author) for e in t.entries if e.kind == "abandon"} == {1, 2}
    await eventually(lambda: t.ended, 60, "the game to end without seat 0")
    for client in back:
        await client.stop()
    await reopened.close()
