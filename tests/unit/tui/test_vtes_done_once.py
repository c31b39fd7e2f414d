"""Every vote makes the others say they are done again (shared/rules/vtes-actions.md 7.1: polling
closes when all are done since the last vote); the log keeps every ``done``, and wherever a
player reads the game it says "Lisa is done voting" once per seat and referendum: ``vampire
replay --text``, the replay screen's entries, a spectator's text feed, the whole log (``L``).

A reproducible four-seat game (bots, seed 11) played to turn 18 holds a referendum in which a
seat says it is done twice: after a later vote."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from engine.games.vtes.vocab import News
from tests.support.local_session import LocalGameSession
from tests.support.narration import fed_lines, saved_log
from tests.support.poll import eventually
from tests.support.vtes_table import keys_after_a_look, played_vtes
from tui.app import Start, VampireApp

DONE = re.compile(r"(\w+) is done voting$")
OPENS = "Polling is open"
CLOSES = re.compile(r"The referendum (passes|fails)")


def _turn_eighteen(view: Any) -> bool:
    return view.turn >= 18


def _local() -> Any:
    return played_vtes(_turn_eighteen)


def _referendums(lines: Iterable[str]) -> list[list[str]]:
    """The lines from each polling's opening to its close."""
    out: list[list[str]] = []
    inside = False
    for line in lines:
        if OPENS in line:
            out.append([])
            inside = True
        if inside:
            out[-1].append(line)
        if CLOSES.search(line):
            inside = False
    return out


def _said_done(referendum: list[str]) -> list[str]:
    return [m.group(1) for line in referendum if (m := DONE.search(line.strip()))]


def _once_each(lines: Iterable[str]) -> list[list[str]]:
    """Each referendum's seats done, checked to name every seat once."""
    polls = _referendums(lines)
    assert polls, "no referendum read"
    done = [_said_done(r) for r in polls]
    for seats, r in zip(done, polls):
        assert seats and len(seats) == len(set(seats)), r
    return done


def test_the_narration_keeps_a_seat_done_again_after_a_later_vote() -> None:
    """The game the tests read: its narration (and log) has a seat's ``done`` twice in one
    referendum."""
    table = _local().host.table
    polls = _referendums(n.render(table.names) for n in table.notes)
    assert any(len(s) > len(set(s)) for s in map(_said_done, polls)), polls
    assert any(n.news == News.DONE_VOTING for n in table.notes)


def test_replay_text_says_each_seat_is_done_voting_once_per_referendum(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui.cli import main

    table = _local().host.table
    path = saved_log(table, tmp_path / "game.vtlog")
    assert main(["replay", str(path), "--text"]) == 0
    lines = [line.split("] ", 1)[-1] for line in capsys.readouterr().out.splitlines()]
    done = _once_each(lines)
    narrated = _referendums(n.render(table.names) for n in table.notes)
    assert done == [list(dict.fromkeys(_said_done(r))) for r in narrated]  # nobody lost, in order


def test_a_spectators_text_feed_says_each_seat_is_done_voting_once_per_referendum() -> None:
    said = fed_lines(_local().host.table)
    _once_each(said)


async def test_the_replay_screen_says_each_seat_is_done_voting_once_per_referendum(tmp_path: Path) -> None:
    """Stepped to a referendum's close, the entries above say each seat's ``done`` once; the
    entry of a ``done`` said again still reads as itself while it is the current one."""
    from tui.screens.replay import RecentEntries, ReplayScreen

    table = _local().host.table
    path = saved_log(table, tmp_path / "game.vtlog")
    app = VampireApp(Start("replay", path), name="Mina")
    async with app.run_test(size=(80, 60)) as pilot:  # tall: a whole referendum on screen
        await eventually(lambda: isinstance(app.screen, ReplayScreen), 10, "the replay", pilot=pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await eventually(lambda: screen.replay is not None and screen.replay.done, 60, "the log read", pilot=pilot)
        frames = screen.frames
        again = next(i for i in range(len(frames)) if frames[i].repeats)
        close = next(i for i in range(again, len(frames)) if any(CLOSES.search(line) for line in frames[i].lines))
        entries = screen.query_one(RecentEntries)

        def shown() -> list[str]:
            return [line.strip().lstrip("▶ ").split("] ", 1)[-1] for line in entries.content.plain.splitlines()]

        screen._go(again)
        await eventually(lambda: DONE.search(shown()[-1]) is not None, 10, "the done said again", pilot=pilot)
        screen._go(close)
        await eventually(lambda: any(CLOSES.search(line) for line in shown()), 10, "the close", pilot=pilot)
        assert OPENS in " ".join(shown()), shown()  # the whole referendum is read
        _once_each(shown())


async def test_the_whole_log_box_says_each_seat_is_done_voting_once_per_referendum() -> None:
    local = _local()
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"), auto=False)
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: type(app.screen).__name__ == "VtesTableScreen", 30, "the table", pilot=pilot)
        keys_after_a_look(app)
        await pilot.press("L")
        await eventually(lambda: type(app.screen).__name__ == "CardBox", 10, "the log box", pilot=pilot)
        text = app.screen.query_one("#vt-box-text").content.plain
        _once_each(text.splitlines())
