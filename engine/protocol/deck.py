"""The deck protocol: one participant's secrets for one shuffle event, the bodies of its entries
(`shuffle`, `lock`, `unlock`, `reveal`, `complaint`, `seed-reveal`) and their checks, and the
audit of a whole event once its seeds are revealed (PROTOCOL.md 6; bytes in docs/protocol.md, part 2).

Every function is pure: no I/O, no clock, no global state; a participant's randomness is its
32-byte seed, drawn and saved by the caller. A ``make_*`` function builds a body from secrets and
public inputs; the matching ``check_*`` function checks a received body against the public inputs
and returns what it establishes, or raises a :class:`DeckProofError` subclass with a sentence.

Notation (PROTOCOL.md 6): n positions; participants act in seat order from the event's first
participant; L is the last of them. Points and scalars are 32-byte encodings (engine.protocol.group).
Permutation convention: a shuffle's output position j takes its input position σ(j):
X'_j = a·X_{σ(j)}.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import VampireError
from engine.protocol import codec, group
from engine.protocol.codec import SchemaError
from engine.protocol.group import G

# --- errors ------------------------------------------------------------------------------------


class DeckProofError(VampireError):
    """Base of the errors of the deck protocol: a body that breaks PROTOCOL.md 6. The message is
    a sentence (its first letter is capitalised here)."""

    def __init__(self, message: str) -> None:
        super().__init__(message[:1].upper() + message[1:])


class BadBody(DeckProofError):
    """A body with a missing, unknown or mistyped field, a wrong event, count or position."""


class BadPoint(DeckProofError, group.BadPoint):
    """A point that is not canonical, not in the main subgroup, or of small order."""


class BadScalar(DeckProofError, group.BadScalar):
    """A scalar that is not canonical (< ℓ) or is zero."""


class DuplicatePoints(DeckProofError):
    """Two outputs of one pass (or two locks) are equal."""


class BadProof(DeckProofError):
    """A DLEQ proof that does not verify."""


class BadReveal(DeckProofError):
    """A published lock key whose multiple of G is not the lock it claims to open, or an opened
    card that is not the one claimed."""


class BadSeed(DeckProofError):
    """A revealed seed that does not match its commitment."""


class FalseComplaint(DeckProofError):
    """A complaint whose position decodes to a good card not seen elsewhere."""


# --- card points -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardIndex:
    """The card points of one deck at one table, computed once and kept by the caller (the cache
    of card points per (table, deck)).

    ``points``: the 32-byte card point M(card) of each identity of ``cards``, in the same order;
    ``lookup``: card point -> identity, to decode an opened position.
    """

    table: bytes
    deck: str
    cards: tuple[str, ...]
    points: tuple[bytes, ...] = field(repr=False)
    lookup: Mapping[bytes, str] = field(repr=False, compare=False)

    @classmethod
    def build(cls, table: bytes, deck: str, cards: Sequence[str]) -> CardIndex:
        """Card points of ``cards`` (identities, one per physical card) for deck ``deck`` at
        ``table`` (32-byte id). Raises :class:`DeckProofError` if an identity appears twice."""
        cards = tuple(cards)
        points = tuple(group.card_point(table, deck, c) for c in cards)
        lookup = dict(zip(points, cards, strict=False))
        if len(lookup) != len(cards):
            twice = next(c for i, c in enumerate(cards) if c in cards[:i])
            raise DeckProofError(f"the deck {deck!r} lists the card identity {twice!r} twice.")
        return cls(table, deck, cards, points, lookup)


# --- secrets -----------------------------------------------------------------------------------


def _check_ids(table: Any, event: Any, seat: Any) -> None:
    try:
        codec.check_bytes(table, 32, "the table id")
        codec.check_int(event, "the event number", 0)
        codec.check_int(seat, "the seat number", 0)
    except SchemaError as err:
        raise DeckProofError(str(err)) from None


def permutation(seed: bytes, table: bytes, event: int, seat: int, n: int) -> tuple[int, ...]:
    """σ, the shuffle permutation of ``n`` positions for one participant: a tuple where
    ``σ[j]`` is the input position that output position j takes.

    Fisher–Yates (i from n−1 down to 1, swap perm[i] with perm[j], j uniform in [0, i]) driven by
    SHAKE-256 of ``hash_input("permutation", table, event, seat, n, seed)``, read as consecutive
    8-byte big-endian integers v; for a draw in [0, m), v is discarded when
    v ≥ 2^64 − (2^64 mod m) and else gives v mod m. PROTOCOL.md 6.
    """
    xof = hashlib.shake_256(codec.hash_input("permutation", table, event, seat, n, seed))
    size = 8 * n + 64
    stream = xof.digest(size)
    pos = 0
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        m = i + 1
        limit = 2**64 - (2**64 % m)
        while True:
            if pos + 8 > len(stream):  # a long run of rejections: read further into the XOF
                size *= 2
                stream = xof.digest(size)
            v = int.from_bytes(stream[pos : pos + 8], "big")
            pos += 8
            if v < limit:
                break
        j = v % m
        perm[i], perm[j] = perm[j], perm[i]
    return tuple(perm)


@dataclass(frozen=True)
class EventSecrets:
    """One participant's secrets for one shuffle event, all derived from its 32-byte ``seed``
    with the table, event and seat in every derivation (PROTOCOL.md 6, "Seeds and derivations").

    ``commit``: 32 bytes, SHA-256 of ["vampire-table/commit/v1", table, event, seat, seed];
    ``shuffle_key``: a, a scalar; ``perm``: σ (see :func:`permutation`); ``lock_keys``: b_k, one
    scalar per position k; ``nonce_key``: 32 bytes keying the DLEQ nonces.
    """

    table: bytes
    event: int
    seat: int
    n: int
    seed: bytes = field(repr=False)
    commit: bytes
    shuffle_key: bytes = field(repr=False)
    perm: tuple[int, ...] = field(repr=False)
    lock_keys: tuple[bytes, ...] = field(repr=False)
    nonce_key: bytes = field(repr=False)

    @classmethod
    def derive(cls, seed: bytes, table: bytes, event: int, seat: int, n: int) -> EventSecrets:
        """Derive every secret of ``seat`` for event ``event`` (int >= 0) of ``table`` (32-byte
        id) over ``n`` >= 1 positions from ``seed`` (32 bytes). Raises :class:`DeckProofError` for
        inputs of the wrong type or size."""
        _check_ids(table, event, seat)
        if type(seed) is not bytes or len(seed) != 32:
            raise DeckProofError("a seed must be 32 bytes.")
        if type(n) is not int or n < 1:
            raise DeckProofError("an event must have at least one position.")
        ids = (table, event, seat)
        return cls(
            table=table,
            event=event,
            seat=seat,
            n=n,
            seed=seed,
            commit=codec.sha256("commit", *ids, seed),
            shuffle_key=group.hash_to_scalar("shuffle-key", *ids, seed),
            perm=permutation(seed, table, event, seat, n),
            lock_keys=tuple(group.hash_to_scalar("lock-key", *ids, k, seed) for k in range(n)),
            nonce_key=codec.sha256("nonce-key", *ids, seed),
        )

    @property
    def A(self) -> bytes:
        """A = a·G, the shuffle key's public point (32 bytes)."""
        return group.base_mult(self.shuffle_key)


