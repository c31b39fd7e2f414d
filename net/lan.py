"""What the LAN features share: the switch that turns every multicast off, and clean names.

Two features send multicast on the LAN: table discovery (DNS-SD over mDNS, :mod:`net.discovery`,
PROTOCOL.md 9) and direct seen reports (:mod:`net.seen`, PROTOCOL.md 7). Both are off when the
environment sets ``VAMPIRE_NO_DISCOVERY=1``: then nothing is announced, nothing listens, and
nothing is sent (tests, smoke scripts and benchmarks set it, or run in a network namespace of
their own). The seen reports relayed by the host do not depend on it.

Where the LAN is: :func:`lan_ipv4` (this machine's address on it, with or without a default
route: two computers joined by one cable, a switch with no router, have none), :func:`nearest`
(which of a host's addresses is on a LAN this machine shares) and :func:`multicast_interface`
(the interface a peer's multicast goes out by: the one facing its table's host, so that it
reaches the other players whatever the routes say).
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Sequence

import ifaddr

from engine.table.names import clean_display

NO_DISCOVERY_ENV = "VAMPIRE_NO_DISCOVERY"
"""The environment variable that turns off every LAN multicast when set to anything but "" or "0"."""

DISCOVERY_OFF = (
    "LAN discovery is off (VAMPIRE_NO_DISCOVERY is set): no table is announced or heard; join with an address"
)
"""What a command that would listen for tables says instead, when discovery is off; the caller
ends the sentence with where the address goes."""


def multicast_off() -> bool:
    """Whether the environment turns LAN multicast off (``VAMPIRE_NO_DISCOVERY``)."""
    return os.environ.get(NO_DISCOVERY_ENV, "") not in ("", "0")


def clean_text(text: str, limit: int = 64) -> str:
    """``text`` from the network as it may be shown, cleaned as a table cleans a player's name
    (:func:`engine.table.names.clean_display`): in NFC, control characters (Unicode category Cc:
    escapes, newlines, tabs), format characters (Cf: bidirectional overrides, zero-width spaces
    and joiners) and private or unassigned code points removed, other blanks made plain spaces,
    surrounding spaces stripped, at most ``limit`` characters."""
    return clean_display(text).strip()[:limit]


def _interfaces() -> list[ipaddress.IPv4Interface]:
    """This machine's IPv4 interface addresses with their networks, loopback left out, in the
    order the system lists its interfaces, each once. Reads the interfaces (``getifaddrs``)."""
    found: list[ipaddress.IPv4Interface] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                interface = ipaddress.IPv4Interface(f"{ip.ip}/{ip.network_prefix}")
                if not interface.is_loopback and interface not in found:
                    found.append(interface)
    return found


def interface_addresses() -> list[str]:
    """This machine's IPv4 addresses on its network interfaces, loopback (127.0.0.0/8) left out,
    as text, in the order the system lists its interfaces, each once. Sends nothing."""
    return list(dict.fromkeys(str(i.ip) for i in _interfaces()))


def nearest(addresses: Sequence[str]) -> str:
    """Of a host's ``addresses`` (IPv4, as text; at least one), the first on a network one of
    this machine's interfaces is on (the LAN both share: a host on two LANs announces an
    address on each), else the first. Sends nothing."""
    networks = [i.network for i in _interfaces()]
    for address in addresses:
        try:
            ip = ipaddress.IPv4Address(address)
        except ValueError:
            continue
        if any(ip in network for network in networks):
            return address
    return addresses[0]


def route_source(toward: str) -> str | None:
    """The local IPv4 address a datagram to ``toward`` (an IPv4 address, as text) would leave
    from, or None when no route leads there. Sends nothing: a UDP socket is only connected."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect((toward, 9))
        address: str = s.getsockname()[0]
        return address
    except OSError:
        return None
    finally:
        s.close()


def lan_ipv4() -> str | None:
    """This machine's IPv4 address on its LAN: the one a default route leaves from; without a
    default route, the first of :func:`interface_addresses`; None when it has only loopback."""
    by_route = route_source("10.255.255.255")
    return by_route if by_route is not None else next(iter(interface_addresses()), None)


def multicast_interface(toward: str) -> str | None:
    """The IPv4 address of the interface a peer at the host ``toward`` (its address, as text)
    sends and hears LAN multicast on (PROTOCOL.md 7): the one its connection to the host leaves
    by, where the table's other players are; for a host on this computer (a loopback route),
    this machine's LAN address (:func:`lan_ipv4`). None (the system's choice, by its routes)
    when ``toward`` is not an IPv4 address (a name is not looked up here) or nothing fits."""
    try:
        ipaddress.IPv4Address(toward)
    except ValueError:
        return None
    source = route_source(toward)
    if source is None or ipaddress.IPv4Address(source).is_loopback:
        return lan_ipv4()
    return source
