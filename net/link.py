"""A client's connection to its host (PROTOCOL.md 7): transport, hello, reconnect, back-off.

:class:`HostLink` opens a TCP connection to the host, reads its ``challenge`` (one frame of at most
4 KiB), has its peer check it and sign the ``hello`` over it, hands the ``welcome`` and
every later message to its :class:`LinkPeer` (the client that composes it), answers pings, and
reconnects with exponential back-off and jitter when the connection drops, until the peer stops
or cannot go on. It knows nothing of tables and seats: only frames, messages and heads.
"""

from __future__ import annotations

import asyncio
import logging
import random
import socket
from typing import Protocol

from engine.errors import VampireError
from engine.protocol.log import Head, LogError
from net.errors import ClientError, GiveUp
from net.events import Backoff, Connection, LinkCause, LinkState, Listeners, Presence, Timeouts
from net.framing import HANDSHAKE_LIMITS, Outbox, WireError, read_frame
from net.messages import (
    DEFAULT_PORT,
    Accepted,
    Bye,
    Challenge,
    Entries,
    Hello,
    MessageError,
    Ping,
    Pong,
    SubmitRejected,
    Welcome,
    WireHead,
    WireMap,
    head_to_wire,
    parse_message,
)

log = logging.getLogger("vampire.net.client")

FATAL_BYE = frozenset({"version", "bad-hello", "wrong-table", "ahead", "replaced"})
"""``bye`` codes after which reconnecting cannot help."""


class HostClosed(WireError):
    """The host said ``bye`` with the code ``done``: it closed the table on purpose (PROTOCOL.md
    7). The message is the host's own reason. The link keeps trying, slowly, in case the host
    opens the table again (``vampire host --resume``)."""

    def __init__(self, reason: str) -> None:
        super().__init__("closed", reason)


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``HOST[:PORT]`` (or ``[v6]:PORT``) as (host, port). Raises ClientError."""
    text = text.strip()
    host, port_text = text, str(default_port)
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise ClientError(f"{text!r} is not an address: a [ has no ].")
        host, rest = text[1:end], text[end + 1 :]
        if rest:
            if not rest.startswith(":"):
                raise ClientError(f"{text!r} is not HOST:PORT.")
            port_text = rest[1:]
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    if not host:
        raise ClientError("The address names no host.")
    try:
        port = int(port_text)
    except ValueError:
        raise ClientError(f"The port in {text!r} is not a number.") from None
    if not 0 < port < 65536:
        raise ClientError(f"The port {port} is not between 1 and 65535.")
    return host, port


async def open_stream(host: str, port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection to ``host``:``port``. Raises ConnectionRefusedError when every address the
    name resolves to refused it (``localhost`` is often both ::1 and 127.0.0.1, and asyncio would
    otherwise merge the two refusals into a bare OSError), socket.gaierror for a name that does not
    resolve, and another OSError for the rest."""
    try:
        return await asyncio.open_connection(host, port, limit=2**16, all_errors=True)
    except* ConnectionRefusedError as group:
        rest = group.subgroup(lambda e: not isinstance(e, ConnectionRefusedError))
        if rest is None:
            raise group.exceptions[0] from None
        raise _first(rest) from None
    except* OSError as group:
        raise _first(group) from None


def _first(group: BaseExceptionGroup[OSError]) -> OSError:
    """The first error of a (possibly nested) group of connection errors."""
    first = group.exceptions[0]
    return first if isinstance(first, OSError) else _first(first)


class Dialer(Protocol):
    """Another way than TCP to reach the host (the internet's: :class:`net.internet.Dialer`)."""

    @property
    def connecting(self) -> str:
        """What a player reads while the link opens ("Connecting through the internet…")."""
        ...

    async def open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """One new connection to the host. Raises WireError when it cannot be opened."""
        ...

    def route(self) -> str | None:
        """How the open connection reaches the host ("direct, 12 ms"), or None."""
        ...

    def connected(self) -> str:
        """The sentence of the open connection ("Connected through the internet (direct, 12 ms).")."""
        ...


