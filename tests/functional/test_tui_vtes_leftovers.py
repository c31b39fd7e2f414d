"""``vampire play --resume LOG`` of a VTES game whose log another vampire process is writing (the
game is open in another window): one sentence, a non-zero exit, and no screen; once that process
has let go, the same command reads the log again (here an empty one: it says so)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.protocol.log import LogWriter
from tui.local_play import play_dir_of

_HOLD = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
sys.stdin.read()
"""


def _saved_game(tmp_path: Path) -> Path:
    """A log (no entry yet) with the play folder that brings a VTES game against bots back."""
    save = tmp_path / "game.vtlog"
    LogWriter(save).close()
    folder = play_dir_of(save)
    folder.mkdir(mode=0o700)
    (folder / "table.json").write_text(json.dumps({"name": "Mina", "game": "vtes", "levels": ["heuristic"] * 3}))
    return save


@pytest.mark.skipif(sys.platform == "win32", reason="no flock: a log is not locked on Windows")
def test_a_second_resume_of_a_log_in_use_says_so_in_one_sentence_before_any_screen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui.cli import main

    save = _saved_game(tmp_path)
    other = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(save)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "locked"  # it writes the log
        assert main(["play", "--resume", str(save)]) == 1
    finally:
        assert other.stdin is not None
        other.stdin.close()
        other.wait(timeout=30)
    out = capsys.readouterr()
    assert out.out == ""
    lines = out.err.strip().splitlines()
    assert lines == [
        f"vampire: The log file {save} is in use by another vampire process (a game open in another window): "
        "close that one first, or go on playing there."
    ]
    # That process gone, the log is read again (and this one holds no table yet).
    assert main(["play", "--resume", str(save)]) == 1
    assert "holds no table" in capsys.readouterr().err
