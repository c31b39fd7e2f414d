"""The deck protocol's public state (PROTOCOL.md 6.2, 6.3): one :class:`ShuffleEvent` per event,
the records it keeps for the seed reveal, the proof of a `shuffle` folded before it is verified
(:class:`UnverifiedProof`), and :class:`EventBook`, what every part of the deck protocol
(:mod:`engine.table.hidden`) reads from the table's events: which event an entry names, whose key
shares an event uses, the decryption shares known of a position and what they decode to.

Nothing here changes the table; only :class:`EventBook` writes, and only to an event: the shares a
strict table keeps for its seed reveal (:meth:`EventBook.keep_shares`).
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.games.base import GameError, Pos
from engine.protocol import codec, deck, elgamal, group, merkle, shuffle_proof
from engine.protocol.elgamal import Ciphertext
from engine.table.vocab import Checks, TableRefusal

if TYPE_CHECKING:
    from engine.table.table import Table

REFUSED = (deck.BadBody, group.BadPoint, group.BadScalar, codec.SchemaError)
"""Errors of the cheap checks (PROTOCOL.md 6.5): an entry failing them is refused as malformed."""


def refuse_unless(check: Any, *args: Any, **kwargs: Any) -> None:
    """Run a cheap check (PROTOCOL.md 6.5); its error is a refusal (:class:`TableRefusal`,
    malformed)."""
    try:
        check(*args, **kwargs)
    except REFUSED as err:
        raise TableRefusal("malformed", str(err)) from None


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


class EventBook:
    """Reads the table's shuffle events (:attr:`Table.events`) for the parts of the deck protocol
    and for the seats (their keys, the shares known of a position, what it decodes to)."""

    def __init__(self, table: Table) -> None:
        self.t = table

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
        return None if x is None else _departed_share(x, ev.cur[k][0])

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

    def private_claim(self, ev: ShuffleEvent, card: Any, salt: Any, proof: Any, point: bytes) -> str | None:
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

    def part_list(self, owner: int, part: str) -> list[str]:
        """The cards of ``part`` ("library") on ``owner``'s revealed deck list, in list order; empty
        before the owner revealed its list (PROTOCOL.md 6.3, item 7)."""
        listed = self.t.lists.get(owner, [])
        prefix = part + ":"
        return [leaf[len(prefix) :] for leaf in listed if leaf.startswith(prefix)]

    def keep_shares(self, ev: ShuffleEvent, seq: int, seat: int, items: Any) -> None:
        """Keep the shares (position, D, proof) an entry published, for a strict table's seed reveal."""
        if self.t.checks == Checks.STRICT:
            ev.share_log.extend(ShareRecord(seq, seat, k, D, proof) for k, D, proof in items)


@functools.lru_cache(maxsize=1 << 12)
def _departed_share(x: bytes, c1: bytes) -> bytes:
    """x·c1: the share of a seat that revealed its key share ``x`` (32-byte scalar) for a position
    whose ciphertext's first point is ``c1``. A pure function of public values, kept (bounded) so
    a position's share is computed once, not at every move that asks whom it is opened to. Raises
    as :func:`engine.protocol.group.mult` (an error is not kept)."""
    return group.mult(x, c1, "c1")