def proof_context(table: bytes, event: int, seat: int, kind: str, position: int) -> list[Any]:
    """The context of a DLEQ proof: the array [table, event, seat, kind, position] (kind is the
    entry kind, "lock" or "unlock"; seat is the prover's). PROTOCOL.md 6."""
    return [table, event, seat, kind, position]


# --- body checking helpers ---------------------------------------------------------------------


def _fields(body: Any, spec: Mapping[str, codec.Spec], what: str) -> dict[str, Any]:
    try:
        return codec.check_map(body, spec, what=what)
    except SchemaError as err:
        raise BadBody(str(err)) from None


def _expect_event(body: Mapping[str, Any], event: int, what: str) -> None:
    if body["event"] != event:
        raise BadBody(f"{what} is for event {body['event']}, not event {event}.")


def _bin_list(value: Any, size: int, count: int, what: str) -> list[bytes]:
    try:
        return codec.check_list(value, codec.bin_of(size), what, count, count)
    except SchemaError as err:
        raise BadBody(str(err)) from None


def _check_point_at(p: bytes, k: int, what: str) -> None:
    if not group.is_point(p):
        raise BadPoint(
            f"{what} for position {k} is not a canonical point of the main subgroup (or it is of small order)."
        )


def _check_points(points: Sequence[bytes], what: str) -> None:
    for k, p in enumerate(points):
        _check_point_at(p, k, what)


