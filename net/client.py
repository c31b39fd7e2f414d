"""The client (PROTOCOL.md 3, 7, 8): one peer's connection to a host, and its own copy of the table.

A :class:`Client` says ``hello`` with the last seq it holds, then checks every entry it receives
by itself: the entry's bytes and signature (:meth:`Entry.from_wire`), the host's head signature
with the key of the genesis author, the chain and every rule through its own
:class:`~engine.seat.Seat` (never the host's verdict). It writes each entry to its own log file
(fsync) before acting on it. A player's client takes a seat (`join`), performs the seat's protocol
duties by itself (rand-commit, shuffle, lock, unlock, reveal, seed-reveal, complaint), submits the
moves its player or bot chooses, and re-signs **the same act** when the host answers ``stale``. It
reconnects with back-off after a dropped connection and catches up from its last seq. It compares
every head signature it sees (its own log, the welcome, rejections, the heads the host relays in
pings) and reports two different entries signed for one seq as fork evidence.

Files (PROTOCOL.md 8; :class:`Store`): the log ``*.vtlog`` and the seat's secrets file (0600).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import os
import random
import signal
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.errors import VampireError
from engine.games.base import IllegalMove
from engine.protocol.identity import public_bytes
from engine.protocol.log import Entry, ForkEvidence, Head, LogError, LogWriter, read_log, verify_head
from engine.protocol.secrets import SecretsFile
from engine.seat import Seat
from engine.table import TableRefusal
from net.events import (
    Backoff,
    Connection,
    Finished,
    Folded,
    Fork,
    HostFault,
    Listeners,
    Presence,
    Refused,
    Timeouts,
    Waiting,
)
from net.framing import Outbox, WireError, read_frame
from net.messages import (
    VERSION,
    Accepted,
    Bye,
    Entries,
    Hello,
    MessageError,
    Ping,
    Pong,
    Rejected,
    Submit,
    Welcome,
    head_from_wire,
    head_to_wire,
    parse_message,
)

log = logging.getLogger("vampire.net.client")

DEFAULT_PORT = 7447

FATAL_BYE = frozenset({"version", "wrong-table", "ahead", "replaced"})
"""``bye`` codes after which reconnecting cannot help."""


class ClientError(VampireError):
    """A client that cannot go on: a bad address, a log file of another table."""


class HostRefused(VampireError):
    """The host refused an entry this seat found legal (PROTOCOL.md 3). ``code``: the host's code."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"The host refused it ({code}): {detail}")
        self.code = code
        self.detail = detail


class _Stop(VampireError):
    """Stop for good: reconnecting cannot help."""


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``HOST[:PORT]`` (or ``[v6]:PORT``) as (host, port). Raises ClientError."""
    text = text.strip()
    host, port = text, default_port
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise ClientError(f"{text!r} is not an address: a [ has no ].")
        host, rest = text[1:end], text[end + 1 :]
        if rest:
            if not rest.startswith(":"):
                raise ClientError(f"{text!r} is not HOST:PORT.")
            port = rest[1:]
    elif text.count(":") == 1:
        host, port = text.split(":")
    if not host:
        raise ClientError("The address names no host.")
    try:
        port = int(port)
    except ValueError:
        raise ClientError(f"The port in {text!r} is not a number.") from None
    if not 0 < port < 65536:
        raise ClientError(f"The port {port} is not between 1 and 65535.")
    return host, port


def data_dir() -> Path:
    """The user's data directory for vampire-table (platformdirs)."""
    return Path(platformdirs.user_data_dir("vampire-table", appauthor=False))


