"""Network benchmarks (DESIGN.md, "Quality bars"), for ``scripts/bench``.

:func:`run` returns a dict:

- ``net_move_latency_ms``: ``{"median", "p99", "moves", "peers"}`` — for every `move` of a
  two-round Vampire Queen game between 4 ``vampire join --bot`` processes and a host over loopback
  TCP, the milliseconds (wall clock, traced by each peer with ``--trace``) from the moment its
  author sends the ``submit`` to the moment the last of the 4 peers has verified, written (fsync)
  and folded it;
- ``net_move_latency_in_process_ms``: the same with the 4 peers and the host in this process on
  one event loop: the peers' work is serialised, an upper bound;
- ``net_deal_4_seats_s``: wall seconds of the first full deal of that multi-process game: from the
  moment the table owes the first `shuffle` to the moment it owes the first `move` (shuffle,
  lock, every unlock of every hand).

Run alone: ``python -m bench.net`` prints the JSON.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def _host(seats: int, rounds: int):
    from engine.games import all_rules
    from engine.games.base import parse_options
    from engine.protocol.identity import new_key
    from engine.seat import now_ms
    from engine.sequencer import Sequencer
    from net.host import Host

    games = all_rules()
    sequencer = Sequencer(new_key(), games, None, now_ms)
    sequencer.open_table("queen", dict(parse_options(games["queen"].option_schema, {"rounds": rounds})), seats, "bench")
    return Host(sequencer)


async def _move_latency(rounds: int = 2, seed: int = 1) -> dict[str, Any]:
    from engine.protocol.identity import new_key
    from engine.protocol.log import Entry
    from net.client import Client, Hooks, Seating, Store
    from net.events import Folded
    from net.local import bot_factory, until

    host = _host(4, rounds)
    await host.start("127.0.0.1", 0)
    sent: dict[bytes, float] = {}
    folded: dict[bytes, int] = {}
    latencies: list[float] = []
    clients: list[Client] = []
    tmp = tempfile.TemporaryDirectory(prefix="vampire-bench-")
    try:
        for i in range(4):
            # Each peer keeps its log on disk (fsync per entry), as a real peer does.
            def trace(mark: str, entry: Entry) -> None:
                if mark == "send" and entry.kind == "move":
                    sent[entry.id] = time.perf_counter()

            client = Client(
                ("127.0.0.1", host.port),
                new_key(),
                name=f"Bench{i}",
                store=Store.in_dir(Path(tmp.name) / str(i)),
                seating=Seating(bot=bot_factory("heuristic", random.Random(seed + i))),
                hooks=Hooks(trace=trace),
            )

            def on_event(event, _n=4):
                if isinstance(event, Folded) and event.entry.kind == "move":
                    eid = event.entry.id
                    folded[eid] = folded.get(eid, 0) + 1
                    if folded[eid] == _n and eid in sent:
                        latencies.append((time.perf_counter() - sent[eid]) * 1000)

            client.listeners.subscribe(on_event)
            clients.append(client)
            await client.start()
            await until(lambda c=client: c.seat is not None and c.seat.index is not None, [client], 30, "a seat")
        await until(lambda: all(c.finished.is_set() for c in clients), clients, 600, "the game to end")
    finally:
        for c in clients:
            await c.stop()
        await host.close()
        tmp.cleanup()
    return {
        "median": round(statistics.median(latencies), 3),
        "p99": round(_percentile(latencies, 0.99), 3),
        "moves": len(latencies),
        "peers": 4,
    }


async def _processes(rounds: int = 2, internet: bool = False) -> dict[str, Any]:
    """One game between 4 ``vampire join --bot`` processes and a host in this process; each peer
    traces the wall-clock time it sends and folds each entry (``--trace``). ``internet``: the
    peers join by the host's ticket (``net.internet``, relays off: run inside a network namespace,
    ``bench.internet``) instead of its TCP address."""
    from net.events import Folded

    host = _host(4, rounds)
    await host.start("127.0.0.1", 0)
    target, listener = [f"127.0.0.1:{host.port}"], None
    if internet:
        from net.internet import Listener, Relays

        listener = Listener(host.serve_stream, os.urandom(32), Relays(off=True))
        await listener.start(0, "127.0.0.1")
        target = [listener.ticket, "--relay", "off"]
    marks: dict[str, float] = {}

    def on_entry(_event: Folded) -> None:
        kinds = {k for _, k in host.table.owed()}
        now = time.perf_counter()
        if "shuffle" in kinds and "shuffle" not in marks:
            marks["shuffle"] = now
        if "move" in kinds and "shuffle" in marks and "move" not in marks:
            marks["move"] = now

    host.listeners.subscribe(on_entry)
    root = Path(__file__).resolve().parents[1]
    procs = []
    with tempfile.TemporaryDirectory(prefix="vampire-bench-") as tmp:
        # VAMPIRE_NO_DISCOVERY: a benchmark sends nothing to the LAN (no direct seen reports).
        env = dict(os.environ, XDG_DATA_HOME=tmp, PYTHONUNBUFFERED="1", VAMPIRE_NO_DISCOVERY="1")
        traces = [Path(tmp) / f"trace{i}" for i in range(4)]
        try:
            for i in range(4):
                procs.append(
                    subprocess.Popen(
                        [
                            sys.executable,
                            "-m",
                            "tui.cli",
                            "join",
                            *target,
                            "--bot",
                            "heuristic",
                            "--state",
                            str(Path(tmp) / str(i)),
                            "--quiet",
                            "--trace",
                            str(traces[i]),
                        ],
                        cwd=root,
                        env=env,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                        stdin=subprocess.DEVNULL,
                    )
                )
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 600
            while not (host.table.ended and all(p.poll() is not None for p in procs)):
                if loop.time() > deadline or any(p.poll() not in (None, 0) for p in procs):
                    raise RuntimeError("the game between bot processes did not finish")
                await asyncio.sleep(0.01)
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                    p.wait(10)
            await host.close()
            if listener is not None:
                await listener.close()
        sent: dict[str, int] = {}
        folds: dict[str, list[int]] = {}
        for path in traces:
            for line in path.read_text().splitlines():
                event, kind, eid, ns = line.split()
                if kind != "move":
                    continue
                if event == "send":
                    sent[eid] = int(ns)  # the last send wins: a re-signed act has a new id anyway
                else:
                    folds.setdefault(eid, []).append(int(ns))
    latencies = [(max(folds[e]) - sent[e]) / 1e6 for e in sent if len(folds.get(e, ())) == 4]
    return {
        "latency": {
            "median": round(statistics.median(latencies), 3),
            "p99": round(_percentile(latencies, 0.99), 3),
            "moves": len(latencies),
            "peers": 4,
        },
        "deal": round(marks["move"] - marks["shuffle"], 3),
    }


def run() -> dict[str, Any]:
    """The network benchmarks; see the module docstring for the keys and units."""
    processes = asyncio.run(_processes())
    in_process = asyncio.run(_move_latency())
    return {
        "net_move_latency_ms": processes["latency"],
        "net_move_latency_in_process_ms": in_process,
        "net_deal_4_seats_s": processes["deal"],
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
