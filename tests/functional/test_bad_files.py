"""Every command that reads a file refuses what is not a regular file, or not what it reads, in a
sentence that names the file, with a non-zero exit, no traceback, and memory bounded by the file's
size (DESIGN.md, "Feel": errors are sentences): `result`, `audit`, `replay --text` and `deck`
given /dev/zero, a named pipe with no writer, a folder; a log's first line then zero bytes; a deck
file of 100,000 short lines, of 200,000 `[`, of JSON nested 50,000 deep, of lines naming no card."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MEMORY_MAX = 600 * 1024  # KiB of resident memory: what reading a small file takes, far below any bad file's


def run(tmp_path: Path, *args: str) -> tuple[int, str, int]:
    """``vampire ARGS`` in a child process: its exit status, its output, its peak memory (KiB)."""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), VAMPIRE_NO_DISCOVERY="1", PYTHONUNBUFFERED="1")
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
        case _:
            path = tmp_path / "zeros.vtlog"
            path.write_bytes(b"VTLOG1\n" + bytes(4 << 20))
            return path


WORDS = {
    "/dev/zero": "not a regular file",
    "fifo": "not a regular file",
    "folder": "not a regular file",
    "zeros": "holds no entry",
}


@pytest.mark.parametrize("kind", sorted(WORDS))
@pytest.mark.parametrize("command", [["result"], ["audit"], ["replay", "--text"]])
def test_a_log_command_refuses_what_is_no_log_in_a_sentence(tmp_path, command, kind):
    path = bad_log(tmp_path, kind)
    code, out, memory = run(tmp_path, *command, str(path))
    assert code != 0 and "Traceback" not in out, out
    assert str(path) in out and WORDS[kind] in out, out
    assert memory < MEMORY_MAX


def bad_deck(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / f"{kind}.txt"
    match kind:
        case "lines":
            path.write_text("".join(f"{i} x\n" for i in range(100_000)))
        case "brackets":
            path.write_text("[" * 200_000)
        case "deep-json":
            path.write_text('{"a":' * 50_000 + "1" + "}" * 50_000)
        case "no-cards":
            path.write_text("".join(f"{i % 9 + 1} Nothing Called This {i}\n" for i in range(200)))
    return path


DECK_WORDS = {
    "lines": "100,000 lines",
    "brackets": "characters",
    "deep-json": "nested deeper",
    "no-cards": "lines that name no card",
}


@pytest.mark.parametrize("kind", sorted(DECK_WORDS))
def test_deck_refuses_a_file_no_deck_list_is_like_in_a_sentence(tmp_path, kind):
    path = bad_deck(tmp_path, kind)
    code, out, memory = run(tmp_path, "deck", str(path))
    assert code != 0 and "Traceback" not in out, out
    assert path.stem in out and DECK_WORDS[kind] in out, out  # the report opens with the deck's name
    assert memory < MEMORY_MAX


@pytest.mark.parametrize("kind", ["/dev/zero", "fifo", "folder"])
def test_deck_refuses_what_is_not_a_regular_file(tmp_path, kind):
    path = bad_log(tmp_path, kind)
    code, out, _ = run(tmp_path, "deck", str(path))
    assert code != 0 and "Traceback" not in out, out
    assert "not a regular file" in out and path.name in out, out


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


def test_a_file_error_names_the_file_it_happened_to():
    import errno

    from tui.errors import explain

    err = OSError(errno.EROFS, "Read-only file system", "/media/data/vampire-table")
    assert explain(err) == "Cannot use /media/data/vampire-table: Read-only file system."