def _check_distinct(values: Sequence[bytes], what: str, labels: Sequence[int] | None = None) -> None:
    if len(set(values)) == len(values):
        return
    first: dict[bytes, int] = {}
    for i, v in enumerate(values):
        if v in first:
            a, b = first[v], i
            if labels is not None:
                a, b = labels[a], labels[b]
            raise DuplicatePoints(f"{what} for positions {a} and {b} are equal.")
        first[v] = i


def _positions(value: Any, n: int, what: str) -> list[int]:
    try:
        positions = codec.check_list(value, codec.int_in(0, n - 1), what, 1, n)
    except SchemaError as err:
        raise BadBody(str(err)) from None
    if any(a >= b for a, b in itertools.pairwise(positions)):
        raise BadBody(f"{what} must be in increasing order, each once.")
    return positions


def _require_len(values: Sequence[Any], n: int, what: str) -> None:
    if len(values) != n:
        raise DeckProofError(f"{what} has {len(values)} points, not {n}.")


# --- pass 1 and L's step: `shuffle` -------------------------------------------------------------


@dataclass(frozen=True)
class Shuffled:
    """A checked `shuffle` body. ``points``: the n output points; ``A``: a·G for pass 1 (else
    None); ``locks``: B_{L,j} = b_{L,j}·G per position for L's step (else None)."""

    commit: bytes
    points: tuple[bytes, ...]
    A: bytes | None
    locks: tuple[bytes, ...] | None


def make_shuffle_pass(secrets: EventSecrets, inputs: Sequence[bytes], *, last: bool) -> dict[str, Any]:
    """The body of this participant's `shuffle` entry.

    ``inputs``: the n points X (the card points for the first participant, else the previous
    shuffle's output). Pass 1 (``last`` False): X'_j = a·X_{σ(j)}, body
    {"event", "commit", "points", "A"}. L's step (``last`` True): X'_j = b_{L,j}·X_{σ(j)},
    body {"event", "commit", "points", "locks"} with locks B_{L,j} = b_{L,j}·G.
    Raises group.BadPoint for an invalid input point. PROTOCOL.md 6, "Pass 1" and "L's step".
    """
    s = secrets
    _require_len(inputs, s.n, "the input of the shuffle")
    body: dict[str, Any] = {"event": s.event, "commit": s.commit}
    if last:
        body["points"] = [group.mult(s.lock_keys[j], inputs[i], f"input point {i}") for j, i in enumerate(s.perm)]
        body["locks"] = [group.base_mult(b) for b in s.lock_keys]
    else:
        body["points"] = [group.mult(s.shuffle_key, inputs[i], f"input point {i}") for i in s.perm]
        body["A"] = s.A
    return body


def check_shuffle_pass(body: Any, *, event: int, seat: int, n: int, last: bool) -> Shuffled:
    """Check a received `shuffle` body by ``seat`` for ``event`` over ``n`` positions; ``last``
    says whether the author is L (body with ``locks``) or not (body with ``A``).

    Checks the fields, that every point (and A or every lock) is a valid point, and that the
    points are pairwise distinct (and the locks too). Pass 1 carries no proof: what it did with
    its input is checked only at the seed reveal (:func:`recompute_event`).
    Raises BadBody, BadPoint, DuplicatePoints. PROTOCOL.md 6.
    """
    what = f"seat {seat}'s shuffle"
    spec: dict[str, codec.Spec] = {"event": int, "commit": codec.bin_of(32), "points": list}
    if last:
        spec["locks"] = list
    else:
        spec["A"] = codec.bin_of(32)
    b = _fields(body, spec, what)
    _expect_event(b, event, what)
    points = _bin_list(b["points"], 32, n, f"{what}'s points")
    _check_distinct(points, f"{what}'s points")
    _check_points(points, f"{what}'s point")
    if last:
        locks = _bin_list(b["locks"], 32, n, f"{what}'s locks")
        _check_distinct(locks, f"{what}'s locks")
        _check_points(locks, f"{what}'s lock")
        return Shuffled(b["commit"], tuple(points), None, tuple(locks))
    if not group.is_point(b["A"]):
        raise BadPoint(f"{what}'s A is not a canonical point of the main subgroup (or is of small order).")
    return Shuffled(b["commit"], tuple(points), b["A"], None)


# --- pass 2: `lock` ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Locked:
    """A checked `lock` body: ``points`` Y'_k and ``locks`` B_k = b_k·G, one per position."""

    points: tuple[bytes, ...]
    locks: tuple[bytes, ...]


