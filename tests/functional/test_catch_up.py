"""A peer coming back catches up whatever it missed, over loopback TCP (docs/protocol.md 7.1): the
rest of the log goes to it a frame at a time as it reads, never counted in its queue, so neither a
spectator (a stranger's small queue) nor a seat is dropped as a slow reader for catching up."""

from __future__ import annotations

from engine.protocol.identity import new_key
from net.client import Client, Store
from net.events import Connection
from tests.support.net import FAST, QUICK_BACKOFF, open_host
from tests.support.poll import eventually

MIB = 1024 * 1024


async def test_a_spectator_and_a_seat_coming_back_after_a_mib_of_entries_catch_up(tmp_path):
    host = open_host(seats=3)
    await host.start("127.0.0.1", 0)
    keys = {"seat": new_key(), "spectator": new_key()}

    def peer(who: str) -> Client:
        return Client(
            ("127.0.0.1", host.port),
            keys[who],
            name=who.title(),
            role="spectator" if who == "spectator" else "player",
            store=Store.in_dir(tmp_path / who),
            timeouts=FAST,
            backoff=QUICK_BACKOFF,
        )

    first = [peer("seat"), peer("spectator")]
    for client in first:
        await client.start()
    t = host.table
    await eventually(lambda: t.seat_of(keys["seat"].public_key().public_bytes_raw()) is not None, 10, "a seat")
    await eventually(lambda: all(c.table is not None and c.table.seq == t.seq for c in first), 10, "in step")
    for client in first:
        await client.stop()
    # More than a MiB of entries while they are away (the host's chat has no limit).
    size = 0
    while size < MIB + MIB // 4:
        entry = host.post("chat", {"text": "x" * 200})
        size += len(entry.payload) + 160
    back = [peer("seat"), peer("spectator")]
    drops: list[Connection] = []
    for client in back:
        client.listeners.subscribe(
            lambda e: drops.append(e) if isinstance(e, Connection) and e.state == "disconnected" else None
        )
        await client.start()
    await eventually(lambda: all(c.table is not None and c.table.seq == t.seq for c in back), 60, "caught up")
    assert not drops, drops
    assert all(c.table.head == t.head for c in back)
    for client in back:
        await client.stop()
    await host.close()
