"""A table across the internet: its connections over iroh (n0's QUIC with hole punching, relay
fallback and port mapping), as the asyncio streams the host and the link already take.

Nothing above this module knows of iroh: the host is handed each connection as a
``(StreamReader, StreamWriter)`` pair, as ``asyncio.start_server`` hands it (:class:`Listener`),
and a client's link opens one the same way (:class:`Dialer`). A connection's peer name
(``get_extra_info("peername")``) is ``("iroh:<endpoint id>", 0)``, so the host's admission caps
connections per endpoint id as it caps them per IP address; its ``route`` extra says whether the
path is direct or relayed, and its round-trip time ("direct, 12 ms").

The transport need not be trusted (PROTOCOL.md 2, 7): every entry is signed and the log is the
truth; iroh's stream is encrypted besides, and a relay sees addresses, never the game.

One QUIC connection carries one table connection, on the one bidirectional stream the host opens
(its ``challenge`` goes first, as on TCP). Sends go out in chunks of :data:`CHUNK` bytes, each
handed to the bindings on its own, so a 1 MB catch-up never holds the event loop for long; the
bindings' copy of a chunk is made one memory copy (:func:`faster_copy`).

iroh has wheels for Linux (x86_64, arm64), macOS on Apple silicon and Windows (amd64); elsewhere
the package is not installed and :func:`unavailable` says so in a sentence.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import platform
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from engine.errors import VampireError
from net.framing import WireError

log = logging.getLogger("vampire.net.internet")

ALPN = b"vampire-table/2"
"""The QUIC application protocol of a table connection (the protocol's version in its name)."""

CHUNK = 16 * 1024
"""Bytes handed to the bindings in one write: one copy and one call, well under a millisecond."""

HIGH_WATER = 256 * 1024
"""Bytes buffered for sending above which the writer's ``drain`` waits (as a socket's buffer)."""

READ_SIZE = 64 * 1024
"""Bytes asked of the stream in one read."""

TICKET_PREFIX = "endpoint"
"""How every iroh endpoint ticket starts."""

KEY_BYTES = 32
"""An endpoint's secret key: 32 bytes (Ed25519)."""

PEER_PREFIX = "iroh:"
"""How the peer name of an internet connection starts (``iroh:<endpoint id, hex>``)."""


class InternetError(VampireError):
    """Play across the internet cannot be had here, or a ticket or relay given is not usable.
    The message is a sentence."""


def unavailable() -> str | None:
    """Why play across the internet is not available on this computer (one sentence), or None
    when it is (the ``iroh`` package imports)."""
    try:
        import iroh  # noqa: F401
    except ImportError:
        where = f"{platform.system()} on {platform.machine()}"
        return (
            f"Play across the internet needs the iroh package, which has no build for {where} "
            "(it has for Linux, Windows and Apple-silicon Macs): play on the LAN, or over a VPN."
        )
    except OSError as err:  # the wheel's library does not load (an old C library, say)
        return f"Play across the internet needs the iroh package, whose library does not load here: {err}."
    return None


def _iroh() -> Any:
    """The ``iroh`` module. Raises InternetError with :func:`unavailable`'s sentence."""
    why = unavailable()
    if why is not None:
        raise InternetError(why)
    import iroh

    faster_copy(iroh)
    return iroh


def faster_copy(module: Any) -> bool:
    """Make the bindings copy the bytes of a write in one memory copy rather than one Python step
    a byte (about 4 MB/s as shipped: a 1 MB catch-up would take a quarter of a second of the loop).
    Replaces the write of the bindings' buffer builder, once, and only when it has the shape of
    iroh 1.2's generated code; returns whether the fast copy is in place."""
    ffi = getattr(module, "iroh_ffi", None)
    builder = getattr(ffi, "_UniffiRustBufferBuilder", None)
    if builder is None or not hasattr(builder, "_reserve"):
        return False
    if getattr(builder.write, "_one_copy", False):
        return True

    def write(self: Any, value: bytes) -> None:
        data = bytes(value)
        with self._reserve(len(data)):
            start = ctypes.cast(self.rbuf.data, ctypes.c_void_p).value
            assert start is not None
            ctypes.memmove(start + self.rbuf.len, data, len(data))

    write._one_copy = True  # type: ignore[attr-defined]
    builder.write = write
    return True


@dataclass(frozen=True)
class Relays:
    """Which relay an endpoint uses, and how it finds its peers.

    ``url``: a relay of one's own (``https://…``, run with ``iroh-relay``); None: n0's public
    relays. ``off``: no relay and no discovery at all, only the addresses in the ticket (a LAN, a
    port forward, tests in a network namespace). ``forwarded``: the public ``IP:PORT`` a router
    forwards to this endpoint's UDP port, added to its ticket (a host behind a NAT it set up)."""

    url: str | None = None
    off: bool = False
    forwarded: str | None = None

    @classmethod
    def parse(cls, text: str | None, forwarded: str | None = None) -> Relays:
        """``--relay`` as given: None (n0's relays), ``off``, or an https URL. Raises InternetError."""
        if forwarded is not None:
            _check_ip_port(forwarded)
        if text is None:
            return cls(forwarded=forwarded)
        if text == "off":
            return cls(off=True, forwarded=forwarded)
        parsed = urlparse(text)
        if parsed.scheme not in ("https", "http") or not parsed.hostname:
            raise InternetError(f"{text!r} is not a relay: give its URL (https://relay.example.org) or off.")
        return cls(url=text, forwarded=forwarded)


def _check_ip_port(text: str) -> None:
    import ipaddress

    host, _, port = text.rpartition(":")
    try:
        ipaddress.ip_address(host.strip("[]"))
        ok = port.isdigit() and 0 < int(port) < 65536
    except ValueError:
        ok = False
    if not ok:
        raise InternetError(f"{text!r} is not IP:PORT (the address and UDP port your router forwards).")


def is_ticket(text: str) -> bool:
    """Whether ``text`` (what a player typed to join) is an endpoint ticket rather than HOST:PORT."""
    return text.strip().startswith(TICKET_PREFIX)


def check_ticket(text: str) -> str:
    """``text`` as a ticket, stripped, once iroh reads it. Raises InternetError with a sentence."""
    iroh = _iroh()
    text = text.strip()
    try:
        iroh.EndpointTicket.from_string(text)
    except Exception:
        raise InternetError("That ticket cannot be read: copy it whole, as the host's lobby shows it.") from None
    return text


def key_path(log: Path) -> Path:
    """Where a hosted table keeps its endpoint's secret key: beside its log (``LOG.iroh-key``), so
    that ``vampire host --resume LOG`` listens as the same endpoint and the ticket holds."""
    return log.with_name(log.name + ".iroh-key")


def endpoint_key(path: Path) -> bytes:
    """The 32-byte endpoint secret key in ``path``, made (mode 0600) when the file is missing.
    Raises InternetError for a file that holds something else."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        data = os.urandom(KEY_BYTES)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        return data
    if len(data) != KEY_BYTES:
        raise InternetError(f"{path} is not an endpoint key ({len(data)} bytes, not {KEY_BYTES}).")
    return data


async def bind(relays: Relays, *, key: bytes | None = None, port: int = 0, ip: str = "0.0.0.0") -> Any:
    """A bound iroh endpoint speaking :data:`ALPN`, on UDP ``ip``:``port`` (0: any free port),
    with the secret ``key`` (None: a fresh one); with a port given, IPv6 on the same port too
    (every address in the ticket stays the same when the host comes back: ``--resume``).
    ``relays``: see :class:`Relays`; with ``off`` it contacts nothing: no relay, no discovery (its
    port mapper still probes the gateway: tests run in a network namespace). Raises InternetError."""
    import ipaddress

    v6 = None
    if port:
        v6 = "[::1]" if ipaddress.ip_address(ip).is_loopback else "[::]"
    try:
        return await _bind(relays, key, [f"{ip}:{port}", f"{v6}:{port}"] if v6 else [f"{ip}:{port}"])
    except InternetError:
        if v6 is None:
            raise
        return await _bind(relays, key, [f"{ip}:{port}"])  # a computer without IPv6


async def _bind(relays: Relays, key: bytes | None, addresses: list[str]) -> Any:
    iroh = _iroh()
    iroh.iroh_ffi.uniffi_set_event_loop(asyncio.get_running_loop())
    builder = iroh.EndpointBuilder()
    if relays.off:
        builder.apply_minimal()
        builder.relay_mode(iroh.RelayMode.disabled())
    else:
        builder.apply_n0()
        if relays.url is not None:
            builder.relay_mode(iroh.RelayMode.custom_from_urls([relays.url]))
    builder.alpns([ALPN])
    try:
        for address in addresses:
            builder.bind_addr(address)
        if key is not None:
            builder.secret_key(key)
        endpoint = await builder.bind()
        if relays.forwarded is not None:
            await endpoint.add_external_addr(relays.forwarded)
    except Exception as err:
        raise InternetError(f"Cannot open an internet endpoint on UDP {addresses[0]}: {_said(err)}") from None
    return endpoint


def _said(err: BaseException) -> str:
    """An iroh error's message, as a sentence's end."""
    message = getattr(err, "message", None)
    text = message() if callable(message) else str(err)
    return (text or type(err).__name__).rstrip(".") + "."


def route_of(connection: Any) -> str:
    """How ``connection`` (an iroh Connection) reaches its peer now: "direct, 12 ms" or
    "relayed, 80 ms" (the selected path, and the connection's round-trip time)."""
    try:
        paths = connection.paths()
        rtt = connection.rtt()
    except Exception:
        return "closed"
    selected = next((p for p in paths if p.is_selected), None)
    how = "relayed" if selected is not None and selected.is_relay else "direct"
    return f"{how}, {rtt} ms" if rtt is not None else how


class Transport(asyncio.Transport):
    """One table connection on one QUIC stream pair, behind asyncio's transport interface, so that
    ``asyncio.StreamReader`` and ``StreamWriter`` work on it unchanged (:func:`streams`).

    Writes are buffered and sent by one task, :data:`CHUNK` bytes a call; ``drain`` waits while
    more than :data:`HIGH_WATER` bytes are buffered. Reads are fed to the protocol by another, held
    while the reader's buffer is full (``pause_reading``). :meth:`close` sends what is buffered,
    ends the stream and closes the connection; :meth:`abort` closes it at once."""

    def __init__(self, connection: Any, send: Any, recv: Any, protocol: asyncio.BaseProtocol, endpoint: Any = None):
        super().__init__()
        self._connection = connection
        self._send = send
        self._recv = recv
        self._protocol = protocol
        self._endpoint = endpoint  # a dialer's own endpoint, closed with the connection
        self._buffer = bytearray()
        self._wake = asyncio.Event()
        self._reading = asyncio.Event()
        self._reading.set()
        self._paused = False
        self._closing = False
        self._lost = False
        remote = connection.remote_id().to_bytes().hex()
        self._extra = {"peername": (PEER_PREFIX + remote, 0), "endpoint": remote}
        loop = asyncio.get_running_loop()
        self._writer = loop.create_task(self._write_loop())
        self._reader = loop.create_task(self._read_loop())

    # -- asyncio.Transport ----------------------------------------------------------------------

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        """``peername`` (``("iroh:<endpoint id>", 0)``), ``endpoint`` (the id, hex) and
        ``route`` (:func:`route_of`, now)."""
        if name == "route":
            return route_of(self._connection)
        return self._extra.get(name, default)

    def is_closing(self) -> bool:
        return self._closing

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._closing:
            return
        self._buffer += data
        self._wake.set()
        if not self._paused and len(self._buffer) > HIGH_WATER:
            self._paused = True
            self._protocol.pause_writing()

    def get_write_buffer_size(self) -> int:
        return len(self._buffer)

    def can_write_eof(self) -> bool:
        return False

    def pause_reading(self) -> None:
        self._reading.clear()

    def resume_reading(self) -> None:
        self._reading.set()

    def is_reading(self) -> bool:
        return self._reading.is_set()

    def close(self) -> None:
        if self._closing:
            return
        self._closing = True
        self._wake.set()  # the write loop sends what is left, ends the stream, then closes

    def abort(self) -> None:
        self._closing = True
        self._buffer.clear()
        self._writer.cancel()
        self._end(None)

    # -- the two tasks --------------------------------------------------------------------------

    async def _write_loop(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._buffer:
                    chunk = bytes(self._buffer[:CHUNK])
                    del self._buffer[:CHUNK]
                    await self._send.write_all(chunk)
                    if self._paused and len(self._buffer) <= HIGH_WATER // 4:
                        self._paused = False
                        self._protocol.resume_writing()
                if self._closing:
                    with contextlib.suppress(Exception):
                        await self._send.finish()
                        # The peer reads to the end and closes; what was sent is not cut off.
                        await asyncio.wait_for(self._connection.closed(), 2.0)
                    self._end(None)
                    return
        except asyncio.CancelledError:
            pass
        except Exception as err:
            self._end(ConnectionResetError(f"The internet connection broke while writing: {_said(err)}"))

    async def _read_loop(self) -> None:
        try:
            while True:
                await self._reading.wait()
                data = await self._recv.read(READ_SIZE)
                if not data:
                    break
                self._protocol.data_received(data)  # type: ignore[attr-defined]
        except asyncio.CancelledError:
            return
        except Exception as err:
            self._end(ConnectionResetError(f"The internet connection broke: {_said(err)}"))
            return
        self._protocol.eof_received()  # type: ignore[attr-defined]

    def _end(self, exc: Exception | None) -> None:
        """Close the connection (once) and tell the protocol."""
        if self._lost:
            return
        self._lost = True
        self._closing = True
        self._reader.cancel()
        with contextlib.suppress(Exception):
            self._connection.close(0, b"closed")
        if self._endpoint is not None:
            _close_later(self._endpoint)
        self._protocol.connection_lost(exc)


CLOSE_WAIT = 3.0
"""Seconds an endpoint's close may wait for its connections to end gracefully (iroh's close waits
for them: one half-open to an unreachable address would hold it for its idle time-out)."""

_closing: set[asyncio.Task[None]] = set()
"""Endpoints being closed in the background (a task is kept until it ends)."""


async def _close_endpoint(endpoint: Any) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(endpoint.close(), CLOSE_WAIT)


def _close_later(endpoint: Any) -> None:
    """Close ``endpoint`` in the background: a connection being given up returns at once."""
    task = asyncio.get_running_loop().create_task(_close_endpoint(endpoint))
    _closing.add(task)
    task.add_done_callback(_closing.discard)


def streams(
    connection: Any, send: Any, recv: Any, endpoint: Any = None, limit: int = 2**16
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """The asyncio reader and writer of one table connection on ``connection``'s stream pair
    (``send``, ``recv``); ``endpoint``: closed with the connection (a dialer's own)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=limit, loop=loop)
    protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
    transport = Transport(connection, send, recv, protocol, endpoint)
    protocol.connection_made(transport)
    return reader, asyncio.StreamWriter(transport, protocol, reader, loop)


StreamHandler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


class Listener:
    """A host's endpoint: every QUIC connection to it becomes a table connection handed to
    ``serve`` (the host's, as ``asyncio.start_server`` would hand it). ``key``: the endpoint's
    secret (:func:`endpoint_key`); ``relays``: see :class:`Relays`; ``handshake``: seconds a new
    connection has to finish QUIC's handshake."""

    def __init__(self, serve: StreamHandler, key: bytes, relays: Relays = Relays(), handshake: float = 10.0) -> None:
        self.serve = serve
        self.key = key
        self.relays = relays
        self.handshake = handshake
        self.endpoint: Any = None
        self._loop_task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, port: int = 0, ip: str = "0.0.0.0") -> None:
        """Bind the endpoint on UDP ``ip``:``port`` and start taking connections. With relays,
        wait (a few seconds at most) until the endpoint has its home relay, so the ticket names
        it. Raises InternetError."""
        self.endpoint = await bind(self.relays, key=self.key, port=port, ip=ip)
        if not self.relays.off:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.endpoint.online(), 10.0)
        self._loop_task = asyncio.get_running_loop().create_task(self._accept_loop())

    @property
    def ticket(self) -> str:
        """The ticket friends join with: the endpoint id, its relay and its direct addresses."""
        iroh = _iroh()
        return str(iroh.EndpointTicket.from_addr(self.endpoint.addr()))

    @property
    def endpoint_id(self) -> str:
        """The endpoint id (hex): a host's peers see it in its connections' peer names."""
        return str(self.endpoint.id().to_bytes().hex())

    async def close(self) -> None:
        """Stop taking connections and close the endpoint (every connection on it goes)."""
        if self._loop_task is not None:
            self._loop_task.cancel()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.endpoint is not None:
            await _close_endpoint(self.endpoint)

    async def _accept_loop(self) -> None:
        while True:
            try:
                incoming = await self.endpoint.accept_next()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.info("the internet endpoint stopped taking connections: %s", _said(err))
                return
            if incoming is None:
                return
            task = asyncio.get_running_loop().create_task(self._take(incoming))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _take(self, incoming: Any) -> None:
        try:
            accepting = await asyncio.wait_for(incoming.accept(), self.handshake)
            connection = await asyncio.wait_for(accepting.connect(), self.handshake)
            # The peer opens no stream of its own: none would be read, each would hold a window.
            connection.set_max_concurrent_bi_streams(0)
            connection.set_max_concurrent_uni_streams(0)
            pair = await connection.open_bi()
        except asyncio.CancelledError:
            raise
        except Exception as err:
            log.info("an internet connection failed its handshake: %s", _said(err))
            return
        reader, writer = streams(connection, pair.send(), pair.recv())
        await self.serve(reader, writer)


class Dialer:
    """How a client reaches a host across the internet: the host's ``ticket``, and the
    ``relays`` its own endpoint uses (a fresh endpoint, with a fresh key, for each connection).
    Handed to :class:`~net.link.HostLink` in place of a TCP address."""

    def __init__(self, ticket: str, relays: Relays = Relays()) -> None:
        self.ticket = ticket
        self.relays = relays
        self._connection: Any = None

    @property
    def connecting(self) -> str:
        """What a player reads while the link opens."""
        return "Connecting through the internet…"

    def route(self) -> str | None:
        """How the open connection reaches the host ("direct, 12 ms"), None when none is open."""
        return None if self._connection is None else route_of(self._connection)

    def connected(self) -> str:
        """The sentence of the open connection: how it reaches the host."""
        route = self.route()
        return f"Connected through the internet ({route})." if route else "Connected through the internet."

    async def open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """Open one table connection to the host. Raises WireError ``closed`` with a sentence when
        the host cannot be reached, InternetError when iroh is not available."""
        iroh = _iroh()
        try:
            ticket = iroh.EndpointTicket.from_string(self.ticket)
        except Exception:
            raise InternetError("That ticket cannot be read: copy it whole, as the host's lobby shows it.") from None
        endpoint = await bind(self.relays)
        try:
            connection = await endpoint.connect(ticket.endpoint_addr(), ALPN)
            connection.set_max_concurrent_uni_streams(0)  # the host opens one stream, the table's
            pair = await connection.accept_bi()
        except BaseException as err:
            _close_later(endpoint)
            if isinstance(err, asyncio.CancelledError | KeyboardInterrupt | SystemExit):
                raise
            raise WireError("closed", f"The table cannot be reached through the internet: {_said(err)}") from None
        self._connection = connection
        return streams(connection, pair.send(), pair.recv(), endpoint)


async def listen_for_table(
    serve: StreamHandler, log: Path, relays: Relays, port: int, bind: str = "0.0.0.0", handshake: float = 10.0
) -> Listener:
    """The started :class:`Listener` of a hosted table whose log is ``log``: as the endpoint whose
    key is kept beside it (:func:`key_path`: ``--resume`` keeps the ticket), on UDP ``port`` (the
    table's TCP port) of ``bind`` (a wildcard or "": every interface). Raises InternetError."""
    listener = Listener(serve, endpoint_key(key_path(log)), relays, handshake)
    await listener.start(port, "0.0.0.0" if bind in ("", "0.0.0.0", "::") else bind)
    return listener
