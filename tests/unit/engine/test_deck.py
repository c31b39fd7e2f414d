"""What the two parts of the deck protocol share (engine.protocol.deck; PROTOCOL.md 6.1): σ, the
Fisher–Yates permutation over SHAKE-256, and the card points of a deck, with the known answers of
docs/protocol.md (part 6, "Test vectors")."""

from __future__ import annotations

import hashlib

import pytest

from engine.protocol import codec, deck, elgamal, group
from engine.protocol.deck import CardIndex, DeckProofError

TABLE = bytes(range(32))


def seed_of(seat: int) -> bytes:
    return hashlib.sha256(b"test seed %d " % seat).digest()


def _reference_permutation(seed, table, event, seat, n):
    stream = hashlib.shake_256(codec.hash_input("permutation", table, event, seat, n, seed)).digest(8 * n + 64)
    draws = (int.from_bytes(stream[i : i + 8], "big") for i in range(0, len(stream), 8))
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        m = i + 1
        v = next(v for v in draws if v < 2**64 - 2**64 % m)
        perm[i], perm[v % m] = perm[v % m], perm[i]
    return tuple(perm)


def test_the_permutation_is_fisher_yates_over_shake256():
    for n in (1, 2, 3, 10, 108):
        perm = deck.permutation(seed_of(0), TABLE, 1, 2, n)
        assert sorted(perm) == list(range(n))
        assert perm == _reference_permutation(seed_of(0), TABLE, 1, 2, n)
    # Known answer (docs/protocol.md, part 6, "Test vectors").
    assert deck.permutation(bytes(32), TABLE, 0, 1, 10) == (8, 9, 2, 6, 4, 5, 7, 1, 0, 3)


def test_the_secrets_of_an_event_depend_on_table_event_and_seat():
    s = elgamal.ElGamalSecrets.derive(seed_of(1), TABLE, 4, 1, 6)
    assert s.commit == codec.sha256("commit", TABLE, 4, 1, seed_of(1))
    assert s.nonce_key == codec.sha256("nonce-key", TABLE, 4, 1, seed_of(1))
    assert s.perm == deck.permutation(seed_of(1), TABLE, 4, 1, 6)
    for other in (
        elgamal.ElGamalSecrets.derive(seed_of(1), TABLE, 5, 1, 6),
        elgamal.ElGamalSecrets.derive(seed_of(1), TABLE, 4, 2, 6),
        elgamal.ElGamalSecrets.derive(seed_of(1), bytes(32), 4, 1, 6),
    ):
        assert other.commit != s.commit and other.x != s.x and not set(other.rho) & set(s.rho)


def test_derive_refuses_inputs_of_the_wrong_shape():
    for args in (
        (b"short", TABLE, 0, 0, 5),
        (seed_of(0), b"x", 0, 0, 5),
        (seed_of(0), TABLE, True, 0, 5),
        (seed_of(0), TABLE, 0, -1, 5),
        (seed_of(0), TABLE, 0, 0, 0),
    ):
        with pytest.raises(DeckProofError):
            elgamal.ElGamalSecrets.derive(*args)


def test_a_deck_with_one_identity_twice_is_refused():
    with pytest.raises(DeckProofError, match="'b' twice"):
        CardIndex.build(TABLE, "main", ["a", "b", "c", "b"])


def test_card_points_depend_on_table_deck_and_card_and_decode_back():
    index = CardIndex.build(TABLE, "main", [f"card {i}" for i in range(4)])
    assert index.points[0].hex() == "5d948bf6ba9573be1fdd806949147f179147cf35e19410dc3ea812ac4833d3ee"
    assert index.points[0] == group.card_point(TABLE, "main", "card 0")
    assert group.card_point(TABLE, "other", "card 0") != index.points[0]
    assert group.card_point(bytes(32), "main", "card 0") != index.points[0]
    assert {index.lookup[p] for p in index.points} == set(index.cards)
