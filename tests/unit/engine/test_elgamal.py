"""The joint-key ElGamal deck of version 2 (PROTOCOL.md 6.2, 6.3): per-event secrets, key shares and
their proof of knowledge, the joint key, public and private decks, the re-encryption shuffle,
decryption shares with their DLEQ proofs, decoding and the key-reveal check; the cheats a key or a
share can attempt."""

from __future__ import annotations

import dataclasses
import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.protocol import group
from engine.protocol.deck import BadBody, BadScalar, CardIndex, DeckProofError, DuplicatePoints
from engine.protocol.elgamal import (
    IDENTITY,
    Ciphertext,
    ElGamalSecrets,
    check_ciphertexts,
    check_key_fields,
    check_key_reveal,
    check_share_fields,
    decode,
    joint_key,
    key_share,
    make_share,
    make_shuffle,
    negate,
    open_card,
    padd,
    pmul,
    private_deck,
    prove_key,
    psub,
    psum,
    public_deck,
    verify_key,
    verify_share,
)
from engine.protocol.group import BadPoint, G

TABLE = bytes(range(32))
OTHER_TABLE = bytes(32)
SMALL_ORDER = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")


def seed_of(seat: int, event: int = 0) -> bytes:
    return hashlib.sha256(b"elgamal test seed %d %d" % (seat, event)).digest()


class Event:
    """One event of a public deck of ``n`` cards among ``seats`` participants, shuffled by each in
    seat order (the proofs are engine.protocol.shuffle_proof's, tested there)."""

    def __init__(self, n: int = 8, seats: int = 4, event: int = 0) -> None:
        self.n, self.event = n, event
        self.index = CardIndex.build(TABLE, "main", [f"card {k}" for k in range(n)])
        self.secrets = [ElGamalSecrets.derive(seed_of(s, event), TABLE, event, s, n) for s in range(seats)]
        self.joint = joint_key([s.X for s in self.secrets])
        self.initial = public_deck(self.joint, self.index.points)
        cards = self.initial
        for s in self.secrets:
            cards = make_shuffle(s, self.joint, cards)
        self.final: list[Ciphertext] = cards

    def shares(self, position: int, without: int | None = None) -> list[bytes]:
        c1 = self.final[position][0]
        return [make_share(s, c1, position)[0] for s in self.secrets if s.seat != without]


@pytest.fixture(scope="module")
def event() -> Event:
    return Event()


# --- secrets -----------------------------------------------------------------------------------------


def test_secrets_are_per_event_and_per_seat() -> None:
    a = ElGamalSecrets.derive(seed_of(0), TABLE, 0, 0, 5)
    assert a == ElGamalSecrets.derive(seed_of(0), TABLE, 0, 0, 5)
    assert a.x == key_share(seed_of(0), TABLE, 0, 0)
    assert sorted(a.perm) == list(range(5)) and len(a.rho) == 5 and a.deck_rand == ()
    others = [
        ElGamalSecrets.derive(seed_of(0), TABLE, 1, 0, 5),
        ElGamalSecrets.derive(seed_of(0), TABLE, 0, 1, 5),
        ElGamalSecrets.derive(seed_of(0), OTHER_TABLE, 0, 0, 5),
    ]
    for b in others:
        assert b.x != a.x and b.rho[0] != a.rho[0] and b.nonce_key != a.nonce_key
    owner = ElGamalSecrets.derive(seed_of(0), TABLE, 0, 0, 5, owner=True)
    assert len(owner.deck_rand) == 5 and set(owner.deck_rand).isdisjoint(owner.rho)
    assert repr(seed_of(0)) not in repr(owner) and repr(owner.x) not in repr(owner)


def test_a_reshuffle_inherits_the_key_share_only() -> None:
    x = key_share(seed_of(0, 3), TABLE, 3, 0)
    r = ElGamalSecrets.derive(seed_of(0, 7), TABLE, 7, 0, 5, inherited_x=x)
    fresh = ElGamalSecrets.derive(seed_of(0, 7), TABLE, 7, 0, 5)
    assert r.x == x != fresh.x
    assert (r.rho, r.perm, r.nonce_key) == (fresh.rho, fresh.perm, fresh.nonce_key)
    with pytest.raises(group.BadScalar):
        ElGamalSecrets.derive(seed_of(0, 7), TABLE, 7, 0, 5, inherited_x=bytes(32))


