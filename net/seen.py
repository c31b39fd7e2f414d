"""Seen reports (PROTOCOL.md 7, "Seen reports" and "Fork evidence without trusting the host").

A **seen report** is a peer's signed statement of the latest head it holds: ``[key, fsig, hsig]``,
with ``hsig`` the host's head signature over ``(table, seq, entry id)`` and ``fsig`` the peer's
own Ed25519 signature over the canonical ``["vampire-table/seen/v2", table, seq, entry id]``.
Peers send theirs to the host in every ``ping`` (the host relays them verbatim) and, on a LAN,
to each other directly: a UDP datagram to the multicast group 239.255.86.84 port 7448, TTL 1,
holding the canonical map ``{t: "seen", table, seq, id, hsig, from, fsig}`` (at most 512 bytes),
every 2 s +- 0.5 s and at once on a new head.

- :func:`sign_seen`, :func:`verify_seen`: the peer's signature of a report;
- :class:`SeenReport`: a report with the head it is about, from either path;
- :func:`datagram_bytes`, :func:`parse_datagram`: the multicast datagram (other tables are
  ignored before any signature is checked);
- :func:`ask_bytes`: the datagram that asks the group for the head it holds at a seq;
- :class:`SourceLimit`: at most 10 datagrams a second from one source address (whatever its
  port), and :data:`ALL_SOURCES` from all of them together;
- :class:`SeenMulticast`: the best-effort multicast endpoint of one peer (a datagram already
  handed on is not handed on, nor verified, again);
- :class:`SilenceWatch`: the players whose signed reports stopped advancing.

Nothing here trusts the host or the sender: a report is only a pair of signatures, which the
receiver checks with the keys it holds (the genesis author's, the seated players').
"""

from __future__ import annotations

import asyncio
import collections
import logging
import random
import socket
import struct
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from engine.protocol.codec import CodecError, Limits, bin_of, check_map, decode, encode, int_in, one_of
from engine.protocol.log import Head

log = logging.getLogger("vampire.net.seen")

SEEN_DOMAIN = "vampire-table/seen/v2"
"""The first element of the array a peer's seen signature covers."""

GROUP = "239.255.86.84"
"""The multicast group of direct seen reports (administratively scoped: it stays on the LAN)."""

PORT = 7448
"""The UDP port of direct seen reports."""

TTL = 1
"""Multicast hops: 1, the datagrams never cross a router."""

MAX_DATAGRAM = 512
"""The largest seen datagram sent or read, in bytes."""

INTERVAL = 2.0
"""Seconds between two datagrams of one peer (each wait drawn within +- :data:`JITTER`)."""

JITTER = 0.5

PER_SOURCE = 10
"""Datagrams a second taken from one source address (any port); more are dropped unread."""

ALL_SOURCES = 50
"""Datagrams a second taken from all sources together (a ceiling whatever the number of
addresses); more are dropped unread. Each one taken costs a receiver at most two signature
checks."""

ANSWERS = 4
"""Answers to ``ask`` datagrams this peer sends a second at most (each costs it one signature)."""

MAX_HANDED = 512
"""Datagrams remembered as already handed on (the latest): an honest peer repeats its report
every 2 s, and a replay costs nothing."""

MIN_GAP = 0.2
"""The least seconds between two datagrams of one peer, new heads or not: at most 5 a second
while a catch-up folds many entries, so an honest peer stays under the receivers' limit."""

MAX_SOURCES = 1024
"""Sources whose rate is tracked at once (the oldest is forgotten past this)."""

_LIMITS = Limits(max_bytes=MAX_DATAGRAM, max_bin=64, max_str=16, max_array=0, max_map=8, max_depth=1, max_objects=15)

_ASK_FIELDS = {"t": one_of("ask"), "table": bin_of(32), "seq": int_in(0)}


def seen_message(table: bytes, seq: int, entry_id: bytes) -> bytes:
    """The bytes a seen signature covers: the canonical ``[SEEN_DOMAIN, table, seq, entry id]``."""
    return encode([SEEN_DOMAIN, table, seq, entry_id])


