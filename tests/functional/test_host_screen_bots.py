"""``vampire host --game vtes --bots 2 --deck atraco`` in a real terminal (a pseudo-terminal the
test opens; the process draws its lobby there): the host's own seat sits with its deck, and its
two bots take their seats after it, each with a deck of its own. Before, the bots were handed the
host's name as the deck it brought, and no bot ever sat."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import threading
import time
from pathlib import Path

from engine.protocol.log import LogFileError, read_log_unverified
from tests.support.cli import child_env

ROOT = Path(__file__).resolve().parents[2]
HANG = 120.0
"""Seconds after which the test gives up waiting for the seats (a guard against a hung suite)."""


def _joins(path: Path) -> int:
    """The join entries in the log being written at ``path`` (0 while it cannot be read yet)."""
    try:
        return sum(1 for e in read_log_unverified(path).entries if e.kind == "join")
    except (LogFileError, OSError):
        return 0


def test_a_host_with_a_screen_seats_its_bots_after_its_own_seat(tmp_path: Path) -> None:
    log = tmp_path / "table.vtlog"
    env = child_env(tmp_path, TERM="xterm-256color")
    env.update(COLUMNS="80", LINES="24")
    primary, secondary = pty.openpty()
    args = ["host", "--game", "vtes", "--bots", "2", "--deck", "atraco", "--name", "Mina"]
    args += ["--bind", "127.0.0.1", "--port", "0", "--save", str(log)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", *args],
        cwd=tmp_path,
        env=env,
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        close_fds=True,
    )
    os.close(secondary)
    drawn: list[bytes] = []

    def drain() -> None:  # the screen's output, read so that the process never blocks on it
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:
                return
            if not chunk:
                return
            drawn.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + HANG
        while _joins(log) < 3 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        screen = b"".join(drawn).decode(errors="replace")
        assert proc.poll() is None, screen[-2000:]
        assert _joins(log) == 3, "the host's seat and its two bots: " + screen[-2000:]
    finally:
        proc.kill()
        proc.wait()
        os.close(primary)
        reader.join(timeout=5)
