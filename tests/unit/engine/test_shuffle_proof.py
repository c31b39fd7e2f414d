"""The proof of shuffle of version 2 (PROTOCOL.md 6.4): honest chains of shufflers verify; any
changed byte, any shuffle that swaps in, drops, duplicates, replaces or plants a card, and any proof
copied to another context is refused; malformed proofs give False without raising; verification in
worker threads gives the same answers."""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.protocol import codec, group
from engine.protocol.deck import BadBody, BadPoint, BadScalar, CardIndex
from engine.protocol.elgamal import (
    IDENTITY,
    Ciphertext,
    ElGamalSecrets,
    decode,
    joint_key,
    make_share,
    make_shuffle,
    open_card,
    padd,
    public_deck,
    reencrypt,
)
from engine.protocol.group import G
from engine.protocol.shuffle_proof import (
    check_proof,
    generators,
    nonce_scalars,
    proof_size,
    prove,
    shuffle_context,
    statement_hash,
    submit_verify,
    verify,
    verify_uncached,
)

TABLE = bytes(range(32))
OTHER_TABLE = bytes(32)
SMALL_ORDER = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
SLOW = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def seed_of(seat: int, salt: int = 0) -> bytes:
    return hashlib.sha256(b"shuffle proof test seed %d %d" % (seat, salt)).digest()


class Table:
    """A public deck of ``n`` cards under the joint key of ``seats`` participants of ``event``."""

    def __init__(self, n: int, seats: int = 4, event: int = 0, salt: int = 0, table: bytes = TABLE) -> None:
        self.n, self.event, self.table = n, event, table
        self.index = CardIndex.build(table, "main", [f"card {k}" for k in range(n)])
        self.secrets = [ElGamalSecrets.derive(seed_of(s, salt), table, event, s, n) for s in range(seats)]
        self.joint = joint_key([s.X for s in self.secrets])
        self.deck = public_deck(self.joint, self.index.points)

    def context(self, seat: int) -> list[Any]:
        return shuffle_context(self.table, self.event, seat)

    def shuffle(self, seat: int, inputs: list[Ciphertext]) -> tuple[list[Ciphertext], list[Any]]:
        """An honest shuffle by ``seat`` and its proof."""
        s = self.secrets[seat]
        outputs = make_shuffle(s, self.joint, inputs)
        return outputs, prove(self.context(seat), self.joint, inputs, outputs, s.perm, s.rho, s.nonce_key)

    def prove_as(self, seat: int, inputs: list[Ciphertext], outputs: list[Ciphertext]) -> list[Any]:
        """The best a cheating ``seat`` can do for ``outputs`` it did not get honestly: a proof made
        with its own σ and ρ."""
        s = self.secrets[seat]
        return prove(self.context(seat), self.joint, inputs, outputs, s.perm, s.rho, s.nonce_key)

    def verify(self, seat: int, inputs: Any, outputs: Any, proof: Any) -> bool:
        return verify_uncached(self.context(seat), self.joint, inputs, outputs, proof)

    def open_all(self, cards: list[Ciphertext]) -> list[str | None]:
        out = []
        for k, c in enumerate(cards):
            shares = [make_share(s, c[0], k)[0] for s in self.secrets]
            out.append(open_card(c, shares, self.index.lookup))
        return out


@pytest.fixture(scope="module")
def small() -> tuple[Table, list[Ciphertext], list[Any]]:
    t = Table(12)
    outputs, proof = t.shuffle(1, t.deck)
    return t, outputs, proof


# --- honest proofs -----------------------------------------------------------------------------------


@settings(SLOW, max_examples=6)
@given(n=st.integers(1, 120), seats=st.integers(2, 12), salt=st.integers(0, 2**16))
def test_a_chain_of_honest_shuffles_verifies_and_keeps_the_deck(n: int, seats: int, salt: int) -> None:
    t = Table(n, seats, event=salt % 5, salt=salt)
    cards = t.deck
    # Keep the work of one example bounded: long decks get a shorter chain (seat counts still vary).
    shufflers = list(range(seats)) if n * seats <= 360 else [seats - 1, 0]
    for seat in shufflers:
        outputs, proof = t.shuffle(seat, cards)
        assert t.verify(seat, cards, outputs, proof)
        assert proof_size(proof) == len(codec.encode(proof))
        cards = outputs
    assert sorted(c or "" for c in t.open_all(cards)) == sorted(t.index.cards)


