"""A client's own copy of the table (PROTOCOL.md 3, 8): verify, store, fold, and fork evidence.

A :class:`Replica` checks every entry the host sends by itself: the entry's bytes and signature
(:meth:`Entry.from_wire`), the host's head signature with the key of the genesis author, the chain
and every rule through its own :class:`~engine.seat.Seat` (never the host's verdict). It writes
each entry to its own log file (fsync) before anything acts on it, then folds it into the seat's
table. It compares every head signature it sees (its own log, the welcome, rejections, the heads
the host relays in pings, the peers' direct reports) and reports two different entries signed
for one seq as fork evidence, kept in a file beside the log (:mod:`engine.forks`).

Files (PROTOCOL.md 7, 8; :class:`~net.store.Store`): the log ``*.vtlog``, the seat's secrets
file (0600), and on a fork the evidence ``*.vtfork``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal, NoReturn, cast

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.forks import fork_path, write_fork_file
from engine.protocol.identity import public_bytes
from engine.protocol.log import Entry, ForkEvidence, Head, LogError, LogWriter, read_log, verify_head
from engine.protocol.secrets import SecretsFile
from engine.seat import Seat, now_ms
from engine.table import Table, TableRefusal
from net.errors import GiveUp
from net.events import Folded, Fork, HostFault, Listeners
from net.messages import VERSION, Challenge, Entries, MessageError, Role, Welcome, WireHead, head_from_wire
from net.store import Store

log = logging.getLogger("vampire.net.replica")

MAX_CLAIMS = 256
"""Heads ahead of this peer's log kept to compare with the entries when they arrive."""

FoldHook = Callable[[Entry, bool], None]
"""Called after each entry is folded: the entry, and whether it was received now (True) or read
back from this peer's own log file (False)."""

TraceMark = Literal["send", "fold"]
"""When a trace hook is called: a submit went out, or an entry was folded."""

TraceHook = Callable[[TraceMark, Entry], None]
"""A measuring hook: ``("send", entry)`` when a submit goes out, ``("fold", entry)`` once an entry
is folded."""


