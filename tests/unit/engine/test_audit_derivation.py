"""The audit settles a proof of shuffle or a decryption share whose author's seed the log reveals
by deriving it from that seed (derivation.known_by_derivation, derivation.share_known_by_derivation)
when the log holds exactly what the seed gives, and verifies it otherwise: the answer is the
verification's in every case (PROTOCOL.md 6.3 item 4, 6.4). Honest statements are known so, and
verify; a statement or proof that is not what the seed gives is never known so (a valid proof not
made from the seed is then verified and accepted, a bad one refused); the audit of a game whose
seeds are all revealed names a bad proof or share at its entry as before."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.audit import ProofsAhead, audit_file, scan_seeds
from engine.protocol import codec, derivation, elgamal, group, shuffle_proof
from engine.protocol.deck import CardIndex
from engine.protocol.derivation import known_by_derivation
from engine.protocol.elgamal import ElGamalSecrets, joint_key, make_share, make_shuffle, public_deck
from engine.protocol.shuffle_proof import prove, shuffle_context, verify_uncached
from engine.table.hidden import closing
from tests.support.protocol import GAMES, Played, play, resign
from tests.unit.engine.test_audit_ahead import _forged, _keys, _seat, _shuffles

TABLE = bytes(range(32))
SLOW = settings(deadline=None, max_examples=10, suppress_health_check=[HealthCheck.too_slow])


def _seed(seat: int, salt: int) -> bytes:
    return hashlib.sha256(b"derivation test seed %d %d" % (seat, salt)).digest()


class Deal:
    """A public deck of ``n`` cards under the joint key of ``seats`` seats; seat 1 shuffles it."""

    def __init__(self, n: int, seats: int, salt: int) -> None:
        self.secrets = [ElGamalSecrets.derive(_seed(s, salt), TABLE, 0, s, n) for s in range(seats)]
        self.joint = joint_key([s.X for s in self.secrets])
        x = bytes(32)
        for s in self.secrets:
            x = group.scalar_add(x, s.x)
        self.x = x
        index = CardIndex.build(TABLE, "main", [f"card {k}" for k in range(n)])
        self.inputs = public_deck(self.joint, index.points)
        self.s = self.secrets[1]
        self.outputs = make_shuffle(self.s, self.joint, self.inputs)
        self.context = shuffle_context(TABLE, 0, 1)
        self.proof = prove(
            self.context, self.joint, self.inputs, self.outputs, self.s.perm, self.s.rho, self.s.nonce_key
        )

    def known(self, inputs: Any = None, outputs: Any = None, proof: Any = None, **kw: Any) -> bool:
        return known_by_derivation(
            kw.pop("context", self.context),
            kw.pop("joint", self.joint),
            self.inputs if inputs is None else inputs,
            self.outputs if outputs is None else outputs,
            self.proof if proof is None else proof,
            kw.pop("secrets", self.s),
            **kw,
        )


@pytest.fixture(autouse=True)
def fresh_memo(monkeypatch):
    """As a new process: nothing made, verified or recomputed in this one is known (the game the
    audits read is played first)."""
    two_rounds()
    monkeypatch.setattr(group, "VERIFY_MEMO", group.VerifyMemo())
    monkeypatch.setattr(group, "OWN_PROOFS", group.OwnProofs())
    monkeypatch.setattr(elgamal, "_REENCRYPTIONS", set())
    monkeypatch.setattr(closing, "_RECOMPUTED", {})


@SLOW
@given(n=st.integers(1, 12), seats=st.integers(2, 5), salt=st.integers(0, 2**16), with_log=st.booleans())
def test_an_honest_shuffle_is_known_by_derivation_and_verifies(n, seats, salt, with_log):
    group.VERIFY_MEMO = group.VerifyMemo()
    d = Deal(n, seats, salt)
    assert d.known(joint_log=d.x if with_log else None)
    assert verify_uncached(d.context, d.joint, d.inputs, d.outputs, d.proof)
    # Kept as the verification's answer, under the whole statement and proof.
    assert shuffle_proof.known_valid(d.context, d.joint, d.inputs, d.outputs, d.proof)


@SLOW
@given(n=st.integers(2, 10), salt=st.integers(0, 2**16), swap=st.integers(0, 2**16))
def test_outputs_that_are_not_the_seeds_shuffle_are_never_known_so(n, salt, swap):
    """Two outputs swapped, with the best proof the seat can make for them: not known by
    derivation, and refused by the verifier."""
    d = Deal(n, 3, salt)
    i, j = swap % n, (swap // n) % n
    j = j if j != i else (i + 1) % n
    outputs = list(d.outputs)
    outputs[i], outputs[j] = outputs[j], outputs[i]
    forged = prove(d.context, d.joint, d.inputs, outputs, d.s.perm, d.s.rho, d.s.nonce_key)
    assert not d.known(outputs=outputs, proof=forged)
    assert not d.known(outputs=outputs, proof=forged, joint_log=d.x)
    assert not verify_uncached(d.context, d.joint, d.inputs, outputs, forged)
    assert not shuffle_proof.known_valid(d.context, d.joint, d.inputs, outputs, forged)


def test_a_valid_proof_not_made_from_the_seed_is_not_known_so_but_verifies():
    d = Deal(6, 3, 1)
    other_key = bytes(32)
    proof = prove(d.context, d.joint, d.inputs, d.outputs, d.s.perm, d.s.rho, other_key)
    assert proof != d.proof
    assert not d.known(proof=proof)
    assert verify_uncached(d.context, d.joint, d.inputs, d.outputs, proof)


@pytest.mark.parametrize(
    "change",
    ["v", "u0", "context", "joint_log", "secrets", "inputs", "malformed"],
)
def test_any_other_statement_proof_or_secret_is_not_known_so(change):
    d = Deal(5, 3, 2)
    proof = list(d.proof)
    kw: dict[str, Any] = {}
    inputs = None
    if change == "v":
        proof[2] = group.scalar_from_int(5)
    elif change == "u0":
        proof[0] = [group.base_mult(group.scalar_from_int(3)), *proof[0][1:]]
    elif change == "context":
        kw["context"] = shuffle_context(TABLE, 1, 1)
    elif change == "joint_log":
        kw["joint_log"] = group.scalar_from_int(7)
    elif change == "secrets":
        kw["secrets"] = d.secrets[2]
    elif change == "inputs":
        inputs = [d.inputs[1], d.inputs[0], *d.inputs[2:]]
    else:
        proof = proof[:8]
    assert not d.known(inputs=inputs, proof=proof, **kw)
    assert not shuffle_proof.known_valid(d.context, d.joint, d.inputs, d.outputs, proof)


@SLOW
@given(salt=st.integers(0, 2**16), position=st.integers(0, 50))
def test_an_honest_share_is_known_by_derivation_and_verifies(salt, position):
    group.VERIFY_MEMO = group.VerifyMemo()
    d = Deal(2, 3, salt)
    s = d.secrets[2]
    c1 = d.outputs[0][0]
    D, proof = make_share(s, c1, position, remember=False)
    key = elgamal.nonce_key(_seed(2, salt), TABLE, 0, 2)
    assert key == s.nonce_key
    assert derivation.share_known_by_derivation(TABLE, 0, 2, position, s.X, c1, D, proof, s.x, key)
    assert elgamal.known_share(TABLE, 0, 2, position, s.X, c1, D, proof) is True
    assert elgamal.verify_share(TABLE, 0, 2, position, s.X, c1, D, proof)


def test_a_share_that_is_not_the_seeds_is_not_known_so():
    d = Deal(2, 3, 3)
    s, other = d.secrets[2], d.secrets[0]
    c1 = d.outputs[0][0]
    D, proof = make_share(s, c1, 4, remember=False)
    wrong_D, wrong_proof = make_share(other, c1, 4, remember=False)
    cases = [
        (s.X, c1, wrong_D, proof, s.x, s.nonce_key),  # another D
        (s.X, c1, D, wrong_proof, s.x, s.nonce_key),  # another proof
        (s.X, c1, D, proof, other.x, s.nonce_key),  # x that is not X's
        (s.X, c1, D, proof, s.x, other.nonce_key),  # a valid proof, but not made with this nonce key
        (s.X, d.outputs[1][0], D, proof, s.x, s.nonce_key),  # another position's c1
        (s.X, c1, D, proof[:63], s.x, s.nonce_key),  # malformed
    ]
    for X, c, dd, pf, x, key in cases:
        assert not derivation.share_known_by_derivation(TABLE, 0, 2, 4, X, c, dd, pf, x, key)
        assert elgamal.known_share(TABLE, 0, 2, 4, X, c, dd, pf) is None
    # The valid share under another nonce key is refused here only as "not known": it verifies.
    assert elgamal.verify_share(TABLE, 0, 2, 4, s.X, c1, D, proof)


def test_the_reference_proof_and_share_of_deck_v2_are_known_by_derivation_from_their_seeds():
    """shared/vectors/deck-v2.md: seat 1's proof (the file's SHA-256) and seat 0's share of output
    0, each known from its seat's seed alone, by every path (R = 1 + ρ for the public deck's c1)."""
    from tests.unit.engine.test_deck_v2_vectors import VECTORS, Setup

    v = Setup()
    s = v.shuffler
    assert hashlib.sha256(codec.encode(v.proof)).hexdigest() == VECTORS["SHA-256 of canonical proof"]
    x = bytes(32)
    for secrets in v.secrets:
        x = group.scalar_add(x, secrets.x)
    ones = [group.scalar_from_int(1)] * len(v.inputs)
    for kw in ({}, {"joint_log": x}, {"joint_log": x, "in_rand": ones}):
        group.VERIFY_MEMO = group.VerifyMemo()
        assert known_by_derivation(v.context, v.joint, v.inputs, v.outputs, v.proof, s, **kw)
    seat0 = v.secrets[0]
    assert v.share.hex() == VECTORS["share of seat 0 for output 0"]
    assert v.share_proof.hex() == VECTORS["its DLEQ proof"]
    R0 = group.scalar_add(ones[0], s.rho[0])  # output 0 takes input σ(0) = 0, whose c1 is G
    c1 = v.outputs[0][0]
    for c1_log in (None, R0):
        group.VERIFY_MEMO = group.VerifyMemo()
        assert derivation.share_known_by_derivation(
            TABLE, 0, 0, 0, seat0.X, c1, v.share, v.share_proof, seat0.x, seat0.nonce_key, c1_log=c1_log
        )


# --- the fixed-base paths a known randomness opens (each the same value as the plain formula) ------


def _R(seed: int) -> bytes:
    return group.hash_to_scalar("derivation test R", seed)


@SLOW
@given(n=st.integers(1, 10), salt=st.integers(0, 2**16))
def test_the_prover_with_known_c1_logs_makes_the_same_proof(n, salt):
    """c1'_j = R_j·G known: prove's F'_0 by one fixed-base multiplication is the same point."""
    d = Deal(n, 3, salt)
    inputs = [(group.base_mult(_R(salt + k)), c[1]) for k, c in enumerate(d.inputs)]
    outputs = make_shuffle(d.s, d.joint, inputs)
    logs = [group.scalar_add(_R(salt + i), d.s.rho[j]) for j, i in enumerate(d.s.perm)]
    assert all(group.base_mult(r) == outputs[j][0] for j, r in enumerate(logs))
    plain = prove(d.context, d.joint, inputs, outputs, d.s.perm, d.s.rho, d.s.nonce_key)
    assert prove(d.context, d.joint, inputs, outputs, d.s.perm, d.s.rho, d.s.nonce_key, c1_logs=logs) == plain
    rand = [_R(salt + k) for k in range(n)]
    assert known_by_derivation(d.context, d.joint, inputs, outputs, plain, d.s, in_rand=rand, joint_log=d.x)
    # A wrong guess of R is only a hint: the derivation goes the plain way and still knows it.
    group.VERIFY_MEMO = group.VerifyMemo()
    wrong = [_R(salt + k + 1) for k in range(n)]
    assert known_by_derivation(d.context, d.joint, inputs, outputs, plain, d.s, in_rand=wrong)


