"""TEST ONLY: a VTES table of real processes over loopback where one seat stalls
(:mod:`tests.support.staller`), and how long it held the table.

``python -m tests.support.stall_table [--window action|combat|referendum|turn] [--accomplice]
[--by-hand N] [--vote-after S] [--limit S] [--root DIR]`` runs one table and prints what it
measured as JSON: the seconds from the moment the staller stalled to the entry that recorded it as
having abandoned (None: not within ``--limit``), whether the game ended and the audit's code.
``--root`` runs the program found in another copy of the repository (a version before a change);
``--attacks`` runs the three attacks of :data:`ATTACKS` in turn, a JSON line each (``--vote-after
30``: the table's own wait before a vote, and the bots' vote when it opens).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from tests.support.cli import child_env

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "engine" / "games" / "vtes" / "data"
QUICK = ["--ping", "0.5", "--backoff-max", "0.4"]


@dataclass(frozen=True)
class Held:
    """What one stalled table gave: ``stalled``: the staller stalled (in a window of ``window``);
    ``held``: seconds from then to the entry that recorded it as having abandoned (None: not
    within the limit); ``votes``: abandon votes cast for it once it stalled; ``by_hand``: its changes by hand
    while it stalled; ``ended``: the game ended; ``audit``: the audit's exit code (None: not run);
    ``went_on``: a turn began after it was voted out (the table went on without it);
    ``unwaited_kib``: the longest run of the log, in KiB, during which the table waited on none of
    a seat still playing's entries (how far a seat still playing can fall behind before the table
    waits on it)."""

    stalled: bool
    window: str
    held: float | None
    votes: int
    by_hand: int
    ended: bool
    audit: int | None
    went_on: bool = False
    unwaited_kib: float | None = None


def stall_table(
    tmp: Path,
    window: str = "action",
    accomplice: bool = False,
    by_hand: float = 0.0,
    vote_after: float = 8.0,
    limit: float = 60.0,
    root: Path = ROOT,
    setup_limit: float = 240.0,
    to_the_end: bool = True,
) -> Held:
    """Run a four-seat VTES table: a headless host, the staller and three heuristic bot processes
    that vote to abandon a seat the table waited on for ``vote_after`` s (with ``accomplice``, one
    of them never votes). Stops ``limit`` s after the staller stalled, or when the game ends, or
    (``to_the_end`` False) once a turn has begun after the staller was voted out."""
    tmp.mkdir(parents=True, exist_ok=True)
    env = child_env(tmp)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), str(ROOT)) if p)
    port = _free_port()
    save = tmp / "table.vtlog"
    procs: list[subprocess.Popen[bytes]] = []

    def spawn(args: list[str], name: str) -> subprocess.Popen[bytes]:
        with open(tmp / f"{name}.out", "wb") as out:
            procs.append(
                subprocess.Popen(
                    [sys.executable, *args],
                    cwd=root,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                )
            )
        return procs[-1]

    cli = ["-m", "tui.cli"]
    spawn(
        [
            *cli,
            "host",
            "--headless",
            "--game",
            "vtes",
            "--seats",
            "4",
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--save",
            str(save),
            "--rule",
            f"stall_seconds={int(vote_after)}",  # the votes open when the bots cast them
            *QUICK,
        ],
        "host",
    )
    staller_args = [
        "-m",
        "tests.support.staller",
        f"127.0.0.1:{port}",
        "--window",
        window,
        "--state",
        str(tmp / "staller"),
    ]
    if by_hand:
        staller_args += ["--by-hand", str(by_hand)]
    decks = sorted(DECKS.glob("*.txt"))
    if window == "referendum":  # decks of political actions, so referendums are called
        decks = [DECKS / "usurper_high_council.txt", DECKS / "malkavian_politics.txt"] * 2
    try:
        staller = spawn(staller_args, "staller")
        bots = []
        for i in range(3):
            votes = 1e9 if accomplice and i == 2 else vote_after
            bots.append(
                spawn(
                    [
                        *cli,
                        "join",
                        f"127.0.0.1:{port}",
                        "--bot",
                        "heuristic",
                        "--deck",
                        str(decks[i]),
                        "--name",
                        f"Bot {i}",
                        "--state",
                        str(tmp / f"p{i}"),
                        "--quiet",
                        "--stall-after",
                        "1",
                        "--abandon-after",
                        str(votes),
                        *QUICK,
                    ],
                    f"bot{i}",
                )
            )
        stalled_at = _wait_for_stall(tmp / "staller.out", staller, setup_limit)
        if stalled_at is not None:
            deadline = time.monotonic() + limit
            while time.monotonic() < deadline and any(b.poll() is None for b in bots):
                if not to_the_end and _went_on(tmp / "host.out"):
                    break
                time.sleep(0.2)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(10)
    out = (tmp / "staller.out").read_text(errors="replace")
    held = _measure(save, stalled_at, window, out.count("BYHAND "), root, env)
    return replace(held, went_on=_went_on(tmp / "host.out"))


def _went_on(host_out: Path) -> bool:
    """The host's narration holds a turn begun after a seat abandoned the game."""
    _, gone, after = host_out.read_text(errors="replace").partition("abandoned the game")
    return bool(gone) and re.search(r"\] Turn \d+: ", after) is not None