@settings(SLOW, max_examples=8)
@given(perm=st.permutations(list(range(10))), salt=st.integers(0, 2**16))
def test_any_permutation_and_randomness_verifies(perm: list[int], salt: int) -> None:
    t = Table(10)
    rho = [group.hash_to_scalar("test rho", salt, j) for j in range(10)]
    outputs = reencrypt(t.deck, perm, rho, t.joint)
    proof = prove(t.context(2), t.joint, t.deck, outputs, perm, rho, seed_of(99, salt))
    assert t.verify(2, t.deck, outputs, proof)
    assert t.open_all(outputs) == [f"card {i}" for i in perm]


def test_a_deck_of_one_card() -> None:
    t = Table(1)
    outputs, proof = t.shuffle(0, t.deck)
    assert t.verify(0, t.deck, outputs, proof)
    assert not t.verify(0, t.deck, t.deck, proof)


def test_the_prover_is_deterministic_and_its_stream_skips_nothing_visible(
    small: tuple[Table, list[Ciphertext], list[Any]],
) -> None:
    t, outputs, proof = small
    assert t.shuffle(1, t.deck) == (outputs, proof)
    st_hash = statement_hash(t.context(1), t.joint, t.deck, outputs)
    stream = nonce_scalars(t.secrets[1].nonce_key, st_hash)
    draws = [next(stream) for _ in range(4 * t.n + 4)]
    assert all(group.is_scalar(k) for k in draws) and len(set(draws)) == len(draws)
    replayed = prove(
        t.context(1), t.joint, t.deck, outputs, t.secrets[1].perm, t.secrets[1].rho, b"", randomness=iter(draws)
    )
    assert replayed == proof


def test_generators_are_cached_and_distinct() -> None:
    h = generators(130)
    assert generators(5) == h[:5]
    assert len(set(h)) == 130 and all(group.is_point(p) for p in h)


# --- changed bytes -----------------------------------------------------------------------------------


def _flip(value: bytes, at: int, by: int) -> bytes:
    b = bytearray(value)
    b[at % len(b)] ^= by
    return bytes(b)


@settings(SLOW, max_examples=12)
@given(
    n=st.integers(1, 120),
    field=st.integers(0, 8),
    item=st.integers(0, 10**6),
    at=st.integers(0, 31),
    by=st.integers(1, 255),
)
def test_any_single_changed_byte_of_the_proof_is_refused(n: int, field: int, item: int, at: int, by: int) -> None:
    t = Table(n, seats=3, salt=n)
    outputs, proof = t.shuffle(2, t.deck)
    bad = [list(f) if isinstance(f, list) else f for f in proof]
    if isinstance(bad[field], list):
        bad[field][item % n] = _flip(bad[field][item % n], at, by)
    else:
        bad[field] = _flip(bad[field], at, by)
    assert not t.verify(2, t.deck, outputs, bad)


@settings(SLOW, max_examples=12)
@given(
    n=st.integers(1, 120),
    item=st.integers(0, 10**6),
    side=st.integers(0, 1),
    at=st.integers(0, 31),
    by=st.integers(1, 255),
)
def test_any_single_changed_byte_of_the_outputs_or_inputs_is_refused(
    n: int, item: int, side: int, at: int, by: int
) -> None:
    t = Table(n, seats=3, salt=n + 1)
    outputs, proof = t.shuffle(0, t.deck)
    j = item % n
    bad = [list(c) for c in outputs]
    bad[j][side] = _flip(bad[j][side], at, by)
    assert not t.verify(0, t.deck, bad, proof)
    bad_in = [list(c) for c in t.deck]
    bad_in[j][side] = _flip(bad_in[j][side], at, by)
    assert not t.verify(0, bad_in, outputs, proof)


