"""The salted Merkle commitment to a private deck list (PROTOCOL.md 6, "Private decks")."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.protocol import codec, merkle
from engine.protocol.merkle import BadDeckList


def salts_for(n: int, tag: bytes = b"") -> list[bytes]:
    return [hashlib.sha256(b"salt %d " % i + tag).digest() for i in range(n)]


def cards_for(n: int) -> list[str]:
    return [f"Card {i}#{i}" for i in range(n)]


@pytest.mark.parametrize("n", list(range(1, 18)) + [31, 32, 33, 90])
def test_every_card_of_every_list_size_proves_its_membership(n):
    cards, salts = cards_for(n), salts_for(n)
    root = merkle.commit(cards, salts)
    assert len(root) == 32
    for i in range(n):
        proof = merkle.prove(cards, salts, i)
        assert merkle.verify(root, cards[i], salts[i], proof)
        assert codec.decode(codec.encode(proof)) == proof  # a canonical protocol value
        assert len(proof[2]) <= (n - 1).bit_length()  # at most ceil(log2 n) siblings
    merkle.check_list(root, cards, salts)


def test_a_one_card_list_is_the_leaf_under_the_root():
    root = merkle.commit(["a"], [b"\x01" * 32])
    assert root == codec.sha256("deck-root", 1, codec.sha256("deck-leaf", 0, "a", b"\x01" * 32))
    assert merkle.prove(["a"], [b"\x01" * 32], 0) == [0, 1, []]


def test_the_tree_layout_for_three_cards():
    cards, salts = ["a", "b", "c"], salts_for(3)
    leaves = [codec.sha256("deck-leaf", i, c, s) for i, (c, s) in enumerate(zip(cards, salts, strict=False))]
    top = codec.sha256("deck-node", codec.sha256("deck-node", leaves[0], leaves[1]), leaves[2])
    assert merkle.commit(cards, salts) == codec.sha256("deck-root", 3, top)
    assert merkle.prove(cards, salts, 2) == [2, 3, [codec.sha256("deck-node", leaves[0], leaves[1])]]


def test_a_wrong_salt_identity_index_or_root_fails():
    cards, salts = cards_for(7), salts_for(7)
    root = merkle.commit(cards, salts)
    proof = merkle.prove(cards, salts, 3)
    assert not merkle.verify(root, cards[3], salts[4], proof)
    assert not merkle.verify(root, cards[4], salts[3], proof)
    assert not merkle.verify(root, "Another card", salts[3], proof)
    assert not merkle.verify(root, cards[3], salts[3], [2, 7, proof[2]])
    assert not merkle.verify(root, cards[3], salts[3], [3, 8, proof[2]])
    assert not merkle.verify(merkle.commit(cards, salts_for(7, b"x")), cards[3], salts[3], proof)
    # The same card at another index of the list is another leaf.
    assert not merkle.verify(root, cards[3], salts[3], merkle.prove(cards, salts, 4))


def test_a_tampered_proof_fails():
    cards, salts = cards_for(9), salts_for(9)
    root = merkle.commit(cards, salts)
    index, count, sib = merkle.prove(cards, salts, 5)
    for bad in (
        [index, count, sib[:-1]],
        [index, count, sib + [sib[0]]],
        [index, count, [sib[1], sib[0]] + sib[2:]],
        [index, count, [bytes(32)] + sib[1:]],
        [index, count, [sib[0][:31]] + sib[1:]],
        [True, count, sib],
        [index, count],
        None,
        "proof",
        [index, 0, sib],
        [-1, count, sib],
        [9, count, sib],
    ):
        assert not merkle.verify(root, cards[5], salts[5], bad)
    assert not merkle.verify(root[:31], cards[5], salts[5], [index, count, sib])
    assert not merkle.verify(root, b"bytes", salts[5], [index, count, sib])
    assert not merkle.verify(root, cards[5], salts[5][:31], [index, count, sib])


def test_a_revealed_list_that_differs_from_the_commitment_is_refused():
    cards, salts = cards_for(12), salts_for(12)
    root = merkle.commit(cards, salts)
    swapped = cards[:]
    swapped[0], swapped[1] = swapped[1], swapped[0]
    for bad_cards, bad_salts in ((swapped, salts), (cards[:-1], salts[:-1]), (cards[:5] + ["X"] + cards[6:], salts)):
        with pytest.raises(BadDeckList, match="does not match"):
            merkle.check_list(root, bad_cards, bad_salts)


def test_lists_that_cannot_be_committed_are_refused():
    with pytest.raises(BadDeckList, match="1 to"):
        merkle.commit([], [])
    with pytest.raises(BadDeckList, match="salts"):
        merkle.commit(["a", "b"], salts_for(1))
    with pytest.raises(BadDeckList, match="32 bytes"):
        merkle.commit(["a"], [b"short"])
    with pytest.raises(BadDeckList, match="not a str"):
        merkle.commit([b"a"], salts_for(1))
    with pytest.raises(BadDeckList, match="no card 3"):
        merkle.prove(["a", "b", "c"], salts_for(3), 3)


@given(
    cards=st.lists(st.text(max_size=12), min_size=1, max_size=40),
    seed=st.binary(min_size=1, max_size=8),
    data=st.data(),
)
@settings(max_examples=100, deadline=None)
def test_membership_round_trips_and_only_for_the_committed_card(cards, seed, data):
    salts = [hashlib.sha256(seed + i.to_bytes(2, "big")).digest() for i in range(len(cards))]
    root = merkle.commit(cards, salts)
    i = data.draw(st.integers(0, len(cards) - 1))
    proof = merkle.prove(cards, salts, i)
    assert merkle.verify(root, cards[i], salts[i], proof)
    other = data.draw(st.text(max_size=12))
    assert merkle.verify(root, other, salts[i], proof) == (other == cards[i])


def test_the_vector_of_the_byte_level_document():
    salts = [bytes([i + 1]) * 32 for i in range(3)]
    root = merkle.commit(["a", "b", "c"], salts)
    assert root.hex() == "0178b502a28a548ef1e10c85b11dda4aaa4bcf513f33a434a339cfcdf22aa926"
