"""Tables between processes over loopback TCP, for the benchmarks (``scripts/bench``): a host in
this process, every seat a ``vampire join --bot LEVEL`` process, and the clocks to tell where the
time went.

- :class:`CpuClock` samples a process's CPU seconds (every thread) every 2 ms, against the wall
  clock (``time.time_ns``, the clock ``vampire join --trace`` writes);
- :func:`run_table` opens a table, starts the bot processes and watches the host's log until a
  condition holds; each bot process runs ``vampire join`` unchanged (``python -m bench.procs
  --peer TICKS -- join …``: the command's own ``main`` with a :class:`CpuClock` writing to TICKS);
- :func:`critical_path` reads the run: the longest chain of dependent steps between two entries
  and the CPU seconds the processes on it spent on it.

Run as ``python -m bench.procs --peer TICKS -- ARGS…`` it is one such bot process. With
``VAMPIRE_BENCH_COUNT=DIR`` each bot process writes to DIR how many times it called each of
libsodium's group operations (:data:`COUNTED`: work counted, not timed, for a loaded machine); with
``VAMPIRE_BENCH_PROFILE=DIR`` its cProfile statistics.
"""

from __future__ import annotations

import asyncio
import bisect
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

#: Entry kinds whose entries a step makes side by side (each seat owes one at the same time).
PARALLEL_KINDS = frozenset({"key", "share", "rand-commit", "rand-reveal", "seed-reveal"})


class CpuClock:
    """Samples (wall ns, CPU ns of this process) every ``every`` seconds in a daemon thread, into
    :attr:`samples` and, when ``sink`` is given, as lines ``wall cpu`` to that file (flushed as
    written, so a killed process leaves them)."""

    def __init__(self, sink: TextIO | None = None, every: float = 0.002) -> None:
        self.samples: list[tuple[int, int]] = []
        self._sink = sink
        self._every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bench-cpu-clock", daemon=True)

    def start(self) -> CpuClock:
        self.sample()
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(1)
        self.sample()

    def sample(self) -> None:
        mark = (time.time_ns(), time.process_time_ns())
        self.samples.append(mark)
        if self._sink is not None:
            self._sink.write(f"{mark[0]} {mark[1]}\n")
            self._sink.flush()

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            self.sample()


def read_samples(path: Path) -> list[tuple[int, int]]:
    """The (wall ns, CPU ns) samples a :class:`CpuClock` wrote to ``path`` (a torn last line dropped)."""
    out = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 2:
            out.append((int(parts[0]), int(parts[1])))
    return out


def cpu_at(samples: list[tuple[int, int]], wall_ns: int) -> float:
    """CPU seconds of the sampled process at ``wall_ns``, interpolated between its samples."""
    if not samples:
        return 0.0
    walls = [w for w, _ in samples]
    i = bisect.bisect_left(walls, wall_ns)
    if i <= 0:
        return samples[0][1] / 1e9
    if i >= len(samples):
        return samples[-1][1] / 1e9
    (w0, c0), (w1, c1) = samples[i - 1], samples[i]
    if w1 == w0:
        return c1 / 1e9
    return (c0 + (c1 - c0) * (wall_ns - w0) / (w1 - w0)) / 1e9


@dataclass(frozen=True)
class Appended:
    """An entry the host appended: its ``seq``, ``kind``, ``id`` (hex), author's ``seat`` (None:
    the host) and the wall clock then (``wall_ns``)."""

    seq: int
    kind: str
    id: str
    seat: int | None
    wall_ns: int


@dataclass
class TableRun:
    """What :func:`run_table` saw: the host's appends, each bot process's sends (entry id hex ->
    wall ns, the last send of an id) and CPU samples, and the host process's CPU samples."""

    appended: list[Appended] = field(default_factory=list)
    sends: list[dict[str, int]] = field(default_factory=list)
    peer_cpu: list[list[tuple[int, int]]] = field(default_factory=list)
    host_cpu: list[tuple[int, int]] = field(default_factory=list)
    marks: dict[str, int] = field(default_factory=dict)
    """Named wall-clock instants (ns) the caller's ``mark`` callback set."""

    def by_seq(self) -> dict[int, Appended]:
        """The appends by seq."""
        return {a.seq: a for a in self.appended}

    def cpu_between(self, start_ns: int, end_ns: int) -> float:
        """CPU seconds every process of the table (host and bots) used between the two instants."""
        total = cpu_at(self.host_cpu, end_ns) - cpu_at(self.host_cpu, start_ns)
        for samples in self.peer_cpu:
            total += cpu_at(samples, end_ns) - cpu_at(samples, start_ns)
        return total

    def author_of(self, entry: Appended) -> int | None:
        """The bot process (index) that sent ``entry``, or None (the host's own entry)."""
        for i, sends in enumerate(self.sends):
            if entry.id in sends:
                return i
        return None


