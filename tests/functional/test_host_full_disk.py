"""A host whose log disk fills mid-game stops cleanly (DESIGN.md, "Nothing lost"): one sentence
that names the file and says how to bring the table back, to its person and in a `bye` to every
peer, no traceback, a non-zero exit, whichever writer meets the full disk first (the host's log or
one of its bots' copies beside it); once there is space, `--resume` plays the table to its end
and the audit is clean. The disk is a small tmpfs in a mount namespace this test creates."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import can_mount, child_env

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not can_mount(), reason="creating a mount namespace (unshare -m) is not allowed here")
def test_a_host_whose_disk_fills_stops_in_a_sentence_and_resumes_clean(tmp_path):
    small = tmp_path / "small"
    small.mkdir()
    kept = tmp_path / "kept"
    env = child_env(tmp_path)
    host = [
        sys.executable,
        "-m",
        "tui.cli",
        "host",
        "--headless",
        "--game",
        "queen",
        "--bots",
        "4",
        "--bind",
        "127.0.0.1",
        "--port",
        "0",
    ]
    script = (
        f"mount -t tmpfs -o size=300k tmpfs {small} && "
        f"{' '.join(host)} --save {small / 't.vtlog'}; status=$?; cp -r {small} {kept}; exit $status"
    )
    full = subprocess.run(
        ["unshare", "-m", "sh", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    out = full.stdout + full.stderr
    assert full.returncode != 0, out
    assert "Traceback" not in out, out
    stop = [line for line in out.splitlines() if "No space left on device" in line]
    assert len(stop) == 1, out
    assert f"--resume {small / 't.vtlog'}" in stop[0] and "nothing accepted before is lost" in stop[0]
    # Space again (the kept copy of the small disk): the table comes back and plays to its end.
    log = kept / "t.vtlog"
    back = subprocess.run([*host, "--resume", str(log)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert back.returncode == 0, back.stdout + back.stderr
    audit = subprocess.run(
        [sys.executable, "-m", "tui.cli", "audit", str(log)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert audit.returncode == 0, audit.stdout
