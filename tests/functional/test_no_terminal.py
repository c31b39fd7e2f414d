"""A command that opens a screen, run with no terminal (from a script, with ``</dev/null``, its
output in a file), stops at once with a sentence and exit 1 instead of drawing for nobody and
waiting for keys nobody can press: ``vampire``, ``play``, ``host`` (without ``--headless``),
``join`` (without ``--bot`` or ``--spectate --text``) and ``replay`` (without ``--text``). It says
what runs without one; ``join --bot`` with a deck whose names were read as close matches plays
without asking (it says what it read), and ``--exact`` refuses such a deck instead, as ``play`` and
``host`` do. Nothing is opened for nobody: no log, no seat."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.chat_logs import write_chat_log
from tests.support.cli import child_env

ROOT = Path(__file__).resolve().parents[2]
DECK = ROOT / "engine" / "games" / "vtes" / "data" / "atraco.txt"
HANG = 300
"""Seconds after which a command that waits for keys is taken for one that waits for ever (a
guard against a hung suite, not the measure: the commands tested answer at once)."""


def run(tmp_path: Path, *args: str, stdin: int | None = subprocess.DEVNULL) -> tuple[int, str]:
    """``vampire ARGS`` in a child process with no terminal: its exit status and its output."""
    env = child_env(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", *args],
        cwd=tmp_path,
        env=env,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    return done.returncode, done.stdout + done.stderr


def close_match_deck(tmp_path: Path) -> Path:
    """A deck file one of whose names is read as a close match (a person would be asked about it)."""
    deck = tmp_path / "typo.txt"
    deck.write_text(DECK.read_text().replace("Anarch Troublemaker", "Anarch Trublemaker"))
    return deck


@pytest.mark.parametrize(
    ("args", "instead"),
    [
        ([], "--help lists them"),
        (["play"], "simulate --game"),
        (["play", "--game", "vtes"], "simulate --game vtes"),
        (["host", "--bind", "127.0.0.1", "--port", "0", "--save", "table.vtlog"], "add --headless"),
        (["join", "127.0.0.1:1"], "add --bot LEVEL to seat a bot or --spectate --text"),
        (["join", "127.0.0.1:1", "--spectate"], "--spectate --text to watch as text"),
        (["replay", "chat.vtlog"], "add --text to print it"),
    ],
    ids=["home", "play", "play vtes", "host", "join", "spectate", "replay"],
)
def test_a_command_that_opens_a_screen_stops_at_once_without_a_terminal(
    tmp_path: Path, args: list[str], instead: str
) -> None:
    write_chat_log(tmp_path / "chat.vtlog", 3)
    code, out = run(tmp_path, *args)
    assert code == 1, out
    assert "opens a screen that reads your keys, and standard input and standard output are not a terminal" in out
    assert instead in out and "Traceback" not in out
    assert not (tmp_path / "table.vtlog").exists()  # a host with a screen opened no table for nobody


def test_join_with_a_deck_of_close_matches_says_what_it_read_and_stops_without_asking(tmp_path: Path) -> None:
    code, out = run(tmp_path, "join", "127.0.0.1:1", "--deck", str(close_match_deck(tmp_path)), "--name", "Mina")
    assert code == 1 and "Traceback" not in out
    assert '"Anarch Trublemaker" read as Anarch Troublemaker' in out
    assert "standard input and standard output are not a terminal" in out and "add --bot LEVEL" in out
    assert "Joining" not in out  # no connection was tried


def test_only_the_missing_stream_is_named(tmp_path: Path) -> None:
    """Standard input a terminal, the output in a file: the output is named."""
    pty = pytest.importorskip("pty")
    leader, follower = pty.openpty()
    try:
        code, out = run(tmp_path, "play", stdin=follower)
    finally:
        os.close(leader)
        os.close(follower)
    assert code == 1 and "and standard output is not a terminal" in out and "standard input" not in out


def test_need_terminal_names_the_command_and_what_runs_without_one() -> None:
    import io

    from engine.errors import VampireError
    from tui.terminal import need_terminal, not_a_terminal

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert not_a_terminal(Tty(), Tty()) is None
    need_terminal("vampire join", "add --bot LEVEL", Tty(), Tty())  # a terminal: nothing said
    with pytest.raises(VampireError) as refused:
        need_terminal("vampire join", "add --bot LEVEL to seat a bot", io.StringIO(), Tty())
    assert str(refused.value) == (
        "vampire join opens a screen that reads your keys, and standard input is not a terminal: "
        "run it in a terminal, or add --bot LEVEL to seat a bot."
    )


@pytest.mark.parametrize(
    "args",
    [
        ["join", "127.0.0.1:1", "--bot", "heuristic"],
        ["play", "--game", "vtes"],
        ["host", "--game", "vtes", "--bind", "127.0.0.1", "--port", "0", "--save", "table.vtlog"],
    ],
    ids=["join --bot", "play", "host"],
)
def test_exact_refuses_a_deck_of_close_matches_in_a_sentence_without_asking(tmp_path: Path, args: list[str]) -> None:
    code, out = run(tmp_path, *args, "--deck", str(close_match_deck(tmp_path)), "--exact")
    assert code == 1 and "Traceback" not in out
    assert 'typo.txt: line 28: no card is named exactly "Anarch Trublemaker"; did you mean Anarch Troublemaker?' in out
    assert "Joining" not in out and not (tmp_path / "table.vtlog").exists()


@pytest.mark.parametrize("command", ["join 127.0.0.1:1 --bot heuristic", "play", "host --headless"])
def test_exact_without_a_deck_is_a_sentence(tmp_path: Path, command: str) -> None:
    code, out = run(tmp_path, *command.split(), "--exact")
    assert code == 1 and "--exact checks the names of the deck you bring: give it with --deck." in out
