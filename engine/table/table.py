"""The table: one state folded from the signed log (PROTOCOL.md 2, 4, 5, 6; DESIGN.md "engine/table").

:class:`Table` knows the protocol and nothing about one game's rules. It checks each entry against
the state (author, turn, every point, scalar and proof), folds it, runs the hidden-card operations
and joint draws the game asks for (:mod:`engine.games.base`), and hands the game verified acts.

The table owns the state and dispatches; each kind of entry is handled by one part, through an
explicit table of handlers: :mod:`~engine.table.lobby` (table, join, leave, start, chat, abandon,
end), :mod:`~engine.table.draws` (rand-commit, rand-reveal), :mod:`~engine.table.hidden` (the deck
protocol: key, deck, shuffle, share, reveal, complaint, key-reveal, seed-reveal; its events'
state in :mod:`~engine.table.events`) and :mod:`~engine.table.acts` (move). A handler checks an
entry and returns its fold; nothing changes until the fold runs, and a fold changes the table's
own fields only through its methods (:meth:`Table.begin`, :meth:`Table.finish`, :meth:`Table.stop`…).

Two outcomes for a bad entry:

- **refusal** (:class:`TableRefusal`, with a protocol code): the entry is malformed, out of turn,
  illegal for the game, or otherwise not acceptable; the state does not change and the host does
  not append it;
- **proven cheat** (:class:`ProvenCheat`): a well-formed entry, signed by the seat whose turn it
  is, and passes the cheap checks (shape, types, every point and scalar valid; PROTOCOL.md 6.5),
  but fails a cryptographic check (a proof of shuffle, of a key or of a share, a seed that does not
  match its commitment, a false complaint) or that a seed reveal shows was computed wrongly. It is accepted
  into the log as evidence: the table stops and names the cheater (:attr:`Table.fault`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import fields, is_dataclass
from enum import StrEnum
from typing import Any, TypeVar, overload

from engine.errors import VampireError
from engine.games.base import (
    Draw,
    EndEvent,
    Game,
    GameError,
    IllegalMove,
    MalformedAct,
    Note,
    Op,
    Open,
    Pending,
    Pos,
    Release,
    Result,
    Shuffle,
    table_option,
)
from engine.protocol import codec, deck
from engine.protocol.log import Entry, check_link
from engine.table.acts import Acts
from engine.table.draws import JointDraws
from engine.table.events import ShuffleEvent, UnverifiedProof
from engine.table.hidden import DeckEvents
from engine.table.lobby import Lobby, SeatRecord
from engine.table.vocab import ZERO32, Checks, EntryKind, Phase, ProvenCheat, RefusalCode, TableRefusal
from engine.table.waits import Wait, Waits
from engine.table.work import DrawWork, ReleaseWork, RevealWork, SeedsWork, ShareWork, ShuffleWork, Work

Fold = Callable[[], None]
"""What an accepted entry does to the state, run once the entry is in the log."""

Handler = Callable[[Entry], Fold]
"""Checks one entry against the state: returns its fold, or raises :class:`TableRefusal`."""

W = TypeVar("W", DrawWork, ShuffleWork, ShareWork, RevealWork, SeedsWork, ReleaseWork)


def canonical(value: Any) -> Any:
    """A game or table value as a canonical protocol value (dataclasses become maps)."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: canonical(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if isinstance(value, dict):
        return {str(k): canonical(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(canonical(v) for v in value)
    return value


class Keep(StrEnum):
    """Which accepted entries a :class:`Table` keeps (:attr:`Table.entries`).

    - ``all``: every entry, in order: a host sends them to a peer catching up, a peer writes the
      ones before a fork into its fork file (PROTOCOL.md 7);
    - ``last``: only the last one (what the next entry chains to) and the count, and in
      :attr:`Table.notes` only the narration since the last entry began, so that folding a log of
      any length holds one entry (``vampire audit``, ``vampire replay``; docs/protocol.md 7.4,
      "Large logs").
    """

    ALL = "all"
    LAST = "last"


class KeptEntries(Sequence[Entry]):
    """The entries a table accepted, as a sequence indexed by seq; with :attr:`Keep.LAST` only the
    last one can be read. ``len()``: how many were accepted (the next seq).

    Reading an entry that is not kept raises LookupError (an IndexError for a seq never
    accepted), saying so."""

    __slots__ = ("_count", "_items", "_last", "keep")

    def __init__(self, keep: Keep = Keep.ALL) -> None:
        self.keep = Keep(keep)
        self._items: list[Entry] = []
        self._last: Entry | None = None
        self._count = 0

    def append(self, entry: Entry) -> None:
        """Keep ``entry``, the next accepted one."""
        if self.keep == Keep.ALL:
            self._items.append(entry)
        self._last = entry
        self._count += 1

    @property
    def last(self) -> Entry | None:
        """The last accepted entry, None before the first."""
        return self._last

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return self._count > 0

    @overload
    def __getitem__(self, index: int) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Entry]: ...

    def __getitem__(self, index: int | slice) -> Entry | Sequence[Entry]:
        if self.keep == Keep.ALL:
            return self._items[index]
        if isinstance(index, slice):
            raise LookupError("This table keeps only its last entry (Keep.LAST): no range of entries can be read.")
        seq = index + self._count if index < 0 else index
        if not 0 <= seq < self._count:
            raise IndexError(f"No entry at seq {index}: the table accepted {self._count}.")
        if seq != self._count - 1 or self._last is None:
            raise LookupError(f"This table keeps only its last entry (Keep.LAST), not the one at seq {seq}.")
        return self._last

    def __iter__(self) -> Iterator[Entry]:
        if self.keep == Keep.ALL:
            return iter(self._items)
        raise LookupError("This table keeps only its last entry (Keep.LAST): its entries cannot be listed.")


class Table:
    """The table state folded from a log. ``games`` maps game names to game rules; ``checks``
    says how much of the deck protocol is checked (:class:`~engine.table.vocab.Checks`: every
    peer, the host and ``vampire audit`` use ``peer``, ``vampire audit --strict`` uses ``strict``,
    only ``vampire result`` uses ``cheap``); ``keep`` says which accepted entries
    :attr:`entries` keeps (:class:`Keep`: all of them, or the last only for a log folded once).

    Use :meth:`apply` for each entry in log order; it raises :class:`TableRefusal` and changes
    nothing for an entry the table refuses. Everything else is read-only for callers; the parts
    (lobby, joint draws, deck events, acts) change the state through their folds, the deck
    protocol, the joint draws and the acts through the methods below (:meth:`begin`,
    :meth:`interrupt`, :meth:`finish`, :meth:`add_event`, :meth:`defer`, :meth:`keep_list`,
    :meth:`narrate`, :meth:`stop`, :meth:`play`, :meth:`number_draw`).
    """

    def __init__(self, games: Mapping[str, Game], checks: Checks = Checks.PEER, keep: Keep = Keep.ALL) -> None:
        self.games = games
        self.checks = checks
        self.verify_first = False
        """True while :meth:`apply` folds an entry whose proof it settles at once: a `shuffle`'s
        proof is then verified before its cheap checks, which a proof that verifies makes
        needless (every point it holds went through a checked multiplication); a proof that fails
        gets the cheap checks, so the verdict is the same either way (PROTOCOL.md 6.5)."""
        self.points_in_proof = False
        """True while :meth:`apply` folds, with ``points_in_proof``, a `shuffle` the host appended and
        on which this peer builds nothing before its proof is settled: the validity of its points is
        left to the proof's verification (each goes through a checked multiplication there), not
        checked at the fold too. A proof that fails names its author at its entry either way
        (docs/protocol.md 6.10)."""
        self.entries = KeptEntries(keep)
        self.table_id: bytes = ZERO32
        self.host: bytes = ZERO32
        self.game: Game | None = None
        self.game_name = ""
        self.name = ""
        self.options: dict[str, Any] = {}
        self.nseats = 0
        self.seats: list[SeatRecord] = []
        self.phase = Phase.NEW
        self.gstate: Any = None  # the game's own state value, opaque to the table
        self.events: list[ShuffleEvent] = []
        self.work: Work | None = None
        self.queue: list[Op] = []
        self.draw_count = 0
        self.batch_start = 0
        """The seq of the first entry of the batch of operations under way (:meth:`work_steps`)."""
        self.fault: ProvenCheat | None = None
        self.unverified: UnverifiedProof | None = None
        """The proof of the last folded `shuffle`, when it was folded with ``defer_proof``: checked
        by :meth:`settle` before anything else is folded (docs/protocol.md 6.9)."""
        self.abandon_votes: dict[int, set[int]] = {}
        """The abandon votes for each seat the table waits on, cast during this wait (PROTOCOL.md 6.5)."""
        self.abandoned: list[int] = []
        self.waits = Waits()
        """Since when the table waits on each seat (:mod:`engine.table.waits`)."""
        self.ended = False
        self.notes: list[Note] = []
        self.indexes: dict[tuple[str, tuple[str, ...]], deck.CardIndex] = {}
        self.lists: dict[int, list[str]] = {}  # seat -> its revealed private deck list (leaves)
        self.lobby = Lobby(self)
        self.joint_draws = JointDraws(self)
        self.deck_events = DeckEvents(self)
        self.acts = Acts(self)
        self._handlers: dict[EntryKind, Handler] = {
            EntryKind.TABLE: self.lobby.prepare_table,
            EntryKind.JOIN: self.lobby.prepare_join,
            EntryKind.LEAVE: self.lobby.prepare_leave,
            EntryKind.START: self.lobby.prepare_start,
            EntryKind.CHAT: self.lobby.prepare_chat,
            EntryKind.ABANDON: self.lobby.prepare_abandon,
            EntryKind.END: self.lobby.prepare_end,
            EntryKind.RAND_COMMIT: self.joint_draws.prepare_commit,
            EntryKind.RAND_REVEAL: self.joint_draws.prepare_reveal,
            **self.deck_events.handlers(),
            EntryKind.MOVE: self.acts.prepare_move,
        }

    # -- reading --------------------------------------------------------------------------------

    @property
    def rules(self) -> Game:
        """The game's rules. Raises :class:`TableRefusal` (illegal) before the table entry."""
        if self.game is None:
            raise TableRefusal("illegal", "the table has no game yet")
        return self.game

    def result(self) -> Result | None:
        """How the game ended (:class:`engine.games.base.Result`), or None while it goes on or
        before the table entry."""
        return self.game.result(self.gstate) if self.game is not None else None

    def final_result(self) -> Result:
        """The result of a game whose phase is over. Raises TableRefusal (illegal) before that."""
        result = self.result()
        if result is None:
            raise TableRefusal("illegal", "the game is not over")
        return result

    @property
    def head(self) -> bytes:
        last = self.entries.last
        return last.id if last is not None else ZERO32

    @property
    def seq(self) -> int:
        """The seq the next entry must carry."""
        return len(self.entries)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, key: bytes) -> int | None:
        for i, s in enumerate(self.seats):
            if s.key == key:
                return i
        return None

    def pending(self) -> Pending | None:
        """What the game waits for (None before the start)."""
        return self.rules.pending(self.gstate) if self.gstate is not None else None

    def owed(self) -> list[tuple[int, EntryKind]]:
        """(seat, kind) pairs the table waits for now: protocol duties first, then moves."""
        if self.phase != Phase.RUNNING:
            return []
        match self.work:
            case DrawWork(commits=commits, reveals=reveals):
                active = self.active_seats()
                if len(commits) < len(active):
                    return [(s, EntryKind.RAND_COMMIT) for s in active if s not in commits]
                return [(s, EntryKind.RAND_REVEAL) for s in active if s not in reveals]
            case ShuffleWork() | ShareWork() | RevealWork() | SeedsWork() | ReleaseWork():
                return self.deck_events.owed()
            case None:
                pending = self.pending()
                return [(s, EntryKind.MOVE) for s in pending.actors] if pending else []

    def owes_move(self, seat: int | None) -> bool:
        """The table waits for a move of ``seat`` now (:meth:`owed`): not while a protocol duty
        (a draw's shares, a shuffle) comes first, whose end may change what the seat can do."""
        return seat is not None and (seat, EntryKind.MOVE) in self.owed()

    def waiting_on(self) -> list[int]:
        """The seats the table waits for now: every seat that owes a protocol entry, or the seats
        whose move keeps the game waiting (the game's ``Pending.awaited``, else every actor)."""
        if self.phase == Phase.RUNNING and self.work is None:
            pending = self.pending()
            if pending is not None and pending.awaited is not None:
                return sorted(pending.awaited)
        return sorted({s for s, _ in self.owed()})

    def entries_ahead(self) -> int | None:
        """How many protocol entries the table's work still needs before the game waits for a move
        again: the work under way and the operations queued behind it (a joint draw's commits
        and reveals; an event's keys, `deck` and shuffles; the share entries of an open, one per
        seat and event; seed reveals). Exact for draws and shuffles, an estimate for opens of
        events not set up yet. None while no protocol work is under way."""
        if self.phase != Phase.RUNNING or self.work is None:
            return None
        ahead = self.deck_events.entries_ahead(self.queue)
        if isinstance(self.work, DrawWork):
            active = len(self.active_seats())
            ahead += 2 * active - len(self.work.commits) - len(self.work.reveals)
        return ahead

    def work_steps(self) -> tuple[int, int] | None:
        """The protocol work the game asked for last (one batch of operations, e.g. every shuffle of
        a deal) as (entries done, entries in all): for a progress bar that knows its length from
        the start. None while no protocol work is under way."""
        ahead = self.entries_ahead()
        if ahead is None:
            return None
        done = max(self.seq - self.batch_start, 0)
        return done, done + ahead

    def active_seats(self) -> list[int]:
        return [s for s in range(len(self.seats)) if s not in self.abandoned]

    def playing(self) -> list[int]:
        """The seats still playing, who vote on a stalled seat (PROTOCOL.md 6.5): the game's
        ``Pending.playing``, else every seat not recorded as having abandoned."""
        pending = self.pending() if self.phase == Phase.RUNNING else None
        if pending is not None and pending.playing is not None:
            return [s for s in pending.playing if s not in self.abandoned]
        return self.active_seats()

    def abandon_carried(self, target: int) -> bool:
        """The votes cast for ``target`` during this wait record it as having abandoned
        (PROTOCOL.md 6.5): more than half of the other seats still playing voted for it, or every
        one of them under table rule ``abandon_by_all``; a seat that does not vote counts neither
        way."""
        votes, needed = self.abandon_count(target)
        return votes >= needed

    def abandon_count(self, target: int) -> tuple[int, int]:
        """The abandon votes for ``target`` cast during this wait by the other seats still playing,
        and how many of them record it as having abandoned (PROTOCOL.md 6.5): more than half of
        those seats, or every one under table rule ``abandon_by_all``; at least one."""
        others = [s for s in self.playing() if s != target]
        votes = len(self.abandon_votes.get(target, set()) & set(others))
        needed = len(others) if table_option(self.options, "abandon_by_all") else len(others) // 2 + 1
        return votes, max(needed, 1)

    @property
    def stall_seconds(self) -> int:
        """Seconds the table must have waited on a seat before the others may vote to end the
        wait (table rule ``stall_seconds``, PROTOCOL.md 6.5)."""
        return int(table_option(self.options, "stall_seconds"))

    def stall_vote_refusal(self, target: int, now_ms: float, opened_ms: float | None = None) -> str | None:
        """Why a vote to end the wait on ``target`` is early at ``now_ms`` (ms since the epoch:
        a vote's own signed time when the log is folded, the host's clock when it takes one), or
        None once the vote is open (PROTOCOL.md 6.5): the table must have waited on ``target``
        for table rule ``stall_seconds``, counted from the entry the wait began at, or from the
        game's own time for the answer (``Wait.clock_until``), or from ``opened_ms`` (when the
        host opened the table in its current run; None: not counted). None as well when the
        table does not wait on ``target``: the vote's own check says so."""
        wait = self.waited(target)
        if wait is None:
            return None
        after = self.stall_seconds
        start = max(wait.time_ms, wait.clock_until, opened_ms or 0)
        if now_ms - start >= after * 1000:
            return None
        waited = max(0, int((now_ms - start) // 1000))
        return (
            f"the table has waited on seat {target} for {waited} s; a vote to end the wait opens at {after} s "
            "(table rule stall_seconds)"
        )

    def waited(self, seat: int) -> Wait | None:
        """Since when the table waits on ``seat`` (None: it does not wait on it)."""
        return self.waits.since.get(seat)

    def _track_waits(self, entry: Entry) -> None:
        waiting: list[int] = []
        position = None
        clock_until = 0
        if self.phase == Phase.RUNNING and self.fault is None:
            waiting = self.waiting_on()
            if self.work is None and (pending := self.pending()) is not None:
                position, clock_until = pending.position, pending.clock_until
        self.waits.after(entry, self.seat_of(entry.author), waiting, position, self.abandon_votes, clock_until)

    def opened_to(self, seat: int) -> list[Pos]:
        """Positions opened to ``seat`` whose every other share is known (the seat can decode them)."""
        return self.deck_events.opened_to(seat)

    def digest(self) -> bytes:
        """SHA-256 of the canonical encoding of the state every peer must agree on."""
        events = [
            [
                ev.number,
                len(ev.keys),
                len(ev.shuffles),
                [list(c) for c in ev.cur],
                [sorted(s.items()) for s in ev.shares],
                sorted(ev.revealed_x.items()),
                sorted(ev.public.items()),
                sorted((k, -1 if t is None else t) for k, t in ev.to.items()),
            ]
            for ev in self.events
        ]
        fault = None if self.fault is None else [self.fault.seq, self.fault.seat, self.fault.reason]
        value = [self.head, self.phase.value, canonical(self.gstate), events, fault, self.abandoned, self.ended]
        return hashlib.sha256(codec.encode(value)).digest()

    # -- folding ----------------------------------------------------------------------------------

    def apply(self, entry: Entry, defer_proof: bool = False, points_in_proof: bool = False) -> list[Note]:
        """Check ``entry`` against the state and fold it. Returns the narration it produced.

        Raises :class:`TableRefusal` (nothing changes) for an entry that does not chain, comes from
        a seat that may not append it now, is malformed or is illegal for the game. A proven cheat
        is folded: :attr:`fault` names it and the table stops.

        A `shuffle` that passes every check but its proof of shuffle is folded, then its proof is
        verified (:meth:`settle`): at once, or with ``defer_proof`` later, when the caller calls
        :meth:`settle` (from a worker thread's answer) or at the latest before the next entry is
        folded; a proof that fails stops the table naming its author at that entry, in the same
        state either way (docs/protocol.md 6.9, PROTOCOL.md 6.5). ``points_in_proof`` (with
        ``defer_proof``, for a `shuffle` the caller builds nothing on before it is settled): its
        points are left to the proof's checked multiplications (:attr:`points_in_proof`, 6.10).
        """
        if self.entries.keep == Keep.LAST:
            self.notes.clear()  # only what this entry says is read (its return value)
        self.settle()
        self.verify_first = not defer_proof
        self.points_in_proof = defer_proof and points_in_proof
        try:
            fold = self._checked(entry)
        finally:
            self.verify_first = self.points_in_proof = False
        self.entries.append(entry)
        start = len(self.notes)
        fold()
        if self.phase == Phase.RUNNING and self.fault is None:
            self._advance()
        self._track_waits(entry)
        if not defer_proof:
            self.settle()
        return self.notes[start:]

    def settle(self) -> list[Note]:
        """Verify the proof of shuffle folded with ``defer_proof`` (:attr:`unverified`), if any:
        a proof that fails stops the table with its author named at its entry. Returns the
        narration it produced (the stop, or nothing). Costs nothing when a worker thread already
        verified it (:meth:`UnverifiedProof.verify` keeps its answer)."""
        pending = self.unverified
        if pending is None:
            return []
        start = len(self.notes)
        ok = pending.verify()
        self.unverified = None
        if not ok and self.fault is None:
            self.cheat_at(pending.seq, pending.seat, pending.reason)
        return self.notes[start:]

    def check(self, entry: Entry) -> None:
        """Check ``entry`` as :meth:`apply` would, and change nothing: raises :class:`TableRefusal`
        (with the table's sentence) for an entry :meth:`apply` refuses. A peer asks this before
        it sends an entry the table may refuse (a `leave` after the start, say)."""
        self._checked(entry)

    def precheck(self, entry: Entry) -> None:
        """Check ``entry`` as :meth:`apply` would, except where it chains, and change nothing:
        the proofs it carries are verified and their answers kept in the per-process memo, so the
        same statements cost nothing when the entry (or the same proofs re-signed on a newer head)
        is folded. Raises :class:`TableRefusal` as :meth:`apply` does. A host runs it in a worker
        thread (docs/protocol.md 6.9)."""
        self._prepare(entry)

    def _checked(self, entry: Entry) -> Fold:
        try:
            last = self.entries.last
            check_link(last, entry)
        except VampireError as err:
            code: RefusalCode = "stale" if last is not None and entry.seq <= last.seq else "chain"
            raise TableRefusal(code, str(err)) from None
        return self._prepare(entry)

    def _prepare(self, entry: Entry) -> Fold:
        try:
            kind = EntryKind(entry.kind)
        except ValueError:
            raise TableRefusal("malformed", f"unknown entry kind {entry.kind!r}") from None
        if self.ended:
            # A complete log ends with its end entry; a log file holds nothing after it (PROTOCOL.md 8).
            raise TableRefusal("illegal", "the table has ended: nothing follows its end entry")
        if (self.phase == Phase.NEW) != (kind == EntryKind.TABLE):
            raise TableRefusal("illegal", "a log starts with its table entry, and has only one")
        try:
            return self._handlers[kind](entry)
        except MalformedAct as err:
            raise TableRefusal("malformed", str(err)) from None
        except IllegalMove as err:
            raise TableRefusal("illegal", str(err)) from None
        except (codec.CodecError, deck.BadBody) as err:
            raise TableRefusal("malformed", str(err)) from None

    # -- helpers for the parts --------------------------------------------------------------------

    def author_seat(self, entry: Entry) -> int:
        """The seat of ``entry``'s author. Raises TableRefusal (not-your-turn) for a key with no seat."""
        seat = self.seat_of(entry.author)
        if seat is None:
            raise TableRefusal("not-your-turn", "the author holds no seat at this table")
        return seat

    def expect(self, entry: Entry, kind: EntryKind) -> int:
        """The author's seat, if it owes an entry of ``kind`` now. Raises TableRefusal otherwise."""
        seat = self.author_seat(entry)
        if self.phase == Phase.STOPPED:
            raise TableRefusal("illegal", "the table is stopped: a cheat was proven")
        if self.phase != Phase.RUNNING:
            raise TableRefusal("illegal", f"no {kind} is expected: the game is not running")
        if (seat, kind) not in self.owed():
            owed = ", ".join(f"{k} from seat {s}" for s, k in self.owed()) or "nothing"
            raise TableRefusal(
                "not-your-turn", f"no {kind} is expected from seat {seat} now (the table waits for {owed})"
            )
        return seat

    def current(self, kind: type[W]) -> W:
        """The work under way, which a seat's duty (checked by :meth:`expect`) says is a ``kind``.
        Raises TableRefusal (illegal) when it is not."""
        work = self.work
        if not isinstance(work, kind):
            raise TableRefusal("illegal", f"the table runs no {kind.kind} work now")
        return work

    def stop(self, cheat: ProvenCheat) -> None:
        """Record a proven cheat: the table stops for good."""
        self.fault = cheat
        self.phase = Phase.STOPPED

    def cheat(self, entry: Entry, seat: int, reason: str) -> Fold:
        """The fold of an entry that proves ``seat`` cheated: the table stops and says so."""

        def fold() -> None:
            self.cheat_at(entry.seq, seat, reason)

        return fold

    def cheat_at(self, seq: int, seat: int, reason: str) -> None:
        """Stop the table now: ``seat`` cheated at the entry of ``seq`` (a sentence ``reason``)."""
        self.stop(ProvenCheat(seq, seat, reason))
        self.notes.append(Note(f"The table stops: {{s{seat}}} cheated ({reason})", (seat,)))

    def number_draw(self, purpose: str) -> str:
        """``purpose`` numbered for the next joint draw (``"dealer/1"``), so that no two draws share
        commitments (PROTOCOL.md 5)."""
        self.draw_count += 1
        return f"{purpose}/{self.draw_count}"

    def play(self, seat: int, act: Any, revealed: dict[Pos, str], at: int) -> None:
        """Fold a checked move: ``seat``'s ``act`` with the cards it opens (``revealed``) and the
        entry's signed time ``at`` (ms) goes to the game, and its description and the game's
        narration to :attr:`notes`."""
        game = self.rules
        line = game.describe(self.gstate, seat, act, revealed)
        self.gstate, notes = game.apply(self.gstate, seat, act, revealed, at)
        self.notes.append(line)
        self.notes.extend(notes)

    def begin(self, work: Work) -> None:
        """Start ``work``, the operation the game asked for at the head of the queue."""
        self.work = work

    def interrupt(self, work: Work) -> None:
        """Start ``work`` at once and drop the operations queued behind the work under way (a
        complaint about a private deck: its owner reveals its seed before anything else; PROTOCOL.md
        6.3, item 5)."""
        self.queue = []
        self.work = work

    def add_event(self, event: ShuffleEvent) -> None:
        """Add the next shuffle event; its number must be its place in :attr:`events`. Raises
        GameError otherwise."""
        if event.number != len(self.events):
            raise GameError(f"shuffle event {event.number} added as event {len(self.events)}")
        self.events.append(event)

    def card_index(self, deck_name: str, cards: Sequence[str]) -> deck.CardIndex:
        """The card index of a public deck (PROTOCOL.md 6.3, item 2): its card points under
        ``deck_name``, built once per table for one name and list."""
        key = (deck_name, tuple(cards))
        index = self.indexes.get(key)
        if index is None:
            index = self.indexes[key] = deck.CardIndex.build(self.table_id, deck_name, cards)
        return index

    def defer(self, proof: UnverifiedProof | None) -> None:
        """Keep the proof of the `shuffle` being folded, to be verified by :meth:`settle` before
        anything else is folded (None: nothing to verify; docs/protocol.md 6.9)."""
        self.unverified = proof

    def keep_list(self, seat: int, leaves: list[str]) -> None:
        """Keep ``seat``'s revealed private deck list (its Merkle leaves, "<part>:<card>";
        PROTOCOL.md 6.3, item 7)."""
        self.lists[seat] = leaves

    def narrate(self, note: Note) -> None:
        """Add a line to the narration of the entry being folded."""
        self.notes.append(note)

    def finish(self, outcomes: list[Any]) -> None:
        """The work under way is done: fold each op's outcome into the game, in order."""
        w = self.work
        self.work = None
        if w is None:
            return
        for op, outcome in zip(w.ops, outcomes, strict=False):
            self.gstate, notes = self.rules.resolve(self.gstate, op, outcome)
            self.notes.extend(notes)

    # -- running the game's work ------------------------------------------------------------------

    def _advance(self) -> None:
        """Start the next table operation the game waits for, if none is under way; finish an open
        whose last shares are those of seats that left (computed from their revealed keys)."""
        while self.phase == Phase.RUNNING:
            if self.work is not None:
                if not self.deck_events.settle():
                    return
                continue
            if not self.queue:
                pending = self.rules.pending(self.gstate)
                if not pending.ops:
                    if not pending.actors:
                        self.phase = Phase.OVER
                    return
                self.queue = list(pending.ops)
                self.batch_start = self.seq
            self._start(self.queue)

    def _start(self, queue: list[Op]) -> None:
        """Start the work for the operation at the head of ``queue`` (consecutive opens of one sort,
        to seats or to everyone, run as one batch)."""
        op = queue[0]
        match op:
            case Draw():
                queue.pop(0)
                self.joint_draws.start(op)
            case Shuffle():
                queue.pop(0)
                self.deck_events.start_shuffle(op)
            case Open(to=to):
                batch: list[Open] = []
                while queue and isinstance(head := queue[0], Open) and (head.to is None) == (to is None):
                    batch.append(head)
                    queue.pop(0)
                self.deck_events.start_open(batch)
            case Release():
                queue.pop(0)
                self.deck_events.start_release(op)
            case EndEvent():
                queue.pop(0)
                self.deck_events.start_end(op)
            case _:
                raise GameError(f"the game asked for an unknown operation {op!r}")
