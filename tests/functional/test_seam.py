"""The seam between the table and the games (DESIGN.md, "Games behind one interface"): High Card,
a game with hidden hands that exists only in the test suite (``tests/seamgame``), is played
everywhere a shipped game is, with nothing outside its package knowing it. A fixture registers it
(``high_card``: in this process, and as an installed plugin, its entry points on the
``PYTHONPATH`` of every child process):

- whole games in simulation, in-process and with ``vampire simulate``;
- through the signed log and the deck protocol, in-process and with ``vampire simulate --protocol``;
- over TCP, a headless host and three bot clients in separate processes;
- every saved log audits clean (``vampire audit``) and reads back as text (``vampire replay --text``).
"""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from engine.audit import audit_file
from engine.games import all_rules
from engine.games.spec import GameSpec
from engine.local import new_local_game
from engine.sim import play_game
from engine.table import TableRefusal
from tests.seamgame.rules import DECK
from tests.support.net import free_port

if TYPE_CHECKING:
    from tests.functional.conftest import Vampire

NAME = "highcard"
DIGEST = re.compile(r"state digest ([0-9a-f]{64})")
#: Every entry kind a High Card game writes: a joint draw (the first leader), one shuffle event
#: dealt by shares, cards opened by moves, the event's seeds revealed at the end.
KINDS = {
    "table",
    "join",
    "start",
    "rand-commit",
    "rand-reveal",
    "key",
    "shuffle",
    "share",
    "move",
    "seed-reveal",
    "end",
}


def levels(spec: GameSpec, seats: int) -> list[str]:
    return [spec.default_bot] + [spec.filler_bot] * (seats - 1)


def audits_clean(vampire: Vampire, log: Path) -> str:
    """``vampire audit LOG`` exits 0 with a clean report of a finished High Card game; its text."""
    done = vampire.run("audit", str(log))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("CLEAN:") and "High Card" in done.stdout, done.stdout
    assert "each recomputed from its author's seed" in done.stdout and "result:" in done.stdout
    return done.stdout


def replays_as_text(vampire: Vampire, log: Path, tricks: int) -> list[str]:
    """``vampire replay LOG --text`` prints the whole game: the table, every trick, the end."""
    done = vampire.run("replay", str(log), "--text")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert "of High Card" in lines[0], lines[0]
    assert sum(" wins the trick with the " in line for line in lines) == tricks
    assert any(" was dealt: " in line for line in lines)  # the hands, once the seeds are revealed
    assert "The host closes the table." in lines[-1]
    assert not any("REFUSED" in line for line in lines)
    return lines


def test_high_card_is_no_game_of_vampire_until_a_fixture_registers_it(vampire):
    done = vampire.run("simulate", "--game", NAME)
    assert done.returncode != 0 and NAME in done.stderr


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_whole_games_in_simulation(high_card, seats):
    game = high_card.rules()
    for seed in range(5):
        bots = [high_card.bot(level, random.Random(seed * 10 + s)) for s, level in enumerate(levels(high_card, seats))]
        record = play_game(game, bots, seed=seed)
        result = record.result
        assert record.moves == 3 * seats  # three tricks, one card each
        assert sum(result.scores) == 3
        assert result.winners == tuple(s for s in range(seats) if result.scores[s] == max(result.scores))
        text = [note.render([f"P{s}" for s in range(seats)]) for note in record.notes]
        assert sum(" wins the trick with the " in line for line in text) == 3


def test_vampire_simulate_plays_high_card(vampire, high_card):
    done = vampire.run("simulate", "--game", NAME, "--games", "20", "--bots", "greedy,random,random")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("High Card: 3 seats, 20 games"), out
    assert "mean tricks" in out and "the most tricks wins" in out
    rows = [line.split() for line in out.splitlines() if re.match(r"\S+\s+(greedy|random)\s", line)]
    assert [row[1] for row in rows] == ["greedy", "random", "random"]
    # Every game was won or shared; wins print with one decimal.
    assert sum(float(row[2]) for row in rows) == pytest.approx(20, abs=0.15)


def test_high_card_through_the_signed_log_and_the_deck_protocol(high_card, tmp_path):
    log = tmp_path / "table.vtlog"
    local = new_local_game(NAME, levels(high_card, 4), {"tricks": 2}, save=log, secrets_dir=tmp_path, seed=7)
    table = local.table
    while table.gstate.phase != "play":
        assert local.step(), "the deal did not finish"
    # Dealt and nothing played: each seat knows its own two cards and nothing else of the deck.
    for s, seat in enumerate(local.seats):
        assert set(seat.known_cards()) == set(table.gstate.hands[s])
        assert all(card is not None for _, card in seat.view().hand)
    # The table asks the game whether a move is legal, and refuses it with the game's sentence.
    leader = local.seats[table.gstate.turn]
    with pytest.raises(TableRefusal, match="High Card has one act"):
        local.submit(leader, "move", {"act": {"do": "pass"}, "open": []})
    local.run()
    assert table.ended and table.fault is None
    assert {entry.kind for entry in table.entries} >= KINDS
    result = table.game.result(table.gstate)
    assert result is not None and sum(result.scores) == 2
    # Every seat folded the same table as the host, and saw the whole deck only at the end.
    assert {seat.table.digest() for seat in local.seats} == {table.digest()}
    assert sorted(table.events[0].cards) == sorted(DECK)
    assert audit_file(log, all_rules()).code == 0


def test_vampire_simulate_protocol_saves_logs_that_audit_and_replay(vampire, high_card, tmp_path):
    out = tmp_path / "games"
    done = vampire.run("simulate", "--game", NAME, "--protocol", "--games", "2", "--seats", "5", "--save", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "High Card: 5 seats, 2 games through the signed log" in done.stdout
    for g in range(2):
        log = out / f"game-{g}.vtlog"
        assert re.search(rf"^game {g}: .* (wins|share the win) with \d tricks?\.", done.stdout, re.M), done.stdout
        audits_clean(vampire, log)
        replays_as_text(vampire, log, tricks=3)


def test_a_headless_host_and_three_bot_processes_play_high_card_over_tcp(vampire, high_card, tmp_path):
    port, save = free_port(), tmp_path / "host.vtlog"
    where = ["--bind", "127.0.0.1", "--port", str(port), "--save", str(save)]
    host = vampire.start("host", "--headless", "--game", NAME, "--seats", "3", *where, name="host")
    # Bots that start before the host listens retry with their back-off.
    clients = [
        vampire.start(
            "join", f"127.0.0.1:{port}", "--bot", level, "--state", str(tmp_path / f"client{i}"), name=f"c{i}"
        )
        for i, level in enumerate(["greedy", "random", "greedy"])
    ]
    for proc in [*clients, host]:
        try:
            proc.wait(timeout=90)
        except subprocess.TimeoutExpired:
            pytest.fail(f"a process did not finish\n{vampire.outputs()}")
        assert proc.returncode == 0, vampire.outputs()
    host_bytes = save.read_bytes()
    for i in range(3):
        assert (tmp_path / f"client{i}" / "table.vtlog").read_bytes() == host_bytes, f"client {i}'s log differs"
    digests = {DIGEST.findall(vampire.output(name))[-1] for name in ("host", "c0", "c1", "c2")}
    assert len(digests) == 1, vampire.outputs()
    report = audits_clean(vampire, save)
    assert "High Card" in vampire.output("host") and "seat 2:" in report
    replays_as_text(vampire, save, tricks=3)
