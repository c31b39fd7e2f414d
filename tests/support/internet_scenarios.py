"""Scenarios of play across the internet (iroh), each run inside a network namespace of its own
(``python -m tests.support.internet_scenarios NAME DIR``, started by :func:`run_internet`):
iroh's port mapper probes the gateway and multicasts even with relays and discovery off, so an
iroh endpoint never runs outside one. Every endpoint here has relays off (``--relay off``): it
knows only the addresses in the ticket. Each scenario prints one JSON object, the facts the test
then checks, as its last line of output.

- ``game``: ``vampire host --headless --internet`` and three ``vampire join TICKET --bot``
  processes play a Vampire Queen table; one guest is killed mid-game and joins again with the
  same ticket; then the host is killed and resumed (``--resume``) and prints the same ticket,
  which the guests still hold. Facts: the tickets, each log's equality with the host's, the
  audit's exit status.
- :func:`across_nats` (run from the test's process: it makes the namespaces): a host behind
  a NAT with a port forward, a guest behind another, a whole table by the ticket alone.
- ``vtes_setup``: a headless VTES host and three bot guests by ticket: the deal of every crypt
  and library and a few turns; then everyone stops. Facts: whether each guest's log is a prefix
  of the host's, the audit's exit status, the moves made.
- ``flood``: a host with small caps and its internet listener; one endpoint opens more
  connections than the per-address cap, and more endpoints than the unseated cap say hello as
  spectators. Facts: what the host held and refused.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.functional.test_net_processes import QUICK, ROOT, SEATS, BotTable

TICKET = re.compile(r"vampire join (endpoint[a-z0-9]+)")
IROH_SEATED = re.compile(r" at iroh:[0-9a-f]+:0 connected as a player")
"""A host's line for a guest that connected as an internet endpoint."""


def skip_without_namespace_or_iroh() -> None:
    """Skip the test, with a sentence, where no network namespace can be made or iroh is missing:
    an iroh endpoint runs only inside a namespace of its own."""
    import pytest

    from net.internet import unavailable
    from tests.support.netns import netns_unavailable

    why = netns_unavailable() or unavailable()
    if why is not None:
        pytest.skip(why + " The iroh tests run only inside a network namespace of their own.")


def netns_command(args: list[str]) -> list[str]:
    """``args`` run in a fresh user and network namespace whose only interface is its loopback."""
    return ["unshare", "-rn", "sh", "-c", 'ip link set lo up && exec "$@"', "netns", *args]


