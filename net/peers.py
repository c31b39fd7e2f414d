"""The host's side of one connection, and what it sends back to many (PROTOCOL.md 3, 7;
docs/protocol.md 7.1): a :class:`Peer`, the catch-up frames of a log (:func:`run_frames`), the
seen reports relayed to everyone (:func:`relay`, seated players only), and the ``pong`` frame with
the rule for which pings are answered and whose heads are checked (:class:`Pongs`).

Nothing here reads the wire or decides who may connect: :mod:`net.host` does, with
:mod:`net.admission`.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.protocol.identity import short_fingerprint
from engine.protocol.log import Entry, Head, verify_head
from net.admission import Admission, ByteBucket, FrameRate, StrangerBudget
from net.framing import Outbox, frame_bytes
from net.messages import Bye, Entries, Ping, Pong, Role, WireHead, head_from_wire, head_to_wire
from net.seen import verify_seen

CATCH_UP_CHUNK = 1024 * 1024
"""Bytes of entries (about) in one ``entries`` frame sent to a peer catching up."""

PACED_CHUNK = 128 * 1024
"""Bytes of entries (about) in one ``entries`` frame of a paced catch-up (:class:`CatchUp`): well
within the smallest queue a peer has (a stranger's), so one frame never nears a budget."""

MAX_RELAY = 64
"""Seen reports in one relay at most."""

BATCH_GAP = 0.25
"""Seconds an entry may wait before it is sent to the peers that hold no seat, in one frame with
the others appended meanwhile (:class:`Broadcaster`)."""


@dataclass(eq=False)
class Peer:
    """One connection: ``addr`` ("ip:port"), its ``outbox``, ``ip`` (the remote address alone),
    ``role`` and ``key`` from its verified hello (``role`` None before it), ``head`` the latest
    head it reported (checked), ``synced`` once its catch-up is queued, ``frames`` the frames a
    second it may send (:class:`~net.admission.FrameRate`), ``bucket`` the bytes it may make the
    host decode, once its hello verified (:class:`~net.admission.ByteBucket`); ``answered`` when
    (host clock, seconds) its last ping was taken, ``checked`` the last head and seen signature
    it reported, as the wire carried them (checked once, not again while unchanged); ``batched``:
    it gets new entries in batches (it holds no seat: :class:`Broadcaster`); ``reader`` its
    stream and ``since`` when it arrived (on the admission's clock), for :func:`add_waiting`."""

    addr: str
    outbox: Outbox
    ip: str = ""
    role: Role | None = None
    key: bytes = b""
    head: Head | None = None
    fsig: bytes | None = None
    synced: bool = False
    gone: bool = False
    bucket: ByteBucket | None = None
    folding: asyncio.Task[None] | None = None
    answered: float = -math.inf
    checked: tuple[Any, Any] | None = None
    batched: bool = False
    frames: FrameRate = field(kw_only=True)
    reader: asyncio.StreamReader | None = field(default=None, kw_only=True)
    since: float = 0.0

    def label(self, names: dict[bytes, str]) -> str:
        """The peer for a log line: name (key fingerprint) at ip:port."""
        if not self.key:
            return self.addr
        who = names.get(self.key) or ("spectator" if self.role == "spectator" else "player")
        return f"{who} ({short_fingerprint(self.key)}) at {self.addr}"


def add_waiting(peers: list[Peer], peer: Peer, admission: Admission) -> None:
    """Add ``peer``, a new connection yet to say hello, to ``peers`` (in the order they
    arrived), making room for it first (:meth:`~net.admission.Admission.hello_room`): each one
    that goes is told ``bye silent`` saying why and counted with the connections dropped before
    their hello (:attr:`~net.admission.Admission.unwelcome`, told once per burst), as the host
    drops one silent past its hello time-out."""
    now = admission.now()
    waiting = [p for p in peers if p.role is None and not p.gone]
    for i, why in admission.hello_room([p.since for p in waiting], now):
        old = waiting[i]
        # Told and counted here, as the host tells a connection silent past its time-out; then its
        # read ends (an end of stream, which leaves its writer whole for the bye), and the host,
        # finding it gone, only forgets it.
        old.gone = True
        admission.unwelcome.refused(old.ip, f"{why.rstrip('.')} (silent)", "silent")
        closing = asyncio.get_running_loop().create_task(old.outbox.close(Bye("silent", why).to_map()))
        _closing.add(closing)
        closing.add_done_callback(_closing.discard)
        if old.reader is not None:
            old.reader.feed_eof()
    peer.since = now
    peers.append(peer)


_closing: set[asyncio.Task[None]] = set()
"""The bye of each connection :func:`add_waiting` made go, until it is sent (a task is kept)."""


def run_frames(entries: Sequence[Entry], heads: Sequence[bytes], start: int) -> list[bytes]:
    """The ``entries`` frames that carry ``entries[start:]`` with their head signatures, about
    :data:`CATCH_UP_CHUNK` bytes of entries each."""
    frames: list[bytes] = []
    while (frame := _next_frame(entries, heads, start, CATCH_UP_CHUNK)) is not None:
        frames.append(frame[0])
        start = frame[1]
    return frames


def _next_frame(entries: Sequence[Entry], heads: Sequence[bytes], start: int, chunk: int) -> tuple[bytes, int] | None:
    """The ``entries`` frame of about ``chunk`` bytes of entries from ``start`` (at least one
    entry), and the seq after it; None when ``start`` is past the last entry."""
    end = min(len(entries), len(heads))  # an entry not written with its head is not sent
    if start >= end:
        return None
    items: list[list[Any]] = []
    size = 0
    seq = start
    while seq < end and size < chunk:
        entry = entries[seq]
        items.append([entry.wire_array(), heads[seq]])
        size += len(entry.payload) + 160
        seq += 1
    return frame_bytes(Entries(start, items).to_map()), seq


class CatchUp:
    """The catch-up of a peer (docs/protocol.md 7.1): the whole log, as most newcomers want it,
    made once per head and the same bytes queued for every peer; the rest of the log from a seq a
    peer coming back holds, a frame at a time as it reads (paced, never counted in its queue, so
    a peer catching up is never dropped as a slow reader)."""

    def __init__(self) -> None:
        self._frames: tuple[int, list[bytes]] | None = None

    def send(
        self, outbox: Outbox, entries: Sequence[Entry], heads: Sequence[bytes], start: int, done: Callable[[], None]
    ) -> None:
        """Queue ``entries[start:]`` with their head signatures on ``outbox``; ``done()`` is called
        in the same step as the last of them is queued (every later entry goes to the peer as it
        is appended), at once for the whole log."""
        if not start:
            if self._frames is None or self._frames[0] != len(entries):
                self._frames = (len(entries), run_frames(entries, heads, 0))
            for frame in self._frames[1]:
                outbox.send(frame, counted=False)
            done()
            return
        position = [start]

        def next_frame() -> bytes | None:
            made = _next_frame(entries, heads, position[0], PACED_CHUNK)
            if made is None:  # caught up with the head: from now on, each entry as it comes
                done()
                return None
            position[0] = made[1]
            return made[0]

        outbox.feed(next_frame)


class Broadcaster:
    """Sends each entry the host appends to the ``peers`` caught up (docs/protocol.md 7.1): a
    frame of its own, at once, to each seat (``seated(peer)``); to every other peer (``batched``)
    the entries appended within :data:`BATCH_GAP` seconds in one frame, the same bytes for all, so
    a hundred strangers cost a hundred sends every quarter of a second rather than per entry. A
    `join` or `leave` (which makes a stranger a seat or a seat a stranger) sends the batch first,
    then sorts the peers again, so every peer gets every entry once, in order. ``frames`` counts
    the frames queued."""

    def __init__(self, peers: list[Peer], seated: Callable[[Peer], bool]) -> None:
        self.peers = peers
        self.seated = seated
        self.frames = 0
        self._items: list[list[Any]] = []
        self._first = 0
        self._size = 0
        self._timer: asyncio.TimerHandle | None = None

    def send(self, entry: Entry, head_sig: bytes) -> None:
        """Send ``entry`` with its head signature (64 bytes)."""
        item = [entry.wire_array(), head_sig]
        if entry.kind in ("join", "leave"):
            self.flush()
            for peer in self.peers:
                peer.batched = not self.seated(peer)
        frame = frame_bytes(Entries(entry.seq, [item]).to_map())
        for peer in list(self.peers):
            if peer.synced and not peer.batched:
                peer.outbox.send(frame)
                self.frames += 1
        if not any(p.synced and p.batched for p in self.peers):
            return
        if not self._items:
            self._first, self._size = entry.seq, 0
            self._timer = asyncio.get_running_loop().call_later(BATCH_GAP, self.flush)
        self._items.append(item)
        self._size += len(entry.payload) + 160
        if self._size >= CATCH_UP_CHUNK:
            self.flush()  # a frame never nears the wire's 4 MiB

    def flush(self) -> None:
        """Send the batch now to the peers that get batches."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._items:
            return
        frame = frame_bytes(Entries(self._first, self._items).to_map())
        self._items = []
        for peer in list(self.peers):
            if peer.synced and peer.batched:
                peer.outbox.send(frame)
                self.frames += 1


def relay(seated: Sequence[Peer]) -> list[list[Any]]:
    """The seen reports ``[key, head, fsig]`` of the ``seated`` peers, as each sent its last
    (PROTOCOL.md 7), at most :data:`MAX_RELAY`. Guests and spectators are never relayed
    (docs/protocol.md 7.1): nobody credits their reports, and each one would grow every pong."""
    return [[p.key, head_to_wire(p.head), p.fsig] for p in seated][:MAX_RELAY]


class Pongs:
    """The host's ``pong`` frame, made once for as long as the head and the relay hold, and the
    rule for which pings are answered (docs/protocol.md 7.1): ``host`` (its key) signs the heads
    kept, ``table`` is the table id; ``clock`` (seconds) is the host admission's."""

    def __init__(self, host: bytes, table: bytes, clock: Callable[[], float] = time.monotonic) -> None:
        self.host = host
        self.table = table
        self.clock = clock
        self.made = 0
        """Pong frames encoded (the rest were the same bytes again)."""
        self._frame: tuple[tuple[Any, ...], bytes] | None = None

    def frame(self, head: WireHead, relayed: list[list[Any]]) -> bytes:
        """The ``pong`` frame for ``head`` and ``relayed`` (:func:`relay`)."""
        what = (head[0], head[1], tuple((k, None if h is None else h[0], f) for k, h, f in relayed))
        if self._frame is None or self._frame[0] != what:
            self._frame = (what, frame_bytes(Pong(head, relayed).to_map()))
            self.made += 1
        return self._frame[1]

    def on_ping(self, peer: Peer, msg: Ping, seated: bool, strangers: StrangerBudget) -> bool:
        """Take a ``ping`` or ``pong`` of ``peer``: keep its head when it checks; whether to answer
        it (a ping, never a pong). A seat's is always taken and answered. Anyone else's is taken
        at most once every ``ping_gap`` seconds (those between are dropped unread), its head
        checked only while ``strangers.checks`` holds, and answered while ``strangers.replies``
        holds."""
        if seated:
            self.on_head(peer, msg.head, msg.fsig)
            return not isinstance(msg, Pong)
        now = self.clock()
        if now - peer.answered < strangers.strangers.ping_gap:
            return False
        peer.answered = now
        self.on_head(peer, msg.head, msg.fsig, strangers)
        return not isinstance(msg, Pong) and strangers.replies.take()

    def on_head(
        self, peer: Peer, value: WireHead | None, fsig: bytes | None, strangers: StrangerBudget | None = None
    ) -> None:
        """Keep the head ``peer`` reported when this host signed it, and its seen signature when it
        is the peer's own: a peer cannot make others relay garbage. A report the same as the last
        one checked is not checked again. ``strangers``: the checks are paid from the host-wide
        budget (none left: nothing is checked or kept)."""
        if value is None:
            return
        reported = (tuple(value), fsig)
        if reported == peer.checked:
            return
        if strangers is not None and not strangers.checks.take(1 if fsig is None else 2):
            return
        peer.checked = reported
        head = head_from_wire(value, self.table)
        if verify_head(self.host, head.table, head.seq, head.entry_id, head.signature):
            peer.head = head
            peer.fsig = fsig if fsig is not None and verify_seen(peer.key, head, fsig) else None