def make_lock_pass(secrets: EventSecrets, inputs: Sequence[bytes]) -> dict[str, Any]:
    """The body {"event", "points", "locks", "proofs"} of this participant's `lock` entry.

    ``inputs``: the n points Y (L's output for the first locker, else the previous lock output).
    For each position k: t_k = b_k·a⁻¹, Y'_k = t_k·Y_k, B_k = b_k·G, and a 64-byte DLEQ proof with
    x = t_k, B1 = Y_k, P1 = Y'_k, B2 = A, P2 = B_k in context
    [table, event, seat, "lock", k]. Raises group.BadPoint for an invalid input. PROTOCOL.md 6.
    """
    s = secrets
    _require_len(inputs, s.n, "the input of the lock pass")
    a_inv = group.invert(s.shuffle_key)
    A = s.A
    points, locks, proofs = [], [], []
    for k, (b, y) in enumerate(zip(s.lock_keys, inputs, strict=False)):
        t = group.scalar_mul(b, a_inv)
        y2 = group.mult(t, y, f"input point {k}")
        lock = group.base_mult(b)
        ctx = proof_context(s.table, s.event, s.seat, "lock", k)
        points.append(y2)
        locks.append(lock)
        proofs.append(group.dleq_prove(t, y, y2, A, lock, s.nonce_key, ctx))
    return {"event": s.event, "points": points, "locks": locks, "proofs": proofs}


def check_lock_pass(
    body: Any, *, table: bytes, event: int, seat: int, n: int, inputs: Sequence[bytes], A: bytes
) -> Locked:
    """Check a received `lock` body by ``seat``.

    ``inputs``: the n points Y the pass took (already checked when received); ``A``: the seat's
    A from its pass-1 `shuffle`. Checks the fields, that points and locks are each pairwise
    distinct, and every proof (the proof's scalar multiplications check every point; on a
    failure the bad point, if any, is named). Raises BadBody, DuplicatePoints, BadPoint,
    BadProof. PROTOCOL.md 6, "Pass 2".
    """
    what = f"seat {seat}'s lock"
    b = _fields(body, {"event": int, "points": list, "locks": list, "proofs": list}, what)
    _expect_event(b, event, what)
    points = _bin_list(b["points"], 32, n, f"{what}'s points")
    locks = _bin_list(b["locks"], 32, n, f"{what}'s locks")
    proofs = _bin_list(b["proofs"], group.PROOF_BYTES, n, f"{what}'s proofs")
    _require_len(inputs, n, "the input of the lock pass")
    _check_distinct(points, f"{what}'s points")
    _check_distinct(locks, f"{what}'s locks")
    for k in range(n):
        ctx = proof_context(table, event, seat, "lock", k)
        if not group.dleq_verify(inputs[k], points[k], A, locks[k], proofs[k], ctx):
            _check_point_at(points[k], k, f"{what}'s point")
            _check_point_at(locks[k], k, f"{what}'s lock")
            raise BadProof(f"{what}: the proof for position {k} does not verify.")
    return Locked(tuple(points), tuple(locks))


# --- opening to one seat: `unlock` -------------------------------------------------------------


@dataclass(frozen=True)
class Unlocked:
    """A checked `unlock` body: for seat ``to``, the new point U'_k of each of ``positions``."""

    to: int
    positions: tuple[int, ...]
    points: tuple[bytes, ...]

    def as_dict(self) -> dict[int, bytes]:
        """position -> new point."""
        return dict(zip(self.positions, self.points, strict=False))


def make_unlock(
    secrets: EventSecrets, to: int, positions: Sequence[int], current: Mapping[int, bytes] | Sequence[bytes]
) -> dict[str, Any]:
    """The body {"event", "to", "positions", "points", "proofs"} of an `unlock` to seat ``to``.

    ``positions``: ints (sorted and deduplicated here); ``current[k]``: the point U_k now at
    position k on its way to ``to`` (the last lock output, or the previous unlocker's output).
    For each k:
    U'_k = b_k⁻¹·U_k and a DLEQ proof with x = b_k, B1 = U'_k, P1 = U_k, B2 = G, P2 = B_k in
    context [table, event, seat, "unlock", k]. Raises group.BadPoint. PROTOCOL.md 6, "Opening a
    position to one seat".
    """
    s = secrets
    positions = sorted(set(positions))
    points, proofs = [], []
    for k in positions:
        b = s.lock_keys[k]
        u = current[k]
        u2 = group.mult(group.invert(b), u, f"the point at position {k}")
        ctx = proof_context(s.table, s.event, s.seat, "unlock", k)
        points.append(u2)
        proofs.append(group.dleq_prove(b, u2, u, G, group.base_mult(b), s.nonce_key, ctx))
    return {"event": s.event, "to": to, "positions": list(positions), "points": points, "proofs": proofs}


