"""A person and a bot at a VTES table over loopback TCP, each in a process of its own (`vampire host
--headless --bots 1` and a :mod:`tests.support.hand_agent` process): the person types `pool -5
<bot> for judge ruling` over and over from a client that checks nothing, and the bot disputes each,
saying why, its pool untouched (before, it accepted them and was ousted by typing); then the person
plays Personal Involvement and applies it by hand against the bot, naming it: accepted, up to the
3 pool its text prints (docs/vtes-by-hand.md, "A bot's answer"). The log ends clean in the audit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engine.audit import audit_file
from engine.games import all_rules
from tests.support.hand_table import QUICK, ROOT, Person, until
from tests.support.net import free_port
from tests.support.vtes_fight import PRINCE

DRAINS = 8
"""Claims of 5 pool in free words: 40 pool, more than a bot's 30."""


def test_a_bot_over_tcp_is_not_drained_by_typing_and_takes_a_card_applied_by_hand(tmp_path: Path) -> None:
    deck = tmp_path / "ann.txt"
    deck.write_text(f"Crypt (12 cards)\n12x {PRINCE}\n\nLibrary (60 cards)\n60x Personal Involvement\n")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1"}
    save, port = tmp_path / "vtes.vtlog", free_port()
    args = ["--game", "vtes", "--seats", "2", "--bots", "1", "--bind", "127.0.0.1", "--port", str(port)]
    with open(tmp_path / "host.out", "wb") as out:
        host = subprocess.Popen(
            [sys.executable, "-m", "tui.cli", "host", "--headless", *args, "--save", str(save), *QUICK],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    ann: Person | None = None
    try:
        until(save.exists, "the host's log")
        agent = [sys.executable, "-m", "tests.support.hand_agent", str(port), "Ann", str(deck), str(tmp_path / "ann")]
        with open(tmp_path / "ann.err", "ab") as err:
            proc = subprocess.Popen(
                agent, cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True
            )
        ann = Person("Ann", proc)
        bot = 1 - ann.seat

        def anns_turn() -> bool:
            look = ann.look()
            if look["acting"] == ann.seat and look["phase"] != "none":
                return True
            for answer in ({"do": "pass"}, {"do": "done"}):  # the bot's turn may wait for Ann's answer
                ann.act(answer)
            return False

        until(anns_turn, "Ann's turn")
        pool = ann.look()["pools"][bot]
        for _ in range(DRAINS):
            assert ann.act({"do": "pool", "seat": bot, "delta": -5, "cause": "judge ruling"}, raw=True) == {"ok": True}
        claims = until(lambda: [c for c in ann.look()["claims"] if c[4] == [bot]], "the bot's disputes")
        until(lambda: len([c for c in ann.look()["claims"] if c[4] == [bot]]) == DRAINS, "every dispute")
        look = ann.look()
        assert look["pools"][bot] == pool and look["status"][bot] == "in"
        assert all(c[3] == "pending" for c in look["claims"])  # held by the dispute, never taken

        # Personal Involvement played from the hand (face up as it is played), then applied by hand.
        while ann.look()["phase"] != "master":
            assert ann.act({"do": "phase"}) == {"ok": True}
        card = ann.look()["hand"][0]
        assert ann.act({"do": "play", "card": card, "pool": 3}) == {"ok": True}
        until(lambda: card in ann.look()["public"], "the card face up")
        pool = ann.look()["pools"][bot]
        # (The master card waits for the bot's answer, a pass or a cancel, before Ann acts again.)
        until(
            lambda: ann.act({"do": "pool", "seat": bot, "delta": -3, "cause": "Personal Involvement"}) == {"ok": True},
            "Ann's impulse back",
        )
        until(lambda: ann.look()["pools"][bot] == pool - 3, "the bot's acceptance")
        assert ann.act({"do": "pool", "seat": bot, "delta": -1, "cause": "Personal Involvement"}) == {"ok": True}
        until(lambda: len([c for c in ann.look()["claims"] if c[4] == [bot]]) == DRAINS + 1, "the dispute of a fourth")
        assert ann.look()["pools"][bot] == pool - 3
    finally:
        if ann is not None:
            ann.stop()
        host.terminate()
        host.wait(20)
    said = (tmp_path / "host.out").read_text(errors="replace")
    reason = "cause: judge ruling): no card named: a bot takes no pool on your word; it takes no effect"
    assert said.count(reason) == DRAINS, said[-2000:]
    reason = "cause: Personal Involvement): its card does at most 3 a turn: Personal Involvement;"
    assert said.count(reason) == 1, said[-2000:]
    assert claims
    report = audit_file(save, all_rules())
    assert report.fault is None, report.text()
