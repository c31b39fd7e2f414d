"""Many strangers at once (docs/protocol.md 7.1, "The budget of strangers", "Slots kept for the
seated"): each connection's budget held before, but their sum did not. Over loopback: a hundred
guests pinging at their own byte budget and 64 that never read, while four bots finish a game
that audits clean, the host's work counted (bytes decoded, signature checks, pongs, bytes queued);
a seated player reconnecting through a house full of strangers. Work is counted, never timed."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time

from engine.protocol.identity import new_key, public_bytes
from engine.protocol.log import Head
from net.admission import Budgets, Caps, Strangers
from net.framing import frame_bytes
from net.messages import Ping
from net.seen import sign_seen
from tests.functional.test_net_attacks import ATTACKED, bye_codes, finish_and_audit
from tests.support.net import FAST, RawPeer, open_host, start_bots
from tests.support.poll import eventually


async def a_guest(port: int, role: str = "player") -> tuple[RawPeer, object]:
    """A verified connection with a fresh key (a guest, or a spectator), and its key."""
    key = new_key()
    peer = await RawPeer.open(port)
    welcome = await peer.hello(key, role=role)
    assert welcome is not None and welcome["t"] == "welcome", welcome
    return peer, key


async def test_a_hundred_guests_pinging_at_their_budget_and_64_that_never_read_cannot_stop_four_bots(tmp_path):
    guests_n, deaf_n = 100, 64
    save = tmp_path / "table.vtlog"
    strangers = Strangers()
    host = open_host(seats=4, save=save, timeouts=ATTACKED, auto_start=False, strangers=strangers)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 4, timeouts=FAST)
    port = host.port

    # The ping: a real head (copied from the welcome) and a fresh random seen signature
    # each time, so that every one would cost the host two signature checks and a pong.
    guests = [await a_guest(port) for _ in range(guests_n)]
    deaf = [await a_guest(port, role="spectator" if i % 2 else "player") for i in range(deaf_n)]
    t = host.table
    wire = host.head_on_wire()
    stop = asyncio.Event()
    offered = 0

    async def ping(peer: RawPeer, key) -> None:
        nonlocal offered
        head = Head(t.table_id, wire[0], wire[1], wire[2])
        budget = Budgets().guest
        while not stop.is_set():
            frames = b"".join(
                frame_bytes(Ping(wire, [], sign_seen(key, head) if i == 0 else os.urandom(64)).to_map())
                for i in range(8)
            )
            peer.send_bytes(frames)
            offered += 8
            with contextlib.suppress(ConnectionError):
                await peer.writer.drain()
            await asyncio.sleep(len(frames) / budget.rate)  # at the guest's own byte budget

    async def read(peer: RawPeer) -> None:
        with contextlib.suppress(Exception):
            while not stop.is_set() and await peer.reader.read(1 << 16):
                pass

    for peer, _ in deaf:  # they never read: the kernel's buffers fill, then the host's queue
        peer.writer.transport.pause_reading()
    tasks = [asyncio.get_running_loop().create_task(ping(p, k)) for p, k in guests]
    tasks += [asyncio.get_running_loop().create_task(read(p)) for p, _ in guests]
    budget = host.admission.strangers
    await eventually(lambda: budget.decoded > 10_000, 10, "the flood under way")
    most_queued = 0

    async def watch() -> None:
        nonlocal most_queued
        while not stop.is_set():
            queued = [p.outbox.queued for p in host.peers if host.kind_of(p) != "seated"]
            most_queued = max([most_queued, *queued])
            await asyncio.sleep(0.05)

    tasks.append(asyncio.get_running_loop().create_task(watch()))
    started = time.monotonic()
    await finish_and_audit(host, bots, save)  # within its 90 s bound
    played = time.monotonic() - started
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for peer, _ in guests + deaf:
        peer.close()

    # The host's work for all the strangers together is its host-wide budget, whatever they
    # offered: bytes decoded, signature checks and pongs, each its burst plus its rate.
    span = time.monotonic() - started + 15  # from the first flood frame, generously
    # Each stranger's burst is its share of the host-wide one (at least a hello's 4 KiB).
    assert budget.decoded <= (guests_n + deaf_n) * 4096 + 8 * strangers.burst + strangers.rate * span
    assert budget.checks.taken <= strangers.check_burst + strangers.checks * span
    assert budget.replies.taken <= strangers.reply_burst + strangers.replies * span
    assert budget.checks.taken + budget.checks.refused < offered / 10  # most pings were dropped unread
    assert host.pongs.made < budget.replies.taken  # made once per head and relay, the same bytes for everyone
    # No stranger ever had more than its small queue waiting (its shared catch-up aside).
    assert most_queued <= strangers.queue
    print(
        f"\ngame played in {played:.1f} s under {guests_n} pinging guests and {deaf_n} deaf ones; pings offered"
        f" {offered}, bytes decoded for strangers {budget.decoded}, checks {budget.checks.taken}"
        f" (refused {budget.checks.refused}), pongs {budget.replies.taken}, pong frames made {host.pongs.made},"
        f" most queued for one stranger {most_queued}"
    )


async def test_a_seated_player_reconnecting_through_a_full_house_always_gets_in(tmp_path):
    save = tmp_path / "table.vtlog"
    caps = Caps(total=12, per_address=32, unseated=6)
    host = open_host(seats=4, save=save, timeouts=ATTACKED, auto_start=False, caps=caps)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 4, timeouts=FAST)
    # Strangers fill their share: idle verified connections, guests and spectators.
    strangers = [await a_guest(host.port, role="spectator" if i % 2 else "player") for i in range(6)]
    # One more gets in, and the oldest stranger goes: strangers cannot hold the house.
    late, _ = await a_guest(host.port)
    assert await bye_codes(strangers[0][0]) == ["full"]
    strangers = strangers[1:] + [(late, None)]
    assert sum(1 for p in host.peers if host.kind_of(p) != "seated") == 6
    # Every slot taken: the seats, the strangers' share, and connections yet to say hello.
    silent = [await RawPeer.open(host.port) for _ in range(2)]
    await eventually(lambda: len(host.peers) == 12, 5, "the house full")
    # A seated player's connection breaks; it comes back through the full house: the oldest
    # stranger makes room for it.
    seated = bots[1]
    seated.drop()
    await eventually(lambda: len(host.peers) == 11, 5, "the seat's old connection gone")
    await eventually(
        lambda: seated.connected and public_bytes(seated.key) in host.players_connected(), 10, "the seat back"
    )
    for peer in silent:
        peer.close()
    await finish_and_audit(host, bots, save)
    for peer, _ in strangers:
        peer.close()