class LinkPeer(Protocol):
    """What a :class:`HostLink` asks of the client it serves."""

    @property
    def stopping(self) -> bool:
        """The client stops: do not connect again."""
        ...

    @property
    def finished(self) -> asyncio.Event:
        """Set once the table is over for the client, or it stopped for good."""
        ...

    @property
    def failure(self) -> str | None:
        """Why the client stopped for good, if it did."""
        ...

    def hello(self, challenge: Challenge) -> Hello:
        """The ``hello`` answering the host's ``challenge``, signed (the table and last seq held).
        Raises GiveUp when the challenge names another table or host key than the genesis this
        peer holds (PROTOCOL.md 7, item 2)."""
        ...

    def welcomed(self, msg: Welcome) -> None:
        """The host's ``welcome``. Raises GiveUp when this host cannot be followed."""
        ...

    async def received(self, msg: Entries | SubmitRejected | Accepted) -> None:
        """A message of the host after the welcome (heads in pings go to :meth:`heard`); the
        next frame is read once it returns."""
        ...

    def heard(self, head: WireHead | None) -> None:
        """A head the host signed (its own in a ping, or one a player reported), to compare."""
        ...

    def head(self) -> Head | None:
        """The client's latest head, reported in its pings."""
        ...

    def seen_signature(self, head: Head) -> bytes:
        """The client's seen signature over ``head`` (PROTOCOL.md 7, "Seen reports")."""
        ...

    def relayed(self, reports: list[tuple[bytes, WireHead | None, bytes | None]]) -> None:
        """The seen reports the host relayed in a ping, each ``(key, head, fsig)`` as received
        (nothing checked but their shape)."""
        ...

    def lost(self) -> None:
        """The connection is gone (the client will say hello again)."""
        ...

    def table_over(self) -> bool:
        """The client's table has ended (or stopped): no reason to connect again."""
        ...

    def give_up(self, reason: str) -> None:
        """Stop for good with ``reason`` (a sentence)."""
        ...


