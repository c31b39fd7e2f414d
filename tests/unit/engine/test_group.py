"""The group layer: point and scalar checks, hashing into the group, card points, DLEQ proofs
(PROTOCOL.md 6; bytes in docs/protocol.md, part 2)."""

from __future__ import annotations

import hashlib

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nacl import bindings as nb

from engine.errors import VampireError
from engine.protocol import group
from engine.protocol.group import BadPoint, BadScalar, G, L

P_FIELD = 2**255 - 19
IDENTITY = (1).to_bytes(32, "little")
TABLE = bytes(range(32))


def _enc(y: int, sign: int = 0) -> bytes:
    b = bytearray(y.to_bytes(32, "little"))
    b[31] |= sign << 7
    return bytes(b)


# The 8 points of small order, canonically encoded (y little-endian, sign of x in the top bit).
SMALL_ORDER = [
    IDENTITY,  # order 1
    _enc(P_FIELD - 1),  # (0, -1), order 2
    _enc(0),  # (sqrt(-1), 0), order 4
    _enc(0, 1),  # (-sqrt(-1), 0), order 4
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),  # order 8
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85"),
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa"),
]


def scalar(i: int) -> bytes:
    return group.hash_to_scalar("test", i)


def point(i: int) -> bytes:
    return group.card_point(TABLE, "test", f"card {i}")


# --- points ------------------------------------------------------------------------------------


def test_the_eight_small_order_points_are_points_of_order_dividing_8():
    for t in SMALL_ORDER:
        x = t
        for _ in range(3):
            x = nb.crypto_core_ed25519_add(x, x)
        assert x == IDENTITY
    assert len(set(SMALL_ORDER)) == 8


@pytest.mark.parametrize("t", SMALL_ORDER)
def test_every_small_order_point_is_refused(t):
    assert not group.is_point(t)
    with pytest.raises(BadPoint):
        group.check_point(t, "the lock")
    with pytest.raises(BadPoint):
        group.mult(scalar(1), t)


def test_a_point_with_a_small_order_component_is_refused():
    p = point(1)
    for t in SMALL_ORDER[1:]:
        mixed = nb.crypto_core_ed25519_add(p, t)
        assert not group.is_point(mixed)
        with pytest.raises(BadPoint):
            group.check_point(mixed)
        with pytest.raises(BadPoint):
            group.mult(scalar(2), mixed)


def test_non_canonical_encodings_are_refused():
    # y = p + r for r in 0..18 (y not reduced), both signs, and x = 0 with the sign bit set.
    encodings = [_enc(P_FIELD + r, s) for r in range(19) for s in (0, 1)]
    encodings += [_enc(1, 1), _enc(P_FIELD - 1, 1)]
    for b in encodings:
        assert not group.is_point(b)
        with pytest.raises(BadPoint):
            group.check_point(b)
        with pytest.raises(BadPoint):
            group.mult(scalar(3), b)


def test_a_y_that_is_on_no_point_is_refused():
    off = next(_enc(y) for y in range(2, 100) if _not_on_curve(_enc(y)))
    assert not group.is_point(off)
    with pytest.raises(BadPoint):
        group.check_point(off)


def _not_on_curve(b: bytes) -> bool:
    try:
        nb.crypto_core_ed25519_add(b, b)
    except Exception:
        return True
    return False


@pytest.mark.parametrize("junk", [None, "", b"", b"\x01" * 31, b"\x01" * 33, 5, bytearray(32), [1] * 32])
def test_values_that_are_not_32_bytes_are_refused_with_a_sentence(junk):
    assert not group.is_point(junk)
    with pytest.raises(BadPoint, match="Seat 3's lock"):
        group.check_point(junk, "seat 3's lock")
    with pytest.raises(VampireError):
        group.mult(scalar(1), junk)


@given(st.binary(min_size=0, max_size=40))
@settings(max_examples=300, deadline=None)
def test_check_point_never_crashes(b):
    try:
        assert group.check_point(b) == b
    except BadPoint:
        pass


def test_valid_points_are_accepted():
    for p in (G, point(1), group.base_mult(scalar(5))):
        assert group.check_point(p) == p


# --- scalars -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        bytes(32),  # zero
        L.to_bytes(32, "little"),  # ℓ, which reduces to zero
        (L + 1).to_bytes(32, "little"),  # over ℓ
        (2**253).to_bytes(32, "little"),
        b"\xff" * 32,
        b"\x01" * 31,
        None,
        7,
    ],
)
def test_zero_and_over_l_scalars_are_refused(bad):
    assert not group.is_scalar(bad)
    with pytest.raises(BadScalar, match="The key"):
        group.check_scalar(bad, "the key")
    with pytest.raises(BadScalar):
        group.base_mult(bad)
    with pytest.raises(BadScalar):
        group.mult(bad, point(1))
    with pytest.raises(BadScalar):
        group.invert(bad)


