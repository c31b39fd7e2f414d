"""What the deck protocol's two parts share (PROTOCOL.md 6.1; bytes in docs/protocol.md, part 6):
the errors of a deck entry, the card points of a deck (:class:`CardIndex`) and σ, a participant's
shuffle permutation (:func:`permutation`). The ElGamal deck itself is engine.protocol.elgamal, the
proof of shuffle engine.protocol.shuffle_proof; the DLEQ proof and the card point are in
engine.protocol.group.

Every function is pure: no I/O, no clock, no global state. Permutation convention: a shuffle's
output position j takes its input position σ(j).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import VampireError
from engine.protocol import codec, group
from engine.protocol.codec import SchemaError

# --- errors ------------------------------------------------------------------------------------


class DeckProofError(VampireError):
    """Base of the errors of the deck protocol: a body that breaks PROTOCOL.md 6. The message is
    a sentence (its first letter is capitalised here)."""

    def __init__(self, message: str) -> None:
        super().__init__(message[:1].upper() + message[1:])


class BadBody(DeckProofError):
    """A body with a missing, unknown or mistyped field, a wrong event, count or position."""


class BadPoint(DeckProofError, group.BadPoint):
    """A point that is not canonical, not in the main subgroup, or of small order."""


class BadScalar(DeckProofError, group.BadScalar):
    """A scalar that is not canonical (< ℓ) or is zero."""


class DuplicatePoints(DeckProofError):
    """Two outputs of one pass (or two locks) are equal."""


class BadSeed(DeckProofError):
    """A revealed seed that does not match its commitment."""


# --- card points -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardIndex:
    """The card points of one deck at one table, computed once and kept by the caller (the cache
    of card points per (table, deck)).

    ``points``: the 32-byte card point M(card) of each identity of ``cards``, in the same order;
    ``lookup``: card point -> identity, to decode an opened position.
    """

    table: bytes
    deck: str
    cards: tuple[str, ...]
    points: tuple[bytes, ...] = field(repr=False)
    lookup: Mapping[bytes, str] = field(repr=False, compare=False)

    @classmethod
    def build(cls, table: bytes, deck: str, cards: Sequence[str]) -> CardIndex:
        """Card points of ``cards`` (identities, one per physical card) for deck ``deck`` at
        ``table`` (32-byte id). Raises :class:`DeckProofError` if an identity appears twice."""
        cards = tuple(cards)
        points = tuple(group.card_point(table, deck, c) for c in cards)
        lookup = dict(zip(points, cards, strict=False))
        if len(lookup) != len(cards):
            twice = next(c for i, c in enumerate(cards) if c in cards[:i])
            raise DeckProofError(f"the deck {deck!r} lists the card identity {twice!r} twice.")
        return cls(table, deck, cards, points, lookup)


# --- secrets -----------------------------------------------------------------------------------


def _check_ids(table: Any, event: Any, seat: Any) -> None:
    try:
        codec.check_bytes(table, 32, "the table id")
        codec.check_int(event, "the event number", 0)
        codec.check_int(seat, "the seat number", 0)
    except SchemaError as err:
        raise DeckProofError(str(err)) from None


def permutation(seed: bytes, table: bytes, event: int, seat: int, n: int) -> tuple[int, ...]:
    """σ, the shuffle permutation of ``n`` positions for one participant: a tuple where
    ``σ[j]`` is the input position that output position j takes.

    Fisher–Yates (i from n−1 down to 1, swap perm[i] with perm[j], j uniform in [0, i]) driven by
    SHAKE-256 of ``hash_input("permutation", table, event, seat, n, seed)``, read as consecutive
    8-byte big-endian integers v; for a draw in [0, m), v is discarded when
    v ≥ 2^64 − (2^64 mod m) and else gives v mod m. PROTOCOL.md 6.
    """
    xof = hashlib.shake_256(codec.hash_input("permutation", table, event, seat, n, seed))
    size = 8 * n + 64
    stream = xof.digest(size)
    pos = 0
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        m = i + 1
        limit = 2**64 - (2**64 % m)
        while True:
            if pos + 8 > len(stream):  # a long run of rejections: read further into the XOF
                size *= 2
                stream = xof.digest(size)
            v = int.from_bytes(stream[pos : pos + 8], "big")
            pos += 8
            if v < limit:
                break
        j = v % m
        perm[i], perm[j] = perm[j], perm[i]
    return tuple(perm)
