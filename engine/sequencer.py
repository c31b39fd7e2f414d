"""The host's sequencer (PROTOCOL.md 3), with no sockets: it orders entries, checks each against
its own table, writes it to the log file (fsync) and signs the new head. The network host
(:mod:`net.host`) and the in-process game (:mod:`engine.local`) both use it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.games.base import Game
from engine.protocol.identity import public_bytes
from engine.protocol.log import Entry, LogWriter, sign_entry, sign_head
from engine.table import ZERO32, Table


class Sequencer:
    """Orders a table's entries. ``key``: the host's Ed25519 key; ``log``: where accepted entries
    go (None: memory only); ``clock()``: ms."""

    def __init__(
        self, key: Ed25519PrivateKey, games: Mapping[str, Game], log: LogWriter | None, clock: Callable[[], int]
    ) -> None:
        self.key = key
        self.public = public_bytes(key)
        self.table = Table(games)
        self.log = log
        self.clock = clock
        self.heads: list[bytes] = []

    def open_table(
        self, game: str, options: dict[str, Any], seats: int, name: str, carddb: str | None = None
    ) -> tuple[Entry, bytes]:
        """Append the genesis `table` entry. Raises TableRefusal for a bad game, options or seat count."""
        body = {"game": game, "options": options, "seats": seats, "name": name, "carddb": carddb}
        return self.submit(self.sign("table", body))

    def sign(self, kind: str, body: dict[str, Any]) -> Entry:
        """An entry by the host itself on the current head (`table`, `start`, `end`, `chat`)."""
        t = self.table
        return sign_entry(
            self.key,
            table=t.table_id if t.entries else ZERO32,
            seq=t.seq,
            prev=t.head,
            kind=kind,
            body=body,
            time_ms=self.clock(),
        )

    def submit(self, entry: Entry, defer_proof: bool = False) -> tuple[Entry, bytes]:
        """Append ``entry`` if it chains on the head and the table accepts it; write it to the log
        (fsync) and return it with its head signature. Raises TableRefusal (code ``stale`` when it was
        signed on another head) and changes nothing. ``defer_proof``: see Table.apply."""
        self.table.apply(entry, defer_proof=defer_proof)
        head = sign_head(self.key, self.table.table_id, entry.seq, entry.id)
        if self.log is not None:
            self.log.append(entry, head)
        self.heads.append(head)
        return entry, head

    def replay(self, entries: list[Entry], heads: list[bytes | None]) -> None:
        """Fold entries already on disk (a resumed table). Raises TableRefusal for a log the table refuses."""
        for entry, head in zip(entries, heads, strict=False):
            self.table.apply(entry)
            self.heads.append(head or sign_head(self.key, self.table.table_id, entry.seq, entry.id))
