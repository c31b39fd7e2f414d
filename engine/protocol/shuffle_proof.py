"""The proof of shuffle of protocol version 2 (PROTOCOL.md 6.4): Terelius–Wikström, kind "elgamal",
after Verificatum's ``PoSBasicTW``, for a re-encryption shuffle of ElGamal ciphertexts under a joint
key (engine.protocol.elgamal). Bytes: docs/protocol.md, part 6.

A proof shows that ``outputs`` are ``inputs`` permuted and re-encrypted, cards_j = in_{σ(j)} +
ρ_j·(G, H_e), without revealing σ or ρ. It is bound to its statement (the context
[table, event, seat, "shuffle"], n, H_e, the inputs and the outputs): copied to another event, table
or seat it fails.

Every function is pure (no I/O, no clock); the prover's randomness is a SHAKE-256 stream keyed by
its secret nonce key. The only state is a per-process cache of the generators h_i, the
per-process memo of verified proofs (group.VERIFY_MEMO) and the proofs this process made
(group.OWN_PROOFS, :func:`remember`). libsodium releases the GIL, so
verifications run in worker threads in parallel: :func:`submit_verify`, and :func:`verify` with an
``executor`` splits one verification into four parts.

Layout of a proof: the array [u, B, v, k_A, k_B, k_C, k_D, k_E, k_F]; u, B (points), k_B, k_E
(scalars) are arrays of n, the others single 32-byte values.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from nacl import bindings as nb
from nacl.exceptions import CryptoError

from engine.errors import VampireError
from engine.protocol import codec, group
from engine.protocol.cpus import usable_cpus
from engine.protocol.deck import BadBody, BadPoint, BadScalar
from engine.protocol.elgamal import (
    IDENTITY,
    Ciphertext,
    ElGamalSecrets,
    make_shuffle,
    negate,
    padd,
    pmul,
    psub,
    psum,
)
from engine.protocol.group import G

PROOF_FIELDS = 9
SCALAR_STREAM_BYTES = 64
"""Bytes of the nonce stream per prover scalar (read little-endian, reduced mod ℓ)."""

Proof = list[Any]
"""[u, B, v, k_A, k_B, k_C, k_D, k_E, k_F] (see the module docstring)."""


# --- generators and the statement -------------------------------------------------------------------


def _generator(purpose: str, *fields: Any) -> bytes:
    return nb.crypto_core_ed25519_from_uniform(codec.sha256(purpose, *fields))


CHAIN_GENERATOR = _generator("shuffle-gen-chain")
"""J = from_uniform(H("shuffle-gen-chain")): B_{−1} of the chain of commitments."""

_GENERATORS: list[bytes] = []
_GENERATORS_LOCK = threading.Lock()


def generators(n: int) -> tuple[bytes, ...]:
    """h_0 … h_{n−1}, h_i = from_uniform(H("shuffle-gen", i)): points nobody knows a relation
    between, the same at every table. Cached per process (thread-safe)."""
    if len(_GENERATORS) < n:
        with _GENERATORS_LOCK:
            _GENERATORS.extend(_generator("shuffle-gen", i) for i in range(len(_GENERATORS), n))
    return tuple(_GENERATORS[:n])


_GENERATOR_SUMS: dict[int, bytes] = {}


def generator_sum(n: int) -> bytes:
    """Σ h_i over i < n (the constant of the verifier's C_u = Σ u_i − Σ h_i, PROTOCOL.md 6.4):
    computed once per n and process (thread-safe: a race computes the same point twice)."""
    total = _GENERATOR_SUMS.get(n)
    if total is None:
        total = _GENERATOR_SUMS[n] = psum(generators(n))
    return total


def shuffle_context(table: bytes, event: int, seat: int) -> list[Any]:
    """C = [table, event, seat, "shuffle"], the context of ``seat``'s proof of shuffle."""
    return [table, event, seat, "shuffle"]


def _pairs(cards: Sequence[Sequence[bytes]]) -> list[list[bytes]]:
    return [[c[0], c[1]] for c in cards]


def statement_hash(
    context: Any, joint: bytes, inputs: Sequence[Sequence[bytes]], outputs: Sequence[Sequence[bytes]]
) -> bytes:
    """st = H("shuffle-statement", "elgamal", C, n, H_e, inputs, outputs): 32 bytes; ``inputs`` and
    ``outputs`` are each one element of the hashed array (arrays of n arrays [c1, c2]).
    Raises codec.CodecError for values the protocol cannot encode."""
    return codec.sha256("shuffle-statement", "elgamal", context, len(inputs), joint, _pairs(inputs), _pairs(outputs))


def nonce_scalars(nonce_key: bytes, st: bytes) -> Iterator[bytes]:
    """The prover's scalars: SHAKE-256 of the canonical ["vampire-table/shuffle-nonce/v1",
    nonce key, st], read 64 bytes at a time, each little-endian mod ℓ (libsodium's
    ``scalar_reduce``), zero values skipped. Drawn in the order r_0…r_{n−1}, b_0…b_{n−1}, α, γ, δ,
    φ, β_0…β_{n−1}, ε_0…ε_{n−1}."""
    xof = hashlib.shake_256(codec.hash_input("shuffle-nonce", nonce_key, st))
    size = SCALAR_STREAM_BYTES * 512
    stream = xof.digest(size)
    pos = 0
    while True:
        if pos + SCALAR_STREAM_BYTES > size:
            size *= 2
            stream = xof.digest(size)
        k = nb.crypto_core_ed25519_scalar_reduce(stream[pos : pos + SCALAR_STREAM_BYTES])
        pos += SCALAR_STREAM_BYTES
        if any(k):
            yield k


def _challenges(st: bytes, u: Sequence[bytes]) -> tuple[bytes, list[bytes]]:
    # w = H("shuffle-seed", st, u); e_i = Hs("shuffle-e", w, i).
    w = codec.sha256("shuffle-seed", st, list(u))
    return w, [group.hash_to_scalar("shuffle-e", w, i) for i in range(len(u))]


def _challenge(w: bytes, B: list[bytes], A2: bytes, B2: list[bytes], C2: bytes, D2: bytes, F2: list[bytes]) -> bytes:
    return group.hash_to_scalar("shuffle-challenge", w, B, A2, B2, C2, D2, F2)


def _inverse(perm: Sequence[int]) -> list[int]:
    pi = [0] * len(perm)
    for j, i in enumerate(perm):
        pi[i] = j
    return pi


def _base(k: bytes) -> bytes:
    # k·G for a computed scalar that may be zero (then the identity).
    return group.base_mult(k) if any(k) else IDENTITY


def _dot(scalars: Sequence[bytes], other: Sequence[bytes]) -> bytes:
    total = bytes(32)
    for a, b in zip(scalars, other, strict=True):
        total = group.scalar_add(total, group.scalar_mul(a, b))
    return total


def _scalar_sum(scalars: Sequence[bytes]) -> bytes:
    total = bytes(32)
    for a in scalars:
        total = group.scalar_add(total, a)
    return total


# --- prover -----------------------------------------------------------------------------------------


def prove(
    context: Any,
    joint: bytes,
    inputs: Sequence[Sequence[bytes]],
    outputs: Sequence[Sequence[bytes]],
    perm: Sequence[int],
    rho: Sequence[bytes],
    nonce_key: bytes,
    *,
    randomness: Iterator[bytes] | None = None,
    executor: Executor | None = None,
    c1_logs: Sequence[bytes] | None = None,
) -> Proof:
    """The proof that ``outputs`` = ``inputs`` permuted by σ = ``perm`` and re-encrypted with
    ``rho`` under ``joint`` (PROTOCOL.md 6.4). ``context``: :func:`shuffle_context`; ``inputs``,
    ``outputs``: n ciphertexts each (checked, or computed by the prover); ``nonce_key``: the
    prover's 32-byte nonce key of the event. ``randomness`` replaces :func:`nonce_scalars` (tests
    only: it lets a test choose r_i). ``executor``: when given, three of the four heavy parts run as
    tasks in it while the calling thread computes the fourth (do not pass the executor this call
    itself runs in, if it has few workers). ``c1_logs``: R_j with c1'_j = R_j·G for every output,
    when the caller knows them (the audit, from the revealed seeds, having checked each c1'_j):
    Σ ε_j·c1'_j is then the one fixed-base (Σ ε_j·R_j)·G, the same point. Cost ≈ 5n checked and 3n
    base multiplications (4n and 3n + 1 with ``c1_logs``).

    Returns [u, B, v, k_A, k_B, k_C, k_D, k_E, k_F]. It proves nothing about statements that are
    not a shuffle: :func:`verify` refuses the proof then. Raises ValueError for lengths that do not
    match, group.BadPoint for points libsodium refuses.
    """
    n = len(inputs)
    if not (n >= 1 and len(outputs) == n and len(perm) == n and len(rho) == n and sorted(perm) == list(range(n))) or (
        c1_logs is not None and len(c1_logs) != n
    ):
        raise ValueError("a proof of shuffle needs n >= 1 inputs, outputs, ρ and a permutation of n.")
    st = statement_hash(context, joint, inputs, outputs)
    draw = randomness if randomness is not None else nonce_scalars(nonce_key, st)
    r = [next(draw) for _ in range(n)]
    b = [next(draw) for _ in range(n)]
    alpha, gamma, delta, phi = next(draw), next(draw), next(draw), next(draw)
    beta = [next(draw) for _ in range(n)]
    eps = [next(draw) for _ in range(n)]
    h = generators(n)
    pi = _inverse(perm)

    u = [padd(group.base_mult(r[i]), h[pi[i]]) for i in range(n)]
    w, e = _challenges(st, u)
    e2 = [e[perm[j]] for j in range(n)]  # e'_j = e_{σ(j)}
    # B_j = b_j·G + e'_j·B_{j−1} = t_j·G + P_j·J with t_j = t_{j−1}·e'_j + b_j and P_j = Π_{k≤j} e'_k:
    # the same points as the chain, but each computed on its own (so the work can be split).
    t_: list[bytes] = []
    p_: list[bytes] = []
    t, p = bytes(32), group.scalar_from_int(1)
    for j in range(n):
        t = group.scalar_add(group.scalar_mul(t, e2[j]), b[j])
        p = group.scalar_mul(p, e2[j])
        t_.append(t)
        p_.append(p)

    def part_B() -> tuple[list[bytes], list[bytes]]:  # B and B'_j = β_j·G + ε_j·B_{j−1}
        chain = [padd(_base(t_[j]), pmul(p_[j], CHAIN_GENERATOR)) for j in range(n)]
        prev = [CHAIN_GENERATOR, *chain[:-1]]
        return chain, [padd(group.base_mult(beta[j]), pmul(eps[j], prev[j])) for j in range(n)]

    def part_A() -> bytes:  # A' = α·G + Σ ε_j·h_j
        return padd(group.base_mult(alpha), psum(pmul(eps[j], h[j]) for j in range(n)))

    def part_F(side: int) -> bytes:  # Σ ε_j·c'_j − φ·(G or H_e)
        if side == 0 and c1_logs is not None:  # Σ ε_j·R_j·G − φ·G = (Σ ε_j·R_j − φ)·G
            return pmul(group.scalar_sub(_dot(eps, c1_logs), phi), G)
        base = group.base_mult(phi) if side == 0 else pmul(phi, joint)
        return psub(psum(pmul(eps[j], outputs[j][side]) for j in range(n)), base)

    parts: list[Callable[[], Any]] = [part_A, lambda: part_F(0), lambda: part_F(1)]
    if executor is None:
        B, B2 = part_B()
        A2, F0, F1 = (part() for part in parts)
    else:
        futures = [executor.submit(part) for part in parts]
        B, B2 = part_B()
        A2, F0, F1 = (f.result() for f in futures)
    C2 = group.base_mult(gamma)
    D2 = group.base_mult(delta)
    F2 = [F0, F1]
    v = _challenge(w, B, A2, B2, C2, D2, F2)

    def respond(nonce: bytes, secret: bytes) -> bytes:
        return group.scalar_add(nonce, group.scalar_mul(v, secret))

    return [
        u,
        B,
        v,
        respond(alpha, _dot(e, r)),
        [respond(beta[j], b[j]) for j in range(n)],
        respond(gamma, _scalar_sum(r)),
        respond(delta, t_[-1]),  # d = t_{n−1}
        [respond(eps[j], e2[j]) for j in range(n)],
        respond(phi, _dot(e2, rho)),
    ]


def shuffle_and_prove(
    secrets: ElGamalSecrets,
    joint: bytes,
    inputs: Sequence[Sequence[bytes]],
    *,
    executor: Executor | None = None,
    pads: Sequence[Ciphertext] | None = None,
) -> tuple[list[Ciphertext], Proof]:
    """The ``cards`` and ``proof`` of ``secrets``' `shuffle` entry for ``inputs`` (n checked
    ciphertexts) under ``joint``: elgamal.make_shuffle (with ``pads``, its re-encryption pads made
    before, if given), then :func:`prove` in the context [table, event, seat, "shuffle"] with the
    secrets' σ, ρ and nonce key (``executor``: see there). The same call recomputes the entry at
    the seed reveal. Raises as those two do. PROTOCOL.md 6.3, item 3; 6.4."""
    s = secrets
    outputs = make_shuffle(s, joint, inputs, pads=pads)
    context = shuffle_context(s.table, s.event, s.seat)
    return outputs, prove(context, joint, inputs, outputs, s.perm, s.rho, s.nonce_key, executor=executor)


# --- verifier ---------------------------------------------------------------------------------------


class _Malformed(Exception):
    """A proof or statement of the wrong shape (turned into False by :func:`verify`)."""


def _points(value: Any, n: int) -> list[bytes]:
    if type(value) is not list or len(value) != n:
        raise _Malformed
    for p in value:
        if type(p) is not bytes or len(p) != 32:
            raise _Malformed
    return list(value)


def _scalars(value: Any, n: int) -> list[bytes]:
    if type(value) is not list or len(value) != n or not all(group.is_scalar(k) for k in value):
        raise _Malformed
    return list(value)


def _scalar(value: Any) -> bytes:
    if not group.is_scalar(value):
        raise _Malformed
    return bytes(value)


def _cards(value: Any, n: int) -> list[Ciphertext]:
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise _Malformed
    out = []
    for c in value:
        if not isinstance(c, (list, tuple)) or len(c) != 2:
            raise _Malformed
        for p in c:
            if type(p) is not bytes or len(p) != 32:
                raise _Malformed
        out.append((c[0], c[1]))
    return out


def check_proof(value: Any, n: int, what: str = "the proof of shuffle", *, points: bool = True) -> Proof:
    """The cheap checks of PROTOCOL.md 6.5 on a received proof of a shuffle of ``n`` cards: 9 fields;
    u, B, k_B, k_E arrays of n; every u_i and B_j a valid point (not the identity); every scalar
    canonical and non-zero. Returns the proof. Raises deck.BadBody (shape), deck.BadPoint or
    deck.BadScalar (naming ``what`` and the item): such an entry is refused. A proof that passes
    these checks and then fails :func:`verify` (with outputs that passed
    elgamal.check_ciphertexts) is a proven cheat of its author; one that :func:`verify` accepts
    passes them (:func:`known_valid`). Cost ≈ 2n validity checks; ``points`` False skips them (a
    table reading a result only, engine.table.vocab.Checks.CHEAP).
    """
    try:
        if type(value) is not list or len(value) != PROOF_FIELDS:
            raise _Malformed
        for i in (0, 1):
            _points(value[i], n)
        for i in (4, 7):
            if type(value[i]) is not list or len(value[i]) != n:
                raise _Malformed
        for i in (2, 3, 5, 6, 8):
            if type(value[i]) is not bytes or len(value[i]) != 32:
                raise _Malformed
        for i in (4, 7):
            if any(type(k) is not bytes or len(k) != 32 for k in value[i]):
                raise _Malformed
    except _Malformed:
        raise BadBody(
            f"{what} must be [u, B, v, k_A, k_B, k_C, k_D, k_E, k_F] with u, B, k_B, k_E arrays of {n} "
            "values of 32 bytes and the others 32 bytes."
        ) from None
    for name, i in (("u", 0), ("B", 1)) if points else ():
        for j, p in enumerate(value[i]):
            if not group.is_point(p):
                raise BadPoint(
                    f"{what}'s {name}_{j} is not a valid point of the main subgroup (or it is of small order)."
                )
    for name, i in (("v", 2), ("k_A", 3), ("k_C", 5), ("k_D", 6), ("k_F", 8)):
        if not group.is_scalar(value[i]):
            raise BadScalar(f"{what}'s {name} is zero or not reduced modulo the group order.")
    for name, i in (("k_B", 4), ("k_E", 7)):
        for j, k in enumerate(value[i]):
            if not group.is_scalar(k):
                raise BadScalar(f"{what}'s {name},{j} is zero or not reduced modulo the group order.")
    return value


def _checked_mul(k: bytes, p: bytes) -> bytes:
    # k·P for a received point P and a non-zero scalar k: libsodium refuses P unless it is a valid
    # point (canonical, in the main subgroup, not of small order, hence not the identity), the
    # check PROTOCOL.md 6.1 asks of every received point; CryptoError means "refuse".
    return nb.crypto_scalarmult_ed25519_noclamp(k, p)


def _msm(scalars: Sequence[bytes], points: Sequence[bytes]) -> bytes:
    # Σ k_j·P_j over received points (each checked by its multiplication).
    return psum(_checked_mul(k, p) for k, p in zip(scalars, points, strict=True))


def verify(
    context: Any,
    joint: bytes,
    inputs: Any,
    outputs: Any,
    proof: Any,
    *,
    executor: Executor | None = None,
) -> bool:
    """True when ``proof`` proves that ``outputs`` are ``inputs`` permuted and re-encrypted under
    ``joint`` in ``context`` (PROTOCOL.md 6.4). Never raises: anything malformed gives False.

    ``inputs``: the n ciphertexts the shuffle took (the previous shuffle's outputs or the computed
    deck); ``outputs`` and ``proof`` as received. Checks 9 fields, four arrays of n, every point
    valid and not the identity (each received point goes through libsodium's checked
    multiplication, which performs exactly that check, before it is added to anything), every scalar
    canonical and non-zero, the outputs pairwise distinct as [c1, c2] pairs, then the equations.
    ``executor``: when given, the four heavy parts run as tasks in it (in parallel, as libsodium
    releases the GIL); do not pass the executor this call itself runs in, if it has few workers.
    Answers are kept in the per-process memo (group.VERIFY_MEMO), keyed by the statement hash
    and the proof's canonical bytes, both taken from the values as parsed (so that no malformed
    variant can stand for a well-formed statement in the memo); a statement and proof this process
    made itself under that key (group.OWN_PROOFS, :func:`remember`) are valid without being
    verified. Cost ≈ 8n checked + n base multiplications.
    """
    parsed = _parse(context, joint, inputs, outputs, proof)
    if parsed is None:
        return False
    key = parsed.memo_key()
    if key in group.OWN_PROOFS:
        return True
    known = group.VERIFY_MEMO.get(key)
    if known is None:
        known = _check(parsed, executor)
        group.VERIFY_MEMO.put(key, known)
    return known


def known_valid(context: Any, joint: Any, inputs: Any, outputs: Any, proof: Any) -> bool:
    """True when this process already knows that ``proof`` proves this statement, without
    verifying anything: it made the proof itself (group.OWN_PROOFS, :func:`remember`) or verified
    it before (group.VERIFY_MEMO). False otherwise (unknown, or known to fail). Since a proof
    that verifies has had every received point through a checked multiplication and every scalar
    checked, the cheap checks of its entry (:func:`check_proof`, elgamal.check_ciphertexts on
    ``outputs``) pass whenever this is True and ``inputs`` are checked. Never raises."""
    parsed = _parse(context, joint, inputs, outputs, proof)
    if parsed is None:
        return False
    key = parsed.memo_key()
    return key in group.OWN_PROOFS or group.VERIFY_MEMO.get(key) is True


def remember(
    context: Any, joint: bytes, inputs: Sequence[Ciphertext], outputs: Sequence[Ciphertext], proof: Proof
) -> bool:
    """Keep a proof of shuffle this process made (group.OWN_PROOFS), so that the entry carrying it,
    folded by this process, is not verified again (PROTOCOL.md 6.4: an honestly made proof of a true
    statement verifies). The caller vouches that ``inputs`` and ``joint`` are checked points (its
    table's current deck and joint key) and that ``outputs`` and ``proof`` came from
    :func:`shuffle_and_prove` on them; this function checks the rest as the verifier would, cheaply
    (shape, every scalar canonical and non-zero, outputs pairwise distinct, no u_i, B_j or output
    the identity: the values made from checked points are then valid points) and keeps nothing if
    one fails. Returns whether it kept the proof. The same proof bytes under any other statement
    are verified as usual."""
    parsed = _parse(context, joint, inputs, outputs, proof)
    if parsed is None or IDENTITY in parsed.u or IDENTITY in parsed.B or any(IDENTITY in c for c in parsed.outs):
        return False
    group.OWN_PROOFS.add(parsed.memo_key())
    return True


def verify_uncached(
    context: Any,
    joint: bytes,
    inputs: Any,
    outputs: Any,
    proof: Any,
    *,
    executor: Executor | None = None,
) -> bool:
    """:func:`verify` without the memo."""
    parsed = _parse(context, joint, inputs, outputs, proof)
    return parsed is not None and _check(parsed, executor)


@dataclass(frozen=True)
class _Parsed:
    """A statement and proof of the right shape: every value bytes of the right size, every scalar
    canonical and non-zero, the outputs pairwise distinct (points not yet checked: see _check)."""

    st: bytes
    joint: bytes
    ins: list[Ciphertext]
    outs: list[Ciphertext]
    u: list[bytes]
    B: list[bytes]
    v: bytes
    k_A: bytes
    k_B: list[bytes]
    k_C: bytes
    k_D: bytes
    k_E: list[bytes]
    k_F: bytes

    def memo_key(self) -> tuple[str, bytes, bytes]:
        proof = [self.u, self.B, self.v, self.k_A, self.k_B, self.k_C, self.k_D, self.k_E, self.k_F]
        return ("shuffle", self.st, hashlib.sha256(codec.encode(proof)).digest())


def _parse(context: Any, joint: Any, inputs: Any, outputs: Any, proof: Any) -> _Parsed | None:
    try:
        if type(proof) is not list or len(proof) != PROOF_FIELDS or type(proof[0]) is not list:
            raise _Malformed
        n = len(proof[0])
        if n < 1 or type(joint) is not bytes or len(joint) != 32:
            raise _Malformed
        ins = _cards(inputs, n)
        outs = _cards(outputs, n)
        if len(set(outs)) != n:
            raise _Malformed
        return _Parsed(
            st=statement_hash(context, joint, ins, outs),
            joint=joint,
            ins=ins,
            outs=outs,
            u=_points(proof[0], n),
            B=_points(proof[1], n),
            v=_scalar(proof[2]),
            k_A=_scalar(proof[3]),
            k_B=_scalars(proof[4], n),
            k_C=_scalar(proof[5]),
            k_D=_scalar(proof[6]),
            k_E=_scalars(proof[7], n),
            k_F=_scalar(proof[8]),
        )
    except (_Malformed, VampireError, TypeError, ValueError):
        return None


def _check(p: _Parsed, executor: Executor | None) -> bool:
    try:
        return _equations(p, executor)
    except (CryptoError, VampireError):
        # libsodium refused a received point (invalid, of small order, the identity).
        return False


def _equations(p: _Parsed, executor: Executor | None) -> bool:
    n = len(p.u)
    ins, outs, u, B, v, joint = p.ins, p.outs, p.u, p.B, p.v, p.joint
    k_A, k_B, k_C, k_D, k_E, k_F = p.k_A, p.k_B, p.k_C, p.k_D, p.k_E, p.k_F
    w, e = _challenges(p.st, u)
    h = generators(n)
    minus_v = negate(v)
    minus_ve = [group.scalar_mul(minus_v, ei) for ei in e]  # −v·e_i

    # Each part is a sum of checked multiplications of received points; the parts are independent.
    def part_A() -> bytes:  # A' = k_A·G + Σ k_E,j·h_j − v·Σ e_i·u_i
        return padd(padd(group.base_mult(k_A), _msm(k_E, h)), _msm(minus_ve, u))

    def part_B() -> list[bytes]:  # B'_j = k_B,j·G + k_E,j·B_{j−1} − v·B_j
        prev = [CHAIN_GENERATOR, *B[:-1]]
        return [
            padd(padd(group.base_mult(k_B[j]), _checked_mul(k_E[j], prev[j])), _checked_mul(minus_v, B[j]))
            for j in range(n)
        ]

    def part_F(side: int, base: bytes) -> bytes:  # Σ k_E,j·c'_j − k_F·base − v·Σ e_i·c_i
        minus_kF = negate(k_F)
        based = group.base_mult(minus_kF) if base == G else _checked_mul(minus_kF, base)
        return padd(
            padd(_msm(k_E, [c[side] for c in outs]), based),
            _msm(minus_ve, [c[side] for c in ins]),
        )

    parts: list[Callable[[], Any]] = [part_A, part_B, lambda: part_F(0, G), lambda: part_F(1, joint)]
    if executor is None:
        A2, B2, F0, F1 = (part() for part in parts)
    else:
        futures = [executor.submit(part) for part in parts[1:]]
        first = parts[0]()
        A2, B2, F0, F1 = first, *(f.result() for f in futures)

    # Every u_i and B_j went through a checked multiplication above: they may be added now.
    # C_u and D are computed values and may be the identity (Σ r_i = 0): pmul handles that.
    C_u = psub(psum(u), generator_sum(n))
    prod_e = e[0]
    for ei in e[1:]:
        prod_e = group.scalar_mul(prod_e, ei)
    D = psub(B[-1], pmul(prod_e, CHAIN_GENERATOR))
    C2 = padd(group.base_mult(k_C), pmul(minus_v, C_u))
    D2 = padd(group.base_mult(k_D), pmul(minus_v, D))
    return _challenge(w, list(B), A2, B2, C2, D2, [F0, F1]) == v


def submit_verify(
    executor: Executor, context: Any, joint: bytes, inputs: Any, outputs: Any, proof: Any
) -> Future[bool]:
    """Run :func:`verify` as a task of ``executor`` (a concurrent.futures thread pool: libsodium
    releases the GIL, so proofs of different shuffles verify in parallel). The future's result is
    the boolean; it never raises."""
    return executor.submit(verify, context, joint, inputs, outputs, proof)


def proof_size(proof: Proof) -> int:
    """Bytes of the canonical msgpack encoding of ``proof`` (719 for n = 4; 34·(4n + 5) + 1 + 4·h
    where h is 1 for n < 16, 3 for n < 65536: the array headers)."""
    return len(codec.encode(proof))


_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()
POOL_WORKERS = max(4, usable_cpus())
"""Threads of each per-process pool: every usable CPU (:func:`usable_cpus`), and at least 4, the
parts of one proof or verification (libsodium releases the GIL: the parts of a proof or a
verification, and a seat's own shuffle, run on every core at once)."""


_PARTS: ThreadPoolExecutor | None = None


def parts_pool() -> ThreadPoolExecutor:
    """The per-process thread pool for the parts of one proof or verification (the ``executor`` of
    :func:`prove` and :func:`verify`): its tasks never wait on another task, so work running in
    :func:`pool` may split itself into it without waiting on the pool it runs in."""
    global _PARTS
    if _PARTS is None:
        with _POOL_LOCK:
            if _PARTS is None:
                _PARTS = ThreadPoolExecutor(max_workers=POOL_WORKERS, thread_name_prefix="vt-part")
    return _PARTS


def pool() -> ThreadPoolExecutor:
    """The per-process thread pool the table and the seats run proof work in (created on first
    use, :data:`POOL_WORKERS` threads, daemon-like: it holds no state). Callers that themselves run
    in it must not wait on it (see :func:`verify`)."""
    global _POOL
    if _POOL is None:
        with _POOL_LOCK:
            if _POOL is None:
                _POOL = ThreadPoolExecutor(max_workers=POOL_WORKERS, thread_name_prefix="vt-proof")
    return _POOL
