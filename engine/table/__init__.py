"""The fold of the log into the table state (PROTOCOL.md 4-6). :class:`Table` is the one entry
point; it never names a game.

Modules: ``table`` (the state, :meth:`Table.apply`, dispatch and scheduling), ``lobby`` (table,
join, leave, start, chat, abandon, end), ``draws`` (joint draws), ``hidden`` (the deck protocol:
set-up, opening, disputes, closing), ``events`` (the state of its shuffle events), ``acts``
(moves), ``work`` (the records of the work under way) and ``vocab`` (entry kinds, phases, refusals
and proven cheats)."""

from engine.table.draws import draws_from
from engine.table.events import ShuffleEvent
from engine.table.lobby import SeatRecord
from engine.table.table import Keep, KeptEntries, Table, canonical
from engine.table.vocab import KINDS, ZERO32, Checks, EntryKind, Phase, ProvenCheat, RefusalCode, TableRefusal
from engine.table.work import Work, WorkKind

__all__ = [
    "KINDS",
    "ZERO32",
    "Checks",
    "EntryKind",
    "Keep",
    "KeptEntries",
    "Phase",
    "ProvenCheat",
    "RefusalCode",
    "SeatRecord",
    "ShuffleEvent",
    "Table",
    "TableRefusal",
    "Work",
    "WorkKind",
    "canonical",
    "draws_from",
]
