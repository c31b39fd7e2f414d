"""The table: one state folded from the signed log (PROTOCOL.md 2, 4, 5, 6; DESIGN.md "engine/table").

:class:`Table` knows the protocol and nothing about one game's rules. It checks each entry against
the state (author, turn, every point, scalar and proof), folds it, runs the hidden-card operations
and joint draws the game asks for (:mod:`engine.games.base`), and hands the game verified acts.

Two outcomes for a bad entry:

- **rejection** (:class:`Rejected`, with a protocol code): the entry is malformed, out of turn,
  illegal for the game, or otherwise not acceptable; the state does not change and the host does
  not append it;
- **proven cheat**: a well-formed entry, signed by the seat whose turn it is, that fails a
  cryptographic check (a bad proof, point or key, a seed that does not match its commitment, a
  false complaint) or that a seed reveal shows was computed wrongly. It is accepted into the log as
  evidence: the table stops and names the cheater (:attr:`Table.fault`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

from engine.errors import VampireError
from engine.games.base import Draw, EndEvent, GameError, IllegalMove, MalformedAct, Note, Open, Pos, Release, Shuffle
from engine.protocol import codec, deck, group, merkle
from engine.protocol.log import Entry, check_link, validate_author_key

KINDS = frozenset(
    {
        "table",
        "join",
        "leave",
        "start",
        "rand-commit",
        "rand-reveal",
        "chat",
        "abandon",
        "complaint",
        "end",
        "shuffle",
        "lock",
        "unlock",
        "reveal",
        "seed-reveal",
        "move",
    }
)
MAX_NAME = 32
MAX_CHAT = 500
ZERO32 = bytes(32)


class Rejected(VampireError):
    """An entry the table does not accept. ``code`` is the wire's rejection code (PROTOCOL.md 3):
    ``stale``, ``not-your-turn``, ``illegal``, ``malformed``, ``bad-signature``, ``chain``."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class Fault:
    """A proven cheat: the ``seq`` of the entry that proves it, the cheater's ``seat`` and what was
    wrong (``reason``, a sentence)."""

    seq: int
    seat: int
    reason: str

    def describe(self, names: list[str]) -> str:
        name = names[self.seat] if 0 <= self.seat < len(names) else f"seat {self.seat}"
        return f"entry {self.seq}: {name} (seat {self.seat}) cheated: {self.reason}"


@dataclass
class SeatRecord:
    """A seated player: Ed25519 public ``key`` (32 bytes), ``name``, private deck-list commitment."""

    key: bytes
    name: str
    deck: bytes | None = None


@dataclass
class EventRec:
    """One shuffle event's public state (PROTOCOL.md 6).

    ``order``: participants in acting order (first participant first, L last). ``row``: the points
    after the latest set-up step; once locked, ``cur[k]`` is the point now at position k on its way
    (or opened). ``stripped[k]``: seats whose lock on k is removed (by unlock, reveal or open).
    """

    number: int
    deck_name: str
    n: int
    order: tuple[int, ...]
    owner: int | None
    index: deck.CardIndex | None
    step: int = 0
    row: list[bytes] = field(default_factory=list)
    commits: dict[int, bytes] = field(default_factory=dict)
    A: dict[int, bytes] = field(default_factory=dict)
    locks: dict[int, tuple[bytes, ...]] = field(default_factory=dict)
    cur: list[bytes] = field(default_factory=list)
    stripped: list[set[int]] = field(default_factory=list)
    to: dict[int, int | None] = field(default_factory=dict)
    public: dict[int, str] = field(default_factory=dict)
    entries: list[deck.EventEntry] = field(default_factory=list)
    seeds: dict[int, bytes] = field(default_factory=dict)
    cards: tuple[str | None, ...] | None = None
    source: tuple[Pos, ...] = ()
    cards_public: bool = False
    dealt: dict[int, int] = field(default_factory=dict)  # position -> the seat it was opened to, for good

    @property
    def private(self) -> bool:
        """A private deck's event: its owner supplied the cards; no one else knows the list."""
        return not self.cards_public

    @property
    def part(self) -> str:
        """The deck-list part a private event draws from ("library" for "library/2")."""
        return self.deck_name.split("/", 1)[0]

    @property
    def setup_steps(self) -> list[tuple[int, str]]:
        return [(p, "shuffle") for p in self.order] + [(p, "lock") for p in self.order[:-1]]

    @property
    def locked(self) -> bool:
        return self.step >= len(self.setup_steps)

    def holders(self, k: int) -> list[int]:
        """Seats still locking position k."""
        return [p for p in self.order if p not in self.stripped[k]]


@dataclass
class Work:
    """The table operation under way. ``ops``: the game ops it resolves when done.

    kind "rand": ``purpose``, ``bounds``, ``commits``/``reveals`` by seat; "shuffle": ``event``;
    "unlock": ``steps``, a list of (unlocker, event, to, positions) still owed, in order;
    "reveal": ``steps`` of (seat, event, positions); "seeds": ``event`` and ``waiting`` seats.
    """

    kind: str
    ops: list[Any]
    purpose: str = ""
    bounds: tuple[int, ...] = ()
    commits: dict[int, bytes] = field(default_factory=dict)
    reveals: dict[int, bytes] = field(default_factory=dict)
    event: int = -1
    steps: list[tuple] = field(default_factory=list)
    waiting: list[int] = field(default_factory=list)
    complainer: int | None = None  # "seeds" asked for by a complaint (or a card opened twice)


