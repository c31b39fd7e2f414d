"""Deck events (PROTOCOL.md 6, version 2): joint-key ElGamal decks whose every shuffle is proven.

A game asks for hidden-card operations (:class:`~engine.games.base.Shuffle`,
:class:`~engine.games.base.Open`, :class:`~engine.games.base.EndEvent`,
:class:`~engine.games.base.Release`); :class:`DeckEvents` runs each through the deck protocol of
:mod:`engine.protocol.elgamal` and :mod:`engine.protocol.shuffle_proof`: the keys, the private
owner's `deck` and the proven shuffles of an event's set-up, the decryption shares that open
positions, complaints, key reveals of a seat that leaves, and the seed reveals that end an event.

Every entry gets the cheap checks first (PROTOCOL.md 6.5: shape, types, every point and scalar
valid); one that fails them is refused (:class:`TableRefusal`, ``malformed``) and changes nothing.
A well-formed entry whose proof, share or claim fails is a proven cheat: it is appended and the
table stops naming its author at that entry. A proof that verifies makes its entry's cheap checks
needless (its points went through checked multiplications): a fold that verifies at once checks the
proof first and makes them only when it fails, with the same verdict. How much is checked is the
table's :class:`~engine.table.vocab.Checks`: ``peer`` (everyone), ``strict`` (the seed reveal also
re-derives every proof and share from the seeds: :meth:`DeckEvents.rederive`), ``cheap`` (reading
a result: no proof, share or shuffle is checked).

The rest of the table reaches the deck protocol only through this module's interface:

- ``start_shuffle``, ``start_open``, ``start_release``, ``start_end``: start the work for an op;
- ``owed``: the (seat, kind) pairs a deck work waits for; ``settle``: finish a work nothing is
  owed for any more (a left seat's shares are computed from its revealed key);
- ``prepare_*``: the handlers of `key`, `deck`, `shuffle`, `share`, `reveal`, `complaint`,
  `key-reveal`, `seed-reveal`;
- ``opened_to``, ``parse_opens``, ``check_opens``, ``fold_opens``: the cards a move opens;
- :class:`ShuffleEvent`: one event's public state, read by seats and screens.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.errors import VampireError
from engine.games.base import Draw, EndEvent, GameError, Note, Open, Pos, Release, Shuffle
from engine.protocol import codec, deck, elgamal, group, merkle, shuffle_proof
from engine.protocol.elgamal import Ciphertext
from engine.protocol.group import G
from engine.protocol.log import Entry
from engine.table.vocab import Checks, EntryKind, Phase, ProvenCheat, TableRefusal
from engine.table.work import ReleaseWork, RevealWork, SeedsWork, ShareWork, ShuffleWork

if TYPE_CHECKING:
    from engine.table.table import Fold, Table

_REFUSED = (deck.BadBody, group.BadPoint, group.BadScalar, codec.SchemaError)
"""Errors of the cheap checks (PROTOCOL.md 6.5): an entry failing them is refused as malformed."""

_RECOMPUTED: dict[tuple[Any, ...], tuple[tuple[str | None, ...] | None, tuple[int | None, int, str] | None]] = {}
"""The seed reveals' recomputes (:meth:`DeckEvents.recompute`) made in this process, by the id of
the entry that completed the seeds, the event, the checks and the rules (a few kept)."""


@dataclass(frozen=True)
class ShuffleRecord:
    """One `shuffle` entry of an event, kept for the seed-reveal recompute: its log ``seq``, its
    author's ``seat``, the ``inputs`` it took and the ``outputs`` it gave (n ciphertexts each), and
    its ``proof`` as received (re-derived from the seed only by a strict table)."""

    seq: int
    seat: int
    inputs: tuple[Ciphertext, ...]
    outputs: tuple[Ciphertext, ...]
    proof: Any = None


@dataclass(frozen=True)
class ShareRecord:
    """One published decryption share of an event, kept by a strict table (``vampire audit
    --strict``) to re-derive at the seed reveal: the ``seq`` of the entry that holds it (`share`,
    `reveal`, a move's `open`, `complaint`), its author's ``seat``, the ``position``, the share
    ``D`` and its DLEQ ``proof``."""

    seq: int
    seat: int
    position: int
    D: bytes
    proof: bytes


@dataclass
class ShuffleEvent:
    """One event's public state (PROTOCOL.md 6.2, 6.3).

    ``order``: participants in seat order from the first participant. ``keys_from``: the event
    whose keys it uses (itself, or for a reshuffle the event its cards come from). ``keys``: each
    participant's key share X (events with their own keys); ``commits``: their seed commitments;
    ``joint``: H_e once known. ``shufflers``: the seats that shuffle, in order (a private deck's
    first event: everyone but its owner, who wrote `deck`). ``cur``: the deck now (the input of
    the next shuffle; once set up, the final deck). ``shares[k]``: the public decryption shares of
    position k by seat; ``revealed_x``: key shares of seats that left (own-key events).
    ``to[k]``: the seat position k was last opened to (None: to everyone); ``public[k]``: the
    identity of a position opened to everyone. ``cards``: every identity once the seeds are in.
    ``poks``: each participant's key proof as received; ``share_log``: every published share (kept
    by a strict table only, for the seed reveal's re-derivation).
    """

    number: int
    deck_name: str
    n: int
    order: tuple[int, ...]
    owner: int | None
    index: deck.CardIndex | None
    keys_from: int
    shufflers: tuple[int, ...]
    needs_deck: bool = False
    source: tuple[Pos, ...] = ()
    cards_public: bool = False
    keys: dict[int, bytes] = field(default_factory=dict)
    key_seqs: dict[int, int] = field(default_factory=dict)
    commits: dict[int, bytes] = field(default_factory=dict)
    joint: bytes | None = None
    deck_seq: int | None = None
    initial: list[Ciphertext] = field(default_factory=list)
    cur: list[Ciphertext] = field(default_factory=list)
    shuffles: list[ShuffleRecord] = field(default_factory=list)
    shares: list[dict[int, bytes]] = field(default_factory=list)
    revealed_x: dict[int, bytes] = field(default_factory=dict)
    to: dict[int, int | None] = field(default_factory=dict)
    public: dict[int, str] = field(default_factory=dict)
    seeds: dict[int, bytes] = field(default_factory=dict)
    cards: tuple[str | None, ...] | None = None
    dealt: dict[int, int] = field(default_factory=dict)  # position -> the seat it was opened to, for good
    poks: dict[int, bytes] = field(default_factory=dict)
    share_log: list[ShareRecord] = field(default_factory=list)

    @property
    def own_keys(self) -> bool:
        """The event has its own `key` entries (it is not a reshuffle inheriting keys)."""
        return self.keys_from == self.number

    @property
    def private(self) -> bool:
        """A private deck's event: its owner supplied the cards; no one else knows the list."""
        return not self.cards_public

    @property
    def part(self) -> str:
        """The deck-list part a private event draws from ("library" for "library/2")."""
        return self.deck_name.split("/", 1)[0]

    @property
    def locked(self) -> bool:
        """The event is set up: every shuffle is in and verified; positions can be opened."""
        return self.joint is not None and bool(self.cur) and len(self.shuffles) == len(self.shufflers)

    @property
    def public_index(self) -> deck.CardIndex:
        """The card index of a public deck's event. Raises GameError for a private event."""
        if self.index is None:
            raise GameError(f"the private deck {self.deck_name!r} has no public card list")
        return self.index

    @property
    def owner_seat(self) -> int:
        """The owner of a private deck's event. Raises GameError for a public event."""
        if self.owner is None:
            raise GameError(f"the deck {self.deck_name!r} has no owner")
        return self.owner


@dataclass(frozen=True)
class OpenedCard:
    """A card a move opens (PROTOCOL.md 6.3, item 4): the mover's decryption share ``D`` of the
    position with its DLEQ ``proof``, and the ``card`` identity it claims; for a private deck,
    ``membership`` is the salt and Merkle proof that the card is on the owner's list (unchecked)."""

    D: Any
    proof: Any
    card: str
    membership: tuple[Any, Any] | None = None


@dataclass(frozen=True)
class OpenCheck:
    """What checking a move's opened cards found: the verified identities (``revealed``), or the
    ``cheat`` (seat, sentence) the entry proves."""

    revealed: dict[Pos, str]
    cheat: tuple[int, str] | None = None


def parse_opens(raw: list[Any], points: bool = True) -> dict[Pos, OpenedCard]:
    """The opened cards of a move's ``open`` list (``[[event, index], D, proof, card]``, and for a
    private deck salt and membership proof). Raises TableRefusal (malformed) for an item of another
    shape or a share that fails the cheap checks (with ``points`` False, D is not checked to be a
    valid point: for a table of :attr:`Checks.CHEAP` only)."""
    opens: dict[Pos, OpenedCard] = {}
    for item in raw:
        if (
            not isinstance(item, list)
            or len(item) not in (4, 6)
            or not isinstance(item[0], list)
            or len(item[0]) != 2
            or any(type(x) is not int for x in item[0])
            or type(item[3]) is not str
        ):
            raise TableRefusal(
                "malformed",
                "a move opens cards as [[event, index], share, proof, card] "
                "(and, for a private deck, salt and membership proof)",
            )
        try:
            elgamal.check_share_fields(
                item[1], item[2], f"the share of position {item[0][1]} of event {item[0][0]}", points=points
            )
        except _REFUSED as err:
            raise TableRefusal("malformed", str(err)) from None
        membership = (item[4], item[5]) if len(item) == 6 else None
        opens[(item[0][0], item[0][1])] = OpenedCard(item[1], item[2], item[3], membership)
    return opens


def _positions(value: Any, n: int, what: str) -> list[int]:
    ks = codec.check_list(value, int, what, 1)
    if any(type(k) is not int or not 0 <= k < n for k in ks) or any(a >= b for a, b in itertools.pairwise(ks)):
        raise TableRefusal("malformed", f"{what} must be strictly increasing positions of the deck")
    return ks


class UnverifiedProof:
    """The proof of a folded `shuffle` not yet verified (docs/protocol.md 6.9): the table checks it
    before it folds anything further (:meth:`Table.settle`). :meth:`verify` may run in a worker
    thread first; it keeps its answer, so the table's own call then costs nothing."""

    def __init__(
        self,
        seq: int,
        seat: int,
        reason: str,
        statement: tuple[list[Any], bytes, list[Any], list[Any], Any],
        answer: bool | None = None,
        memo_key: tuple[Any, ...] | None = None,
    ) -> None:
        self.seq = seq
        self.seat = seat
        self.reason = reason
        self._statement = statement
        self._answer: bool | None = answer  # known already: verified before the fold, or made here
        self._memo_key = memo_key  # kept in group.VERIFY_MEMO when the proof verifies
        self._lock = threading.Lock()

    @property
    def done(self) -> bool:
        """Whether :meth:`verify` has its answer (no work left)."""
        return self._answer is not None

    def verify(self) -> bool:
        """Whether the proof of shuffle verifies (PROTOCOL.md 6.4): its four heavy parts run in the
        per-process pool, in parallel (libsodium releases the GIL); the memo answers at once for a
        statement this process checked or a proof it made itself. Thread-safe: a second caller
        waits for the first one's answer (the proof is checked once)."""
        with self._lock:
            if self._answer is None:
                context, joint, inputs, outputs, proof = self._statement
                self._answer = shuffle_proof.verify(
                    context, joint, inputs, outputs, proof, executor=shuffle_proof.pool()
                )
                if self._answer and self._memo_key is not None:
                    group.VERIFY_MEMO.put(self._memo_key, True)
            return self._answer


class DeckEvents:
    """Runs shuffle events over the table's state (:attr:`Table.events`, its work and its seats)."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.released: set[int] = set()  # seats that left the game and revealed their keys
        self.rederived = 0
        """Key proofs, proofs of shuffle and shares a strict table re-derived from their seeds."""
        self.underived = 0
        """Those a strict table could not re-derive: their author's seed was never revealed."""

    # -- reading --------------------------------------------------------------------------------

    def event_of(self, body: Any) -> ShuffleEvent:
        """The event a deck entry's body names. Raises TableRefusal (malformed, illegal)."""
        if not isinstance(body, dict) or type(body.get("event")) is not int:
            raise TableRefusal("malformed", "a deck entry names its event")
        number: int = body["event"]
        if not 0 <= number < len(self.t.events):
            raise TableRefusal("illegal", f"there is no shuffle event {number}")
        return self.t.events[number]

    def root(self, ev: ShuffleEvent) -> ShuffleEvent:
        """The event whose keys ``ev`` uses."""
        return self.t.events[ev.keys_from]

    def holders(self, ev: ShuffleEvent) -> tuple[int, ...]:
        """The seats holding a key share of ``ev`` (the participants of the event it inherits
        its keys from)."""
        return self.root(ev).order

    def key_of(self, ev: ShuffleEvent, seat: int) -> bytes:
        """``seat``'s key share X for ``ev`` (32-byte point)."""
        return self.root(ev).keys[seat]

    def share_of(self, ev: ShuffleEvent, k: int, seat: int) -> bytes | None:
        """``seat``'s decryption share of position ``k``: published, or computed from the key share
        it revealed when it left; None while neither."""
        got = ev.shares[k].get(seat)
        if got is not None:
            return got
        x = self.root(ev).revealed_x.get(seat)
        return None if x is None else group.mult(x, ev.cur[k][0], "c1")

    def opened_to(self, seat: int) -> list[Pos]:
        """Positions opened to ``seat`` whose every other key holder's share is known: the seat
        can decode them with its own key share."""
        out = []
        for ev in self.t.events:
            if not ev.locked:
                continue
            for k, to in ev.to.items():
                if to == seat and all(h == seat or self.share_of(ev, k, h) is not None for h in self.holders(ev)):
                    out.append((ev.number, k))
        return out

    def decode(self, ev: ShuffleEvent, k: int, skip: int | None = None) -> bytes:
        """c2 − Σ the known shares of position ``k`` (but ``skip``'s): the card point once every
        holder's share is in. May be the identity."""
        shares = []
        for h in self.holders(ev):
            if h == skip:
                continue
            d = self.share_of(ev, k, h)
            if d is None:
                raise GameError(f"position {k} of event {ev.number} lacks the share of seat {h}")
            shares.append(d)
        return elgamal.decode(ev.cur[k], shares)

    # -- what the deck works owe ------------------------------------------------------------------

    def setup_owed(self, ev: ShuffleEvent) -> list[tuple[int, EntryKind]]:
        """What the set-up of ``ev`` waits for: every missing `key` (in any order), then the
        owner's `deck`, then the next `shuffle` in seat order (PROTOCOL.md 6.3)."""
        if ev.own_keys and len(ev.keys) < len(ev.order):
            return [(p, EntryKind.KEY) for p in ev.order if p not in ev.keys]
        if ev.needs_deck and ev.deck_seq is None:
            return [(ev.owner_seat, EntryKind.DECK)]
        i = len(ev.shuffles)
        return [(ev.shufflers[i], EntryKind.SHUFFLE)] if i < len(ev.shufflers) else []

    def shares_owed(self, work: ShareWork | RevealWork) -> dict[tuple[int, int], list[int]]:
        """(seat, event) -> positions (increasing) whose share the seat owes for ``work``: every
        key holder but the recipient (to a seat) or but a private deck's owner (to everyone, the
        owner reveals last) whose share is not known yet."""
        owed: dict[tuple[int, int], set[int]] = {}
        for op in work.opens:
            for e, k in op.positions:
                ev = self.t.events[e]
                for h in self.holders(ev):
                    if h == op.to or (op.to is None and ev.private and h == ev.owner):
                        continue
                    if self.share_of(ev, k, h) is None:
                        owed.setdefault((h, e), set()).add(k)
        return {key: sorted(ks) for key, ks in owed.items()}

    def reveals_owed(self, work: RevealWork) -> dict[int, list[int]]:
        """event -> positions its private owner now owes in a `reveal`: those not yet public whose
        every other share is known."""
        owed: dict[int, set[int]] = {}
        for op in work.opens:
            for e, k in op.positions:
                ev = self.t.events[e]
                if not ev.private or k in ev.public:
                    continue
                others = [h for h in self.holders(ev) if h != ev.owner]
                if all(self.share_of(ev, k, h) is not None for h in others):
                    owed.setdefault(e, set()).add(k)
        return {e: sorted(ks) for e, ks in owed.items()}

    def owed(self) -> list[tuple[int, EntryKind]]:
        """(seat, kind) pairs the deck work under way waits for."""
        t = self.t
        match t.work:
            case ShuffleWork(event=e):
                return self.setup_owed(t.events[e])
            case ShareWork() as w:
                return sorted({(s, EntryKind.SHARE) for s, _ in self.shares_owed(w)})
            case RevealWork() as w:
                out = {(s, EntryKind.SHARE) for s, _ in self.shares_owed(w)}
                out |= {(t.events[e].owner_seat, EntryKind.REVEAL) for e in self.reveals_owed(w)}
                return sorted(out)
            case SeedsWork(waiting=waiting):
                return [(s, EntryKind.SEED_REVEAL) for s in waiting]
            case ReleaseWork(waiting=[(kind, _), *_]) as release:
                return [(release.seat, EntryKind(kind))]
        return []

    def entries_ahead(self, queue: list[Any]) -> int:
        """How many entries the deck work under way and the operations of ``queue`` still need:
        keys, `deck`s, shuffles, share entries (one per seat and event), reveals, seed reveals
        (PROTOCOL.md 6.3). Exact for the work under way and queued shuffles; for a queued open or
        release, what the events known now say (an estimate for a progress bar)."""
        t = self.t
        ahead = 0
        match t.work:
            case ShuffleWork(event=e):
                ev = t.events[e]
                ahead += (len(ev.order) - len(ev.keys) if ev.own_keys else 0) + len(ev.shufflers) - len(ev.shuffles)
                ahead += 1 if ev.needs_deck and ev.deck_seq is None else 0
            case ShareWork() as w:
                ahead += len(self.shares_owed(w))
            case RevealWork() as w:
                ahead += len(self.shares_owed(w)) + len({e for op in w.opens for e, k in op.positions})
            case SeedsWork(waiting=waiting) | ReleaseWork(waiting=waiting):
                ahead += len(waiting)
        holders = {ev.number: len(self.holders(ev)) for ev in t.events}
        number = len(t.events)
        for op in queue:
            match op:
                case Shuffle(participants=participants, source=source):
                    # Own keys: a key from each participant, then p shuffles (or, for a private
                    # deck, the owner's `deck` and the others' p - 1 shuffles); a reshuffle: p shuffles.
                    p = len(participants)
                    holders[number] = p
                    number += 1
                    ahead += p if source else 2 * p
                case Open(positions=positions, to=to):
                    events = {e for e, _ in positions}
                    ahead += sum(max(holders.get(e, 1) - 1, 0) for e in events)
                    ahead += len(events) if to is None else 0
                case EndEvent(event=e):
                    ahead += holders.get(e, 1)
                case Draw():
                    ahead += 2 * len(t.active_seats())  # a commit and a reveal each
                case _:
                    ahead += 1
        return ahead

    def settle(self) -> bool:
        """Finish the open under way if nothing is owed for it any more (the shares of a seat that
        left are computed from its revealed key). Returns whether work finished."""
        t = self.t
        w = t.work
        if isinstance(w, ShareWork) and not self.shares_owed(w):
            t.finish([None] * len(w.opens))
            return True
        if isinstance(w, RevealWork) and not self.shares_owed(w) and not self.reveals_owed(w):
            self._finish_reveal(w)
            return True
        return False

    # -- starting the game's operations -----------------------------------------------------------

    def start_shuffle(self, op: Shuffle) -> None:
        """A new event over ``op``'s deck; its participants owe keys (unless it inherits them),
        the owner its `deck`, and the shufflers their proven shuffles."""
        t = self.t
        t.work = ShuffleWork(op, len(t.events))
        ev = self._new_event(op)
        t.events.append(ev)
        if not ev.own_keys:
            self._inherit(ev)

    def start_open(self, batch: list[Open]) -> None:
        """Open a batch of positions, all to seats or all to everyone: the key holders owe shares
        (PROTOCOL.md 6.3, item 4); done at once when none is owed."""
        t = self.t
        if batch[0].to is None:
            t.work = RevealWork(tuple(batch))
        else:
            for op in batch:
                if op.to is None:
                    raise GameError("an open to everyone cannot be batched with opens to seats")
                for e, k in op.positions:
                    t.events[e].to[k] = op.to
                    t.events[e].dealt[k] = op.to
            t.work = ShareWork(tuple(batch))
        self.settle()

    def start_release(self, op: Release) -> None:
        """The seat of ``op`` leaves (PROTOCOL.md 6.3, item 6): it reveals its key share of every
        open event of other decks whose keys it holds, and the seed of its own open decks."""
        t = self.t
        seat = op.seat
        waiting: list[tuple[Any, int]] = []
        for ev in t.events:
            if ev.cards is not None:
                continue
            if ev.private and ev.owner == seat:
                if seat not in ev.seeds:
                    waiting.append((EntryKind.SEED_REVEAL.value, ev.number))
            elif ev.own_keys and seat in ev.order and seat not in ev.revealed_x:
                waiting.append((EntryKind.KEY_REVEAL.value, ev.number))
        t.work = ReleaseWork(op, waiting)
        if not waiting:
            self._released(op.seat)

    def _released(self, seat: int) -> None:
        self.released.add(seat)
        self.t.finish([None])

    def start_end(self, op: EndEvent) -> None:
        """Every participant of the event still in the game reveals its seed; the outcome is every
        card (PROTOCOL.md 6.3, item 7)."""
        t = self.t
        ev = t.events[op.event]
        waiting = [p for p in ev.order if p not in ev.seeds and p not in self.released and p not in t.abandoned]
        t.work = SeedsWork(op.event, waiting, end=op)
        if not waiting:
            self._seeds_in(t.entries[-1], ev, t.work)

    def _new_event(self, op: Shuffle) -> ShuffleEvent:
        t = self.t
        participants = sorted(op.participants)
        i = participants.index(op.first)
        order = tuple(participants[i:] + participants[:i])
        number = len(t.events)
        index = None
        if op.cards:
            key = (op.deck, tuple(op.cards))
            index = t.indexes.get(key)
            if index is None:
                index = t.indexes[key] = deck.CardIndex.build(t.table_id, op.deck, op.cards)
            if len(op.cards) != op.count:
                raise GameError(f"the deck {op.deck!r} lists {len(op.cards)} cards, not {op.count}")
        elif op.owner is None or op.owner >= len(t.seats) or t.seats[op.owner].deck is None:
            raise GameError(f"the game asked to shuffle the private deck {op.deck!r} of a seat without a deck list")
        if op.source and len(op.source) != op.count:
            raise GameError(f"the reshuffle of {op.deck!r} names {len(op.source)} positions, not {op.count}")
        keys_from = self._inherited_keys(op) if op.source else None
        private = not op.cards
        if keys_from is None:
            # Its own keys: a private deck's owner writes `deck` and the others shuffle after it.
            shufflers = order[1:] if private else order
            return ShuffleEvent(
                number,
                op.deck,
                op.count,
                order,
                op.owner,
                index,
                number,
                shufflers,
                private,
                tuple(op.source),
                not private,
            )
        return ShuffleEvent(
            number, op.deck, op.count, order, op.owner, index, keys_from, order, False, tuple(op.source), not private
        )

    def _inherited_keys(self, op: Shuffle) -> int | None:
        """The event a reshuffle takes its keys from (PROTOCOL.md 6.2): the one its hidden cards'
        keys come from. None when it must be rebuilt with new keys instead (6.3, item 8): a key
        holder abandoned, so those cards can no longer be opened. Raises GameError for hidden cards
        under different keys (the game opens such a card to everyone first)."""
        t = self.t
        roots = set()
        for e, k in op.source:
            if not 0 <= e < len(t.events):
                raise GameError(f"the reshuffle names a position of event {e}, which does not exist")
            src = t.events[e]
            if k not in src.public:
                roots.add(src.keys_from)
        if not roots:
            roots.add(t.events[op.source[0][0]].keys_from)
        if len(roots) > 1:
            raise GameError("a reshuffle mixes hidden cards under different keys")
        root = t.events[roots.pop()]
        if any(h in t.abandoned for h in root.order):
            return None
        return root.number

    def _inherit(self, ev: ShuffleEvent) -> None:
        """Set up a reshuffle's input (PROTOCOL.md 6.2): each source position's current ciphertext,
        or a public card as [G, M + H_e]."""
        t = self.t
        root = self.root(ev)
        joint = root.joint
        if joint is None:
            raise GameError(f"event {root.number} has no joint key yet")
        ev.joint = joint
        inputs: list[Ciphertext] = []
        for e, k in ev.source:
            src = t.events[e]
            ident = src.public.get(k)
            if ident is not None:
                c2 = group.add(group.card_point(t.table_id, ev.deck_name, ident), joint)
                inputs.append((G, c2))
            else:
                inputs.append(src.cur[k])
        ev.cur = ev.initial = inputs
        self._setup_step(ev)

    # -- set-up entries ---------------------------------------------------------------------------

    def _setup_event(self, entry: Entry, kind: EntryKind) -> tuple[int, ShuffleEvent]:
        t = self.t
        seat = t.expect(entry, kind)
        ev = self.event_of(entry.body)
        work = t.current(ShuffleWork)
        if work.event != ev.number:
            raise TableRefusal("illegal", f"the table sets up event {work.event}, not {ev.number}")
        return seat, ev

    def prepare_key(self, entry: Entry) -> Fold:
        t = self.t
        seat, ev = self._setup_event(entry, EntryKind.KEY)
        b = codec.check_map(
            entry.body, {"event": int, "commit": codec.bin_of(32), "X": bytes, "pok": bytes}, what="a key"
        )
        what = f"seat {seat}'s key"
        if t.checks == Checks.CHEAP:
            self._refuse_unless(elgamal.check_key_fields, b["X"], b["pok"], what, points=False)
        elif not elgamal.verify_key(t.table_id, ev.number, seat, b["X"], b["pok"]):
            # A proof that verifies took X through a checked multiplication and checked its
            # scalars: the cheap checks (PROTOCOL.md 6.5) are made only when it fails, and come first.
            self._refuse_unless(elgamal.check_key_fields, b["X"], b["pok"], what)
            return t.cheat(entry, seat, f"its key for event {ev.number} has no valid proof of knowledge")
        joint = None
        if len(ev.keys) == len(ev.order) - 1:
            try:
                joint = elgamal.joint_key([*ev.keys.values(), b["X"]])
            except group.BadPoint:
                raise TableRefusal("illegal", "that key makes the joint key of the event the identity") from None

        def fold() -> None:
            ev.keys[seat] = b["X"]
            ev.key_seqs[seat] = entry.seq
            ev.commits[seat] = b["commit"]
            ev.poks[seat] = b["pok"]
            if joint is not None:
                ev.joint = joint
                if ev.index is not None:
                    ev.cur = ev.initial = elgamal.public_deck(joint, ev.index.points)
                self._setup_step(ev)

        return fold

    def prepare_deck(self, entry: Entry) -> Fold:
        seat, ev = self._setup_event(entry, EntryKind.DECK)
        b = codec.check_map(entry.body, {"event": int, "cards": list}, what="a private deck")
        # The cheap checks of this very entry (its id covers every byte of its body) are made once
        # per process, as a `shuffle`'s are: the host and the seats of one process fold it alike.
        checked = ("cheap-checks", entry.id)
        points = self.t.checks != Checks.CHEAP
        try:
            if points and group.VERIFY_MEMO.get(checked):
                cards = [(c[0], c[1]) for c in b["cards"]]
            else:
                cards = elgamal.check_ciphertexts(b["cards"], ev.n, "the deck's cards", points=points)
                if points:
                    group.VERIFY_MEMO.put(checked, True)
        except deck.DuplicatePoints as err:
            return self.t.cheat(entry, seat, str(err))
        except _REFUSED as err:
            raise TableRefusal("malformed", str(err)) from None

        def fold() -> None:
            ev.cur = ev.initial = cards
            ev.deck_seq = entry.seq
            self._setup_step(ev)

        return fold

    def prepare_shuffle(self, entry: Entry) -> Fold:
        t = self.t
        seat, ev = self._setup_event(entry, EntryKind.SHUFFLE)
        b = codec.check_map(entry.body, {"event": int, "cards": list, "proof": list}, what="a shuffle")
        joint = ev.joint
        if joint is None:
            raise TableRefusal("illegal", "the event has no joint key yet")
        inputs = list(ev.cur)
        context = shuffle_proof.shuffle_context(t.table_id, ev.number, seat)
        cards, given = b["cards"], b["proof"]
        # The cheap checks of this very entry (its id covers every byte of its body) are made once
        # per process: the host and the seats of one process fold the same entry. They are needless
        # for a proof known to verify (one this process made or verified, or verified here first
        # when it is settled at once): its every point went through a checked multiplication and
        # its scalars were checked. A proof that fails gets them, first (PROTOCOL.md 6.5).
        checked = ("cheap-checks", entry.id)
        # A proof known to verify for this very entry (whose id binds its statement: the log
        # before it, its author and its body) needs not even be parsed again in this process.
        proven = ("proof-verified", entry.id)
        answer: bool | None = None
        try:
            if t.checks == Checks.CHEAP:
                outputs = elgamal.check_ciphertexts(cards, ev.n, "the shuffle's cards", points=False)
                shuffle_proof.check_proof(given, ev.n, points=False)
            else:
                if group.VERIFY_MEMO.get(proven) or shuffle_proof.known_valid(context, joint, inputs, cards, given):
                    answer = True
                elif t.verify_first:
                    answer = shuffle_proof.verify(context, joint, inputs, cards, given, executor=shuffle_proof.pool())
                if answer:
                    group.VERIFY_MEMO.put(proven, True)
                if answer or group.VERIFY_MEMO.get(checked):
                    outputs = [(c[0], c[1]) for c in cards]
                else:
                    outputs = elgamal.check_ciphertexts(cards, ev.n, "the shuffle's cards")
                    shuffle_proof.check_proof(given, ev.n)
                    group.VERIFY_MEMO.put(checked, True)
        except deck.DuplicatePoints as err:
            return t.cheat(entry, seat, str(err))
        except _REFUSED as err:
            raise TableRefusal("malformed", str(err)) from None
        proof = None
        if t.checks != Checks.CHEAP:
            proof = UnverifiedProof(
                entry.seq,
                seat,
                f"its shuffle of event {ev.number} fails its proof",
                (context, joint, inputs, outputs, given),
                answer,
                proven,
            )

        def fold() -> None:
            ev.shuffles.append(ShuffleRecord(entry.seq, seat, tuple(inputs), tuple(outputs), given))
            ev.cur = outputs
            t.unverified = proof
            self._setup_step(ev)

        return fold

    def _setup_step(self, ev: ShuffleEvent) -> None:
        if not self.setup_owed(ev):
            ev.shares = [{} for _ in range(ev.n)]
            self.t.finish([ev.number])

    # -- shares and reveals -----------------------------------------------------------------------

    def _check_shares(
        self, entry: Entry, seat: int, ev: ShuffleEvent, ks: list[int], shares: list[Any], proofs: list[Any]
    ) -> str | None:
        """Cheap-check (refusal) then verify ``seat``'s shares of positions ``ks`` in ``entry``; the
        sentence of the first that fails its proof, or None."""
        t = self.t
        if not len(ks) == len(shares) == len(proofs):
            raise TableRefusal("malformed", "a share entry gives one share and one proof per position")

        def cheap_checks(points: bool = True) -> None:
            for k, D, proof in zip(ks, shares, proofs, strict=True):
                self._refuse_unless(elgamal.check_share_fields, D, proof, f"the share of position {k}", points=points)

        if t.checks == Checks.CHEAP:
            cheap_checks(points=False)
            return None
        X = self.key_of(ev, seat)
        for k, D, proof in zip(ks, shares, proofs, strict=True):
            if not elgamal.verify_share(t.table_id, ev.number, seat, k, X, ev.cur[k][0], D, proof):
                # A share whose proof verifies went through checked multiplications: the cheap
                # checks (PROTOCOL.md 6.5) are needless then; they come first when one fails.
                cheap_checks()
                return f"its share of position {k} of event {ev.number} fails its proof"
        return None

    @staticmethod
    def _refuse_unless(check: Any, *args: Any, **kwargs: Any) -> None:
        """Run a cheap check (PROTOCOL.md 6.5); its error is a refusal (malformed)."""
        try:
            check(*args, **kwargs)
        except _REFUSED as err:
            raise TableRefusal("malformed", str(err)) from None

    def _keep_shares(self, ev: ShuffleEvent, seq: int, seat: int, items: Any) -> None:
        """Keep the shares (position, D, proof) an entry published, for a strict table's seed reveal."""
        if self.t.checks == Checks.STRICT:
            ev.share_log.extend(ShareRecord(seq, seat, k, D, proof) for k, D, proof in items)

    def prepare_share(self, entry: Entry) -> Fold:
        t = self.t
        seat = t.expect(entry, EntryKind.SHARE)
        ev = self.event_of(entry.body)
        b = codec.check_map(
            entry.body, {"event": int, "positions": list, "shares": list, "proofs": list}, what="a share"
        )
        ks = _positions(b["positions"], ev.n, "the share's positions")
        work = t.work
        if not isinstance(work, (ShareWork, RevealWork)):
            raise TableRefusal("illegal", "the table waits for no share")
        owed = set(self.shares_owed(work).get((seat, ev.number), ()))
        if not set(ks) <= owed:
            raise TableRefusal("illegal", f"seat {seat} owes no share of those positions of event {ev.number}")
        problem = self._check_shares(entry, seat, ev, ks, b["shares"], b["proofs"])
        if problem:
            return t.cheat(entry, seat, problem)

        def fold() -> None:
            for k, D in zip(ks, b["shares"], strict=True):
                ev.shares[k][seat] = D
            self._keep_shares(ev, entry.seq, seat, zip(ks, b["shares"], b["proofs"], strict=True))

        return fold

    def prepare_reveal(self, entry: Entry) -> Fold:
        t = self.t
        seat = t.expect(entry, EntryKind.REVEAL)
        ev = self.event_of(entry.body)
        b = codec.check_map(entry.body, {"event": int, "items": list}, what="an owner's reveal")
        work = t.current(RevealWork)
        if ev.owner != seat:
            raise TableRefusal("not-your-turn", "only a private deck's owner reveals its cards")
        owed = self.reveals_owed(work).get(ev.number, [])
        items = b["items"]
        if any(type(i) is not list or len(i) != 6 or type(i[0]) is not int for i in items):
            raise TableRefusal(
                "malformed", "a reveal's items are [position, share, proof, card, salt, membership proof]"
            )
        ks = [i[0] for i in items]
        if ks != owed:
            raise TableRefusal("illegal", f"the reveal must cover positions {owed} of event {ev.number}")
        problem = self._check_shares(entry, seat, ev, ks, [i[1] for i in items], [i[2] for i in items])
        if problem:
            return t.cheat(entry, seat, problem)
        claims: dict[int, str] = {}
        for k, D, _proof, card, salt, membership in items:
            point = elgamal.decode(ev.cur[k], [self.decode_point_without(ev, k, seat), D])
            why = self._private_claim(ev, card, salt, membership, point)
            if why:
                return t.cheat(entry, seat, f"position {k} of event {ev.number}: {why}")
            if card in ev.public.values() or card in claims.values():
                return t.cheat(entry, seat, f"it claims {card!r} twice in its deck {ev.deck_name!r}")
            claims[k] = card

        def fold() -> None:
            for k, D, *_ in items:
                ev.shares[k][seat] = D
                ev.to[k] = None
            ev.public.update(claims)
            self._keep_shares(ev, entry.seq, seat, ((i[0], i[1], i[2]) for i in items))

        return fold

    def decode_point_without(self, ev: ShuffleEvent, k: int, seat: int) -> bytes:
        """Σ of every known share of position ``k`` but ``seat``'s (a point; the identity for none)."""
        shares = []
        for h in self.holders(ev):
            if h == seat:
                continue
            d = self.share_of(ev, k, h)
            if d is None:
                raise GameError(f"position {k} of event {ev.number} lacks the share of seat {h}")
            shares.append(d)
        return elgamal.psum(shares)

    def _finish_reveal(self, work: RevealWork) -> None:
        t = self.t
        outcomes = []
        for op in work.opens:
            idents = []
            for e, k in op.positions:
                ev = t.events[e]
                if ev.private:
                    ident = ev.public[k]
                else:
                    ident = ev.public_index.lookup.get(self.decode(ev, k), "")
                    ev.public[k] = ident
                ev.to[k] = None
                idents.append(ident)
            outcomes.append(tuple(idents))
        t.finish(outcomes)

    def _private_claim(self, ev: ShuffleEvent, card: Any, salt: Any, proof: Any, point: bytes) -> str | None:
        """Why the claim that ``point`` (every share removed) is ``card`` of a private deck fails, or
        None. The card must be on the owner's committed deck list (membership proof with its salt,
        leaf identity "<part>:<card>") and its card point must be ``point``. PROTOCOL.md 6.3."""
        if type(card) is not str:
            return "the card claimed is not a card identity"
        root = self.t.seats[ev.owner_seat].deck
        if root is None or not merkle.verify(root, f"{ev.part}:{card}", salt, proof):
            return f"{card!r} is not on the deck list its owner committed to"
        if group.card_point(self.t.table_id, ev.deck_name, card) != point:
            return f"the position does not hold {card!r}"
        return None

    # -- the cards a move opens -------------------------------------------------------------------

    def check_opens(self, seat: int, opens: dict[Pos, OpenedCard]) -> OpenCheck:
        """Check each card a move by ``seat`` opens: the position was opened to the seat, its share
        is proven, and the card is what the position holds (a public deck's card, or a private
        deck's card on its owner's list). Raises TableRefusal (illegal, malformed) for an open that
        is not the seat's to make; a failed proof or a false card is a cheat of the seat."""
        t = self.t
        revealed: dict[Pos, str] = {}
        opened = self.opened_to(seat)
        for (e, k), item in opens.items():
            if not 0 <= e < len(t.events) or (e, k) not in opened:
                raise TableRefusal("illegal", "that card was not dealt to you")
            ev = t.events[e]
            if ev.private != (item.membership is not None):
                raise TableRefusal(
                    "malformed", "a card of a private deck is opened with its salt and proof, and only such a card"
                )
            X = self.key_of(ev, seat)
            if t.checks != Checks.CHEAP and not elgamal.verify_share(
                t.table_id, e, seat, k, X, ev.cur[k][0], item.D, item.proof
            ):
                return OpenCheck(revealed, cheat=(seat, f"its share of position {k} of event {e} fails its proof"))
            point = elgamal.decode(ev.cur[k], [self.decode_point_without(ev, k, seat), item.D])
            if item.membership is not None:
                salt, proof = item.membership
                problem = self._private_claim(ev, item.card, salt, proof, point)
                if problem:
                    return OpenCheck(revealed, cheat=(seat, problem))
                seen = set(ev.public.values()) | {c for (ee, _), c in revealed.items() if ee == e}
                if item.card in seen:
                    return OpenCheck(
                        revealed, cheat=(ev.owner_seat, f"its deck {ev.deck_name!r} holds {item.card!r} twice")
                    )
            else:
                held = ev.public_index.lookup.get(point)
                if held != item.card:
                    return OpenCheck(
                        revealed, cheat=(seat, f"it claims {item.card!r}, but the position holds another card")
                    )
            revealed[(e, k)] = item.card
        return OpenCheck(revealed)

    def fold_opens(self, seq: int, seat: int, opens: dict[Pos, OpenedCard], revealed: dict[Pos, str]) -> None:
        """Fold the cards a checked move (log ``seq``) by ``seat`` opens: its shares are public and
        each card is public."""
        for (e, k), ident in revealed.items():
            ev = self.t.events[e]
            item = opens[(e, k)]
            ev.shares[k][seat] = item.D
            ev.public[k] = ident
            ev.to[k] = None
            self._keep_shares(ev, seq, seat, [(k, item.D, item.proof)])

    # -- complaints ---------------------------------------------------------------------------------

    def prepare_complaint(self, entry: Entry) -> Fold:
        """A recipient publishes its own share of a position opened to it that decodes to no card
        (PROTOCOL.md 6.3, item 5). For a public deck everyone decodes it at once: a card means a
        false complaint. For a private deck the owner must reveal its seed, list and salts."""
        t = self.t
        seat = t.author_seat(entry)
        if t.phase != Phase.RUNNING:
            raise TableRefusal("illegal", "complaints are for a running game")
        ev = self.event_of(entry.body)
        b = codec.check_map(
            entry.body, {"event": int, "position": int, "share": bytes, "proof": bytes}, what="a complaint"
        )
        k = b["position"]
        if not 0 <= k < ev.n or (ev.number, k) not in self.opened_to(seat) or ev.owner == seat or k in ev.public:
            raise TableRefusal("illegal", "a complaint is about a hidden position opened to its author, not its owner")
        if isinstance(t.work, SeedsWork) and t.work.purpose == "complaint":
            raise TableRefusal("illegal", "the table already settles a complaint")
        self._refuse_unless(
            elgamal.check_share_fields, b["share"], b["proof"], "the complaint's share", points=t.checks != Checks.CHEAP
        )
        if t.checks != Checks.CHEAP and not elgamal.verify_share(
            t.table_id, ev.number, seat, k, self.key_of(ev, seat), ev.cur[k][0], b["share"], b["proof"]
        ):
            return t.cheat(entry, seat, f"false complaint: its share of position {k} fails its proof")
        point = elgamal.decode(ev.cur[k], [self.decode_point_without(ev, k, seat), b["share"]])
        if not ev.private:
            held = ev.public_index.lookup.get(point)
            if held is not None:
                return t.cheat(entry, seat, f"false complaint: position {k} of event {ev.number} holds {held}")

        def fold() -> None:
            ev.shares[k][seat] = b["share"]
            self._keep_shares(ev, entry.seq, seat, [(k, b["share"], b["proof"])])
            if not ev.private:
                # Every shuffle and share was proven: a public deck cannot hold a point that is no
                # card. Nothing names a cheat; play cannot go on.
                t.stop(ProvenCheat(entry.seq, ev.order[0], f"position {k} of event {ev.number} holds no card"))
                return
            owner = ev.owner_seat
            t.notes.append(
                Note(
                    f"{{s{seat}}} complains about a card of {{s{owner}}}'s deck; {{s{owner}}} reveals its list.",
                    (seat, owner),
                )
            )
            t.queue = []
            waiting = [] if owner in ev.seeds and owner in t.lists else [owner]
            work = SeedsWork(ev.number, waiting, purpose="complaint", complainer=seat, complaint=point)
            t.work = work
            if not waiting:
                self._complaint_settled(entry, ev, work)

        return fold

    def _complaint_settled(self, entry: Entry, ev: ShuffleEvent, work: SeedsWork) -> None:
        """The owner revealed its list: the complained-of point is a card of its part (a false
        complaint) or not (the owner's `deck` held a card not on its list)."""
        t = self.t
        points = {group.card_point(t.table_id, ev.deck_name, c) for c in self._part(ev.owner_seat, ev.part)}
        complainer = work.complainer if work.complainer is not None else ev.order[0]
        if work.complaint in points:
            t.stop(ProvenCheat(entry.seq, complainer, "a complaint that the revealed list does not support"))
        else:
            seq = ev.deck_seq if ev.deck_seq is not None else entry.seq
            t.stop(ProvenCheat(seq, ev.owner_seat, f"its deck {ev.deck_name!r} holds a card not on its list"))
        t.notes.append(Note(f"The table stops: {t.fault.describe(t.names) if t.fault else ''}", ()))

    def _part(self, owner: int, part: str) -> list[str]:
        listed = self.t.lists.get(owner, [])
        prefix = part + ":"
        return [leaf[len(prefix) :] for leaf in listed if leaf.startswith(prefix)]

    # -- leaving and seeds ------------------------------------------------------------------------

    def prepare_key_reveal(self, entry: Entry) -> Fold:
        t = self.t
        seat = t.expect(entry, EntryKind.KEY_REVEAL)
        ev = self.event_of(entry.body)
        b = codec.check_map(entry.body, {"event": int, "x": codec.bin_of(32)}, what="a key reveal")
        work = t.current(ReleaseWork)
        if work.waiting[0] != (EntryKind.KEY_REVEAL.value, ev.number):
            raise TableRefusal("illegal", f"the table waits for the {work.waiting[0][0]} of event {work.waiting[0][1]}")
        if not elgamal.check_key_reveal(b["x"], ev.keys[seat]):
            return t.cheat(entry, seat, f"its revealed key share for event {ev.number} is not the one it published")

        def fold() -> None:
            ev.revealed_x[seat] = b["x"]
            work.waiting.pop(0)
            if not work.waiting:
                self._released(seat)

        return fold

    def prepare_seed_reveal(self, entry: Entry) -> Fold:
        t = self.t
        body = entry.body
        seat = t.expect(entry, EntryKind.SEED_REVEAL)
        ev = self.event_of(body)
        work = t.work
        if isinstance(work, SeedsWork):
            expected = work.event
        elif isinstance(work, ReleaseWork):
            expected = work.waiting[0][1]
        else:
            raise TableRefusal("illegal", "the table waits for no seed")
        if ev.number != expected:
            raise TableRefusal("illegal", f"the table waits for the seed of event {expected}")
        deck_list = None
        if isinstance(body, dict) and ("list" in body or "salts" in body):
            b = codec.check_map(
                body,
                {"event": int, "seed": codec.bin_of(32), "list": list, "salts": list},
                what="a seed reveal with a deck list",
            )
            root = t.seats[seat].deck
            if seat in t.lists or root is None:
                raise TableRefusal("illegal", "a deck list is revealed once, by a seat that committed to one")
            try:
                merkle.check_list(root, b["list"], b["salts"])
            except VampireError as err:
                return t.cheat(entry, seat, f"its revealed deck list does not match its commitment: {err}")
            deck_list = list(b["list"])
        else:
            b = codec.check_map(body, {"event": int, "seed": codec.bin_of(32)}, what="a seed reveal")
            if ev.private and ev.owner == seat and seat not in t.lists:
                raise TableRefusal("illegal", "the owner of a private deck reveals its deck list with its seed")
        seed: bytes = b["seed"]
        if ev.own_keys and codec.sha256("commit", t.table_id, ev.number, seat, seed) != ev.commits[seat]:
            return t.cheat(entry, seat, f"its seed for event {ev.number} does not match the commitment of its key")

        def fold() -> None:
            if deck_list is not None:
                t.lists[seat] = deck_list
            ev.seeds[seat] = seed
            match work:
                case ReleaseWork(waiting=waiting):
                    waiting.pop(0)
                    if not waiting:
                        self._released(seat)
                case SeedsWork(waiting=waiting) if seat in waiting:
                    waiting.remove(seat)
                    if not waiting:
                        if work.purpose == "complaint":
                            self._complaint_settled(entry, ev, work)
                        else:
                            self._seeds_in(entry, ev, work)

        return fold

    def _seeds_in(self, entry: Entry, ev: ShuffleEvent, work: SeedsWork) -> None:
        """Every seed of ``ev`` is in: recompute it (PROTOCOL.md 6.3, item 7); a step that differs
        from its author's seed, or a card not on its owner's list, is a proven cheat; else the cards
        are the outcome."""
        t = self.t
        # The seed reveal's recompute is a function of the log up to this entry, whose id binds
        # every byte of it: the tables of one process (the host's and the seats' of `vampire play`)
        # make it once.
        key = ("recompute", entry.id, ev.number, t.checks, id(t.rules))
        memo = group.VERIFY_MEMO.enabled
        known = _RECOMPUTED.get(key) if memo else None
        if known is None:
            known = self.recompute(ev)
            if memo:
                if len(_RECOMPUTED) >= 64:
                    _RECOMPUTED.clear()
                _RECOMPUTED[key] = known
        cards, fault = known
        if fault is None and cards is not None and t.checks == Checks.STRICT:
            fault = self.rederive(ev)
        if fault is not None:
            seq, seat, detail = fault
            t.stop(ProvenCheat(seq if seq is not None else entry.seq, seat, detail))
            t.notes.append(Note(f"The seed reveal proves that {{s{seat}}} cheated: {detail}", (seat,)))
            return
        ev.cards = cards
        if ev.private and cards is not None:
            wrong = self._owner_cards_wrong(ev.owner_seat)
            if wrong is not None:
                t.stop(ProvenCheat(entry.seq, ev.owner_seat, wrong))
                t.notes.append(
                    Note(f"The seed reveal proves that {{s{ev.owner_seat}}} cheated: {wrong}", (ev.owner_seat,))
                )
                return
        t.finish([tuple(cards or ())])

    def _owner_cards_wrong(self, owner: int) -> str | None:
        """Once every event of ``owner``'s private deck is decoded: why the cards at its live
        positions (those no later event took as its source) are not its list, each identity exactly
        once (PROTOCOL.md 6.3, item 7), or None. None too while an event of it is not decoded."""
        t = self.t
        mine = [ev for ev in t.events if ev.private and ev.owner == owner]
        if any(ev.cards is None for ev in mine) or owner not in t.lists:
            return None
        gone = {p for ev in t.events for p in ev.source}
        for part in sorted({ev.part for ev in mine}):
            found = sorted(
                c
                for ev in mine
                if ev.part == part and ev.cards is not None
                for k, c in enumerate(ev.cards)
                if (ev.number, k) not in gone and c is not None
            )
            listed = sorted(self._part(owner, part))
            if found != listed:
                twice = sorted({c for c in found if found.count(c) > 1})
                missing = sorted(set(listed) - set(found))
                what = (
                    f"{twice[0]!r} is in it twice"
                    if twice
                    else f"{missing[0]!r} is missing"
                    if missing
                    else "it differs"
                )
                return f"the cards of its {part} in play are not its list: {what}"
        return None

    def recompute(self, ev: ShuffleEvent) -> tuple[tuple[str | None, ...] | None, tuple[int | None, int, str] | None]:
        """Recompute ``ev`` from the revealed seeds and the log (PROTOCOL.md 6.3, item 7): every key
        share (x·G = X), the owner's `deck` against its list, the output cards of every shuffle
        whose author's seed is known, then decrypt every position with the recomputed keys and
        check every claim. Proofs and shares are not recomputed here: each was verified when it
        arrived (:meth:`rederive` does that for a strict table). Returns (cards, None), or (None,
        (seq, seat, sentence)) for the first fault; cards are None when a key share is unknown (a
        seat that abandoned). A table of :attr:`Checks.CHEAP` recomputes neither the `deck` nor
        the shuffles: it decrypts."""
        t = self.t
        root = self.root(ev)
        joint = ev.joint
        if joint is None:
            return None, None
        x_total = bytes(32)
        for h in root.order:
            x = root.revealed_x.get(h)
            if x is None:
                seed = root.seeds.get(h)
                if seed is None:
                    return None, None
                x = elgamal.key_share(seed, t.table_id, root.number, h)
                if group.base_mult(x) != root.keys[h]:
                    return None, (
                        root.key_seqs.get(h),
                        h,
                        f"its revealed seed does not give its key of event {root.number}",
                    )
            x_total = group.scalar_add(x_total, x)
        part = self._part(ev.owner_seat, ev.part) if ev.private else []
        full = t.checks != Checks.CHEAP
        if full and ev.needs_deck and ev.owner_seat in ev.seeds and not ev.source:
            s = elgamal.ElGamalSecrets.derive(
                ev.seeds[ev.owner_seat], t.table_id, ev.number, ev.owner_seat, ev.n, owner=True
            )
            points = [group.card_point(t.table_id, ev.deck_name, c) for c in part]
            try:
                ok = len(points) == ev.n and elgamal.private_deck(s, joint, points) == ev.initial
            except (deck.DeckProofError, group.GroupError):
                ok = False
            if not ok:
                return None, (
                    ev.deck_seq,
                    ev.owner_seat,
                    f"its deck entry for {ev.deck_name!r} is not its list encrypted with its seed",
                )
        for rec in ev.shuffles if full else ():
            seed = ev.seeds.get(rec.seat)
            if seed is None:
                continue
            s = elgamal.ElGamalSecrets.derive(seed, t.table_id, ev.number, rec.seat, ev.n)
            # Every x·G = X was checked above: H_e = (Σ x)·G, so ρ·H_e is a fixed-base multiplication.
            if tuple(elgamal.reencrypt(rec.inputs, s.perm, s.rho, joint, joint_log=x_total)) != rec.outputs:
                return None, (rec.seq, rec.seat, f"its revealed seed does not give its shuffle of event {ev.number}")
        lookup: dict[bytes, str]
        if ev.index is not None:
            lookup = dict(ev.index.lookup)
        else:
            lookup = {group.card_point(t.table_id, ev.deck_name, c): c for c in part}
        cards: list[str | None] = []
        for k, (c1, c2) in enumerate(ev.cur):
            ident = lookup.get(elgamal.psub(c2, elgamal.pmul(x_total, c1)))
            if ident is None:
                blamed = ev.owner_seat if ev.private else ev.order[0]
                return None, (ev.deck_seq, blamed, f"position {k} of event {ev.number} holds a card not on its list")
            if k in ev.public and ev.public[k] != ident:
                return None, (None, ev.order[0], f"position {k} was claimed as {ev.public[k]} but holds {ident}")
            cards.append(ident)
        return tuple(cards), None

    # -- the strict audit's re-derivation ---------------------------------------------------------

    def _x_of(self, ev: ShuffleEvent, seat: int) -> bytes | None:
        """``seat``'s key share x for ``ev`` (its keys event's): revealed when it left, or derived
        from its revealed seed of that event; None when neither is known."""
        root = self.root(ev)
        x = root.revealed_x.get(seat)
        if x is None and seat in root.seeds:
            x = elgamal.key_share(root.seeds[seat], self.t.table_id, root.number, seat)
        return x

    def rederive(self, ev: ShuffleEvent) -> tuple[int | None, int, str] | None:
        """Re-derive from the revealed seeds every key proof, proof of shuffle and decryption share
        of ``ev`` as PROTOCOL.md 6.2 says (their nonces too come from the seed), and compare them
        byte for byte with those the log holds (PROTOCOL.md 6.3, item 7: ``vampire audit
        --strict``). Run after :meth:`recompute` found the keys and cards right. Returns None, or
        (seq, seat, sentence) for the earliest entry whose proof or share its author did not derive
        from its seed. Counts what it re-derived in :attr:`rederived`, and in :attr:`underived`
        what it could not (an author whose seed of the event was never revealed: a seat that left
        keeps the seeds of other decks' events). Costs about what making them cost."""
        t = self.t
        joint = ev.joint
        if joint is None:
            return None
        faults: list[tuple[int | None, int, str]] = []
        secrets: dict[int, elgamal.ElGamalSecrets] = {}

        def secrets_of(seat: int) -> elgamal.ElGamalSecrets | None:
            seed = ev.seeds.get(seat)
            if seed is None:
                return None
            if seat not in secrets:
                secrets[seat] = elgamal.ElGamalSecrets.derive(seed, t.table_id, ev.number, seat, ev.n)
            return secrets[seat]

        def count(done: bool) -> None:
            if done:
                self.rederived += 1
            else:
                self.underived += 1

        if ev.own_keys:
            for h in ev.order:
                s = secrets_of(h)
                count(s is not None)
                if s is not None and elgamal.key_proof(s) != ev.poks.get(h):
                    faults.append(
                        (ev.key_seqs.get(h), h, f"its key proof for event {ev.number} was not derived from its seed")
                    )
        for rec in ev.shuffles:
            s = secrets_of(rec.seat)
            count(s is not None)
            if s is None:
                continue
            context = shuffle_proof.shuffle_context(t.table_id, ev.number, rec.seat)
            made = shuffle_proof.prove(context, joint, rec.inputs, rec.outputs, s.perm, s.rho, s.nonce_key)
            if codec.encode(made) != codec.encode(rec.proof):
                faults.append(
                    (rec.seq, rec.seat, f"its proof of shuffle of event {ev.number} was not derived from its seed")
                )
        for share in ev.share_log:
            s = secrets_of(share.seat)
            x = self._x_of(ev, share.seat)
            count(s is not None and x is not None)
            if s is None or x is None:
                continue
            c1 = ev.cur[share.position][0]
            ctx = elgamal.share_context(t.table_id, ev.number, share.seat, share.position)
            D = group.mult(x, c1, "c1")
            X = self.key_of(ev, share.seat)
            if D != share.D or group.dleq_prove(x, G, X, c1, D, s.nonce_key, ctx) != share.proof:
                faults.append(
                    (
                        share.seq,
                        share.seat,
                        f"its share of position {share.position} of event {ev.number} was not derived from its seed",
                    )
                )
        if not faults:
            return None
        return min(faults, key=lambda f: -1 if f[0] is None else f[0])