def run_internet(name: str, directory: Path, timeout: float = 600) -> dict[str, Any]:
    """Run the scenario ``name`` (see the module) in a fresh namespace with ``directory`` for its
    files; returns its facts. Raises AssertionError with its output when it fails."""
    env = dict(os.environ, VAMPIRE_NO_DISCOVERY="1", PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    done = subprocess.run(
        netns_command([sys.executable, "-m", "tests.support.internet_scenarios", name, str(directory)]),
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0 and lines, f"scenario {name} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    facts: dict[str, Any] = json.loads(lines[-1])
    return facts


class InternetTable(BotTable):
    """:class:`~tests.functional.test_net_processes.BotTable` whose guests join by the ticket the
    host prints (``--internet``), every endpoint with :attr:`RELAY`: off by default, on the
    namespace's loopback."""

    RELAY = ["--relay", "off"]
    """The relay options of the host and its guests (``[]``: n0's public relays)."""

    ROUNDS = 1
    """The rounds of the table's game (one round: 67 to 112 entries)."""

    def start_host(self, resume: bool = False) -> None:
        fresh = ["--save", str(self.save), "--seats", str(SEATS), "--rule", f"rounds={self.ROUNDS}"]
        where = ["--resume", str(self.save)] if resume else fresh
        self.host = self._spawn(
            ["host", "--headless", "--bind", "127.0.0.1", "--port", str(self.port), *where, *QUICK]
            + ["--internet", *self.RELAY],
            "host",
        )

    def ticket(self) -> str:
        """The ticket the running host printed (waits for it)."""
        host = self.host
        assert host is not None
        self.wait_until(lambda: TICKET.search(Path(host.out_path).read_text()) is not None, 60, "the ticket")
        found = TICKET.search(Path(host.out_path).read_text())
        assert found is not None
        return found.group(1)

    def start_client(self, i: int, env: dict | None = None) -> None:
        ticket = self.ticket()
        self.clients[i] = self._spawn(
            ["join", ticket, *self.RELAY, "--bot", "heuristic", "--state", str(self.state(i)), "--quiet", *QUICK],
            f"client{i}",
            env,
        )


class LongerTable(InternetTable):
    """Three rounds: a host killed 20 entries after a guest came back is killed mid-game (one
    round can end at 67 entries, where a guest killed at 47 and 20 more was the end: the resumed
    host then served a table already over, to nobody)."""

    ROUNDS = 3


def game(directory: Path) -> dict[str, Any]:
    from engine.protocol.log import read_log

    table = LongerTable(directory)
    try:
        table.start_host()
        first = table.ticket()
        for i in range(SEATS):
            table.start_client(i)
        table.wait_until(lambda: table.host_entries() >= 45, 120, "the game to be under way")
        victim = table.clients[2]
        assert victim is not None
        table.kill(victim)
        held = len(read_log(table.state(2) / "table.vtlog").entries)
        table.start_client(2)
        table.wait_until(lambda: table.host_entries() >= held + 20, 120, "the game to go on")
        assert table.host is not None
        table.kill(table.host)
        assert all(e.kind != "end" for e in read_log(table.save).entries), "the host was killed after the game's end"
        first_run = Path(table.host.out_path).read_text()
        table.start_host(resume=True)
        second = table.ticket()
        table.wait_all(240)
        host_bytes = table.save.read_bytes()
        same = [(table.state(i) / "table.vtlog").read_bytes() == host_bytes for i in range(SEATS)]
        audit = subprocess.run(
            [sys.executable, "-m", "tui.cli", "audit", str(table.save)], cwd=ROOT, capture_output=True, timeout=300
        )
        resumed = Path(table.host.out_path).read_text()
        return {
            "tickets": [first, second],
            "same_logs": same,
            "audit": audit.returncode,
            "rejoined_with": held,
            "entries": len(read_log(table.save).entries),
            "iroh_seated": [len(IROH_SEATED.findall(run)) for run in (first_run, resumed)],
        }
    except AssertionError as err:
        print(err, file=sys.stderr)
        raise
    finally:
        table.close()


class VtesTable(InternetTable):
    """A headless VTES host and its bot guests (the decks the game ships) by ticket."""

    def start_host(self, resume: bool = False) -> None:
        self.host = self._spawn(
            ["host", "--headless", "--game", "vtes", "--bind", "127.0.0.1", "--port", str(self.port), "--save",
             str(self.save), "--seats", str(SEATS), *QUICK, "--internet", *self.RELAY],
            "host",
        )  # fmt: skip

    def moves(self) -> int:
        from engine.protocol.log import read_log

        try:
            return sum(1 for e in read_log(self.save).entries if e.kind == "move") if self.save.exists() else 0
        except Exception:
            return 0


def vtes_setup(directory: Path) -> dict[str, Any]:
    from engine.protocol.log import read_log

    table = VtesTable(directory)
    try:
        table.start_all()
        done = [table.host, *table.clients]
        table.wait_until(
            lambda: table.moves() >= 12 or all(p is not None and p.poll() is not None for p in done),
            600,
            "the set-up and a few turns",
        )
        table.close()  # every peer stops where it is: each log is then a prefix of the host's
        host = [e.id for e in read_log(table.save).entries]
        prefixes = []
        for i in range(SEATS):
            held = [e.id for e in read_log(table.state(i) / "table.vtlog").entries]
            prefixes.append(len(held) > 0 and held == host[: len(held)])
        audit = subprocess.run(
            [sys.executable, "-m", "tui.cli", "audit", str(table.save)], cwd=ROOT, capture_output=True, timeout=300
        )
        kinds = sorted({e.kind for e in read_log(table.save).entries})
        return {"prefixes": prefixes, "audit": audit.returncode, "moves": table.moves(), "kinds": kinds}
    finally:
        table.close()


async def flood(directory: Path) -> dict[str, Any]:
    from engine.protocol.identity import new_key
    from net.admission import Caps
    from net.internet import ALPN, Listener, Relays, bind, streams
    from tests.support.lan_scenarios import make_host
    from tests.support.net import RawPeer

    host = make_host("flood", 3, caps=Caps(per_address=2, unseated=3))
    await host.start("127.0.0.1", 0)
    listener = Listener(host.serve_stream, os.urandom(32), Relays(off=True))
    await listener.start(0, "127.0.0.1")
    ticket = listener.ticket
    import iroh

    address = iroh.EndpointTicket.from_string(ticket).endpoint_addr()

    async def open_raw(endpoint: Any) -> RawPeer | None:
        """A connection of ``endpoint`` to the host, as a RawPeer once the host has spoken; None
        when the host closed it before a word (over a cap)."""
        try:
            connection = await endpoint.connect(address, ALPN)
            pair = await asyncio.wait_for(connection.accept_bi(), 10)
        except Exception:
            return None
        return RawPeer(*streams(connection, pair.send(), pair.recv()))

    # One endpoint, four connections: the per-address cap (2) holds it, as it holds one IP address.
    one = await bind(Relays(off=True), ip="127.0.0.1")
    same = [await open_raw(one) for _ in range(4)]
    held_same = sum(1 for p in same if p is not None)
    for p in same:
        if p is not None:
            p.close()
    # Six endpoints that say hello as spectators: at most 3 unseated are held at once.
    endpoints = [await bind(Relays(off=True), ip="127.0.0.1") for _ in range(6)]
    spectators = [await open_raw(e) for e in endpoints]
    most = 0
    byes = []
    for peer in spectators:
        assert peer is not None
        welcome = await peer.hello(new_key(), role="spectator")
        assert welcome is not None and welcome["t"] == "welcome", welcome
        most = max(most, host.admission.strangers.count)
    for peer in spectators[:3]:
        frames = await peer.closed(10)
        byes += [f.get("code") for f in frames if f["t"] == "bye"]
    refused = host.admission.refusals.refusals
    names = sorted({p.ip.split(":")[0] for p in host.peers})
    for peer in spectators:
        assert peer is not None
        peer.close()
    await listener.close()
    await host.close()
    for e in [one, *endpoints]:
        await e.close()
    return {
        "held_of_one_endpoint": held_same,
        "most_unseated": most,
        "max_unseated": host.admission.max_unseated,
        "byes_of_the_oldest": byes,
        "refusals": refused,
        "peer_kinds": names,
    }


async def across_nats(directory: Path) -> dict[str, Any]:
    """A headless host (one bot of its own) in home 1 behind a NAT whose router forwards UDP 7447
    to it, and two guests, each in a home behind a NAT of its own, joining by the ticket alone:
    the table is played to its end. Run from the test's own process (it makes the namespaces,
    :class:`~tests.support.nat.HomeNetworks`). Facts: each guest's exit status and connection
    lines, whether its log equals the host's, the audit's exit status, the ticket's addresses."""
    from tests.support.nat import FORWARDED, PUBLIC_A, HomeNetworks

    with HomeNetworks(directory) as homes:
        save = homes.host.data / "host.vtlog"
        host = await homes.host.start(
            [sys.executable, "-m", "tui.cli", "host", "--headless", "--seats", "3", "--bots", "1", "--port",
             str(FORWARDED), "--save", str(save), "--rule", "rounds=1", "--internet", "--relay", "off",
             "--forwarded", f"{PUBLIC_A}:{FORWARDED}", "--no-announce", *QUICK]
        )  # fmt: skip
        assert host.stdout is not None
        said: list[str] = []
        ticket = None
        while ticket is None:
            line = (await asyncio.wait_for(host.stdout.readline(), 120)).decode()
            assert line, "the host stopped before it printed a ticket:\n" + "".join(said)
            said.append(line)
            found = TICKET.search(line)
            ticket = found.group(1) if found else None
        rest = asyncio.ensure_future(host.stdout.read())  # read on: a full pipe would stall the host
        states = [guest.data / "guest" for guest in homes.guests]

        def join(state: Path) -> list[str]:
            return [
                sys.executable,
                "-m",
                "tui.cli",
                "join",
                ticket,
                "--relay",
                "off",
                "--bot",
                "heuristic",
                "--state",
                str(state),
                *QUICK,
            ]  # fmt: skip  (the bot prints every connection change)

        guests = [await guest.start(join(state)) for guest, state in zip(homes.guests, states, strict=True)]
        outs = [asyncio.ensure_future(g.communicate()) for g in guests]
        _, late = await asyncio.wait([*outs, rest], timeout=300, return_when=asyncio.ALL_COMPLETED)
        if late:
            for machine in homes.computers:
                await machine.stop()
            await asyncio.wait([*outs, rest], timeout=30)
            told = [o.result()[0].decode(errors="replace")[-3000:] for o in outs if o.done()]
            told += [rest.result().decode(errors="replace")[-3000:]] if rest.done() else []
            raise AssertionError("the table across NATs did not end:\n" + "\n---\n".join(told))
        runs = [(g.returncode, o.result()[0].decode(errors="replace")) for g, o in zip(guests, outs, strict=True)]
        said.append((await asyncio.wait_for(rest, 120)).decode(errors="replace"))
        await asyncio.wait_for(host.wait(), 60)
        audit = subprocess.run(
            [sys.executable, "-m", "tui.cli", "audit", str(save)], cwd=ROOT, capture_output=True, timeout=300
        )
        import iroh

        addresses = iroh.EndpointTicket.from_string(ticket).endpoint_addr().direct_addresses()
        for machine in homes.computers:
            await machine.stop()
        return {
            "guest_exits": [code for code, _ in runs],
            "host_exit": host.returncode,
            "connected": [[x for x in out.splitlines() if "Connected through the internet" in x] for _, out in runs],
            "same_logs": [(state / "table.vtlog").read_bytes() == save.read_bytes() for state in states],
            "audit": audit.returncode,
            "ticket_addresses": addresses,
            "output": "".join(out[-1500:] for code, out in runs if code)
            + ("".join(said)[-1500:] if host.returncode else ""),
        }


def main(argv: list[str]) -> None:
    name, directory = argv[0], Path(argv[1])
    directory.mkdir(parents=True, exist_ok=True)
    if name == "game":
        facts = game(directory)
    elif name == "vtes_setup":
        facts = vtes_setup(directory)
    elif name == "flood":
        facts = asyncio.run(flood(directory))
    else:
        raise SystemExit(f"no scenario {name}")
    print(json.dumps(facts), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