@settings(SLOW, max_examples=10)
@given(at=st.integers(0, 10**6), by=st.integers(1, 255))
def test_any_changed_byte_of_the_encoded_proof_is_refused(
    small: tuple[Table, list[Ciphertext], list[Any]], at: int, by: int
) -> None:
    t, outputs, proof = small
    data = codec.encode(proof)
    try:
        bad = codec.decode(_flip(data, at, by))
    except codec.CodecError:
        return  # refused by the decoder before any verification
    assert not t.verify(1, t.deck, outputs, bad)


# --- cheating shuffles -------------------------------------------------------------------------------


def _encrypt(t: Table, point: bytes, r: str) -> Ciphertext:
    k = group.hash_to_scalar("test encrypt", r)
    return group.base_mult(k), group.add(point, group.mult(k, t.joint))


@pytest.mark.parametrize("cheat", ["swap in", "drop and duplicate", "replace", "reorder only", "same randomness"])
def test_a_shuffle_that_changes_the_cards_fails(small: tuple[Table, list[Ciphertext], list[Any]], cheat: str) -> None:
    t, honest, _ = small
    outputs = list(honest)
    if cheat == "swap in":  # a card of another deck (here another table's card 0) in place of output 3
        outputs[3] = _encrypt(t, group.card_point(OTHER_TABLE, "main", "card 0"), "swap")
    elif cheat == "drop and duplicate":  # output 5 is a fresh encryption of output 4's card
        rerandom = group.hash_to_scalar("test rerandom")
        outputs[5] = (
            group.add(outputs[4][0], group.base_mult(rerandom)),
            group.add(outputs[4][1], group.mult(rerandom, t.joint)),
        )
    elif cheat == "replace":  # a point that is no card at all
        outputs[0] = _encrypt(t, group.base_mult(group.hash_to_scalar("not a card")), "replace")
    elif cheat == "reorder only":  # two outputs exchanged after the proof was made
        outputs[0], outputs[1] = outputs[1], outputs[0]
    elif cheat == "same randomness":  # one output re-encrypted once more
        outputs[2] = (group.add(outputs[2][0], G), group.add(outputs[2][1], t.joint))
    assert outputs != honest
    proof = t.prove_as(1, t.deck, outputs)
    # Well-formed (it passes the cheap checks and is appended), and its proof fails: a proven cheat.
    assert check_proof(proof, t.n) == proof
    assert not t.verify(1, t.deck, outputs, proof)


def test_duplicated_outputs_are_refused(small: tuple[Table, list[Ciphertext], list[Any]]) -> None:
    t, honest, proof = small
    outputs = [*honest[:-1], honest[0]]
    assert not t.verify(1, t.deck, outputs, proof)
    assert not t.verify(1, t.deck, outputs, t.prove_as(1, t.deck, outputs))


def test_the_relation_planting_attack_fails_at_the_planters_proof() -> None:
    """Seat 0 hands seat 1 an input in which card 2's M is replaced by r·M (a point a colluding later
    shuffler could search for). Its shuffle entry is refused: the attack is named at the planter."""
    t = Table(20)
    outputs, _ = t.shuffle(0, t.deck)
    j = t.secrets[0].perm.index(2)  # the output that holds card 2
    m = t.index.points[2]
    r = group.hash_to_scalar("test plant")
    planted = list(outputs)
    # c2 + (r − 1)·M turns the plaintext M into r·M without knowing any key.
    planted[j] = (outputs[j][0], group.add(outputs[j][1], group.mult(group.scalar_sub(r, group.scalar_from_int(1)), m)))
    proof = t.prove_as(0, t.deck, planted)
    assert not t.verify(0, t.deck, planted, proof)
    # Had it been accepted, the plant would be findable: card 2's ciphertext decodes to r·M.
    shares = [make_share(s, planted[j][0], j)[0] for s in t.secrets]
    assert decode(planted[j], shares) == group.mult(r, m)


