"""Joint draws (PROTOCOL.md 5): every active seat commits to 32 random bytes (`rand-commit`), then
reveals them (`rand-reveal`); the draws come from the hash of every reveal, so no seat can steer
them unless all collude."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from engine.games.base import Draw
from engine.protocol import codec
from engine.protocol.log import Entry
from engine.table.vocab import EntryKind, TableRefusal
from engine.table.work import DrawWork

if TYPE_CHECKING:
    from engine.table.table import Fold, Table


def draws_from(result: bytes, bounds: tuple[int, ...]) -> tuple[int, ...]:
    """Unbiased draws in ``range(n)`` for each n of ``bounds`` from a joint result (PROTOCOL.md 5):
    SHAKE-256 of ``result``, 8 bytes big-endian per draw, values >= the largest multiple of n
    below 2^64 discarded."""
    out = []
    size = 8 * (len(bounds) + 8)
    stream = hashlib.shake_256(result).digest(size)
    pos = 0
    for n in bounds:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            if pos + 8 > len(stream):
                size *= 2
                stream = hashlib.shake_256(result).digest(size)
            v = int.from_bytes(stream[pos : pos + 8], "big")
            pos += 8
            if v < limit:
                out.append(v % n)
                break
    return tuple(out)


class JointDraws:
    """Runs the game's :class:`Draw` operations: starts each as a :class:`DrawWork` and handles
    its `rand-commit` and `rand-reveal` entries."""

    def __init__(self, table: Table) -> None:
        self.t = table

    def start(self, op: Draw) -> None:
        """Start a joint draw; its purpose is numbered so that no two draws share commitments."""
        t = self.t
        t.begin(DrawWork(op, t.number_draw(op.purpose)))

    def prepare_commit(self, entry: Entry) -> Fold:
        b = codec.check_map(entry.body, {"purpose": str, "commit": codec.bin_of(32)}, what="a rand-commit")
        seat = self.t.expect(entry, EntryKind.RAND_COMMIT)
        w = self.t.current(DrawWork)
        if b["purpose"] != w.purpose:
            raise TableRefusal("illegal", f"the table draws for {w.purpose!r}, not {b['purpose']!r}")
        commit: bytes = b["commit"]

        def fold() -> None:
            w.commits[seat] = commit

        return fold

    def prepare_reveal(self, entry: Entry) -> Fold:
        t = self.t
        b = codec.check_map(entry.body, {"purpose": str, "r": codec.bin_of(32)}, what="a rand-reveal")
        seat = t.expect(entry, EntryKind.RAND_REVEAL)
        w = t.current(DrawWork)
        if b["purpose"] != w.purpose:
            raise TableRefusal("illegal", f"the table draws for {w.purpose!r}, not {b['purpose']!r}")
        if codec.sha256("rand", t.table_id, w.purpose, seat, b["r"]) != w.commits[seat]:
            return t.cheat(entry, seat, "its rand-reveal does not match its rand-commit")
        r: bytes = b["r"]

        def fold() -> None:
            w.reveals[seat] = r
            active = t.active_seats()
            if len(w.reveals) == len(active):
                result = codec.sha256("rand-result", t.table_id, w.purpose, *(w.reveals[s] for s in active))
                t.finish([draws_from(result, w.bounds)])

        return fold