@pytest.mark.parametrize(
    ("seed", "table", "event", "seat", "n"),
    [
        (b"short", TABLE, 0, 0, 4),
        (bytes(32), b"short", 0, 0, 4),
        (bytes(32), TABLE, -1, 0, 4),
        (bytes(32), TABLE, 0, True, 4),
        (bytes(32), TABLE, 0, 0, 0),
    ],
)
def test_secrets_refuse_bad_inputs(seed: bytes, table: bytes, event: int, seat: int, n: int) -> None:
    with pytest.raises(DeckProofError):
        ElGamalSecrets.derive(seed, table, event, seat, n)


# --- keys and their proof of knowledge ---------------------------------------------------------------


def test_a_key_proof_verifies_in_its_context_only() -> None:
    s = ElGamalSecrets.derive(seed_of(2), TABLE, 5, 2, 3)
    pok = prove_key(s)
    assert verify_key(TABLE, 5, 2, s.X, pok)
    assert not verify_key(TABLE, 5, 1, s.X, pok)  # another seat
    assert not verify_key(TABLE, 6, 2, s.X, pok)  # another event
    assert not verify_key(OTHER_TABLE, 5, 2, s.X, pok)  # another table
    other = ElGamalSecrets.derive(seed_of(3), TABLE, 5, 2, 3)
    assert not verify_key(TABLE, 5, 2, other.X, pok)  # another key


@settings(max_examples=60, deadline=None)
@given(at=st.integers(0, 63), flip=st.integers(1, 255))
def test_any_changed_byte_of_a_key_proof_is_refused(at: int, flip: int) -> None:
    s = ElGamalSecrets.derive(seed_of(1), TABLE, 0, 1, 2)
    pok = bytearray(prove_key(s))
    pok[at] ^= flip
    assert not verify_key(TABLE, 0, 1, s.X, bytes(pok))


@pytest.mark.parametrize(
    ("X", "pok"),
    [
        (IDENTITY, bytes(64)),
        (SMALL_ORDER, bytes(64)),
        (None, bytes(64)),
        (G, None),
        (G, b"\x01" * 63),
        (G, bytes(32) + b"\x01" * 32),  # c = 0
        (G, b"\x01" * 32 + group.L.to_bytes(32, "little")),  # z not canonical
        (G, [b"\x01" * 32, b"\x01" * 32]),
    ],
)
def test_a_malformed_key_proof_is_refused_without_raising(X: object, pok: object) -> None:
    assert not verify_key(TABLE, 0, 0, X, pok)


def test_a_rogue_key_without_a_proof_of_knowledge_is_refused() -> None:
    """Seat 3 publishes X_3 = y·G − (X_0 + X_1 + X_2), so that H_e = y·G and it alone could decrypt.
    It knows no log of X_3, so no proof it can make for X_3 verifies."""
    honest = [ElGamalSecrets.derive(seed_of(s), TABLE, 0, s, 4) for s in range(4)]
    y = group.hash_to_scalar("test rogue key")
    rogue = psub(group.base_mult(y), psum(s.X for s in honest[:3]))
    assert joint_key([*(s.X for s in honest[:3]), rogue]) == group.base_mult(y)
    assert not verify_key(TABLE, 0, 3, rogue, prove_key(honest[3]))  # its own honest proof
    # A proof for y·G, the key it does know, is not a proof for X_3.
    y_secrets = dataclasses.replace(honest[3], x=y, X=group.base_mult(y))
    assert not verify_key(TABLE, 0, 3, rogue, prove_key(y_secrets))
    assert verify_key(TABLE, 0, 3, group.base_mult(y), prove_key(y_secrets))
    # And a proof copied from another seat's key.
    assert not verify_key(TABLE, 0, 3, rogue, prove_key(honest[0]))


# --- the joint key -----------------------------------------------------------------------------------


def test_the_joint_key_is_the_sum_of_the_shares() -> None:
    s = [ElGamalSecrets.derive(seed_of(i), TABLE, 0, i, 1) for i in range(3)]
    total = group.scalar_add(group.scalar_add(s[0].x, s[1].x), s[2].x)
    assert joint_key([x.X for x in s]) == group.base_mult(total)


