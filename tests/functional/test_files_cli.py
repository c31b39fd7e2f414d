"""Files the command line leaves (PROTOCOL.md 8), with the real ``vampire`` command: a table that is
refused leaves no log behind, a refused ``--resume`` leaves the log as it was, a second host on a log
another host is writing is refused, and ``vampire simulate --protocol --save DIR`` keeps each game's
secrets in a private folder."""

from __future__ import annotations

import os
import stat
import sys
import time
from typing import TYPE_CHECKING

import pytest

from tests.support.protocol import saved_game

if TYPE_CHECKING:
    from tests.functional.conftest import Vampire


def test_a_refused_table_leaves_no_log_file(vampire: Vampire, tmp_path):
    save = tmp_path / "F"
    args = ("host", "--headless", "--game", "vtes", "--seats", "3", "--rule", "ruleset=tournament")
    done = vampire.run(*args, "--save", str(save), "--port", "0", timeout=60)
    assert done.returncode == 1 and "a tournament table seats 4 or 5" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert not save.exists() and not save.with_name("F.bots").exists()
    # Asking again gives the same sentence, not "already holds a table".
    again = vampire.run(*args, "--save", str(save), "--port", "0", timeout=60)
    assert again.returncode == 1 and again.stderr == done.stderr and not save.exists()


def test_a_refused_resume_leaves_the_log_as_it_was(vampire: Vampire, tmp_path):
    # Another host's table, whose last frame was torn by a crash: this profile's host key did not
    # open it, so the resume is refused, and the torn frame must still be there for its own host.
    data = saved_game().data
    save = tmp_path / "table.vtlog"
    save.write_bytes(data[:-5])
    done = vampire.run("host", "--headless", "--resume", str(save), "--port", "0", timeout=60)
    assert done.returncode == 1 and "was opened by the host key" in done.stderr, done.stderr
    assert save.read_bytes() == data[:-5]


def test_resuming_a_log_with_bytes_after_its_end_is_refused_and_changes_nothing(vampire: Vampire, tmp_path):
    data = saved_game().data + b"appended"
    save = tmp_path / "table.vtlog"
    save.write_bytes(data)
    done = vampire.run("host", "--headless", "--resume", str(save), "--port", "0", timeout=60)
    assert done.returncode == 1 and "8 bytes follow the end entry" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and save.read_bytes() == data


@pytest.mark.skipif(sys.platform == "win32", reason="flock: no log lock on Windows")
def test_a_second_host_on_a_log_another_host_is_writing_is_refused_with_a_sentence(vampire: Vampire, tmp_path):
    save = tmp_path / "table.vtlog"
    where = ("--bind", "127.0.0.1", "--port", "0", "--no-announce")
    first = vampire.start("host", "--headless", "--save", str(save), *where, name="first")
    deadline = time.monotonic() + 60
    while "Table open" not in vampire.output("first"):
        assert first.poll() is None and time.monotonic() < deadline, vampire.outputs()
        time.sleep(0.05)
    before = save.read_bytes()
    done = vampire.run("host", "--headless", "--resume", str(save), *where, timeout=60)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr == (
        f"vampire: The log file {save} is in use by another vampire process, which is writing to it: "
        "close that one first (a log has one writer).\n"
    )
    assert first.poll() is None and save.read_bytes() == before


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_simulate_save_keeps_each_games_secrets_private(vampire: Vampire, high_card, tmp_path):
    out = tmp_path / "games"
    (out / "game-0-secrets").mkdir(parents=True, mode=0o755)  # left by an earlier run, open to all
    os.chmod(out / "game-0-secrets", 0o755)
    done = vampire.run("simulate", "--game", high_card.name, "--protocol", "--games", "2", "--save", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    for g in range(2):
        folder = out / f"game-{g}-secrets"
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
        secrets = sorted(folder.iterdir())
        assert secrets and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in secrets)
