"""LAN discovery (PROTOCOL.md 9) and direct seen reports (PROTOCOL.md 7) between two "machines":
two network namespaces joined by a virtual Ethernet link (:class:`tests.support.netns.TwoMachines`),
each with its own ``lo``, its address on the link (10.86.85.1 and .2) and its own data directory,
and no default route (two computers joined by one cable). A host runs on machine A; the joiners,
on machine B, reach it only through the link. Nothing leaves the namespaces the test made.
Skipped, with the reason, on a machine that allows no unprivileged namespace or no veth pair."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.protocol.identity import short_fingerprint
from tests.support.netns import VETH_A, Machine, TwoMachines, two_machines_unavailable

pytestmark = pytest.mark.skipif(two_machines_unavailable() is not None, reason=two_machines_unavailable() or "")

VAMPIRE = [sys.executable, "-m", "tui.cli"]
HOST = ["host", "--headless", "--name", "Mina", "--seats", "3", "--rule", "rounds=1", "--port", "0", "--ping", "0.5"]


async def _machines(data: Path, multicast_route: bool) -> AsyncIterator[TwoMachines]:
    with TwoMachines(data, multicast_route=multicast_route) as lan:
        try:
            yield lan
        finally:
            for machine in (lan.a, lan.b):
                assert machine is not None
                await machine.stop()


@pytest.fixture
async def lan(tmp_path: Path) -> AsyncIterator[TwoMachines]:
    """The two machines, each with a multicast route to the link."""
    async for machines in _machines(tmp_path, True):
        yield machines


@pytest.fixture
async def cable(tmp_path: Path) -> AsyncIterator[TwoMachines]:
    """The two machines with no route at all but the link's own /24."""
    async for machines in _machines(tmp_path, False):
        yield machines


def machines(lan: TwoMachines) -> tuple[Machine, Machine]:
    assert lan.a is not None and lan.b is not None
    return lan.a, lan.b


async def start_host(
    a: Machine, *extra: str, until: str = "announced on the lan"
) -> tuple[asyncio.subprocess.Process, list[str]]:
    """``vampire host --headless`` on machine A, read until it says ``until`` (by default, that it
    is announced, or not)."""
    host = await a.start([*VAMPIRE, *HOST, *extra])
    assert host.stdout is not None
    said: list[str] = []
    while not any(until in line.casefold() for line in said):
        try:
            line = await asyncio.wait_for(host.stdout.readline(), 20)
        except TimeoutError:
            raise AssertionError("the host said no more than:\n" + "".join(said)) from None
        assert line, "the host stopped:\n" + "".join(said)
        said.append(line.decode())
    return host, said


def after(said: list[str], words: str) -> str:
    """The word that follows ``words`` in what the host said."""
    return "".join(said).split(words, 1)[1].split()[0]


async def test_a_host_on_machine_a_is_listed_and_joined_from_machine_b_and_played_to_the_end(lan):
    """A host listening on every interface of a machine with no default route names and
    announces its address on the link; machine B lists it with its key's fingerprint and seats,
    and three bots with no address join it through the link and play the game to its end."""
    a, b = machines(lan)
    host, said = await start_host(a)
    address = after(said, "Give your friends this address: ")
    assert address.startswith(f"{VETH_A}:"), said  # not 127.0.0.1: the link's address
    fingerprint = after(said, "Host key fingerprint ")
    rc, out = await b.run([*VAMPIRE, "join", "--list"])
    assert rc == 0 and out.splitlines() == [f"Mina's table  queen  0/3 seats  host {fingerprint}  {address}"]
    bots = await asyncio.gather(
        *(b.run([*VAMPIRE, "join", "--bot", "heuristic", "--quiet", "--ping", "0.5"], 60) for _ in range(3))
    )
    rest, _ = await asyncio.wait_for(host.communicate(), 30)
    said.append(rest.decode())
    assert host.returncode == 0, "".join(said)
    digest = after(said, "state digest ")
    for rc, out in bots:
        assert rc == 0, out
        assert f"Joining {address} as " in out and f"state digest {digest}" in out
    # The players came through the link, from machine B's address.
    assert f"at {b.address}:" in "".join(said) and "at 127.0.0.1:" not in "".join(said)


async def test_a_host_bound_to_its_lan_address_announces_that_address_with_no_route_at_all(cable):
    """Two computers joined by a cable and nothing else: no default route, no multicast route.
    Discovery needs none (zeroconf sends and listens on each interface); the host announces the
    address it is bound to, and withdraws it when it closes."""
    a, b = machines(cable)
    host, said = await start_host(a, "--bind", VETH_A)
    address = after(said, "Give your friends this address: ")
    assert address.startswith(f"{VETH_A}:") and "Announced on the LAN" in "".join(said)
    rc, out = await b.run([*VAMPIRE, "join", "--list"])
    assert rc == 0 and len(out.splitlines()) == 1 and out.rstrip().endswith(f"  {address}"), out
    host.terminate()
    await host.wait()
    rc, out = await b.run([*VAMPIRE, "join", "--list"])  # the host said goodbye when it closed
    assert rc == 0 and out.startswith("No table heard on the LAN"), out


