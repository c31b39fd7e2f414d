"""The protocol work under way at a table: one small record per kind of operation a game asks for
(:mod:`engine.games.base`), handled with ``match``.

A record is frozen: which operation it runs and for what never changes. Its progress lives in the
containers it holds (the commitments and reveals received, the steps still owed, the seats still to
reveal a seed), which the table fills or drains as entries fold; the record itself stays the same
object from start to finish, so a reader can tell one piece of work from the next by identity.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, Literal, NamedTuple

from engine.games.base import Draw, EndEvent, Op, Open, Release, Shuffle


class WorkKind(StrEnum):
    """The kind of a work record, for readers that show progress (``rand``, ``shuffle``…)."""

    RAND = "rand"
    SHUFFLE = "shuffle"
    UNLOCK = "unlock"
    REVEAL = "reveal"
    SEEDS = "seeds"
    RELEASE = "release"


class UnlockStep(NamedTuple):
    """One participant's unlock owed: ``seat`` removes its locks on ``positions`` (indexes) of
    shuffle ``event`` for seat ``to``."""

    seat: int
    event: int
    to: int
    positions: list[int]


class RevealStep(NamedTuple):
    """One participant's reveal owed: ``seat`` publishes its keys for ``positions`` of ``event``."""

    seat: int
    event: int
    positions: list[int]


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
    """The set-up of shuffle ``event`` (shuffle passes, then lock passes; PROTOCOL.md 6)."""

    kind: ClassVar[WorkKind] = WorkKind.SHUFFLE
    op: Shuffle
    event: int

    @property
    def ops(self) -> tuple[Op, ...]:
        return (self.op,)


@dataclass(frozen=True)
class UnlockWork:
    """Positions opened to seats (``opens``, each an :class:`Open` to one seat): the unlock
    ``steps`` still owed, in order."""

    kind: ClassVar[WorkKind] = WorkKind.UNLOCK
    opens: tuple[Open, ...]
    steps: list[UnlockStep]

    @property
    def ops(self) -> tuple[Op, ...]:
        return self.opens


@dataclass(frozen=True)
class RevealWork:
    """Positions opened to everyone (``opens``, each an :class:`Open` to None): the reveal
    ``steps`` still owed, in order (a private deck's owner last)."""

    kind: ClassVar[WorkKind] = WorkKind.REVEAL
    opens: tuple[Open, ...]
    steps: list[RevealStep]

    @property
    def ops(self) -> tuple[Op, ...]:
        return self.opens


SeedsPurpose = Literal["end", "complaint"]
"""Why every seed of an event is asked for: the game ends the event, or play stopped on a
complaint (or a card opened twice) and the seeds name who cheated."""


@dataclass(frozen=True)
class SeedsWork:
    """Every participant of ``event`` reveals its seed; ``waiting``: seats still to do so.

    ``end`` is the game's :class:`EndEvent` (None when a complaint asked for the seeds);
    ``complainer`` the seat that complained or opened a card twice, if any.
    """

    kind: ClassVar[WorkKind] = WorkKind.SEEDS
    event: int
    waiting: list[int]
    end: EndEvent | None = None
    purpose: SeedsPurpose = "end"
    complainer: int | None = None

    @property
    def ops(self) -> tuple[Op, ...]:
        return () if self.end is None else (self.end,)


@dataclass(frozen=True)
class ReleaseWork:
    """A seat leaves its events (PROTOCOL.md 6, "When a seat leaves"): ``waiting`` lists the
    events it still owes a seed for, in order."""

    kind: ClassVar[WorkKind] = WorkKind.RELEASE
    op: Release
    waiting: list[int]

    @property
    def seat(self) -> int:
        return self.op.seat

    @property
    def ops(self) -> tuple[Op, ...]:
        return (self.op,)


Work = DrawWork | ShuffleWork | UnlockWork | RevealWork | SeedsWork | ReleaseWork
"""The operation under way at a table. Every record has ``ops``, the game's operations its
outcomes resolve (:meth:`engine.table.Table.finish`), and ``kind``."""
