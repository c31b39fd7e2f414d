"""Benchmarks of play across the internet (``net.internet``, iroh) beside TCP, for ``scripts/bench``.

Everything runs inside a network namespace this module makes (``unshare -rn``: iroh's port mapper
probes the gateway and multicasts, and nothing may leave this machine), with relays and discovery
off, endpoints on the namespace's loopback. :func:`run` returns a dict:

- ``move_latency_ms``: ``{"tcp": …, "iroh": …}``, each ``{"median", "p99", "moves", "peers"}``:
  for every `move` of a two-round Vampire Queen game between 4 ``vampire join --bot`` processes and
  a host, the milliseconds from its author's ``submit`` to the last peer's fold
  (``bench.net``'s ``net_move_latency_ms``, once over TCP and once by ticket);
- ``catch_up_1mb``: ``{"tcp": …, "iroh": …}``, each ``{"guests_1": …, "guests_8": …}`` with
  ``{"wall_ms", "loop_hold_ms"}``: a 1 MiB ``entries`` frame sent to 1 and to 8 guests at once
  (another process reading them): the milliseconds until every guest has all of it, and the
  longest the host's event loop worked (its thread's CPU time) without running another task
  meanwhile (:class:`LoopHold`).

Without namespaces or without iroh, :func:`run` returns ``{"skipped": sentence}``. Run alone:
``python -m bench.internet``.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

PAYLOAD = 1024 * 1024
"""Bytes of the catch-up frame."""


class LoopHold:
    """The longest the running event loop's thread worked without giving this probe a turn, in
    seconds of that thread's CPU time (``longest``): an upper bound on any one callback's hold of
    the loop, blind to the time the thread waited for a core (a shared machine's noise)."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            before = time.thread_time()
            await asyncio.sleep(0)
            self.longest = max(self.longest, time.thread_time() - before)

    def stop(self) -> float:
        if self._task is not None:
            self._task.cancel()
        return self.longest


def _frame() -> bytes:
    from net.framing import frame_bytes
    from net.messages import Entries

    # One catch-up frame of about 1 MiB: what net.peers.CatchUp queues for a guest.
    blob = os.urandom(PAYLOAD - 200)
    return frame_bytes(Entries(0, [[[blob, b"\0" * 64], b"\0" * 64]]).to_map())


async def _catch_up(kind: str, guests: int) -> dict[str, float]:
    """Send one 1 MiB frame to ``guests`` guests (a process reading them) over ``kind``."""
    frame = _frame()
    writers: list[asyncio.StreamWriter] = []
    everyone = asyncio.Event()

    async def serve(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"\0")  # a stream is seen by the other side once something is sent on it (QUIC)
        writers.append(writer)
        if len(writers) == guests:
            everyone.set()
        await asyncio.Event().wait()  # held open until the bench ends

    listener: Any = None
    server: Any = None
    if kind == "iroh":
        from net.internet import Listener, Relays

        listener = Listener(serve, os.urandom(32), Relays(off=True))
        await listener.start(0, "127.0.0.1")
        target = listener.ticket
    else:
        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        target = f"127.0.0.1:{server.sockets[0].getsockname()[1]}"
    reader = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.internet", "receive", kind, target, str(guests), str(len(frame)),
        cwd=ROOT, stdout=subprocess.PIPE,
    )  # fmt: skip
    try:
        await asyncio.wait_for(everyone.wait(), 60)
        hold = LoopHold()
        hold.start()
        start = time.perf_counter()
        for writer in writers:
            writer.write(frame)
        await asyncio.gather(*(w.drain() for w in writers))
        out, _ = await asyncio.wait_for(reader.communicate(), 120)
        wall = time.perf_counter() - start
        longest = hold.stop()
        if reader.returncode != 0:
            raise RuntimeError(f"the reading process failed: {out.decode()}")
    finally:
        for writer in writers:
            writer.transport.abort()
        if listener is not None:
            await listener.close()
        if server is not None:
            server.close()
    return {"wall_ms": round(wall * 1000, 1), "loop_hold_ms": round(longest * 1000, 2)}


async def _receive(kind: str, target: str, guests: int, size: int) -> None:
    """The guests' side of :func:`_catch_up`: ``guests`` connections, each reading ``size`` bytes."""
    if kind == "iroh":
        from net.internet import Dialer, Relays

        opened = await asyncio.gather(*(Dialer(target, Relays(off=True)).open() for _ in range(guests)))
    else:
        host, port = target.rsplit(":", 1)
        opened = [await asyncio.open_connection(host, int(port)) for _ in range(guests)]
    await asyncio.gather(*(r.readexactly(1 + size) for r, _ in opened))
    for _, writer in opened:
        writer.transport.abort()


def _inside() -> dict[str, Any]:
    """The figures, measured in this process's namespace (see the module)."""
    from bench import net as bench_net

    out: dict[str, Any] = {"move_latency_ms": {}, "catch_up_1mb": {}}
    for kind in ("tcp", "iroh"):
        result = asyncio.run(bench_net._processes(internet=kind == "iroh"))
        out["move_latency_ms"][kind] = result["latency"]
        out["catch_up_1mb"][kind] = {f"guests_{n}": asyncio.run(_catch_up(kind, n)) for n in (1, 8)}
    return out


def unavailable() -> str | None:
    """Why these benchmarks cannot run here (a sentence), or None."""
    from net.internet import unavailable as no_iroh

    why = no_iroh()
    if why is not None:
        return why
    try:
        done = subprocess.run(["unshare", "-rn", "true"], capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"No network namespace can be made here ({err}), and iroh runs only inside one."
    if done.returncode != 0:
        return "This machine allows no network namespace (`unshare -rn`), and iroh runs only inside one."
    return None


def run() -> dict[str, Any]:
    """The benchmarks of play across the internet; see the module docstring for the keys."""
    why = unavailable()
    if why is not None:
        return {"skipped": why}
    env = dict(os.environ, VAMPIRE_NO_DISCOVERY="1", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        ["unshare", "-rn", "sh", "-c", 'ip link set lo up && exec "$0" -m bench.internet inside', sys.executable],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"the internet benchmarks failed: {done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["inside"]:
        print(json.dumps(_inside()))
    elif args[:1] == ["receive"]:
        asyncio.run(_receive(args[1], args[2], int(args[3]), int(args[4])))
    else:
        print(json.dumps(run(), indent=2))