async def test_a_host_on_two_lans_is_joined_at_its_address_on_the_joiners_lan(lan):
    """Machine A is also on a second LAN (10.99.0.1/24, another virtual cable, its default
    route: a laptop whose Wi-Fi has the router, with friends on the cable). It tells friends its
    default route's address, and announces that one first and its cable's too; machine B, on the
    cable only, lists and joins it at the cable's address."""
    a, b = machines(lan)
    wifi = "ip link add wifiA type veth peer name wifiX && ip addr add 10.99.0.1/24 dev wifiA"
    wifi += " && ip link set wifiA up && ip link set wifiX up && ip route add default dev wifiA"
    assert await a.run(["sh", "-c", wifi]) == (0, "")
    host, said = await start_host(a)
    port = after(said, "Give your friends this address: 10.99.0.1:").split()[0]
    # The bot and the listing each listen for the LAN's whole window: side by side, one window.
    bot = await b.start([*VAMPIRE, "join", "--bot", "heuristic", "--quiet"])
    rc, out = await b.run([*VAMPIRE, "join", "--list"])
    assert rc == 0 and out.splitlines()[0].endswith(f"  {VETH_A}:{port}"), out
    assert host.stdout is not None and bot.stdout is not None
    while f"at {b.address}:" not in said[-1]:  # the bot, come through the cable
        said.append((await asyncio.wait_for(host.stdout.readline(), 30)).decode())
    assert "connected as a player" in said[-1]
    assert f"Joining {VETH_A}:{port} as " in (await asyncio.wait_for(bot.stdout.readline(), 10)).decode()


async def test_a_joiner_refuses_a_table_whose_announcement_names_another_host_key(lan):
    """An announcement of the real table's id, address and port under another key (what a second
    host on the LAN could send): the joiner pins the announced key and the real host's challenge
    does not match it, so it takes no seat."""
    a, b = machines(lan)
    impostor = await a.start(
        [sys.executable, "-m", "tests.support.lan_scenarios", "impostor", VETH_A], stdin=asyncio.subprocess.PIPE
    )
    assert impostor.stdout is not None and impostor.stdin is not None
    line = await asyncio.wait_for(impostor.stdout.readline(), 20)
    facts = json.loads(line)
    # The listing and the bot each listen for the LAN's whole window: side by side, one window.
    (rc, out), (bot_rc, bot_out) = await asyncio.gather(
        b.run([*VAMPIRE, "join", "--list"]), b.run([*VAMPIRE, "join", "--bot", "heuristic", "--quiet"])
    )
    # It is listed with the key it announced, not the real host's.
    assert rc == 0 and out.endswith(f"{VETH_A}:{facts['port']}\n"), out
    assert f"host {short_fingerprint(bytes.fromhex(facts['announced']))} " in out
    assert bot_rc != 0 and "does not hold the key its LAN announcement named" in bot_out, bot_out
    assert "Traceback" not in bot_out
    impostor.stdin.close()
    rest, _ = await asyncio.wait_for(impostor.communicate(), 20)
    assert impostor.returncode == 0, rest.decode()
    assert json.loads(rest.decode().splitlines()[-1])["seated"] == 0


@pytest.mark.parametrize("routed", [True, False], ids=["multicast-route", "cable-only"])
async def test_players_on_two_machines_hear_each_others_direct_seen_reports(tmp_path, routed):
    """PROTOCOL.md 7: a player on machine A and one on machine B, seated at a table hosted on A,
    each hear the other's seen reports sent straight over the link (not relayed by the host),
    with a multicast route and on a bare cable alike."""
    async for lan in _machines(tmp_path, routed):
        a, b = machines(lan)
        host, said = await start_host(a, "--bind", VETH_A, "--no-announce", until="host key fingerprint")
        port = after(said, "Give your friends this address: ").rsplit(":", 1)[1]
        peers = [
            await m.start(
                [sys.executable, "-m", "tests.support.lan_scenarios", "seen_peer", VETH_A, port, other],
                stdin=asyncio.subprocess.PIPE,
            )
            for m, other in ((a, b.address), (b, a.address))
        ]
        for peer in peers:
            assert peer.stdout is not None
            line = await asyncio.wait_for(peer.stdout.readline(), 40)
            assert json.loads(line) == {"multicast": True, "heard": True}, line
        for peer in peers:
            assert peer.stdin is not None
            peer.stdin.close()
            await asyncio.wait_for(peer.wait(), 20)
