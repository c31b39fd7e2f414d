"""Running a test's LAN traffic inside a network namespace of its own (DEVELOPERS.md: nothing a
test sends leaves this machine's loopback or its own namespaces).

:func:`netns_unavailable` says why this machine gives no namespace (None when it does);
:func:`run_in_netns` runs a command in a fresh one, as an unprivileged user mapped to root
(``unshare -rn``), after bringing its loopback up with multicast and a 224.0.0.0/4 route, so that
mDNS and the seen reports' multicast reach the processes inside and nothing else. The namespace
goes when the command ends. ``VAMPIRE_NO_DISCOVERY`` is removed from the command's environment:
inside, discovery is on. :func:`run_code_in_netns` runs Python code in one whose loopback also holds
the addresses given, the only way a test on one machine can connect "from another address".
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SETUP = (
    "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo"
    " && ip addr add 10.86.84.1/24 dev lo && ip route add default via 10.86.84.1 dev lo"
)
"""The namespace's network: its loopback, up, with multicast routed to it, and a LAN address on it
(10.86.84.1, the default route) so that a host listening on every interface announces an address
other than 127.0.0.1, as on a real LAN. All of it is the namespace's own loopback."""


@functools.cache
def netns_unavailable() -> str | None:
    """Why no network namespace can be made here (a sentence for a skip), or None."""
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            return f"`{tool}` is not installed, so no network namespace can be made for the LAN tests."
    try:
        done = subprocess.run(["unshare", "-rn", "sh", "-c", SETUP], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"`unshare -rn` cannot run here ({err}), so no network namespace can be made for the LAN tests."
    if done.returncode != 0:
        why = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
        return f"This machine does not allow a network namespace for the LAN tests (`unshare -rn`: {why})."
    return None


def run_in_netns(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``args`` inside a fresh network namespace (see the module), from the repository's root,
    with discovery on; returns the finished process (stdout, stderr as text)."""
    env = {k: v for k, v in os.environ.items() if k != "VAMPIRE_NO_DISCOVERY"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        ["unshare", "-rn", "sh", "-c", f'{SETUP} && exec "$@"', "netns", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_scenario(name: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run one scenario of :mod:`tests.support.lan_scenarios` in a fresh namespace."""
    return run_in_netns([sys.executable, "-m", "tests.support.lan_scenarios", name, *args], timeout)


def run_code_in_netns(code: str, addresses: Sequence[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``python -c code`` from the project root in a fresh network namespace whose ``lo`` is up,
    carries multicast (a 224.0.0.0/4 route) and holds ``addresses`` (CIDR, "10.9.0.2/24"), with
    discovery off; returns the finished process (stdout and stderr as text)."""
    steps = ["ip link set lo up", "ip link set lo multicast on", "ip route add 224.0.0.0/4 dev lo"]
    steps += [f"ip addr add {a} dev lo" for a in addresses]
    env = dict(os.environ, PYTHONPATH=str(ROOT), VAMPIRE_NO_DISCOVERY="1")
    script = " && ".join(steps) + ' && exec "$0" -c "$1"'
    return subprocess.run(
        ["unshare", "-rn", "sh", "-c", script, sys.executable, code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
