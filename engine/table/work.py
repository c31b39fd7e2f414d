"""The protocol work under way at a table: one small record per kind of operation a game asks for
(:mod:`engine.games.base`), handled with ``match``.

A record is frozen: which operation it runs and for what never changes. Its progress lives in the
containers it holds (the commitments and reveals received, the seats still to reveal a seed) or in
the events it works on (the keys, shuffles and shares folded so far), so the record itself stays
the same object from start to finish, and a reader can tell one piece of work from the next by
identity. What a deck record still owes is computed from the events (engine.table.hidden).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, Literal

from engine.games.base import Draw, EndEvent, Op, Open, Release, Shuffle


class WorkKind(StrEnum):
    """The kind of a work record, for readers that show progress (``rand``, ``shuffle``…)."""

    RAND = "rand"
    SHUFFLE = "shuffle"
    SHARE = "share"
    REVEAL = "reveal"
    SEEDS = "seeds"
    RELEASE = "release"


@dataclass(frozen=True)
class DrawWork:
    """A joint draw (PROTOCOL.md 5): ``purpose`` is the game's purpose numbered by the table
    (``"dealer/1"``); ``commits`` and ``reveals`` (32 bytes each) fill by seat."""

    kind: ClassVar[WorkKind] = WorkKind.RAND
    op: Draw
    purpose: str
    commits: dict[int, bytes] = field(default_factory=dict)
    reveals: dict[int, bytes] = field(default_factory=dict)

    @property
    def bounds(self) -> tuple[int, ...]:
        return self.op.bounds

    @property
    def ops(self) -> tuple[Op, ...]:
        return (self.op,)


@dataclass(frozen=True)
class ShuffleWork:
    """The set-up of shuffle ``event`` (keys, the owner's deck, the shuffles; PROTOCOL.md 6.3)."""

    kind: ClassVar[WorkKind] = WorkKind.SHUFFLE
    op: Shuffle
    event: int

    @property
    def ops(self) -> tuple[Op, ...]:
        return (self.op,)


@dataclass(frozen=True)
class ShareWork:
    """Positions opened to seats (``opens``, each an :class:`Open` to one seat): every other key
    holder owes its decryption share of each (PROTOCOL.md 6.3, item 4), all at once."""

    kind: ClassVar[WorkKind] = WorkKind.SHARE
    opens: tuple[Open, ...]

    @property
    def ops(self) -> tuple[Op, ...]:
        return self.opens


@dataclass(frozen=True)
class RevealWork:
    """Positions opened to everyone (``opens``, each an :class:`Open` to None): every key holder
    whose share is not public owes it; a private deck's owner goes last with its `reveal`."""

    kind: ClassVar[WorkKind] = WorkKind.REVEAL
    opens: tuple[Open, ...]

    @property
    def ops(self) -> tuple[Op, ...]:
        return self.opens


SeedsPurpose = Literal["end", "complaint"]
"""Why seeds of an event are asked for: the game ends the event, or a complaint about a private
deck makes its owner reveal its seed, list and salts (PROTOCOL.md 6.3, item 5)."""


@dataclass(frozen=True)
class SeedsWork:
    """Participants of ``event`` reveal their seeds; ``waiting``: seats still to do so.

    ``end`` is the game's :class:`EndEvent` (None when a complaint asked for the seed);
    ``complainer`` the seat that complained, and ``complaint`` the point its complaint decoded.
    """

    kind: ClassVar[WorkKind] = WorkKind.SEEDS
    event: int
    waiting: list[int]
    end: EndEvent | None = None
    purpose: SeedsPurpose = "end"
    complainer: int | None = None
    complaint: bytes | None = None

    @property
    def ops(self) -> tuple[Op, ...]:
        return () if self.end is None else (self.end,)


ReleaseKind = Literal["key-reveal", "seed-reveal"]


@dataclass(frozen=True)
class ReleaseWork:
    """A seat leaves the game (PROTOCOL.md 6.3, item 6): ``waiting`` lists what it still owes, in
    order: a `key-reveal` for each open event of other decks whose keys it holds, a `seed-reveal`
    for each of its own decks' events."""

    kind: ClassVar[WorkKind] = WorkKind.RELEASE
    op: Release
    waiting: list[tuple[ReleaseKind, int]]

    @property
    def seat(self) -> int:
        return self.op.seat

    @property
    def ops(self) -> tuple[Op, ...]:
        return (self.op,)


Work = DrawWork | ShuffleWork | ShareWork | RevealWork | SeedsWork | ReleaseWork
"""The operation under way at a table. Every record has ``ops``, the game's operations its
outcomes resolve (:meth:`engine.table.Table.finish`), and ``kind``."""