def sign_seen(key: Ed25519PrivateKey, head: Head) -> bytes:
    """``key``'s 64-byte seen signature for ``head`` (it holds the host's head ``head``)."""
    return key.sign(seen_message(head.table, head.seq, head.entry_id))


def verify_seen(key: bytes, head: Head, fsig: Any) -> bool:
    """Whether ``fsig`` is ``key``'s seen signature for ``head``; any malformed input gives False."""
    if not (isinstance(fsig, bytes) and len(fsig) == 64 and isinstance(key, bytes) and len(key) == 32):
        return False
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(fsig, seen_message(head.table, head.seq, head.entry_id))
    except (InvalidSignature, ValueError, CodecError):
        return False
    return True


@dataclass(frozen=True)
class SeenReport:
    """A peer's report: ``key`` (32 bytes, who signed it), ``head`` (the host's head it holds,
    with the host's signature), ``fsig`` (the peer's seen signature, or None when the host
    relayed a head without one). Nothing in it is checked yet: see :meth:`signed_by_sender`."""

    key: bytes
    head: Head
    fsig: bytes | None

    def signed_by_sender(self) -> bool:
        """Whether ``fsig`` is ``key``'s seen signature for ``head``."""
        return self.fsig is not None and verify_seen(self.key, self.head, self.fsig)


def datagram_bytes(report: SeenReport) -> bytes:
    """The multicast datagram of ``report`` (which must carry its ``fsig``): the canonical map
    ``{t: "seen", table, seq, id, hsig, from, fsig}``, 250-odd bytes."""
    h = report.head
    return encode(
        {
            "t": "seen",
            "table": h.table,
            "seq": h.seq,
            "id": h.entry_id,
            "hsig": h.signature,
            "from": report.key,
            "fsig": report.fsig,
        }
    )


_FIELDS = {
    "t": one_of("seen"),
    "table": bin_of(32),
    "seq": int_in(0),
    "id": bin_of(32),
    "hsig": bin_of(64),
    "from": bin_of(32),
    "fsig": bin_of(64),
}


def ask_bytes(table: bytes, seq: int) -> bytes:
    """The datagram asking the group for the head each peer holds at ``seq`` of ``table``: the
    canonical map ``{t: "ask", table, seq}`` (docs/protocol.md 7.4, "Forks"). A peer that
    holds that seq answers with a seen datagram of that head (:meth:`SeenMulticast.answer`)."""
    return encode({"t": "ask", "table": table, "seq": seq})


def parse_datagram(data: bytes, table: bytes) -> SeenReport | int | None:
    """What a datagram about ``table`` (a 32-byte table id) holds: a seen report, or the seq an
    ``ask`` datagram asks for; None for anything else (too large, not canonical, another table).
    The table is compared before anything else is checked, and no signature is checked here."""
    if len(data) > MAX_DATAGRAM:
        return None
    try:
        value = decode(data, _LIMITS)
        if not isinstance(value, dict) or value.get("table") != table:
            return None
        if value.get("t") == "ask":
            seq: int = check_map(value, _ASK_FIELDS, what="an ask datagram")["seq"]
            return seq
        m = check_map(value, _FIELDS, what="a seen datagram")
    except CodecError:
        return None
    return SeenReport(m["from"], Head(m["table"], m["seq"], m["id"], m["hsig"]), m["fsig"])