def test_an_identity_joint_key_is_refused_and_identity_partial_sums_are_handled() -> None:
    x = group.hash_to_scalar("test key")
    X, minus_X = group.base_mult(x), group.base_mult(negate(x))
    with pytest.raises(BadPoint, match="identity"):
        joint_key([X, minus_X])
    other = group.base_mult(group.hash_to_scalar("test other key"))
    assert joint_key([X, minus_X, other]) == other
    with pytest.raises(BadPoint):
        joint_key([X, IDENTITY])
    with pytest.raises(BadPoint):
        joint_key([X, SMALL_ORDER])
    with pytest.raises(DeckProofError):
        joint_key([])


def test_identity_aware_arithmetic() -> None:
    P = group.base_mult(group.hash_to_scalar("test point"))
    assert padd(IDENTITY, P) == P == padd(P, IDENTITY)
    assert psub(P, P) == IDENTITY
    assert psub(P, IDENTITY) == P
    assert psub(IDENTITY, P) == group.base_mult(negate(group.hash_to_scalar("test point")))
    assert pmul(group.hash_to_scalar("k"), IDENTITY) == IDENTITY
    assert pmul(bytes(32), P) == IDENTITY
    assert psum([]) == IDENTITY


# --- key reveal --------------------------------------------------------------------------------------


def test_key_reveal_check() -> None:
    s = ElGamalSecrets.derive(seed_of(1), TABLE, 0, 1, 2)
    assert check_key_reveal(s.x, s.X)
    assert not check_key_reveal(group.scalar_add(s.x, s.x), s.X)
    assert not check_key_reveal(bytes(32), s.X)
    assert not check_key_reveal(group.L.to_bytes(32, "little"), s.X)
    assert not check_key_reveal("x", s.X)


# --- decks, shuffles and decoding --------------------------------------------------------------------


def test_the_public_deck_is_encrypted_with_randomness_one(event: Event) -> None:
    for (c1, c2), m in zip(event.initial, event.index.points, strict=True):
        assert c1 == G and psub(c2, event.joint) == m


def test_every_position_opens_to_each_seat_and_the_deck_is_a_permutation(event: Event) -> None:
    seen = []
    for k in range(event.n):
        recipient = event.secrets[k % len(event.secrets)]
        others = event.shares(k, without=recipient.seat)
        card = open_card(event.final[k], others, event.index.lookup, own_x=recipient.x)
        assert card is not None
        # Everyone's shares open it to everyone; the recipient's key alone does not.
        assert open_card(event.final[k], event.shares(k), event.index.lookup) == card
        assert open_card(event.final[k], others, event.index.lookup) is None
        seen.append(card)
    assert sorted(seen) == sorted(event.index.cards)


def test_a_ciphertext_copied_from_another_event_decodes_to_no_card(event: Event) -> None:
    other = Event(event=1)
    assert open_card(other.final[0], event.shares(0), event.index.lookup) is None


def test_a_private_deck_decodes_to_the_owners_list_in_its_sigma_order() -> None:
    cards = ["Anarch Revolt", "Blood Doll", "Govern", "Ashur Tablets", "Dreams"]
    index = CardIndex.build(TABLE, "library-2", cards)
    n = len(cards)
    secrets = [ElGamalSecrets.derive(seed_of(s, 9), TABLE, 9, s, n, owner=(s == 2)) for s in range(4)]
    owner = secrets[2]
    joint = joint_key([s.X for s in secrets])
    deck = private_deck(owner, joint, index.points)
    assert check_ciphertexts([list(c) for c in deck], n, "the deck") == deck
    for j, c in enumerate(deck):
        shares = [make_share(s, c[0], j)[0] for s in secrets]
        assert open_card(c, shares, index.lookup) == cards[owner.perm[j]]
    with pytest.raises(DeckProofError):
        private_deck(secrets[0], joint, index.points)  # not derived as the owner
    with pytest.raises(DeckProofError):
        private_deck(owner, joint, index.points[:-1])


def test_a_shuffle_refuses_a_wrong_count(event: Event) -> None:
    with pytest.raises(DeckProofError):
        make_shuffle(event.secrets[0], event.joint, event.initial[:-1])


