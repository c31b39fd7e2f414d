"""Two home networks behind NATs, and the internet between them, made of network namespaces
without privilege and without a packet leaving this machine (for the tests of play across the
internet):

    host  192.168.1.2 ── 192.168.1.1  home A's router  203.0.113.2 ──┐
                                      (masquerade; UDP 7447 forwarded  203.0.113.1
                                       to the host: the test's port    the internet
                                       forward)                        198.51.100.1
    guest 192.168.2.2 ── 192.168.2.1  home B's router  198.51.100.2 ──┘
                                      (masquerade)

``unshare -rn`` makes a user namespace and the internet's network namespace; every other
namespace is made inside the same user namespace (``unshare -n``) and joined to its neighbour by
a veth pair. The routers forward and masquerade with nftables. A context manager: the namespaces
go when it closes. :func:`nat_unavailable` says why they cannot be made here (None when they can).
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.support.netns import Machine, TwoMachines

HOST = "192.168.1.2"
GUEST = "192.168.2.2"
PUBLIC_A = "203.0.113.2"
"""Home A's public address: the one in the host's ticket, with the forwarded port."""
FORWARDED = 7447
"""The UDP port home A's router forwards to the host (the table's port)."""

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
    """The five namespaces of the module's drawing: ``internet``, ``router_a``, ``router_b``,
    ``host`` and ``guest`` (each a :class:`~tests.support.netns.Machine`, its data directory under
    ``data``). ``forward``: whether home A's router forwards UDP :data:`FORWARDED` to the host."""

    def __init__(self, data: Path, forward: bool = True) -> None:
        self.data = data
        self.forward = forward
        self.machines: list[Machine] = []

    def _machine(self, prefix: list[str], name: str, address: str) -> Machine:
        machine = Machine(TwoMachines._keeper(prefix), address, self.data / name)
        machine.data.mkdir(parents=True, exist_ok=True)
        self.machines.append(machine)
        return machine

    def _sh(self, machine: Machine, script: str) -> None:
        subprocess.run(machine.command(["sh", "-c", script]), check=True, capture_output=True, timeout=20)

    def _link(self, a: Machine, a_name: str, a_cidr: str, b: Machine, b_name: str, b_cidr: str) -> None:
        self._sh(a, f"ip link add {a_name} type veth peer name {b_name} && ip link set {b_name} netns {b.pid}")
        self._sh(a, f"ip addr add {a_cidr} dev {a_name} && ip link set {a_name} up")
        self._sh(b, f"ip addr add {b_cidr} dev {b_name} && ip link set {b_name} up")

    def __enter__(self) -> HomeNetworks:
        try:
            net = self.internet = self._machine(["unshare", "-rn"], "internet", "203.0.113.1")
            inside = net.command(["unshare", "-n"])
            ra = self.router_a = self._machine(inside, "router_a", PUBLIC_A)
            rb = self.router_b = self._machine(inside, "router_b", "198.51.100.2")
            host = self.host = self._machine(inside, "host", HOST)
            guest = self.guest = self._machine(inside, "guest", GUEST)
            for m in self.machines:
                self._sh(m, "ip link set lo up")
            self._link(net, "to_a", "203.0.113.1/24", ra, "wan", f"{PUBLIC_A}/24")
            self._link(net, "to_b", "198.51.100.1/24", rb, "wan", "198.51.100.2/24")
            self._link(ra, "lan", "192.168.1.1/24", host, "eth0", f"{HOST}/24")
            self._link(rb, "lan", "192.168.2.1/24", guest, "eth0", f"{GUEST}/24")
            self._sh(net, _ROUTER)
            forward = f"iifname wan udp dport {FORWARDED} dnat to {HOST}:{FORWARDED}" if self.forward else ""
            self._sh(ra, f"{_ROUTER} && ip route add default via 203.0.113.1 && {_nat('wan', forward)}")
            self._sh(rb, f"{_ROUTER} && ip route add default via 198.51.100.1 && {_nat('wan')}")
            self._sh(host, "ip route add default via 192.168.1.1")
            self._sh(guest, "ip route add default via 192.168.2.1")
        except BaseException:
            self.close()
            raise
        return self

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
