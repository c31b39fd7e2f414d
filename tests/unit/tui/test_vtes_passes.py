"""A window's passes read as one line where a player reads the game (the VTES game log,
``vampire replay --text``, the replay screen's entries, a spectator's text feed), while the
narration keeps one note per act: a reproducible four-seat game (bots) reaches turn 10, where
Justine's block attempt fails after Lisa plays a stealth card and all four Methuselahs pass."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult

from engine.games.vtes.vocab import News
from tests.support.narration import fed_lines, saved_log
from tests.support.poll import eventually
from tests.support.vtes_table import played_vtes
from tui.games.vtes.log import VtesLog
from tui.games.vtes.passes import PASSES, fold_passes

EVERYONE = "Lisa, Justine, Mina and Scott pass"
"""The window after Lisa's stealth card in Justine's block attempt: every seat passes, in the
order of the impulse."""


def _turn_eleven(view: Any) -> bool:
    return view.turn >= 11


def _table() -> Any:
    return played_vtes(_turn_eleven).host.table


def test_the_narration_keeps_one_note_per_pass() -> None:
    table = _table()
    lines = [n.render(table.names) for n in table.notes]
    run = ["Lisa passes", "Justine passes", "Mina passes", "Scott passes"]
    at = next(i for i in range(1, len(lines) - 2) if lines[i - 1 : i + 3] == run)  # the first window all pass
    assert all(n.news == News.PASSED for n in table.notes[at - 1 : at + 3])
    folded = fold_passes(table.notes[at - 1 : at + 3])
    assert folded is not None and folded.render(table.names) == EVERYONE


def test_fold_passes_folds_one_window_only() -> None:
    from engine.games.base import Note

    def passes(seat: int, news: str = News.PASSED) -> Note:
        return Note(f"{{s{seat}}} passes", (seat,), news)

    names = ["Ana", "Ben", "Cy"]
    both = fold_passes([passes(0), passes(2)])
    assert both is not None and both.render(names) == "Ana and Cy pass"
    declined = fold_passes([passes(1, News.PASSED_NO_BLOCK), passes(2, News.PASSED_NO_BLOCK)])
    assert declined is not None and declined.render(names) == "Ben and Cy pass and decline to block"
    assert fold_passes([passes(0)]) is None  # one pass reads as it is
    assert fold_passes([passes(0), passes(0)]) is None  # a seat passing again: another window
    # One loop of a block window: the prey declines, another seat only passes (it may not block).
    mixed = fold_passes([passes(0), passes(1, News.PASSED_NO_BLOCK), passes(2)])
    assert mixed is not None and mixed.render(names) == "Ana, Ben and Cy pass; Ben declines to block"
    assert fold_passes([passes(0), Note("{s1} plays a card", (1,))]) is None


def _window_lines(lines: list[str]) -> list[str]:
    """The window of turn 10's block attempt after Lisa's stealth card: the card's line, every
    seat's pass, the block's outcome."""
    at = lines.index(EVERYONE)
    return lines[at - 1 : at + 2]


def test_replay_text_shows_a_window_everyone_passes_as_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui.cli import main

    table = _table()
    path = saved_log(table, tmp_path / "game.vtlog")
    assert main(["replay", str(path), "--text"]) == 0
    lines = [line.split("] ", 1)[-1] for line in capsys.readouterr().out.splitlines()]
    window = _window_lines(lines)
    assert window[1] == EVERYONE, window
    assert "The block by" in window[2], window
    assert not any(a.endswith(" passes") and b.endswith(" passes") for a, b in zip(lines, lines[1:]))


class _LogApp(App[None]):
    def compose(self) -> ComposeResult:
        yield VtesLog(id="log")


def _log_lines(log: VtesLog) -> list[str]:
    return [strip.text.rstrip() for strip in log.lines]


@pytest.mark.parametrize("batch", [True, False], ids=["at-once", "one-by-one"])
async def test_the_game_log_shows_a_window_everyone_passes_as_one_line(batch: bool) -> None:
    table = _table()
    names = list(table.names)
    app = _LogApp()
    async with app.run_test(size=(200, 50)) as pilot:  # wide: few lines wrap
        log = app.query_one(VtesLog)
        await eventually(lambda: log.size.width > 0, 10, "the log's size", pilot=pilot)
        if batch:
            log.add_notes(table.notes, names)
        else:  # as a live table tells them: a line that grows while the window is open
            for note in table.notes:
                log.add_notes([note], names)
        await eventually(lambda: any(EVERYONE in line for line in _log_lines(log)), 10, "the folded line", pilot=pilot)
        lines = _log_lines(log)
        window = _window_lines(lines)
        assert window[1] == EVERYONE and "The block by" in window[2], window
        # Every other line as the narration says it, none lost to a rewritten line.
        others = [n.render(names) for n in table.notes if n.news not in PASSES]
        kept = [
            line
            for line in lines
            if not re.search(r" pass(es)?( and declines? to block|; .+ declines? to block)?$", line)
        ]
        assert " ".join(kept) == " ".join(others)  # a long note wraps onto lines of its own
        assert not any(a.endswith(" passes") and b.endswith(" passes") for a, b in zip(lines, lines[1:]))


async def test_the_replay_screen_shows_a_window_everyone_passes_as_one_line_growing_as_it_is_stepped(
    tmp_path: Path,
) -> None:
    from tui.app import Start, VampireApp
    from tui.screens.replay import RecentEntries, ReplayScreen

    table = _table()
    path = saved_log(table, tmp_path / "game.vtlog")
    app = VampireApp(Start("replay", path), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, ReplayScreen), 10, "the replay", pilot=pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await eventually(lambda: screen.replay is not None and screen.replay.done, 60, "the log read", pilot=pilot)
        frames = screen.frames
        run = ["Lisa passes", "Justine passes", "Mina passes", "Scott passes"]

        def said(i: int) -> str:
            return frames[i].lines[0].split("] ", 1)[-1] if frames[i].lines else ""

        def caused_block(i: int) -> bool:  # the last pass's entry tells the block it caused
            return any("The block by" in line for line in frames[i].lines[1:])

        first = next(
            i for i in range(len(frames) - 3) if [said(i + k) for k in range(4)] == run and caused_block(i + 3)
        )
        passes = [first + k for k in range(4)]
        entries = screen.query_one(RecentEntries)

        def shown() -> list[str]:
            return [line.strip().lstrip("▶ ").split("] ", 1)[-1] for line in entries.content.plain.splitlines()]

        screen._go(passes[1])  # stepping through the window: its line grows
        await eventually(lambda: shown()[-1] == "Lisa and Justine pass", 10, "two passes, one line", pilot=pilot)
        screen._go(passes[3])
        # The last pass's entry also tells what it caused (the block succeeds…): under the line.
        await eventually(lambda: EVERYONE in shown(), 10, "the window's passes, one line", pilot=pilot)
        at = shown().index(EVERYONE)
        assert "The block by" in shown()[at + 1]
        screen._go(passes[3] + 1)  # the next entry: the window's line above it
        await eventually(lambda: shown()[-1] != shown()[at], 10, "the next entry", pilot=pilot)
        assert EVERYONE in shown()
        assert not any(a.endswith(" passes") and b.endswith(" passes") for a, b in zip(shown(), shown()[1:]))


def test_a_spectators_text_feed_shows_a_window_everyone_passes_as_one_line() -> None:
    table = _table()
    names = list(table.names)
    said = fed_lines(table)
    window = _window_lines(said)
    assert window[1] == EVERYONE and "The block by" in window[2], window
    others = [n.render(names) for n in table.notes if n.news not in PASSES]
    assert [
        line for line in said if not re.search(r" pass(es)?( and declines? to block|; .+ declines? to block)?$", line)
    ] == others
    assert not any(a.endswith(" passes") and b.endswith(" passes") for a, b in zip(said, said[1:]))


async def test_the_game_log_says_a_seat_is_done_voting_once_per_referendum() -> None:
    """Every vote makes the others say ``done`` again (7.1); the log says it once per seat and
    referendum, and again in the next referendum."""
    from engine.games.base import Note
    from engine.games.vtes.game import describe_act
    from tests.support.vtes_sim import minion_phase_table

    state = minion_phase_table().state
    names = ["Gus", "Lisa", "Hana", "Andi"]

    def done(seat: int) -> Note:
        return describe_act(state, seat, {"do": "done"}, {})  # the engine's own words and news

    polling = Note("Polling is open: cast your votes (for or against), then say you are done", (), News.POLLING_OPENED)
    one = [polling]
    for voter in range(4):  # each vote, then everyone done again
        one += [Note(f"{{s{voter}}} votes for", (voter,)), *(done(s) for s in range(4))]
    resolved = Note("The referendum passes", (), News.REFERENDUM_RESOLVED)
    app = _LogApp()
    async with app.run_test(size=(200, 50)) as pilot:
        log = app.query_one(VtesLog)
        await eventually(lambda: log.size.width > 0, 10, "the log's size", pilot=pilot)
        log.add_notes([*one, resolved, *one], names)
        await eventually(lambda: len(_log_lines(log)) > 0, 10, "the lines", pilot=pilot)
        lines = _log_lines(log)
        first = lines[: lines.index("The referendum passes")]
        assert first.count("Lisa is done voting") == 1, first
        assert sum(line.endswith("votes for") for line in first) == 4, first  # every vote kept
        assert lines.count("Lisa is done voting") == 2, lines  # said again in the next referendum