def test_the_largest_scalar_is_accepted():
    k = (L - 1).to_bytes(32, "little")
    assert group.check_scalar(k) == k
    # (ℓ−1)·P = −P, so P + (ℓ−1)·P is the identity.
    assert group.add(point(1), group.mult(k, point(1))) == IDENTITY


def test_invert_and_scalar_arithmetic():
    a = scalar(1)
    assert group.scalar_mul(a, group.invert(a)) == group.scalar_from_int(1)
    assert group.mult(group.invert(a), group.mult(a, point(2))) == point(2)
    assert group.scalar_to_int(group.scalar_from_int(L + 5)) == 5


def test_add_and_sub_refuse_what_is_not_on_the_curve():
    off = next(_enc(y) for y in range(2, 100) if _not_on_curve(_enc(y)))
    with pytest.raises(BadPoint):
        group.add(point(1), off)
    with pytest.raises(BadPoint):
        group.sub(off, point(1))
    assert group.sub(point(1), point(1)) == IDENTITY


# --- hashing into the group --------------------------------------------------------------------


def _packed(*items) -> bytes:
    return msgpack.packb(list(items), use_bin_type=True)


def test_hash_to_scalar_is_sha512_of_the_canonical_array_reduced_mod_l():
    fields = (TABLE, 3, 1, b"\x07" * 32)
    data = _packed("vampire-table/shuffle-key/v1", *fields)
    expected = int.from_bytes(hashlib.sha512(data).digest(), "little") % L
    assert group.hash_to_scalar("shuffle-key", *fields) == expected.to_bytes(32, "little")


def test_a_zero_hash_takes_the_next_counter_value_appended_to_the_array():
    seen = []

    def hasher(data: bytes) -> bytes:
        seen.append(data)
        return bytes(64) if len(seen) < 3 else hashlib.sha512(data).digest()

    k = group._hash_to_scalar(hasher, "dleq", (b"x", 5))
    assert seen == [
        _packed("vampire-table/dleq/v1", b"x", 5),
        _packed("vampire-table/dleq/v1", b"x", 5, 1),
        _packed("vampire-table/dleq/v1", b"x", 5, 2),
    ]
    assert group.is_scalar(k)


def test_a_hash_that_is_a_multiple_of_l_counts_as_zero():
    calls = []

    def hasher(data: bytes) -> bytes:
        calls.append(data)
        return L.to_bytes(64, "little") if len(calls) == 1 else hashlib.sha512(data).digest()

    assert group.is_scalar(group._hash_to_scalar(hasher, "p", ()))
    assert len(calls) == 2


def test_card_point_is_from_uniform_of_sha256_of_the_card_array():
    data = _packed("vampire-table/card/v1", TABLE, "main", "card 1")
    expected = nb.crypto_core_ed25519_from_uniform(hashlib.sha256(data).digest())
    assert group.card_point(TABLE, "main", "card 1") == expected
    # Known answer (docs/protocol.md, part 2, "Test vectors").
    assert expected.hex() == "2261a8dcdc5c408b34ec9283d5095bfb1cfa898ba2c86abdf393082ccc949978"
    assert group.is_point(expected)


def test_card_points_depend_on_table_deck_and_card():
    base = group.card_point(TABLE, "main", "a")
    assert base != group.card_point(bytes(32), "main", "a")
    assert base != group.card_point(TABLE, "other", "a")
    assert base != group.card_point(TABLE, "main", "b")


# --- DLEQ --------------------------------------------------------------------------------------

CTX = [TABLE, 2, 1, "lock", 7]
NONCE_KEY = b"\x11" * 32


def statement(x: bytes, b1: bytes, b2: bytes):
    return b1, group.mult(x, b1), b2, group.mult(x, b2)


@pytest.mark.parametrize("b2", [G, "point"])
def test_an_honest_proof_verifies(b2):
    x = scalar(10)
    st_ = statement(x, point(1), G if b2 == G else point(2))
    proof = group.dleq_prove(x, *st_, NONCE_KEY, CTX)
    assert len(proof) == 64
    assert group.dleq_verify(*st_, proof, CTX)


def test_the_proof_is_e_c_then_z_as_protocol_6_defines_them():
    x = scalar(10)
    b1, p1, b2, p2 = statement(x, point(1), point(2))
    proof = group.dleq_prove(x, b1, p1, b2, p2, NONCE_KEY, CTX)
    r = group.hash_to_scalar("dleq-nonce", NONCE_KEY, CTX, b1, p1, b2, p2)
    t1, t2 = group.mult(r, b1), group.mult(r, b2)
    e = group.hash_to_scalar("dleq", CTX, b1, p1, b2, p2, t1, t2)
    z = (group.scalar_to_int(r) + group.scalar_to_int(e) * group.scalar_to_int(x)) % L
    assert proof == e + z.to_bytes(32, "little")


