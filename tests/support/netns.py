"""Running a piece of a test in a network namespace of its own (``unshare -rn``: a user namespace
maps the caller to root inside, so no privilege is needed), where loopback may hold any address:
the only way a test on one machine can connect "from another address". Nothing leaves the
namespace: it has no interface but ``lo``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _setup(addresses: Sequence[str]) -> str:
    steps = ["ip link set lo up", "ip link set lo multicast on", "ip route add 224.0.0.0/4 dev lo"]
    steps += [f"ip addr add {a} dev lo" for a in addresses]
    return " && ".join(steps)


def why_not() -> str | None:
    """Why a network namespace cannot be made here (a sentence for a skip), or None when it can."""
    if os.name != "posix" or shutil.which("unshare") is None or shutil.which("ip") is None:
        return "unshare and ip (util-linux, iproute2) are needed for a network namespace"
    try:
        done = subprocess.run(["unshare", "-rn", "sh", "-c", _setup(["10.99.0.1/24"])], capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"unshare -rn failed: {err}"
    if done.returncode != 0:
        return f"this system allows no unprivileged network namespace: {done.stderr.decode(errors='replace').strip()}"
    return None


def run_in_netns(code: str, addresses: Sequence[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``python -c code`` from the project root in a fresh network namespace whose ``lo`` is up,
    carries multicast (a 224.0.0.0/4 route) and holds ``addresses`` (CIDR, "10.9.0.2/24"); returns
    the finished process (stdout and stderr as text)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), VAMPIRE_NO_DISCOVERY="1")
    script = f'{_setup(addresses)} && exec "$0" -c "$1"'
    return subprocess.run(
        ["unshare", "-rn", "sh", "-c", script, sys.executable, code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
