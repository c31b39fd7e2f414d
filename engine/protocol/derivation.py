"""The audit's shortcut where a log reveals the seeds (docs/protocol.md 6.10): a proof of shuffle or a
decryption share is known valid when the author's secrets, derived from its revealed seed
(PROTOCOL.md 6.2), make the same statement true and give the same proof byte for byte. An honest
proof of a true statement verifies (PROTOCOL.md 6.4, 6.3 item 4), so the verifier's answer is True
and goes into group.VERIFY_MEMO under the whole statement and proof; anything else is "not known
so" and the caller verifies as usual."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Any

from nacl import bindings as nb
from nacl.exceptions import CryptoError

from engine.errors import VampireError
from engine.protocol import codec, elgamal, group, shuffle_proof
from engine.protocol.elgamal import IDENTITY, ElGamalSecrets, pmul, psub
from engine.protocol.group import G


def known_by_derivation(
    context: Any,
    joint: bytes,
    inputs: Any,
    outputs: Any,
    proof: Any,
    secrets: ElGamalSecrets,
    *,
    joint_log: bytes | None = None,
    in_rand: Sequence[bytes] | None = None,
    executor: Executor | None = None,
) -> bool:
    """True when this statement is true and ``proof`` is byte for byte the proof its author makes
    of it: the author's ``secrets`` (derived from its revealed seed, PROTOCOL.md 6.2) turn
    ``inputs`` into ``outputs`` (outputs_j − ρ_j·(G, H_e) = inputs_{σ(j)}, each point compared as
    libsodium's canonical encoding) and :func:`prove` with them gives ``proof``. Such a proof is
    valid (an honest proof of a true statement verifies, PROTOCOL.md 6.4; as for the proofs a
    process made itself, group.OWN_PROOFS): :func:`verify` then answers True, so this keeps True in
    group.VERIFY_MEMO under the statement and proof. False means only "not known so": the caller
    verifies as usual. Every point the verifier would check is checked on the way: ``joint`` is
    x·G for ``joint_log`` (x, the sum of every key share, when every seed of the event is known:
    the pads are then fixed-base multiplications) or goes through a checked multiplication, every
    output through one in :func:`prove` (whose u_j and B_j are then computed from valid points),
    the inputs are differences of valid points, and no point may be the identity. ``in_rand``: R_i
    with c1 of input i = R_i·G, as the revealed seeds give them (a guess: each output's c1 is then
    checked to be (R_{σ(j)} + ρ_j)·G, which makes it valid, and :func:`prove` takes the fixed-base
    path of its ``c1_logs``; after a wrong guess it does not). Cost ≈ 5n checked and 5n base
    multiplications (with ``joint_log``; 6n and 4n without; n checked fewer and n base more with
    ``in_rand``), against 8n and n for :func:`verify`. Never raises."""
    parsed = shuffle_proof._parse(context, joint, inputs, outputs, proof)
    s = secrets
    if (
        parsed is None
        or s.n != len(parsed.u)
        or context != shuffle_proof.shuffle_context(s.table, s.event, s.seat)
        or IDENTITY in parsed.u
        or IDENTITY in parsed.B
        or any(IDENTITY in c for c in parsed.ins)
        or any(IDENTITY in c for c in parsed.outs)
    ):
        return False
    ins, outs = parsed.ins, parsed.outs
    try:
        if joint_log is None:
            if not group.is_point(joint):
                return False
            pads = [(pmul(r, G), pmul(r, joint)) for r in s.rho]
        else:
            if group.base_mult(joint_log) != joint:
                return False
            pads = [(pmul(r, G), pmul(group.scalar_mul(r, joint_log), G)) for r in s.rho]
        for j, i in enumerate(s.perm):
            if psub(outs[j][0], pads[j][0]) != ins[i][0] or psub(outs[j][1], pads[j][1]) != ins[i][1]:
                return False
        c1_logs = None
        if in_rand is not None and len(in_rand) == s.n:
            c1_logs = [group.scalar_add(in_rand[i], s.rho[j]) for j, i in enumerate(s.perm)]
            if any(pmul(r, G) != outs[j][0] for j, r in enumerate(c1_logs)):
                c1_logs = None  # a wrong guess: every c1 goes through prove's checked multiplications
        mine = shuffle_proof.prove(
            context, joint, ins, outs, s.perm, s.rho, s.nonce_key, executor=executor, c1_logs=c1_logs
        )
    except (CryptoError, VampireError, ValueError):
        return False
    p = parsed
    if codec.encode(mine) != codec.encode([p.u, p.B, p.v, p.k_A, p.k_B, p.k_C, p.k_D, p.k_E, p.k_F]):
        return False
    group.VERIFY_MEMO.put(parsed.memo_key(), True)
    elgamal.remember_reencryption(s, joint, ins, outs)  # the seed reveal's recompute of this shuffle
    return True


def share_known_by_derivation(
    table: bytes,
    event: int,
    seat: int,
    position: int,
    X: bytes,
    c1: bytes,
    D: Any,
    proof: Any,
    x: bytes,
    key: bytes,
    *,
    c1_log: bytes | None = None,
) -> bool:
    """True when ``D`` = x·c1 and ``proof`` is byte for byte the DLEQ proof ``seat`` makes of it
    (:func:`make_share`) with its key share ``x`` (X = x·G, checked here) and its nonce key ``key``
    (:func:`nonce_key`), both derived from its revealed seed. Such a share verifies (an honest proof
    of a true statement, PROTOCOL.md 6.3 item 4): :func:`verify_share` answers True, so this keeps
    True in group.VERIFY_MEMO under the statement and proof. False means only "not known so" (the
    caller verifies). Every point the verifier checks is checked: c1 by the checked x·c1, D equal
    to it, X equal to x·G; the proof's two scalars canonical and non-zero. ``c1_log``: R with
    c1 = R·G as the revealed seeds give it (a guess, checked: where c1 equals R·G, which makes it
    valid, x·c1 and the nonce's r·c1 are fixed-base multiplications). Cost: 2 checked and 2
    base multiplications (5 base with ``c1_log``), against 3 checked and 1 base for
    :func:`verify_share`. Never raises."""
    if type(D) is not bytes or type(proof) is not bytes or len(proof) != group.PROOF_BYTES:
        return False
    if not (group.is_scalar(proof[:32]) and group.is_scalar(proof[32:]) and group.is_scalar(x)):
        return False
    context = elgamal.share_context(table, event, seat, position)
    try:
        if group.base_mult(x) != X:
            return False
        if c1_log is not None and (c1 == IDENTITY or pmul(c1_log, G) != c1):
            c1_log = None  # a wrong guess: c1 goes through the checked multiplications
        if c1_log is None:
            if nb.crypto_scalarmult_ed25519_noclamp(x, c1) != D:
                return False
        elif pmul(group.scalar_mul(x, c1_log), G) != D:
            return False
        if group.dleq_prove(x, G, X, c1, D, key, context, b2_log=c1_log) != proof:
            return False
    except (CryptoError, group.GroupError, TypeError):
        return False
    memo_key = group.dleq_key(G, X, c1, D, proof, context)
    if memo_key is not None:
        group.VERIFY_MEMO.put(memo_key, True)
    return True
