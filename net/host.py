"""The host (PROTOCOL.md 3, 7, 8): sequences a table's entries for peers over TCP.

:class:`Host` wraps an :class:`~engine.sequencer.Sequencer`. It accepts ``hello`` from players and
spectators, sends each the entries it lacks, and for each ``submit`` checks the entry (its bytes,
signature, table, author, then the table state), writes it to the log file with fsync and only then
sends it to every peer with its head signature. It authors `start` when the table is full (by
itself with ``auto_start``, else when :meth:`Host.start_game` is called: the host's person presses
Start) and `end` when the game is over. It relays the heads players report in their pings to
everyone, so that a fork would be seen (PROTOCOL.md 3).

Every connection starts with the host's ``challenge`` (a fresh nonce); the peer's ``hello`` must
be signed over it by the key it names (PROTOCOL.md 7, items 1-2), so only the holder of a key can
take that key's place, and a hello seen on one connection is worthless on any other. Before the
hello verifies, a connection may send one frame of at most 4 KiB.

A peer that breaks the wire (garbage, an oversized frame, silence, a slow body, a flood, a reader
that does not read, a hello that does not verify) is told why in a ``bye`` where possible and
disconnected; nothing it sends reaches the table, and the other connections go on. Who may connect
and how much each connection may send is admission control (:mod:`net.admission`): the host asks it
about each connection it accepts (over the caps: closed before anything is read or written) and
each frame it reads, and tells it what the connection is (seated, guest, spectator). Connections
whose key holds no seat share one host-wide budget of decoding, signature checks and replies, a
cap of their own below the total (so a seated key always finds a slot) and a small outbound queue
(docs/protocol.md 7.1); the relay in pings lists seated players only.

The seats' submissions are checked and folded in arrival order by :mod:`net.submissions`, which
verifies no proof on the event loop (docs/protocol.md 6.9). A seat's next frame is read once its
submission is answered.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import os
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.protocol.codec import DEFAULT_LIMITS, Limits
from engine.protocol.log import Entry, Head, LogError
from engine.sequencer import Sequencer
from engine.table import Table
from net.admission import Admission, Budgets, Caps, ConnectionKind, FrameRate, Strangers
from net.errors import HostError
from net.events import Folded, Listeners, Presence, Timeouts
from net.framing import MAX_HANDSHAKE_FRAME, Outbox, WireError, frame_bytes, read_frame
from net.messages import (
    DEFAULT_PORT,
    NONCE_BYTES,
    VERSION,
    Bye,
    Challenge,
    Hello,
    MessageError,
    Ping,
    Submit,
    Welcome,
    WireHead,
    head_to_wire,
    parse_message,
    verify_hello,
)
from net.peers import Broadcaster, CatchUp, Peer, Pongs, add_waiting, relay
from net.submissions import Submissions

log = logging.getLogger("vampire.net.host")

MAX_DISCONNECTS = 1024
"""Faulty disconnections :attr:`Host.disconnects` keeps (the latest)."""


class Host:
    """A table server around ``sequencer`` (which already holds the genesis, or a replayed log).

    ``timeouts``: :class:`~net.events.Timeouts`; ``say(line)``: where progress lines go (None:
    only the logging module); ``limits``: decoding limits; ``auto_start``: append `start` by
    itself as soon as every seat is taken (a headless host, ``vampire play``); False: only when
    :meth:`start_game` is called (a host with a screen, whose person presses Start).
    ``listeners`` gets a :class:`~net.events.Folded` for every entry the host appends and a
    :class:`~net.events.Presence` whenever the players connected change. ``finished`` is set once the
    table has ended (`end` appended) or stopped on a proven cheat. ``disconnects`` records
    ``(peer label, code, reason)`` for the latest :data:`MAX_DISCONNECTS` connections dropped for a
    fault. ``caps`` (how many connections it holds at once) and ``budgets`` (what each verified
    connection may make it decode) make its :attr:`admission`, which also tells the connections it
    turned away (:class:`~net.admission.Admission`), with ``strangers``, the host-wide budget of
    the connections that hold no seat (:class:`~net.admission.Strangers`). ``clock`` (seconds) is
    the admission's clock, injectable for tests. ``opened`` is when this run opened the table
    (ms since the epoch, the sequencer's clock), told in every welcome: a table reopened from its
    log starts every wait afresh (PROTOCOL.md 6.5).
    """

    def __init__(
        self,
        sequencer: Sequencer,
        *,
        timeouts: Timeouts = Timeouts(),
        say: Callable[[str], None] | None = None,
        limits: Limits = DEFAULT_LIMITS,
        auto_start: bool = True,
        caps: Caps = Caps(),
        budgets: Budgets = Budgets(),
        strangers: Strangers = Strangers(),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not sequencer.table.entries:
            raise HostError("The host needs a table: open it (genesis) or replay a log first.")
        self.sequencer = sequencer
        self.opened = int(sequencer.clock())
        self.timeouts = timeouts
        self.say = say
        self.limits = limits
        self.auto_start = auto_start
        self.admission = Admission(caps, budgets, strangers, say=self.say_line, clock=clock)
        """Who may connect, and how much each connection may make the host decode."""
        self.listeners = Listeners()
        self.finished = asyncio.Event()
        self.failure: str | None = None
        """Why the host stopped the table before its end (its log cannot be written), in a sentence."""
        self.peers: list[Peer] = []
        # Bounded: a flood of connections that never say hello must not grow the host's memory.
        self.disconnects: collections.deque[tuple[str, str, str]] = collections.deque(maxlen=MAX_DISCONNECTS)
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._pinger: asyncio.Task[None] | None = None
        self._present: tuple[bytes, ...] = ()  # the players last announced as connected
        self.own_seat: bytes | None = None
        """The public key of the host's own person (``vampire host`` and "Host a table" with a
        screen), whose `join` takes seat 0: another player's `join` waits unanswered while the
        lobby holds no seat for it, then is answered ``stale`` and signed again (PROTOCOL.md 4:
        seats are numbered in join order). None: no seat is kept (a headless host, ``vampire play``)."""
        self._relayed: tuple[bytes, ...] = ()  # the seated players last relayed as connected
        self.pongs = Pongs(self.sequencer.public, self.table.table_id, clock)
        """The pong frame of now, and which pings are answered and checked."""
        self.catch_up = CatchUp()
        self.broadcaster = Broadcaster(self.peers, lambda p: self.kind_of(p) == "seated")
        self.submissions = Submissions(self)
        """The seats' submissions, checked and folded in arrival order (:mod:`net.submissions`)."""
        self.duties()

    # -- reading --------------------------------------------------------------------------------

    @property
    def table(self) -> Table:
        """The host's :class:`~engine.table.Table` (read only)."""
        return self.sequencer.table

    @property
    def port(self) -> int:
        """The TCP port listened on (after :meth:`start`)."""
        assert self._server is not None
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    @property
    def bind_address(self) -> str:
        """The address listened on (after :meth:`start`): "0.0.0.0" or "::" for every interface."""
        assert self._server is not None
        address: str = self._server.sockets[0].getsockname()[0]
        return address

    def head(self) -> Head:
        """The host's current head."""
        t = self.table
        return Head(t.table_id, t.seq - 1, t.head, self.sequencer.heads[-1])

    def head_on_wire(self) -> WireHead:
        """The host's current head as the wire carries it."""
        h = self.head()
        return [h.seq, h.entry_id, h.signature]

    def players_connected(self) -> list[bytes]:
        """Public keys of the players connected now."""
        return [p.key for p in self.peers if p.role == "player" and p.synced]

    def peers_behind(self) -> dict[bytes, int]:
        """The peers connected now, players and spectators, whose latest head (reported in their
        pings) is short of the log's last entry: the seq of that head by public key (-1: none
        reported yet)."""
        last = self.table.seq - 1
        heads = {p.key: p.head.seq if p.head is not None else -1 for p in self.peers if p.key}
        return {key: seq for key, seq in heads.items() if seq < last}

    def seat_names(self) -> dict[bytes, str]:
        """The name of each seat by its public key."""
        return {s.key: s.name for s in self.table.seats}

    def say_line(self, line: str) -> None:
        """Say ``line`` (a progress line) to the log and, when given, to ``say``."""
        log.info(line)
        if self.say is not None:
            self.say(line)

    # -- lifecycle ------------------------------------------------------------------------------

    async def start(self, host: str = "0.0.0.0", port: int = DEFAULT_PORT) -> None:
        """Listen on ``host``:``port`` (port 0: any free port; see :attr:`port`). Raises HostError
        when the address cannot be bound."""
        try:
            self._server = await asyncio.start_server(self._accept, host, port, limit=2**16)
        except OSError as err:
            raise HostError(f"Cannot listen on {host}:{port}: {err.strerror or err}.") from None
        self._pinger = asyncio.get_running_loop().create_task(self._ping_loop())

    async def close(self, reason: str = "The host closed the table.") -> None:
        """Say ``bye`` to every peer, stop listening and close the log file."""
        if self._pinger is not None:
            self._pinger.cancel()
        if self._server is not None:
            self._server.close()
        self.admission.close()
        await asyncio.gather(
            *(p.outbox.close(Bye("done", reason).to_map()) for p in self.peers if p.outbox is not None),
            return_exceptions=True,
        )
        tasks = self._tasks | self.submissions.tasks
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._server is not None:
            try:
                await asyncio.wait_for(self._server.wait_closed(), 2)
            except TimeoutError:
                pass
        if self.sequencer.log is not None:
            self.sequencer.log.close()

    # -- appending ------------------------------------------------------------------------------

    def post(self, kind: str, body: dict[str, Any]) -> Entry:
        """Append an entry authored by the host (`chat`, `start`, `end`) and send it to everyone.
        Raises table.TableRefusal when the table refuses it, HostError when the log cannot be written."""
        return self.append(self.sequencer.sign(kind, body))

    def start_game(self) -> Entry:
        """Append `start` now (PROTOCOL.md 4: the host authors it) and send it to everyone.
        Raises table.TableRefusal with the table's sentence when it refuses (a seat is still open,
        the game has started), HostError when the log cannot be written."""
        entry = self.post("start", {})
        self.duties()
        return entry

    def append(self, entry: Entry, defer_proof: bool = False) -> Entry:
        """Append ``entry`` (checked by the table; a `shuffle` with ``defer_proof`` before its proof
        is verified) to the log file, then send it to every peer and tell the listeners. Raises
        table.TableRefusal when the table refuses it, HostError when the log cannot be written."""
        t = self.table
        if self.failure is not None:
            raise HostError(self.failure)
        start = len(t.notes)
        try:
            entry, head = self.sequencer.submit(entry, defer_proof=defer_proof)
        except LogError as err:
            # The table folded the entry but the disk refused it: nothing can be promised any more.
            self._stop_unwritten(err)
            raise HostError(self.failure or str(err)) from None
        notes = tuple(t.notes[start:])
        self.broadcast(entry, head)
        if entry.kind in ("join", "leave"):
            self._count_strangers()
            self._relay_changed()
        names = t.names
        rendered = tuple(n.render(names) for n in notes)
        for line in rendered:
            self.say_line(line)
        self.listeners.emit(Folded(entry, rendered, t.seat_of(entry.author), notes))
        return entry

    def _stop_unwritten(self, err: LogError) -> None:
        """The log cannot be written (a full disk, say): the table stops here (DESIGN.md, "Nothing
        lost": no entry goes out that is not on disk). One sentence to the host's person and, in a
        ``bye``, to every peer; :attr:`failure` keeps it and :attr:`finished` is set."""
        self.stop(str(err), "Free some space, then bring")

    def stop(self, cause: str, back: str = "Once that is mended, bring") -> None:
        """Stop the table here for ``cause`` (a sentence): one sentence to the host's person and, in
        a ``bye``, to every peer, ending with how to bring the table back (``back`` starts that
        clause, "... it back with --resume LOG"); :attr:`failure` keeps it and :attr:`finished` is
        set. Nothing accepted before is lost (DESIGN.md, "Nothing lost"). Does nothing once the
        table has stopped."""
        if self.failure is not None:
            return
        path = self.sequencer.log.path if self.sequencer.log is not None else None
        again = f" {back} it back with --resume {path}." if path is not None else ""
        self.failure = f"{cause} The host stops the table here: nothing accepted before is lost.{again}"
        self.say_line(self.failure)
        for peer in list(self.peers):
            peer.outbox.send(Bye("host-error", self.failure).to_map())
        self.finished.set()

    def broadcast(self, entry: Entry, head_sig: bytes) -> None:
        """Send ``entry`` with its head signature to every peer that is caught up: at once to the
        seats, in batches to everyone else (:class:`~net.peers.Broadcaster`)."""
        self.broadcaster.send(entry, head_sig)

    def duties(self) -> None:
        """Append what the host authors once it is due: `start` when every seat is taken (with
        ``auto_start``), `end` once the game is over; set :attr:`finished` once the table has ended
        or stopped on a proven cheat."""
        while True:
            t = self.table
            if t.phase == "lobby" and len(t.seats) == t.nseats and self.auto_start:
                self.post("start", {})
            elif t.phase == "over" and not t.ended:
                result = t.final_result()
                self.post("end", {"scores": list(result.scores), "winners": list(result.winners)})
                self.say_line(
                    f"The table is over: {result.summary.format(**{f's{i}': n for i, n in enumerate(t.names)})}"
                )
                self.say_line(f"state digest {t.digest().hex()}")
            else:
                break
        if t.ended or t.phase == "stopped":
            if t.phase == "stopped" and not self.finished.is_set() and t.fault is not None:
                self.say_line(f"The table stopped: {t.fault.describe(t.names)}")
                self.say_line(f"state digest {t.digest().hex()}")
            self.finished.set()

    # -- connections ----------------------------------------------------------------------------

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        name = writer.get_extra_info("peername")
        ip = str(name[0]) if isinstance(name, tuple) else str(name)
        why = self.admission.over_cap(ip, [p.ip for p in self.peers])
        if why is not None:
            # Closed before anything is read, written or logged for it: a flood costs one accept
            # and one close per connection, and a line per burst (RefusalLog).
            writer.transport.abort()
            self.admission.refusals.refused(ip, why)
            return
        task = asyncio.current_task()
        assert task is not None  # asyncio runs each connection's callback in a task of its own
        self._tasks.add(task)
        outbox = Outbox(
            writer,
            max_queued=self.timeouts.max_queued,
            write_timeout=self.timeouts.write,
            on_fail=lambda code, reason: self._lost(peer, code, reason),
        )
        addr = f"{name[0]}:{name[1]}" if isinstance(name, tuple) else str(name)
        peer = Peer(addr, outbox, ip, frames=FrameRate(self.timeouts.rate, self.timeouts.burst), reader=reader)
        add_waiting(self.peers, peer, self.admission)  # appended; the oldest yet to say hello may go
        try:
            await self._serve(peer, reader)
        except WireError as err:
            await self._drop(peer, err.code, str(err), bye=err.code != "closed")
        except MessageError as err:
            await self._drop(peer, err.code, str(err))
        except HostError as err:
            await self._drop(peer, "host-error", str(err))
            self.finished.set()
        except asyncio.CancelledError:
            peer.outbox.abort()
        except Exception as err:
            log.exception("connection from %s failed", peer.addr)
            await self._drop(peer, "host-error", f"The host failed on this connection: {type(err).__name__}.")
        finally:
            self._forget(peer)
            self._tasks.discard(task)

    async def serve_stream(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Serve one connection another transport opened (the internet's:
        :class:`net.internet.Listener`) as one of the TCP listener's: the same caps, handshake and
        budgets. Its peer name (``writer.get_extra_info("peername")``) is what the caps count per
        address."""
        await self._accept(reader, writer)

    def routes(self) -> dict[bytes, str]:
        """How each connected player's connection reaches the host, by public key, for those whose
        transport says ("direct, 12 ms", "relayed, 80 ms": the internet's); a TCP one says nothing."""
        found: dict[bytes, str] = {}
        for p in self.peers:
            route = p.outbox.writer.get_extra_info("route") if p.role == "player" and p.synced else None
            if isinstance(route, str):
                found[p.key] = route
        return found

    def _forget(self, peer: Peer) -> None:
        peer.gone = True
        if peer in self.peers:
            self.peers.remove(peer)
            self._count_strangers()
            self._presence_changed()

    def _count_strangers(self) -> None:
        """Count the verified connections whose key holds no seat, for their share of the
        host-wide budget (:meth:`~net.admission.StrangerBudget.share`)."""
        self.admission.strangers.count = sum(
            1 for p in self.peers if p.role is not None and self.kind_of(p) != "seated"
        )

    def _presence_changed(self) -> None:
        """Tell the listeners, and every peer at once (a ping carries the relay), when the players
        connected change: a player's screen says "Mina disconnected" the moment her connection
        goes, not at the next ping. Nothing while the host closes (everyone goes then)."""
        present = tuple(self.players_connected())
        if present == self._present or self._server is None or not self._server.is_serving():
            return
        self._present = present
        self.listeners.emit(Presence(present))
        self._relay_changed()

    def _relay_changed(self) -> None:
        """Ping every peer when the connected seats change (not when a guest comes or goes)."""
        relayed = tuple(p.key for p in self._seated())
        if relayed == self._relayed:
            return
        self._relayed = relayed
        ping = frame_bytes(Ping(self.head_on_wire(), self._relay()).to_map())
        for peer in self.peers:
            if peer.synced:
                peer.outbox.send(ping)

    def _lost(self, peer: Peer, code: str, reason: str) -> None:
        if not peer.gone:
            self._record(peer, code, reason)
        self._forget(peer)

    def _record(self, peer: Peer, code: str, reason: str) -> None:
        label = peer.label(self.seat_names())
        if code not in ("closed", "done"):
            self.disconnects.append((label, code, reason))
        if peer.role is None:
            # No verified hello: nobody to name, and a flood of them must not flood the log.
            self.admission.unwelcome.refused(peer.ip, f"{reason.rstrip('.')} ({code})", code)
        elif code not in ("closed", "done"):
            self.say_line(f"Disconnected {label}: {reason} ({code})")
        else:
            self.say_line(f"{label} left: {reason}")

    async def _drop(self, peer: Peer, code: str, reason: str, bye: bool = True) -> None:
        if peer.gone:
            return
        self._record(peer, code, reason)
        self._forget(peer)
        if bye:
            await peer.outbox.close(Bye(code, reason[:500]).to_map())
        else:
            peer.outbox.abort()

    def _charge(self, peer: Peer) -> None:
        """Charge ``peer`` for one frame decoded (:class:`~net.admission.FrameRate`). Raises
        WireError ``flood``."""
        peer.frames.charge()

    async def _handshake(self, peer: Peer, reader: asyncio.StreamReader) -> Hello:
        """Send the ``challenge`` and read the one frame a connection may send before its hello is
        verified (at most 4 KiB); return the hello once its key and signature verify
        (PROTOCOL.md 7, items 1-2). Raises WireError (``version``, ``bad-hello``, and those of
        :func:`~net.framing.read_frame`) or MessageError."""
        t = self.table
        challenge = Challenge(os.urandom(NONCE_BYTES), self.sequencer.public, t.table_id)
        peer.outbox.send(challenge.to_map())
        limits = replace(self.limits, max_bytes=min(self.limits.max_bytes, MAX_HANDSHAKE_FRAME))
        hello_time = self.timeouts.hello  # for the whole frame: a trickled hello holds no slot longer
        first = await read_frame(reader, idle=hello_time, body=hello_time, limits=limits, within=hello_time)
        # The version first, from the raw map: a peer of another version has other fields, and
        # deserves "version" rather than "malformed".
        if first.get("t") == "hello" and first.get("v") != VERSION:
            v = first.get("v")
            raise WireError("version", f"This host speaks protocol version {VERSION}, not {v!r}.")
        hello = parse_message(first)
        if not isinstance(hello, Hello):
            raise MessageError(f"The first frame must be a hello, not a {hello.t}.")
        why = verify_hello(hello, challenge)
        if why is not None:
            raise WireError("bad-hello", why)
        return hello

    def kind_of(self, peer: Peer) -> ConnectionKind:
        """What ``peer`` (its hello verified) is now, for its budget (:meth:`Admission.budget`): a
        spectator, a seated player, or a guest (a player whose key holds no seat: before its `join`,
        or one the table will never seat)."""
        if peer.role == "spectator":
            return "spectator"
        if peer.key and self.table.seat_of(peer.key) is not None:
            return "seated"
        return "guest"

    async def _serve(self, peer: Peer, reader: asyncio.StreamReader) -> None:
        hello = await self._handshake(peer, reader)
        if not self._welcome(peer, hello):
            return
        bucket = peer.bucket = self.admission.bucket(self.kind_of(peer))
        while not peer.gone:
            kind = self.kind_of(peer)
            peer.outbox.max_queued = self._queue_limit(kind)
            max_frame = self.admission.budget(kind).max_frame
            limits = replace(self.limits, max_bytes=min(self.limits.max_bytes, max_frame))

            async def admit(n: int) -> None:
                await self.admission.admit(bucket, self.kind_of(peer), n)  # a guest seated meanwhile: a seat

            value = await read_frame(
                reader, idle=self.timeouts.idle, body=self.timeouts.body, limits=limits, admit=admit
            )
            self._charge(peer)
            msg = parse_message(value)
            if isinstance(msg, Submit):
                self._on_submit(peer, msg)
                if peer.folding is not None:
                    # One submission per seat in the works at a time: its next frame waits (TCP
                    # holds its sender back meanwhile), the other peers' frames do not.
                    task, peer.folding = peer.folding, None
                    await task
            elif isinstance(msg, Ping):  # Pong too
                self._on_ping(peer, msg, kind)
            elif isinstance(msg, Bye):
                await self._drop(peer, "done", f"said bye ({msg.reason})" if msg.reason else "said bye", bye=False)
                return
            else:
                raise MessageError(f"A peer does not send {msg.t} frames.")

    def _welcome(self, peer: Peer, hello: Hello) -> bool:
        """Welcome a peer whose ``hello`` verified (:meth:`_handshake`): check its table and last
        seq, let it replace an older connection of its key, send the welcome and its catch-up."""
        t = self.table
        if hello.table is not None and hello.table != t.table_id:
            raise WireError("wrong-table", "This host holds another table than the one you hold.")
        if hello.last is not None and hello.last >= t.seq:
            raise WireError(
                "ahead", f"You hold entries up to seq {hello.last}; this host's log ends at seq {t.seq - 1}."
            )
        peer.role = hello.role
        peer.key = hello.key
        kind = self.kind_of(peer)
        unseated = [
            p
            for p in self.peers
            if p is not peer
            and p.role is not None
            and not p.gone
            and p.key != hello.key
            and self.kind_of(p) != "seated"
        ]
        why = self.admission.unseated_over_cap(len(unseated)) if kind != "seated" else None
        if why is None and kind == "seated" and len(self.peers) >= self.admission.max_connections:
            why = "a seated player needed a slot"
        if why is not None and unseated:
            # The newcomer gets in, the oldest stranger goes (docs/protocol.md 7.1): a joining or
            # seated player always finds a slot, and idle strangers cannot hold the house.
            oldest = unseated[0]
            self.admission.refusals.refused(oldest.ip, why)
            self._forget(oldest)  # at once: the next newcomer counts without it
            asyncio.get_running_loop().create_task(
                oldest.outbox.close(Bye("full", f"The host made room: {why}.").to_map())
            )
        peer.outbox.max_queued = self._queue_limit(kind)
        self._count_strangers()
        if hello.role == "player":
            for other in list(self.peers):
                if other is not peer and other.key == hello.key and other.role == "player":
                    # The newest connection of a key wins: the old one is usually half-open. Only
                    # a verified hello reaches here, so only the key's holder can take its place.
                    asyncio.get_running_loop().create_task(
                        self._drop(other, "replaced", "Another connection with your key took your place.")
                    )
        mine = None
        if hello.last is not None:
            mine = Head(t.table_id, hello.last, t.entries[hello.last].id, self.sequencer.heads[hello.last])
        welcome = Welcome(
            t.table_id, self.sequencer.public, self.head_on_wire(), head_to_wire(mine), opened=self.opened
        )
        peer.outbox.send(welcome.to_map())
        start = 0 if hello.last is None else hello.last + 1
        peer.batched = kind != "seated"
        self._send_run(peer, start)
        self._presence_changed()
        self.say_line(
            f"{peer.label(self.seat_names())} connected as a {hello.role}; it held {start} entr{'y' if start == 1 else 'ies'}."
        )
        return True

    def _queue_limit(self, kind: ConnectionKind) -> int:
        """Bytes queued for a peer of ``kind`` before it is dropped as a reader that does not
        read: the time-outs' ``max_queued`` for a seat, the small queue of strangers for the rest
        (its catch-up is not counted)."""
        if kind == "seated":
            return self.timeouts.max_queued
        return min(self.timeouts.max_queued, self.admission.strangers.strangers.queue)

    def _send_run(self, peer: Peer, start: int) -> None:
        def caught_up() -> None:
            peer.synced = True  # in the same step as the catch-up's last frame: no entry is missed

        self.catch_up.send(peer.outbox, self.table.entries, self.sequencer.heads, start, caught_up)

    def _seated(self) -> list[Peer]:
        seated = {s.key for s in self.table.seats}
        return [p for p in self.peers if p.role == "player" and p.synced and p.key in seated]

    def _relay(self) -> list[list[Any]]:
        """Each connected seated player's seen report [key, head, fsig] (:func:`~net.peers.relay`)."""
        return relay(self._seated())

    def _on_ping(self, peer: Peer, msg: Ping, kind: ConnectionKind) -> None:
        """A ``ping`` or ``pong`` of ``peer`` (:meth:`~net.peers.Pongs.on_ping`)."""
        if self.pongs.on_ping(peer, msg, kind == "seated", self.admission.strangers):
            peer.outbox.send(self.pongs.frame(self.head_on_wire(), self._relay()))

    async def _ping_loop(self) -> None:
        while True:
            await asyncio.sleep(self.timeouts.ping)
            ping = frame_bytes(Ping(self.head_on_wire(), self._relay()).to_map())
            for peer in list(self.peers):
                if peer.synced:
                    peer.outbox.send(ping)

    def _on_submit(self, peer: Peer, msg: Submit) -> None:
        self.submissions.take(peer, msg)


CATCHING_UP = 30.0
"""Seconds a table that is over stays open for a peer (a player or a spectator) still catching up
after its head last moved (:func:`serve_table`): one that reads goes on to the end, one that
stopped reading does not hold the host for ever."""


async def serve_table(host: Host, grace: float = 10.0, catching_up: float = CATCHING_UP) -> None:
    """Wait until the table is over, then until every player has left or ``grace`` seconds have
    passed (so that the last entries reach everyone), then close the host. A peer still catching
    up (a seat that came back late, a spectator whose screen folds the log slower than the bots
    play it: its reported head short of the log's end) keeps the host open while its head moves,
    until ``catching_up`` seconds pass with no move (docs/protocol.md 7.1)."""
    await host.finished.wait()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace
    behind = host.peers_behind()
    moved = loop.time()
    while host.players_connected() or behind:
        now = loop.time()
        if now >= deadline and (not behind or now >= moved + catching_up):
            break
        await asyncio.sleep(0.05)
        heads = host.peers_behind()
        if any(seq > behind.get(key, seq) for key, seq in heads.items()):
            moved = loop.time()
        behind = heads
    await host.close("The table is over.")


def lan_address() -> str:
    """This machine's address on the LAN: the one a default route uses; without a default route
    (two computers joined by one cable, a switch with no router), the first IPv4 address of an
    interface other than loopback; else 127.0.0.1 (:func:`net.lan.lan_ipv4`). Sends nothing."""
    from net.lan import lan_ipv4

    return lan_ipv4() or "127.0.0.1"