def _wait_for_stall(out: Path, proc: subprocess.Popen[bytes], limit: float) -> float | None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and proc.poll() is None:
        for line in out.read_text(errors="replace").splitlines():
            if line.startswith("STALLING "):
                return int(line.split()[2]) / 1000
        time.sleep(0.2)
    return None


def _measure(save: Path, stalled_at: float | None, window: str, by_hand: int, root: Path, env: dict[str, str]) -> Held:
    code = (
        "import json, sys\n"
        "from engine.games import all_rules\n"
        "from engine.protocol.log import read_log\n"
        "from engine.table import Table\n"
        "from engine.protocol.log import encode_frame\n"
        "t = Table(all_rules())\n"
        "gone = None; votes = []; run = {}; longest = 0\n"
        "log = read_log(sys.argv[1])\n"
        "for e in log.entries:\n"
        "    before = set(t.abandoned)\n"
        "    t.apply(e)\n"
        "    if gone is None and e.kind == 'abandon' and e.time >= float(sys.argv[2]): votes.append(e.body['seat'])\n"
        "    if gone is None and set(t.abandoned) != before: gone = e.time; out = (set(t.abandoned) - before).pop()\n"
        "    if t.phase == 'running':\n"
        "        waited = set(t.waiting_on()); n = len(encode_frame(e))\n"
        "        run = {s: 0 if s in waited else run.get(s, 0) + n for s in t.playing()}\n"
        "        longest = max([longest, *run.values()])\n"
        "print(json.dumps({'gone': gone, 'votes': votes.count(out) if gone else 0, 'ended': t.ended,\n"
        "                  'unwaited': round(longest / 1024, 1)}))\n"
    )
    if not save.exists() or stalled_at is None:
        return Held(stalled_at is not None, window, None, 0, by_hand, False, None)
    folded = subprocess.run(
        [sys.executable, "-c", code, str(save), str(stalled_at * 1000)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    facts = json.loads(folded.stdout.strip().splitlines()[-1]) if folded.returncode == 0 else {}
    audit = subprocess.run(
        [sys.executable, "-m", "tui.cli", "audit", str(save)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    gone = facts.get("gone")
    held = None if gone is None else round(gone / 1000 - stalled_at, 1)
    return Held(
        True,
        window,
        held,
        facts.get("votes", 0),
        by_hand,
        bool(facts.get("ended")),
        audit.returncode,
        unwaited_kib=facts.get("unwaited"),
    )


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


ATTACKS = {
    "silent": {},
    "accomplice": {"accomplice": True},
    "by-hand": {"by_hand": 5.0},
}
"""The three ways a seat held a VTES table (``--attacks``): it goes silent holding an action's
impulse; the same with one accomplice that never votes; the same making a change by hand to its
own pool every 5 s (11 such acts in 60 s were measured before the wait ignored them)."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--window", choices=("any", "action", "combat", "referendum", "turn"), default="action")
    parser.add_argument("--accomplice", action="store_true")
    parser.add_argument("--by-hand", type=float, default=0.0)
    parser.add_argument("--vote-after", type=float, default=8.0)
    parser.add_argument("--limit", type=float, default=60.0)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--tmp", type=Path, required=True)
    parser.add_argument(
        "--attacks", action="store_true", help="run each of ATTACKS in turn (a table each, in --tmp/<name>)"
    )
    args = parser.parse_args()
    if args.attacks:
        for name, attack in ATTACKS.items():
            options: dict[str, Any] = {"window": args.window, "vote_after": args.vote_after, "limit": args.limit}
            options |= {"setup_limit": 600.0}  # a four-seat deal on a loaded machine
            held = stall_table(args.tmp / name, **(options | attack), root=args.root)
            print(json.dumps({"attack": name, **asdict(held)}), flush=True)
        return 0
    held = stall_table(args.tmp, args.window, args.accomplice, args.by_hand, args.vote_after, args.limit, args.root)
    print(json.dumps(asdict(held)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