@SLOW
@given(salt=st.integers(0, 2**16), position=st.integers(0, 30))
def test_a_dleq_proof_with_a_known_b2_log_is_the_same_and_a_share_with_a_known_c1_log_is_known(salt, position):
    d = Deal(1, 3, salt)
    s, R = d.secrets[0], _R(salt)
    c1 = group.base_mult(R)
    D, proof = make_share(s, c1, position, remember=False)
    context = elgamal.share_context(TABLE, 0, 0, position)
    assert group.dleq_prove(s.x, group.G, s.X, c1, D, s.nonce_key, context, b2_log=R) == proof
    assert derivation.share_known_by_derivation(TABLE, 0, 0, position, s.X, c1, D, proof, s.x, s.nonce_key, c1_log=R)
    group.VERIFY_MEMO = group.VerifyMemo()
    wrong = _R(salt + 1)  # a wrong guess: the checked way, the same answer
    assert derivation.share_known_by_derivation(
        TABLE, 0, 0, position, s.X, c1, D, proof, s.x, s.nonce_key, c1_log=wrong
    )
    other = make_share(d.secrets[1], c1, position, remember=False)[0]
    assert not derivation.share_known_by_derivation(
        TABLE, 0, 0, position, s.X, c1, other, proof, s.x, s.nonce_key, c1_log=R
    )