@dataclass(frozen=True)
class Store:
    """Where a client keeps its log and its seat's secrets (PROTOCOL.md 8).

    - ``Store.memory()``: nowhere (in-process bots of a local game, tests);
    - ``Store.in_dir(d)``: ``d/table.vtlog`` and ``d/seat.secrets``, one directory per table
      and seat, known before connecting (a restarted client resumes from them);
    - ``Store.per_table(base)``: ``base/tables/<table id, 16 hex>/<key, 16 hex>.vtlog`` and
      ``….secrets`` (``…-spectator.vtlog`` for a spectator), chosen once the host names the table.
    """

    directory: Path | None = None
    per_table_base: Path | None = None

    @classmethod
    def memory(cls) -> Store:
        """Keep nothing on disk."""
        return cls()

    @classmethod
    def in_dir(cls, directory: Path) -> Store:
        """``directory/table.vtlog`` and ``directory/seat.secrets``."""
        return cls(directory=Path(directory))

    @classmethod
    def per_table(cls, base: Path | None = None) -> Store:
        """One log and secrets file per table under ``base`` (default: the user's data dir)."""
        return cls(per_table_base=Path(base) if base is not None else data_dir())

    def paths(self, table: bytes | None, key: bytes, role: str) -> tuple[Path | None, Path | None]:
        """(log path, secrets path) for ``table`` (None while unknown: only a fixed directory
        answers), ``key`` (the client's public key) and ``role``."""
        if self.directory is not None:
            return self.directory / "table.vtlog", (self.directory / "seat.secrets" if role == "player" else None)
        if self.per_table_base is not None and table is not None:
            d = self.per_table_base / "tables" / table.hex()[:16]
            if role == "spectator":
                return d / f"{key.hex()[:16]}-spectator.vtlog", None
            return d / f"{key.hex()[:16]}.vtlog", d / f"{key.hex()[:16]}.secrets"
        return None, None


@dataclass(eq=False)
class Intent:
    """Something the player asked for: a ``move`` (``value``: the act), a ``chat`` (the text), an
    ``abandon`` vote (the seat) or a ``leave`` (None). ``ids``: every entry signed for it
    (re-signed on ``stale``)."""

    kind: str
    value: Any
    future: asyncio.Future | None
    ids: set[bytes] = field(default_factory=set)


@dataclass(eq=False)
class _Inflight:
    n: int
    entry: Entry
    intent: Intent | None


