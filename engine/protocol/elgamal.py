"""The joint-key ElGamal deck of protocol version 2 (PROTOCOL.md 6.1–6.3): one participant's
secrets for one event, key shares with their proof of knowledge, the joint key, the initial decks,
the re-encryption shuffle, decryption shares with their DLEQ proofs, decoding, and the key-reveal
check. The proof of shuffle is in engine.protocol.shuffle_proof. Bytes: docs/protocol.md, part 6.

Every function is pure: no I/O, no clock, no global state; randomness comes in as a 32-byte seed
drawn and saved by the caller. Group arithmetic is libsodium's (through engine.protocol.group and
``nacl.bindings``); this module composes it.

Notation: a **point** and a **scalar** are 32-byte encodings (engine.protocol.group); a
**ciphertext** is the pair (c1, c2) of points, on the wire the array [c1, c2]; σ is a tuple where
output j takes input σ(j) (engine.protocol.deck.permutation); H_e is the event's joint key.

**Identity.** Values received from peers are never the identity: :func:`check_ciphertexts` and the
verifiers refuse it. Values computed from received ones (a partial sum of keys, a decoded point)
may be, and are then handled here without calling libsodium on them (PROTOCOL.md 6.1): the
identity-aware helpers :func:`padd`, :func:`psub` and :func:`pmul` do that.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from nacl import bindings as nb
from nacl.exceptions import CryptoError

from engine.protocol import codec, group
from engine.protocol.deck import BadBody, BadPoint, BadScalar, DeckProofError, DuplicatePoints, permutation
from engine.protocol.group import G

IDENTITY = b"\x01" + bytes(31)
"""The encoding of the identity point (never valid in an entry; only a computed intermediate)."""

Ciphertext = tuple[bytes, bytes]
"""(c1, c2): two 32-byte points; encoded as the msgpack array [c1, c2]."""

KEY_POK_BYTES = 64


# --- identity-aware point arithmetic --------------------------------------------------------------


def padd(p: bytes, q: bytes) -> bytes:
    """P + Q where either may be the identity (handled here, libsodium never sees it).

    Both must otherwise be points of the main subgroup already checked or computed from checked
    points (libsodium's ``add`` checks only that they are on the curve). The result may be the
    identity. Raises group.BadPoint for a point that is not on the curve.
    """
    if p == IDENTITY:
        return q
    if q == IDENTITY:
        return p
    return group.add(p, q)


def psub(p: bytes, q: bytes) -> bytes:
    """P − Q where either may be the identity; same conditions as :func:`padd`.

    −Q is computed as Q − 2Q, so libsodium is never called on the identity.
    """
    if q == IDENTITY:
        return p
    if p == IDENTITY:
        return group.sub(q, group.add(q, q))
    return group.sub(p, q)


def pmul(k: bytes, p: bytes) -> bytes:
    """k·P for a computed point P that may be the identity, and a scalar ``k`` that may be zero
    (result: the identity). P must otherwise be a point of the main subgroup: libsodium checks it
    and a failure raises group.BadPoint. Do not use it on a received point, which must never be the
    identity: use group.mult (or libsodium's checked multiplication) there."""
    if p == IDENTITY or not any(k):
        return IDENTITY
    if p == G:
        # G needs no check: the fixed-base multiplication gives the same point without one.
        return nb.crypto_scalarmult_ed25519_base_noclamp(k)
    try:
        return nb.crypto_scalarmult_ed25519_noclamp(k, p)
    except CryptoError:
        raise group.BadPoint("a computed point is not a point of the main subgroup.") from None


def psum(points: Iterable[bytes]) -> bytes:
    """Σ P over computed or checked points (the identity for none); see :func:`padd`."""
    total = IDENTITY
    for p in points:
        total = padd(total, p)
    return total


def negate(k: bytes) -> bytes:
    """−k mod ℓ (32-byte scalars; libsodium's ``scalar_negate``)."""
    return nb.crypto_core_ed25519_scalar_negate(k)


# --- per-event secrets (PROTOCOL.md 6.2) ------------------------------------------------------------


def key_share(seed: bytes, table: bytes, event: int, seat: int) -> bytes:
    """x = Hs("elgamal-key", table, event, seat, seed): a participant's key share (a scalar) for
    ``event``. For a reshuffle, ``event`` and ``seed`` are those of the event whose keys it
    inherits. PROTOCOL.md 6.2."""
    return group.hash_to_scalar("elgamal-key", table, event, seat, seed)


@dataclass(frozen=True)
class ElGamalSecrets:
    """One participant's secrets for one event of version 2, all derived from its 32-byte ``seed``
    (PROTOCOL.md 6.2; docs/protocol.md 6.2).

    ``commit``: H("commit", table, event, seat, seed) (version 1's); ``x``: the key share (the
    inherited event's for a reshuffle) and ``X`` = x·G; ``perm``: σ for n positions (version 1's);
    ``rho``: ρ_j = Hs("reencrypt", table, event, seat, j, seed) for j < n; ``deck_rand``: r_j =
    Hs("deck-rand", table, event, seat, j, seed) for a private deck's owner (else empty);
    ``nonce_key``: H("nonce-key", table, event, seat, seed) (version 1's), keying every proof nonce.
    """

    table: bytes
    event: int
    seat: int
    n: int
    seed: bytes = field(repr=False)
    commit: bytes
    x: bytes = field(repr=False)
    X: bytes
    perm: tuple[int, ...] = field(repr=False)
    rho: tuple[bytes, ...] = field(repr=False)
    deck_rand: tuple[bytes, ...] = field(repr=False)
    nonce_key: bytes = field(repr=False)

    @classmethod
    def derive(
        cls,
        seed: bytes,
        table: bytes,
        event: int,
        seat: int,
        n: int,
        *,
        owner: bool = False,
        inherited_x: bytes | None = None,
    ) -> ElGamalSecrets:
        """Derive ``seat``'s secrets for ``event`` (int >= 0) of ``table`` (32-byte id) over ``n``
        >= 1 positions from ``seed`` (32 bytes). ``owner``: derive r_j too (the owner of a
        private deck writing its `deck` entry). ``inherited_x``: the key share of the event a
        reshuffle inherits its keys from (:func:`key_share` of that event's seed), used instead
        of this event's own x. Raises :class:`DeckProofError` for inputs of the wrong type or size,
        group.BadScalar for an invalid ``inherited_x``."""
        try:
            codec.check_bytes(table, 32, "the table id")
            codec.check_int(event, "the event number", 0)
            codec.check_int(seat, "the seat number", 0)
            codec.check_int(n, "the number of positions", 1)
        except codec.SchemaError as err:
            raise DeckProofError(str(err)) from None
        if type(seed) is not bytes or len(seed) != 32:
            raise DeckProofError("a seed must be 32 bytes.")
        ids = (table, event, seat)
        if inherited_x is None:
            x = key_share(seed, table, event, seat)
        else:
            x = group.check_scalar(inherited_x, "the inherited key share")
        return cls(
            table=table,
            event=event,
            seat=seat,
            n=n,
            seed=seed,
            commit=codec.sha256("commit", *ids, seed),
            x=x,
            X=group.base_mult(x),
            perm=permutation(seed, table, event, seat, n),
            rho=tuple(group.hash_to_scalar("reencrypt", *ids, j, seed) for j in range(n)),
            deck_rand=tuple(group.hash_to_scalar("deck-rand", *ids, j, seed) for j in range(n)) if owner else (),
            nonce_key=nonce_key(seed, *ids),
        )


# --- key shares and their proof of knowledge (PROTOCOL.md 6.3, item 1) ------------------------------


def key_context(table: bytes, event: int, seat: int) -> list[Any]:
    """C_k = [table, event, seat, "key"], the context of a key's proof of knowledge."""
    return [table, event, seat, "key"]


def key_proof(secrets: ElGamalSecrets) -> bytes:
    """pok = c ‖ z (64 bytes, two little-endian scalars): a Schnorr proof of knowledge of x for
    X = x·G bound to C_k. k = Hs("key-nonce", nonce key, C_k, X), T = k·G,
    c = Hs("key-pok", C_k, X, T), z = k + c·x mod ℓ. PROTOCOL.md 6.3, item 1. Pure: see
    :func:`prove_key` for the proof a seat publishes."""
    s = secrets
    ctx = key_context(s.table, s.event, s.seat)
    X = s.X
    k = group.hash_to_scalar("key-nonce", s.nonce_key, ctx, X)
    c = group.hash_to_scalar("key-pok", ctx, X, group.base_mult(k))
    return c + group.scalar_add(k, group.scalar_mul(c, s.x))


def prove_key(secrets: ElGamalSecrets) -> bytes:
    """The key proof of :func:`key_proof`, kept in group.OWN_PROOFS: this process made it, so its
    `key` entry is not verified again here. PROTOCOL.md 6.3, item 1."""
    pok = key_proof(secrets)
    remember_key(secrets, pok)
    return pok


def remember_key(secrets: ElGamalSecrets, pok: bytes) -> None:
    """Keep ``pok``, the :func:`key_proof` of ``secrets`` this process made (possibly earlier, in a
    worker thread), in group.OWN_PROOFS, so that the `key` entry carrying it is not verified again
    here; call it when the entry is made."""
    s = secrets
    if group.is_scalar(pok[32:]):  # X = x·G is valid; z = 0 (probability ~2^-252) would not verify
        group.OWN_PROOFS.add(_key_memo_key(s.table, s.event, s.seat, s.X, pok))


def _key_memo_key(table: Any, event: Any, seat: Any, X: Any, pok: Any) -> tuple[Any, ...]:
    return ("key", table, event, seat, X, pok)


def verify_key(table: bytes, event: int, seat: int, X: Any, pok: Any) -> bool:
    """True when ``pok`` (64 bytes, c ‖ z) proves knowledge of log_G X in the context of
    ``seat``'s key for ``event`` at ``table``: X a valid point (not the identity), c and z
    canonical and non-zero, T = z·G − c·X and c = Hs("key-pok", C_k, X, T). Never raises:
    anything malformed gives False. A key proof this process made (group.OWN_PROOFS) is valid
    without being verified; other answers are kept per process (group.VERIFY_MEMO).
    PROTOCOL.md 6.3, item 1."""
    if type(pok) is not bytes or len(pok) != KEY_POK_BYTES or type(X) is not bytes or len(X) != 32:
        return False
    key = _key_memo_key(table, event, seat, X, pok)
    try:
        hash(key)
    except TypeError:
        return False  # a table id or number of the wrong type
    if key in group.OWN_PROOFS:
        return True
    known = group.VERIFY_MEMO.get(key)
    if known is None:
        known = _verify_key(table, event, seat, X, pok)
        group.VERIFY_MEMO.put(key, known)
    return known


def _verify_key(table: bytes, event: int, seat: int, X: bytes, pok: bytes) -> bool:
    c, z = pok[:32], pok[32:]
    if not (group.is_scalar(c) and group.is_scalar(z)):
        return False
    try:
        # c·X is libsodium's checked multiplication: it refuses an X that is not a valid point
        # (the check of PROTOCOL.md 6.1, made once). z·G and c·X are never the identity
        # (non-zero scalars, valid points); T may be.
        T = psub(group.base_mult(z), group.mult(c, X))
        expected = group.hash_to_scalar("key-pok", key_context(table, event, seat), X, T)
    except (DeckProofError, group.GroupError, codec.CodecError):
        return False
    return expected == c


def check_key_fields(X: Any, pok: Any, what: str = "the key", *, points: bool = True) -> None:
    """The cheap checks of PROTOCOL.md 6.5 on a received `key`'s X and pok: X a valid point (so not
    the identity), pok 64 bytes holding two canonical non-zero scalars. Raises BadPoint, BadBody or
    BadScalar (naming ``what``): such an entry is refused. One that passes and whose proof fails
    (:func:`verify_key`) is a proven cheat; one whose proof verifies passes them (the table
    verifies first and makes them only then). ``points`` False skips the point check (a table
    reading a result only, engine.table.vocab.Checks.CHEAP)."""
    if type(X) is not bytes or len(X) != 32 or type(pok) is not bytes or len(pok) != KEY_POK_BYTES:
        raise BadBody(f"{what} needs X as 32 bytes and pok as {KEY_POK_BYTES} bytes.")
    if points and not group.is_point(X):
        raise BadPoint(f"{what}'s X is not a valid point of the main subgroup (or it is of small order).")
    _check_proof_scalars(pok, what)


def _check_proof_scalars(proof: bytes, what: str) -> None:
    if not (group.is_scalar(proof[:32]) and group.is_scalar(proof[32:])):
        raise BadScalar(f"{what}'s proof holds a scalar that is zero or not reduced modulo the group order.")


def joint_key(keys: Sequence[bytes]) -> bytes:
    """H_e = Σ X_i over the event's participants' key shares (32-byte points, each checked valid).
    Raises group.BadPoint for an invalid share or when the sum is the identity (refused: it would
    encrypt in the clear). PROTOCOL.md 6.3, item 1."""
    if not keys:
        raise DeckProofError("an event has no key shares.")
    for i, X in enumerate(keys):
        group.check_point(X, f"key share {i}")
    total = psum(keys)
    if total == IDENTITY:
        raise BadPoint("the joint key of the event is the identity.")
    return total


def check_key_reveal(x: Any, X: bytes) -> bool:
    """True when ``x`` (a `key-reveal`'s scalar) is canonical, non-zero and x·G = ``X``, the key
    share the seat published for the event. Never raises. PROTOCOL.md 6.3, item 6."""
    return group.is_scalar(x) and group.base_mult(x) == X


# --- decks and the re-encryption shuffle (PROTOCOL.md 6.3, items 2 and 3) ---------------------------


def public_deck(joint: bytes, points: Sequence[bytes]) -> list[Ciphertext]:
    """The input of a public deck's first shuffle: card k is (G, M_k + H_e) (randomness 1), for the
    card points ``points`` in the game's canonical order. Raises group.BadPoint when a sum is the
    identity (M_k = −H_e, probability ~2^-252). PROTOCOL.md 6.3, item 2."""
    out = []
    for k, m in enumerate(points):
        c2 = group.add(m, joint)
        if c2 == IDENTITY:
            raise BadPoint(f"card {k} of the public deck encrypts to the identity.")
        out.append((G, c2))
    return out


def private_deck(
    secrets: ElGamalSecrets,
    joint: bytes,
    points: Sequence[bytes],
    *,
    c1s: Sequence[bytes] | None = None,
    joint_log: bytes | None = None,
) -> list[Ciphertext]:
    """The ``cards`` of a private deck owner's `deck` entry: card j = (r_j·G, M(L[σ(j)]) + r_j·H_e),
    ``points`` being M of the part's cards in the order of the owner's committed list (n of them,
    the secrets' n). ``c1s``: the r_j·G of :func:`private_deck_c1s`, when made before the joint key
    was known (the same values). ``joint_log``: x with H_e = x·G, when every key share is known (a
    seed reveal, once each x·G = X was checked): r_j·H_e is then the fixed-base (r_j·x)·G. Raises
    :class:`DeckProofError` for a wrong count or secrets derived without ``owner``, group.BadPoint
    for a bad joint key. PROTOCOL.md 6.3, item 2."""
    s = secrets
    if len(points) != s.n or len(s.deck_rand) != s.n or (c1s is not None and len(c1s) != s.n):
        raise DeckProofError(f"a private deck of {s.n} cards needs {s.n} card points and the owner's secrets.")
    firsts = private_deck_c1s(s) if c1s is None else c1s
    out = []
    for j, i in enumerate(s.perm):
        if joint_log is None:
            masked = group.mult(s.deck_rand[j], joint, "the joint key")
        else:
            masked = pmul(group.scalar_mul(s.deck_rand[j], joint_log), G)
        c2 = padd(points[i], masked)
        if c2 == IDENTITY:
            raise BadPoint(f"card {j} of the private deck encrypts to the identity.")
        out.append((firsts[j], c2))
    return out


def private_deck_c1s(secrets: ElGamalSecrets) -> list[bytes]:
    """r_j·G for every card j of a private deck owner's `deck` entry (:func:`private_deck`): the
    half of it that needs no joint key, so it can be made before the keys are in."""
    return [group.base_mult(r) for r in secrets.deck_rand]


def reencrypt(
    inputs: Sequence[Sequence[bytes]],
    perm: Sequence[int],
    rho: Sequence[bytes],
    joint: bytes,
    *,
    joint_log: bytes | None = None,
) -> list[Ciphertext]:
    """cards_j = in_{σ(j)} + ρ_j·(G, H_e) for every output j. ``inputs`` must be checked
    ciphertexts, ``rho`` scalars (ρ_j = 0 is allowed here and leaves the card as it was). The
    outputs may contain the identity (e.g. ρ_0 = ℓ − 1 on a public deck's card gives c1 = identity,
    a card in the clear): :func:`make_shuffle` and every verifier refuse that. Raises group.BadPoint
    for an invalid joint key. ``joint_log``: x with H_e = x·G, when every key share is known (a
    seed reveal, PROTOCOL.md 6.3 item 7, once each x·G = X was checked): ρ_j·H_e is then the
    fixed-base (ρ_j·x)·G, the same point without a checked multiplication of H_e."""
    out = []
    for j, i in enumerate(perm):
        c1, c2 = inputs[i]
        if joint_log is None:
            masked = pmul(rho[j], joint)
        else:
            masked = pmul(group.scalar_mul(rho[j], joint_log), G)
        out.append((padd(c1, pmul(rho[j], G)), padd(c2, masked)))
    return out


_REENCRYPTIONS: set[tuple[Any, ...]] = set()
_REENCRYPTIONS_SIZE = 1 << 12


def _reencryption_key(
    secrets: ElGamalSecrets, joint: bytes, inputs: Sequence[Sequence[bytes]], outputs: Sequence[Sequence[bytes]]
) -> tuple[Any, ...]:
    s = secrets
    cards = codec.sha256("reencryption", [[c[0], c[1]] for c in inputs], [[c[0], c[1]] for c in outputs])
    return (s.table, s.event, s.seat, s.n, s.seed, joint, cards)


def remember_reencryption(
    secrets: ElGamalSecrets, joint: bytes, inputs: Sequence[Sequence[bytes]], outputs: Sequence[Sequence[bytes]]
) -> None:
    """Keep, per process, that :func:`reencrypt` of ``inputs`` with ``secrets``' σ and ρ under
    ``joint`` gives ``outputs`` (found by the caller, e.g. as outputs_j − ρ_j·(G, H_e) =
    inputs_{σ(j)}): :func:`is_reencryption` then answers without computing it again. Bounded."""
    if len(_REENCRYPTIONS) >= _REENCRYPTIONS_SIZE:
        _REENCRYPTIONS.clear()
    _REENCRYPTIONS.add(_reencryption_key(secrets, joint, inputs, outputs))


def is_reencryption(
    secrets: ElGamalSecrets,
    joint: bytes,
    inputs: Sequence[Sequence[bytes]],
    outputs: Sequence[Sequence[bytes]],
    *,
    joint_log: bytes | None = None,
) -> bool:
    """Whether ``outputs`` is :func:`reencrypt` of ``inputs`` (checked ciphertexts) with the σ and
    ρ of ``secrets`` under ``joint`` (``joint_log`` as there): known already
    (:func:`remember_reencryption`), or computed and compared. Raises group.BadPoint for an invalid
    joint key. PROTOCOL.md 6.3, item 7."""
    if _reencryption_key(secrets, joint, inputs, outputs) in _REENCRYPTIONS:
        return True
    s = secrets
    return tuple(reencrypt(inputs, s.perm, s.rho, joint, joint_log=joint_log)) == tuple((c[0], c[1]) for c in outputs)


def reencryption_pads(secrets: ElGamalSecrets, joint: bytes) -> list[Ciphertext]:
    """ρ_j·(G, H_e) for every output j of this participant's shuffle (:func:`make_shuffle`): the
    part of it that needs the joint key but not the inputs, so it can be made while the shuffles
    before this one are under way. Raises group.BadPoint for an invalid joint key."""
    return [(pmul(r, G), pmul(r, joint)) for r in secrets.rho]


def make_shuffle(
    secrets: ElGamalSecrets,
    joint: bytes,
    inputs: Sequence[Sequence[bytes]],
    *,
    pads: Sequence[Ciphertext] | None = None,
) -> list[Ciphertext]:
    """This participant's shuffle of ``inputs`` (n checked ciphertexts) under the joint key:
    :func:`reencrypt` with its σ and ρ (``pads``: its :func:`reencryption_pads` under ``joint``,
    made before; the outputs are the same). Raises :class:`DeckProofError` for a wrong count and
    group.BadPoint if an output is the identity (probability ~2^-252 for valid inputs).
    PROTOCOL.md 6.3, item 3. Its proof: engine.protocol.shuffle_proof.prove."""
    s = secrets
    if len(inputs) != s.n or (pads is not None and len(pads) != s.n):
        raise DeckProofError(f"the input of the shuffle has {len(inputs)} cards, not {s.n}.")
    if pads is None:
        out = reencrypt(inputs, s.perm, s.rho, joint)
    else:
        out = [(padd(inputs[i][0], pads[j][0]), padd(inputs[i][1], pads[j][1])) for j, i in enumerate(s.perm)]
    if any(IDENTITY in c for c in out):
        raise BadPoint("a card of the shuffle's output is the identity.")
    return out


def check_ciphertexts(value: Any, n: int, what: str, *, points: bool = True) -> list[Ciphertext]:
    """Check a received array of ``n`` ciphertexts (a `deck` or `shuffle` entry's ``cards``): each an
    array of two bin-32 values, each a valid point and not the identity, and the n pairs pairwise
    distinct. Returns them as tuples. Raises BadBody (shape), BadPoint (naming the position) and
    DuplicatePoints. PROTOCOL.md 6.1. ``points`` False skips the point checks (a table reading a
    result only, engine.table.vocab.Checks.CHEAP)."""
    try:
        cards = codec.check_list(value, codec.list_of(codec.bin_of(32), 2, 2), what, n, n)
    except codec.SchemaError as err:
        raise BadBody(str(err)) from None
    out = [(c[0], c[1]) for c in cards]
    for k, (c1, c2) in enumerate(out if points else ()):
        if not (group.is_point(c1) and group.is_point(c2)):
            raise BadPoint(f"{what} for position {k} is not a pair of valid points of the main subgroup.")
    if len(set(out)) != n:
        raise DuplicatePoints(f"{what} holds two equal ciphertexts.")
    return out


# --- decryption shares and decoding (PROTOCOL.md 6.3, items 4 and 5) --------------------------------


def share_context(table: bytes, event: int, seat: int, position: int) -> list[Any]:
    """[table, event, seat, "share", position]: the context of every decryption share's DLEQ proof
    (seat is the author's)."""
    return [table, event, seat, "share", position]


def make_share(secrets: ElGamalSecrets, c1: bytes, position: int, *, remember: bool = True) -> tuple[bytes, bytes]:
    """(D, proof): D = x·c1 for the checked point ``c1`` of ``position`` of the event's final deck,
    and the 64-byte DLEQ proof (version 1's) with B1 = G, P1 = X, B2 = c1, P2 = D under
    :func:`share_context`, keyed by this event's nonce key; kept in group.OWN_PROOFS (this process
    made it: the entry carrying it is not verified again here) unless ``remember`` is False (made
    ahead of its entry: :func:`remember_share` when the entry is made). Raises group.BadPoint for
    a bad c1. PROTOCOL.md 6.3, item 4."""
    s = secrets
    D = group.mult(s.x, c1, f"c1 of position {position}")
    proof = group.dleq_prove(s.x, G, s.X, c1, D, s.nonce_key, share_context(s.table, s.event, s.seat, position))
    if remember:
        remember_share(s, c1, position, D, proof)
    return D, proof


def remember_share(secrets: ElGamalSecrets, c1: bytes, position: int, D: bytes, proof: bytes) -> None:
    """Keep a share this process made with :func:`make_share` in group.OWN_PROOFS, so that the
    entry carrying it is not verified again here."""
    s = secrets
    # c1 went through a checked multiplication and X = x·G: this process trusts its own share.
    group.remember_dleq(G, s.X, c1, D, proof, share_context(s.table, s.event, s.seat, position))


def verify_share(table: bytes, event: int, seat: int, position: int, X: bytes, c1: bytes, D: Any, proof: Any) -> bool:
    """True when ``D`` is ``seat``'s decryption share of ``position`` (D = x·c1 with X = x·G)
    proven by ``proof``. Every point is checked (D valid and not the identity). Never raises.
    Results are kept in the per-process memo (group.VERIFY_MEMO). PROTOCOL.md 6.3, item 4."""
    return group.dleq_verify(G, X, c1, D, proof, share_context(table, event, seat, position))


def known_share(
    table: bytes, event: int, seat: int, position: int, X: bytes, c1: bytes, D: Any, proof: Any
) -> bool | None:
    """:func:`verify_share`'s answer when this process holds it without verifying (a share it made,
    or one it verified: group.dleq_known), else None. Never raises."""
    return group.dleq_known(G, X, c1, D, proof, share_context(table, event, seat, position))


def nonce_key(seed: bytes, table: bytes, event: int, seat: int) -> bytes:
    """H("nonce-key", table, event, seat, seed): the 32-byte key of every proof nonce of ``seat``
    in ``event`` (:class:`ElGamalSecrets`' ``nonce_key``, without deriving the rest). PROTOCOL.md 6.2."""
    return codec.sha256("nonce-key", table, event, seat, seed)


def check_share_fields(D: Any, proof: Any, what: str = "the share", *, points: bool = True) -> None:
    """The cheap checks of PROTOCOL.md 6.5 on a received decryption share and its proof: D a valid
    point (not the identity), the proof 64 bytes holding two canonical non-zero scalars. Raises
    BadBody, BadPoint or BadScalar (naming ``what``): refused. One that passes and whose proof fails
    (:func:`verify_share`) is a proven cheat; one whose proof verifies passes them. ``points``
    False skips the point check (engine.table.vocab.Checks.CHEAP)."""
    if type(D) is not bytes or len(D) != 32 or type(proof) is not bytes or len(proof) != group.PROOF_BYTES:
        raise BadBody(f"{what} needs D as 32 bytes and its proof as {group.PROOF_BYTES} bytes.")
    if points and not group.is_point(D):
        raise BadPoint(f"{what} is not a valid point of the main subgroup (or it is of small order).")
    _check_proof_scalars(proof, what)


def decode(ciphertext: Sequence[bytes], shares: Iterable[bytes], own_x: bytes | None = None) -> bytes:
    """M = c2 − Σ D_i (− x_R·c1 when ``own_x``, the recipient's key share, is given): the point the
    ciphertext holds once every other participant's checked share ``shares`` is removed. May return
    the identity (a cheat's card). PROTOCOL.md 6.3, item 4."""
    c1, c2 = ciphertext
    total = psum(shares)
    if own_x is not None:
        total = padd(total, group.mult(own_x, c1, "c1"))
    return psub(c2, total)


def open_card(
    ciphertext: Sequence[bytes], shares: Iterable[bytes], lookup: Mapping[bytes, str], own_x: bytes | None = None
) -> str | None:
    """The identity of the card a ciphertext holds (see :func:`decode`), looked up among the deck's
    card points (engine.protocol.deck.CardIndex.lookup), or None when it is no card of the deck."""
    return lookup.get(decode(ciphertext, shares, own_x))
