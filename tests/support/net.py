"""Helpers for the network tests (no tests here): a raw TCP peer that can misbehave, and a small
table of in-process bot clients over loopback (waiting on conditions: :mod:`tests.support.poll`)."""

from __future__ import annotations

import asyncio
import random
import socket
from typing import Any

from engine.games import all_rules, find_game
from engine.games.base import parse_options
from engine.protocol.identity import new_key
from engine.protocol.log import LogWriter
from engine.seat import now_ms
from engine.sequencer import Sequencer
from net.client import Client
from net.events import Backoff, Timeouts
from net.framing import HEADER, frame_bytes, parse_frame_body
from net.host import Host
from net.local import bot_client
from net.messages import Challenge, parse_message, sign_hello
from tests.support.poll import eventually

FAST = Timeouts(hello=2.0, idle=5.0, body=2.0, write=5.0, ping=0.2, connect=2.0)
"""Time-outs for tests: quick pings so relayed heads and liveness show up fast."""

QUICK_BACKOFF = Backoff(first=0.05, most=0.3)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def open_host(
    seats: int = 4,
    rounds: int = 1,
    save=None,
    timeouts: Timeouts = FAST,
    host_cls=Host,
    rules: dict[str, Any] | None = None,
    clock=now_ms,
    **kwargs: Any,
) -> Host:
    """A host (not yet listening) of a fresh Vampire Queen table (``rules``: more table rules;
    ``clock``: the host's, ms since the epoch; ``kwargs``: more Host options, ``auto_start=False``
    say)."""
    games = all_rules()
    sequencer = Sequencer(new_key(), games, LogWriter(save) if save else None, clock)
    options = dict(parse_options(find_game("queen").option_schema, {"rounds": rounds, **(rules or {})}))
    sequencer.open_table("queen", options, seats, "test table")
    return host_cls(sequencer, timeouts=timeouts, **kwargs)


async def start_bots(host: Host, count: int, seed: int = 0, **kwargs: Any) -> list[Client]:
    """``count`` heuristic bot clients seated in order at ``host`` (listening)."""
    bots = []
    kwargs.setdefault("timeouts", FAST)
    kwargs.setdefault("backoff", QUICK_BACKOFF)
    for i in range(count):
        bot = bot_client(("127.0.0.1", host.port), "heuristic", name=f"Bot{i}", rng=random.Random(seed + i), **kwargs)
        bots.append(bot)
        await bot.start()
        await eventually(lambda b=bot: b.seat is not None and b.seat.index is not None, 10, f"bot {i} seated")
    return bots


async def stop_all(host: Host, clients: list[Client]) -> None:
    await asyncio.gather(*(c.stop() for c in clients), return_exceptions=True)
    await host.close()


class RawPeer:
    """A TCP peer speaking frames by hand, to misbehave. The host speaks first: :meth:`challenge`
    reads its ``challenge`` (once), :meth:`signed_hello` answers it without sending."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self._challenge: Challenge | None = None

    @classmethod
    async def open(cls, port: int) -> RawPeer:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    def send(self, message: dict) -> None:
        self.writer.write(frame_bytes(message))

    def send_bytes(self, data: bytes) -> None:
        self.writer.write(data)

    async def challenge(self) -> Challenge:
        """The host's challenge on this connection (read from the stream the first time)."""
        if self._challenge is None:
            msg = await self.recv()
            assert msg is not None, "the host closed the connection before its challenge"
            challenge = parse_message(msg)
            assert isinstance(challenge, Challenge), f"the host opened with {msg}"
            self._challenge = challenge
        return self._challenge

    async def signed_hello(
        self, key, role: str = "player", table: bytes | None = None, last: int | None = None
    ) -> dict:
        """The hello map ``key`` (a private key) signs for this connection's challenge."""
        return sign_hello(key, await self.challenge(), table=table, last=last, role=role).to_map()

    async def hello(self, key, role: str = "player", table: bytes | None = None, last: int | None = None) -> dict:
        """Say a signed hello with ``key`` (a private key); the host's answer."""
        self.send(await self.signed_hello(key, role, table, last))
        return await self.recv()

    async def recv(self, timeout: float = 5.0) -> dict | None:
        """The next frame's map, or None at the end of the stream."""
        try:
            header = await asyncio.wait_for(self.reader.readexactly(HEADER), timeout)
            body = await asyncio.wait_for(self.reader.readexactly(int.from_bytes(header, "big")), timeout)
        except (asyncio.IncompleteReadError, ConnectionError):
            return None
        return parse_frame_body(body)

    async def recv_type(self, t: str, timeout: float = 5.0) -> dict:
        """Skip frames until one of type ``t``; fails at the end of the stream."""
        while True:
            msg = await self.recv(timeout)
            assert msg is not None, f"the stream ended before a {t} frame"
            if msg["t"] == t:
                return msg

    async def closed(self, timeout: float = 5.0) -> list[dict]:
        """Read until the host closes the stream; returns the frames read on the way."""
        frames = []
        while True:
            msg = await self.recv(timeout)
            if msg is None:
                return frames
            frames.append(msg)

    def close(self) -> None:
        self.writer.transport.abort()