def host_for(game: str, seats: int, options: dict[str, Any] | None = None) -> Any:
    """A :class:`net.host.Host` for a new table of ``game`` with ``seats`` seats and the table rules
    ``options`` (str values parsed by the game's schema), not yet listening."""
    from engine.games import all_rules
    from engine.games.base import parse_options
    from engine.protocol.identity import new_key
    from engine.seat import now_ms
    from engine.sequencer import Sequencer
    from net.host import Host

    games = all_rules()
    sequencer = Sequencer(new_key(), games, None, now_ms)
    parsed = dict(parse_options(games[game].option_schema, options or {}))
    sequencer.open_table(game, parsed, seats, "bench")
    return Host(sequencer)


async def run_table(
    game: str,
    seats: int,
    level: str,
    done: Callable[[Any, TableRun], bool],
    *,
    options: dict[str, Any] | None = None,
    timeout: float = 600.0,
    on_append: Callable[[Any, TableRun], None] | None = None,
) -> TableRun:
    """Open a table of ``game`` here, start ``seats`` ``vampire join --bot LEVEL`` processes and
    watch the host until ``done(host, run)`` holds after an append; then stop the bots and the
    host. ``on_append(host, run)`` is called after each append (to set :attr:`TableRun.marks`).
    Raises RuntimeError when a bot process fails or ``timeout`` seconds pass first."""
    from net.events import Folded

    host = host_for(game, seats, options)
    await host.start("127.0.0.1", 0)
    run = TableRun()
    seen: set[bytes] = set()
    finished = asyncio.Event()

    def on_entry(event: Any) -> None:
        if not isinstance(event, Folded) or event.entry.id in seen:
            return  # a settled proof is told again: the append is the first
        seen.add(event.entry.id)
        entry = event.entry
        run.appended.append(Appended(entry.seq, entry.kind, entry.id.hex(), event.seat, time.time_ns()))
        if on_append is not None:
            on_append(host, run)
        if done(host, run):
            finished.set()

    host.listeners.subscribe(on_entry)
    clock = CpuClock().start()
    root = Path(__file__).resolve().parents[1]
    procs: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory(prefix="vampire-bench-") as tmp:
        # VAMPIRE_NO_DISCOVERY: a benchmark sends nothing to the LAN (no direct seen reports).
        env = dict(os.environ, XDG_DATA_HOME=tmp, PYTHONUNBUFFERED="1", VAMPIRE_NO_DISCOVERY="1")
        ticks = [Path(tmp) / f"ticks{i}" for i in range(seats)]
        traces = [Path(tmp) / f"trace{i}" for i in range(seats)]
        try:
            for i in range(seats):
                join = ["join", f"127.0.0.1:{host.port}", "--bot", level, "--state", str(Path(tmp) / str(i))]
                join += ["--quiet", "--trace", str(traces[i])]
                procs.append(
                    subprocess.Popen(
                        [sys.executable, "-m", "bench.procs", "--peer", str(ticks[i]), "--", *join],
                        cwd=root,
                        env=env,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                        stdin=subprocess.DEVNULL,
                    )
                )
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            while not finished.is_set():
                if loop.time() > deadline or any(p.poll() not in (None, 0) for p in procs):
                    raise RuntimeError(f"the {game} table between bot processes did not get there")
                try:
                    await asyncio.wait_for(finished.wait(), 0.05)
                except TimeoutError:
                    pass
        finally:
            clock.stop()
            for p in procs:
                if p.poll() is None:
                    p.kill()
                    p.wait(10)
            await host.close()
        run.host_cpu = clock.samples
        for i in range(seats):
            run.peer_cpu.append(read_samples(ticks[i]) if ticks[i].exists() else [])
            sends: dict[str, int] = {}
            if traces[i].exists():
                for line in traces[i].read_text().splitlines():
                    parts = line.split()
                    if len(parts) == 4 and parts[0] == "send":
                        sends[parts[2]] = int(parts[3])
            run.sends.append(sends)
    return run


@dataclass(frozen=True)
class Step:
    """One step of a chain: ``who`` did it (``"host"`` or ``"seat N"``), its ``what`` (the entry
    kind it made or appended), and the CPU seconds it took (``cpu_s``)."""

    who: str
    what: str
    cpu_s: float


