"""Every command that reads a file refuses what is not a regular file, or not what it reads, in a
sentence that names the file, with a non-zero exit, no traceback, and memory bounded by the file's
size (DESIGN.md, "Feel": errors are sentences): `result`, `audit`, `replay` (and `--text`),
`play --resume` and `host --resume` given /dev/zero, a named pipe with no writer, a folder, a log's
first line then 1 GiB of zero bytes or of garbage, a log cut short; `deck`, `join --deck`, `play
--deck` and `host --deck` given those, a binary file, a file of 100,000 short lines, of 200,000
`[` (on one line, or on 1,500 lines of 499), of JSON nested 50,000 deep, of lines naming no card
(text, or a Lackey deck of 20,000 such names); `cards --archive` given those and a
binary or a text file that is no frequency table; `simulate --save` and `join --state` given a
file for their folder; a data folder on a read-only file system."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import can_mount, child_env

ROOT = Path(__file__).resolve().parents[2]
MEMORY_MAX = 600 * 1024  # KiB of resident memory: what reading a small file takes, far below any bad file's
HUGE = 1 << 30
"""Bytes of the huge bad files: more than :data:`MEMORY_MAX`, so one read whole fails the test."""


def run(tmp_path: Path, *args: str) -> tuple[int, str, int]:
    """``vampire ARGS`` in a child process: its exit status, its output, its peak memory (KiB)."""
    env = child_env(tmp_path)
    with open(tmp_path / "out", "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tui.cli", *args],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        proc.returncode = 0  # reaped by wait4 above
    return os.waitstatus_to_exitcode(status), (tmp_path / "out").read_text(errors="replace"), usage.ru_maxrss


def bad_log(tmp_path: Path, kind: str) -> Path:
    match kind:
        case "/dev/zero":
            return Path("/dev/zero")
        case "fifo":
            path = tmp_path / "pipe.vtlog"
            os.mkfifo(path)
            return path
        case "folder":
            path = tmp_path / "folder.vtlog"
            path.mkdir()
            return path
        case "zeros" | "garbage":
            # A log's first line, then 1 GiB (a sparse file: it takes no room): of zero bytes, or
            # of bytes that start with no frame. Read whole, either would take that much memory.
            path = tmp_path / f"{kind}.vtlog"
            path.write_bytes(b"VTLOG1\n" + (b"\xff" * 64 if kind == "garbage" else b""))
            with open(path, "r+b") as f:
                f.truncate(HUGE)
            return path
        case _:
            raise AssertionError(kind)


WORDS = {
    "/dev/zero": "not a regular file",
    "fifo": "not a regular file",
    "folder": "not a regular file",
    "zeros": "holds no entry",
    "garbage": "is corrupt at frame 0 (byte offset 7)",
}


LOG_COMMANDS = [
    ["result"],
    ["audit"],
    ["replay", "--text"],
    ["replay"],
    ["play", "--resume"],
    ["host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--resume"],
]
"""Every command that reads a log file it is given."""


@pytest.mark.parametrize("kind", sorted(WORDS))
@pytest.mark.parametrize("command", LOG_COMMANDS, ids=lambda c: " ".join(c[:1] + c[-1:]))
def test_a_log_command_refuses_what_is_no_log_in_a_sentence(tmp_path, command, kind):
    path = bad_log(tmp_path, kind)
    code, out, memory = run(tmp_path, *command, str(path))
    assert code != 0 and "Traceback" not in out, out
    # play --resume asks first for the folder a game against bots keeps beside its log
    words = "not a game against bots" if command[0] == "play" and kind in ("zeros", "garbage") else WORDS[kind]
    assert str(path) in out and words in out, out
    assert memory < MEMORY_MAX


def test_a_log_cut_short_is_read_up_to_its_last_whole_entry_and_said(tmp_path):
    """A log truncated in the middle of a frame (a crash, a copy cut short): its last whole entry
    ends what is read, and the commands say a torn frame was dropped."""
    from tests.support.chat_logs import write_chat_log

    path = tmp_path / "cut.vtlog"
    write_chat_log(path, 20)
    path.write_bytes(path.read_bytes()[:-30])
    for command, code_wanted in ((["audit"], 2), (["replay", "--text"], 0)):
        code, out, memory = run(tmp_path, *command, str(path))
        assert code == code_wanted and "Traceback" not in out and "torn" in out, out
        assert memory < MEMORY_MAX
    code, out, _ = run(tmp_path, "result", str(path))  # a table of chat lines: no game, no result
    assert code == 1 and "Traceback" not in out and str(path) in out, out


def bad_deck(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / f"{kind}.txt"
    match kind:
        case "lines":
            path.write_text("".join(f"{i} x\n" for i in range(100_000)))
        case "brackets":
            path.write_text("[" * 200_000)
        case "bracket-lines":  # each line under the longest a deck list may have: minutes of matching
            path.write_text(("[" * 499 + "\n") * 1_500)
        case "deep-json":
            path.write_text('{"a":' * 50_000 + "1" + "}" * 50_000)
        case "no-cards":
            path.write_text("".join(f"{i % 9 + 1} Nothing Called This {i}\n" for i in range(200)))
        case "lackey-no-cards":  # a Lackey .dek of 20,000 names, each a fuzzy match: minutes
            cards = "".join(f"<card><name>Nothing Called This {i}</name></card>\n" for i in range(20_000))
            path.write_text(f'<deck version="0"><superzone name="Deck">{cards}</superzone></deck>')
    return path


DECK_WORDS = {
    "lines": "100,000 lines",
    "brackets": "characters",
    "bracket-lines": "too much text on long lines",
    "deep-json": "nested deeper",
    "no-cards": "lines that name no card",
    "lackey-no-cards": "card entries that name no card",
}


DECK_COMMANDS = [
    ["deck"],
    ["join", "127.0.0.1:1", "--bot", "heuristic", "--deck"],
    ["play", "--game", "vtes", "--deck"],
    ["host", "--game", "vtes", "--bind", "127.0.0.1", "--port", "0", "--deck"],
]
"""Every command that reads a deck file it is given (join, play and host before any connection,
table or screen)."""


@pytest.mark.parametrize("kind", sorted(DECK_WORDS))
@pytest.mark.parametrize("command", DECK_COMMANDS, ids=lambda c: c[0])
def test_a_deck_command_refuses_a_file_no_deck_list_is_like_in_a_sentence(tmp_path, command, kind):
    path = bad_deck(tmp_path, kind)
    code, out, memory = run(tmp_path, *command, str(path))
    assert code != 0 and "Traceback" not in out, out
    assert path.stem in out and DECK_WORDS[kind] in out, out  # the report opens with the deck's name
    assert "Joining" not in out and memory < MEMORY_MAX


@pytest.mark.parametrize("kind", ["/dev/zero", "fifo", "folder", "binary"])
@pytest.mark.parametrize("command", DECK_COMMANDS, ids=lambda c: c[0])
def test_a_deck_command_refuses_what_is_not_a_deck_file_in_a_sentence(tmp_path, command, kind):
    if kind == "binary":
        path = tmp_path / "deck.txt"
        path.write_bytes(bytes(range(256)) * 64)
    else:
        path = bad_log(tmp_path, kind)
    code, out, memory = run(tmp_path, *command, str(path))
    assert code != 0 and "Traceback" not in out, out
    words = "not a deck list this program reads (a binary file" if kind == "binary" else "not a regular file"
    assert words in out and path.stem in out, out
    assert "Joining" not in out and memory < MEMORY_MAX


ARCHIVE_WORDS = {
    "/dev/zero": "not a regular file",
    "fifo": "not a regular file",
    "folder": "not a regular file",
    "zeros": "holds more than 4 MiB",
    "binary": "a binary file, not text",
    "text": "is not the archive's card frequency table (columns",
}


@pytest.mark.parametrize("kind", sorted(ARCHIVE_WORDS))
def test_cards_refuses_an_archive_that_is_no_frequency_table_in_a_sentence(tmp_path, kind):
    """`vampire cards --coverage --archive FILE` reads the tournament archive's frequency table."""
    if kind in ("binary", "text"):
        path = tmp_path / "frequencies.tsv"
        path.write_bytes(bytes(range(256)) * 64 if kind == "binary" else b"my shopping list\n")
    else:
        path = bad_log(tmp_path, kind)
    code, out, memory = run(tmp_path, "cards", "--coverage", "--archive", str(path))
    assert code != 0 and "Traceback" not in out, out
    assert str(path) in out and ARCHIVE_WORDS[kind] in out, out
    assert memory < MEMORY_MAX


