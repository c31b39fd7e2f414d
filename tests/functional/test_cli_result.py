"""`vampire result` as a person reads it (shared/rules/vtes.md, "Tournament rules"): Methuselahs
ranked by Game win, then VP, then table position, each with its table position and log seat;
columns that line up by display width whatever the names (CJK, emoji, full-width letters); and an
exit status that says when the game is not over (2, as ``--help`` says)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len

from engine.games.vtes.decks import bundled_decks
from engine.games.vtes.scoring import result_text
from engine.games.vtes.simulate import vtes_table
from engine.local import new_local_game
from engine.sim import SimTable
from tui.cli import build_parser, main

WIDE = ["Mina", "李小龍", "😀 Lisa", "ＡＢＣ", "Justine"]


def _act(t: SimTable, who: int, do: str, **fields: object) -> None:
    t.play(who, {"do": do, **fields})
    t.run_ops()


def _timed_out_table() -> SimTable:
    """A 5-seat tournament table ended by time-out: two Methuselahs with 1.5 VP, one with 0.5, two
    with 0 (an oust each for the first player's and the fourth's predator, then a time-out)."""
    decks = bundled_decks()
    t = vtes_table([decks[s % len(decks)] for s in range(5)], {"ruleset": "tournament"}, 0)
    a, b, c, d, e = t.state.seating
    for prey, by in ((b, a), (e, a)):
        _act(t, by, "pool", seat=prey, delta=-t.state.players[prey].pool, cause="burn")
    _act(t, c, "time")
    _act(t, d, "time")
    while t.state.step == "play" and t.state.phase != "master":
        _act(t, t.state.acting, "phase")
    assert t.state.step == "over"
    return t


def _rows(text: str) -> tuple[str, list[str]]:
    lines = text.splitlines()
    return lines[1], lines[2:7]


def test_the_result_ranks_methuselahs_by_game_win_then_vp_then_table_position() -> None:
    t = _timed_out_table()
    state = t.state
    head, rows = _rows(result_text(state, WIDE))
    assert head.split() == ["rank", "player", "VP", "GW", "#", "seat"]
    position = {seat: i for i, seat in enumerate(state.seating, start=1)}
    ranked = sorted(range(5), key=lambda s: (-state.players[s].vp, position[s]))
    for row, seat in zip(rows, ranked):
        cells = row.split()
        assert row[6:].startswith(WIDE[seat])  # the name, after the rank
        assert cells[-2:] == [str(position[seat]), str(seat)]  # its table position and its seat
    vps = [state.players[s].vp for s in ranked]
    ranks = [int(row.split()[0]) for row in rows]
    # Equal VP share a rank (1, 1, 3, 4, 4): "1 Mina" in seat order no longer reads like the winner.
    assert ranks == [1 + sum(v > vp for v in vps) for vp in vps]


def test_result_columns_line_up_by_display_width_with_wide_names() -> None:
    head, rows = _rows(result_text(_timed_out_table().state, WIDE))
    vp_column = head.index("VP")  # the heading is ASCII: its index is its display column
    for row in rows:
        name = next(n for n in WIDE if row[6:].startswith(n))
        rest = row[6 + len(name) :].lstrip(" ")
        before = row[: len(row) - len(rest)]
        assert cell_len(before) == vp_column, row
    assert max(cell_len(line) for line in result_text(_timed_out_table().state, WIDE).splitlines()) <= 80


def test_result_of_a_game_that_is_not_over_exits_2_and_help_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "unfinished.vtlog"
    local = new_local_game("vtes", ["heuristic"] * 2, save=path, seed=3)
    while local.step():
        if local.table.gstate is not None and local.table.gstate.step == "play":
            break
    assert main(["result", str(path)]) == 2
    out = capsys.readouterr().out
    assert "(the game is not over: these are the VP so far)" in out
    # VP so far are no result: no Archon check is said to pass, the game is said to be unfinished
    assert "Archon checks: passed" not in out and "Archon check:" not in out
    assert "Archon checks: none, the game is unfinished (no result to enter yet)" in out.splitlines()
    help_text = build_parser()._subparsers._group_actions[0].choices["result"].format_help()  # type: ignore[union-attr]
    assert "2: the game is not over" in " ".join(help_text.split())


def test_the_vtes_end_screen_ranks_the_methuselahs_as_vampire_result_does() -> None:
    from types import SimpleNamespace

    from engine.games import find_game
    from tui.games.vtes.front import game_end

    t = _timed_out_table()
    table = SimpleNamespace(gstate=t.state, game=find_game("vtes").rules(), names=WIDE)
    end = game_end(table, 0)  # type: ignore[arg-type]
    assert str(end.body) == result_text(t.state, WIDE)
    assert str(end.body).splitlines()[1].split()[0] == "rank"