class Client:
    """One peer of a table: player (``role="player"``) or spectator.

    ``address``: (host, port); ``key``: the identity's Ed25519 private key; ``name``: the name its
    `join` gives; ``games``: game modules by name (default: every game); ``store``: see
    :class:`Store`; ``bot``: an object with ``choose(view, legal)`` that plays this seat's moves
    (None: moves come from :meth:`submit`); ``stall_after``: seconds without progress after which
    the seats the table waits on are reported (:class:`~net.events.Waiting`); ``abandon_after``:
    seconds after which this seat votes ``abandon`` for them by itself (None: never);
    ``stop_when_over``: leave once the table has ended; ``crash_before_submit``: a test hook, an
    entry kind — the process kills itself (SIGKILL) when it has computed such a duty (its seed on
    disk) and before it sends it; ``trace(event, entry)``: a benchmark hook called with "send"
    when a submit goes out and "fold" when an entry has been folded.

    Events go to :attr:`listeners`; :attr:`finished` is set when the table is over for this peer
    or the client stopped for good (:attr:`failure` then says why).
    """

    def __init__(
        self,
        address: tuple[str, int],
        key: Ed25519PrivateKey,
        *,
        name: str,
        role: str = "player",
        games: dict[str, Any] | None = None,
        store: Store = Store(),
        bot: Any = None,
        timeouts: Timeouts = Timeouts(),
        backoff: Backoff = Backoff(),
        stall_after: float = 30.0,
        abandon_after: float | None = None,
        stop_when_over: bool = True,
        random_bytes: Callable[[int], bytes] = os.urandom,
        crash_before_submit: str | None = None,
        trace: Callable[[str, Entry], None] | None = None,
        deck: Any = None,
        may_sit: Callable[[str], str | None] | None = None,
    ) -> None:
        self.may_sit = may_sit
        if role not in ("player", "spectator"):
            raise ClientError(f"A peer is a player or a spectator, not a {role}.")
        if games is None:
            from engine.games import all_rules

            games = all_rules()
        self.address = address
        self.key = key
        self.public = public_bytes(key)
        self.name = name
        self.role = role
        self.games = games
        self.store = store
        self.bot = bot
        self.deck = deck  # a VTES Deck this seat brings (a bot factory may bring its own)
        self.timeouts = timeouts
        self.backoff = backoff
        self.stall_after = stall_after
        self.abandon_after = abandon_after
        self.stop_when_over = stop_when_over
        self.random_bytes = random_bytes
        self.crash_before_submit = crash_before_submit
        self.trace = trace
        self.listeners = Listeners()
        self.finished = asyncio.Event()
        self.state = "idle"
        self.failure: str | None = None
        self.fork: ForkEvidence | None = None
        self.seat: Seat | None = None
        self.heads: list[bytes | None] = []
        self.host_key: bytes | None = None
        self.log_path: Path | None = None
        self.presence: tuple[bytes, ...] = ()
        self._log: LogWriter | None = None
        self._table_id: bytes | None = None
        self._outbox: Outbox | None = None
        self._caught_up = False
        self._target = -1
        self._inflight: _Inflight | None = None
        self._intents: collections.deque[Intent] = collections.deque()
        self._n = 0
        self._stale_until = -1
        self._refused: tuple[str, int] | None = None
        self._join_refused = False
        self._claims: dict[int, Head] = {}
        self._progress = 0
        self._moves = 0
        self._owed_key: Any = None
        self._owed_since = 0.0
        self._stalled: tuple[int, ...] = ()
        self._stopping = False
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task] = []
        self._rng = random.Random()
        self._welcome_host: bytes | None = None
        self.left = False
        """This seat's own `leave` has been folded: it holds no seat and will not join again."""
        self.resigned = 0
        """How many times an entry of this seat was signed again after a ``stale`` answer."""

    # -- reading --------------------------------------------------------------------------------

    @property
    def table(self):
        """This peer's own :class:`~engine.table.Table` (None before the host named the table)."""
        return self.seat.table if self.seat is not None else None

    @property
    def connected(self) -> bool:
        """Welcomed and caught up with the host's head."""
        return self._outbox is not None and self._caught_up

    def head(self) -> Head | None:
        """This peer's latest head (the host's signature on its last entry), or None."""
        t = self.table
        if t is None or not t.entries or self.heads[-1] is None:
            return None
        return Head(t.table_id, t.seq - 1, t.head, self.heads[-1])

    # -- lifecycle ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the local log if its place is known, and start connecting (in the background).
        Raises ClientError or LogError for a local log that cannot be used."""
        log_path, _ = self.store.paths(None, self.public, self.role)
        if log_path is not None and log_path.exists() and log_path.stat().st_size > 0:
            loaded = read_log(log_path)
            if loaded.entries:
                self._open(loaded.entries[0].id)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._run()), loop.create_task(self._watch())]

    async def stop(self, reason: str = "The player left.") -> None:
        """Say bye, close the connection and the files; :attr:`finished` is set."""
        self._stopping = True
        self._wake.set()
        if self._outbox is not None:
            await self._outbox.close(Bye("done", reason).to_map())
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._close_files()
        for intent in self._intents:
            if intent.future is not None and not intent.future.done():
                intent.future.set_exception(ClientError("The client stopped before the host took it."))
        self._intents.clear()
        if self.state != "stopped":
            self._set_state("stopped", reason)
        self.finished.set()

    def drop(self) -> None:
        """Drop the current connection at once (the client reconnects and catches up)."""
        if self._outbox is not None:
            self._outbox.abort()

    def _close_files(self) -> None:
        if self._log is not None:
            self._log.close()

    def _set_state(self, state: str, detail: str = "", retry: float | None = None) -> None:
        self.state = state
        self.listeners.emit(Connection(state, detail, retry))

    # -- submitting -----------------------------------------------------------------------------

    def submit(self, kind: str, value: Any) -> asyncio.Future:
        """Ask for a ``move`` (value: the act), ``chat`` (the text), ``abandon`` (the seat) or
        ``leave`` (None; see :meth:`leave`).

        Returns a future resolved with the entry once this peer has folded it, or failed with
        IllegalMove (its own table refuses it), HostRefused, or ClientError. A ``stale`` answer is
        handled here: the same act is signed again on the new head (PROTOCOL.md 3).
        """
        if kind not in ("move", "chat", "abandon", "leave"):
            raise ValueError(f"cannot submit a {kind}")
        future = asyncio.get_running_loop().create_future()
        self._intents.append(Intent(kind, value, future))
        self._pump()
        return future

    async def leave(self, reason: str = "The player left the table.") -> Entry:
        """Give up this seat before the game starts (PROTOCOL.md 4, `leave`), then stop.

        The seat's own table is asked first (:meth:`engine.table.Table.check`): after the start it
        refuses, and so does this method, with the table's sentence (ClientError) and nothing sent.
        Once this peer has folded its `leave` (the seats after it move down one), it sends nothing
        more and stops (``reason`` goes in its ``bye``). Returns the `leave` entry. Raises
        ClientError (no seat, or the table refuses), HostRefused."""
        seat = self.seat
        if self.role != "player" or seat is None or seat.index is None:
            raise ClientError("This peer holds no seat to leave.")
        self._leave_refusal()
        entry = await self.submit("leave", None)
        await self.stop(reason)
        return entry

    def _leave_refusal(self) -> None:
        """Raise ClientError with the table's sentence when it would refuse this seat's `leave` now."""
        try:
            self.seat.table.check(self.seat.sign("leave", {}))
        except TableRefusal as err:
            raise ClientError(f"You cannot leave this seat: {err.detail}.") from None

    def _intent_body(self, intent: Intent) -> dict:
        seat = self.seat
        t = seat.table
        me = seat.index
        if intent.kind == "chat":
            return {"text": intent.value}
        if me is None:
            raise ClientError("This peer holds no seat.")
        if intent.kind == "leave":
            self._leave_refusal()
            return {}
        if intent.kind == "abandon":
            if intent.value not in t.waiting_on() or intent.value == me:
                raise ClientError(f"Seat {intent.value} does not owe the table anything now.")
            return {"seat": intent.value}
        if (me, "move") not in t.owed():
            raise IllegalMove("it is not your turn")
        stored = seat.secrets.get("intent", self._moves)
        if stored is not None and stored != intent.value:
            raise ClientError("This seat already sent another move for this turn; it sends that one again.")
        seat.check_move(intent.value)
        return seat.move_body(intent.value)

    def _fail_intent(self, intent: Intent, err: Exception) -> None:
        if intent in self._intents:
            self._intents.remove(intent)
        if intent.future is not None and not intent.future.done():
            intent.future.set_exception(err)

    def _pump(self) -> None:
        """Send the next entry this seat owes or was asked for, if nothing is in flight."""
        if (
            self._outbox is None
            or not self._caught_up
            or self._inflight is not None
            or self._stopping
            or self.finished.is_set()
            or self.role != "player"
            or self.fork is not None
        ):
            return
        seat = self.seat
        t = seat.table
        if t.seq <= self._stale_until:
            return  # the entries that made us stale are still on their way
        if seat.index is None:
            if self._join_refused:
                return
            if t.phase == "lobby":
                refusal = self.may_sit(t.game_name) if self.bot is None and self.may_sit else None
                if refusal:
                    # The front end cannot play this game by hand: a person would take a seat and stall the table.
                    self._join_refused = True
                    self.listeners.emit(Refused("join", "illegal", refusal))
                    return
                from engine.games import find_game

                spec = find_game(t.game_name)
                if spec.kit is not None and not seat.leaves:
                    deck = self.deck
                    if deck is None and self.bot is not None and not hasattr(self.bot, "choose"):
                        self.bot = self.bot(t.game_name)  # a bot picks what it brings
                        deck = getattr(self.bot, "deck", None)
                    if deck is None:
                        self._join_refused = True
                        noun = spec.kit().noun
                        self.listeners.emit(
                            Refused("join", "illegal", f"A {spec.title} table needs a {noun}: join with --deck FILE.")
                        )
                        return
                    seat.bring_decks(spec.kit().deck_lists(deck))
                self._send("join", seat.join_body(), None)
            elif t.phase != "new":
                self._join_refused = True
                self.listeners.emit(
                    Refused("join", "illegal", "The game has started without this seat: every seat is taken.")
                )
            return
        duty = seat.duty()
        if duty is not None and (duty[0], t.seq) != self._refused:
            if self.crash_before_submit == duty[0]:
                log.warning("test hook: killing this process before it sends its %s", duty[0])
                os.kill(os.getpid(), signal.SIGKILL)
            self._send(duty[0], duty[1], None)
            return
        if (seat.index, "move") in t.owed():
            stored = seat.secrets.get("intent", self._moves)
            if stored is not None and not any(i.kind == "move" and i.value == stored for i in self._intents):
                # A move this seat sent before a restart: the same act again (PROTOCOL.md 3).
                self._intents.appendleft(Intent("move", stored, None))
        while self._intents:
            intent = self._intents[0]
            try:
                body = self._intent_body(intent)
            except VampireError as err:
                self._fail_intent(intent, err)
                continue
            self._send(intent.kind, body, intent)
            return
        if self.bot is not None and (seat.index, "move") in t.owed():
            if not hasattr(self.bot, "choose"):
                self.bot = self.bot(t.game_name)  # a factory: the game is known now
            act = self.bot.choose(seat.view(), seat.legal_acts())
            if act is not None:
                intent = Intent("move", act, None)
                self._intents.append(intent)
                try:
                    body = self._intent_body(intent)
                except VampireError as err:
                    log.error("the bot chose an act its own table refuses: %s", err)
                    self._fail_intent(intent, err)
                    return
                self._send("move", body, intent)

    def _send(self, kind: str, body: dict, intent: Intent | None) -> None:
        if kind == "move":
            # On disk before the host sees any card key it opens: after a crash this seat sends
            # the same act again, never another one (PROTOCOL.md 3).
            self.seat.secrets.put("intent", self._moves, intent.value)
            if self.crash_before_submit == "move":
                log.warning("test hook: killing this process before it sends its move")
                os.kill(os.getpid(), signal.SIGKILL)
        entry = self.seat.sign(kind, body)
        self._n += 1
        self._inflight = _Inflight(self._n, entry, intent)
        if intent is not None:
            intent.ids.add(entry.id)
        self._outbox.send(Submit(self._n, entry.wire_array()).to_map())
        if self.trace is not None:
            self.trace("send", entry)

    def _vote_stalled(self, seats: tuple[int, ...]) -> None:
        t = self.table
        me = self.seat.index
        if me is None or me in t.abandoned:
            return
        queued = {i.value for i in self._intents if i.kind == "abandon"}
        for s in seats:
            if s != me and me not in t.abandon_votes.get(s, set()) and s not in queued:
                self._intents.append(Intent("abandon", s, None))
        self._pump()

    # -- the connection -------------------------------------------------------------------------

    async def _run(self) -> None:
        delay = self.backoff.first
        while not self._stopping:
            self._welcomed = False
            try:
                await self._connect_once()
                detail = "The host closed the connection."
            except _Stop as err:
                self._give_up(str(err))
                return
            except socket.gaierror:
                # A name that does not resolve will not resolve on the next try either.
                self._give_up(f"The address {self.address[0]!r} names no computer this one can find.")
                return
            except ConnectionRefusedError:
                detail = f"Nothing answers at {self.address[0]}:{self.address[1]}: is the table open there?"
            except (WireError, MessageError, OSError, TimeoutError) as err:
                detail = str(err) or type(err).__name__
            except LogError as err:
                self._give_up(f"This peer's log file cannot be written: {err}")
                return
            except VampireError as err:
                self._give_up(str(err))
                return
            except Exception as err:
                log.exception("the client failed")
                self._give_up(f"This peer failed: {type(err).__name__}: {err}")
                return
            finally:
                if self._outbox is not None:
                    self._outbox.abort()
                self._outbox = None
                self._caught_up = False
                self._inflight = None
            if self._stopping or self.finished.is_set():
                if self.state != "stopped":
                    self._set_state("stopped", self.failure or "The table is over.")
                return
            t = self.table
            if t is not None and (t.ended or t.phase == "stopped"):
                self._set_state("stopped", "The table is over.")
                self.finished.set()
                return
            if self._welcomed:
                delay = self.backoff.first
            wait = delay * self._rng.uniform(1 - self.backoff.jitter, 1 + self.backoff.jitter)
            self._set_state("disconnected", detail, wait)
            try:
                await asyncio.wait_for(self._wake.wait(), wait)
            except TimeoutError:
                pass
            delay = min(delay * 2, self.backoff.most)

    def _give_up(self, reason: str) -> None:
        self.failure = reason
        self._stopping = True
        self._close_files()
        self._set_state("stopped", reason)
        self.finished.set()

    async def _connect_once(self) -> None:
        host, port = self.address
        self._set_state("connecting", f"Connecting to {host}:{port}.")
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port, limit=2**16), self.timeouts.connect)
        outbox = Outbox(
            writer, max_queued=self.timeouts.max_queued, write_timeout=self.timeouts.write, on_fail=lambda c, r: None
        )
        self._outbox = outbox
        t = self.table
        last = t.seq - 1 if t is not None and t.entries else None
        outbox.send(Hello(self._table_id, last, self.role, self.public).to_map())
        first = parse_message(await read_frame(reader, idle=self.timeouts.hello, body=self.timeouts.body))
        if isinstance(first, Bye):
            self._on_bye(first)
            return
        if not isinstance(first, Welcome):
            raise MessageError(f"The host answered hello with a {first.t}.")
        self._on_welcome(first)
        self._welcomed = True
        pinger = asyncio.get_running_loop().create_task(self._ping_loop(outbox))
        try:
            while True:
                msg = parse_message(await read_frame(reader, idle=self.timeouts.idle, body=self.timeouts.body))
                if isinstance(msg, Entries):
                    self._on_entries(msg)
                elif isinstance(msg, Rejected):
                    self._on_rejected(msg)
                elif isinstance(msg, Accepted):
                    self._check_claim(msg.head)
                elif isinstance(msg, Ping):  # Pong too
                    self._on_ping(msg, outbox)
                elif isinstance(msg, Bye):
                    self._on_bye(msg)
                    return
                else:
                    raise MessageError(f"A host does not send {msg.t} frames after the welcome.")
                if self.finished.is_set():
                    await outbox.close(Bye("done", "The table is over.").to_map())
                    return
        finally:
            pinger.cancel()

    def _on_bye(self, bye: Bye) -> None:
        if bye.code in FATAL_BYE:
            raise _Stop(f"The host closed the connection: {bye.reason}")
        raise WireError("closed", f"The host said bye: {bye.reason}")

    async def _ping_loop(self, outbox: Outbox) -> None:
        while True:
            await asyncio.sleep(self.timeouts.ping)
            outbox.send(Ping(head_to_wire(self.head()), []).to_map())

    def _on_ping(self, msg: Ping, outbox: Outbox) -> None:
        if not isinstance(msg, Pong):
            outbox.send(Pong(head_to_wire(self.head()), []).to_map())
        self._check_claim(msg.head)
        keys = []
        for key, head in msg.relay:
            keys.append(key)
            self._check_claim(head)
        if tuple(keys) != self.presence:
            self.presence = tuple(keys)
            self.listeners.emit(Presence(self.presence))

    # -- files ----------------------------------------------------------------------------------

    def _open(self, table_id: bytes) -> None:
        """Create the seat and open (or create) the log file for ``table_id``, folding what it holds."""
        log_path, secrets_path = self.store.paths(table_id, self.public, self.role)
        for path in (log_path, secrets_path):
            if path is not None:
                path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.seat = Seat(self.key, self.name, self.games, SecretsFile(secrets_path), self.random_bytes)
        self._table_id = table_id
        self.log_path = log_path
        if log_path is None:
            return
        if log_path.exists() and log_path.stat().st_size > 0:
            writer = LogWriter.open_existing(log_path)
        else:
            writer = LogWriter(log_path)
        loaded = writer.loaded
        if loaded.entries and loaded.entries[0].id != table_id:
            writer.close()
            raise _Stop(f"The log file {log_path} holds another table than the host's.")
        for entry, head in zip(loaded.entries, loaded.heads):
            self._fold(entry, head, write=False)
        self._log = writer

    # -- receiving ------------------------------------------------------------------------------

    def _on_welcome(self, msg: Welcome) -> None:
        if msg.v != VERSION:
            raise _Stop(f"The host speaks protocol version {msg.v}; this program speaks {VERSION}.")
        if self._table_id is not None and msg.table != self._table_id:
            raise _Stop("The host holds another table than this peer's log.")
        if self.host_key is not None and msg.host != self.host_key:
            self._fault("The host's key is not the key that opened this table.")
        if self.seat is None:
            self._open(msg.table)
        self._welcome_host = msg.host
        self._target = msg.head[0]
        self._check_claim(msg.head)
        self._check_claim(msg.mine)
        self._caught_up_check()

    def _caught_up_check(self) -> None:
        if not self._caught_up and self.table.seq > self._target:
            self._caught_up = True
            self._set_state("connected", f"Connected to {self.address[0]}:{self.address[1]}.")
            self._after_change()

    def _fault(self, detail: str) -> None:
        self.listeners.emit(HostFault(detail))
        raise _Stop(detail)

    def _on_entries(self, msg: Entries) -> None:
        t = self.table
        if self.fork is not None:
            return  # this peer no longer follows a host that signed two logs
        for i, (wire, head_sig) in enumerate(msg.items):
            seq = msg.start + i
            try:
                entry = Entry.from_wire(wire)
            except LogError as err:
                self._fault(f"The host sent an entry that does not verify: {err}")
            if entry.seq != seq:
                self._fault(f"The host sent the entry of seq {entry.seq} as seq {seq}.")
            if seq < t.seq:
                if entry.id != t.entries[seq].id:
                    self._check_claim([seq, entry.id, head_sig])
                    if self.fork is not None:
                        return
                    self._fault(f"The host sent another entry for seq {seq} than the one this peer holds.")
                continue
            if seq > t.seq:
                raise MessageError(f"The host skipped from seq {t.seq} to seq {seq}.")
            self._fold(entry, head_sig, write=True)
            if self.fork is not None:
                return
        self._caught_up_check()
        self._after_change()

    def _fold(self, entry: Entry, head_sig: bytes | None, write: bool) -> None:
        t = self.seat.table
        host = entry.author if entry.seq == 0 else self.host_key
        if entry.seq == 0:
            if self._table_id is not None and entry.id != self._table_id:
                self._fault("The host's genesis entry is not the table it named.")
            if self._welcome_host is not None and self._welcome_host != entry.author:
                self._fault("The host's key is not the key that opened this table.")
        if head_sig is not None or write:
            if not verify_head(host, entry.table_id, entry.seq, entry.id, head_sig):
                self._fault(f"The host's head signature for seq {entry.seq} does not verify.")
        claim = self._claims.pop(entry.seq, None)
        if claim is not None and claim.entry_id != entry.id and head_sig is not None:
            self._report_fork(claim, Head(entry.table_id, entry.seq, entry.id, head_sig))
            if self.fork is not None:
                return
        start = len(t.notes)
        try:
            self.seat.fold(entry)
        except TableRefusal as err:
            self._fault(f"The host sent an entry this peer's table refuses ({err.code}): {err.detail}")
        if write and self._log is not None:
            self._log.append(entry, head_sig)
        if entry.seq == 0:
            self.host_key = entry.author
        self.heads.append(head_sig)
        if entry.kind not in ("chat", "abandon"):
            self._progress += 1
        if entry.kind == "move":
            self._moves += 1
        if write and entry.kind == "leave" and entry.author == self.public:
            # This seat is gone: send nothing more (above all, no new `join`); leave() stops it.
            self.left = True
            self._stopping = True
        if self.trace is not None:
            self.trace("fold", entry)
        notes = tuple(t.notes[start:])
        names = t.names
        self.listeners.emit(Folded(entry, tuple(n.render(names) for n in notes), t.seat_of(entry.author), notes))
        self._settle(entry)

    def _settle(self, entry: Entry) -> None:
        """Resolve what waited for ``entry`` (ours in flight, or an intent signed earlier)."""
        if self._inflight is not None and self._inflight.entry.id == entry.id:
            self._inflight = None
        for intent in list(self._intents):
            if entry.id in intent.ids:
                self._intents.remove(intent)
                if intent.future is not None and not intent.future.done():
                    intent.future.set_result(entry)

    def _after_change(self) -> None:
        t = self.table
        if t is None:
            return
        if (t.ended or t.phase == "stopped") and not self.finished.is_set():
            if t.phase == "stopped" and t.fault is not None:
                summary = f"The table stopped: {t.fault.describe(t.names)}"
            else:
                result = t.game.result(t.gstate)
                summary = (
                    result.summary.format(**{f"s{i}": n for i, n in enumerate(t.names)})
                    if result
                    else "The table is over."
                )
            self.listeners.emit(Finished(summary, t.digest().hex()))
            if self.stop_when_over:
                self._stopping = True
                self.finished.set()
            return
        self._check_waiting()
        self._pump()

    def _on_rejected(self, msg: Rejected) -> None:
        self._check_claim(msg.head)
        inflight = self._inflight
        if inflight is None or inflight.n != msg.n:
            return
        self._inflight = None
        kind = inflight.entry.kind
        if msg.code == "stale":
            self._stale_until = msg.head[0] if msg.head else -1
            self.resigned += 1
        else:
            self.listeners.emit(Refused(kind, msg.code, msg.detail))
            log.warning("the host refused this seat's %s: %s (%s)", kind, msg.detail, msg.code)
            if inflight.intent is not None:
                self._fail_intent(inflight.intent, HostRefused(msg.code, msg.detail))
            elif kind == "join":
                self._join_refused = True
            else:
                self._refused = (kind, self.table.seq)
        self._pump()

    # -- fork evidence (PROTOCOL.md 3) ------------------------------------------------------------

    def _check_claim(self, value: list | None) -> None:
        t = self.table
        if value is None or t is None or not t.entries or self.host_key is None:
            return
        head = head_from_wire(value, t.table_id)
        if not head.verify(self.host_key):
            return
        if head.seq < t.seq:
            mine = t.entries[head.seq]
            if mine.id != head.entry_id and self.heads[head.seq] is not None:
                self._report_fork(Head(t.table_id, head.seq, mine.id, self.heads[head.seq]), head)
        elif len(self._claims) < 256:
            self._claims.setdefault(head.seq, head)

    def _report_fork(self, mine: Head, other: Head) -> None:
        if self.fork is not None:
            return
        evidence = ForkEvidence(self.host_key, mine, other)
        if not evidence.check():
            return
        self.fork = evidence
        self.listeners.emit(Fork(evidence))
        # Stay connected for a few pings, acting no more, so that the head this peer holds is
        # relayed to the others and they hold the proof too; then stop.
        linger = max(3 * self.timeouts.ping, 0.5)
        asyncio.get_running_loop().call_later(linger, self._end_after_fork)

    def _end_after_fork(self) -> None:
        if self.finished.is_set():
            return
        self._give_up(self.fork.describe())
        self._wake.set()
        if self._outbox is not None:
            self._outbox.abort()

    # -- liveness (PROTOCOL.md 6, "When a seat stalls") -----------------------------------------

    async def _watch(self) -> None:
        tick = max(0.05, min(1.0, self.stall_after / 4))
        while not self.finished.is_set():
            await asyncio.sleep(tick)
            if self.table is not None and self._caught_up:
                try:
                    self._check_waiting()
                except _Stop:
                    pass

    def _check_waiting(self) -> None:
        t = self.table
        loop = asyncio.get_running_loop()
        now = loop.time()
        owed = tuple(t.owed()) if t.phase == "running" else ()
        key = (self._progress, owed)
        if key != self._owed_key:
            self._owed_key = key
            self._owed_since = now
            if self._stalled:
                self._stalled = ()
                self.listeners.emit(Waiting((), (), 0.0))
            return
        waited = now - self._owed_since
        seats = tuple(sorted({s for s, _ in owed}))
        if not seats or waited < self.stall_after:
            return
        if seats != self._stalled:
            self._stalled = seats
            self.listeners.emit(Waiting(seats, tuple(t.names[s] for s in seats), waited))
        if self.abandon_after is not None and waited >= self.abandon_after and self.connected:
            self._vote_stalled(seats)