def check_unlock(
    body: Any,
    *,
    table: bytes,
    event: int,
    seat: int,
    n: int,
    to: int,
    current: Mapping[int, bytes],
    locks: Sequence[bytes],
) -> Unlocked:
    """Check a received `unlock` body by ``seat`` for seat ``to``.

    ``current``: position -> the point U_k the unlock takes, for every position waiting for this
    seat's unlock to ``to``; ``locks``: the seat's n locks B_{seat,k}. Checks the fields, that
    every listed position is waiting, that the new points are pairwise distinct, and every
    proof. Raises BadBody, DuplicatePoints, BadPoint, BadProof. PROTOCOL.md 6.
    """
    what = f"seat {seat}'s unlock"
    spec = {"event": int, "to": int, "positions": list, "points": list, "proofs": list}
    b = _fields(body, spec, what)
    _expect_event(b, event, what)
    if b["to"] != to:
        raise BadBody(f"{what} is addressed to seat {b['to']}, not seat {to}.")
    positions = _positions(b["positions"], n, f"{what}'s positions")
    points = _bin_list(b["points"], 32, len(positions), f"{what}'s points")
    proofs = _bin_list(b["proofs"], group.PROOF_BYTES, len(positions), f"{what}'s proofs")
    for k in positions:
        if k not in current:
            raise BadBody(f"{what} lists position {k}, which is not waiting for it.")
    _check_distinct(points, f"{what}'s points", positions)
    for k, u2, proof in zip(positions, points, proofs, strict=False):
        ctx = proof_context(table, event, seat, "unlock", k)
        if not group.dleq_verify(u2, current[k], G, locks[k], proof, ctx):
            _check_point_at(u2, k, f"{what}'s point")
            raise BadProof(f"{what}: the proof for position {k} does not verify.")
    return Unlocked(to, tuple(positions), tuple(points))


# --- opening to everyone: `reveal` and `open` --------------------------------------------------


def remove_lock(key: bytes, point: bytes) -> bytes:
    """key⁻¹·point: the point with one lock removed (32 bytes). Raises group.BadScalar /
    group.BadPoint."""
    return group.mult(group.invert(key), point)


def check_key(key: Any, lock: bytes, what: str) -> bytes:
    """Check a published lock key: a canonical non-zero scalar with key·G = ``lock``.
    Returns ``key``. Raises BadScalar, BadReveal. PROTOCOL.md 6, "Opening a position to
    everyone"."""
    if not group.is_scalar(key):
        raise BadScalar(f"{what} is not a canonical non-zero scalar.")
    if group.base_mult(key) != lock:
        raise BadReveal(f"{what} does not open its lock (key·G differs from the published lock).")
    checked: bytes = key
    return checked


def make_reveal(secrets: EventSecrets, positions: Sequence[int]) -> dict[str, Any]:
    """The body {"event", "positions", "keys"} of a `reveal`: the lock key b_k (32 bytes) of
    each of ``positions`` (ints; sorted and deduplicated here). PROTOCOL.md 6."""
    positions = sorted(set(positions))
    return {
        "event": secrets.event,
        "positions": positions,
        "keys": [secrets.lock_keys[k] for k in positions],
    }


@dataclass(frozen=True)
class Revealed:
    """A checked `reveal` body: the published ``keys`` of ``positions`` and the ``points`` left
    once each key's lock is removed (key⁻¹·U_k)."""

    positions: tuple[int, ...]
    keys: tuple[bytes, ...]
    points: tuple[bytes, ...]