@SLOW
@given(n=st.integers(1, 8), salt=st.integers(0, 2**16))
def test_a_private_deck_with_the_joint_keys_log_is_the_same_deck(n, salt):
    d = Deal(1, 3, salt)
    owner = ElGamalSecrets.derive(_seed(0, salt), TABLE, 0, 0, n, owner=True)
    points = [group.card_point(TABLE, "main", f"card {k}") for k in range(n)]
    plain = elgamal.private_deck(owner, d.joint, points)
    assert elgamal.private_deck(owner, d.joint, points, joint_log=d.x) == plain
    # and its reencryption is known once remembered, computed otherwise, the same either way
    s = ElGamalSecrets.derive(_seed(1, salt), TABLE, 0, 1, n)
    outputs = make_shuffle(s, d.joint, plain)
    assert elgamal.is_reencryption(s, d.joint, plain, outputs, joint_log=d.x)
    assert not elgamal.is_reencryption(s, d.joint, plain, [outputs[-1], *outputs[:-1]]) or n == 1


# --- at the audit ------------------------------------------------------------------------------------


_PLAYED: list[Played] = []


def two_rounds() -> Played:
    if not _PLAYED:
        _PLAYED.append(play(3, seed=5151, rounds=2, name="audit-derivation"))
    return _PLAYED[0]