class SourceLimit:
    """At most ``rate`` datagrams a second from one source (a token bucket per source: the caller
    gives the address alone, so a sender that rotates its port is one source), for at most
    :data:`MAX_SOURCES` sources at once. ``clock()``: seconds."""

    def __init__(self, rate: float = PER_SOURCE, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.clock = clock
        self._buckets: dict[Any, tuple[float, float]] = {}

    def take(self, source: Any) -> bool:
        """Whether one more datagram from ``source`` may be read now."""
        now = self.clock()
        tokens, last = self._buckets.pop(source, (self.rate, now))
        tokens = min(self.rate, tokens + (now - last) * self.rate)
        if len(self._buckets) >= MAX_SOURCES:
            self._buckets.pop(next(iter(self._buckets)))  # the least recently heard source
        if tokens < 1:
            self._buckets[source] = (tokens, now)
            return False
        self._buckets[source] = (tokens - 1, now)
        return True


class SeenMulticast(asyncio.DatagramProtocol):
    """One peer's direct seen reports on the LAN (PROTOCOL.md 7), best effort.

    ``table()``: the table id this peer holds (None: nothing is sent, everything is ignored);
    ``report()``: this peer's own report (None: it holds no signed head yet); ``heard(report)``:
    called for each datagram about this peer's table that passed the rate limits (at most
    :data:`PER_SOURCE` a second from one address, :data:`ALL_SOURCES` from all) and was not
    handed on before (signatures not yet checked: the caller holds the keys); ``answer(seq)``:
    this peer's report of the head it holds at ``seq`` (None: it holds none), sent when a peer
    asks (at most :data:`ANSWERS` a second); ``wanted()``: a seq to ask the group about at the
    next tick, or None (:meth:`ask`). ``group``, ``port``: where to send and listen;
    ``interval``/``jitter``: seconds between sends; ``interface``: the IPv4 address of the
    interface to send and listen on (:func:`net.lan.multicast_interface`: the one facing the
    table's host; it needs no route), None for the one the routes choose. :meth:`start` raises
    OSError when the socket cannot be opened (no multicast route, say); the caller goes on
    without it.
    """

    def __init__(
        self,
        table: Callable[[], bytes | None],
        report: Callable[[], SeenReport | None],
        heard: Callable[[SeenReport], None],
        *,
        group: str = GROUP,
        port: int = PORT,
        interval: float = INTERVAL,
        jitter: float = JITTER,
        rng: random.Random | None = None,
        interface: str | None = None,
        answer: Callable[[int], SeenReport | None] | None = None,
        wanted: Callable[[], int | None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.table = table
        self.interface = interface
        self.report = report
        self.heard = heard
        self.group = group
        self.port = port
        self.interval = interval
        self.jitter = jitter
        self.answer = answer
        self.wanted = wanted
        self.limit = SourceLimit(clock=clock)
        self.ceiling = SourceLimit(ALL_SOURCES, clock=clock)
        self.answers = SourceLimit(ANSWERS, clock=clock)
        self.sent = 0
        self.received = 0
        self.dropped = 0
        """Datagrams dropped unread, over a rate limit."""
        self._handed: collections.OrderedDict[bytes, None] = collections.OrderedDict()
        self._rng = rng or random.Random()
        self._transport: asyncio.DatagramTransport | None = None
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    async def start(self) -> None:
        """Open the socket (joined to the group, TTL 1, loopback on: peers on this computer hear
        each other) and start sending. Raises OSError."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if hasattr(socket, "SO_REUSEPORT"):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            # Bound to the group's address: only datagrams sent to the group arrive here.
            sock.bind((self.group, self.port))
            local = socket.inet_aton(self.interface or "0.0.0.0")
            membership = struct.pack("4s4s", socket.inet_aton(self.group), local)
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, membership)
            if self.interface is not None:
                sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, local)
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, TTL)
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
            sock.setblocking(False)
        except OSError:
            sock.close()
            raise
        loop = asyncio.get_running_loop()
        transport, _ = await loop.create_datagram_endpoint(lambda: self, sock=sock)
        self._transport = transport
        self._task = loop.create_task(self._send_loop())

    async def close(self) -> None:
        """Stop sending and close the socket."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        if self._transport is not None:
            self._transport.close()
            self._transport = None

    def new_head(self) -> None:
        """This peer holds a new head: send its report now rather than at the next tick."""
        self._wake.set()

    def send_now(self) -> None:
        """Send this peer's current report, if it has one."""
        self._send_report(self.report())

    def ask(self, seq: int) -> None:
        """Ask the group for the head each peer holds at ``seq``: a peer deceived by a fork that
        hears only heads ahead of its own gets the one that conflicts with its own."""
        table = self.table()
        if table is not None:
            self._send(ask_bytes(table, seq))

    def _send_report(self, report: SeenReport | None) -> None:
        if report is None or report.fsig is None:
            return
        data = datagram_bytes(report)
        if len(data) <= MAX_DATAGRAM:  # always: fixed sizes; a guard, not a path
            self._send(data)

    def _send(self, data: bytes) -> None:
        if self._transport is None:
            return
        try:
            self._transport.sendto(data, (self.group, self.port))
            self.sent += 1
        except OSError as err:
            log.debug("a seen datagram was not sent: %s", err)

    async def _send_loop(self) -> None:
        while True:
            self._wake.clear()  # before sending: a head that comes during the gap is sent after it
            self.send_now()
            seq = None if self.wanted is None else self.wanted()
            if seq is not None:
                self.ask(seq)
            await asyncio.sleep(MIN_GAP)
            wait = self.interval - MIN_GAP + self._rng.uniform(-self.jitter, self.jitter)
            try:
                await asyncio.wait_for(self._wake.wait(), wait)
            except TimeoutError:
                pass

    # -- asyncio.DatagramProtocol ----------------------------------------------------------------

    def datagram_received(self, data: bytes, addr: tuple[str | Any, int]) -> None:
        """Take a datagram: rate-limited per source address (its port aside) and for all sources
        together, then only one about this peer's table, then only one not handed on before."""
        source = addr[0] if isinstance(addr, tuple) else addr
        if not self.limit.take(source) or not self.ceiling.take("all"):
            self.dropped += 1
            return
        table = self.table()
        if table is None:
            return
        if data in self._handed:
            self._handed.move_to_end(data)
            return
        found = parse_datagram(data, table)
        if found is None:
            return
        if isinstance(found, int):
            if self.answer is not None and self.answers.take("all"):
                self._send_report(self.answer(found))
            return
        self._handed[data] = None
        if len(self._handed) > MAX_HANDED:
            self._handed.popitem(last=False)
        self.received += 1
        self.heard(found)

    def error_received(self, exc: Exception) -> None:
        """A send failed (no route, say): best effort, so it is only logged."""
        log.debug("seen multicast: %s", exc)


class SilenceWatch:
    """Players whose signed seen reports stopped advancing (PROTOCOL.md 7).

    :meth:`advanced` records a verified report (the peer's key and the seq it holds); :meth:`silent`
    gives, among the ``expected`` keys, those whose latest signed report has been behind
    ``head_seq`` (this peer's head) for ``after`` seconds without advancing. The time counts from
    the later of the report's last advance and the moment this peer first saw it behind: a table
    where nothing happened for a while makes nobody silent when the next entry comes.
    ``clock()``: seconds."""

    def __init__(self, after: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.after = after
        self.clock = clock
        self.latest: dict[bytes, int] = {}
        """The highest seq each key reported in a signed report."""
        self._behind: dict[bytes, float] = {}  # key -> since when it is behind without advancing

    def advanced(self, key: bytes, seq: int) -> None:
        """``key`` signed a report of seq ``seq`` (checked by the caller)."""
        if seq > self.latest.get(key, -1):
            self.latest[key] = seq
            self._behind.pop(key, None)

    def silent(self, expected: Iterable[bytes], head_seq: int) -> tuple[bytes, ...]:
        """The keys of ``expected`` that are silent now, in the order given."""
        now = self.clock()
        out = []
        for key in expected:
            if self.latest.get(key, -1) >= head_seq:
                self._behind.pop(key, None)
                continue
            if now - self._behind.setdefault(key, now) >= self.after:
                out.append(key)
        return tuple(out)