def test_a_card_in_the_clear_is_refused(small: tuple[Table, list[Ciphertext], list[Any]]) -> None:
    t, _, _ = small
    s = t.secrets[1]
    rho = list(s.rho)
    rho[0] = group.scalar_from_int(group.L - 1)  # cancels the public deck's randomness 1
    outputs = reencrypt(t.deck, s.perm, rho, t.joint)
    assert outputs[0][0] == IDENTITY
    proof = prove(t.context(1), t.joint, t.deck, outputs, s.perm, rho, s.nonce_key)
    assert not t.verify(1, t.deck, outputs, proof)


# --- context -----------------------------------------------------------------------------------------


def test_a_proof_copied_to_another_context_is_refused(small: tuple[Table, list[Ciphertext], list[Any]]) -> None:
    t, outputs, proof = small
    assert t.verify(1, t.deck, outputs, proof)
    assert not t.verify(2, t.deck, outputs, proof)  # another seat
    assert not verify_uncached(shuffle_context(TABLE, 1, 1), t.joint, t.deck, outputs, proof)  # another event
    assert not verify_uncached(shuffle_context(OTHER_TABLE, 0, 1), t.joint, t.deck, outputs, proof)  # another table
    other_key = padd(t.joint, G)
    assert not verify_uncached(t.context(1), other_key, t.deck, outputs, proof)  # another joint key
    assert not verify_uncached(shuffle_context(TABLE, 0, 1), t.joint, outputs, t.deck, proof)  # reversed


def test_a_whole_shuffle_copied_from_another_event_is_refused() -> None:
    """The same cards and seeds in event 1: the entry of event 0 is refused there, and a proof made
    for event 1 of the very same statement differs."""
    a, b = Table(8, event=0), Table(8, event=1)
    outputs, proof = a.shuffle(1, a.deck)
    assert not b.verify(1, b.deck, outputs, proof)
    assert not b.verify(1, a.deck, outputs, proof)


# --- malformed ---------------------------------------------------------------------------------------


def _malformed(proof: list[Any], outputs: list[Ciphertext], n: int) -> list[tuple[str, Any, Any]]:
    def with_field(i: int, value: Any) -> list[Any]:
        bad = list(proof)
        bad[i] = value
        return bad

    zero, big = bytes(32), group.L.to_bytes(32, "little")
    return [
        ("not a list", tuple(proof), outputs),
        ("8 fields", proof[:8], outputs),
        ("10 fields", [*proof, proof[2]], outputs),
        ("None", None, outputs),
        ("u too short", with_field(0, proof[0][:-1]), outputs),
        ("B too long", with_field(1, [*proof[1], proof[1][0]]), outputs),
        ("k_B too short", with_field(4, proof[4][:-1]), outputs),
        ("k_E not a list", with_field(7, b"x"), outputs),
        ("v zero", with_field(2, zero), outputs),
        ("k_A not canonical", with_field(3, big), outputs),
        ("k_F zero", with_field(8, zero), outputs),
        ("k_C short", with_field(5, proof[5][:31]), outputs),
        ("k_D str", with_field(6, "x" * 32), outputs),
        ("k_E item zero", with_field(7, [zero, *proof[7][1:]]), outputs),
        ("u identity", with_field(0, [IDENTITY, *proof[0][1:]]), outputs),
        ("B small order", with_field(1, [*proof[1][:-1], SMALL_ORDER]), outputs),
        ("u not a point", with_field(0, [b"\xff" * 32, *proof[0][1:]]), outputs),
        ("u not bytes", with_field(0, [1, *proof[0][1:]]), outputs),
        ("output identity", proof, [(IDENTITY, outputs[0][1]), *outputs[1:]]),
        ("output small order", proof, [(outputs[0][0], SMALL_ORDER), *outputs[1:]]),
        ("output of 3 points", proof, [[*outputs[0], outputs[0][0]], *outputs[1:]]),
        ("outputs too short", proof, outputs[:-1]),
        ("outputs None", proof, None),
        ("output not bytes", proof, [(1, 2), *outputs[1:]]),
    ]