class HostLink:
    """The connection of one client to the host at ``address`` ((host, port); a caller may point
    it elsewhere between attempts).

    ``timeouts`` and ``backoff``: see :mod:`net.events`; ``listeners`` gets a
    :class:`~net.events.Connection` at every change of :attr:`state` and a
    :class:`~net.events.Presence` when the players the host relays change. ``dialer``: opens
    each connection instead of TCP to ``address`` (:class:`Dialer`).
    """

    def __init__(
        self,
        address: tuple[str, int],
        peer: LinkPeer,
        listeners: Listeners,
        *,
        timeouts: Timeouts = Timeouts(),
        backoff: Backoff = Backoff(),
        rng: random.Random | None = None,
        dialer: Dialer | None = None,
    ) -> None:
        self.address = address
        self.dialer = dialer
        self.peer = peer
        self.listeners = listeners
        self.timeouts = timeouts
        self.backoff = backoff
        self.state = LinkState.IDLE
        self.presence: tuple[bytes, ...] = ()
        self.outbox: Outbox | None = None
        """The open connection's outbox (None between connections)."""
        self.wake = asyncio.Event()
        """Set to cut a back-off wait short (the client stops)."""
        self._rng = rng or random.Random()
        self._welcomed = False

    def set_state(
        self, state: LinkState, detail: str = "", retry: float | None = None, cause: LinkCause | None = None
    ) -> None:
        """Record ``state`` and tell the listeners (``detail``: why; ``retry``: seconds to the next
        try; ``cause``: why a ``disconnected`` link went down)."""
        self.state = state
        self.listeners.emit(Connection(state, detail, retry, cause))

    def connected(self) -> str:
        """The sentence of a link welcomed and caught up: where it is connected, and how."""
        if self.dialer is not None:
            return self.dialer.connected()
        return f"Connected to {self.address[0]}:{self.address[1]}."

    def send(self, message: WireMap) -> bool:
        """Queue ``message`` on the open connection. False when there is none or it is full."""
        return self.outbox is not None and self.outbox.send(message)

    def drop(self) -> None:
        """Drop the current connection at once (the link reconnects, the peer catches up)."""
        if self.outbox is not None:
            self.outbox.abort()

    async def close(self, reason: str) -> None:
        """Say ``bye`` (``done``, ``reason``) on the open connection and close it."""
        if self.outbox is not None:
            await self.outbox.close(Bye("done", reason).to_map())

    async def run(self) -> None:
        """Connect, serve the connection, and reconnect after a back-off until the peer stops or
        gives up. Never raises: every failure is a state, or the peer's :meth:`LinkPeer.give_up`."""
        peer = self.peer
        delay = self.backoff.first
        while not peer.stopping:
            self._welcomed = False
            cause = LinkCause.LOST
            try:
                await self._connect_once()
                detail = "The host closed the connection."
            except GiveUp as err:
                peer.give_up(str(err))
                return
            except socket.gaierror:
                # A name that does not resolve will not resolve on the next try either.
                peer.give_up(f"The address {self.address[0]!r} names no computer this one can find.")
                return
            except ConnectionRefusedError:
                cause = LinkCause.REFUSED
                detail = f"Nothing answers at {self.address[0]}:{self.address[1]}: is the table open there?"
            except HostClosed as err:
                cause = LinkCause.HOST_CLOSED
                detail = str(err)
            except (WireError, MessageError, OSError, TimeoutError) as err:
                detail = str(err) or type(err).__name__
            except LogError as err:
                peer.give_up(f"This peer's log file cannot be written: {err}")
                return
            except VampireError as err:
                peer.give_up(str(err))
                return
            except Exception as err:
                log.exception("the client failed")
                peer.give_up(f"This peer failed: {type(err).__name__}: {err}")
                return
            finally:
                if self.outbox is not None:
                    self.outbox.abort()
                self.outbox = None
                peer.lost()
            if peer.stopping or peer.finished.is_set():
                if self.state != LinkState.STOPPED:
                    self.set_state(LinkState.STOPPED, peer.failure or "The table is over.")
                return
            if peer.table_over():
                self.set_state(LinkState.STOPPED, "The table is over.")
                peer.finished.set()
                return
            if self._welcomed:
                delay = self.backoff.first
            wait = delay * self._rng.uniform(1 - self.backoff.jitter, 1 + self.backoff.jitter)
            self.set_state(LinkState.DISCONNECTED, detail, wait, cause)
            try:
                await asyncio.wait_for(self.wake.wait(), wait)
            except TimeoutError:
                pass
            delay = min(delay * 2, self.backoff.most)

    async def _connect_once(self) -> None:
        host, port = self.address
        if self.dialer is not None:
            self.set_state(LinkState.CONNECTING, self.dialer.connecting)
            reader, writer = await asyncio.wait_for(self.dialer.open(), self.timeouts.connect)
        else:
            self.set_state(LinkState.CONNECTING, f"Connecting to {host}:{port}.")
            reader, writer = await asyncio.wait_for(open_stream(host, port), self.timeouts.connect)
        outbox = Outbox(
            writer, max_queued=self.timeouts.max_queued, write_timeout=self.timeouts.write, on_fail=lambda c, r: None
        )
        self.outbox = outbox
        timeout, body = self.timeouts.hello, self.timeouts.body
        # Before the hello is verified either side reads one small frame (PROTOCOL.md 7, "Budgets").
        challenge = parse_message(
            await read_frame(reader, idle=timeout, body=body, limits=HANDSHAKE_LIMITS, within=timeout)
        )
        if isinstance(challenge, Bye):
            self._on_bye(challenge)
        if not isinstance(challenge, Challenge):
            raise MessageError(f"The host opened with a {challenge.t}, not a challenge.")
        outbox.send(self.peer.hello(challenge).to_map())
        first = parse_message(await read_frame(reader, idle=timeout, body=body))
        if isinstance(first, Bye):
            self._on_bye(first)
        if not isinstance(first, Welcome):
            raise MessageError(f"The host answered hello with a {first.t}.")
        if first.host != challenge.host or first.table != challenge.table:
            raise MessageError("The host's welcome names another table or host key than its challenge.")
        self.peer.welcomed(first)
        self._welcomed = True
        pinger = asyncio.get_running_loop().create_task(self._ping_loop(outbox))
        try:
            while True:
                msg = parse_message(await read_frame(reader, idle=self.timeouts.idle, body=self.timeouts.body))
                if isinstance(msg, Entries | SubmitRejected | Accepted):
                    await self.peer.received(msg)
                elif isinstance(msg, Ping):  # Pong too
                    self._on_ping(msg, outbox)
                elif isinstance(msg, Bye):
                    self._on_bye(msg)
                else:
                    raise MessageError(f"A host does not send {msg.t} frames after the welcome.")
                if self.peer.finished.is_set():
                    await outbox.close(Bye("done", "The table is over.").to_map())
                    return
        finally:
            pinger.cancel()

    def _on_bye(self, bye: Bye) -> None:
        if bye.code in FATAL_BYE:
            raise GiveUp(f"The host closed the connection: {bye.reason}")
        if bye.code == "done":
            raise HostClosed(bye.reason)
        raise WireError("closed", f"The host said bye: {bye.reason}")

    def _report(self, kind: type[Ping]) -> Ping:
        """A ping (or pong) carrying this peer's seen report: its head and its seen signature."""
        head = self.peer.head()
        fsig = self.peer.seen_signature(head) if head is not None else None
        return kind(head_to_wire(head), [], fsig)

    async def _ping_loop(self, outbox: Outbox) -> None:
        while True:
            await asyncio.sleep(self.timeouts.ping)
            outbox.send(self._report(Ping).to_map())

    def _on_ping(self, msg: Ping, outbox: Outbox) -> None:
        if not isinstance(msg, Pong):
            outbox.send(self._report(Pong).to_map())
        self.peer.heard(msg.head)
        keys = []
        reports: list[tuple[bytes, WireHead | None, bytes | None]] = []
        for item in msg.relay:
            key, head = item[0], item[1]
            keys.append(key)
            self.peer.heard(head)
            reports.append((key, head, item[2] if len(item) > 2 else None))
        self.peer.relayed(reports)
        if tuple(keys) != self.presence:
            self.presence = tuple(keys)
            self.listeners.emit(Presence(self.presence))
