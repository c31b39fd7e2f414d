"""A VTES table over TCP between separate processes: `vampire host
--headless --game vtes` and five `vampire join --bot heuristic --deck FILE`, each with its own deck
file; the game plays to its end by ousts and the host's log passes the audit, deck lists included."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from engine.audit import audit_file
from engine.games import all_rules as games
from engine.protocol.log import read_log
from tests.support.net import free_port

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "engine" / "games" / "vtes" / "data"
QUICK = ["--ping", "0.5", "--backoff-max", "0.4"]


def test_a_vtes_table_of_bot_processes_with_their_own_deck_files_plays_to_its_end(tmp_path):
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1"}
    save = tmp_path / "vtes.vtlog"
    procs = []

    def spawn(args, name):
        out = open(tmp_path / f"{name}.out", "wb")
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "tui.cli", *args],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        )
        out.close()
        return procs[-1]

    spawn(
        [
            "host",
            "--headless",
            "--game",
            "vtes",
            "--seats",
            "5",
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--save",
            str(save),
            *QUICK,
        ],
        "host",
    )
    decks = sorted(DECKS.glob("*.txt"))[:5]
    try:
        for i, deck in enumerate(decks):
            spawn(
                [
                    "join",
                    f"127.0.0.1:{port}",
                    "--bot",
                    "heuristic",
                    "--deck",
                    str(deck),
                    "--name",
                    f"Bot {i}",
                    "--state",
                    str(tmp_path / f"p{i}"),
                    "--quiet",
                    *QUICK,
                ],
                f"client{i}",
            )
        # No bound on the game's length (a loaded machine plays it slowly): only on a table that
        # stops moving, 240 s with no new entry in the host's log.
        grown, deadline = -1, 0.0
        while any(p.poll() is None for p in procs[1:]):
            size = save.stat().st_size if save.exists() else 0
            if size != grown:
                grown, deadline = size, time.monotonic() + 240
            if time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert all(p.poll() == 0 for p in procs[1:]), [
            (tmp_path / f"client{i}.out").read_text()[-500:] for i in range(5)
        ]
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                p.wait(10)
    report = audit_file(save, games())
    assert report.code == 0, report.text()
    assert report.game.startswith("Vampire: The Eternal Struggle")
    assert "wins" in report.result or "no winner" in report.result
    # Every crypt and library, recomputed from the seeds and lists, and any library a card
    # reshuffled (a new event of its own): none left unchecked.
    assert report.checked_events >= 10 and not report.unchecked, report.text()
    host_log = read_log(save)
    # Every peer's copy of the log is the host's, byte for byte.
    for i in range(5):
        assert read_log(tmp_path / f"p{i}" / "table.vtlog").entries == host_log.entries
