"""The fold of the log into the table state (shared/PROTOCOL.md 4-6): lobby, joint draws, deck
events and acts. :class:`Table` is the one entry point; it never names a game."""

from engine.table.draws import draws_from
from engine.table.events import ShuffleEvent
from engine.table.lobby import SeatRecord
from engine.table.table import Table, canonical
from engine.table.vocab import KINDS, ZERO32, EntryKind, Phase, ProvenCheat, RefusalCode, TableRefusal
from engine.table.work import Work, WorkKind

__all__ = [
    "KINDS",
    "ZERO32",
    "EntryKind",
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
