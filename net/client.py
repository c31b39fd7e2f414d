"""The client (PROTOCOL.md 3, 7, 8): one peer of a table, composed of three parts.

- the connection to the host (:class:`~net.link.HostLink`: transport, hello, reconnect, back-off);
- the replica, this peer's own copy of the table (:class:`~net.replica.Replica`: verify every
  entry and head signature, store it in its log file with fsync, fold it into the seat's table,
  fork evidence);
- the seat driver (:class:`~net.driver.SeatDriver`: protocol duties, intents re-signed on
  ``stale``, bots, stall votes).

A :class:`Client` wires them together for callers: it says ``hello`` with the last seq its replica
holds, hands what the host sends to the replica and the driver, and stops for good when the table
is over (if asked to), when it is stopped, or when reconnecting cannot help.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import msgpack
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.forks import describe_fork
from engine.games import find_game
from engine.games.spec import Bot
from engine.protocol.log import Entry, ForkEvidence, Head
from engine.seat import Seat
from engine.table import Table
from engine.table.events import UnverifiedProof
from net.driver import BotFactory, Hooks, IntentKind, Liveness, MaySit, SeatDriver, Seating
from net.errors import ClientError, HostRefused
from net.events import Backoff, Finished, LinkState, Listeners, Silent, Timeouts
from net.lan import multicast_interface, multicast_off
from net.link import Dialer, HostLink, parse_address
from net.messages import (
    DEFAULT_PORT,
    Accepted,
    Challenge,
    Entries,
    Hello,
    Role,
    Submit,
    SubmitRejected,
    Welcome,
    WireHead,
    head_from_wire,
    sign_hello,
)
from net.replica import Replica
from net.seen import SeenMulticast, SeenReport, SilenceWatch, sign_seen
from net.store import Store

log = logging.getLogger("vampire.net.client")

SILENT_AFTER = 30.0
"""Seconds a seated player's signed seen report may stay behind this peer's head before the
player is named silent (:class:`~net.events.Silent`)."""

__all__ = [
    "DEFAULT_PORT",
    "Backoff",
    "Client",
    "ClientError",
    "Hooks",
    "HostRefused",
    "Liveness",
    "MaySit",
    "Seating",
    "Store",
    "Timeouts",
    "parse_address",
]


class Client:
    """One peer of a table: a player (``role="player"``) or a spectator.

    ``address``: the host's (host, port); ``key``: the identity's Ed25519 private key; ``name``:
    the name its `join` gives; ``store``: where its files are (:class:`~net.store.Store`);
    ``seating``: who plays the seat and what it brings (:class:`~net.driver.Seating`);
    ``timeouts``/``backoff``: the connection's (:mod:`net.events`); ``liveness``: stall reports
    and votes (:class:`~net.driver.Liveness`); ``stop_when_over``: leave once the table has ended
    (a front end may change it before the end); ``games``: every game's rules by name (default:
    the registry's); ``random_bytes(n)``: the seat's random source; ``hooks``: injected callbacks
    (:class:`~net.driver.Hooks`); ``lan``: also send and hear seen reports directly on the LAN
    (multicast, :class:`~net.seen.SeenMulticast`; never when ``VAMPIRE_NO_DISCOVERY`` is set);
    ``silent_after``: seconds a seated player's signed seen report may stay behind this peer's
    head before it is named silent (:class:`~net.events.Silent`); ``pin``: the host key and table
    id (or None) a LAN announcement named, checked against the challenge (PROTOCOL.md 9);
    ``dialer``: how to reach the host when not by TCP to ``address`` (:class:`~net.link.Dialer`).

    Events go to :attr:`listeners` (:data:`net.events.Event`); :attr:`finished` is set when the
    table is over for this peer or the client stopped for good (:attr:`failure` then says why).
    Raises ClientError for a role that is neither.
    """

    def __init__(
        self,
        address: tuple[str, int],
        key: Ed25519PrivateKey,
        *,
        name: str,
        role: Role = "player",
        store: Store = Store(),
        seating: Seating = Seating(),
        timeouts: Timeouts = Timeouts(),
        backoff: Backoff = Backoff(),
        liveness: Liveness = Liveness(),
        stop_when_over: bool = True,
        games: Mapping[str, Any] | None = None,
        random_bytes: Callable[[int], bytes] = os.urandom,
        hooks: Hooks = Hooks(),
        lan: bool = False,
        silent_after: float = SILENT_AFTER,
        pin: tuple[bytes, bytes | None] | None = None,
        dialer: Dialer | None = None,
    ) -> None:
        if role not in ("player", "spectator"):
            raise ClientError(f"A peer is a player or a spectator, not a {role}.")
        if games is None:
            from engine.games import all_rules

            games = all_rules()
        self.key = key
        self.name = name
        self.role = role
        self.stop_when_over = stop_when_over
        self.listeners = Listeners()
        self.finished = asyncio.Event()
        self.failure: str | None = None
        self.stopping = False
        self.replica = Replica(
            key,
            name,
            role,
            games,
            store,
            self.listeners,
            random_bytes=random_bytes,
            on_fold=self._folded,
            on_fork=self._after_fork,
            trace=hooks.trace,
            clock=liveness.clock,
        )
        self.link = HostLink(address, self, self.listeners, timeouts=timeouts, backoff=backoff, dialer=dialer)
        self.driver = SeatDriver(self.replica, self, self.listeners, seating=seating, liveness=liveness, hooks=hooks)
        self._tasks: list[asyncio.Task[None]] = []
        self._checks: set[asyncio.Task[None]] = set()
        self._verifying: UnverifiedProof | None = None
        self._loaded: str | None = None  # the game loaded off the loop (Client._load_game)
        if pin is not None:
            self.replica.pin(*pin)
        self.lan = lan
        self.multicast: SeenMulticast | None = None
        """The direct seen reports on the LAN, while they run (see ``lan``)."""
        self.silence = SilenceWatch(silent_after)
        self._silent: tuple[int, ...] = ()
        self._seen_sig: tuple[Head, bytes] | None = None
        self._fork_turn = False
        self._ahead_before: tuple[int, bytes] | None = None

    # -- reading --------------------------------------------------------------------------------

    @property
    def public(self) -> bytes:
        """This peer's 32-byte public key."""
        return self.replica.public

    @property
    def address(self) -> tuple[str, int]:
        """The host's (host, port); set it to reconnect elsewhere on the next attempt."""
        return self.link.address

    @address.setter
    def address(self, value: tuple[str, int]) -> None:
        self.link.address = value

    @property
    def seat(self) -> Seat | None:
        """This peer's seat (None before the host named the table); a spectator's has no index."""
        return self.replica.seat

    @property
    def table(self) -> Table | None:
        """This peer's own :class:`~engine.table.Table` (None before the host named the table)."""
        return self.replica.table

    @property
    def state(self) -> LinkState:
        """The connection's state."""
        return self.link.state

    @property
    def presence(self) -> tuple[bytes, ...]:
        """Public keys of the players the host says are connected."""
        return self.link.presence

    @property
    def fork(self) -> ForkEvidence | None:
        """Proof that the host signed two entries for one seq, once found."""
        return self.replica.fork

    @property
    def log_path(self) -> Path | None:
        """Where this peer's copy of the log is kept (None: memory only, or not yet known)."""
        return self.replica.log_path

    @property
    def left(self) -> bool:
        """This seat's own `leave` has been folded: it holds no seat and will not join again."""
        return self.driver.left

    @property
    def resigned(self) -> int:
        """How many times an entry of this seat was signed again after a ``stale`` answer."""
        return self.driver.resigned

    @property
    def bot(self) -> Bot | BotFactory | None:
        """What plays this seat's moves (None: a person, through :meth:`submit`)."""
        return self.driver.bot if self.driver.bot is not None else self.driver.bot_factory

    @bot.setter
    def bot(self, value: Bot | BotFactory | None) -> None:
        self.driver.set_bot(value)

    @property
    def connected(self) -> bool:
        """Welcomed and caught up with the host's head."""
        return self.link.outbox is not None and self.replica.caught_up

    def head(self) -> Head | None:
        """The head this peer reports (in its pings and direct reports): its latest (the host's
        signature on its last entry), or None. Once it holds fork evidence, the head of the fork's
        seq on its own branch (the evidence's two heads in turn when it holds neither), so that a
        peer the host deceived, which may hear only heads ahead of its own, gets the one that
        conflicts with its own (docs/protocol.md 7.4, "Forks")."""
        fork = self.fork
        if fork is not None:
            own = self.head_at(fork.first.seq, signed=False)
            if own is not None:
                return own.head
            self._fork_turn = not self._fork_turn
            return fork.first if self._fork_turn else fork.second
        return self.replica.head()

    def head_at(self, seq: int, signed: bool = True) -> SeenReport | None:
        """This peer's signed report of the head it holds at ``seq`` (None: it holds no signed head
        there), for a peer that asks the group (:meth:`~net.seen.SeenMulticast.answer`);
        ``signed=False``: without its seen signature (``fsig`` None)."""
        t = self.table
        if t is None or not 0 <= seq < t.seq or seq >= len(self.replica.heads):
            return None
        signature = self.replica.heads[seq]
        if signature is None:
            return None
        head = Head(t.table_id, seq, t.entries[seq].id, signature)
        return SeenReport(self.public, head, sign_seen(self.key, head) if signed else None)

    def wanted(self) -> int | None:
        """The seq to ask the group about (:meth:`~net.seen.SeenMulticast.ask`): this peer's last,
        when it has held a head ahead of its log for a whole tick without the entry coming (a
        host that stopped sending it entries: it may hold another branch); else None."""
        ahead = self.replica.ahead()
        stuck = ahead is not None and ahead == self._ahead_before
        self._ahead_before = ahead
        last = self.replica.last_seq()
        return last if stuck and self.fork is None else None

    # -- lifecycle ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the local log if its place is known, and start connecting (in the background).
        Raises ClientError or LogError for a local log that cannot be used."""
        self.replica.load()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self.link.run()), loop.create_task(self.driver.watch(self.finished))]
        if self.lan and not multicast_off():
            multicast = SeenMulticast(
                lambda: self.replica.table_id,
                self._own_report,
                self.heard_on_lan,
                interface=multicast_interface(self.address[0]),  # the LAN the host is on, routes or not
                answer=self.head_at,
                wanted=self.wanted,
            )
            try:
                await multicast.start()
                self.multicast = multicast
            except OSError as err:
                # Best effort (PROTOCOL.md 7): the reports relayed by the host still run.
                log.info("direct seen reports are off: %s", err)

    async def stop(self, reason: str = "The player left.") -> None:
        """Say bye, close the connection and the files; :attr:`finished` is set."""
        self.stopping = True
        self.link.wake.set()
        await self.link.close(reason)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.multicast is not None:
            await self.multicast.close()
            self.multicast = None
        self.replica.close()
        self.driver.fail_all(ClientError("The client stopped before the host took it."))
        if self.link.state != LinkState.STOPPED:
            self.link.set_state(LinkState.STOPPED, reason)
        self.finished.set()

    def drop(self) -> None:
        """Drop the current connection at once (the client reconnects and catches up)."""
        self.link.drop()

    def give_up(self, reason: str) -> None:
        """Stop for good with ``reason`` (a sentence, kept in :attr:`failure`)."""
        self.failure = reason
        self.stopping = True
        if self.multicast is not None:
            asyncio.get_running_loop().create_task(self.multicast.close())
            self.multicast = None
        self.replica.close()
        self.link.set_state(LinkState.STOPPED, reason)
        self.finished.set()

    # -- acting ---------------------------------------------------------------------------------

    def submit(self, kind: IntentKind, value: Any) -> asyncio.Future[Entry]:
        """Ask for a ``move`` (value: the act), ``chat`` (the text), ``abandon`` (the seat) or
        ``leave`` (None; see :meth:`leave`).

        Returns a future resolved with the entry once this peer has folded it, or failed with
        IllegalMove (its own table refuses it), HostRefused, or ClientError. A ``stale`` answer is
        handled here: the same act is signed again on the new head (PROTOCOL.md 3).
        """
        return self.driver.submit(kind, value)

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
        self.driver.check_leave()
        entry = await self.submit("leave", None)
        await self.stop(reason)
        return entry

    # -- what the link asks (net.link.LinkPeer) and the driver's channel --------------------------

    def hello(self, challenge: Challenge) -> Hello:
        """The ``hello`` answering ``challenge``: the table and the last seq this peer holds,
        signed with this peer's key over the challenge (PROTOCOL.md 7). Raises GiveUp when the
        challenge names another table or host key than this peer's genesis."""
        self.replica.check_challenge(challenge)
        table = self.replica.table_id
        return sign_hello(self.key, challenge, table=table, last=self.replica.last_seq(), role=self.role)

    def welcomed(self, msg: Welcome) -> None:
        """Check the host's welcome (GiveUp when it cannot be followed), then catch up."""
        self.replica.welcome(msg)
        self._caught_up_check()

    async def received(self, msg: Entries | SubmitRejected | Accepted) -> None:
        """Hand a message of the host to the replica (entries, heads) or the driver (answers).

        A run of entries is folded one entry at a time, the loop running between any two (a
        128 KiB frame of a catch-up holds seconds of folding under load: this peer's pings and
        screen go on meanwhile, and a host with quick pings does not drop it as silent), and up
        to each `shuffle` whose proof is left to verify when more entries follow it: that proof
        is verified in a worker thread before the rest is folded (the table would otherwise
        settle it on the loop, before the next entry; docs/protocol.md 6.9, 7.1). An entry of
        more than :data:`HEAVY_PAYLOAD` bytes (a deck, a move that carries proofs; a shuffle's
        signature), and a `seed-reveal` (an event's last seed recomputes it), is checked in a
        worker thread first, as the host does, and folded after, in order."""
        if isinstance(msg, Entries):
            if msg.items and self.table is not None and self._loaded is None:
                await self._load_game(msg.items[0][0] if not self.table.entries else None)
            taken = 0
            while taken < len(msg.items):
                await asyncio.sleep(0)  # the loop runs between any two entries, across frames too
                pending = None if self.table is None else self.table.unverified
                if pending is not None and not pending.done:
                    self._verify_later()  # settles it and acts on it, as after any shuffle
                    # Verified here in a worker thread, waiting on nothing else (the answer is
                    # kept: the task above and the table's settle find it).
                    await asyncio.get_running_loop().run_in_executor(None, pending.verify)
                if self.table is not None and _heavy(msg.items[taken]):
                    # Its checks first, in a worker thread: their answers land in the
                    # per-process memos, where the fold on the loop finds them.
                    await asyncio.to_thread(_precheck, self.table, msg.items[taken][0])
                taken += self.replica.receive(Entries(msg.start + taken, msg.items[taken:]), pause=True, most=1)
                if self.fork is not None or self.finished.is_set():
                    return
            self._verify_later()
            self._caught_up_check()
            self._after_change()
        elif isinstance(msg, SubmitRejected):
            self.replica.check_claim(msg.head)
            self.driver.rejected(msg)
        else:
            self.replica.check_claim(msg.head)

    async def _load_game(self, genesis: Any) -> None:
        """Load the game this peer's table plays (the genesis entry ``genesis`` names it, as the
        wire carries it, for a peer coming from nothing; else the table's) in a worker thread,
        once: its rules (importing a game's package takes most of a second, several under load)
        and what they read lazily and at length (the game's ``load``: a card database, about 3 s
        quiet, 30 s under a heavy load, that the first view of a seat would read), which on the
        loop would stop this peer's pings; its folds and views then find them loaded. Anything
        wrong with the entry is left for the fold to say."""
        try:
            name = self.table.game_name if self.table is not None and self.table.entries else None
            if genesis is not None:
                entry = Entry.from_wire(genesis)
                name = entry.body.get("game") if entry.kind == "table" else None
            if not isinstance(name, str) or name not in self.replica.games:
                return
            self._loaded = name
            await asyncio.to_thread(_load_game, self.replica.games, name)
        except Exception:
            return

    def heard(self, head: WireHead | None) -> None:
        """Compare a head the host signed with this peer's log (fork evidence)."""
        self.replica.check_claim(head)

    def seen_signature(self, head: Head) -> bytes:
        """This peer's seen signature over ``head`` (signed once per head)."""
        if self._seen_sig is None or self._seen_sig[0] != head:
            self._seen_sig = (head, sign_seen(self.key, head))
        return self._seen_sig[1]

    def _own_report(self) -> SeenReport | None:
        head = self.head()
        return None if head is None else SeenReport(self.public, head, self.seen_signature(head))

    def relayed(self, reports: list[tuple[bytes, WireHead | None, bytes | None]]) -> None:
        """Take the seen reports the host relayed (PROTOCOL.md 7): each signed one advances its
        player; then name the players whose reports stopped advancing."""
        t = self.table
        if t is not None and t.entries:
            for key, head, fsig in reports:
                if head is not None:
                    self._credit(SeenReport(key, head_from_wire(head, t.table_id), fsig))
        self._check_silence()

    def heard_on_lan(self, report: SeenReport) -> None:
        """A seen report heard directly on the LAN, about this peer's table (PROTOCOL.md 7): its
        host head is compared with this peer's log (two valid host heads for one seq with
        different ids are fork evidence, whoever sent them), and a report its sender signed
        advances that player."""
        if self.fork is not None or self.finished.is_set():
            return
        h = report.head
        self.replica.check_claim([h.seq, h.entry_id, h.signature])
        self._credit(report)
        self._check_silence()

    def _credit(self, report: SeenReport) -> None:
        if report.head.seq <= self.silence.latest.get(report.key, -1):
            return  # nothing new: two signatures spared on every ping
        host = self.replica.host_key
        if host is not None and report.head.verify(host) and report.signed_by_sender():
            self.silence.advanced(report.key, report.head.seq)

    def _check_silence(self) -> None:
        t = self.table
        if t is None or not t.entries or self.fork is not None or t.ended or t.phase == "stopped":
            return
        gone = set(t.abandoned)
        seated = [(i, s.key) for i, s in enumerate(t.seats) if s.key != self.public and i not in gone]
        silent_keys = set(self.silence.silent([k for _, k in seated], t.seq - 1))
        seats = tuple(i for i, k in seated if k in silent_keys)
        if seats == self._silent:
            return
        self._silent = seats
        self.listeners.emit(
            Silent(
                seats,
                tuple(t.names[i] for i in seats),
                tuple(self.silence.latest.get(t.seats[i].key, -1) for i in seats),
                t.seq - 1,
            )
        )

    def lost(self) -> None:
        """The connection is gone: catch up again on the next one."""
        self.replica.caught_up = False
        self.driver.lost()

    def table_over(self) -> bool:
        """The table has ended or stopped on a proven cheat."""
        t = self.table
        return t is not None and (t.ended or t.phase == "stopped")

    def may_send(self) -> bool:
        """The driver may send an entry now."""
        return (
            self.connected
            and not self.stopping
            and not self.finished.is_set()
            and self.role == "player"
            and self.fork is None
        )

    def transmit(self, msg: Submit) -> None:
        """Send ``msg`` on the open connection."""
        self.link.send(msg.to_map())

    # -- reacting -------------------------------------------------------------------------------

    def _folded(self, entry: Entry, live: bool) -> None:
        if live and self.multicast is not None:
            self.multicast.new_head()
        self.driver.folded(entry, live)
        if self.driver.left:
            self.stopping = True  # no reconnection either: leave() stops the client

    def _verify_later(self) -> None:
        """Verify the proof of a `shuffle` folded unverified in a worker thread, so that pings and
        this seat's own next shuffle go on meanwhile; then settle it on the loop and act on it
        (docs/protocol.md 6.9). The table settles it itself before it folds the next entry."""
        t = self.table
        pending = None if t is None else t.unverified
        if pending is None or self._verifying is pending:
            return
        self._verifying = pending

        seat = self.seat
        first = None if seat is None else seat.preparing()

        async def verify() -> None:
            loop = asyncio.get_running_loop()
            if first is not None:
                # This seat's own shuffle is on the chain's critical path; the proof it builds on
                # is needed only before its shares: the shuffle first, all cores to it.
                # (asyncio.wait: a shuffle that failed is made again by duty(); verify anyway.)
                await asyncio.wait([asyncio.wrap_future(first)])
            await loop.run_in_executor(None, pending.verify)
            if self._verifying is pending:
                self._verifying = None
            if self.table is t and t is not None and t.unverified is pending:
                self.replica.settle()
                self._after_change()

        task = asyncio.get_running_loop().create_task(verify())
        self._checks.add(task)
        task.add_done_callback(self._checks.discard)

    def _caught_up_check(self) -> None:
        if self.replica.catch_up():
            self.link.set_state(LinkState.CONNECTED, self.link.connected())
            self._after_change()

    def _after_change(self) -> None:
        t = self.table
        if t is None:
            return
        if (t.ended or t.phase == "stopped") and not self.finished.is_set():
            if t.phase == "stopped" and t.fault is not None:
                summary = f"The table stopped: {t.fault.describe(t.names)}"
            else:
                result = t.result()
                summary = (
                    result.summary.format(**{f"s{i}": n for i, n in enumerate(t.names)})
                    if result
                    else "The table is over."
                )
            self.listeners.emit(Finished(summary, t.digest().hex()))
            if self.stop_when_over:
                self.stopping = True
                self.finished.set()
            return
        self.driver.check_waiting()
        self.driver.pump()

    def _after_fork(self) -> None:
        # Stay connected for a few pings, acting no more, so that the head this peer holds is
        # relayed to the others and they hold the proof too; then stop.
        linger = max(3 * self.link.timeouts.ping, 0.5)
        asyncio.get_running_loop().call_later(linger, self._end_after_fork)

    def _end_after_fork(self) -> None:
        if self.finished.is_set() or self.fork is None:
            return
        where = self.replica.fork_path
        kept = f" The evidence is in {where}." if where is not None else ""
        self.give_up(describe_fork(self.fork) + kept)
        self.link.wake.set()
        self.link.drop()


