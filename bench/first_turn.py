"""How long a person waits at ``vampire play`` (DESIGN.md, "Quality bars"), for ``scripts/bench``.

:func:`run` starts ``vampire play`` as a new process (the venv ready) and times it from the moment
the process is started to the moment the person's table reaches its first turn:

- ``queen_4_s``: ``vampire play`` (Vampire Queen, you and 3 bots) to "Your turn." (the table owes
  the person's seat a move);
- ``vtes_4_s``: ``vampire play --game vtes --seats 4`` to the first phase of the first turn (every
  crypt and library shuffled, the opening hands and crypt cards dealt: the game's step is ``play``).

The process is the real command (``tui.cli.main`` with its arguments: imports, profile, host,
bots, TUI) with one difference: the Textual app runs headless (no terminal; the same screens are
built and updated), and a timer checks the person's table every 5 ms. Each figure has ``wall_s``
(from the parent, the process start included), ``cpu_s`` (the child's user and system CPU
seconds, every thread, at that moment) and ``fsyncs`` (the ``os.fsync`` calls the child made by
then: logs, secrets, keys, profile; counted work that holds on a loaded machine, ``queen_4_fsyncs``
and ``vtes_4_fsyncs``); a fresh data folder (``XDG_DATA_HOME``) each time, as for
a new user. Each figure is a person's second start, as after an install: one unmeasured run first
compiles the bytecode (into a folder of the bench's own, ``PYTHONPYCACHEPREFIX``, also where the
environment forbids writing it beside the code) and fills the caches a first game fills (it goes
on 5 s past its first turn, as a person's game does: a VTES table keeps every shipped deck's
reading then); the measured run follows.

Run alone: ``python -m bench.first_turn`` prints the JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_MARK = "FIRST-TURN"
_LINGER = "VAMPIRE_BENCH_LINGER"
"""Seconds the measured process goes on after its first turn before it exits (0: at once)."""


def _ready(game: str, session: Any) -> bool:
    table = getattr(session, "table", None)
    if table is None or table.gstate is None:
        return False
    if game == "vtes":
        return str(getattr(table.gstate, "step", "")) == "play"
    seat = session.seat
    return seat is not None and any(s == seat and str(k) == "move" for s, k in table.owed())


def _child(argv: list[str]) -> int:
    """In the measured process: ``vampire play ARGV`` with a headless app that prints the mark and
    its CPU seconds at the first turn, then exits at once."""
    import resource

    from textual.app import App

    from tui import cli
    from tui.app import VampireApp

    game = argv[argv.index("--game") + 1] if "--game" in argv else "queen"
    linger = float(os.environ.get(_LINGER, "0"))
    marked: list[bool] = []
    mount = VampireApp.on_mount
    fsyncs = [0]
    fsync = os.fsync

    def counted_fsync(fd: Any) -> None:
        fsyncs[0] += 1
        fsync(fd)

    os.fsync = counted_fsync

    def on_mount(app: VampireApp) -> None:
        mount(app)

        def check() -> None:
            if app.session is not None and _ready(game, app.session) and not marked:
                use = resource.getrusage(resource.RUSAGE_SELF)
                print(f"{_MARK} {use.ru_utime + use.ru_stime:.3f} {fsyncs[0]}", flush=True)
                marked.append(True)
                if linger <= 0:
                    os._exit(0)
                app.set_timer(linger, lambda: os._exit(0))

        app.set_interval(0.005, check)

    def run(app: VampireApp, **_: Any) -> Any:
        return App.run(app, headless=True, size=(100, 32))

    VampireApp.on_mount = on_mount  # type: ignore[method-assign, assignment]
    VampireApp.run = run  # type: ignore[method-assign, assignment]
    # The app runs headless here: the check that a person's screen has a terminal is not this run's.
    from tui.cli import play

    play.need_terminal = lambda *_: None  # type: ignore[attr-defined]
    return cli.main(["play", *argv])


def first_turn(args: list[str], timeout: float = 600.0, linger: float = 0.0) -> dict[str, Any]:
    """``vampire play ARGS`` as a new process, to its first turn (see the module docstring);
    ``linger``: seconds the process goes on after it (what a person's first game does after its
    first turn, such as filling caches, is done), 0 to end it at once. Raises RuntimeError when
    the process ends or times out first."""
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="vampire-bench-") as tmp:
        env = dict(os.environ, XDG_DATA_HOME=tmp, VAMPIRE_NO_DISCOVERY="1", PYTHONUNBUFFERED="1")
        env[_LINGER] = str(linger)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.setdefault("PYTHONPYCACHEPREFIX", str(Path(tempfile.gettempdir()) / "vampire-bench-pycache"))
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "bench.first_turn", "--child", *args],
            cwd=root,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                if line.startswith(_MARK):
                    wall = time.perf_counter() - start
                    _, cpu, fsyncs = line.split()
                    if linger > 0:
                        proc.wait(linger + 30)
                    return {"wall_s": round(wall, 3), "cpu_s": float(cpu), "fsyncs": int(fsyncs)}
                if time.perf_counter() - start > timeout:
                    break
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait(10)
    raise RuntimeError(f"vampire play {' '.join(args)} did not reach its first turn")


def second_start(args: list[str]) -> dict[str, Any]:
    """:func:`first_turn` of ``ARGS`` after one unmeasured run that goes on 5 s past its first turn,
    as a person's first game does (bytecode compiled, caches filled)."""
    first_turn(args, linger=5.0)
    return first_turn(args)


def run() -> dict[str, Any]:
    """The first-turn figures; see the module docstring for the keys and units."""
    queen = second_start([])
    vtes = second_start(["--game", "vtes", "--seats", "4"])
    return {
        "queen_4_s": queen["wall_s"],
        "queen_4_cpu_s": queen["cpu_s"],
        "vtes_4_s": vtes["wall_s"],
        "vtes_4_cpu_s": vtes["cpu_s"],
        "queen_4_fsyncs": queen["fsyncs"],
        "vtes_4_fsyncs": vtes["fsyncs"],
        "how": "vampire play as a new process, its app headless, its second start (bench.first_turn)",
    }


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        sys.exit(_child(sys.argv[2:]))
    print(json.dumps(run(), indent=2))
