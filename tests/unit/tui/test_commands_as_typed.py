"""Every command a screen, a refusal or the shell's last lines tells a person to type is written the
way they can type it from where they stand: ``.venv/bin/vampire`` when ``vampire`` on the PATH is
not this program (scripts/play runs the console script in ``.venv/bin``)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.text import Text
from textual.app import App

from engine.errors import VampireError
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.screens.help import HelpScreen
from tui.screens.quit import quit_consequence

TYPED = ".venv/bin/vampire"


@pytest.fixture
def venv_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``vampire`` is only in ``.venv/bin`` under the working directory, and not on the PATH."""
    script = tmp_path / ".venv" / "bin" / "vampire"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [str(script), "play"])
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None)
    return tmp_path


def test_the_quit_question_names_the_resume_command_as_typed(venv_only: Path) -> None:
    running = SimpleNamespace(phase="running")
    alone = SimpleNamespace(table=running, is_host=True, address=None, seat=0, resumable=True)
    host = SimpleNamespace(table=running, is_host=True, address="192.168.1.5:7447", seat=0)
    assert f"({TYPED} play --resume with its log" in quit_consequence(alone)  # type: ignore[arg-type]
    assert f"({TYPED} host --resume with its log" in quit_consequence(host)  # type: ignore[arg-type]


def test_resuming_a_log_that_is_no_game_against_bots_names_the_host_command_as_typed(venv_only: Path) -> None:
    from tui.local_play import read_play_folder

    log = venv_only / "table.vtlog"
    log.write_bytes(b"not a log")
    with pytest.raises(VampireError) as err:
        read_play_folder(log)
    assert f"comes back with {TYPED} host --resume." in str(err.value)


def test_the_result_note_names_the_audit_command_as_typed(venv_only: Path) -> None:
    from tui.cli.logs import RESULT_UNVERIFIED
    from tui.files import shell_path, vampire_command

    note = RESULT_UNVERIFIED.format(command=vampire_command(), file=shell_path(venv_only / "t.vtlog"))
    assert f"`{TYPED} audit " in note


async def test_the_help_names_the_rules_command_as_typed(venv_only: Path) -> None:
    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(HelpScreen(["queen"]))

    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, HelpScreen), 10, "the help", pilot=pilot)
        text = " ".join(Text.from_markup(shown(app.screen.query_one("#help Static"))).plain.split())
    assert f"Every table rule and its values: {TYPED} rules in a shell." in text
