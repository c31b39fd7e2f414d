"""Benchmarks of the version-2 deck at the table (PROTOCOL.md 6), for ``scripts/bench``.

:func:`run` returns a dict:

- ``tcp_deal``: for 4 and 8 seats, a Vampire Queen deal between separate ``vampire join --bot``
  processes and a host in this process over loopback TCP: wall seconds from the moment the table
  owes the first `key` to the moment it owes the first `move` (keys, every proven shuffle verified
  by the host and by every peer, every hand shared to its seat), and ``cpu_s``: the CPU seconds the
  host and the bots used meanwhile (their sum; on 2 cores the wall time is at least half of it);
- ``shuffle_proof``: prove and verify of one shuffle of 108 and 90 cards (bench.pos).

Run alone: ``python -m bench.deck`` prints the JSON (``--quick``: 4 seats only).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


async def _tcp_deal(seats: int) -> dict[str, Any]:
    """One deal between ``seats`` bot processes and a host here (see the module docstring)."""
    from bench.net import _host

    host = _host(seats, 1)
    await host.start("127.0.0.1", 0)
    marks: dict[str, float] = {}
    cpu: dict[str, float] = {}
    procs: list[subprocess.Popen[bytes]] = []

    def on_entry(_event: object) -> None:
        kinds = {k for _, k in host.table.owed()}
        now = time.perf_counter()
        if "key" in kinds and "key" not in marks:
            marks["key"] = now
            cpu["key"] = _cpu(procs)
        if "shuffle" in kinds and "shuffle" not in marks:
            marks["shuffle"] = now
        if "share" in kinds and "share" not in marks:
            marks["share"] = now
        if "move" in kinds and "key" in marks and "move" not in marks:
            marks["move"] = now
            cpu["move"] = _cpu(procs)

    host.listeners.subscribe(on_entry)
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="vampire-bench-") as tmp:
        env = dict(os.environ, XDG_DATA_HOME=tmp, PYTHONUNBUFFERED="1")
        try:
            for i in range(seats):
                procs.append(
                    subprocess.Popen(
                        [sys.executable, "-m", "tui.cli", "join", f"127.0.0.1:{host.port}", "--bot", "random"]
                        + ["--state", str(Path(tmp) / str(i)), "--quiet"],
                        cwd=root,
                        env=env,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                        stdin=subprocess.DEVNULL,
                    )
                )
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 300
            while "move" not in marks:
                if loop.time() > deadline or any(p.poll() not in (None, 0) for p in procs):
                    raise RuntimeError("the deal between bot processes did not finish")
                await asyncio.sleep(0.005)
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                    p.wait(10)
            await host.close()
    return {
        "seats": seats,
        "deal_s": round(marks["move"] - marks["key"], 3),
        "cpu_s": round(cpu["move"] - cpu["key"], 3),
        "keys_s": round(marks["shuffle"] - marks["key"], 3),
        "shuffles_s": round(marks["share"] - marks["shuffle"], 3),
        "shares_s": round(marks["move"] - marks["share"], 3),
    }


def _cpu(procs: list[subprocess.Popen[bytes]]) -> float:
    """CPU seconds used so far by this process and the bot processes (Linux /proc; 0 elsewhere)."""
    total = time.process_time()
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for p in procs:
        try:
            fields = Path(f"/proc/{p.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def run(quick: bool = False) -> dict[str, Any]:
    """The deck benchmarks; see the module docstring for the keys and units."""
    from bench.pos import bench_shuffle

    return {
        "tcp_deal": [asyncio.run(_tcp_deal(n)) for n in ((4,) if quick else (4, 8))],
        "shuffle_proof": [bench_shuffle(n) for n in (108, 90)],
    }


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv[1:]), indent=2))