class Counts:
    """How many proofs of shuffle were verified by their equations, and known by derivation
    (appended from the audit's threads: list.append is atomic)."""

    def __init__(self) -> None:
        self.checks: list[bytes] = []
        self.derivations: list[bool] = []

    @property
    def verified(self) -> int:
        return len(self.checks)

    @property
    def derived(self) -> int:
        return sum(self.derivations)


@pytest.fixture
def counted(monkeypatch) -> Counts:
    counts = Counts()
    real_check, real_known = shuffle_proof._check, derivation.known_by_derivation

    def check(parsed, executor):
        counts.checks.append(parsed.st)
        return real_check(parsed, executor)

    def known(*args, **kw):
        answer = real_known(*args, **kw)
        counts.derivations.append(answer)
        return answer

    monkeypatch.setattr(shuffle_proof, "_check", check)
    monkeypatch.setattr(derivation, "known_by_derivation", known)
    return counts


def test_a_clean_audit_with_every_seed_revealed_derives_its_proofs_and_shares(counted, monkeypatch):
    played = two_rounds()
    shares: list[bool] = []
    real = derivation.share_known_by_derivation
    monkeypatch.setattr(
        derivation, "share_known_by_derivation", lambda *a, **kw: shares.append(real(*a, **kw)) or shares[-1]
    )
    report = audit_file(played.log, GAMES)
    assert report.code == 0, report.text()
    assert (counted.derived, counted.verified) == (len(_shuffles(played)), 0)
    assert shares and all(shares)


def test_a_bad_share_is_named_at_its_entry_though_its_seed_is_revealed(tmp_path):
    played = two_rounds()
    target = next(e for e in played.entries if e.kind == "share")
    body = dict(target.body)
    body["shares"] = [group.base_mult(group.scalar_from_int(9)), *body["shares"][1:]]
    path = tmp_path / "bad-share.vtlog"
    path.write_bytes(_forged(played, [resign(target, _keys(played)[target.author], body=body)]))
    report = audit_file(path, GAMES)
    assert report.fault is not None and report.fault.seq == target.seq, report.text()
    assert report.fault.seat == _seat(played, target) and "fails its proof" in report.fault.what


