"""Frames on a TCP stream (PROTOCOL.md 7; byte layouts in docs/protocol.md, part 3).

A frame is a 4-byte big-endian length N (1 <= N <= 4 MiB) followed by N bytes: the canonical
MessagePack encoding of one map with a ``t`` (type) str key. :func:`read_frame` reads one with
read time-outs and the decoding limits of :mod:`engine.protocol.codec` (:data:`HANDSHAKE_LIMITS`
before a verified hello); :class:`Outbox` writes frames from
a bounded queue, so a slow reader never blocks the sender's other peers.

Every way a peer can break the framing raises a :class:`WireError` whose ``code`` names it
(``closed``, ``silent``, ``slow``, ``too-large``, ``malformed``, ``slow-reader``) and whose message
is a sentence for the log.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Literal

from engine.errors import VampireError
from engine.protocol.codec import DEFAULT_LIMITS, CodecError, LimitError, Limits, decode, encode

MAX_FRAME = 4 * 1024 * 1024
"""The largest frame body, in bytes (PROTOCOL.md 7)."""

MAX_HANDSHAKE_FRAME = 4 * 1024
"""The largest frame body before a verified hello, in bytes (PROTOCOL.md 7, "Budgets"): the
``challenge`` and the ``hello`` take under 300 bytes."""

HANDSHAKE_LIMITS = replace(DEFAULT_LIMITS, max_bytes=MAX_HANDSHAKE_FRAME)
"""Decoding limits for the one frame each side reads before the hello is verified: the host's read
of the ``hello``, the peer's read of the ``challenge``."""

HEADER = 4
"""Bytes of the big-endian length that starts every frame."""


WireCode = Literal[
    "closed",
    "silent",
    "slow",
    "too-large",
    "malformed",
    "slow-reader",
    "flood",
    "version",
    "bad-hello",
    "wrong-table",
    "ahead",
    "full",
]
"""Why a connection is dropped, as the ``bye`` to the peer says it (see :class:`WireError`)."""


class WireError(VampireError):
    """A peer that broke the framing or went away. ``code``: ``closed`` (end of stream or reset),
    ``silent`` (no frame within the idle time-out), ``slow`` (a frame body that does not arrive
    within the body time-out), ``too-large`` (a declared length over 4 MiB), ``malformed`` (a zero
    length, bytes that are not one canonical map with a str ``t``), ``slow-reader`` (a peer that
    does not read what it is sent); the host also drops a peer for a ``flood`` of frames, or a
    hello of another protocol ``version``, a hello whose key or signature fails (``bad-hello``),
    of the ``wrong-table``, ``ahead`` of its log, or one the host has no room for (``full``: a
    connection that holds no seat past the cap of those, or the oldest of them when a seat needs
    its slot)."""

    def __init__(self, code: WireCode, message: str) -> None:
        super().__init__(message)
        self.code = code


def frame_bytes(message: dict[str, Any]) -> bytes:
    """The frame carrying ``message`` (a map with a str ``t``): 4-byte big-endian length, then the
    canonical encoding. Raises WireError ``too-large`` over :data:`MAX_FRAME` and CodecError for a
    value the protocol cannot encode."""
    body = encode(message)
    if len(body) > MAX_FRAME:
        raise WireError("too-large", f"A {message.get('t')} frame of {len(body)} bytes is over the 4 MiB limit.")
    return len(body).to_bytes(HEADER, "big") + body


