"""A peer coming back catches up whatever it missed, over loopback TCP (docs/protocol.md 7.1): the
rest of the log goes to it a frame at a time as it reads, never counted in its queue, so neither a
spectator (a stranger's small queue) nor a seat is dropped as a slow reader for catching up; and
the proofs of shuffle a catch-up carries are verified in worker threads, never on the peer's loop
(docs/protocol.md 6.9), so its pings go on while it checks a deal."""

from __future__ import annotations

import threading

import pytest

from engine.protocol import group
from engine.protocol.identity import new_key
from engine.table.events import UnverifiedProof
from net.client import Client, Store
from net.events import Connection
from tests.support.net import FAST, QUICK_BACKOFF, open_host
from tests.support.poll import eventually
from tests.support.vtes_net import two_people

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
    assert not drops, (drops, list(host.disconnects))
    assert all(c.table.head == t.head for c in back)
    for client in back:
        await client.stop()
    await host.close()


async def test_a_peer_catching_up_a_deal_verifies_every_proof_of_shuffle_off_its_loop(
    tmp_path, monkeypatch: pytest.MonkeyPatch
):
    async with two_people(tmp_path) as table:
        # As on a computer of its own: no proof of the deal is known to this process already.
        monkeypatch.setattr(group, "VERIFY_MEMO", group.VerifyMemo())
        monkeypatch.setattr(group, "OWN_PROOFS", group.OwnProofs())
        on_loop: list[bool] = []
        verify = UnverifiedProof.verify

        def watched(proof: UnverifiedProof) -> bool:
            if not proof.done:
                on_loop.append(threading.current_thread() is threading.main_thread())
            return verify(proof)

        monkeypatch.setattr(UnverifiedProof, "verify", watched)
        t = table.host.table
        watcher = Client(("127.0.0.1", table.host.port), new_key(), name="Watcher", role="spectator", timeouts=FAST)
        await watcher.start()
        await eventually(lambda: watcher.table is not None and watcher.table.seq == t.seq, 60, "caught up")
        await eventually(lambda: watcher.table.unverified is None, 30, "the last proof settled")
        shuffles = sum(1 for e in t.entries if e.kind == "shuffle")
        assert len(on_loop) >= shuffles > 1  # every proof of the deal (two threads may ask for one)
        assert not any(on_loop), f"{on_loop.count(True)} of {shuffles} proofs were verified on the loop"
        assert watcher.table.head == t.head
        await watcher.stop()