def check_reveal(
    body: Any,
    *,
    event: int,
    seat: int,
    n: int,
    current: Mapping[int, bytes],
    locks: Sequence[bytes],
) -> Revealed:
    """Check a received `reveal` body by ``seat``: every key is a scalar with b_k·G = B_{seat,k}
    (``locks``), every position is waiting for it (``current``: position -> the point U_k still
    locked by this seat); returns the points with the seat's locks removed. Raises BadBody,
    BadScalar, BadReveal. PROTOCOL.md 6."""
    what = f"seat {seat}'s reveal"
    b = _fields(body, {"event": int, "positions": list, "keys": list}, what)
    _expect_event(b, event, what)
    positions = _positions(b["positions"], n, f"{what}'s positions")
    keys = _bin_list(b["keys"], 32, len(positions), f"{what}'s keys")
    points = []
    for k, key in zip(positions, keys, strict=False):
        if k not in current:
            raise BadBody(f"{what} lists position {k}, which is not waiting for it.")
        check_key(key, locks[k], f"{what}'s key for position {k}")
        points.append(remove_lock(key, current[k]))
    return Revealed(tuple(positions), tuple(keys), tuple(points))


def check_open(key: Any, lock: bytes, point: bytes, card: bytes, what: str) -> None:
    """Check one opened card of a move's ``open`` list: ``key`` opens ``lock`` and removes the
    last lock of ``point`` to give the claimed card point ``card`` (key·card = point).
    Raises BadScalar, BadReveal. PROTOCOL.md 6."""
    check_key(key, lock, what)
    if group.mult(key, card) != point:
        raise BadReveal(f"{what} does not open to the card claimed.")


def decode_point(point: bytes, index: Mapping[bytes, str], key: bytes | None = None) -> str | None:
    """The card identity at ``point`` once the last lock ``key`` is removed (R's private
    decode: b_{R,k}⁻¹·U); ``key`` None when the point carries no lock. Returns None when the
    point is no card of ``index`` (card point -> identity, e.g. CardIndex.lookup).
    Raises group.BadPoint / group.BadScalar. PROTOCOL.md 6."""
    return index.get(point if key is None else remove_lock(key, point))


# --- complaint ---------------------------------------------------------------------------------


def make_complaint(secrets: EventSecrets, position: int) -> dict[str, Any]:
    """The body {"event", "position", "key"} of a `complaint` about ``position``, opened to this
    seat, that decodes to no card or to one already seen. PROTOCOL.md 6, "A card that is not a
    card"."""
    return {"event": secrets.event, "position": position, "key": secrets.lock_keys[position]}


def check_complaint(
    body: Any,
    *,
    event: int,
    seat: int,
    n: int,
    lock: bytes,
    point: bytes,
    index: Mapping[bytes, str],
    seen: Collection[str] = (),
) -> str:
    """Check a `complaint` by ``seat``. ``lock``: B_{seat,k} of the position; ``point``: the
    point U_k opened to the seat (after every other participant's unlock); ``index``: card
    point -> identity; ``seen``: identities the checker knows to be elsewhere in this event.

    Returns a sentence saying what is wrong with the position (the complaint is then proven).
    Raises BadBody, BadScalar, BadReveal (the key is not the seat's), FalseComplaint (the
    position holds a good card). PROTOCOL.md 6.
    """
    what = f"seat {seat}'s complaint"
    b = _fields(body, {"event": int, "position": codec.int_in(0, n - 1), "key": codec.bin_of(32)}, what)
    _expect_event(b, event, what)
    k = b["position"]
    check_key(b["key"], lock, f"{what}'s key")
    card = decode_point(point, index, b["key"])
    if card is None:
        return f"Position {k} of event {event} holds no card of the deck."
    if card in seen:
        return f"Position {k} of event {event} holds {card!r}, a card already seen in the event."
    raise FalseComplaint(f"{what} is false: position {k} holds a good card.")


# --- seed reveal -------------------------------------------------------------------------------


def make_seed_reveal(secrets: EventSecrets) -> dict[str, Any]:
    """The body {"event", "seed"} of a `seed-reveal`. PROTOCOL.md 6."""
    return {"event": secrets.event, "seed": secrets.seed}


def check_seed_reveal(body: Any, *, table: bytes, event: int, seat: int, commit: bytes) -> bytes:
    """Check a `seed-reveal` by ``seat`` against the ``commit`` of its `shuffle`; returns the
    32-byte seed. Raises BadBody, BadSeed. PROTOCOL.md 6."""
    what = f"seat {seat}'s seed reveal"
    b = _fields(body, {"event": int, "seed": codec.bin_of(32)}, what)
    _expect_event(b, event, what)
    if codec.sha256("commit", table, event, seat, b["seed"]) != commit:
        raise BadSeed(f"{what} does not match the commitment of its shuffle.")
    seed: bytes = b["seed"]
    return seed