def parse_frame_body(body: bytes, limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """The message map held by a frame body. Raises WireError ``too-large`` or ``malformed``."""
    try:
        value = decode(body, limits)
    except LimitError as err:
        raise WireError("too-large", f"The frame is over a decoding limit: {err}") from None
    except CodecError as err:
        raise WireError("malformed", f"The frame is not canonical MessagePack: {err}") from None
    if not isinstance(value, dict) or not isinstance(value.get("t"), str):
        raise WireError("malformed", "A frame must hold a map with a str field 't'.")
    return value


async def read_frame(
    reader: asyncio.StreamReader,
    *,
    idle: float | None,
    body: float,
    limits: Limits = DEFAULT_LIMITS,
    within: float | None = None,
    admit: Callable[[int], Awaitable[None]] | None = None,
) -> dict[str, Any]:
    """Read one frame and return its message map.

    ``idle``: seconds to wait for the 4 length bytes (None: forever); ``body``: seconds for the N
    body bytes once the length is read (a slow sender); ``within``: seconds for the whole frame,
    length and body (None: no such bound; the hello's 10 s, PROTOCOL.md 7). The length is checked
    before any of the body is read, so an oversized frame costs nothing. ``admit(N)``, when given,
    is awaited once the body has arrived and before it is decoded: a budget that may wait before
    the decoding is paid for (the host's :class:`~net.admission.ByteBucket`). Raises WireError
    (``closed``, ``silent``, ``slow``, ``too-large``, ``malformed``).
    """
    loop = asyncio.get_running_loop()
    deadline = None if within is None else loop.time() + within
    if within is not None:
        idle = within if idle is None else min(idle, within)
    try:
        header = await asyncio.wait_for(reader.readexactly(HEADER), idle)
    except asyncio.IncompleteReadError as err:
        if err.partial:
            raise WireError("closed", "The connection closed in the middle of a frame length.") from None
        raise WireError("closed", "The connection was closed.") from None
    except TimeoutError:
        raise WireError("silent", f"Nothing arrived for {idle:g} s.") from None
    except (ConnectionError, OSError) as err:
        raise WireError("closed", f"The connection broke: {err}.") from None
    n = int.from_bytes(header, "big")
    if n == 0:
        raise WireError("malformed", "A frame declared a length of 0 bytes.")
    if n > MAX_FRAME or n > limits.max_bytes:
        raise WireError(
            "too-large", f"A frame declared {n} bytes, over the limit of {min(MAX_FRAME, limits.max_bytes)}."
        )
    if deadline is not None:
        body = max(0.0, min(body, deadline - loop.time()))
    try:
        data = await asyncio.wait_for(reader.readexactly(n), body)
    except asyncio.IncompleteReadError:
        raise WireError("closed", "The connection closed in the middle of a frame.") from None
    except TimeoutError:
        raise WireError("slow", f"A frame of {n} bytes did not arrive within {body:.3g} s.") from None
    except (ConnectionError, OSError) as err:
        raise WireError("closed", f"The connection broke: {err}.") from None
    if admit is not None:
        await admit(n)
    return parse_frame_body(data, limits)


class Outbox:
    """Frames waiting to go out on one connection, written by one task.

    :meth:`send` never blocks: it queues the frame and returns False (and fails the connection)
    when more than ``max_queued`` bytes are waiting (frames sent with ``counted=False``, a
    catch-up the sender shares among peers, are not counted). ``max_queued`` may be changed at
    any time (the host lowers it for a peer that holds no seat). The writer task fails the connection when one
    drain takes more than ``write_timeout`` seconds. ``on_fail(code, reason)`` is called once, with
    code ``slow-reader`` or ``closed``. :meth:`close` flushes what is queued (within
    ``write_timeout``) and closes the stream.
    """

    def __init__(
        self,
        writer: asyncio.StreamWriter,
        *,
        max_queued: int,
        write_timeout: float,
        on_fail: Callable[[str, str], None],
    ) -> None:
        self.writer = writer
        self.max_queued = max_queued
        self.write_timeout = write_timeout
        self.on_fail = on_fail
        self._queue: collections.deque[tuple[bytes, bool]] = collections.deque()
        self._queued = 0
        self._wake = asyncio.Event()
        self._closed = False
        self._failed = False
        self._feed: Callable[[], bytes | None] | None = None
        self._task = asyncio.get_running_loop().create_task(self._run())

    @property
    def closed(self) -> bool:
        """True once closed or failed: :meth:`send` then refuses."""
        return self._closed

    @property
    def queued(self) -> int:
        """Bytes waiting that count against ``max_queued``."""
        return self._queued

    def send(self, message: dict[str, Any] | bytes, counted: bool = True) -> bool:
        """Queue a message map (or ready frame bytes). False when the outbox is closed or full.
        ``counted``: whether its bytes count against ``max_queued``."""
        if self._closed:
            return False
        data = bytes(message) if isinstance(message, (bytes, bytearray)) else frame_bytes(message)
        if counted and self._queued + len(data) > self.max_queued:
            self._fail("slow-reader", f"The peer does not read: over {self.max_queued} bytes wait for it.")
            return False
        self._queue.append((data, counted))
        if counted:
            self._queued += len(data)
        self._wake.set()
        return True

    def feed(self, next_frame: Callable[[], bytes | None]) -> None:
        """Send the frames ``next_frame()`` gives, each made when what was queued before it has
        been read, until it gives None: a catch-up paced by what the peer reads, which never
        counts against ``max_queued`` (a peer catching up is not a peer that does not read; one
        that reads nothing still fails ``write_timeout``). Frames queued meanwhile go first."""
        self._feed = next_frame
        self._wake.set()

    def _fail(self, code: str, reason: str) -> None:
        if self._failed:
            return
        self._failed = True
        self._closed = True
        self._queue.clear()
        self._wake.set()
        self.writer.transport.abort()
        self.on_fail(code, reason)

    async def _run(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._queue or self._feed is not None:
                    if self._queue:
                        data, counted = self._queue.popleft()
                    else:
                        assert self._feed is not None
                        fed, counted = self._feed(), False
                        if fed is None:
                            self._feed = None
                            continue
                        data = fed
                    if counted:
                        self._queued -= len(data)
                    self.writer.write(data)
                    try:
                        await asyncio.wait_for(self.writer.drain(), self.write_timeout)
                    except TimeoutError:
                        self._fail("slow-reader", f"The peer read nothing for {self.write_timeout:g} s.")
                        return
                if self._closed:
                    return
        except (ConnectionError, OSError) as err:
            self._fail("closed", f"The connection broke while writing: {err}.")
        except asyncio.CancelledError:
            pass

    async def close(self, last: dict[str, Any] | None = None, timeout: float = 2.0) -> None:
        """Send ``last`` (a ``bye``, say) after what is queued, flush for at most ``timeout``
        seconds, and close the stream."""
        if not self._closed and last is not None:
            self.send(last)
        self._closed = True
        self._wake.set()
        if not self._failed:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), min(timeout, self.write_timeout))
            except (TimeoutError, asyncio.CancelledError):
                self._task.cancel()
        try:
            self.writer.close()
        except (ConnectionError, OSError, RuntimeError):
            pass

    def abort(self) -> None:
        """Drop the connection at once, without flushing."""
        self._closed = True
        self._task.cancel()
        self.writer.transport.abort()
