"""Running a test's LAN traffic inside a network namespace of its own (DEVELOPERS.md: nothing a
test sends leaves this machine's loopback or its own namespaces).

:func:`netns_unavailable` says why this machine gives no namespace (None when it does);
:func:`run_in_netns` runs a command in a fresh one, as an unprivileged user mapped to root
(``unshare -rn``), after bringing its loopback up with multicast and a 224.0.0.0/4 route, so that
mDNS and the seen reports' multicast reach the processes inside and nothing else. The namespace
goes when the command ends. ``VAMPIRE_NO_DISCOVERY`` is removed from the command's environment:
inside, discovery is on. :func:`run_code_in_netns` runs Python code in one whose loopback also holds
the addresses given, the only way a test on one machine can connect "from another address".
:class:`TwoMachines` makes two namespaces joined by a virtual Ethernet link, the LAN of two
computers (:func:`two_machines_unavailable` says why it cannot be made here).
"""

from __future__ import annotations

import asyncio
import functools
import os
import shutil
import subprocess
import sys
from asyncio.subprocess import PIPE, STDOUT, Process
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


VETH_A = "10.86.85.1"
"""Machine A's address on the virtual Ethernet link between the two machines of :class:`TwoMachines`."""

VETH_B = "10.86.85.2"
"""Machine B's address on that link."""


def _network(device: str, address: str, multicast_route: bool) -> str:
    """The shell steps that give a machine its loopback and its end of the link, up, with
    multicast on and, if ``multicast_route``, a 224.0.0.0/4 route to the link (no default route:
    two computers joined by one cable)."""
    steps = f"ip link set lo up && ip addr add {address}/24 dev {device} && ip link set {device} up multicast on"
    return steps + (f" && ip route add 224.0.0.0/4 dev {device}" if multicast_route else "")


class Machine:
    """One of the two "machines" of :class:`TwoMachines`: a network namespace, kept open by a
    process that waits on its standard input (``pid``), with ``address`` on the link.

    :meth:`command` wraps a command to run inside it (``nsenter`` into the user namespace the
    test made and this network namespace: no privilege is needed, and its processes see only
    ``lo`` and their end of the link); :meth:`env` is the environment a command runs with there:
    discovery on, the repository on ``PYTHONPATH``, unbuffered output, ``XDG_DATA_HOME`` its own.
    :meth:`start` and :meth:`run` run a command there on the test's event loop."""

    def __init__(self, keeper: subprocess.Popen[bytes], address: str, data: Path) -> None:
        self.keeper = keeper
        self.pid = keeper.pid
        self.address = address
        self.data = data
        self.processes: list[Process] = []

    def command(self, args: Sequence[str]) -> list[str]:
        """``args`` run inside this machine's namespaces."""
        return ["nsenter", "-t", str(self.pid), "-U", "-n", "--preserve-credentials", "--", *args]

    def env(self) -> dict[str, str]:
        """The environment of a command run on this machine (see the class)."""
        env = {k: v for k, v in os.environ.items() if k != "VAMPIRE_NO_DISCOVERY"}
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        env["PYTHONUNBUFFERED"] = "1"
        env["XDG_DATA_HOME"] = str(self.data)
        return env

    async def start(self, args: Sequence[str], stdin: int | None = asyncio.subprocess.DEVNULL) -> Process:
        """Start ``args`` here, from the repository's root, its stdout a pipe and stderr with it
        (``stdin``: a pipe, or nothing by default). :meth:`stop` ends it if it is still running."""
        proc = await asyncio.create_subprocess_exec(
            *self.command(args), cwd=ROOT, env=self.env(), stdin=stdin, stdout=PIPE, stderr=STDOUT
        )
        self.processes.append(proc)
        return proc

    async def run(self, args: Sequence[str], timeout: float = 30) -> tuple[int, str]:
        """Run ``args`` here to its end: (its exit status, its output, both streams). Raises
        TimeoutError after ``timeout`` seconds (the process is ended by :meth:`stop`)."""
        proc = await self.start(args)
        out, _ = await asyncio.wait_for(proc.communicate(), timeout)
        assert proc.returncode is not None
        return proc.returncode, out.decode(errors="replace")

    async def stop(self) -> None:
        """End every process :meth:`start` started here that is still running."""
        for proc in self.processes:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


