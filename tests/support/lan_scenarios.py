"""LAN scenarios run inside a network namespace (``python -m tests.support.lan_scenarios NAME
[DIR]``, started by :func:`tests.support.netns.run_scenario`): hosts, announcements, browsers and
``vampire`` commands that really multicast, where nothing can leave the namespace. Each prints
one JSON object, the facts the test then checks, as its last line of output.

- ``two_hosts``: two announced tables; ``vampire join --list`` lists both; ``vampire join --bot``
  with no address exits 2 and lists them.
- ``fills``: a 3-seat table; ``vampire join --bot`` with no address takes its only open seat; two
  more seats fill it (the announcement says 3/3, ``--bot`` finds no open table), and closing the
  host withdraws it.
- ``cli_host``: ``vampire host --headless`` announces its table; ``vampire join --list`` hears
  it; three ``vampire join --bot`` with no address find it, join and play it to the end.
- ``tui_join``: the home screen's join form lists an announced table live: it appears, its
  seats fill, and it goes when the host closes.
- ``impostor ADDRESS``: a table listening at ADDRESS, not announced by its host, and an
  announcement of the same table id, at the same address and port, naming another host key (what
  a second host on the LAN could announce); prints its facts at once and keeps both until its
  standard input closes, then prints them again with the seats taken.
- ``seen_peer ADDRESS PORT FROM``: a player at the table at ADDRESS:PORT, sending and hearing
  direct seen reports; prints ``{"multicast": ...}`` once it heard a report about its table sent
  from the address FROM (or at once when its multicast could not start), and stays seated
  (sending its own) until its standard input closes.
- ``fork_multicast DIR``: a :class:`~tests.support.forking.ForkingHost` shows one peer another
  branch and hides it from the relays; the peers' direct seen reports reveal it; evidence files
  are written in DIR and ``vampire audit`` checks one.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.forks import check_fork
from engine.games import all_rules
from engine.games.base import parse_options
from engine.protocol.identity import new_key, public_bytes, short_fingerprint
from engine.seat import now_ms
from engine.sequencer import Sequencer
from net.client import Client, Seating, Store
from net.discovery import Browser, HeardTable, announce_host
from net.host import Host
from net.local import bot_factory
from tests.support.forking import ForkingHost
from tests.support.net import FAST, QUICK_BACKOFF

CLI = [sys.executable, "-m", "tui.cli"]


def make_host(name: str, seats: int, cls: type[Host] = Host, **kwargs: Any) -> Host:
    """A host (not listening yet) of a fresh Vampire Queen table called ``name``."""
    games = all_rules()
    sequencer = Sequencer(new_key(), games, None, now_ms)
    options = dict(parse_options(games["queen"].option_schema, {"rounds": 1}))
    sequencer.open_table("queen", options, seats, name)
    return cls(sequencer, timeouts=FAST, **kwargs)


async def until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Wait until ``condition()`` holds (checked every 50 ms). Raises TimeoutError naming ``what``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def vampire(*args: str, timeout: float = 60) -> dict[str, Any]:
    """Run a ``vampire`` command to its end: its exit status and output."""
    proc = await asyncio.create_subprocess_exec(
        *CLI, *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout)
    return {"rc": proc.returncode, "out": out.decode(), "err": err.decode()}


def snapshot(tables: list[HeardTable]) -> list[list[Any]]:
    return [[t.name, t.game, t.taken, t.total, t.fingerprint, t.table.hex() if t.table else None] for t in tables]


async def two_hosts() -> dict[str, Any]:
    hosts = [make_host("Mina's table", 4), make_host("Ana\u202e's\x1b[31m table", 3)]
    announcers = []
    for host in hosts:
        await host.start("127.0.0.1", 0)
        announcers.append(await announce_host(host, "127.0.0.1"))
    browser = Browser()
    await browser.start()
    try:
        await until(lambda: len(browser.tables) == 2, 15, "both tables heard")
        # Each listens for the LAN's whole window: side by side, one window for both.
        listing, bot = await asyncio.gather(vampire("join", "--list"), vampire("join", "--bot", "heuristic"))
        return {
            "announced": [a is not None and a.running for a in announcers],
            "heard": snapshot(browser.tables),
            "fingerprints": sorted(h.sequencer.public.hex() for h in hosts),
            "hosts_heard": sorted(t.host.hex() for t in browser.tables),
            "list": listing,
            "bot": bot,
        }
    finally:
        await browser.close()
        for a in announcers:
            if a is not None:
                await a.close()
        for host in hosts:
            await host.close()


async def fills() -> dict[str, Any]:
    host = make_host("Three seats", 3, auto_start=False)
    await host.start("127.0.0.1", 0)
    announcer = await announce_host(host, "127.0.0.1")
    seen: list[list[list[Any]]] = []
    browser = Browser(lambda tables: seen.append(snapshot(tables)))
    await browser.start()
    first = None
    others: list[Client] = []
    try:
        await until(lambda: any(s and s[0][2] == 0 for s in seen), 15, "the empty table heard")
        # A bot with no address joins the only open table it hears.
        first = await asyncio.create_subprocess_exec(
            *CLI, "join", "--bot", "heuristic", "--ping", "0.2", stdout=asyncio.subprocess.PIPE
        )
        await until(lambda: len(host.table.seats) == 1, 30, "the bot seated")
        await until(lambda: any(s and s[0][2] == 1 for s in seen), 15, "1/2 heard")
        for i in (1, 2):
            client = Client(
                ("127.0.0.1", host.port),
                new_key(),
                name=f"Seat {i}",
                seating=Seating(bot=bot_factory("heuristic", random.Random(i))),
                timeouts=FAST,
                backoff=QUICK_BACKOFF,
            )
            others.append(client)
            await client.start()
            await until(lambda i=i: any(s and s[0][2] == i + 1 for s in seen), 15, f"{i + 1}/3 heard")
        none_open, listing = await asyncio.gather(vampire("join", "--bot", "heuristic"), vampire("join", "--list"))
        for client in others:
            await client.stop()
        if announcer is not None:
            await announcer.close()
        await until(lambda: bool(seen) and seen[-1] == [], 15, f"the table withdrawn (heard: {seen[-3:]})")
        return {
            "seen": seen,
            "table": host.table.table_id.hex(),
            "first_seat": host.table.names[0],
            "none_open": none_open,
            "list": listing,
        }
    finally:
        await browser.close()
        if announcer is not None:
            await announcer.close()
        await host.close()
        if first is not None and first.returncode is None:
            first.terminate()
            await first.wait()


async def cli_host() -> dict[str, Any]:
    host = await asyncio.create_subprocess_exec(
        *CLI,
        "host",
        "--headless",
        "--name",
        "Mina",
        "--seats",
        "3",
        "--rule",
        "rounds=1",
        "--port",
        "0",
        "--ping",
        "0.5",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    assert host.stdout is not None
    said: list[str] = []
    try:
        while not any("Announced on the LAN" in line for line in said):
            line = await asyncio.wait_for(host.stdout.readline(), 30)
            if not line:
                raise RuntimeError("the host stopped: " + "".join(said))
            said.append(line.decode())
        listing = await vampire("join", "--list")
        bots = await asyncio.gather(
            *(vampire("join", "--bot", "heuristic", "--quiet", "--ping", "0.5", timeout=240) for _ in range(3))
        )
        rest, _ = await asyncio.wait_for(host.communicate(), 60)
        said.append(rest.decode())
        return {"host": "".join(said), "host_rc": host.returncode, "list": listing, "bots": bots}
    finally:
        if host.returncode is None:
            host.terminate()
            await host.wait()


async def tui_join() -> dict[str, Any]:
    from tests.support.poll import eventually
    from tui.app import VampireApp
    from tui.screens.home import HomeScreen

    host = make_host("Lan party", 3, auto_start=False)
    await host.start("127.0.0.1", 0)
    announcer = await announce_host(host, "127.0.0.1")
    app = VampireApp(name="Mina")
    rows: list[list[str]] = []
    client = None
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "home", pilot=pilot)
            await pilot.press("down", "down")  # "Join a table"
            listed = app.screen.query_one("#join-heard")

            def shown() -> list[str]:
                if not listed.display:
                    return []
                return [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]

            await eventually(lambda: any("0/3 seats" in r for r in shown()), 15, "the table listed", pilot=pilot)
            rows.append(shown())
            client = Client(
                ("127.0.0.1", host.port),
                new_key(),
                name="Ana",
                seating=Seating(bot=bot_factory("heuristic", random.Random(0))),
                timeouts=FAST,
                backoff=QUICK_BACKOFF,
            )
            await client.start()
            await eventually(lambda: any("1/3 seats" in r for r in shown()), 15, "the seat taken", pilot=pilot)
            rows.append(shown())
            await client.stop()
            if announcer is not None:
                await announcer.close()
            await eventually(lambda: shown() == [], 15, "the table gone", pilot=pilot)
            rows.append(shown())
            status = str(app.screen.query_one("#join-lan").render())
        return {"rows": rows, "status": status, "fingerprint": short_fingerprint(host.sequencer.public)}
    finally:
        if client is not None:
            await client.stop()
        if announcer is not None:
            await announcer.close()
        await host.close()


async def fork_multicast(directory: str) -> dict[str, Any]:
    base = Path(directory)
    host = make_host("Forked", 4, cls=ForkingHost, auto_start=False)
    assert isinstance(host, ForkingHost)
    await host.start("127.0.0.1", 0)
    clients = []
    for i, name in enumerate(("Honest", "Victim")):
        client = Client(
            ("127.0.0.1", host.port),
            new_key(),
            name=name,
            store=Store.in_dir(base / name.lower()),
            seating=Seating(bot=bot_factory("heuristic", random.Random(i))),
            timeouts=FAST,
            backoff=QUICK_BACKOFF,
            lan=True,
        )
        await client.start()
        clients.append(client)
    honest, victim = clients
    try:
        await until(lambda: all(c.connected and c.seat and c.seat.index is not None for c in clients), 15, "seats")
        await until(lambda: len(host.table.seats) == 2, 15, "both seats")
        host.victim = victim.public
        host.post("chat", {"text": "hello everyone"})
        await until(lambda: honest.fork is not None and victim.fork is not None, 20, "both peers see the fork")
        assert host.alternative is not None and host.real is not None
        alt, alt_head = host.alternative
        result: dict[str, Any] = {
            "multicast": [c.multicast is not None for c in clients],
            "sent": [c.multicast.sent if c.multicast else 0 for c in clients],
            "received": [c.multicast.received if c.multicast else 0 for c in clients],
            "forks": [],
        }
        for client in clients:
            ev = client.fork
            assert ev is not None
            path = client.replica.fork_path
            verdict = check_fork(path.read_bytes()) if path is not None else None
            result["forks"].append(
                {
                    "ids": sorted(h.entry_id.hex() for h in (ev.first, ev.second)),
                    "path": str(path) if path else None,
                    "proven": verdict.proven if verdict else None,
                }
            )
        result["expected_ids"] = sorted([alt.id.hex(), host.real.id.hex()])
        result["alt_head"] = alt_head.hex()
        victim_path = victim.replica.fork_path
        result["audit"] = await vampire("audit", str(victim_path)) if victim_path else None
        return result
    finally:
        for client in clients:
            await client.stop()
        await host.close()


async def impostor(address: str) -> dict[str, Any]:
    from net.discovery import Announcer, TableAd

    host = make_host("Mina's table", 3)
    await host.start(address, 0)
    t = host.table
    other = public_bytes(new_key())
    ad = TableAd("Mina's table", t.game_name, 0, t.nseats, t.table_id, other, address, host.port)
    announcer = Announcer(ad)
    await announcer.start()
    facts = {
        "port": host.port,
        "table": t.table_id.hex(),
        "host": host.sequencer.public.hex(),
        "announced": other.hex(),
    }
    print(json.dumps(facts), flush=True)
    try:
        await asyncio.to_thread(sys.stdin.read)  # until the test closes it
        return {**facts, "seated": len(host.table.seats)}
    finally:
        await announcer.close()
        await host.close()


async def seen_peer(address: str, port: str, source: str) -> dict[str, Any]:
    client = Client(
        (address, int(port)),
        new_key(),
        name=f"Peer at {address}",
        seating=Seating(bot=bot_factory("heuristic", random.Random(0))),
        timeouts=FAST,
        backoff=QUICK_BACKOFF,
        lan=True,
    )
    await client.start()
    heard = asyncio.Event()
    multicast = client.multicast
    try:
        if multicast is not None:
            take = multicast.datagram_received

            def received(data: bytes, addr: tuple[Any, int]) -> None:
                before = multicast.received
                take(data, addr)
                if multicast.received > before and addr[0] == source:
                    heard.set()

            multicast.datagram_received = received  # type: ignore[method-assign]
            await asyncio.wait_for(heard.wait(), 30)
        facts = {"multicast": multicast is not None, "heard": heard.is_set()}
        print(json.dumps(facts), flush=True)
        await asyncio.to_thread(sys.stdin.read)  # until the test closes it
        return facts
    finally:
        await client.stop()


def main(argv: list[str]) -> int:
    scenarios: dict[str, Callable[..., Any]] = {
        "two_hosts": two_hosts,
        "fills": fills,
        "cli_host": cli_host,
        "tui_join": tui_join,
        "fork_multicast": fork_multicast,
        "impostor": impostor,
        "seen_peer": seen_peer,
    }
    result = asyncio.run(scenarios[argv[0]](*argv[1:]))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