def critical_path(run: TableRun, start_seq: int, end_seq: int) -> tuple[float, list[Step]]:
    """The longest chain of dependent steps from the host's append of entry ``start_seq`` to its
    append of entry ``end_seq``, and the CPU seconds its steps took: the total and the steps.

    Walking back from ``end_seq``: an entry of a kind every seat makes side by side
    (:data:`PARALLEL_KINDS`, e.g. the keys of an event, the shares of a deal) waited for the entry
    before its run of such entries (the last of the run to be appended is the one the chain waited
    for); any other entry (a `deck`, a `shuffle`, a move) for the entry before it. Each entry is two
    steps: its author's, from the host's append of what it waited for to its author's send (the
    author's process received, folded and checked it, then made the entry), and the host's, from
    that send to its append (checks and, for a `shuffle` whose proof it settles later, nothing
    more: the settling falls in the next host step if the next entry waited for it). A step counts
    the CPU its process used over the step (every thread of it: work the process did beside the
    step, such as verifying a proof while making its own shuffle, counts too, so the figure is an
    upper bound of what the chain costs when every process has a core of its own)."""
    entries = run.by_seq()
    steps: list[Step] = []
    seq = end_seq
    while seq > start_seq:
        entry = entries[seq]
        dep = seq - 1
        if entry.kind in PARALLEL_KINDS:
            while dep > start_seq and entries[dep].kind == entry.kind:
                dep -= 1
        since = entries[dep].wall_ns
        author = run.author_of(entry)
        if author is None:
            cpu = cpu_at(run.host_cpu, entry.wall_ns) - cpu_at(run.host_cpu, since)
            steps.append(Step("host", entry.kind, cpu))
        else:
            sent = max(min(run.sends[author][entry.id], entry.wall_ns), since)
            host = cpu_at(run.host_cpu, entry.wall_ns) - cpu_at(run.host_cpu, sent)
            steps.append(Step("host", entry.kind, host))
            seat = cpu_at(run.peer_cpu[author], sent) - cpu_at(run.peer_cpu[author], since)
            steps.append(Step(f"seat {entry.seat}", entry.kind, seat))
        seq = dep
    steps.reverse()
    return sum(s.cpu_s for s in steps), steps


def _peer(argv: list[str]) -> int:
    """A bot process: ``vampire join ARGS`` (the command's own ``main``) with a :class:`CpuClock`
    writing to the file ``argv[0]``."""
    ticks, args = argv[0], argv[2:] if argv[1:2] == ["--"] else argv[1:]
    with open(ticks, "w", buffering=1) as sink:
        clock = CpuClock(sink).start()
        from tui import cli

        profile_to = os.environ.get("VAMPIRE_BENCH_PROFILE")
        if profile_to:
            _profile_main_thread(Path(profile_to) / f"peer-{os.getpid()}.prof")
        count_to = os.environ.get("VAMPIRE_BENCH_COUNT")
        if count_to:
            _count_group_work(Path(count_to) / f"peer-{os.getpid()}.counts")
        try:
            return cli.main(args)
        finally:
            clock.stop()


#: libsodium's group operations :func:`_count_group_work` counts.
COUNTED = (
    "crypto_core_ed25519_is_valid_point",
    "crypto_scalarmult_ed25519_noclamp",
    "crypto_scalarmult_ed25519_base_noclamp",
    "crypto_core_ed25519_add",
)


def _count_group_work(path: Path | None, every: float = 0.1) -> dict[str, int]:
    """Count this process's calls of each libsodium operation of :data:`COUNTED` (validity checks,
    checked and base-point multiplications, additions: the work of proofs and checks, counted
    instead of timed on a loaded machine), and, when ``path`` is given, write them there as lines
    ``name count`` every ``every`` seconds (a bench kills its bot processes: the last write
    stands). Returns the live counts."""
    from nacl import bindings as nb

    counts = dict.fromkeys(COUNTED, 0)
    lock = threading.Lock()
    for name in COUNTED:
        real = getattr(nb, name)

        def counted(*args: Any, _real: Any = real, _name: str = name) -> Any:
            with lock:
                counts[_name] += 1
            return _real(*args)

        setattr(nb, name, counted)
    if path is not None:

        def dump() -> None:
            while True:
                time.sleep(every)
                with lock:
                    text = "".join(f"{k} {v}\n" for k, v in counts.items())
                path.write_text(text)

        threading.Thread(target=dump, name="bench-count", daemon=True).start()
    return counts


def _profile_main_thread(path: Path, every: float = 0.25) -> None:
    """Profile this process's main thread (cProfile) and write the statistics to ``path`` every
    ``every`` seconds (a bench kills its bot processes: the last write stands). For profiling the
    bot processes of a bench (``VAMPIRE_BENCH_PROFILE=DIR``); worker threads are not profiled."""
    import cProfile

    profiler = cProfile.Profile()
    profiler.enable()

    def dump() -> None:
        while True:
            time.sleep(every)
            profiler.dump_stats(str(path))  # stops the profiler while it writes
            profiler.enable()

    threading.Thread(target=dump, name="bench-profile", daemon=True).start()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--peer"]:
        sys.exit(_peer(sys.argv[2:]))
    sys.exit("usage: python -m bench.procs --peer TICKS -- join ARGS…")
