"""``scripts/bench``: the benchmarks, printed as one JSON object (DESIGN.md, "Quality bars").

- ``queen_engine``: complete 4-seat Vampire Queen games per second with random bots (simulation:
  the rules engine and the in-memory stand-in for the table, no cryptography), and moves per second;
- ``deal``: one full Vampire Queen deal (joint draw of the dealer, keys, proven shuffles, every
  hand shared to its seat) with every seat and the host in one process, each folding and checking
  every entry: wall and CPU seconds, for 4 and 8 seats, once as ``vampire play`` runs (the
  per-process proof memo on, and the proofs this process made trusted without being verified
  again: ``own_proofs_trusted``) and once with every folder verifying every proof itself;
- ``queen``: the rollout engine's and the rules engine's games and moves per second (with the rules
  engine's figure before it was tuned), and the expert bot's simulations per second and mean time
  per decision (:mod:`bench.queen`);
- ``audit``: entries per second, and seconds for a whole 5-round 4-seat game (``audit_s``, in this
  process with nothing made or verified while playing remembered, as in a new process; ``cli_s``,
  ``vampire audit FILE`` run as a new process); its log size in bytes; ``vtes_game_s``: ``vampire
  audit FILE`` of a whole 4-seat VTES game (``vtes_game_entries`` entries), ``vtes_game_strict_s``
  the same with ``--strict``; each command's CPU seconds beside it (``cli_cpu_s``,
  ``vtes_game_cpu_s``, ``vtes_game_strict_cpu_s``: user + system, all threads);
- ``result_s``: ``vampire result FILE`` of that VTES game, as a new process (each command's second
  start: an unmeasured run first compiles the bytecode, as bench.first_turn does), and its CPU
  seconds ``result_cpu_s``;
- ``net`` (when the network layer provides it): move latency over loopback and a deal between
  separate processes;
- ``internet``: play across the internet (iroh) beside TCP, inside a network namespace of its
  own, relays off (:mod:`bench.internet`): ``move_latency_ms`` of a 4-process Vampire Queen game
  over each, and ``catch_up_1mb``: a 1 MiB catch-up to 1 and to 8 guests (wall milliseconds, and
  the longest the host's loop was held, in its thread's CPU milliseconds); ``{"skipped": why}``
  where namespaces or iroh are missing;
- ``deck_v2``: version 2's deck (bench.deck): 4- and 8-seat deals between processes over TCP (with
  each deal's critical path), and prove/verify of one shuffle of 108 and 90 cards;
- ``between_rounds_s``: Vampire Queen, 4 bot processes and a host over TCP, from the last card of
  round 1 to the moment every hand of round 2 is dealt (``between_rounds``: its CPU and critical
  path; bench.deck);
- ``first_turn``: ``vampire play`` as a new process to the person's first turn: ``queen_4_s``
  (Vampire Queen, 4 seats, to "Your turn.") and ``vtes_4_s`` (``--game vtes --seats 4``, to the
  first phase of the first turn), with their CPU seconds (bench.first_turn: the real command,
  its app headless, its second start);
- ``vtes.protocol.tcp_setup_5_s``: a 5-seat VTES set-up between 5 bot processes and a host over
  TCP (``vtes.protocol.tcp_setup_5``: its CPU and critical path; bench.deck).

``scripts/bench --quick`` runs smaller samples; ``--only SECTION,…`` runs only those top-level
keys (:data:`SECTIONS`; ``--help`` lists them).
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def bench_engine(games: int) -> dict[str, Any]:
    from engine.bots import RandomBot
    from engine.games.queen import GAME
    from engine.sim import play_game

    moves = 0
    start = time.perf_counter()
    for g in range(games):
        bots = [RandomBot(random.Random(g * 10 + s)) for s in range(4)]
        moves += play_game(GAME, bots, seed=g).moves
    took = time.perf_counter() - start
    return {"games": games, "games_per_s": round(games / took, 2), "moves_per_s": round(moves / took)}


def bench_deal(seats: int, memo: bool = True) -> dict[str, Any]:
    """One deal with the host and every seat folding in this process. ``memo``: proofs already
    verified in this process are not verified again (engine.protocol.group.VERIFY_MEMO, as in ``vampire
    play``); without it every folder makes every check itself (as peers in separate processes do)."""
    from engine.local import new_local_game
    from engine.protocol import group

    own = getattr(group, "OWN_PROOFS", None)  # absent before the own-proof registry existed
    group.VERIFY_MEMO.enabled = memo
    group.VERIFY_MEMO._memo.clear()
    if own is not None:
        own.enabled = memo
        own.clear()
    local = new_local_game("queen", ["random"] * seats, seed=seats)
    wall = time.perf_counter()
    cpu = time.process_time()
    while local.table.gstate.phase != "play":
        local.step()
    out = {
        "seats": seats,
        "wall_s": round(time.perf_counter() - wall, 3),
        "cpu_s": round(time.process_time() - cpu, 3),
        "entries": len(local.table.entries),
        "folders": seats + 1,
        "proofs_verified_once_per_process": memo,
        "own_proofs_trusted": memo and own is not None,
    }
    group.VERIFY_MEMO.enabled = True
    if own is not None:
        own.enabled = True
    return out


def _forget_proofs() -> None:
    """Forget every proof made or verified in this process (as a new process starts)."""
    from engine.protocol import group

    group.VERIFY_MEMO._memo.clear()
    own = getattr(group, "OWN_PROOFS", None)
    if own is not None:
        own.clear()


def _command_s(*args: str) -> float | None:
    """Wall seconds of ``vampire ARGS`` run as a new process (:func:`_command`)."""
    return _command(*args)[0]


def _command(*args: str) -> tuple[float | None, float | None]:
    """Wall and CPU seconds (the child's user + system time, all its threads) of ``vampire ARGS``
    run as a new process (None, None when it fails: a command this version does not have), its
    second start: an unmeasured run first compiles the bytecode (into the bench's own folder,
    ``PYTHONPYCACHEPREFIX``, as bench.first_turn does). The CPU figure holds on a loaded machine,
    where the wall figure does not."""
    import os
    import resource
    import subprocess

    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, VAMPIRE_NO_DISCOVERY="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("PYTHONPYCACHEPREFIX", str(Path(tempfile.gettempdir()) / "vampire-bench-pycache"))
    subprocess.run([sys.executable, "-m", "tui.cli", *args], cwd=root, env=env, capture_output=True, check=False)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "tui.cli", *args], cwd=root, env=env, capture_output=True, check=False)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - used.ru_utime) + (after.ru_stime - used.ru_stime)
    return (round(took, 3), round(cpu, 3)) if done.returncode == 0 else (None, None)


def bench_audit(rounds: int) -> dict[str, Any]:
    from engine.audit import audit_file
    from engine.games import all_rules
    from engine.local import new_local_game

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.vtlog"
        start = time.perf_counter()
        local = new_local_game("queen", ["heuristic"] * 4, {"rounds": rounds}, save=path, seed=7)
        local.run()
        played = time.perf_counter() - start
        _forget_proofs()
        start = time.perf_counter()
        report = audit_file(path, all_rules())
        took = time.perf_counter() - start
        assert report.code == 0, report.text()
        return {
            "rounds": rounds,
            "entries": report.entries,
            "audit_s": round(took, 3),
            "entries_per_s": round(report.entries / took),
            "log_bytes": path.stat().st_size,
            "game_through_protocol_s": round(played, 2),
            **_keyed("cli", _command("audit", str(path))),
        }


def _keyed(name: str, figures: tuple[float | None, float | None]) -> dict[str, float | None]:
    """``{name_s: wall, name_cpu_s: CPU}`` of a :func:`_command` figure."""
    return {f"{name}_s": figures[0], f"{name}_cpu_s": figures[1]}


def bench_vtes_log(seats: int = 4) -> dict[str, Any]:
    """A whole VTES game of heuristic bots through the protocol, saved; then ``vampire audit``,
    ``vampire audit --strict`` and ``vampire result`` of its log, each as a new process."""
    from engine.local import new_local_game

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "vtes.vtlog"
        local = new_local_game("vtes", ["heuristic"] * seats, save=path, seed=5)
        local.run()
        assert local.table.ended, "the VTES bench game did not end"
        return {
            "vtes_game_entries": len(local.table.entries),
            **_keyed("vtes_game", _command("audit", str(path))),
            **_keyed("vtes_game_strict", _command("audit", "--strict", str(path))),
            **_keyed("result", _command("result", str(path))),
        }


def bench_vtes_table() -> dict[str, Any]:
    """A 5-seat VTES table through the protocol: set-up (every crypt and library: keys, deck and
    proven shuffles; opening hands and crypt cards opened to their owners), then one draw's latency
    (the act, every other seat's share, the owner's decode), every seat and the host folding
    everything."""
    from engine.local import new_local_game

    local = new_local_game("vtes", ["heuristic"] * 5, seed=11)
    wall = time.perf_counter()
    cpu = time.process_time()
    while local.table.gstate.step != "play":
        local.step()
    setup = {
        "wall_s": round(time.perf_counter() - wall, 3),
        "cpu_s": round(time.process_time() - cpu, 3),
        "entries": len(local.table.entries),
    }
    seat = local.seats[local.table.gstate.acting]
    before = len(seat.known)
    wall = time.perf_counter()
    local.submit(seat, "move", seat.move_body({"do": "draw"}))
    while len(seat.known) == before:
        local.step()
    return {"setup_5_seats": setup, "draw_latency_s": round(time.perf_counter() - wall, 4)}


#: The sections :func:`main` can run alone (``--only``), in the order they run: each names the
#: top-level keys it writes (``audit`` and ``result_s`` share the VTES game they read; ``vtes``
#: holds ``vtes.protocol.tcp_setup_5_s``).
SECTIONS = (
    "queen_engine",
    "deal",
    "audit",
    "result_s",
    "queen",
    "net",
    "internet",
    "deck_v2",
    "between_rounds_s",
    "first_turn",
    "vtes",
)

USAGE = f"""usage: scripts/bench [--quick] [--only SECTION[,SECTION…]]

Prints the benchmarks as one JSON object (bench.run's docstring says what each key measures).
  --quick   smaller samples
  --only    run only these sections (top-level keys): {", ".join(SECTIONS)}
"""


def _sections(argv: list[str]) -> set[str]:
    """The sections ``argv`` asks for (every one without ``--only``). Raises SystemExit with the
    usage for an unknown argument or section."""
    wanted = set(SECTIONS)
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--quick":
            continue
        if arg == "--only" and args:
            wanted = {w.strip() for w in args.pop(0).split(",") if w.strip()}
            unknown = sorted(wanted - set(SECTIONS))
            if unknown or not wanted:
                raise SystemExit(f"scripts/bench: no section {', '.join(unknown) or '(none given)'}\n{USAGE}")
            continue
        raise SystemExit(USAGE if arg in ("-h", "--help") else f"scripts/bench: unknown argument {arg}\n{USAGE}")
    return wanted


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if any(a in ("-h", "--help") for a in argv):
        print(USAGE, end="")
        return 0
    quick = "--quick" in argv
    only = _sections(argv)
    out: dict[str, Any] = {"python": sys.version.split()[0]}
    if "queen_engine" in only:
        out["queen_engine"] = bench_engine(20 if quick else 200)
    if "deal" in only:
        out["deal"] = [bench_deal(4), bench_deal(8), bench_deal(4, memo=False), bench_deal(8, memo=False)]
    if "audit" in only:
        out["audit"] = bench_audit(1 if quick else 5)
    if only & {"audit", "result_s"}:
        vtes_log = bench_vtes_log()
        result, result_cpu = vtes_log.pop("result_s"), vtes_log.pop("result_cpu_s")
        if "result_s" in only:
            out["result_s"] = result
            out["result_cpu_s"] = result_cpu
        if "audit" in only:
            out["audit"].update(vtes_log)
    if "queen" in only:
        from bench import queen as bench_queen

        out["queen"] = bench_queen.run(quick=quick)
    if "net" in only:
        try:
            from bench import net as bench_net
        except ImportError:
            pass
        else:
            out["net"] = bench_net.run()
    if "internet" in only:
        from bench import internet as bench_internet

        out["internet"] = bench_internet.run()
    from bench import deck as bench_deck

    if "deck_v2" in only:
        out["deck_v2"] = bench_deck.run(quick=quick)
    if "between_rounds_s" in only:
        rounds = bench_deck.between_rounds()
        out["between_rounds_s"] = rounds["wall_s"]
        out["between_rounds"] = rounds
    if "first_turn" in only:
        from bench import first_turn

        out["first_turn"] = first_turn.run()
    if "vtes" in only:
        try:
            from engine.games.vtes import bench as vtes_bench  # type: ignore[attr-defined]
        except ImportError:
            pass
        else:
            out["vtes"] = vtes_bench.run(quick=quick)
            out["vtes"]["protocol"] = bench_vtes_table()
        setup = bench_deck.vtes_setup()
        protocol = out.setdefault("vtes", {}).setdefault("protocol", {})
        protocol["tcp_setup_5_s"] = setup["wall_s"]
        protocol["tcp_setup_5"] = setup
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