def test_a_malformed_proof_or_statement_gives_false(small: tuple[Table, list[Ciphertext], list[Any]]) -> None:
    t, outputs, proof = small
    for name, bad_proof, bad_outputs in _malformed(proof, outputs, t.n):
        assert not t.verify(1, t.deck, bad_outputs, bad_proof), name
        assert not verify(t.context(1), t.joint, t.deck, bad_outputs, bad_proof), name
    for joint in (IDENTITY, SMALL_ORDER, None, b"x"):
        assert not verify(t.context(1), joint, t.deck, outputs, proof)
    assert not verify(object(), t.joint, t.deck, outputs, proof)


@settings(SLOW, max_examples=60)
@given(
    garbage=st.recursive(st.none() | st.booleans() | st.integers() | st.binary(max_size=33), st.lists, max_leaves=30)
)
def test_garbage_never_raises(small: tuple[Table, list[Ciphertext], list[Any]], garbage: Any) -> None:
    t, outputs, proof = small
    assert not t.verify(1, t.deck, outputs, garbage)
    assert not t.verify(1, t.deck, garbage, proof)
    assert not t.verify(1, garbage, outputs, proof)


# --- threads and the memo ----------------------------------------------------------------------------


def test_verification_in_worker_threads_gives_the_same_answers() -> None:
    t = Table(30, seats=3)
    cards = t.deck
    chain = []
    for seat in range(3):
        outputs, proof = t.shuffle(seat, cards)
        chain.append((seat, cards, outputs, proof))
        cards = outputs
    bad = [(seat, i, o, [*p[:2], p[2], p[4][0], *p[4:]]) for seat, i, o, p in chain]
    group.VERIFY_MEMO.enabled = False
    try:
        with ThreadPoolExecutor(2) as pool:
            futures = [submit_verify(pool, t.context(s), t.joint, i, o, p) for s, i, o, p in chain + bad]
            assert [f.result() for f in futures] == [True] * 3 + [False] * 3
        with ThreadPoolExecutor(3) as pool:
            for s, i, o, p in chain:
                sec = t.secrets[s]
                assert prove(t.context(s), t.joint, i, o, sec.perm, sec.rho, sec.nonce_key, executor=pool) == p
                assert verify(t.context(s), t.joint, i, o, p, executor=pool)
                assert not verify(t.context(s), t.joint, i, o, [*p[:2], p[3], p[2], *p[4:]], executor=pool)
    finally:
        group.VERIFY_MEMO.enabled = True


def test_the_memo_keeps_answers_by_statement_and_proof(small: tuple[Table, list[Ciphertext], list[Any]]) -> None:
    t, outputs, proof = small
    assert verify(t.context(1), t.joint, t.deck, outputs, proof)
    assert verify(t.context(1), t.joint, t.deck, outputs, proof)  # answered by the memo
    assert not verify(t.context(2), t.joint, t.deck, outputs, proof)  # another statement: computed


def test_the_cheap_checks_pass_an_honest_proof_and_refuse_a_malformed_one(
    small: tuple[Table, list[Ciphertext], list[Any]],
) -> None:
    t, outputs, proof = small
    assert check_proof(proof, t.n) == proof
    refused = 0
    for name, bad_proof, bad_outputs in _malformed(proof, outputs, t.n):
        if bad_outputs is not outputs:
            continue  # outputs are checked by elgamal.check_ciphertexts (test_elgamal.py)
        with pytest.raises((BadBody, BadPoint, BadScalar)):
            check_proof(bad_proof, t.n)
            pytest.fail(name)
        refused += 1
    assert refused == 18
    with pytest.raises(BadBody):
        check_proof(proof, t.n + 1)
    with pytest.raises(BadPoint, match="u_0"):
        check_proof([[IDENTITY, *proof[0][1:]], *proof[1:]], t.n)
    with pytest.raises(BadScalar, match="k_E,1"):
        check_proof([*proof[:7], [proof[7][0], bytes(32), *proof[7][2:]], proof[8]], t.n)
