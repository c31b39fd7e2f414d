"""The test suite's named positions (tests/support/positions.py): built once per test run, shared
by the pytest-xdist workers through a locked file, handed out as copies that share nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.support import positions


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh run folder and a process that has read no position yet."""
    monkeypatch.setenv(positions.POSITIONS_ENV, str(tmp_path))
    monkeypatch.setattr(positions, "_PICKLED", {})
    monkeypatch.setattr(positions, "BUILT", [])
    return tmp_path


def _worker_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    """What another pytest-xdist worker of the same run sees: the folder, none of this process's copies."""
    monkeypatch.setattr(positions, "_PICKLED", {})


def test_a_position_is_built_once_and_each_caller_gets_its_own_copy(run: Path) -> None:
    calls: list[int] = []

    def build() -> dict[str, list[int]]:
        calls.append(1)
        return {"pool": [30, 30]}

    first = positions.once_per_run("table", build)
    first["pool"][0] = 1  # a test changes its copy
    second = positions.once_per_run("table", build)
    assert second == {"pool": [30, 30]} and second is not first
    assert len(calls) == 1 and positions.BUILT == ["table"]
    assert (run / "table.pickle").is_file()


def test_another_worker_of_the_run_reads_the_file_and_builds_nothing(
    run: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert positions.once_per_run("table", lambda: [1, 2]) == [1, 2]
    _worker_starts(monkeypatch)
    assert positions.once_per_run("table", lambda: pytest.fail("built twice")) == [1, 2]
    assert positions.BUILT == ["table"]


def test_a_worker_that_asks_during_a_build_waits_for_it_and_reads_it(run: Path) -> None:
    building, release = threading.Event(), threading.Event()
    got: dict[str, object] = {}

    def slow_build() -> str:
        building.set()
        assert release.wait(60)
        return "dealt"

    def ask(who: str) -> None:
        got[who] = positions.once_per_run("dealt", slow_build)

    first = threading.Thread(target=ask, args=("first",))
    first.start()
    assert building.wait(60)
    positions._PICKLED.clear()  # the second asker has nothing in memory: it goes to the file
    second = threading.Thread(target=ask, args=("second",))
    second.start()
    release.set()
    first.join(60)
    second.join(60)
    assert got == {"first": "dealt", "second": "dealt"}
    assert positions.BUILT == ["dealt"]


def test_a_copied_key_signs_as_the_original(run: Path) -> None:
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    copy = positions.once_per_run("key", lambda: {"key": key})["key"]
    assert copy is not key
    assert copy.sign(b"entry") == key.sign(b"entry")
    copy.public_key().verify(key.sign(b"entry"), b"entry")


@pytest.mark.parametrize("name", ["", "..", "a/b", "dealt seat", "../up"])
def test_a_name_that_is_no_file_name_is_refused_and_nothing_is_built(run: Path, name: str) -> None:
    with pytest.raises(ValueError, match="a position name is a file name"):
        positions.once_per_run(name, lambda: pytest.fail("built"))
    assert positions.BUILT == [] and list(run.iterdir()) == []


def test_a_build_that_fails_leaves_nothing_and_the_next_call_builds_again(run: Path) -> None:
    def broken() -> int:
        raise RuntimeError("no deck")

    with pytest.raises(RuntimeError, match="no deck"):
        positions.once_per_run("table", broken)
    assert not (run / "table.pickle").exists()
    assert positions.once_per_run("table", lambda: 7) == 7


def test_outside_a_run_a_position_is_built_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(positions.POSITIONS_ENV, raising=False)
    monkeypatch.setattr(positions, "_PICKLED", {})
    monkeypatch.setattr(positions, "BUILT", [])
    assert positions.run_folder() is None
    assert positions.once_per_run("table", lambda: [3]) == [3]
    assert positions.once_per_run("table", lambda: pytest.fail("built twice")) == [3]
    assert positions.BUILT == ["table"]


def test_a_new_run_folder_is_named_after_its_process_and_sweeps_the_folders_of_runs_that_are_gone(
    tmp_path: Path,
) -> None:
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = tmp_path / f"{positions.FOLDER_PREFIX}{gone.stdout.strip()}-x1"  # a run killed before its end
    dead.mkdir()
    (dead / "table.pickle").write_bytes(b"old")
    live = tmp_path / f"{positions.FOLDER_PREFIX}{os.getpid()}-x2"  # a run still going
    live.mkdir()
    other = tmp_path / "someone-elses"
    other.mkdir()
    made = positions.new_run_folder(tmp_path)
    assert made.is_dir() and made.name.startswith(f"{positions.FOLDER_PREFIX}{os.getpid()}-")
    assert not dead.exists() and live.is_dir() and other.is_dir()


@pytest.mark.parametrize("room", [0, None], ids=["roomy RAM disk", "RAM disk too small"])
def test_a_run_folder_goes_to_the_ram_disk_only_when_it_has_room_for_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, room: int | None
) -> None:
    ram, disk = tmp_path / "shm", tmp_path / "tmp"
    ram.mkdir()
    disk.mkdir()
    monkeypatch.setattr(positions, "_RAM_DISK", str(ram))
    monkeypatch.setattr(positions.tempfile, "tempdir", str(disk))
    monkeypatch.setattr(positions, "RAM_DISK_FREE", 2**62 if room is None else room)
    made = positions.new_run_folder()
    assert made.parent == (ram if room == 0 else disk)
    monkeypatch.setattr(positions, "_RAM_DISK", str(tmp_path / "none"))  # a machine without one
    assert positions.new_run_folder().parent == disk