def test_a_proof_of_unequal_logarithms_does_not_verify():
    x, y = scalar(10), scalar(11)
    b1, p1, b2 = point(1), group.mult(x, point(1)), point(2)
    p2 = group.mult(y, b2)
    assert not group.dleq_verify(b1, p1, b2, p2, group.dleq_prove(x, b1, p1, b2, p2, NONCE_KEY, CTX), CTX)
    assert not group.dleq_verify(b1, p1, b2, p2, group.dleq_prove(y, b1, p1, b2, p2, NONCE_KEY, CTX), CTX)


def test_an_altered_proof_or_statement_does_not_verify():
    x = scalar(10)
    st_ = statement(x, point(1), point(2))
    proof = group.dleq_prove(x, *st_, NONCE_KEY, CTX)
    for i in (0, 17, 31, 32, 50, 63):
        bad = bytearray(proof)
        bad[i] ^= 1
        assert not group.dleq_verify(*st_, bytes(bad), CTX)
    assert not group.dleq_verify(*st_, proof[32:] + proof[:32], CTX)
    b1, p1, b2, p2 = st_
    assert not group.dleq_verify(b1, p2, b2, p1, proof, CTX)
    assert not group.dleq_verify(point(3), p1, b2, p2, proof, CTX)
    assert not group.dleq_verify(b1, p1, b2, group.mult(scalar(12), b2), proof, CTX)


def test_a_proof_replayed_under_another_context_does_not_verify():
    x = scalar(10)
    st_ = statement(x, point(1), G)
    proof = group.dleq_prove(x, *st_, NONCE_KEY, CTX)
    for other in (
        [TABLE, 2, 1, "lock", 8],
        [TABLE, 2, 2, "lock", 7],
        [TABLE, 3, 1, "lock", 7],
        [TABLE, 2, 1, "unlock", 7],
        [bytes(32), 2, 1, "lock", 7],
    ):
        assert not group.dleq_verify(*st_, proof, other)


def test_the_nonce_is_bound_to_the_whole_statement():
    # With one x, one nonce key and one context, two statements must use two nonces: else
    # z1 − e1·x = z2 − e2·x and x = (z1 − z2)/(e1 − e2) leaks.
    x = scalar(10)
    nonces = set()
    for b1, b2 in ((point(1), G), (point(2), G), (point(1), point(3))):
        proof = group.dleq_prove(x, *statement(x, b1, b2), NONCE_KEY, CTX)
        e, z = (group.scalar_to_int(h) for h in (proof[:32], proof[32:]))
        nonces.add((z - e * group.scalar_to_int(x)) % L)
    assert len(nonces) == 3
    st_ = statement(x, point(1), G)
    assert group.dleq_prove(x, *st_, NONCE_KEY, CTX) == group.dleq_prove(x, *st_, NONCE_KEY, CTX)
    assert group.dleq_prove(x, *st_, NONCE_KEY, CTX) != group.dleq_prove(x, *st_, b"\x12" * 32, CTX)


def test_proofs_with_zero_or_unreduced_scalars_do_not_verify():
    x = scalar(10)
    st_ = statement(x, point(1), G)
    proof = group.dleq_prove(x, *st_, NONCE_KEY, CTX)
    e, z = proof[:32], proof[32:]
    for bad in (
        bytes(32) + z,
        e + bytes(32),
        (group.scalar_to_int(e) + L).to_bytes(32, "little") + z,
        e + (group.scalar_to_int(z) + L).to_bytes(32, "little"),
    ):
        assert not group.dleq_verify(*st_, bad, CTX)


def test_statements_with_small_order_points_do_not_verify():
    x = scalar(10)
    b1, p1, b2, p2 = statement(x, point(1), point(2))
    proof = group.dleq_prove(x, b1, p1, b2, p2, NONCE_KEY, CTX)
    for t in SMALL_ORDER:
        for i in range(4):
            st_ = [b1, p1, b2, p2]
            st_[i] = t
            assert not group.dleq_verify(*st_, proof, CTX)
    with pytest.raises(BadPoint):
        group.dleq_prove(x, SMALL_ORDER[4], p1, b2, p2, NONCE_KEY, CTX)


points_or_junk = st.one_of(
    st.binary(min_size=32, max_size=32),
    st.sampled_from(SMALL_ORDER + [G]),
    st.binary(max_size=40),
    st.none(),
    st.text(max_size=3),
)


@given(points_or_junk, points_or_junk, points_or_junk, points_or_junk, st.binary(max_size=70))
@settings(max_examples=200, deadline=None)
def test_verify_never_crashes_on_garbage(b1, p1, b2, p2, proof):
    assert group.dleq_verify(b1, p1, b2, p2, proof, CTX) in (False, True)
