"""Benchmarks of the version-2 deck at the table (PROTOCOL.md 6), for ``scripts/bench``.

:func:`run` returns a dict:

- ``tcp_deal``: for 4 and 8 seats, a Vampire Queen deal between separate ``vampire join --bot``
  processes and a host in this process over loopback TCP (:mod:`bench.procs`): ``deal_s``, wall
  seconds from the moment the table owes the first `key` to the moment it owes the first `move`
  (keys, every proven shuffle verified by the host and by every peer, every hand shared to its
  seat), split into ``keys_s``, ``shuffles_s``, ``shares_s``; ``cpu_s``: the CPU seconds the host
  and the bots used meanwhile (their sum; on 2 cores the wall time is at least half of it) and
  ``cpu_per_process_s`` (that sum over the seats and the host); ``critical_path_s``: the CPU
  seconds of the steps on the deal's longest chain of dependent steps (what players on their own
  computers wait for, network aside; :func:`bench.procs.critical_path`), with its steps
  (``critical_path_steps``: [who, what, CPU seconds]);
- ``shuffle_proof``: prove and verify of one shuffle of 108 and 90 cards (bench.pos).

:func:`between_rounds` and :func:`vtes_setup` give ``between_rounds_s`` and
``vtes.protocol.tcp_setup_5_s`` of ``scripts/bench`` (see each).

Run alone: ``python -m bench.deck`` prints the JSON (``--quick``: 4 seats only).
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any


def _owes(host: Any, kind: str) -> bool:
    return any(str(k) == kind for _, k in host.table.owed())


def _first_owed(run: Any, host: Any, name: str, kind: str, after: str | None = None) -> None:
    """Mark (``run.marks``: the wall ns and, under ``name + "_seq"``, the seq) the first append
    after which the host's table owes an entry of ``kind`` (after the mark ``after``, if given)."""
    if name not in run.marks and (after is None or after in run.marks) and _owes(host, kind):
        run.marks[name] = run.appended[-1].wall_ns
        run.marks[name + "_seq"] = run.appended[-1].seq


def _steps(steps: list[Any]) -> list[list[Any]]:
    """A chain's steps for the JSON: [who, what, CPU seconds], consecutive steps of the same
    process and kind merged."""
    out: list[list[Any]] = []
    for s in steps:
        if out and out[-1][0] == s.who and out[-1][1] == s.what:
            out[-1][2] = round(out[-1][2] + s.cpu_s, 3)
        else:
            out.append([s.who, s.what, round(s.cpu_s, 3)])
    return out


async def _tcp_deal(seats: int) -> dict[str, Any]:
    """One deal between ``seats`` bot processes and a host here (see the module docstring)."""
    from bench.procs import critical_path, run_table

    def on_append(host: Any, run: Any) -> None:
        _first_owed(run, host, "key", "key")
        _first_owed(run, host, "shuffle", "shuffle", after="key")
        _first_owed(run, host, "share", "share", after="shuffle")
        _first_owed(run, host, "move", "move", after="key")

    run = await run_table(
        "queen", seats, "random", lambda _h, r: "move" in r.marks, options={"rounds": 1}, on_append=on_append
    )
    m = run.marks
    cpu = run.cpu_between(m["key"], m["move"])
    path, steps = critical_path(run, m["key_seq"], m["move_seq"])
    return {
        "seats": seats,
        "deal_s": round((m["move"] - m["key"]) / 1e9, 3),
        "cpu_s": round(cpu, 3),
        "cpu_per_process_s": round(cpu / (seats + 1), 3),
        "critical_path_s": round(path, 3),
        "critical_path_steps": _steps(steps),
        "keys_s": round((m["shuffle"] - m["key"]) / 1e9, 3),
        "shuffles_s": round((m["share"] - m["shuffle"]) / 1e9, 3),
        "shares_s": round((m["move"] - m["share"]) / 1e9, 3),
    }


async def _tcp_between_rounds(seats: int = 4) -> dict[str, Any]:
    """A 2-round Vampire Queen game between ``seats`` bot processes and a host here, from the
    host's append of the last card of round 1 (the move after which the table owes the round's
    seed reveals) to the moment it owes the first move of round 2 (every hand of round 2 dealt):
    wall seconds, the CPU seconds of every process, the critical path."""
    from bench.procs import critical_path, run_table

    def on_append(host: Any, run: Any) -> None:
        if "last_card" not in run.marks and _owes(host, "seed-reveal"):
            last = run.appended[-1]  # the move whose card ended the round
            run.marks["last_card"], run.marks["last_card_seq"] = last.wall_ns, last.seq
        _first_owed(run, host, "next_hand", "move", after="last_card")

    run = await run_table(
        "queen", seats, "random", lambda _h, r: "next_hand" in r.marks, options={"rounds": 2}, on_append=on_append
    )
    m = run.marks
    path, steps = critical_path(run, m["last_card_seq"], m["next_hand_seq"])
    return {
        "seats": seats,
        "wall_s": round((m["next_hand"] - m["last_card"]) / 1e9, 3),
        "cpu_s": round(run.cpu_between(m["last_card"], m["next_hand"]), 3),
        "critical_path_s": round(path, 3),
        "critical_path_steps": _steps(steps),
    }


async def _tcp_vtes_setup(seats: int = 5) -> dict[str, Any]:
    """A VTES table's set-up between ``seats`` bot processes (each bringing a deck the game ships
    for bots) and a host here: from the host's append of `start` to the moment the game's step is
    ``play`` (deck sizes, the seating draw, every crypt and library keyed, encrypted and shuffled
    with its proofs verified by the host and every peer, the opening hands and crypt cards dealt):
    wall seconds, the CPU seconds of every process, the critical path."""
    from bench.procs import critical_path, run_table

    def on_append(host: Any, run: Any) -> None:
        last = run.appended[-1]
        if last.kind == "start":
            run.marks["start"], run.marks["start_seq"] = last.wall_ns, last.seq
        if "start" in run.marks and "play" not in run.marks and str(getattr(host.table.gstate, "step", "")) == "play":
            run.marks["play"], run.marks["play_seq"] = last.wall_ns, last.seq

    run = await run_table("vtes", seats, "heuristic", lambda _h, r: "play" in r.marks, on_append=on_append)
    m = run.marks
    path, _steps_of = critical_path(run, m["start_seq"], m["play_seq"])
    return {
        "seats": seats,
        "wall_s": round((m["play"] - m["start"]) / 1e9, 3),
        "cpu_s": round(run.cpu_between(m["start"], m["play"]), 3),
        "entries": m["play_seq"] - m["start_seq"],
        "critical_path_s": round(path, 3),
    }


def between_rounds() -> dict[str, Any]:
    """``between_rounds_s`` and its details (:func:`_tcp_between_rounds`, 4 seats)."""
    return asyncio.run(_tcp_between_rounds(4))


def vtes_setup() -> dict[str, Any]:
    """``vtes.protocol.tcp_setup_5_s`` and its details (:func:`_tcp_vtes_setup`, 5 seats)."""
    return asyncio.run(_tcp_vtes_setup(5))


def run(quick: bool = False) -> dict[str, Any]:
    """The deck benchmarks; see the module docstring for the keys and units."""
    from bench.pos import bench_shuffle

    return {
        "tcp_deal": [asyncio.run(_tcp_deal(n)) for n in ((4,) if quick else (4, 8))],
        "shuffle_proof": [bench_shuffle(n) for n in (108, 90)],
    }


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv[1:]), indent=2))