@pytest.mark.parametrize("kind", ["text", "folder"])
def test_host_save_refuses_a_file_that_is_no_log_in_a_sentence(tmp_path, kind):
    path = tmp_path / "notes.txt"
    if kind == "text":
        path.write_text("my shopping list\n")
    else:
        path.mkdir()
    code, out, _ = run(
        tmp_path, "host", "--headless", "--game", "queen", "--bind", "127.0.0.1", "--port", "0", "--save", str(path)
    )
    assert code != 0 and "Traceback" not in out and str(path) in out, out
    assert ("not a vampire-table log file" if kind == "text" else "not a regular file") in out, out
    assert kind != "text" or path.read_text() == "my shopping list\n"


FOLDER_COMMANDS = [
    ["simulate", "--game", "queen", "--games", "1", "--protocol", "--save"],
    ["join", "127.0.0.1:1", "--bot", "heuristic", "--state"],
]
"""Every command that keeps its files in a folder it is given."""


@pytest.mark.parametrize("command", FOLDER_COMMANDS, ids=lambda c: c[0])
def test_a_command_given_a_file_for_its_folder_says_so_in_a_sentence(tmp_path, command):
    path = tmp_path / "notes.txt"
    path.write_text("my shopping list\n")
    code, out, _ = run(tmp_path, *command, str(path))
    assert code != 0 and "Traceback" not in out, out
    assert f"{path}: it is a file, not a folder." in out, out
    assert path.read_text() == "my shopping list\n"


