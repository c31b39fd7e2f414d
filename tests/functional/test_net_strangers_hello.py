"""Connections yet to say hello (docs/protocol.md 7.1, "Connections yet to say hello"): a flood of
connections that never say hello used to hold every slot of the house for the hello time-out
(10 s), so a seated player whose connection broke stayed out as long as the flood went on. They
are now held to a share of the house; one more makes the oldest go, and under pressure each has
a short time to say hello. Over loopback; work (connections held, dropped) is counted, the wait
is a condition polled, never a fixed sleep."""

from __future__ import annotations

import asyncio
import contextlib
import time

from engine.protocol.identity import public_bytes
from net.admission import Admission, Caps
from net.events import Timeouts
from tests.functional.test_net_attacks import finish_and_audit
from tests.support.net import FAST, RawPeer, open_host, start_bots
from tests.support.poll import eventually

PATIENT = Timeouts(hello=10.0, idle=5.0, body=1.0, write=5.0, ping=0.2, connect=2.0)
"""The host's time-outs of a real table: 10 s to say hello, as by default."""


def test_one_more_connection_yet_to_say_hello_makes_the_oldest_or_the_stale_go():
    now = [100.0]
    admission = Admission(Caps(total=40), say=lambda line: None, clock=lambda: now[0])
    assert admission.max_pre_hello == 10  # a quarter of the house
    assert admission.hello_room([99.0, 99.5], now[0]) == []  # no pressure: 10 s each, as before
    # Under pressure (half the slots), those waiting for 2 s or more go.
    gone = admission.hello_room([97.0, 97.5, 98.5, 99.0, 99.9], now[0])
    assert [i for i, _ in gone] == [0, 1] and "No hello within 2 s" in gone[0][1]
    # At the cap, the oldest goes even when it is younger than that.
    gone = admission.hello_room([99.0 + i / 10 for i in range(10)], now[0])
    assert [i for i, _ in gone] == [0] and "the oldest goes" in gone[0][1]
    assert Caps(total=12).pre_hello_limit(12) == 3 and Caps().pre_hello_limit(8) == 2 and Caps().pre_hello_limit(2) == 1


async def flood_and_reconnect(tmp_path, caps: Caps | None = None) -> dict[str, float]:
    """Four bots at a table whose house (64 connections) a flood of connections that never say
    hello keeps full, reopening each one that is closed; a seated bot's connection breaks.
    Returns the seconds it took the bot to be back, and what the host held."""
    save = tmp_path / "table.vtlog"
    kwargs = {"caps": caps} if caps is not None else {}
    host = open_host(seats=4, save=save, timeouts=PATIENT, auto_start=False, **kwargs)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 4, timeouts=FAST)
    cap = host.admission.max_connections
    port = host.port
    flood: list[RawPeer] = []
    most_waiting = 0
    stop = False

    async def keep_flooding() -> None:
        nonlocal most_waiting
        while not stop:
            flood[:] = [p for p in flood if not p.reader.at_eof()]
            while len(flood) < cap + 16:
                with contextlib.suppress(OSError):
                    flood.append(await RawPeer.open(port))
                most_waiting = max(most_waiting, sum(1 for p in host.peers if p.role is None and not p.gone))
            await asyncio.sleep(0.02)

    flooding = asyncio.get_running_loop().create_task(keep_flooding())
    await eventually(lambda: len(host.peers) >= min(cap, 4 + host.admission.max_pre_hello), 10, "the flood")
    seated = bots[1]
    key = public_bytes(seated.key)
    seated.drop()
    await eventually(lambda: key not in host.players_connected(), 10, "the seat's connection gone")
    began = time.monotonic()
    await eventually(lambda: seated.connected and key in host.players_connected(), 60, "the seat back")
    back = time.monotonic() - began
    stop = True
    flooding.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await flooding
    for p in flood:
        p.close()
    result = {
        "back_s": back,
        "most_waiting": float(most_waiting),
        "dropped_before_hello": float(host.admission.unwelcome.refusals),
        "refused_at_cap": float(host.admission.refusals.refusals),
    }
    await finish_and_audit(host, bots, save)
    return result


async def test_a_seated_player_gets_back_in_through_a_flood_of_connections_that_never_say_hello(tmp_path):
    result = await flood_and_reconnect(tmp_path, Caps(total=64, unseated=32))
    # The flood filled its share (16 of 64) and never more, newer connections making the oldest
    # go; the house never filled (nothing refused at its cap), and the seat came back (the table
    # then finished a game that audits clean).
    assert 12 <= result["most_waiting"] <= 16
    assert result["dropped_before_hello"] >= 1 and result["refused_at_cap"] == 0
    print(f"\nseated player back in {result['back_s']:.2f} s through the flood: {result}")
