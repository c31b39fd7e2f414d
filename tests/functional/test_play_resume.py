"""A game against bots (``vampire play``) quit in the middle comes back from its files: the host
from its log, the player and every bot from the play folder beside it (``LOG.play/``), and plays
on to its end; the quit question and the shell say how; a log that cannot come back says why."""

from __future__ import annotations

import random
import stat
from pathlib import Path

import pytest

from engine.audit import audit_file
from engine.errors import VampireError
from engine.games import all_rules
from engine.protocol.log import read_log
from net.local import bot_factory, until
from tests.support.local_play import TmpFactory
from tests.support.poll import eventually
from tui.app import Start, VampireApp
from tui.farewell import farewell_lines
from tui.files import vampire_command
from tui.games.queen.table import TableScreen
from tui.local_play import forget_play, open_play, play_dir_of, resumable, resume_play, resume_spec
from tui.screens.quit import QuitScreen
from tui.session import LocalTableSpec


async def _open(save: Path, seed: int = 1):
    return await open_play(
        "queen",
        ["heuristic", "random"],
        name="Mina",
        save=save,
        options={"rounds": "1"},
        brought=None,
        games=all_rules(),
        player_bot=bot_factory("heuristic", random.Random(seed)),
    )


async def test_a_bot_game_quit_in_the_middle_is_resumed_to_its_end_from_its_files(tmp_path: Path) -> None:
    save = tmp_path / "game.vtlog"
    local = await _open(save)
    try:
        await until(lambda: local.host.table.seq > 40, [local.session.client], 60, "some play")
    finally:
        await local.close()  # the player quits (or its terminal dies): every peer stops
    held = read_log(save).entries
    assert held[-1].kind != "end"
    folder = play_dir_of(save)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert {p.name for p in folder.iterdir()} >= {"table.json", "host.key", "you", "bots"}
    assert resumable(save)
    assert resume_spec(save).resume == save and resume_spec(save).name == "Mina"

    local, found = await resume_play(save, all_rules(), player_bot=bot_factory("heuristic", random.Random(2)))
    try:
        assert found.levels == ("heuristic", "random") and found.game == "queen"
        assert local.session.seat == 0  # the same seat, the same key: no new join
        assert [e.kind for e in read_log(save).entries[: len(held)]] == [e.kind for e in held]
        await until(lambda: local.host.table.ended, [local.session.client, *local.bots], 120, "the game's end")
    finally:
        await local.close()
    entries = read_log(save).entries
    assert entries[-1].kind == "end"
    assert sum(e.kind == "join" for e in entries) == 3  # nobody joined twice
    report = audit_file(save, all_rules())
    assert report.code == 0 and report.finished, report
    assert not resumable(save)
    with pytest.raises(VampireError, match="is over: replay it"):
        resume_spec(save)
    forget_play(save)  # what the app does once the game is over: the keys and secrets go
    assert not folder.exists() and audit_file(save, all_rules()).code == 0
    with pytest.raises(VampireError, match="is over: replay it"):  # not "a hosted table comes back…"
        resume_spec(save)


def test_a_log_that_cannot_come_back_says_why(tmp_path: Path) -> None:
    with pytest.raises(VampireError, match="There is no log file"):
        resume_spec(tmp_path / "none.vtlog")
    hosted = tmp_path / "hosted.vtlog"
    hosted.write_bytes(b"not a log")
    with pytest.raises(VampireError, match="vampire host --resume"):
        resume_spec(hosted)
    assert not resumable(hosted)


async def test_the_quit_question_and_the_shell_say_how_to_bring_the_game_back(tmp_path: Path) -> None:
    """A person quits a `vampire play` game at the table; the home screen's way back (the
    command's spec from the log) opens the same table again at the same seat."""
    save = tmp_path / "game.vtlog"
    spec = LocalTableSpec("Mina", ["heuristic", "random"], {"rounds": 1})
    app = VampireApp(Start("play", spec), factory=TmpFactory(save), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 30, "the table screen", pilot=pilot)
        await eventually(lambda: app.screen.session.table.phase == "running", 30, "the game", pilot=pilot)
        await pilot.press("ctrl+q")
        await eventually(lambda: isinstance(app.screen, QuitScreen), 10, "the quit question", pilot=pilot)
        # The command as this person types it (.venv/bin/vampire when vampire is not on the PATH).
        assert f"until you bring it back ({vampire_command()} play --resume" in app.screen.consequence
        await pilot.press("y")
    assert app.return_code == 0
    lines = farewell_lines(app.last_session)
    assert any(line.endswith(f"play --resume {save}") for line in lines), lines
    seq = len(read_log(save).entries)

    again = VampireApp(Start("play", resume_spec(save)), name="Mina")
    async with again.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(again.screen, TableScreen), 30, "the table screen", pilot=pilot)
        session = again.screen.session
        await eventually(lambda: session.table.seq >= seq, 30, "the log folded again", pilot=pilot)
        assert session.seat == 0 and session.table.names[0] == "Mina"
        await pilot.press("ctrl+q")
        await eventually(lambda: isinstance(again.screen, QuitScreen), 10, "the quit question", pilot=pilot)
        await pilot.press("y")
    assert again.return_code == 0


def test_vampire_play_resume_refuses_what_it_cannot_bring_back_in_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui.cli import main

    assert main(["play", "--resume", str(tmp_path / "none.vtlog")]) == 1
    assert capsys.readouterr().err.strip() == f"vampire: There is no log file {tmp_path / 'none.vtlog'}."
    assert main(["play", "--resume", str(tmp_path / "none.vtlog"), "--bots", "2", "--rule", "rounds=1"]) == 1
    err = capsys.readouterr().err
    assert "--resume brings the game back as it was: it takes no --bots or --rule." in err
    assert "Traceback" not in err


async def test_the_home_screen_offers_a_game_quit_before_its_end_and_enter_brings_it_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.widgets import OptionList

    from engine.paths import logs_dir

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    save = logs_dir() / "unfinished.vtlog"
    local = await _open(save)
    try:
        await until(lambda: local.host.table.seq > 20, [local.session.client], 60, "some play")
    finally:
        await local.close()
    app = VampireApp(Start(), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        games = app.screen.query_one("#play-recent", OptionList)
        await eventually(lambda: games.display and games.option_count == 1, 10, "the game to go on with", pilot=pilot)
        games.focus()
        games.highlighted = 0
        await pilot.press("enter")
        await eventually(lambda: isinstance(app.screen, TableScreen), 30, "the table screen", pilot=pilot)
        session = app.screen.session
        await eventually(lambda: session.seat == 0, 30, "my seat again", pilot=pilot)
        assert session.log_path == save
        await pilot.press("ctrl+q")
        await eventually(lambda: isinstance(app.screen, QuitScreen), 10, "the quit question", pilot=pilot)
        await pilot.press("y")