def _load_game(games: Mapping[str, Any], name: str) -> None:
    """Load game ``name``'s rules (``games[name]``) and what they read lazily (its spec's
    ``load``); for a worker thread. Raises what loading raises."""
    games[name]
    load = find_game(name).load
    if load is not None:
        load()


HEAVY_PAYLOAD = 2048
"""Bytes of an entry's payload past which a peer checks it in a worker thread before folding it:
the entries that carry points and proofs (a deck's hundreds of points, a move's proofs); a small
entry costs less to fold than a trip to a thread."""


def _heavy(item: Any) -> bool:
    """An item of an ``entries`` run (``[[payload, signature], head]``) whose payload is large, or
    a `seed-reveal` (the last seed of an event recomputes it: a thousand multiplications)."""
    try:
        payload = item[0][0]
        if len(payload) > HEAVY_PAYLOAD:
            return True
        fields = msgpack.unpackb(payload)
        return isinstance(fields, dict) and fields.get("kind") == "seed-reveal"
    except Exception:
        return False  # the fold says what is wrong with it


def _precheck(table: Table, wire: Any) -> None:
    """Check the entry ``wire`` (``[payload, signature]``) as ``table`` would fold it, changing
    nothing (:meth:`Table.precheck`): its signature and proofs are verified and kept in the
    per-process memos. For a worker thread while the loop waits; the fold checks everything
    again, so any failure here is left for it to say. A `shuffle` is only parsed: a seat that
    builds nothing on it leaves its points to its proof's checked multiplications (docs/protocol.md
    6.10), which a check here would repeat."""
    try:
        entry = Entry.from_wire(wire)
        if entry.kind != "shuffle":  # its points are left to its proof, verified in a thread too
            table.precheck(entry)
    except Exception:
        return
