"""Replay and audit screens, by keys: stepping forward and back, jumping by trick and round, the
hands once a round's seeds are revealed; the audit of a clean log and of a tampered one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.local_session import build_local
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.app import Start, VampireApp
from tui.screens.audit import AuditScreen
from tui.screens.replay import ReplayScreen


@pytest.fixture(scope="module")
def saved_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished two-round game between four bots, saved by the host."""
    path = tmp_path_factory.mktemp("logs") / "game.vtlog"
    local = build_local(11, ["heuristic", "random", "heuristic", "random"], {"rounds": 2}, save=path)
    local.run()
    assert local.table.ended
    local.host.log.close()
    return path


def _replay_ready(app: VampireApp) -> bool:
    screen = app.screen
    return isinstance(screen, ReplayScreen) and screen.replay is not None and screen.replay.done


def _title(app: VampireApp) -> str:
    return shown(app.screen.query_one("#title"))


async def test_replay_steps_forward_and_back_and_jumps_by_trick_and_round(saved_log: Path) -> None:
    app = VampireApp(Start("replay", saved_log), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: _replay_ready(app), 30, "the log to be read", pilot=pilot)
        screen = app.screen
        assert "entry 0 of" in _title(app)
        assert screen.check_action("step", (-1,)) is None  # nothing before the first entry
        await pilot.press("right", "right", "right")
        assert "entry 3 of" in _title(app)
        await pilot.press("left")
        assert "entry 2 of" in _title(app)
        await pilot.press("right_square_bracket")
        assert "trick 1" in _title(app)
        first_trick = screen.index
        assert screen.frames[first_trick].kind == "move"
        await pilot.press("right_square_bracket")
        assert "trick 2" in _title(app) and screen.index > first_trick
        await pilot.press("left_square_bracket")
        assert screen.index == first_trick
        # The trick panel shows the lead just played.
        assert "led" in shown(screen.query_one("#trick"))
        await pilot.press("pagedown")
        assert "round 2" in _title(app)
        # Once round 1's seeds were revealed, every hand of it is shown with its points.
        hands = screen.query_one("#replay-hands")
        assert hands.display and "points" in shown(hands)
        await pilot.press("end")
        assert screen.index == len(screen.frames) - 1
        assert screen.check_action("step", (1,)) is None
        assert "The game is over." in shown(screen.query_one("#replay-status"))
        await pilot.press("home")
        assert "entry 0 of" in _title(app)


async def test_audit_of_a_clean_log_says_clean(saved_log: Path) -> None:
    app = VampireApp(Start("audit", saved_log), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(
            lambda: isinstance(app.screen, AuditScreen) and app.screen.report is not None, 60, "the audit", pilot=pilot
        )
        assert app.screen.report.code == 0
        assert shown(app.screen.query_one("#audit-verdict")).startswith("✓ CLEAN")
        assert "rounds played: 2" in shown(app.screen.query_one("#audit-text"))
        # From the audit, r replays the same log.
        await pilot.press("r")
        await eventually(lambda: _replay_ready(app), 30, "the replay", pilot=pilot)


async def test_audit_of_a_tampered_log_names_the_first_fault(saved_log: Path, tmp_path: Path) -> None:
    data = bytearray(saved_log.read_bytes())
    data[len(data) * 3 // 5] ^= 0x01  # one flipped bit in the middle of an entry
    tampered = tmp_path / "tampered.vtlog"
    tampered.write_bytes(bytes(data))
    app = VampireApp(Start("audit", tampered), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(
            lambda: isinstance(app.screen, AuditScreen) and app.screen.report is not None, 60, "the audit", pilot=pilot
        )
        report = app.screen.report
        assert report.code == 1 and report.fault is not None
        assert shown(app.screen.query_one("#audit-verdict")).startswith("✗ FAULT")
        text = shown(app.screen.query_one("#audit-text"))
        assert f"entry {report.fault.seq}" in text


async def test_a_file_that_is_not_a_log_is_a_sentence_not_a_traceback(tmp_path: Path) -> None:
    junk = tmp_path / "junk.vtlog"
    junk.write_bytes(b"not a log at all")
    app = VampireApp(Start("replay", junk), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, ReplayScreen), 10, "the replay screen", pilot=pilot)
        status = await eventually(lambda: shown(app.screen.query_one("#replay-status")), 10, "a message", pilot=pilot)
        assert status.startswith("Cannot replay:")


@pytest.fixture(scope="module")
def vtes_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first few dozen entries of a VTES game between two bots (enough: the game has started)."""
    from engine.local import new_local_game

    path = tmp_path_factory.mktemp("vtes") / "vtes.vtlog"
    local = new_local_game("vtes", ["heuristic", "heuristic"], save=path, seed=5)
    for _ in range(60):
        if not local.step():
            break
    assert local.host.table.gstate is not None
    local.host.log.close()
    return path


async def test_replay_of_a_vtes_log_draws_the_table_with_hidden_cards_face_down(vtes_log: Path) -> None:
    app = VampireApp(Start("replay", vtes_log), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, ReplayScreen), 10, "the replay screen", pilot=pilot)
        screen = app.screen
        players = screen.query_one("#vt-replay-players")
        board = screen.query_one("#vt-replay-board")
        await eventually(lambda: screen.replay is not None and screen.replay.done, 30, "the whole log", pilot=pilot)
        await pilot.press("end")
        await eventually(lambda: "pool" in shown(players), 10, "the Methuselahs", pilot=pilot)
        assert "ready" in shown(board)
        # The Methuselahs' header, with its marks' legend, holds on one line at 80 columns.
        header = shown(players).splitlines()[0]
        assert header.rstrip().endswith("◆ Edge") and len(header) <= players.content_size.width
        assert players.size.height == len(shown(players).splitlines())
        # Every card not yet public is face down to a replay's viewer (no seed is revealed yet).
        state = screen.replay.frames[-1].state
        hidden = [c for c in state.cards if not c.card and c.zone == "uncontrolled"]
        # (each Methuselah's face-down cards in one row: "○ 4 face-down vampires")
        counts = [int(n) for n in re.findall(r"(\d+) face-down vampire", shown(board))]
        assert sum(counts) == len(hidden)
        await pilot.press("left", "left_square_bracket", "pageup", "right")
        assert app.screen is screen  # still here, no crash
        await pilot.press("escape")  # the replay the command opened: Esc goes back to the shell
        await eventually(lambda: app._exit, 5, "the program's exit", pilot=pilot)


async def test_replay_from_home_of_a_vtes_log_draws_it(vtes_log: Path) -> None:
    from textual.widgets import Input

    from tui.screens.home import HomeScreen

    app = VampireApp(name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "home", pilot=pilot)
        field = app.screen.query_one("#replay-path", Input)
        field.value = str(vtes_log)
        field.focus()
        await pilot.press("enter")
        await eventually(lambda: isinstance(app.screen, ReplayScreen), 10, "the replay screen", pilot=pilot)
        await eventually(
            lambda: bool(app.screen.query("#vt-replay-board")), 10, "the VTES table in the replay", pilot=pilot
        )


async def test_audit_of_a_vtes_log_works(vtes_log: Path) -> None:
    app = VampireApp(Start("audit", vtes_log), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(
            lambda: isinstance(app.screen, AuditScreen) and app.screen.report is not None, 60, "the audit", pilot=pilot
        )
        assert app.screen.report.code == 2  # unfinished: no fault, not fully checked
        assert shown(app.screen.query_one("#audit-verdict")).startswith("! NO FAULT")
