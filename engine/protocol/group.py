"""The prime-order group of edwards25519, card points and DLEQ proofs (PROTOCOL.md 6).

Every function here is pure: no I/O, no global state, randomness (when any) comes in as bytes.
All group arithmetic is libsodium's, through ``nacl.bindings``; this module only composes it,
checks what it is given and turns libsodium's failures into the project's errors.

Encodings (docs/protocol.md, part 2, "Group encodings"):

- a **point** is the 32-byte compressed edwards25519 encoding libsodium uses (little-endian y,
  the sign of x in the top bit of the last byte);
- a **scalar** is 32 bytes, little-endian, canonical (< ℓ) and, wherever the protocol receives or
  derives one, non-zero.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from typing import Any

from nacl import bindings as nb
from nacl.exceptions import CryptoError

from engine.errors import VampireError
from engine.protocol import codec

L = 2**252 + 27742317777372353535851937790883648493
"""ℓ, the order of the main subgroup of edwards25519 (and of G)."""

POINT_BYTES = 32
SCALAR_BYTES = 32
PROOF_BYTES = 64

G = nb.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little"))
"""The standard base point G (32-byte encoding 0x5866…66)."""


class GroupError(VampireError):
    """Base of the errors raised on group elements a user (or a peer) supplied. The message is a
    sentence (its first letter is capitalised here)."""

    def __init__(self, message: str) -> None:
        super().__init__(message[:1].upper() + message[1:])


class BadPoint(GroupError):
    """Bytes that are not a canonical encoding of a point of the main subgroup of edwards25519
    that is not of small order (or an operation whose result would be the identity)."""


class BadScalar(GroupError):
    """Bytes that are not a canonical (< ℓ), non-zero 32-byte little-endian scalar."""


# --- checks ------------------------------------------------------------------------------------


def is_point(b: Any) -> bool:
    """True when ``b`` is 32 bytes encoding a canonical point of the main subgroup that is not of
    small order (libsodium's ``crypto_core_ed25519_is_valid_point``); never raises."""
    if type(b) is not bytes or len(b) != POINT_BYTES:
        return False
    try:
        return nb.crypto_core_ed25519_is_valid_point(b)
    except CryptoError:
        return False


def check_point(b: Any, what: str = "the point") -> bytes:
    """Return ``b`` if it is a valid point (see :func:`is_point`), else raise :class:`BadPoint`.

    ``what`` names the value in the error sentence ("seat 2's lock for position 5").
    PROTOCOL.md 6, "Checks on every received value".
    """
    if type(b) is not bytes or len(b) != POINT_BYTES:
        raise BadPoint(f"{what} is not a 32-byte point encoding.")
    if not is_point(b):
        raise BadPoint(
            f"{what} is not a canonical point of the main subgroup of edwards25519 (or it is of small order)."
        )
    return b


def is_scalar(b: Any) -> bool:
    """True when ``b`` is 32 bytes holding a little-endian integer in [1, ℓ); never raises."""
    return type(b) is bytes and len(b) == SCALAR_BYTES and 0 < int.from_bytes(b, "little") < L


def check_scalar(b: Any, what: str = "the scalar") -> bytes:
    """Return ``b`` if it is a canonical non-zero scalar (see :func:`is_scalar`), else raise
    :class:`BadScalar` with a sentence naming ``what``. PROTOCOL.md 6."""
    if type(b) is not bytes or len(b) != SCALAR_BYTES:
        raise BadScalar(f"{what} is not a 32-byte scalar.")
    value = int.from_bytes(b, "little")
    if value == 0:
        raise BadScalar(f"{what} is zero.")
    if value >= L:
        raise BadScalar(f"{what} is not reduced modulo the group order (it is not canonical).")
    return b


def scalar_from_int(value: int) -> bytes:
    """The 32-byte little-endian encoding of ``value mod ℓ``."""
    return (value % L).to_bytes(SCALAR_BYTES, "little")


def scalar_to_int(b: bytes) -> int:
    """The integer a 32-byte little-endian scalar encodes (no reduction, no check)."""
    return int.from_bytes(b, "little")


# --- operations --------------------------------------------------------------------------------


def mult(k: bytes, p: bytes, what: str = "the point") -> bytes:
    """k·P: ``k`` a scalar (32 bytes, canonical, non-zero), ``p`` a 32-byte point.

    libsodium refuses a point that is not canonical, of small order or outside the main
    subgroup (the check it performs is the same as :func:`check_point`), so the result of a
    successful call also proves ``p`` valid. Raises :class:`BadScalar` for a bad ``k`` and
    :class:`BadPoint` (naming ``what``) for a bad ``p``. Returns the 32-byte point k·P.
    """
    check_scalar(k)
    try:
        return nb.crypto_scalarmult_ed25519_noclamp(k, p)
    except CryptoError:
        check_point(p, what)
        raise BadPoint(f"{what} times a scalar gives the identity.") from None


def base_mult(k: bytes) -> bytes:
    """k·G for a canonical non-zero scalar ``k`` (raises :class:`BadScalar` otherwise)."""
    check_scalar(k)
    try:
        return nb.crypto_scalarmult_ed25519_base_noclamp(k)
    except CryptoError:  # unreachable for 0 < k < ℓ
        raise BadScalar("the scalar times the base point gives the identity.") from None


def add(p: bytes, q: bytes) -> bytes:
    """P + Q (32-byte points). libsodium checks only that both are on the curve, not that they
    are in the main subgroup: give it checked points. Raises :class:`BadPoint`."""
    try:
        return nb.crypto_core_ed25519_add(p, q)
    except CryptoError:
        raise BadPoint("a point added is not a point of edwards25519.") from None


def sub(p: bytes, q: bytes) -> bytes:
    """P − Q (32-byte points); same checks and errors as :func:`add`. The result may be the
    identity (0x01 followed by 31 zero bytes)."""
    try:
        return nb.crypto_core_ed25519_sub(p, q)
    except CryptoError:
        raise BadPoint("a point subtracted is not a point of edwards25519.") from None


def invert(k: bytes, what: str = "the scalar") -> bytes:
    """k⁻¹ mod ℓ for a canonical non-zero scalar (raises :class:`BadScalar` otherwise)."""
    check_scalar(k, what)
    return nb.crypto_core_ed25519_scalar_invert(k)


def scalar_mul(a: bytes, b: bytes) -> bytes:
    """a·b mod ℓ (32-byte scalars; no check: give it checked or derived scalars)."""
    return nb.crypto_core_ed25519_scalar_mul(a, b)


def scalar_add(a: bytes, b: bytes) -> bytes:
    """a + b mod ℓ (32-byte scalars; no check)."""
    return nb.crypto_core_ed25519_scalar_add(a, b)


def scalar_sub(a: bytes, b: bytes) -> bytes:
    """a − b mod ℓ (32-byte scalars; no check)."""
    return nb.crypto_core_ed25519_scalar_sub(a, b)


# --- hashing into the group --------------------------------------------------------------------


def _hash_to_scalar(hasher: Callable[[bytes], bytes], purpose: str, fields: tuple[Any, ...]) -> bytes:
    data = codec.hash_input(purpose, *fields)
    counter = 0
    while True:
        k = nb.crypto_core_ed25519_scalar_reduce(hasher(data))
        if any(k):
            return k
        # A zero result (probability ~2^-252) takes the next counter value, appended as one
        # more int element of the hashed array: [domain, *fields, 1], then [domain, *fields, 2]...
        counter += 1
        data = codec.hash_input(purpose, *fields, counter)


def _sha512(data: bytes) -> bytes:
    return hashlib.sha512(data).digest()


def hash_to_scalar(purpose: str, *fields: Any) -> bytes:
    """Hs: a non-zero scalar (32 bytes) from SHA-512 of ``codec.hash_input(purpose, *fields)``
    reduced mod ℓ (libsodium's ``scalar_reduce`` reads the 64 bytes little-endian).

    When the result is zero, the array hashed becomes ``[domain, *fields, c]`` for the counter
    c = 1, 2, … (an int appended as the last element) until it is not. Every purpose in the
    protocol has a fixed number of fields, so the counter is never confused with a field.
    Raises codec.CodecError for fields the protocol cannot encode. PROTOCOL.md 6.
    """
    return _hash_to_scalar(_sha512, purpose, fields)


_CARD_POINTS: dict[tuple[Any, ...], bytes] = {}
_CARD_POINTS_SIZE = 1 << 15


def card_point(table: bytes, deck: str, card: str) -> bytes:
    """M(card): ``from_uniform`` of SHA-256 of ``["vampire-table/card/v1", table, deck, card]``.

    ``table``: the 32-byte table id; ``deck``: the deck name; ``card``: the card identity.
    Returns a 32-byte point of the main subgroup whose discrete logarithm nobody knows.
    PROTOCOL.md 6, "Card points". Kept per process (a pure function's memo, bounded): the seats,
    the host and a seed reveal of one process compute the same points.
    """
    if type(table) is not bytes or type(deck) is not str or type(card) is not str:
        # Only these types are kept: equal keys of other types (1 and True) encode differently.
        return nb.crypto_core_ed25519_from_uniform(codec.sha256("card", table, deck, card))
    key = (table, deck, card)
    known = _CARD_POINTS.get(key)
    if known is None:
        known = nb.crypto_core_ed25519_from_uniform(codec.sha256("card", table, deck, card))
        if len(_CARD_POINTS) >= _CARD_POINTS_SIZE:
            _CARD_POINTS.clear()
        _CARD_POINTS[key] = known
    return known


# --- DLEQ proofs (Chaum–Pedersen with Fiat–Shamir) ----------------------------------------------


def _mult_any(k: bytes, p: bytes) -> bytes:
    # k·P, using the faster fixed-base multiplication when P is G.
    if p == G:
        return nb.crypto_scalarmult_ed25519_base_noclamp(k)
    return nb.crypto_scalarmult_ed25519_noclamp(k, p)


def dleq_prove(
    x: bytes, b1: bytes, p1: bytes, b2: bytes, p2: bytes, nonce_key: bytes, context: Any, *, b2_log: bytes | None = None
) -> bytes:
    """A proof (64 bytes: e_c ‖ z, two 32-byte little-endian scalars) that P1 = x·B1 and
    P2 = x·B2 for the secret scalar ``x``.

    ``b1, p1, b2, p2``: 32-byte points (B2 may be G); ``nonce_key``: the prover's 32-byte secret
    nonce key for the event; ``context``: any canonical value, in the deck protocol the array
    [table, event, seat, "share", position] (engine.protocol.elgamal.share_context).

    r = Hs("dleq-nonce", nonce_key, context, B1, P1, B2, P2), T1 = r·B1, T2 = r·B2,
    e_c = Hs("dleq", context, B1, P1, B2, P2, T1, T2), z = r + e_c·x mod ℓ.
    The nonce is deterministic and bound to the whole statement: two proofs share a nonce only
    when they prove the same statement in the same context (and are then identical).
    ``b2_log``: b with B2 = b·G, when the caller knows it (and has checked B2 against it): T2 is
    then the fixed-base (r·b)·G, the same point.
    Raises :class:`BadScalar` for a bad ``x``, :class:`BadPoint` for a bad B1 or B2.
    PROTOCOL.md 6, "DLEQ proof".
    """
    check_scalar(x, "the secret of a proof")
    r = hash_to_scalar("dleq-nonce", nonce_key, context, b1, p1, b2, p2)
    try:
        t1 = _mult_any(r, b1)
        t2 = _mult_any(r, b2) if b2_log is None else nb.crypto_scalarmult_ed25519_base_noclamp(scalar_mul(r, b2_log))
    except CryptoError:
        raise BadPoint("a base point of a proof is not a valid point.") from None
    e = hash_to_scalar("dleq", context, b1, p1, b2, p2, t1, t2)
    z = scalar_add(r, scalar_mul(e, x))
    return e + z


class VerifyMemo:
    """Results of :func:`dleq_verify` already computed in this process, keyed by every byte of the
    statement, the proof and the context (a pure function's memo: the same inputs give the same
    answer). It matters when several folds of one table share a process — the host, the bots and
    the local player of ``vampire play`` — so that each proof costs its scalar multiplications
    once there; peers in other processes still check everything themselves. Bounded in size."""

    def __init__(self, size: int = 1 << 16) -> None:
        self.size = size
        self.enabled = True
        self._memo: dict[tuple[Any, ...], bool] = {}

    def get(self, key: tuple[Any, ...]) -> bool | None:
        return self._memo.get(key) if self.enabled else None

    def put(self, key: tuple[Any, ...], value: bool) -> None:
        if not self.enabled:
            return
        if len(self._memo) >= self.size:
            self._memo.clear()
        self._memo[key] = value


VERIFY_MEMO = VerifyMemo()


class OwnProofs:
    """The proofs and shares this process made itself, each kept as the whole statement it proves
    and the exact bytes of the proof (the keys of :data:`VERIFY_MEMO`): an arriving entry whose
    statement and proof are byte for byte one of these is valid without being verified, since an
    honestly made proof of a true statement verifies (PROTOCOL.md 6.4, 6.3 item 4). A proof is
    recognised by what this process produced, never by the seat an entry names: the same proof
    bytes under any other statement (another seat, event, position, input or output) are verified
    as usual. Only the makers add to it (engine.protocol.elgamal for keys and shares, the seat for
    its shuffles), after the cheap checks a verifier would make of the values they computed. A new
    process (``vampire audit``) holds none. Bounded in size; ``enabled`` False turns it off (the
    benchmarks, to measure every folder verifying everything)."""

    def __init__(self, size: int = 1 << 16) -> None:
        self.size = size
        self.enabled = True
        self._made: set[tuple[Any, ...]] = set()

    def add(self, key: tuple[Any, ...]) -> None:
        """Keep ``key`` (a memo key of a proof this process made)."""
        if len(self._made) >= self.size:
            self._made.clear()
        self._made.add(key)

    def __contains__(self, key: tuple[Any, ...]) -> bool:
        return self.enabled and key in self._made

    def clear(self) -> None:
        """Forget every proof kept (tests and benchmarks)."""
        self._made.clear()


OWN_PROOFS = OwnProofs()


def dleq_key(b1: Any, p1: Any, b2: Any, p2: Any, proof: Any, context: Any) -> tuple[Any, ...] | None:
    """The memo key of a DLEQ statement and proof (:data:`VERIFY_MEMO`, :data:`OWN_PROOFS`): every
    byte of the four points, the proof and the canonical context; None for values that cannot be
    one (not hashable, a context the codec refuses)."""
    try:
        key = ("dleq", b1, p1, b2, p2, proof, codec.encode(context))
        hash(key)
    except (TypeError, VampireError):
        return None
    return key


def remember_dleq(b1: bytes, p1: bytes, b2: bytes, p2: bytes, proof: bytes, context: Any) -> None:
    """Keep a DLEQ proof this process made (:data:`OWN_PROOFS`), once its four points are known
    valid (the maker computed P1 and P2 by checked multiplications of B1 and B2) and its scalars
    pass the verifier's checks (canonical, non-zero; z = 0 has probability ~2^-252)."""
    if len(proof) == PROOF_BYTES and is_scalar(proof[:32]) and is_scalar(proof[32:]):
        key = dleq_key(b1, p1, b2, p2, proof, context)
        if key is not None:
            OWN_PROOFS.add(key)


def dleq_verify(b1: Any, p1: Any, b2: Any, p2: Any, proof: Any, context: Any) -> bool:
    """True when ``proof`` proves log_B1(P1) = log_B2(P2) in ``context``: see
    :func:`dleq_verify_uncached`. A statement and proof this process made itself
    (:data:`OWN_PROOFS`) are valid without being verified; other answers :data:`VERIFY_MEMO` keeps
    per process. Never raises."""
    key = dleq_key(b1, p1, b2, p2, proof, context)
    if key is None:
        return dleq_verify_uncached(b1, p1, b2, p2, proof, context)
    known = _dleq_known(key)
    if known is None:
        known = dleq_verify_uncached(b1, p1, b2, p2, proof, context)
        VERIFY_MEMO.put(key, known)
    return known


def dleq_known(b1: Any, p1: Any, b2: Any, p2: Any, proof: Any, context: Any) -> bool | None:
    """:func:`dleq_verify`'s answer when this process holds it without verifying (a proof it made,
    :data:`OWN_PROOFS`, or one it verified, :data:`VERIFY_MEMO`), else None. Never raises."""
    key = dleq_key(b1, p1, b2, p2, proof, context)
    return None if key is None else _dleq_known(key)


def _dleq_known(key: tuple[Any, ...]) -> bool | None:
    if key in OWN_PROOFS:
        return True
    return VERIFY_MEMO.get(key)


def dleq_verify_uncached(b1: Any, p1: Any, b2: Any, p2: Any, proof: Any, context: Any) -> bool:
    """True when ``proof`` (64 bytes, e_c ‖ z) proves log_B1(P1) = log_B2(P2) in ``context``.

    Recomputes T1 = z·B1 − e_c·P1 and T2 = z·B2 − e_c·P2 and checks
    e_c = Hs("dleq", context, B1, P1, B2, P2, T1, T2). Every point is checked (each one goes
    through libsodium's checked scalar multiplication, which refuses a non-canonical point, a
    point of small order or outside the main subgroup); e_c and z must be canonical and non-zero.
    Never raises on malformed input: anything wrong gives False. PROTOCOL.md 6.
    """
    if type(proof) is not bytes or len(proof) != PROOF_BYTES:
        return False
    for p in (b1, p1, b2, p2):
        if type(p) is not bytes or len(p) != POINT_BYTES:
            return False
    e, z = proof[:32], proof[32:]
    if not (is_scalar(e) and is_scalar(z)):
        return False
    try:
        t1 = nb.crypto_core_ed25519_sub(_mult_any(z, b1), nb.crypto_scalarmult_ed25519_noclamp(e, p1))
        t2 = nb.crypto_core_ed25519_sub(_mult_any(z, b2), nb.crypto_scalarmult_ed25519_noclamp(e, p2))
        expected = hash_to_scalar("dleq", context, b1, p1, b2, p2, t1, t2)
    except (CryptoError, VampireError):
        return False
    return hmac.compare_digest(expected, e)
