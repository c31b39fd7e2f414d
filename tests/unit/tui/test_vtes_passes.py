"""A window's passes read as one line where a player reads the game (the VTES game log and
``vampire replay --text``), while the narration keeps one note per act: a reproducible four-seat
game (bots) reaches turn 10, where Justine's block attempt fails after Lisa plays a stealth card and
all four Methuselahs pass."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult

from engine.games.vtes.vocab import News
from engine.protocol.log import LogWriter
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
    at = lines.index("Justine passes", lines.index("Lisa passes") + 1)
    assert lines[at - 1 : at + 3] == ["Lisa passes", "Justine passes", "Mina passes", "Scott passes"]
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
    assert fold_passes([passes(1, News.PASSED_NO_BLOCK), passes(2)]) is None  # a block window, then the next
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
    path = tmp_path / "game.vtlog"
    writer = LogWriter(path)
    for entry in table.entries:
        writer.append(entry)
    writer.close()
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
        kept = [line for line in lines if not re.search(r" pass(es)?( and declines? to block)?$", line)]
        assert " ".join(kept) == " ".join(others)  # a long note wraps onto lines of its own
        assert not any(a.endswith(" passes") and b.endswith(" passes") for a, b in zip(lines, lines[1:]))
