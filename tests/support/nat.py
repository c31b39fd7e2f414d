"""Home networks behind NATs, and the internet between them, made of network namespaces without
privilege and without a packet leaving this machine (for the tests of play across the internet):

    host     192.168.1.2 ── 192.168.1.1  home 1's router  203.0.113.2 ──┐
                                         (masquerade; UDP 7447          │
                                          forwarded to the host)        │
    guest 1  192.168.2.2 ── 192.168.2.1  home 2's router  203.0.113.3 ──┼── 203.0.113.1
                                         (masquerade)                   │   the internet
    guest 2  192.168.3.2 ── 192.168.3.1  home 3's router  203.0.113.4 ──┘
                                         (masquerade)

``unshare -rn`` makes a user namespace and the internet's network namespace; every other
namespace is made inside the same user namespace (``unshare -n``) and joined to its neighbour by
a veth pair (the routers' to the internet's bridge). The routers forward and masquerade with
nftables. A context manager: the namespaces go when it closes. :func:`nat_unavailable` says why
they cannot be made here (None when they can).
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.support.netns import Machine, TwoMachines

PUBLIC_A = "203.0.113.2"
"""Home 1's public address: the one in the host's ticket, with the forwarded port."""
FORWARDED = 7447
"""The UDP port home 1's router forwards to the host (the table's port)."""

_ROUTER = "sysctl -qw net.ipv4.ip_forward=1"


def _nat(wan: str, forward: str = "") -> str:
    """nftables rules of a home router: masquerade what leaves by ``wan``; ``forward``: a DNAT
    rule's body for the port forward (nothing: none)."""
    rules = [
        "add table ip nat",
        "add chain ip nat post { type nat hook postrouting priority 100 ; }",
        f"add rule ip nat post oifname {wan} masquerade",
    ]
    if forward:
        rules += ["add chain ip nat pre { type nat hook prerouting priority -100 ; }", f"add rule ip nat pre {forward}"]
    return "nft -f - <<'EOF'\n" + "\n".join(rules) + "\nEOF"


class HomeNetworks:
    """The namespaces of the module's drawing: ``internet``, and for each of ``homes`` homes a
    router and a computer (``computers[0]`` the host's, the others the guests'; each a
    :class:`~tests.support.netns.Machine`, its data directory under ``data``). Home 1's router
    forwards UDP :data:`FORWARDED` to the host."""

    def __init__(self, data: Path, homes: int = 3) -> None:
        self.data = data
        self.homes = homes
        self.machines: list[Machine] = []
        self.computers: list[Machine] = []

    def _machine(self, prefix: list[str], name: str, address: str) -> Machine:
        machine = Machine(TwoMachines._keeper(prefix), address, self.data / name)
        machine.data.mkdir(parents=True, exist_ok=True)
        self.machines.append(machine)
        return machine

    def _sh(self, machine: Machine, script: str) -> None:
        subprocess.run(machine.command(["sh", "-c", script]), check=True, capture_output=True, timeout=20)

    def _link(self, a: Machine, a_name: str, b: Machine, b_name: str, b_cidr: str, a_cidr: str = "") -> None:
        self._sh(a, f"ip link add {a_name} type veth peer name {b_name} && ip link set {b_name} netns {b.pid}")
        self._sh(a, (f"ip addr add {a_cidr} dev {a_name} && " if a_cidr else "") + f"ip link set {a_name} up")
        self._sh(b, f"ip addr add {b_cidr} dev {b_name} && ip link set {b_name} up")

    def __enter__(self) -> HomeNetworks:
        try:
            net = self.internet = self._machine(["unshare", "-rn"], "internet", "203.0.113.1")
            self._sh(net, f"ip link set lo up && ip link add wire type bridge && ip addr add 203.0.113.1/24 dev wire"
                     f" && ip link set wire up && {_ROUTER}")  # fmt: skip
            inside = net.command(["unshare", "-n"])
            for i in range(1, self.homes + 1):
                public, lan = f"203.0.113.{i + 1}", f"192.168.{i}"
                router = self._machine(inside, f"router{i}", public)
                computer = self._machine(inside, f"home{i}", f"{lan}.2")
                self.computers.append(computer)
                self._sh(router, "ip link set lo up")
                self._sh(computer, "ip link set lo up")
                self._link(net, f"to{i}", router, "wan", f"{public}/24")
                self._sh(net, f"ip link set to{i} master wire")
                self._link(router, "lan", computer, "eth0", f"{lan}.2/24", f"{lan}.1/24")
                forward = f"iifname wan udp dport {FORWARDED} dnat to {lan}.2:{FORWARDED}" if i == 1 else ""
                self._sh(router, f"{_ROUTER} && ip route add default via 203.0.113.1 && {_nat('wan', forward)}")
                self._sh(computer, f"ip route add default via {lan}.1")
        except BaseException:
            self.close()
            raise
        return self

    @property
    def host(self) -> Machine:
        """The host's computer, behind home 1's router and its port forward."""
        return self.computers[0]

    @property
    def guests(self) -> list[Machine]:
        """The guests' computers, each behind a NAT of its own."""
        return self.computers[1:]

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Let the namespaces go (their keepers end), the internet's last."""
        for machine in reversed(self.machines):
            if machine.keeper.poll() is None:
                assert machine.keeper.stdin is not None
                machine.keeper.stdin.close()
                machine.keeper.wait(20)
        self.machines.clear()


@functools.cache
def nat_unavailable() -> str | None:
    """Why :class:`HomeNetworks` cannot be made here (a sentence for a skip), or None."""
    for tool in ("unshare", "nsenter", "ip", "nft", "sysctl"):
        if shutil.which(tool) is None:
            return f"`{tool}` is not installed, so no home networks behind NATs can be made for the internet tests."
    with tempfile.TemporaryDirectory() as tmp:
        try:
            with HomeNetworks(Path(tmp)):
                return None
        except subprocess.CalledProcessError as err:
            why = (err.stderr or b"").decode(errors="replace").strip().splitlines()
            return f"This machine does not allow home networks behind NATs here ({why[-1] if why else err})."
        except (OSError, subprocess.TimeoutExpired) as err:
            return f"This machine does not allow the namespaces of home networks behind NATs ({err})."
