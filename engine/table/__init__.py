"""The fold of the log into the table state (shared/PROTOCOL.md 4-6): lobby, joint draws, deck
events and acts. :class:`Table` is the one entry point; it never names a game."""

from engine.table.table import KINDS, ZERO32, ProvenCheat, Table, TableRefusal, canonical, draws_from

__all__ = ["KINDS", "ZERO32", "ProvenCheat", "Table", "TableRefusal", "canonical", "draws_from"]
