"""A vote to end a wait opens only once the table has waited on its seat for the table's time
(PROTOCOL.md 6.5, table rule ``stall_seconds``): a client that checks nothing may sign a vote at
any moment, or date it ahead of the clocks, and the host refuses it on its own clock with a
sentence; once the wait has lasted the time, the same vote is taken. Over loopback TCP, with the
host's clock injected (no wall-clock bound)."""

from __future__ import annotations

from engine.protocol.identity import new_key
from engine.protocol.log import sign_entry
from engine.rate import MAX_AHEAD_MS
from engine.seat import now_ms
from net.client import Client
from net.messages import Submit
from net.session import Session
from tests.support.net import FAST, RawPeer, open_host, start_bots, stop_all
from tests.support.poll import eventually


async def test_a_raw_client_cannot_vote_a_seat_out_before_the_table_has_waited_its_time():
    now = [float(now_ms())]
    host = open_host(seats=3, clock=lambda: int(now[0]))
    await host.start("127.0.0.1", 0)
    # Seat 0 does its duties but never moves: the table comes to wait on it for a move.
    gone = Session(Client(("127.0.0.1", host.port), new_key(), name="Gone", timeouts=FAST))
    await gone.start()
    await eventually(lambda: gone.seat == 0, 10, "seat 0")
    bots = await start_bots(host, 2)  # they never vote
    t = host.table
    await eventually(lambda: t.phase == "running" and t.work is None and 0 in t.waits.since, 60, "a wait on seat 0")
    wait = t.waits.since[0]
    assert t.stall_seconds == 30

    # Seat 1's key, spoken by a client that checks nothing.
    voter = bots[0]
    await voter.stop()
    peer = await RawPeer.open(host.port)
    await peer.hello(voter.key, table=t.table_id)

    def vote(n: int, time_ms: float) -> None:
        entry = sign_entry(
            voter.key, table=t.table_id, seq=t.seq, prev=t.head, kind="abandon", body={"seat": 0}, time_ms=int(time_ms)
        )
        peer.send(Submit(n, entry.wire_array()).to_map())

    now[0] = wait.time_ms + 10_000
    vote(1, now[0])  # ten seconds into the wait
    refused = await peer.recv_type("rejected")
    assert refused["n"] == 1
    assert refused["detail"] == (
        "The table has waited on seat 0 for 10 s; a vote to end the wait opens at 30 s (table rule stall_seconds)."
    )
    # Dated ahead, so that its own time says the wait is long over: the host's clock decides.
    vote(2, now[0] + MAX_AHEAD_MS - 1000)
    refused = await peer.recv_type("rejected")
    assert refused["n"] == 2 and "waited on seat 0 for 10 s" in refused["detail"]
    assert not t.abandon_votes and not [e for e in t.entries if e.kind == "abandon"]

    # Thirty seconds into the wait on the host's clock, the same vote is taken.
    now[0] = wait.time_ms + 30_000
    vote(3, now[0])
    assert (await peer.recv_type("accepted"))["n"] == 3
    assert t.abandon_votes == {0: {1}} and t.waits.since[0] == wait
    await eventually(lambda: gone.table.seq == t.seq, 10, "seat 0's peer folds the vote")
    assert gone.table.abandon_votes == {0: {1}}
    peer.close()
    await stop_all(host, [bots[1], gone.client])
