"""Byte budgets per verified connection (docs/protocol.md, Part 7, "Budgets per connection"):
a verified hello costs nothing but a fresh key, so a peer that holds no seat could send the
costliest frames the wire allows at the frame rate and keep a core busy decoding (a submission is
decoded before it is refused, and its connection kept). Spectators are held to 4 KiB frames,
players whose key holds no seat to 16 KiB, and every connection to a rate of bytes decoded per
second: over it, the host decodes the next frame only when the budget allows."""

from __future__ import annotations

import asyncio
import contextlib
import time

import msgpack
import pytest

from engine.protocol.identity import new_key
from net.admission import Budget, Budgets, ByteBucket
from net.events import Timeouts
from net.framing import MAX_HANDSHAKE_FRAME, frame_bytes
from net.host import Host
from tests.functional.test_net_attacks import finish_and_audit
from tests.support.net import FAST, RawPeer, open_host, start_bots
from tests.support.poll import eventually

TIMEOUTS = Timeouts(hello=2.0, idle=30.0, body=2.0, write=30.0, ping=0.2, connect=2.0)


def costliest_ping(size: int) -> bytes:
    """A ``ping`` frame of about ``size`` bytes holding the most objects it can: a relay of empty
    lists, one byte each (the cheapest to send, a new list each to build). It is refused once
    decoded (a relay holds at most 64 heads): the decoding is the cost."""
    return frame_bytes({"t": "ping", "head": None, "relay": [[]] * (size - 40)})


def costliest_submit(size: int) -> bytes:
    """A ``submit`` frame of at most ``size`` bytes whose entry payload holds the most objects it
    can (empty lists): the host decodes the payload, then refuses the entry and keeps the
    connection, so a peer may send it again and again."""
    n = size - 120
    while True:
        payload = msgpack.packb({"a": [[]] * n}, use_bin_type=True)
        frame = frame_bytes({"t": "submit", "n": 1, "entry": [payload, bytes(64)]})
        if len(frame) - 4 <= size:
            return frame
        n -= len(frame) - 4 - size


class CountingHost(Host):
    """A host that counts the frames it decoded per connection (every decoded frame is charged)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.decoded: dict[str, int] = {}

    def _charge(self, peer) -> None:
        self.decoded[peer.addr] = self.decoded.get(peer.addr, 0) + 1
        super()._charge(peer)


class FakeClock:
    """A clock that moves only when the bucket sleeps: the bucket's waits, counted exactly."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


async def test_a_byte_bucket_admits_its_burst_then_its_rate():
    clock = FakeClock()
    budget = Budget(max_frame=100, rate=1000.0, burst=300.0)
    bucket = ByteBucket(budget, clock, clock.sleep)
    for _ in range(3):
        await bucket.admit(100, budget)
    assert clock.slept == [] and bucket.waited == 0
    for _ in range(5):
        await bucket.admit(100, budget)  # 500 bytes over the burst: half a second at 1000 B/s
    assert clock.slept == pytest.approx([0.1] * 5) and bucket.waited == pytest.approx(0.5)


async def test_a_guest_that_takes_a_seat_gets_the_seats_whole_burst_at_once():
    clock = FakeClock()
    guest, seated = Budgets().guest, Budgets().seated
    bucket = ByteBucket(guest, clock, clock.sleep)
    await bucket.admit(guest.max_frame, guest)
    for _ in range(2):
        await bucket.admit(seated.max_frame, seated)  # two of the largest entries: the seat's burst
    assert clock.slept == [] and bucket.waited == 0


async def test_a_spectator_sending_a_frame_over_4_kib_is_dropped():
    host = open_host(seats=4, timeouts=TIMEOUTS)
    await host.start("127.0.0.1", 0)
    peer = await RawPeer.open(host.port)
    await peer.hello(new_key(), role="spectator")
    peer.send_bytes(costliest_ping(MAX_HANDSHAKE_FRAME + 1000))
    frames = await peer.closed()
    assert frames[-1]["t"] == "bye" and frames[-1]["code"] == "too-large"
    assert "over the limit of 4096" in frames[-1]["reason"]
    await host.close()


async def test_four_bots_finish_while_verified_peers_flood_the_costliest_frames(tmp_path):
    save = tmp_path / "table.vtlog"
    budgets = Budgets()
    host = open_host(seats=4, save=save, timeouts=TIMEOUTS, auto_start=False, host_cls=CountingHost, budgets=budgets)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 4, timeouts=FAST)

    # Peers that say hello as players with fresh keys: the cheapest verified peer there is, and one
    # the table never seats. Each sends the costliest submission it may (a 16 KiB frame whose entry
    # payload is 16,000 empty lists) 150 times a second, under the frame rate (200), so that only
    # the byte budget holds it back: the host refuses each entry and keeps the connection.
    frame = costliest_submit(budgets.guest.max_frame)
    attackers: list[RawPeer] = []
    for _ in range(3):
        peer = await RawPeer.open(host.port)
        assert (await peer.hello(new_key(), role="player"))["t"] == "welcome"
        attackers.append(peer)
    addresses = [f"127.0.0.1:{p.writer.get_extra_info('sockname')[1]}" for p in attackers]
    stop = asyncio.Event()

    async def flood(peer: RawPeer) -> None:
        while not stop.is_set():
            peer.send_bytes(frame)
            with contextlib.suppress(ConnectionError):
                await peer.writer.drain()
            await asyncio.sleep(1 / 150)

    async def drain(peer: RawPeer) -> None:
        with contextlib.suppress(Exception):
            while not stop.is_set() and await peer.reader.read(1 << 16):
                pass

    tasks = [asyncio.get_running_loop().create_task(f(p)) for p in attackers for f in (flood, drain)]
    started = time.monotonic()
    await eventually(lambda: all(host.decoded.get(a, 0) >= 4 for a in addresses), 10, "the flood under way")
    await finish_and_audit(host, bots, save)  # within its 90 s bound
    played = time.monotonic() - started
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    # Each was decoded at most its burst plus its rate for the time it flooded: one frame every
    # two seconds, not the 150 a second it offered. None was dropped: held back, refused.
    budget = budgets.guest
    most = (budget.burst + budget.rate * (played + 1)) / len(frame) + 2
    for address in addresses:
        assert 4 <= host.decoded[address] <= most, (host.decoded[address], most, played)
    assert not host.disconnects
    print(
        f"\ngame played in {played:.1f} s under the flood; frames decoded per attacker {sorted(host.decoded[a] for a in addresses)}"
    )
