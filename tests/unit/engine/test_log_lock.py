"""One writer per log file (PROTOCOL.md 8): a writer holds an exclusive lock on its log from opening
to closing, so a second writer, in another process or in this one, is refused with a sentence and
writes nothing; readers take no lock."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.protocol.log import ZERO32, LogInUse, LogWriter, read_log, sign_entry, sign_head

ROOT = Path(__file__).resolve().parents[3]

needs_flock = pytest.mark.skipif(sys.platform == "win32", reason="flock: no log lock on Windows")

#: A child that opens the log at argv[1] as its writer, says so, and holds it until its stdin closes.
HOLDER = """
import sys
from engine.protocol.log import LogWriter

with LogWriter(sys.argv[1]):
    print("holding", flush=True)
    sys.stdin.read()
"""


def sentence(path: Path) -> str:
    return (
        f"The log file {path} is in use by another vampire process, which is writing to it: "
        "close that one first (a log has one writer)."
    )


@pytest.fixture
def genesis_log(tmp_path) -> Path:
    """A log file holding one genesis entry, closed."""
    host = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    genesis = sign_entry(host, table=ZERO32, seq=0, prev=ZERO32, kind="table", body={}, time_ms=0)
    path = tmp_path / "table.vtlog"
    with LogWriter(path) as writer:
        writer.append(genesis, sign_head(host, genesis.id, 0, genesis.id))
    return path


@needs_flock
def test_a_log_another_process_writes_is_refused_and_left_as_it_was(genesis_log):
    before = genesis_log.read_bytes()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(genesis_log)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "holding\n", holder.stderr
        for opening in (LogWriter, LogWriter.open_existing):
            with pytest.raises(LogInUse) as caught:
                opening(genesis_log)
            assert str(caught.value) == sentence(genesis_log)
        assert len(read_log(genesis_log).entries) == 1  # a reader (audit, replay) is not kept out
        assert genesis_log.read_bytes() == before
    finally:
        holder.communicate(input="", timeout=60)  # closes its stdin: it closes its writer and exits
    assert holder.returncode == 0
    with LogWriter.open_existing(genesis_log) as writer:  # the lock went with the process
        assert len(writer.loaded.entries) == 1


@needs_flock
def test_a_second_writer_in_the_same_process_is_refused_until_the_first_closes(genesis_log):
    first = LogWriter.open_existing(genesis_log)
    with pytest.raises(LogInUse) as caught:
        LogWriter(genesis_log)
    assert str(caught.value) == sentence(genesis_log)
    assert len(read_log(genesis_log).entries) == 1
    first.close()
    with LogWriter(genesis_log) as second:
        assert len(second.loaded.entries) == 1


@needs_flock
def test_a_new_log_being_created_is_locked_too(tmp_path):
    path = tmp_path / "new.vtlog"
    with LogWriter(path), pytest.raises(LogInUse):
        LogWriter(path)
