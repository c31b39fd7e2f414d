"""A VTES table's result for an organiser (shared/rules/vtes.md, "Tournament rules"): ``vampire
result`` as text, CSV and JSON, with round and table numbers and the players' VEKN ids: a seat
fact of the game (engine.games.base.SeatFact), which a profile carries and a `join` records
(docs/protocol.md 4.1; engine/kits.py, engine/paths.py, engine/table/lobby.py)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from engine.games.spec import ResultFormat, TablePlace
from engine.games.vtes.scoring import player_results, result_table, result_text
from engine.games.vtes.spec import VEKN as VEKN_ID
from engine.kits import profile_facts
from engine.local import new_local_game
from engine.paths import Profile, ProfileError, load_profile, profile_path, save_profile
from engine.protocol.identity import new_key
from engine.protocol.log import read_log
from engine.protocol.secrets import SecretsFile
from engine.seat import Seat
from engine.sequencer import Sequencer
from engine.table import TableRefusal
from tests.support.protocol import GAMES
from tui.cli import main

VEKN = ("1003456", None, "42", "9999999999")


def profile_vekn(name, given=None, base=None):
    """The VEKN id profile ``name`` plays a VTES table under (``given``: a ``--vekn`` option)."""
    return profile_facts(name, {"vekn": given}, "vtes", base).get("vekn")


@pytest.fixture(scope="module")
def vtes_log(tmp_path_factory):
    """A whole 4-seat VTES game of bots through the signed log; three players gave a VEKN id."""
    path = tmp_path_factory.mktemp("result") / "table.vtlog"
    facts = [{"vekn": v} if v else {} for v in VEKN]
    local = new_local_game("vtes", ["heuristic"] * 4, save=path, seed=3, facts=facts)
    while local.step():
        pass
    assert local.table.ended
    return path, local.table


# --- the join records the VEKN id -----------------------------------------------------------------


def test_the_join_entries_of_a_real_log_record_the_vekn_ids(vtes_log):
    path, table = vtes_log
    joins = [e for e in read_log(path).entries if e.kind == "join"]
    assert [j.body.get("vekn") for j in joins] == list(VEKN)
    assert "vekn" not in joins[1].body  # a player without one: the join is as it always was
    assert tuple(s.facts.get("vekn") for s in table.seats) == VEKN


def sequencer_and_seat(vekn):
    host = Sequencer(new_key(), GAMES, None, lambda: 0)
    host.open_table("queen", {"rounds": 1}, 3, "t")
    seat = Seat(new_key(), "Ann", GAMES, SecretsFile(None), facts={"vekn": vekn})
    seat.fold(host.table.entries[0])
    return host, seat


@pytest.mark.parametrize("bad", ["", "12a", "12345678901", " 12", "１２", "-1"])
def test_a_join_with_a_vekn_id_that_is_not_digits_is_malformed(bad):
    host, seat = sequencer_and_seat(bad)
    with pytest.raises(TableRefusal) as err:
        host.submit(seat.sign("join", seat.join_body()))
    assert err.value.code == "malformed" and err.value.detail == "a VEKN id is 1 to 10 digits"
    assert host.table.seats == []


def test_a_join_with_a_vekn_id_seats_the_player_with_it():
    host, seat = sequencer_and_seat("1003456")
    host.submit(seat.sign("join", seat.join_body()))
    assert host.table.seats[0].facts == {"vekn": "1003456"} and host.table.seats[0].name == "Ann"


# --- profiles ----------------------------------------------------------------------------------------


def test_a_profile_keeps_its_vekn_id_and_a_bad_one_is_a_sentence(tmp_path):
    assert load_profile("ann", tmp_path) == Profile("ann")
    assert profile_vekn("ann", base=tmp_path) is None
    assert profile_vekn("ann", " 1003456 ", tmp_path) == "1003456"  # given once, remembered
    assert json.loads(profile_path("ann", tmp_path).read_text()) == {"vekn": "1003456"}
    assert profile_vekn("ann", base=tmp_path) == "1003456"
    assert profile_vekn("bob", base=tmp_path) is None  # profiles are separate
    with pytest.raises(ProfileError, match=r"A VEKN id is 1 to 10 digits \(like 1003456\), not '10034x'\."):
        profile_vekn("ann", "10034x", tmp_path)
    assert profile_vekn("ann", base=tmp_path) == "1003456"  # a bad one changes nothing
    assert profile_vekn("ann", "none", tmp_path) is None  # forgotten
    assert load_profile("ann", tmp_path) == Profile("ann")
    with pytest.raises(ProfileError):
        profile_vekn("ann", "12345678901", tmp_path)
    assert VEKN_ID.check(" 42 ") == "42" and not VEKN_ID.valid("12345678901")


def test_a_damaged_profile_file_is_a_sentence(tmp_path):
    save_profile(Profile("ann", {"vekn": "7"}), tmp_path)
    profile_path("ann", tmp_path).write_text("{not json")
    with pytest.raises(ProfileError, match="Cannot read the profile file"):
        load_profile("ann", tmp_path)
    profile_path("ann", tmp_path).write_text('{"vekn": "abc"}')
    with pytest.raises(ProfileError, match="holds 'abc' as its VEKN id"):
        profile_vekn("ann", base=tmp_path)


# --- vampire result -------------------------------------------------------------------------------


def test_result_text_names_round_table_and_vekn_ids_ranked_with_table_positions(vtes_log, capsys):
    path, table = vtes_log
    assert main(["result", str(path), "--round", "2", "--table", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "VTES result (round 2, table 3): 4 players, standard rules, ended by ousts"
    assert lines[1].split() == ["rank", "player", "VEKN", "VP", "GW", "#", "seat"]
    seating = table.gstate.seating
    rows = [lines[2 + i].split() for i in range(4)]
    position = {seat: p for p, seat in enumerate(seating, start=1)}
    seats = [int(cells[-1]) for cells in rows]
    players = table.gstate.players
    assert seats == sorted(seats, key=lambda s: (-players[s].vp, position[s]))  # ranked: GW, VP, position
    for cells, seat in zip(rows, seats):
        assert cells[1] == table.names[seat] and cells[2] == (VEKN[seat] or "-")
        assert cells[-2] == str(position[seat])
    assert lines[-2] == "Archon checks: passed"
    assert lines[-1].startswith("(read without verifying the shuffles") and "vampire audit" in lines[-1]
    assert max(len(x) for x in lines[:-1]) <= 80


def test_result_csv_has_one_row_per_player_with_round_table_and_vekn(vtes_log, capsys):
    path, table = vtes_log
    assert main(["result", str(path), "--format", "csv", "--round", "1", "--table", "12"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [int(r["position"]) for r in rows] == [1, 2, 3, 4]
    assert {r["round"] for r in rows} == {"1"} and {r["table"] for r in rows} == {"12"}
    by_seat = {int(r["seat"]): r for r in rows}
    assert [by_seat[s]["vekn"] for s in range(4)] == [v or "" for v in VEKN]
    assert [by_seat[s]["player"] for s in range(4)] == list(table.names)
    vps = [float(by_seat[s]["vp"]) for s in range(4)]
    assert vps == [p.vp / 2 for p in table.gstate.players] and sum(vps) == 4
    # Bots' games differ from run to run (fresh keys): the GW column is the scoring's, whoever won.
    gw = {row.seat: int(row.gw) for row in result_table(table.gstate)}
    assert {s: int(by_seat[s]["gw"]) for s in range(4)} == gw


def test_result_json_for_a_program(vtes_log, capsys):
    path, table = vtes_log
    assert main(["result", str(path), "--format", "json", "--table", "5"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["game"], data["round"], data["table"], data["players"]) == ("vtes", None, 5, 4)
    assert data["ended"] == "last" and data["over"] is True and data["archon_checks"] == []
    results = data["results"]
    assert [r["seat"] for r in results] == list(table.gstate.seating)
    assert {r["seat"]: r["vekn"] for r in results} == dict(enumerate(VEKN))
    for r in results:  # krcg's tournament score
        assert r["score"] == (f"1GW{r['vp']:g}" if r["gw"] else f"0GW{r['vp']:g}")
    assert sum(r["vp"] for r in results) == 4


def test_result_without_a_round_or_vekn_ids_leaves_them_out(vtes_log):
    _, table = vtes_log
    text = result_text(table.gstate, list(table.names), TablePlace(), ResultFormat.TEXT)
    assert text.splitlines()[0] == "VTES result: 4 players, standard rules, ended by ousts"
    assert "VEKN" not in text.splitlines()[1]
    rows = player_results(table.gstate, list(table.names))
    assert all(r.vekn is None for r in rows) and rows[0].position == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--round", "0"], "--round numbers from 1, and 0 is not a round number."),
        (["--table", "-2"], "--table numbers from 1, and -2 is not a table number."),
    ],
)
def test_round_and_table_numbers_start_at_one(vtes_log, capsys, args, message):
    path, _ = vtes_log
    assert main(["result", str(path), *args]) == 1
    assert capsys.readouterr().err.strip() == f"vampire: {message}"


def test_a_bad_format_is_a_usage_error(vtes_log, capsys):
    path, _ = vtes_log
    with pytest.raises(SystemExit) as err:
        main(["result", str(path), "--format", "xml"])
    assert err.value.code == 2


def test_the_result_of_a_table_that_never_started_is_a_sentence(tmp_path, capsys):
    from engine.opening import open_sequencer, order_table

    path = tmp_path / "lobby.vtlog"
    open_sequencer(order_table("vtes", people=4, bots=[], seats=4), new_key(), path, lambda: 0)
    assert main(["result", str(path)]) == 1
    assert "never started" in capsys.readouterr().err


# --- the --vekn option ----------------------------------------------------------------------------


def test_vekn_options_that_cannot_apply_are_sentences(capsys):
    assert main(["join", "127.0.0.1:1", "--bot", "random", "--vekn", "1"]) == 1
    assert "a --bot seat has none" in capsys.readouterr().err
    assert main(["host", "--headless", "--game", "vtes", "--vekn", "1"]) == 1
    assert "a --headless host has no seat" in capsys.readouterr().err
    assert main(["join", "127.0.0.1:1", "--name", "vekn-test", "--vekn", "12ab"]) == 1
    assert "A VEKN id is 1 to 10 digits" in capsys.readouterr().err
