"""Salted Merkle commitment to a private deck list (PROTOCOL.md 6, "Private decks").

At `join` the owner publishes ``commit(cards, salts)``; each card it later opens publicly carries
``prove(cards, salts, index)``, which anyone checks with ``verify``; at the end of the game the
whole list and its salts are revealed and checked with ``check_list``. Pure functions; the
caller draws the salts (32 bytes each, from the OS random source) and stores them.

Layout (docs/protocol.md, part 2, "Deck-list commitment"), every hash SHA-256 of a canonical array:

- leaf i:  H(["vampire-table/deck-leaf/v1", i, identity, salt]) — the index is in the leaf, so
  a proof opens one numbered line of the list, and the list's order (the order the owner's first
  pass takes its card points in) is committed too;
- inner node: H(["vampire-table/deck-node/v1", left, right]);
- a level with an odd number of nodes carries its last node up unchanged;
- root: H(["vampire-table/deck-root/v1", count, top]), so the count is committed.

A proof is the canonical array [index, count, siblings]: siblings are the 32-byte sibling hashes
from the leaf level up, one per level where the node has a sibling.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import VampireError
from engine.protocol import codec

SALT_BYTES = 32
MAX_CARDS = 1 << 16
"""The most cards a list may have (a private deck part of the largest game: 90 cards, with room)."""


class BadDeckList(VampireError):
    """A deck list that does not match its commitment, or cannot be committed."""


def leaf(index: int, identity: str, salt: bytes) -> bytes:
    """The 32-byte leaf of line ``index`` (int >= 0) holding card ``identity`` with ``salt``."""
    return codec.sha256("deck-leaf", index, identity, salt)


def _node(left: bytes, right: bytes) -> bytes:
    return codec.sha256("deck-node", left, right)


def _check_inputs(cards: Sequence[str], salts: Sequence[bytes]) -> None:
    if not 1 <= len(cards) <= MAX_CARDS:
        raise BadDeckList(f"A deck list must have 1 to {MAX_CARDS} cards, not {len(cards)}.")
    if len(salts) != len(cards):
        raise BadDeckList(f"The deck list has {len(cards)} cards but {len(salts)} salts.")
    for i, (card, salt) in enumerate(zip(cards, salts, strict=False)):
        if type(card) is not str:
            raise BadDeckList(f"Card {i} of the deck list is not a str.")
        if type(salt) is not bytes or len(salt) != SALT_BYTES:
            raise BadDeckList(f"The salt of card {i} of the deck list is not {SALT_BYTES} bytes.")


def _levels(cards: Sequence[str], salts: Sequence[bytes]) -> list[list[bytes]]:
    level = [leaf(i, c, s) for i, (c, s) in enumerate(zip(cards, salts, strict=False))]
    levels = [level]
    while len(level) > 1:
        nxt = [_node(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        levels.append(nxt)
        level = nxt
    return levels


def _root(count: int, top: bytes) -> bytes:
    return codec.sha256("deck-root", count, top)


def commit(cards: Sequence[str], salts: Sequence[bytes]) -> bytes:
    """The 32-byte root committing to ``cards`` (identities, one per physical card, in list
    order) with ``salts`` (32 bytes each, one per card). Raises :class:`BadDeckList` for an empty
    or oversized list, a count mismatch or a salt of the wrong size."""
    _check_inputs(cards, salts)
    return _root(len(cards), _levels(cards, salts)[-1][0])


def prove(cards: Sequence[str], salts: Sequence[bytes], index: int) -> list[Any]:
    """The membership proof [index, count, siblings] of line ``index`` of the list (a canonical
    array: int, int, list of 32-byte bin). Raises :class:`BadDeckList` (as :func:`commit`, or
    an index out of range)."""
    _check_inputs(cards, salts)
    if type(index) is not int or not 0 <= index < len(cards):
        raise BadDeckList(f"The deck list has no card {index!r}.")
    siblings = []
    i = index
    for level in _levels(cards, salts)[:-1]:
        if i ^ 1 < len(level):
            siblings.append(level[i ^ 1])
        i //= 2
    return [index, len(cards), siblings]


def verify(root: Any, identity: Any, salt: Any, proof: Any) -> bool:
    """True when ``proof`` shows that the list committed by ``root`` (32 bytes) has ``identity``
    (str) with ``salt`` (32 bytes) at the proof's index. Never raises: malformed input is False.
    """
    if type(root) is not bytes or len(root) != 32 or type(identity) is not str:
        return False
    if type(salt) is not bytes or len(salt) != SALT_BYTES:
        return False
    if type(proof) not in (list, tuple) or len(proof) != 3:
        return False
    index, count, siblings = proof
    if type(index) is not int or type(count) is not int or type(siblings) not in (list, tuple):
        return False
    if not (1 <= count <= MAX_CARDS and 0 <= index < count):
        return False
    h = leaf(index, identity, salt)
    i, width, used = index, count, 0
    while width > 1:
        if i ^ 1 < width:
            if used >= len(siblings):
                return False
            sib = siblings[used]
            if type(sib) is not bytes or len(sib) != 32:
                return False
            used += 1
            h = _node(h, sib) if i % 2 == 0 else _node(sib, h)
        i //= 2
        width = (width + 1) // 2
    return used == len(siblings) and _root(count, h) == root


def check_list(root: bytes, cards: Sequence[str], salts: Sequence[bytes]) -> None:
    """Check the deck list revealed at the end of the game against its ``root``.
    Raises :class:`BadDeckList` with a sentence when it does not match."""
    if commit(cards, salts) != root:
        raise BadDeckList("The revealed deck list does not match the commitment made at join.")