# --- the audit of a whole event ----------------------------------------------------------------


@dataclass(frozen=True)
class EventEntry:
    """One published entry of an event, for :func:`recompute_event`: its log ``seq``, its
    author's ``seat``, its ``kind`` ("shuffle", "lock", "unlock" or "reveal") and ``body``."""

    seq: int
    seat: int
    kind: str
    body: Mapping[str, Any]


@dataclass(frozen=True)
class StepFault:
    """A step that differs from what its author's seed gives: ``seat``, the entry's ``seq``
    (None when the fault is not in an entry), its ``kind`` and a ``detail`` sentence."""

    seat: int
    seq: int | None
    kind: str
    detail: str

    def __str__(self) -> str:
        where = f"entry {self.seq} ({self.kind})" if self.seq is not None else self.kind
        return f"Seat {self.seat}, {where}: {self.detail}"


@dataclass(frozen=True)
class EventAudit:
    """What :func:`recompute_event` found.

    ``faults``: every mismatch, in log order; ``cards``: the identity at each position (None for a
    point that is no card), or None when the event cannot be decoded (no final lock output, or a
    participant's seed missing or not matching); ``not_cards``: positions holding no card;
    ``duplicates``: (identity, positions) for each identity found at two or more positions.
    """

    faults: tuple[StepFault, ...]
    cards: tuple[str | None, ...] | None
    not_cards: tuple[int, ...] = ()
    duplicates: tuple[tuple[str, tuple[int, ...]], ...] = ()

    @property
    def ok(self) -> bool:
        """True when every step matched and every position holds a distinct card."""
        return not self.faults and self.cards is not None and not self.not_cards and not self.duplicates

    @property
    def first_fault(self) -> StepFault | None:
        """The first mismatch in log order, or None."""
        return self.faults[0] if self.faults else None


def _first_difference(expected: Mapping[str, Any], body: Mapping[str, Any]) -> str:
    for key in expected:
        if key not in body:
            return f"its field {key!r} is missing"
        want, got = expected[key], body[key]
        if want != got:
            if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
                i = next(i for i, (w, g) in enumerate(zip(want, got, strict=False)) if w != g)
                return f"its {key} differ from what its seed gives, first at item {i}"
            return f"its {key} differ from what its seed gives"
    return "it has fields its seed does not give"


def _same(expected: Mapping[str, Any], body: Mapping[str, Any]) -> bool:
    # Byte for byte: the canonical encodings must be equal (so a bool never passes for an int).
    try:
        return codec.encode(expected) == codec.encode(dict(body))
    except VampireError:
        return False


def _points_of(body: Mapping[str, Any], count: int) -> list[bytes] | None:
    pts = body.get("points")
    if isinstance(pts, list) and len(pts) == count and all(type(p) is bytes and len(p) == 32 for p in pts):
        return pts
    return None