def test_a_bad_proof_is_named_at_its_entry_though_its_seed_is_revealed(tmp_path, counted):
    played = two_rounds()
    target = _shuffles(played)[1]
    body = dict(target.body)
    proof = list(body["proof"])
    proof[2] = group.scalar_from_int(5) if proof[2] != group.scalar_from_int(5) else group.scalar_from_int(6)
    body["proof"] = proof
    path = tmp_path / "bad.vtlog"
    path.write_bytes(_forged(played, [resign(target, _keys(played)[target.author], body=body)]))
    report = audit_file(path, GAMES)
    assert report.fault is not None and report.fault.seq == target.seq, report.text()
    assert report.fault.seat == _seat(played, target) and "fails its proof" in report.fault.what
    assert counted.verified >= 1  # the derivation did not give it: it was verified


def test_a_valid_proof_not_made_from_the_seed_is_verified_and_passes_the_plain_audit(tmp_path, counted):
    """A seat that proves its true shuffle with other nonces: its proof is valid (the plain audit
    accepts it, as before; --strict names it, tests/unit/engine/test_audit_strict.py)."""
    played = two_rounds()
    target = _shuffles(played)[0]
    event, seat = target.body["event"], _seat(played, target)
    from engine.table import Checks, Keep, Table

    table = Table(GAMES, Checks.PEER, Keep.LAST)
    for e in played.entries[: target.seq]:
        table.apply(e)
    ev = table.events[event]
    inputs, joint = list(ev.cur), ev.joint
    assert joint is not None
    context = shuffle_context(table.table_id, event, seat)
    seed = next(
        e.body["seed"]
        for e in played.entries
        if e.kind == "seed-reveal" and e.author == target.author and e.body["event"] == event
    )
    s = ElGamalSecrets.derive(seed, table.table_id, event, seat, len(inputs))
    proof = prove(context, joint, inputs, target.body["cards"], s.perm, s.rho, bytes(32))
    assert proof != target.body["proof"]
    body = dict(target.body)
    body["proof"] = proof
    path = tmp_path / "other-nonces.vtlog"
    path.write_bytes(_forged(played, [resign(target, _keys(played)[target.author], body=body)]))
    report = audit_file(path, GAMES)
    assert report.code == 0, report.text()
    assert counted.verified == 1, counted.derivations


def test_the_seed_scan_finds_every_revealed_seed_and_proofs_ahead_stops_once_closed():
    played = two_rounds()
    seeds = scan_seeds(played.log)
    reveals = [e for e in played.entries if e.kind == "seed-reveal"]
    assert len(seeds) == len(reveals) > 0
    assert all(seeds[(e.body["event"], e.author)] == e.body["seed"] for e in reveals)
    from engine.table import Checks, Keep, Table

    ahead = ProofsAhead(Table(GAMES, Checks.PEER, Keep.LAST), seeds=seeds)
    ahead.close()
    for e in played.entries:
        ahead.read(e)
    assert ahead.verified == ahead.shares == 0


def test_the_seed_scan_of_a_damaged_file_finds_what_precedes_the_damage_and_never_raises(tmp_path):
    """The scan for revealed seeds is a hint: a frame header over the frame budget, a torn frame or
    bytes that are no canonical value end it quietly (the audit names the damage), and what came
    before is kept."""
    from engine.protocol.log import LOG_MAGIC

    assert scan_seeds(tmp_path / "missing.vtlog") == {}
    huge = tmp_path / "huge.vtlog"
    huge.write_bytes(LOG_MAGIC + (0xFFFFFFFF).to_bytes(4, "big") + b"seed-reveal" * 10)
    assert scan_seeds(huge) == {}
    garbage = tmp_path / "garbage.vtlog"
    garbage.write_bytes(LOG_MAGIC + (20).to_bytes(4, "big") + b"seed-reveal\xc1\xc1\xc1\xc1\xc1\xc1\xc1\xc1\xc1")
    assert scan_seeds(garbage) == {}
