"""The table's words (PROTOCOL.md 3, 4): entry kinds, table phases, refusal codes, and the two
verdicts on a bad entry, a refusal (:class:`TableRefusal`) and a proven cheat (:class:`ProvenCheat`).

Entry kinds and phases are :class:`~enum.StrEnum` members: each equals its wire string, so a kind
read from the log compares, hashes and encodes as the string it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from engine.errors import VampireError

ZERO32 = bytes(32)
"""The 32 zero bytes a log's first entry carries as its table id and previous id."""


class EntryKind(StrEnum):
    """Every entry kind the table folds (PROTOCOL.md 4); the value is the wire string."""

    TABLE = "table"
    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    RAND_COMMIT = "rand-commit"
    RAND_REVEAL = "rand-reveal"
    CHAT = "chat"
    ABANDON = "abandon"
    COMPLAINT = "complaint"
    END = "end"
    KEY = "key"
    DECK = "deck"
    SHUFFLE = "shuffle"
    SHARE = "share"
    REVEAL = "reveal"
    KEY_REVEAL = "key-reveal"
    SEED_REVEAL = "seed-reveal"
    MOVE = "move"


KINDS: frozenset[str] = frozenset(EntryKind)
"""The wire strings of every entry kind."""


class Phase(StrEnum):
    """Where the table is: ``new`` (no table entry yet), ``lobby`` (seats are taken), ``running``
    (the game is played), ``over`` (the game has a result), ``stopped`` (a cheat was proven)."""

    NEW = "new"
    LOBBY = "lobby"
    RUNNING = "running"
    OVER = "over"
    STOPPED = "stopped"


class Checks(StrEnum):
    """How much of the deck protocol a table checks as it folds a log (PROTOCOL.md 6.3, 6.5).

    - ``peer``: everything PROTOCOL.md asks of a peer and of the audit: the cheap checks (shape,
      every point and scalar valid), every key proof, proof of shuffle and decryption share
      verified as it arrives, and at a seed reveal every key and every shuffle's output cards
      recomputed from the seeds, every position decrypted and every claim checked (6.3, item 7);
    - ``strict``: ``peer``, and at a seed reveal every key proof, proof of shuffle and share
      re-derived from its author's seed as 6.2 says (``vampire audit --strict``); one that differs
      is a proven cheat of its author, at its entry;
    - ``cheap``: for reading a finished game's result only (``vampire result``): the shapes, the
      turns and the game's rules, the commitments and claims, but no proof or share is verified,
      no received point checked and no shuffle recomputed (the log's signatures and chain are
      checked when it is read). Never for a peer: it would accept a bad shuffle.
    """

    PEER = "peer"
    STRICT = "strict"
    CHEAP = "cheap"


RefusalCode = Literal["stale", "not-your-turn", "illegal", "malformed", "bad-signature", "chain"]
"""The wire's rejection codes (PROTOCOL.md 3)."""


class TableRefusal(VampireError):
    """An entry the table does not accept: nothing changes and the host does not append it.

    ``code`` is the wire's rejection code (:data:`RefusalCode`): ``stale`` or ``chain`` (it does
    not chain on the head), ``not-your-turn``, ``illegal`` (the rules or the protocol refuse it
    now), ``malformed`` (its body has the wrong shape); ``detail`` is the sentence."""

    def __init__(self, code: RefusalCode, detail: str) -> None:
        super().__init__(detail)
        self.code: RefusalCode = code
        self.detail = detail


@dataclass(frozen=True)
class ProvenCheat:
    """A cheat the log proves: the ``seq`` of the entry that proves it, the cheater's ``seat`` and
    what was wrong (``reason``, a sentence). The table stops on it (PROTOCOL.md 6)."""

    seq: int
    seat: int
    reason: str

    def describe(self, names: list[str]) -> str:
        """The cheat in a sentence, naming the seat by its player's name when ``names`` has it."""
        name = names[self.seat] if 0 <= self.seat < len(names) else f"seat {self.seat}"
        return f"entry {self.seq}: {name} (seat {self.seat}) cheated: {self.reason}"