def recompute_event(
    *,
    table: bytes,
    event: int,
    participants: Sequence[int],
    seeds: Mapping[int, bytes],
    inputs: Sequence[bytes],
    index: Mapping[bytes, str],
    entries: Sequence[EventEntry],
) -> EventAudit:
    """Recompute every step of every participant of event ``event`` from the revealed seeds and
    compare it byte for byte with what was published; then decode every position.

    ``participants``: seats in acting order (first participant first, L last); ``seeds``: seat ->
    revealed 32-byte seed; ``inputs``: the n card points the first participant shuffled (for a
    private deck, from its revealed list; for a reshuffle, the points of the cards it named);
    ``index``: card point -> identity; ``entries``: the event's `shuffle`, `lock`, `unlock`
    and `reveal` entries in log order (a move's ``open`` pairs may be passed as `reveal` bodies
    {"event", "positions", "keys"}). Each step is recomputed from the *published* input it took,
    so a fault names the participant that deviated. Unlocks and reveals act on one chain per
    position: each takes the position's current point (the final lock output, then the output of
    the last unlock or reveal of that position), as the table tracks it. Never raises on bad published data:
    everything wrong is a :class:`StepFault` (raises DeckProofError only for empty ``participants`` or
    ``inputs``, or a malformed ``table``/``event``). PROTOCOL.md 6, "End of the event".
    """
    if not participants:
        raise DeckProofError("an event needs at least one participant.")
    if not inputs:
        raise DeckProofError("the audit of an event needs the card points its first participant shuffled.")
    n = len(inputs)
    faults: list[StepFault] = []
    secrets: dict[int, EventSecrets] = {}
    last = participants[-1]
    for seat in participants:
        seed = seeds.get(seat)
        if type(seed) is not bytes or len(seed) != 32:
            faults.append(StepFault(seat, None, "seed-reveal", "its seed is missing or not 32 bytes."))
            continue
        secrets[seat] = EventSecrets.derive(seed, table, event, seat, n)

    # The set-up steps, in the only order the table accepts them.
    setup = [(p, "shuffle") for p in participants] + [(p, "lock") for p in participants[:-1]]
    done = 0
    row: Sequence[bytes] | None = inputs  # the input of the next set-up step, then the final row
    chain: dict[int, bytes] = {}  # position -> its current point once unlocks or reveals began
    bad_commit: set[int] = set()

    for entry in entries:
        seat, kind, body = entry.seat, entry.kind, entry.body
        s = secrets.get(seat) if seat not in bad_commit else None

        def fault(detail: str, seat: int = seat, seq: int = entry.seq, kind: str = kind) -> None:
            faults.append(StepFault(seat, seq, kind, detail))

        if not isinstance(body, Mapping):
            fault("its body is not a map.")
            continue
        if seat not in participants:
            fault("its author is not a participant of the event.")
            continue
        if kind in ("shuffle", "lock"):
            if done >= len(setup) or setup[done] != (seat, kind):
                fault("this step is out of the protocol's order.")
                row = None
                continue
            done += 1
            if kind == "shuffle" and seat in secrets and body.get("commit") != secrets[seat].commit:
                fault("its revealed seed does not match the commitment of this shuffle.")
                bad_commit.add(seat)
                s = None
            if s is not None and row is not None:
                try:
                    if kind == "shuffle":
                        expected = make_shuffle_pass(s, row, last=seat == last)
                    else:
                        expected = make_lock_pass(s, row)
                except VampireError as err:
                    fault(f"its input cannot be recomputed: {err}")
                else:
                    if not _same(expected, body):
                        fault(f"the {kind} is not what its seed gives: {_first_difference(expected, body)}.")
            row = _points_of(body, n)
        elif kind in ("unlock", "reveal"):
            if done < len(setup) or row is None:
                fault("this step comes before the event's locks are complete.")
                continue
            to, positions = body.get("to"), body.get("positions")
            if not (isinstance(positions, list) and all(type(k) is int and 0 <= k < n for k in positions)):
                fault("its positions cannot be read.")
                continue
            if kind == "reveal":
                if s is not None and not _same(make_reveal(s, positions), body):
                    fault("the revealed keys are not the lock keys its seed gives.")
                keys = body.get("keys")
                if isinstance(keys, list) and len(keys) == len(positions):
                    for k, key in zip(positions, keys, strict=False):
                        try:
                            chain[k] = remove_lock(key, chain.get(k, row[k]))
                        except group.GroupError:
                            pass
                continue
            if type(to) is not int:
                fault("its recipient cannot be read.")
                continue
            current = {k: chain.get(k, row[k]) for k in positions}
            if s is not None:
                try:
                    expected = make_unlock(s, to, positions, current)
                except VampireError as err:
                    fault(f"its input cannot be recomputed: {err}")
                else:
                    if not _same(expected, body):
                        fault(f"the unlock is not what its seed gives: {_first_difference(expected, body)}.")
            new = _points_of(body, len(positions))
            if new is not None:
                chain.update(zip(positions, new, strict=False))
        else:
            fault(f"an entry of kind {kind!r} is not a step of the deck protocol.")

    if row is None or done < len(setup) or len(secrets) != len(participants) or bad_commit:
        return EventAudit(tuple(faults), None)

    cards: list[str | None] = []
    for k in range(n):
        total = secrets[participants[0]].lock_keys[k]
        for seat in participants[1:]:
            total = group.scalar_mul(total, secrets[seat].lock_keys[k])
        try:
            cards.append(index.get(remove_lock(total, row[k])))
        except group.GroupError:
            cards.append(None)
    not_cards = tuple(k for k, c in enumerate(cards) if c is None)
    where: dict[str, list[int]] = {}
    for k, c in enumerate(cards):
        if c is not None:
            where.setdefault(c, []).append(k)
    duplicates = tuple((c, tuple(ks)) for c, ks in where.items() if len(ks) > 1)
    return EventAudit(tuple(faults), tuple(cards), not_cards, duplicates)