class Replica:
    """The table as this peer has checked it, and its log file.

    ``key``, ``name``: the identity and the name its seat joins with; ``role``: ``player`` (a seat
    with a secrets file) or ``spectator``; ``games``: every game's rules by name; ``store``: where
    the files are; ``listeners``: gets :class:`~net.events.Folded`, :class:`~net.events.Fork` and
    :class:`~net.events.HostFault`; ``random_bytes(n)``: the seat's random source; ``on_fold``: see
    :data:`FoldHook`; ``on_fork()``: called once when fork evidence is found; ``trace``: see
    :data:`TraceHook`; ``clock()``: ms since the epoch, the clock its seat signs entries with
    (the seat driver's :attr:`~net.driver.Liveness.clock`, so a vote is signed on the clock that
    found it due).

    Methods that receive from the host raise :class:`~net.errors.GiveUp` (after a
    :class:`~net.events.HostFault`) for anything no honest host sends, and
    :class:`~net.messages.MessageError` for a run of entries with a gap.
    """

    def __init__(
        self,
        key: Ed25519PrivateKey,
        name: str,
        role: Role,
        games: Mapping[str, Any],
        store: Store,
        listeners: Listeners,
        *,
        random_bytes: Callable[[int], bytes],
        on_fold: FoldHook,
        on_fork: Callable[[], None],
        trace: TraceHook | None = None,
        clock: Callable[[], float] = now_ms,
    ) -> None:
        self.key = key
        self.clock = clock
        """The clock this peer's entries are signed with (ms since the epoch)."""
        self.public = public_bytes(key)
        self.name = name
        self.role = role
        self.games = games
        self.store = store
        self.listeners = listeners
        self.random_bytes = random_bytes
        self.on_fold = on_fold
        self.on_fork = on_fork
        self.trace = trace
        self.seat: Seat | None = None
        """This peer's seat (None before the host named the table): its table is the replica."""
        self.heads: list[bytes | None] = []
        """The host's head signature of each entry held (None: read from a file that had none)."""
        self.host_key: bytes | None = None
        self.opened: int | None = None
        """When the host's run this peer follows opened the table (ms since the epoch, its
        welcome's ``opened``; None: not told): no wait is counted from before it."""
        self.log_path: Path | None = None
        self.fork: ForkEvidence | None = None
        self.fork_path: Path | None = None
        """The fork evidence file written beside the log (None: none, or memory only)."""
        self.pinned_host: bytes | None = None
        self.pinned_table: bytes | None = None
        self.caught_up = False
        """Holds every entry the host had when it welcomed this peer."""
        self._log: LogWriter | None = None
        self._table_id: bytes | None = None
        self._claims: dict[int, Head] = {}
        self._welcome_host: bytes | None = None
        self._target = -1

    # -- reading --------------------------------------------------------------------------------

    @property
    def table(self) -> Table | None:
        """This peer's own :class:`~engine.table.Table` (None before the host named the table)."""
        return self.seat.table if self.seat is not None else None

    @property
    def table_id(self) -> bytes | None:
        """The id of the table this peer holds (None: none yet)."""
        return self._table_id

    def last_seq(self) -> int | None:
        """The seq of the last entry held, or None."""
        t = self.table
        return t.seq - 1 if t is not None and t.entries else None

    def head(self) -> Head | None:
        """This peer's latest head (the host's signature on its last entry), or None."""
        t = self.table
        if t is None or not t.entries or self.heads[-1] is None:
            return None
        return Head(t.table_id, t.seq - 1, t.head, self.heads[-1])

    def ahead(self) -> tuple[int, bytes] | None:
        """The lowest head held ahead of this peer's log (its seq and entry id), or None."""
        if not self._claims:
            return None
        seq = min(self._claims)
        return seq, self._claims[seq].entry_id

    # -- files ----------------------------------------------------------------------------------

    def load(self) -> None:
        """Open the local log if its place is known before connecting, folding what it holds.
        Raises GiveUp or LogError for a local log that cannot be used."""
        log_path, _ = self.store.paths(None, self.public, self.role)
        if log_path is not None and log_path.exists() and log_path.stat().st_size > 0:
            loaded = read_log(log_path)
            if loaded.entries:
                self._open(loaded.entries[0].id)

    def _open(self, table_id: bytes) -> None:
        """Create the seat and open (or create) the log file for ``table_id``, folding what it holds."""
        log_path, secrets_path = self.store.paths(table_id, self.public, self.role)
        for path in (log_path, secrets_path):
            if path is not None:
                path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # The seat only reads ``games`` as a mapping of rules by name.
        games = cast("dict[str, Any]", self.games)
        clock = self.clock
        self.seat = Seat(
            self.key, self.name, games, SecretsFile(secrets_path), self.random_bytes, clock=lambda: int(clock())
        )
        self._table_id = table_id
        self.log_path = log_path
        if log_path is None:
            return
        if log_path.exists() and log_path.stat().st_size > 0:
            writer = LogWriter.open_existing(log_path, sync=self.store.sync_log)
        else:
            writer = LogWriter(log_path, sync=self.store.sync_log)
        loaded = writer.loaded
        if loaded.entries and loaded.entries[0].id != table_id:
            writer.close()
            raise GiveUp(f"The log file {log_path} holds another table than the host's.")
        for entry, head in zip(loaded.entries, loaded.heads, strict=False):
            self._fold(entry, head, write=False)
        self._log = writer

    def close(self) -> None:
        """Close the log file."""
        if self._log is not None:
            self._log.close()

    # -- receiving ------------------------------------------------------------------------------

    def pin(self, host: bytes, table: bytes | None) -> None:
        """Expect the host key ``host`` and, when known, the table id ``table`` (32 bytes each),
        as a LAN announcement named them (PROTOCOL.md 9): a challenge that names others is
        refused (:meth:`check_challenge`), and the welcome and genesis are checked against the
        challenge."""
        self.pinned_host = host
        self.pinned_table = table

    def check_challenge(self, challenge: Challenge) -> None:
        """Check the host's ``challenge`` against the genesis this peer holds, if it holds one
        (PROTOCOL.md 7, item 2): the same table id, and the genesis author's key; and against the
        host key and table a LAN announcement named (:meth:`pin`). Raises GiveUp with a sentence
        otherwise (another table, or another host, answers at this address)."""
        if self._table_id is not None and challenge.table != self._table_id:
            raise GiveUp("The host at this address holds another table than this peer's log.")
        if self.host_key is not None and challenge.host != self.host_key:
            raise GiveUp("The host at this address does not hold the key that opened this peer's table.")
        if self.pinned_host is not None and challenge.host != self.pinned_host:
            raise GiveUp("The host at this address does not hold the key its LAN announcement named.")
        if self.pinned_table is not None and challenge.table != self.pinned_table:
            raise GiveUp("The host at this address holds another table than its LAN announcement named.")

    def welcome(self, msg: Welcome) -> None:
        """Check the host's ``welcome`` against what this peer holds, and open the table's files
        if they were not open. Raises GiveUp."""
        if msg.v != VERSION:
            raise GiveUp(f"The host speaks protocol version {msg.v}; this program speaks {VERSION}.")
        if self._table_id is not None and msg.table != self._table_id:
            raise GiveUp("The host holds another table than this peer's log.")
        if self.host_key is not None and msg.host != self.host_key:
            self._fault("The host's key is not the key that opened this table.")
        if self.seat is None:
            self._open(msg.table)
        self._welcome_host = msg.host
        self.opened = msg.opened
        self._target = msg.head[0]
        self.check_claim(msg.head)
        self.check_claim(msg.mine)

    def catch_up(self) -> bool:
        """Whether this peer has just caught up with the head the host welcomed it with."""
        t = self.table
        if self.caught_up or t is None or t.seq <= self._target:
            return False
        self.caught_up = True
        return True

    def receive(self, msg: Entries, pause: bool = False, most: int | None = None) -> int:
        """Verify, store and fold a run of entries (those already held are compared, not folded
        again). With ``pause``, stop before the next entry once one leaves a proof of shuffle to
        verify (:attr:`Table.unverified`), so the caller verifies it off the loop first; with
        ``most``, stop after that many entries, so the caller lets its loop run (the first entry
        is always taken).
        Returns how many of ``msg.items`` were taken (all of them once this peer stops following
        the host). Raises GiveUp, MessageError."""
        t = self.table
        if self.fork is not None or t is None:
            return len(msg.items)  # this peer no longer follows a host that signed two logs
        for i, (wire, head_sig) in enumerate(msg.items):
            if i and ((pause and t.unverified is not None) or (most is not None and i >= most)):
                return i
            seq = msg.start + i
            try:
                entry = Entry.from_wire(wire)
            except LogError as err:
                self._fault(f"The host sent an entry that does not verify: {err}")
            if entry.seq != seq:
                self._fault(f"The host sent the entry of seq {entry.seq} as seq {seq}.")
            if seq < t.seq:
                if entry.id != t.entries[seq].id:
                    self.check_claim([seq, entry.id, head_sig])
                    if self.fork is not None:
                        return len(msg.items)
                    self._fault(f"The host sent another entry for seq {seq} than the one this peer holds.")
                continue
            if seq > t.seq:
                raise MessageError(f"The host skipped from seq {t.seq} to seq {seq}.")
            self._fold(entry, head_sig, write=True)
            if self.fork is not None:
                return len(msg.items)
        return len(msg.items)

    def _fault(self, detail: str) -> NoReturn:
        self.listeners.emit(HostFault(detail))
        raise GiveUp(detail)

    def _fold(self, entry: Entry, head_sig: bytes | None, write: bool) -> None:
        seat = self.seat
        assert seat is not None  # _open made it before anything is folded
        t = seat.table
        host = entry.author if entry.seq == 0 else self.host_key
        if entry.seq == 0:
            if self._table_id is not None and entry.id != self._table_id:
                self._fault("The host's genesis entry is not the table it named.")
            if self._welcome_host is not None and self._welcome_host != entry.author:
                self._fault("The host's key is not the key that opened this table.")
        if (head_sig is not None or write) and (
            host is None or not verify_head(host, entry.table_id, entry.seq, entry.id, head_sig)
        ):
            self._fault(f"The host's head signature for seq {entry.seq} does not verify.")
        claim = self._claims.pop(entry.seq, None)
        if claim is not None and claim.entry_id != entry.id and head_sig is not None:
            self._report_fork(claim, Head(entry.table_id, entry.seq, entry.id, head_sig))
            if self.fork is not None:
                return
        start = len(t.notes)
        try:
            # A live `shuffle` is folded before its proof is verified (docs/protocol.md 6.9): the
            # client verifies it in a worker thread and settles it before anything further.
            seat.fold(entry, defer_proof=write)
        except TableRefusal as err:
            self._fault(f"The host sent an entry this peer's table refuses ({err.code}): {err.detail}")
        if write and self._log is not None:
            self._log.append(entry, head_sig)
        if entry.seq == 0:
            self.host_key = entry.author
        self.heads.append(head_sig)
        if self.trace is not None:
            self.trace("fold", entry)
        notes = tuple(t.notes[start:])
        names = t.names
        self.listeners.emit(Folded(entry, tuple(n.render(names) for n in notes), t.seat_of(entry.author), notes))
        self.on_fold(entry, write)

    def settle(self) -> None:
        """Settle the proof of shuffle folded unverified (:meth:`Table.settle`), and narrate a
        proof that failed as a :class:`~net.events.Folded` of that entry with the table's stop."""
        t = self.table
        pending = None if t is None else t.unverified
        if t is None or pending is None:
            return
        notes = tuple(t.settle())
        if notes:
            entry = t.entries[pending.seq]
            names = t.names
            self.listeners.emit(Folded(entry, tuple(n.render(names) for n in notes), t.seat_of(entry.author), notes))

    # -- fork evidence (PROTOCOL.md 3) ------------------------------------------------------------

    def check_claim(self, value: WireHead | None) -> None:
        """Compare a head the host signed (checked wire form) with this peer's log: a different
        entry at a seq held is fork evidence; a head ahead is kept to compare later."""
        t = self.table
        if value is None or t is None or not t.entries or self.host_key is None:
            return
        head = head_from_wire(value, t.table_id)
        if not head.verify(self.host_key):
            return
        if head.seq < t.seq:
            mine = t.entries[head.seq]
            signature = self.heads[head.seq]
            if mine.id != head.entry_id and signature is not None:
                self._report_fork(Head(t.table_id, head.seq, mine.id, signature), head)
        elif (known := self._claims.get(head.seq)) is not None:
            if known.entry_id != head.entry_id:
                # Two heads ahead of this peer's log for one seq: proof, whoever sent them.
                self._report_fork(known, head)
        elif len(self._claims) < MAX_CLAIMS:
            self._claims[head.seq] = head

    def _report_fork(self, mine: Head, other: Head) -> None:
        if self.fork is not None or self.host_key is None:
            return
        evidence = ForkEvidence(self.host_key, mine, other)
        if not evidence.check():
            return
        self.fork = evidence
        self.fork_path = self._keep_evidence(evidence)
        self.listeners.emit(Fork(evidence, self.fork_path))
        self.on_fork()

    def _keep_evidence(self, evidence: ForkEvidence) -> Path | None:
        """Write the evidence file beside the log (PROTOCOL.md 7): both signed heads and the
        entries this peer holds up to that seq. Returns its path (None: memory only, or the
        disk refused it, which is logged: the evidence is still in :attr:`fork` and the event)."""
        t = self.table
        if self.log_path is None or t is None:
            return None
        path = fork_path(self.log_path)
        try:
            return write_fork_file(path, evidence, list(t.entries[: evidence.first.seq + 1]))
        except OSError as err:
            log.warning("the fork evidence could not be written to %s: %s", path, err)
            return None