def test_simulate_saving_below_a_file_says_why_in_a_sentence(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my shopping list\n")
    code, out, _ = run(tmp_path, *FOLDER_COMMANDS[0], str(path / "logs"))
    assert code != 0 and "Traceback" not in out, out
    assert f"{path / 'logs'}: Not a directory." in out, out


@pytest.mark.skipif(not can_mount(), reason="creating a mount namespace (unshare -m) is not allowed here")
def test_a_read_only_data_folder_is_named_in_a_sentence(tmp_path):
    """The data folder (XDG_DATA_HOME) on a file system mounted read-only, in a mount namespace this
    test creates: `host` cannot make its key there and says where, and why."""
    data = tmp_path / "data"
    data.mkdir()
    host = [sys.executable, "-m", "tui.cli", "host", "--headless", "--game", "queen", "--bind", "127.0.0.1"]
    script = f'mount --bind {data} {data} && mount -o remount,ro,bind {data} && exec "$@"'
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", script, "sh", *host, "--port", "0"],
        cwd=ROOT,
        env=child_env(tmp_path),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    out = done.stdout + done.stderr
    assert done.returncode != 0 and "Traceback" not in out, out
    assert f"{data}/vampire-table/" in out and "Read-only file system." in out, out


def test_a_file_error_names_the_file_it_happened_to():
    import errno

    from tui.errors import explain

    err = OSError(errno.EROFS, "Read-only file system", "/media/data/vampire-table")
    assert explain(err) == "Cannot use /media/data/vampire-table: Read-only file system."
