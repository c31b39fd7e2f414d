"""The per-address cap (PROTOCOL.md 7, "Caps": at most 32 connections from one remote address other
than loopback), for real: in a network namespace of the test's own, where loopback holds
10.9.0.1-3, connections come from two addresses that are not loopback. A loopback test cannot do
this (every connection comes from 127.0.0.1, which the cap leaves alone on purpose)."""

from __future__ import annotations

import json

import pytest

from tests.support.netns import netns_unavailable, run_code_in_netns

ADDRESSES = ["10.9.0.1/24", "10.9.0.2/24", "10.9.0.3/24"]


async def scenario() -> dict:
    """Run inside the namespace: a host on 10.9.0.1, 40 connections from 10.9.0.2, then 10 from
    10.9.0.3, then 40 from 127.0.0.1; which were accepted (the host's challenge came) and what the
    host logged. Printed as JSON by the test's child process."""
    import asyncio

    from net.admission import Caps
    from net.framing import HEADER
    from tests.support.net import open_host

    lines: list[str] = []
    host = open_host(seats=4, caps=Caps(total=256, per_address=32), say=lines.append)
    host.admission.refusals.quiet = 0.5
    await host.start("0.0.0.0", 0)
    opened: list[asyncio.StreamWriter] = []

    async def connect(source: str, target: str = "10.9.0.1") -> bool:
        reader, writer = await asyncio.open_connection(target, host.port, local_addr=(source, 0))
        opened.append(writer)
        try:
            return len(await asyncio.wait_for(reader.readexactly(HEADER), 5)) == HEADER  # the challenge
        except (asyncio.IncompleteReadError, ConnectionError):
            return False  # closed as accepted: nothing was written

    result = {
        "from .2": [await connect("10.9.0.2") for _ in range(40)],
        "from .3": [await connect("10.9.0.3") for _ in range(10)],
        "from loopback": [await connect("127.0.0.1", "127.0.0.1") for _ in range(40)],
    }
    peers_before = len(host.peers)
    for writer in opened[:40]:  # .2 goes away: its slots are free again
        writer.transport.abort()
    for _ in range(100):
        if len(host.peers) <= peers_before - 32:
            break
        await asyncio.sleep(0.05)
    result["from .2 again"] = [await connect("10.9.0.2") for _ in range(5)]
    host.admission.refusals.close()
    result["lines"] = [line for line in lines if line.startswith(("Refusing", "Refused"))]
    result["refusals"] = host.admission.refusals.refusals
    for writer in opened:
        writer.transport.abort()
    await host.close()
    return result


def test_the_per_address_cap_holds_between_two_real_addresses():
    reason = netns_unavailable()
    if reason is not None:
        pytest.skip(reason)
    code = (
        "import asyncio, json\n"
        "from tests.functional.test_net_caps_netns import scenario\n"
        "print('RESULT ' + json.dumps(asyncio.run(scenario())))\n"
    )
    done = run_code_in_netns(code, ADDRESSES)
    assert done.returncode == 0, done.stderr[-3000:]
    [line] = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    result = json.loads(line.removeprefix("RESULT "))
    assert result["from .2"] == [True] * 32 + [False] * 8  # the cap of one address
    assert result["from .3"] == [True] * 10  # another address is not held by the first one's cap
    assert result["from loopback"] == [True] * 40  # loopback has no per-address cap
    assert result["from .2 again"] == [True] * 5  # its slots come back once its connections go
    assert result["refusals"] == 8
    assert result["lines"] == [
        "Refusing connections: 10.9.0.2 holds its cap of 32 connections (first from 10.9.0.2); "
        "a count follows when they stop.",
        result["lines"][1],
    ]
    assert result["lines"][1].startswith("Refused 8 connections over ") and result["lines"][1].endswith(
        "from 10.9.0.2."
    )
