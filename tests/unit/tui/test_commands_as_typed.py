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


def test_scripts_play_has_commands_written_for_the_persons_shell_not_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``scripts/play`` puts ``.venv/bin`` on its own PATH and runs from the repository; it says
    what the person's shell has (``VAMPIRE_PERSON_PATH``, ``VAMPIRE_PERSON_PWD``), and the exit
    lines name ``.venv/bin/vampire`` as typed from there, not ``vampire``."""
    from tui.files import vampire_command

    script = tmp_path / ".venv" / "bin" / "vampire"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    elsewhere = tmp_path / "engine"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the program's own working directory is not the person's
    monkeypatch.setattr(sys, "argv", [str(script), "play"])
    # The script's own PATH finds this program; the person's does not.
    monkeypatch.setattr(shutil, "which", lambda name, path=None: str(script) if path is None else None)
    assert vampire_command() == "vampire"
    monkeypatch.setenv("VAMPIRE_PERSON_PATH", "/usr/bin:/bin")
    monkeypatch.setenv("VAMPIRE_PERSON_PWD", str(tmp_path))
    assert vampire_command() == TYPED
