"""`vampire simulate`: bots play whole games and the command prints who won (DESIGN.md, "The
command line"). Errors the user can cause are one sentence on stderr, never a traceback."""

from __future__ import annotations

import re

import pytest

from tui.cli import main

ROW = re.compile(
    r"^(?P<name>\w+)\s+(?P<bot>expert|heuristic|random)\s+(?P<wins>[\d.]+)\s+(?P<pct>[\d.]+)%\s+(?P<mean>[\d.]+)$"
)


def table_rows(out: str) -> list[dict[str, str]]:
    return [m.groupdict() for line in out.splitlines() if (m := ROW.match(line.strip()))]


def test_simulate_seats_the_default_level_first_and_fills_the_table_with_random_bots(capsys):
    # One round: the seating is the subject, not the game's length.
    assert main(["simulate", "--seats", "3", "--games", "1", "--seed", "2", "--rule", "rounds=1"]) == 0
    rows = table_rows(capsys.readouterr().out)
    assert [r["bot"] for r in rows] == ["expert", "random", "random"]
    assert sum(float(r["wins"]) for r in rows) == pytest.approx(1)


def test_simulate_prints_each_players_wins_and_mean_score_with_the_heuristic_player_ahead(capsys):
    bots = ",".join(["heuristic"] + ["random"] * 4)
    assert main(["simulate", "--bots", bots, "--games", "20"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "5 seats, 20 games" in out
    rows = table_rows(out)
    assert len(rows) == 5
    assert [r["bot"] for r in rows] == ["heuristic"] + ["random"] * 4
    assert sum(float(r["wins"]) for r in rows) == pytest.approx(20)
    heuristic, *randoms = rows
    assert float(heuristic["wins"]) > max(float(r["wins"]) for r in randoms)
    assert float(heuristic["mean"]) < min(float(r["mean"]) for r in randoms)


def test_simulate_with_a_list_of_bots_seats_one_bot_each(capsys):
    assert main(["simulate", "--bots", "random,heuristic,random", "--games", "3", "--seed", "9"]) == 0
    rows = table_rows(capsys.readouterr().out)
    assert [r["bot"] for r in rows] == ["random", "heuristic", "random"]


def test_simulate_verbose_prints_the_first_game_trick_by_trick(capsys):
    assert (
        main(["simulate", "--bots", "heuristic,random,random,random", "--games", "1", "--verbose", "--seed", "3"]) == 0
    )
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert any("is drawn as dealer and takes Hunter 15" in line for line in lines)
    assert any(re.search(r"\w+ leads (a|an|two|three|four|five|six|seven|eight|Hunter) ", line) for line in lines)
    assert any(line.endswith(" wins the trick.") for line in lines)
    assert any(re.search(r"\w+ takes Hunter (15|20)", line) for line in lines)
    assert any(line.startswith("Round 5 ends. Points in hand:") for line in lines)
    assert len(table_rows(out)) == 4


def test_simulate_is_the_same_for_the_same_seed(capsys):
    # One game of the default (expert) bot, whose rollouts draw the most from the seed; one round
    # of it (every trick of a round draws from the seed as the later rounds' do).
    args = ["simulate", "--seats", "3", "--games", "1", "--seed", "5", "--rule", "rounds=1", "--verbose"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert "Round 1 ends" in first
    main(args)
    assert capsys.readouterr().out == first


def test_simulate_takes_table_rules(capsys):
    args = ["simulate", "--seats", "3", "--games", "1", "--verbose", "--rule", "rounds=2", "--rule", "hunter_tie=first"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Round 2 ends" in out and "Round 3" not in out


@pytest.mark.parametrize(
    "args, words",
    [
        (["--rule", "jokers=2"], "unknown table option"),
        (["--rule", "rounds=0"], "at least 1"),
        (["--rule", "queen_in_hunter_trick=7"], "queen_in_hunter_trick"),
        (["--rule", "rounds"], "name=value"),
        (["--bots", "wizard"], "unknown bot level"),
        (["--bots", "heuristic,,dragon"], "unknown bot level"),
        (["--bots", "heuristic,random", "--seats", "4"], "--seats is 4"),
        (["--bots", "6", "--seats", "4"], "more bots than"),
        (["--seats", "2"], "3 to 12 players"),
        (["--seats", "13"], "3 to 12 players"),
        (["--bots", "heuristic,random"], "3 to 12 players"),
        (["--games", "0"], "at least 1"),
    ],
)
def test_simulate_refuses_bad_input_with_a_sentence_and_no_traceback(capsys, args, words):
    code = main(["simulate", *args])
    out, err = capsys.readouterr()
    assert code != 0
    assert words in err
    assert err.startswith("vampire: ") and err.count("\n") == 1
    assert "Traceback" not in err + out
    assert out == ""  # nothing is printed before the input is checked


def test_simulate_refuses_zero_seats(capsys):
    code = main(["simulate", "--seats", "0"])
    assert code != 0 and "3 to 12 players" in capsys.readouterr().err


def test_simulate_refuses_a_negative_seat_count_by_naming_the_seat_range(capsys):
    code = main(["simulate", "--seats", "-3"])
    assert code != 0 and "3 to 12 players" in capsys.readouterr().err


def test_join_refuses_to_spectate_as_a_bot_in_a_sentence(capsys):
    code = main(["join", "127.0.0.1:1", "--spectate", "--bot", "heuristic"])
    err = capsys.readouterr().err
    assert code != 0 and "--spectate" in err and "Traceback" not in err


def test_simulate_vtes_prints_the_actions_blocks_combats_and_referendums_of_its_games(capsys):
    assert main(["simulate", "--game", "vtes", "--seats", "4", "--games", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    counts = {
        word: int(n) for n, word in re.findall(r"(\d+) (actions|blocks|combats|referendums) \([\d.]+ a game\)", out)
    }
    assert set(counts) == {"actions", "blocks", "combats", "referendums"}, out
    assert counts["actions"] > counts["blocks"] > 0
    assert counts["combats"] == counts["blocks"]  # every block here opened a combat


def test_version_names_the_installed_distribution_and_the_protocol(capsys):
    from importlib.metadata import version

    from engine.protocol.log import VERSION

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    assert out.strip() == f"vampire {version('vampire-table')} (vampire-table), protocol version {VERSION}"


def test_a_game_named_right_after_the_command_is_read_as_its_game(capsys):
    """``vampire rules vtes`` (as a newcomer types ``vampire play vtes``) is ``--game vtes``; a
    word that is no game stays argparse's sentence."""
    assert main(["rules", "vtes"]) == 0
    out = capsys.readouterr().out
    assert "(--game vtes)" in out and "(--game queen)" not in out
    with pytest.raises(SystemExit):
        main(["rules", "chess"])
    assert "unrecognized arguments: chess" in capsys.readouterr().err
