"""A spectator that comes back after more than a MiB of entries catches up, between real processes
over loopback TCP (docs/protocol.md 7.1): `vampire host --headless` of a six-seat VTES table, six
`vampire join --bot` processes, and `vampire join --spectate --text`, which follows the deal a
while, is killed, and is started again once the host's log has grown by more than a MiB. The
catch-up goes to it a frame at a time as it reads, never counted in a stranger's 256 KiB queue,
and it verifies each proof of shuffle in a worker thread, its pings going on: it is dropped
neither as a slow reader nor as silent, and it ends with the host's log, byte for byte.

Slow (behind ``-m slow``): a six-seat game is what writes that much between real processes (the
deal's shuffle proofs, then its moves: about 1.4 MiB in all, where four seats write 0.7), and it
takes two to four minutes on a machine shared with other suites."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.errors import VampireError
from engine.protocol.log import read_log
from tests.functional.conftest import Vampire
from tests.support.net import free_port

MIB = 1024 * 1024
SEATS = 6
QUICK = ["--backoff-max", "0.4"]
"""Quick reconnections; the pings of a real table (every 5 s, silent after 30 s): with quick
pings (silent after 3 or 6 s) a machine loaded by other suites starves the processes long enough
for the host to drop even a bot that just connected."""


def size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


def entries(path: Path) -> int:
    """Entries in the log file at ``path`` as it is being written (0 before it holds any)."""
    try:
        return len(read_log(path).entries) if path.exists() else 0
    except VampireError:
        return 0


def wait_until(condition: Callable[[], object], timeout: float, what: str, vampire: Vampire) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}\n{vampire.outputs()}")
        time.sleep(0.1)


@pytest.mark.slow
def test_a_spectator_process_back_after_a_mib_of_entries_catches_up_and_is_not_dropped(vampire: Vampire, tmp_path):
    port = free_port()
    save = tmp_path / "host.vtlog"
    watched = tmp_path / "spectator" / "table.vtlog"
    table = ["--game", "vtes", "--seats", str(SEATS), "--bind", "127.0.0.1", "--port", str(port), "--save", str(save)]
    host = vampire.start("host", "--headless", *table, *QUICK, name="host")
    address = f"127.0.0.1:{port}"
    spectate = ["join", address, "--spectate", "--text", "--name", "Watcher", "--state", str(tmp_path / "spectator")]
    for i in range(SEATS):
        vampire.start(
            "join", address, "--bot", "heuristic", "--name", f"Bot {i}", "--state", str(tmp_path / f"bot{i}"),
            "--quiet", *QUICK, name=f"bot{i}",
        )  # fmt: skip
    wait_until(lambda: entries(save) >= 20, 600, "the deal to begin", vampire)
    spectator = vampire.start(*spectate, *QUICK, name="spectator-1")
    wait_until(lambda: entries(watched) >= 20, 600, "the spectator to follow the deal", vampire)
    spectator.send_signal(signal.SIGKILL)  # the network broke under it
    spectator.wait(10)
    away = size(watched)
    wait_until(lambda: size(save) > away + MIB, 900, "a MiB of entries while it is away", vampire)
    assert host.poll() is None, "the game ended before the spectator came back"
    came_back = time.monotonic()
    spectator = vampire.start(*spectate, *QUICK, name="spectator-2")
    wait_until(lambda: spectator.poll() is not None, 900, "the spectator to see the end", vampire)
    wait_until(lambda: host.poll() is not None, 60, "the host to close", vampire)
    print(f"grew {(size(save) - away) / MIB:.2f} MiB while away; back {time.monotonic() - came_back:.0f} s to the end")
    second = vampire.output("spectator-2")
    assert spectator.returncode == 0, second[-3000:]
    assert host.returncode == 0, vampire.output("host")[-3000:]
    drops = [line for line in second.splitlines() if "Connected to" in line or "retrying" in line]
    assert len(drops) == 1, drops  # connected once, never dropped while it caught up
    assert watched.read_bytes() == save.read_bytes()