class TwoMachines:
    """Two "machines" on one LAN, made without privilege and without a packet leaving this one:
    ``unshare -rn`` makes a user namespace and network namespace A; inside the same user
    namespace, ``unshare -n`` makes network namespace B; a veth pair joins them (``vethA`` with
    :data:`VETH_A` in A, ``vethB`` with :data:`VETH_B` in B, a /24), each with its ``lo`` up and
    multicast on the link; no default route. ``multicast_route``: a 224.0.0.0/4 route to the link
    on each side (False: no route at all but the link's own /24, as on a computer joined to
    another by a cable and nothing else). ``data``: a folder where each machine gets its own data
    directory (``data/a``, ``data/b``). A context manager: the namespaces go when it closes (after
    the processes a test started in them have ended). Raises OSError (or CalledProcessError) when
    the machine allows no namespace or no veth."""

    def __init__(self, data: Path, multicast_route: bool = True) -> None:
        self.data = data
        self.multicast_route = multicast_route
        self.a: Machine | None = None
        self.b: Machine | None = None

    def __enter__(self) -> TwoMachines:
        try:
            a = Machine(self._keeper(["unshare", "-rn"]), VETH_A, self.data / "a")
            self.a = a
            b = Machine(self._keeper(a.command(["unshare", "-n"])), VETH_B, self.data / "b")
            self.b = b
            link = f"ip link add vethA type veth peer name vethB && ip link set vethB netns {b.pid}"
            subprocess.run(
                a.command(["sh", "-c", f"{link} && {_network('vethA', VETH_A, self.multicast_route)}"]),
                check=True,
                capture_output=True,
                timeout=20,
            )
            subprocess.run(
                b.command(["sh", "-c", _network("vethB", VETH_B, self.multicast_route)]),
                check=True,
                capture_output=True,
                timeout=20,
            )
        except BaseException:
            self.close()
            raise
        for machine in (a, b):
            machine.data.mkdir(parents=True, exist_ok=True)
        return self

    @staticmethod
    def _keeper(prefix: list[str]) -> subprocess.Popen[bytes]:
        # The namespace lives as long as this shell, which waits for its standard input to close
        # (so it goes with the test process, however that ends). It says "ready" once inside.
        keeper = subprocess.Popen(
            [*prefix, "sh", "-c", "echo ready && exec cat >/dev/null"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert keeper.stdout is not None
        if keeper.stdout.readline().strip() != b"ready":
            _, err = keeper.communicate(timeout=20)
            raise OSError(err.decode(errors="replace").strip() or f"`{' '.join(prefix)}` exited {keeper.returncode}")
        return keeper

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Let the namespaces go (their keepers end)."""
        for machine in (self.b, self.a):
            if machine is not None and machine.keeper.poll() is None:
                assert machine.keeper.stdin is not None
                machine.keeper.stdin.close()
                machine.keeper.wait(20)


@functools.cache
def two_machines_unavailable() -> str | None:
    """Why this machine cannot make :class:`TwoMachines` (a sentence for a skip), or None."""
    for tool in ("unshare", "nsenter", "ip"):
        if shutil.which(tool) is None:
            return f"`{tool}` is not installed, so no two network namespaces can be made for the LAN tests."
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        try:
            with TwoMachines(Path(tmp)):
                return None
        except subprocess.CalledProcessError as err:
            why = (err.stderr or b"").decode(errors="replace").strip().splitlines()
            return (
                f"This machine does not allow a veth pair between two network namespaces ({why[-1] if why else err})."
            )
        except (OSError, subprocess.TimeoutExpired) as err:
            return f"This machine does not allow two network namespaces for the LAN tests ({err})."