def test_check_ciphertexts(event: Event) -> None:
    cards = [list(c) for c in event.final]
    assert check_ciphertexts(cards, event.n, "the cards") == event.final
    with pytest.raises(BadBody):
        check_ciphertexts(cards[:-1], event.n, "the cards")
    with pytest.raises(BadBody):
        check_ciphertexts([*cards[:-1], [cards[-1][0]]], event.n, "the cards")
    with pytest.raises(BadBody):
        check_ciphertexts([*cards[:-1], [cards[-1][0], "x" * 32]], event.n, "the cards")
    with pytest.raises(BadPoint):
        check_ciphertexts([*cards[:-1], [IDENTITY, cards[-1][1]]], event.n, "the cards")
    with pytest.raises(BadPoint):
        check_ciphertexts([*cards[:-1], [cards[-1][0], SMALL_ORDER]], event.n, "the cards")
    with pytest.raises(DuplicatePoints):
        check_ciphertexts([*cards[:-1], cards[0]], event.n, "the cards")


# --- decryption shares -------------------------------------------------------------------------------


def test_a_share_verifies_for_its_seat_event_and_position_only(event: Event) -> None:
    s = event.secrets[1]
    c1 = event.final[3][0]
    D, proof = make_share(s, c1, 3)
    assert group.mult(s.x, c1) == D
    assert verify_share(TABLE, 0, 1, 3, s.X, c1, D, proof)
    assert not verify_share(TABLE, 0, 1, 4, s.X, c1, D, proof)  # another position
    assert not verify_share(TABLE, 1, 1, 3, s.X, c1, D, proof)  # another event
    assert not verify_share(TABLE, 0, 2, 3, event.secrets[2].X, c1, D, proof)  # another seat
    assert not verify_share(OTHER_TABLE, 0, 1, 3, s.X, c1, D, proof)  # another table


def test_a_wrong_share_fails_its_proof(event: Event) -> None:
    s = event.secrets[1]
    c1 = event.final[3][0]
    D, proof = make_share(s, c1, 3)
    wrong = group.add(D, G)  # a share that would decode the card to M − G
    assert not verify_share(TABLE, 0, 1, 3, s.X, c1, wrong, proof)
    other_D, other_proof = make_share(s, event.final[4][0], 3)  # the share of another ciphertext
    assert not verify_share(TABLE, 0, 1, 3, s.X, c1, other_D, other_proof)
    for bad in (IDENTITY, SMALL_ORDER, None, D[:31]):
        assert not verify_share(TABLE, 0, 1, 3, s.X, c1, bad, proof)
    for bad_proof in (None, proof[:63], proof[:32] + bytes(32)):
        assert not verify_share(TABLE, 0, 1, 3, s.X, c1, D, bad_proof)


def test_decode_handles_an_identity_sum(event: Event) -> None:
    c1, c2 = event.final[0]
    assert decode((c1, c2), [c2]) == IDENTITY  # a cheat's "share" equal to c2 leaves the identity
    assert open_card((c1, c2), [c2], event.index.lookup) is None


# --- the cheap checks (PROTOCOL.md 6.5) --------------------------------------------------------------


def test_the_cheap_checks_of_a_key_and_a_share(event: Event) -> None:
    s = event.secrets[0]
    pok = prove_key(s)
    check_key_fields(s.X, pok)
    D, proof = make_share(s, event.final[0][0], 0)
    check_share_fields(D, proof)
    zero_c = bytes(32) + pok[32:]
    big_z = pok[:32] + group.L.to_bytes(32, "little")
    for check, point, good in ((check_key_fields, s.X, pok), (check_share_fields, D, proof)):
        for bad_point in (IDENTITY, SMALL_ORDER, b"\xff" * 32):
            with pytest.raises(BadPoint):
                check(bad_point, good)
        for bad_shape in ((point[:31], good), (point, good[:63]), (None, good), (point, list(good))):
            with pytest.raises(BadBody):
                check(*bad_shape)
        for bad_scalars in (zero_c, big_z):
            with pytest.raises(BadScalar):
                check(point, bad_scalars)
    # Well-formed but wrong: passes the cheap checks, fails the proof (a proven cheat).
    wrong = group.add(D, G)
    check_share_fields(wrong, proof)
    assert not verify_share(TABLE, 0, 0, 0, s.X, event.final[0][0], wrong, proof)