def draws_from(result: bytes, bounds: tuple[int, ...]) -> tuple[int, ...]:
    """Unbiased draws in ``range(n)`` for each n of ``bounds`` from a joint result (PROTOCOL.md 5):
    SHAKE-256 of ``result``, 8 bytes big-endian per draw, values >= the largest multiple of n
    below 2^64 discarded."""
    out = []
    size = 8 * (len(bounds) + 8)
    stream = hashlib.shake_256(result).digest(size)
    pos = 0
    for n in bounds:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            if pos + 8 > len(stream):
                size *= 2
                stream = hashlib.shake_256(result).digest(size)
            v = int.from_bytes(stream[pos : pos + 8], "big")
            pos += 8
            if v < limit:
                out.append(v % n)
                break
    return tuple(out)


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


class Table:
    """The table state folded from a log. ``games`` maps game names to game modules.

    Use :meth:`apply` for each entry in log order; it raises :class:`Rejected` and changes nothing
    for an entry the table refuses. Everything else is read-only.
    """

    def __init__(self, games: dict[str, Any]) -> None:
        self.games = games
        self.entries: list[Entry] = []
        self.table_id: bytes = ZERO32
        self.host: bytes = ZERO32
        self.game: Any = None
        self.game_name = ""
        self.name = ""
        self.options: dict[str, Any] = {}
        self.nseats = 0
        self.seats: list[SeatRecord] = []
        self.phase = "new"  # new, lobby, running, over, stopped
        self.gstate: Any = None
        self.events: list[EventRec] = []
        self.work: Work | None = None
        self.queue: list[Any] = []
        self.draws = 0
        self.fault: Fault | None = None
        self.abandon_votes: dict[int, set[int]] = {}
        self.abandoned: list[int] = []
        self.ended = False
        self.notes: list[Note] = []
        self.indexes: dict[tuple[str, tuple[str, ...]], deck.CardIndex] = {}
        self.lists: dict[int, list[str]] = {}

    # -- reading --------------------------------------------------------------------------------

    @property
    def head(self) -> bytes:
        return self.entries[-1].id if self.entries else ZERO32

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

    def pending(self) -> Any:
        return self.game.pending(self.gstate) if self.gstate is not None else None

    def owed(self) -> list[tuple[int, str]]:
        """(seat, kind) pairs the table waits for now: protocol duties first, then moves."""
        if self.phase != "running":
            return []
        w = self.work
        if w is not None:
            if w.kind == "rand":
                if len(w.commits) < len(self.active_seats()):
                    return [(s, "rand-commit") for s in self.active_seats() if s not in w.commits]
                return [(s, "rand-reveal") for s in self.active_seats() if s not in w.reveals]
            if w.kind == "shuffle":
                ev = self.events[w.event]
                seat, kind = ev.setup_steps[ev.step]
                return [(seat, kind)]
            if w.kind in ("unlock", "reveal"):
                return [(w.steps[0][0], w.kind)]
            if w.kind == "seeds":
                return [(s, "seed-reveal") for s in w.waiting]
            if w.kind == "release":
                return [(w.steps[0], "seed-reveal")]
        pending = self.pending()
        return [(s, "move") for s in pending.actors] if pending else []

    def waiting_on(self) -> list[int]:
        """The seats the table waits for now (every seat that owes an entry)."""
        return sorted({s for s, _ in self.owed()})

    def active_seats(self) -> list[int]:
        return [s for s in range(len(self.seats)) if s not in self.abandoned]

    def opened_to(self, seat: int) -> list[Pos]:
        """Positions opened to ``seat`` whose every other lock is removed (the seat can decode them)."""
        out = []
        for ev in self.events:
            if not ev.locked:
                continue
            for k, to in ev.to.items():
                if to == seat and all(p in ev.stripped[k] or p == seat for p in ev.order):
                    out.append((ev.number, k))
        return out

    def digest(self) -> bytes:
        """SHA-256 of the canonical encoding of the state every peer must agree on."""
        events = [
            [
                ev.number,
                ev.step,
                ev.cur,
                sorted(ev.public.items()),
                sorted((k, -1 if t is None else t) for k, t in ev.to.items()),
            ]
            for ev in self.events
        ]
        fault = None if self.fault is None else [self.fault.seq, self.fault.seat, self.fault.reason]
        value = [self.head, self.phase, canonical(self.gstate), events, fault, self.abandoned, self.ended]
        return hashlib.sha256(codec.encode(value)).digest()

    # -- folding ----------------------------------------------------------------------------------

    def apply(self, entry: Entry) -> list[Note]:
        """Check ``entry`` against the state and fold it. Returns the narration it produced.

        Raises :class:`Rejected` (nothing changes) for an entry that does not chain, comes from a
        seat that may not append it now, is malformed or is illegal for the game. A proven cheat is
        folded: :attr:`fault` names it and the table stops.
        """
        fold = self._checked(entry)
        self.entries.append(entry)
        start = len(self.notes)
        fold()
        if self.phase == "running" and self.fault is None:
            self._advance()
        return self.notes[start:]

    def check(self, entry: Entry) -> None:
        """Check ``entry`` as :meth:`apply` would, and change nothing: raises :class:`Rejected`
        (with the table's sentence) for an entry :meth:`apply` refuses. A peer asks this before
        it sends an entry the table may refuse (a `leave` after the start, say)."""
        self._checked(entry)

    def _checked(self, entry: Entry) -> Callable[[], None]:
        try:
            check_link(self.entries[-1] if self.entries else None, entry)
        except VampireError as err:
            code = "stale" if self.entries and entry.seq <= self.entries[-1].seq else "chain"
            raise Rejected(code, str(err)) from None
        return self._prepare(entry)

    def _prepare(self, entry: Entry) -> Callable[[], None]:
        kind = entry.kind
        if kind not in KINDS:
            raise Rejected("malformed", f"unknown entry kind {kind!r}")
        if (self.phase == "new") != (kind == "table"):
            raise Rejected("illegal", "a log starts with its table entry, and has only one")
        try:
            if kind == "table":
                return self._prepare_table(entry)
            return getattr(self, "_prepare_" + kind.replace("-", "_"))(entry, entry.body)
        except Rejected:
            raise
        except IllegalMove as err:
            raise Rejected("illegal", str(err)) from None
        except (codec.CodecError, deck.BadBody, MalformedAct) as err:
            raise Rejected("malformed", str(err)) from None

    def _author_seat(self, entry: Entry) -> int:
        seat = self.seat_of(entry.author)
        if seat is None:
            raise Rejected("not-your-turn", "the author holds no seat at this table")
        return seat

    def _expect(self, entry: Entry, kind: str) -> int:
        seat = self._author_seat(entry)
        if self.phase == "stopped":
            raise Rejected("illegal", "the table is stopped: a cheat was proven")
        if self.phase != "running":
            raise Rejected("illegal", f"no {kind} is expected: the game is not running")
        if (seat, kind) not in self.owed():
            owed = ", ".join(f"{k} from seat {s}" for s, k in self.owed()) or "nothing"
            raise Rejected("not-your-turn", f"no {kind} is expected from seat {seat} now (the table waits for {owed})")
        return seat

    def _cheat(self, entry: Entry, seat: int, reason: str) -> Callable[[], None]:
        def fold() -> None:
            self.fault = Fault(entry.seq, seat, reason)
            self.phase = "stopped"
            self.notes.append(Note(f"The table stops: {{s{seat}}} cheated ({reason})", (seat,)))

        return fold

    # -- lobby ------------------------------------------------------------------------------------

    def _prepare_table(self, entry: Entry) -> Callable[[], None]:
        b = codec.check_map(
            entry.body,
            {"game": str, "options": dict, "seats": int, "name": str, "carddb": codec.nullable(str)},
            what="the table entry",
        )
        try:
            validate_author_key(entry.author)
        except VampireError as err:
            raise Rejected("malformed", str(err)) from None
        game = self.games.get(b["game"])
        if game is None:
            raise Rejected("illegal", f"this program does not know the game {b['game']!r}")
        if not game.min_seats <= b["seats"] <= game.max_seats:
            raise Rejected("illegal", f"{game.title} is played by {game.min_seats} to {game.max_seats} players")
        try:
            game.setup(b["seats"], b["options"])
        except GameError as err:
            raise Rejected("illegal", str(err)) from None
        if not 0 < len(b["name"]) <= MAX_NAME * 2:
            raise Rejected("malformed", "a table name is 1 to 64 characters")

        def fold() -> None:
            self.table_id = entry.id
            self.host = entry.author
            self.game = game
            self.game_name = b["game"]
            self.options = dict(b["options"])
            self.nseats = b["seats"]
            self.name = b["name"]
            self.phase = "lobby"

        return fold

    def _prepare_join(self, entry: Entry, body: Any) -> Callable[[], None]:
        b = codec.check_map(body, {"name": str, "deck": codec.nullable(codec.bin_of(32))}, what="a join")
        if self.phase != "lobby":
            raise Rejected("illegal", "the game has started: no more seats")
        if len(self.seats) >= self.nseats:
            raise Rejected("illegal", "every seat is taken")
        try:
            validate_author_key(entry.author)
        except VampireError as err:
            raise Rejected("malformed", str(err)) from None
        if self.seat_of(entry.author) is not None:
            raise Rejected("illegal", "that key already holds a seat at this table")
        name = b["name"].strip()
        if not 0 < len(name) <= MAX_NAME or not name.isprintable():
            raise Rejected("malformed", f"a player's name is 1 to {MAX_NAME} printable characters")

        def fold() -> None:
            self.seats.append(SeatRecord(entry.author, name, b["deck"]))
            self.notes.append(Note(f"{{s{len(self.seats) - 1}}} takes seat {len(self.seats) - 1}."))

        return fold

    def _prepare_leave(self, entry: Entry, body: Any) -> Callable[[], None]:
        codec.check_map(body, {}, what="a leave")
        seat = self._author_seat(entry)
        if self.phase != "lobby":
            raise Rejected("illegal", "a seat can be left only before the game starts; use abandon votes after")

        def fold() -> None:
            self.notes.append(Note(f"{self.seats[seat].name} leaves the table."))
            del self.seats[seat]

        return fold

    def _prepare_start(self, entry: Entry, body: Any) -> Callable[[], None]:
        codec.check_map(body, {}, what="a start")
        if entry.author != self.host:
            raise Rejected("not-your-turn", "only the host starts the game")
        if self.phase != "lobby":
            raise Rejected("illegal", "the game has already started")
        if len(self.seats) != self.nseats:
            raise Rejected("illegal", f"the table has {len(self.seats)} of its {self.nseats} players")

        def fold() -> None:
            self.gstate = self.game.setup(self.nseats, self.options)
            self.phase = "running"
            self.notes.append(Note(f"The game of {self.game.title} starts."))

        return fold

    def _prepare_chat(self, entry: Entry, body: Any) -> Callable[[], None]:
        b = codec.check_map(body, {"text": str}, what="a chat line")
        seat = self.seat_of(entry.author)
        if seat is None and entry.author != self.host:
            raise Rejected("not-your-turn", "only players and the host can chat")
        text = b["text"].strip()
        if not 0 < len(text) <= MAX_CHAT or not all(c.isprintable() for c in text):
            raise Rejected("malformed", f"a chat line is 1 to {MAX_CHAT} printable characters")
        who = f"{{s{seat}}}" if seat is not None else "The host"

        def fold() -> None:
            self.notes.append(Note(f"{who}: {text.replace('{', '{{').replace('}', '}}')}", ()))

        return fold

    def _prepare_abandon(self, entry: Entry, body: Any) -> Callable[[], None]:
        b = codec.check_map(body, {"seat": int}, what="an abandon vote")
        voter = self._author_seat(entry)
        target = b["seat"]
        if self.phase != "running":
            raise Rejected("illegal", "abandon votes are for a running game")
        if target in self.abandoned:
            raise Rejected("illegal", f"seat {target} is already recorded as having abandoned")
        if target not in self.waiting_on() or target == voter or voter in self.abandoned:
            raise Rejected("illegal", f"seat {target} does not owe the table anything now")
        votes = self.abandon_votes.get(target, set()) | {voter}

        def fold() -> None:
            self.abandon_votes[target] = votes
            self.notes.append(Note(f"{{s{voter}}} votes to end the wait for {{s{target}}}.", (voter, target)))
            others = [s for s in self.active_seats() if s != target]
            if all(s in votes for s in others):
                self.abandoned.append(target)
                self.work = None
                self.queue = []
                self.gstate, notes = self.game.abandon(self.gstate, target)
                self.notes.extend(notes)
                if self.game.result(self.gstate) is not None:
                    self.phase = "over"

        return fold

    def _prepare_end(self, entry: Entry, body: Any) -> Callable[[], None]:
        b = codec.check_map(body, {"scores": list, "winners": list}, what="the end entry")
        if entry.author != self.host:
            raise Rejected("not-your-turn", "only the host ends the table")
        if self.phase != "over" or self.ended:
            raise Rejected("illegal", "the game is not over")
        result = self.game.result(self.gstate)
        if b["scores"] != list(result.scores) or b["winners"] != list(result.winners):
            raise Rejected("illegal", "the end entry does not state the game's result")

        def fold() -> None:
            self.ended = True

        return fold

    # -- joint randomness (PROTOCOL.md 5) ---------------------------------------------------------

    def _prepare_rand_commit(self, entry: Entry, body: Any) -> Callable[[], None]:
        b = codec.check_map(body, {"purpose": str, "commit": codec.bin_of(32)}, what="a rand-commit")
        seat = self._expect(entry, "rand-commit")
        if b["purpose"] != self.work.purpose:
            raise Rejected("illegal", f"the table draws for {self.work.purpose!r}, not {b['purpose']!r}")
        return lambda: self.work.commits.__setitem__(seat, b["commit"])

    def _prepare_rand_reveal(self, entry: Entry, body: Any) -> Callable[[], None]:
        b = codec.check_map(body, {"purpose": str, "r": codec.bin_of(32)}, what="a rand-reveal")
        seat = self._expect(entry, "rand-reveal")
        w = self.work
        if b["purpose"] != w.purpose:
            raise Rejected("illegal", f"the table draws for {w.purpose!r}, not {b['purpose']!r}")
        if codec.sha256("rand", self.table_id, w.purpose, seat, b["r"]) != w.commits[seat]:
            return self._cheat(entry, seat, "its rand-reveal does not match its rand-commit")

        def fold() -> None:
            w.reveals[seat] = b["r"]
            if len(w.reveals) == len(self.active_seats()):
                rs = [w.reveals[s] for s in self.active_seats()]
                result = codec.sha256("rand-result", self.table_id, w.purpose, *rs)
                self._finish([draws_from(result, w.bounds)])

        return fold

    # -- the deck protocol (PROTOCOL.md 6) ----------------------------------------------------------

    def _event(self, body: Any) -> EventRec:
        if not isinstance(body, dict) or type(body.get("event")) is not int:
            raise Rejected("malformed", "a deck entry names its event")
        number = body["event"]
        if not 0 <= number < len(self.events):
            raise Rejected("illegal", f"there is no shuffle event {number}")
        return self.events[number]

    def _prepare_shuffle(self, entry: Entry, body: Any) -> Callable[[], None]:
        seat = self._expect(entry, "shuffle")
        ev = self._event(body)
        if self.work.event != ev.number:
            raise Rejected("illegal", f"the table shuffles event {self.work.event}, not {ev.number}")
        last = seat == ev.order[-1]
        try:
            got = deck.check_shuffle_pass(body, event=ev.number, seat=seat, n=ev.n, last=last)
        except deck.BadBody:
            raise
        except (deck.DeckError, group.GroupError) as err:
            return self._cheat(entry, seat, str(err))

        def fold() -> None:
            ev.commits[seat] = got.commit
            ev.row = list(got.points)
            if last:
                ev.locks[seat] = got.locks
            else:
                ev.A[seat] = got.A
            ev.entries.append(deck.EventEntry(entry.seq, seat, "shuffle", body))
            self._setup_step(ev)

        return fold

    def _prepare_lock(self, entry: Entry, body: Any) -> Callable[[], None]:
        seat = self._expect(entry, "lock")
        ev = self._event(body)
        try:
            got = deck.check_lock_pass(
                body, table=self.table_id, event=ev.number, seat=seat, n=ev.n, inputs=ev.row, A=ev.A[seat]
            )
        except deck.BadBody:
            raise
        except (deck.DeckError, group.GroupError) as err:
            return self._cheat(entry, seat, str(err))

        def fold() -> None:
            ev.row = list(got.points)
            ev.locks[seat] = got.locks
            ev.entries.append(deck.EventEntry(entry.seq, seat, "lock", body))
            self._setup_step(ev)

        return fold

    def _setup_step(self, ev: EventRec) -> None:
        ev.step += 1
        if ev.locked:
            ev.cur = list(ev.row)
            ev.stripped = [set() for _ in range(ev.n)]
            self._finish([ev.number])

    def _prepare_unlock(self, entry: Entry, body: Any) -> Callable[[], None]:
        seat = self._expect(entry, "unlock")
        ev = self._event(body)
        _, event, to, positions = self.work.steps[0]
        if ev.number != event:
            raise Rejected("illegal", f"the table waits for an unlock of event {event}")
        current = {k: ev.cur[k] for k in positions}
        try:
            got = deck.check_unlock(
                body,
                table=self.table_id,
                event=ev.number,
                seat=seat,
                n=ev.n,
                to=to,
                current=current,
                locks=ev.locks[seat],
            )
        except deck.BadBody:
            raise
        except (deck.DeckError, group.GroupError) as err:
            return self._cheat(entry, seat, str(err))
        if sorted(got.positions) != sorted(positions):
            raise Rejected("illegal", f"the unlock must cover positions {positions}")

        return lambda: self._step_done(ev, seat, entry.seq, "unlock", body, got.positions, got.points)

    def _step_done(self, ev: EventRec, seat: int, seq: int, kind: str, body: dict, positions: Any, points: Any) -> None:
        """Fold one participant's `unlock` or `reveal` step: its lock leaves each position, the
        step is kept for the seed-reveal recompute, and the work moves on."""
        for k, point in zip(positions, points):
            ev.cur[k] = point
            ev.stripped[k].add(seat)
        ev.entries.append(deck.EventEntry(seq, seat, kind, body))
        w = self.work
        w.steps.pop(0)
        if not w.steps:
            if kind == "reveal":
                self._finish_reveal()
            else:
                self._finish([None] * len(w.ops))

    def _prepare_reveal(self, entry: Entry, body: Any) -> Callable[[], None]:
        seat = self._expect(entry, "reveal")
        ev = self._event(body)
        _, event, positions = self.work.steps[0]
        if ev.number != event:
            raise Rejected("illegal", f"the table waits for a reveal of event {event}")
        current = {k: ev.cur[k] for k in positions}
        owner_claims = None
        if ev.private and seat == ev.owner:
            # The owner reveals last and claims each card: its body adds cards, salts and proofs.
            owner_claims = codec.check_map(
                body,
                {"event": int, "positions": list, "keys": list, "cards": list, "salts": list, "proofs": list},
                what="the owner's reveal",
            )
            body = {
                "event": owner_claims["event"],
                "positions": owner_claims["positions"],
                "keys": owner_claims["keys"],
            }
            if (
                not len(owner_claims["cards"])
                == len(owner_claims["salts"])
                == len(owner_claims["proofs"])
                == len(body["positions"])
            ):
                raise Rejected("malformed", "the owner's reveal claims one card, salt and proof per position")
        try:
            got = deck.check_reveal(body, event=ev.number, seat=seat, n=ev.n, current=current, locks=ev.locks[seat])
        except deck.BadBody:
            raise
        except (deck.DeckError, group.GroupError) as err:
            return self._cheat(entry, seat, str(err))
        if sorted(got.positions) != sorted(positions):
            raise Rejected("illegal", f"the reveal must cover positions {positions}")
        claims: dict[int, str] = {}
        if owner_claims is not None:
            rows = zip(got.positions, got.points, owner_claims["cards"], owner_claims["salts"], owner_claims["proofs"])
            for k, point, card, salt, proof in rows:
                problem = self._private_claim(ev, card, salt, proof, point)
                if problem:
                    return self._cheat(entry, seat, f"position {k} of event {ev.number}: {problem}")
                if card in ev.public.values() or card in claims.values():
                    return self._opened_twice(seat, ev.number, k, card)
                claims[k] = card

        def fold() -> None:
            ev.public.update(claims)
            self._step_done(ev, seat, entry.seq, "reveal", body, got.positions, got.points)

        return fold

    def _finish_reveal(self) -> None:
        outcomes = []
        for op in self.work.ops:
            idents = []
            for e, k in op.positions:
                ev = self.events[e]
                ident = ev.public.get(k) if ev.private else ev.index.lookup.get(ev.cur[k])
                if ident is None:
                    # Every lock was removed with checked keys: a point that is no card was planted
                    # in a shuffle; the seed reveal names who.
                    self._request_seeds(e, f"position {k} of event {e} opened to no card")
                    return
                ev.public[k] = ident
                ev.to[k] = None
                idents.append(ident)
            outcomes.append(tuple(idents))
        self._finish(outcomes)

    def _private_claim(self, ev: EventRec, card: Any, salt: Any, proof: Any, point: bytes) -> str | None:
        """Why the owner's claim that ``point`` (all other locks removed) is ``card`` fails, or None.

        The card must be on the owner's committed deck list (membership proof with its salt, leaf
        identity "<part>:<card>") and its card point must be ``point``. PROTOCOL.md 6, "Private decks".
        """
        if type(card) is not str:
            return "the card claimed is not a card identity"
        if not merkle.verify(self.seats[ev.owner].deck, f"{ev.part}:{card}", salt, proof):
            return f"{card!r} is not on the deck list it committed to"
        if group.card_point(self.table_id, ev.deck_name, card) != point:
            return f"the position does not hold {card!r}"
        # A card already public elsewhere in the event is not the claimant's cheat: a shuffle put it
        # there twice; the caller stops play for the seeds, which name who did.
        return None

    def _prepare_complaint(self, entry: Entry, body: Any) -> Callable[[], None]:
        seat = self._author_seat(entry)
        if self.phase != "running":
            raise Rejected("illegal", "complaints are for a running game")
        ev = self._event(body)
        k = body.get("position") if isinstance(body, dict) else None
        if type(k) is not int or not 0 <= k < ev.n or (ev.number, k) not in self.opened_to(seat):
            raise Rejected("illegal", "a complaint is about a position opened to its author")
        seen = set(ev.public.values())
        try:
            reason = deck.check_complaint(
                body,
                event=ev.number,
                seat=seat,
                n=ev.n,
                lock=ev.locks[seat][k],
                point=ev.cur[k],
                index=ev.index.lookup if ev.index else {},
                seen=seen,
            )
        except deck.BadBody:
            raise
        except (deck.DeckError, group.GroupError) as err:
            return self._cheat(entry, seat, f"false complaint: {err}")

        def fold() -> None:
            self.notes.append(Note(f"{{s{seat}}} complains: {reason} Every participant now reveals its seed.", (seat,)))
            self._request_seeds(ev.number, reason, seat)

        return fold

    def _opened_twice(self, seat: int, e: int, k: int, ident: str) -> Callable[[], None]:
        reason = f"Position {k} of event {e} holds {ident!r}, a card already seen in the event."

        def fold() -> None:
            self.notes.append(
                Note(
                    f"{{s{seat}}} opens {ident}, a card already seen in this deal: a shuffle planted it twice. "
                    "Every participant now reveals its seed.",
                    (seat,),
                )
            )
            self._request_seeds(e, reason, seat)

        return fold

    def _request_seeds(self, event: int, reason: str, complainer: int | None = None) -> None:
        """Stop play and ask every participant of ``event`` for its seed (PROTOCOL.md 6)."""
        ev = self.events[event]
        self.queue = []
        self.work = Work("seeds", [], event=event, waiting=[p for p in ev.order if p not in ev.seeds])
        self.work.purpose = "complaint"
        self.work.complainer = complainer

    def _prepare_seed_reveal(self, entry: Entry, body: Any) -> Callable[[], None]:
        seat = self._expect(entry, "seed-reveal")
        ev = self._event(body)
        expected = self.work.event if self.work.kind == "seeds" else self.work.waiting[0]
        if ev.number != expected:
            raise Rejected("illegal", f"the table waits for the seed of event {expected}")
        deck_list = None
        if isinstance(body, dict) and ("list" in body or "salts" in body):
            b = codec.check_map(
                body, {"event": int, "seed": bytes, "list": list, "salts": list}, what="a seed reveal with a deck list"
            )
            if seat in self.lists or self.seats[seat].deck is None:
                raise Rejected("illegal", "a deck list is revealed once, by a seat that committed to one")
            try:
                merkle.check_list(self.seats[seat].deck, b["list"], b["salts"])
            except VampireError as err:
                return self._cheat(entry, seat, f"its revealed deck list does not match its commitment: {err}")
            deck_list = list(b["list"])
            body = {"event": b["event"], "seed": b["seed"]}
        elif ev.private and ev.owner == seat and seat not in self.lists:
            raise Rejected("illegal", "the owner of a private deck reveals its deck list with its seed")
        try:
            seed = deck.check_seed_reveal(
                body, table=self.table_id, event=ev.number, seat=seat, commit=ev.commits[seat]
            )
        except deck.BadSeed as err:
            return self._cheat(entry, seat, str(err))

        def fold() -> None:
            if deck_list is not None:
                self.lists[seat] = deck_list
            ev.seeds[seat] = seed
            if self.work.kind == "release":
                # The seat leaves this event: from now on the table removes its locks itself.
                self.work.waiting.pop(0)
                if not self.work.waiting:
                    self._finish([None])
                return
            self.work.waiting.remove(seat)
            if not self.work.waiting:
                self._event_seeds_in(entry, ev)

        return fold

    def _private_index(self, ev: EventRec) -> deck.CardIndex | None:
        """The cards a private event started from, in the owner's canonical order: its deck list's
        part for a first shuffle (list order), the decoded cards of the source positions for a
        reshuffle (sorted by identity). None while they are not known."""
        listed = self.lists.get(ev.owner)
        if listed is None:
            return None
        prefix = ev.part + ":"
        part = [leaf[len(prefix) :] for leaf in listed if leaf.startswith(prefix)]
        if not ev.source:
            cards = part
        else:
            cards = []
            for e, k in ev.source:
                src = self.events[e]
                ident = src.public.get(k) or (src.cards[k] if src.cards is not None else None)
                if ident is None:
                    break
                cards.append(ident)
            else:
                cards.sort()
            if len(cards) != len(ev.source):
                # The source positions cannot be decoded (a seat that abandoned never revealed its
                # seeds for them): the cards reshuffled are read from this event itself, every lock
                # removed with the revealed seeds, and must all be cards of the owner's list.
                cards = self._decoded_from_seeds(ev, part)
                if cards is None:
                    return None
        try:
            return deck.CardIndex.build(self.table_id, ev.deck_name, cards)
        except deck.DeckError:
            return None

    def _decoded_from_seeds(self, ev: EventRec, candidates: list[str]) -> list[str] | None:
        """The cards at every position of ``ev`` (all seeds revealed), sorted; None if a position
        holds no card of ``candidates``."""
        try:
            index = deck.CardIndex.build(self.table_id, ev.deck_name, candidates)
        except deck.DeckError:
            return None
        keys = [deck.EventSecrets.derive(ev.seeds[p], self.table_id, ev.number, p, ev.n).lock_keys for p in ev.order]
        cards = []
        for k in range(ev.n):
            total = keys[0][k]
            for other in keys[1:]:
                total = group.scalar_mul(total, other[k])
            try:
                ident = index.lookup.get(deck.remove_lock(total, ev.row[k]))
            except group.GroupError:
                ident = None
            if ident is None:
                return None
            cards.append(ident)
        return sorted(cards)

    def _event_seeds_in(self, entry: Entry, ev: EventRec) -> None:
        index = ev.index
        if index is None:
            index = self._private_index(ev)
            if index is None or len(index.cards) != ev.n:
                self.fault = Fault(
                    entry.seq,
                    ev.owner,
                    f"the cards of its private deck {ev.deck_name!r} cannot be rebuilt from its revealed list",
                )
                self.phase = "stopped"
                return
        audit = deck.recompute_event(
            table=self.table_id,
            event=ev.number,
            participants=ev.order,
            seeds=ev.seeds,
            inputs=index.points,
            index=index.lookup,
            entries=ev.entries,
        )
        if audit.first_fault is not None:
            f = audit.first_fault
            self.fault = Fault(f.seq if f.seq is not None else entry.seq, f.seat, f.detail)
            self.phase = "stopped"
            self.notes.append(Note(f"The seed reveal proves that {{s{f.seat}}} cheated: {f.detail}", (f.seat,)))
            return
        if not audit.ok:
            self.fault = Fault(entry.seq, ev.order[0], "the event decodes to cards that are not the deck's")
            self.phase = "stopped"
            return
        ev.cards = audit.cards
        # Every claim made during the event must match what was really there.
        for k, ident in ev.public.items():
            if audit.cards[k] != ident:
                self.fault = Fault(
                    entry.seq, ev.order[0], f"position {k} was claimed as {ident} but holds {audit.cards[k]}"
                )
                self.phase = "stopped"
                return
        if self.work.purpose == "complaint":
            # The seeds show every step honest and every card a card: the complaint was false.
            blamed = self.work.complainer if self.work.complainer is not None else ev.order[0]
            self.fault = Fault(entry.seq, blamed, "a complaint that the revealed seeds do not support")
            self.phase = "stopped"
            return
        self._finish([tuple(audit.cards)])

    # -- moves ----------------------------------------------------------------------------------

    def _prepare_move(self, entry: Entry, body: Any) -> Callable[[], None]:
        b = codec.check_map(body, {"act": dict, "open": list}, what="a move")
        seat = self._expect(entry, "move")
        act = b["act"]
        wanted = self.game.to_open(self.gstate, seat, act)
        opens: dict[Pos, tuple] = {}
        for item in b["open"]:
            if (
                not isinstance(item, list)
                or len(item) not in (3, 5)
                or not isinstance(item[0], list)
                or len(item[0]) != 2
                or any(type(x) is not int for x in item[0])
                or type(item[1]) is not bytes
                or type(item[2]) is not str
            ):
                raise Rejected(
                    "malformed",
                    "a move opens cards as [[event, index], key, card] (and, for a private deck, salt and proof)",
                )
            opens[(item[0][0], item[0][1])] = tuple(item[1:])
        if sorted(opens) != sorted(wanted) or len(opens) != len(b["open"]):
            raise Rejected("illegal", "the move must open exactly the hidden cards it plays")
        revealed: dict[Pos, str] = {}
        duplicate: tuple[int, int, str] | None = None
        for (e, k), item in opens.items():
            key, ident = item[0], item[1]
            if not 0 <= e < len(self.events) or (e, k) not in self.opened_to(seat):
                raise Rejected("illegal", "that card was not dealt to you")
            ev = self.events[e]
            if ev.private != (len(item) == 4):
                raise Rejected(
                    "malformed", "a card of a private deck is opened with its salt and proof, and only such a card"
                )
            what = f"its key for position {k} of event {e}"
            try:
                deck.check_key(key, ev.locks[seat][k], what)
                if ev.private:
                    problem = self._private_claim(ev, ident, item[2], item[3], deck.remove_lock(key, ev.cur[k]))
                    if problem:
                        return self._cheat(entry, seat, problem)
                else:
                    if ident not in ev.index.cards:
                        return self._cheat(entry, seat, f"it claims {ident!r}, which is not a card of the deck")
                    card = ev.index.points[ev.index.cards.index(ident)]
                    deck.check_open(key, ev.locks[seat][k], ev.cur[k], card, what)
            except (deck.DeckError, group.GroupError) as err:
                return self._cheat(entry, seat, str(err))
            seen = set(ev.public.values()) | {c for (ee, _), c in revealed.items() if ee == e}
            if duplicate is None and ident in seen:
                duplicate = (e, k, ident)
            revealed[(e, k)] = ident
        self.game.check(self.gstate, seat, act, revealed)
        if duplicate is not None:
            # Its key proves the card is at that position, and the card is also elsewhere in the
            # event: a shuffle planted it twice. Not the opener's cheat: play stops and the seeds
            # name who planted it, as for a complaint (and the opener if they show nothing wrong).
            return self._opened_twice(seat, *duplicate)

        def fold() -> None:
            by_event: dict[int, list[int]] = {}
            for (e, k), ident in revealed.items():
                ev = self.events[e]
                ev.cur[k] = (
                    group.card_point(self.table_id, ev.deck_name, ident)
                    if ev.private
                    else ev.index.points[ev.index.cards.index(ident)]
                )
                ev.stripped[k].add(seat)
                ev.public[k] = ident
                ev.to[k] = None
                by_event.setdefault(e, []).append(k)
            for e, ks in by_event.items():
                # The keys a move opens are recorded as the seat's reveal of those positions, so
                # the seed-reveal recompute checks them too.
                ks.sort()
                keys = [opens[(e, k)][0] for k in ks]
                body = {"event": e, "positions": ks, "keys": keys}
                self.events[e].entries.append(deck.EventEntry(entry.seq, seat, "reveal", body))
            line = self.game.describe(self.gstate, seat, act, revealed)
            self.gstate, notes = self.game.apply(self.gstate, seat, act, revealed)
            self.notes.append(line)
            self.notes.extend(notes)

        return fold

    # -- running the game's work ------------------------------------------------------------------

    def _advance(self) -> None:
        """Start the next table operation the game waits for, if none is under way; take the
        unlock and reveal steps of seats that left an event (their seed gives their keys)."""
        while self.phase == "running":
            if self.work is not None:
                if not self._released_step():
                    return
                continue
            if not self.queue:
                pending = self.game.pending(self.gstate)
                if not pending.ops:
                    if not pending.actors:
                        self.phase = "over"
                    return
                self.queue = list(pending.ops)
            self._start(self.queue)

    def _released_step(self) -> bool:
        """Take the next unlock or reveal step if it belongs to a seat that revealed its seed for
        that event (a seat that left it). Returns whether a step was taken."""
        w = self.work
        if w.kind not in ("unlock", "reveal") or not w.steps:
            return False
        seat, e = w.steps[0][0], w.steps[0][1]
        ev = self.events[e]
        if seat not in ev.seeds:
            return False
        secrets = deck.EventSecrets.derive(ev.seeds[seat], self.table_id, e, seat, ev.n)
        seq = len(self.entries) - 1
        if w.kind == "unlock":
            _, _, to, ks = w.steps[0]
            body = deck.make_unlock(secrets, to, ks, {k: ev.cur[k] for k in ks})
            points = body["points"]
        else:
            _, _, ks = w.steps[0]
            body = deck.make_reveal(secrets, ks)
            points = [deck.remove_lock(key, ev.cur[k]) for k, key in zip(ks, body["keys"])]
        # Recorded as the seat's step, so the seed-reveal recompute follows the chain.
        self._step_done(ev, seat, seq, w.kind, body, body["positions"], points)
        return True

    def _start(self, queue: list[Any]) -> None:
        op = queue[0]
        if isinstance(op, Draw):
            queue.pop(0)
            self.draws += 1
            self.work = Work("rand", [op], purpose=f"{op.purpose}/{self.draws}", bounds=op.bounds)
        elif isinstance(op, Shuffle):
            queue.pop(0)
            self.work = Work("shuffle", [op], event=len(self.events))
            self.events.append(self._new_event(op))
        elif isinstance(op, Open):
            batch = []
            while queue and isinstance(queue[0], Open) and (queue[0].to is None) == (op.to is None):
                batch.append(queue.pop(0))
            if op.to is None:
                self.work = Work("reveal", batch, steps=self._reveal_steps(batch))
            else:
                self.work = Work("unlock", batch, steps=self._unlock_steps(batch))
            if not self.work.steps:
                if op.to is None:
                    self._finish_reveal()
                else:
                    self._finish([None] * len(batch))
        elif isinstance(op, Release):
            queue.pop(0)
            waiting = [
                ev.number for ev in self.events if op.seat in ev.order and op.seat not in ev.seeds and ev.cards is None
            ]
            self.work = Work("release", [op], steps=[op.seat], waiting=waiting)
            if not waiting:
                self._finish([None])
        elif isinstance(op, EndEvent):
            queue.pop(0)
            ev = self.events[op.event]
            self.work = Work("seeds", [op], event=op.event, waiting=[p for p in ev.order if p not in ev.seeds])
            if not self.work.waiting:
                self._finish([tuple(ev.cards or ())])
        else:
            raise GameError(f"the game asked for an unknown operation {op!r}")

    def _new_event(self, op: Shuffle) -> EventRec:
        participants = sorted(op.participants)
        i = participants.index(op.first)
        order = tuple(participants[i:] + participants[:i])
        index = None
        if op.cards:
            key = (op.deck, tuple(op.cards))
            index = self.indexes.get(key)
            if index is None:
                index = self.indexes[key] = deck.CardIndex.build(self.table_id, op.deck, op.cards)
        if index is None:
            if op.owner is None or op.owner >= len(self.seats) or self.seats[op.owner].deck is None:
                raise GameError(f"the game asked to shuffle the private deck {op.deck!r} of a seat without a deck list")
            if op.source and len(op.source) != op.count:
                raise GameError(f"the reshuffle of {op.deck!r} names {len(op.source)} positions, not {op.count}")
        return EventRec(
            len(self.events),
            op.deck,
            op.count,
            order,
            op.owner,
            index,
            row=list(index.points) if index else [],
            source=tuple(op.source),
            cards_public=bool(op.cards),
        )

    def _unlock_steps(self, batch: list[Open]) -> list[tuple]:
        steps = []
        by_event: dict[int, list[tuple[int, list[int]]]] = {}
        for op in batch:
            for e, k in op.positions:
                self.events[e].to[k] = op.to
                self.events[e].dealt[k] = op.to
            events = sorted({e for e, _ in op.positions})
            for e in events:
                by_event.setdefault(e, []).append((op.to, sorted(k for ee, k in op.positions if ee == e)))
        for e, targets in by_event.items():
            ev = self.events[e]
            for unlocker in ev.order:
                for to, ks in targets:
                    ks = [k for k in ks if unlocker != to and unlocker not in ev.stripped[k]]
                    if ks:
                        steps.append((unlocker, e, to, ks))
        return steps

    def _reveal_steps(self, batch: list[Open]) -> list[tuple]:
        steps = []
        by_event: dict[int, list[int]] = {}
        for op in batch:
            for e, k in op.positions:
                by_event.setdefault(e, []).append(k)
        for e, ks in by_event.items():
            ev = self.events[e]
            # A private deck's owner reveals last: its reveal claims each card with its deck-list
            # membership proof, checked against the point the other keys left.
            order = [p for p in ev.order if p != ev.owner] + [ev.owner] if ev.private else list(ev.order)
            for seat in order:
                mine = sorted(k for k in ks if seat not in ev.stripped[k])
                if mine:
                    steps.append((seat, e, mine))
        return steps

    def _finish(self, outcomes: list[Any]) -> None:
        """The work under way is done: fold each op's outcome into the game."""
        w = self.work
        self.work = None
        for op, outcome in zip(w.ops, outcomes):
            self.gstate, notes = self.game.resolve(self.gstate, op, outcome)
            self.notes.extend(notes)
