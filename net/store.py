"""Where a client keeps its copy of the log and its seat's secrets (PROTOCOL.md 8)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.paths import tables_dir
from net.messages import Role


@dataclass(frozen=True)
class Store:
    """Where a client keeps its log and its seat's secrets (PROTOCOL.md 8).

    - ``Store.memory()``: nowhere (in-process bots of a local game, tests);
    - ``Store.in_dir(d)``: ``d/table.vtlog`` and ``d/seat.secrets``, one directory per table
      and seat, known before connecting (a restarted client resumes from them);
    - ``Store.per_table(base)``: ``base/tables/<table id, 16 hex>/<key, 16 hex>.vtlog`` and
      ``….secrets`` (``…-spectator.vtlog`` for a spectator), chosen once the host names the table.
    """

    directory: Path | None = None
    per_table_base: Path | None = None
    sync_log: bool = True
    """Fsync the log at every entry (PROTOCOL.md 8). False only for a copy behind a host of the same
    process, whose own log is fsynced before any entry reaches the copy (``vampire play``): the
    copy is fsynced when it closes, and a client whose copy ends early catches up from the host."""

    @classmethod
    def memory(cls) -> Store:
        """Keep nothing on disk."""
        return cls()

    @classmethod
    def in_dir(cls, directory: Path, sync_log: bool = True) -> Store:
        """``directory/table.vtlog`` and ``directory/seat.secrets`` (``sync_log``: see the field)."""
        return cls(directory=Path(directory), sync_log=sync_log)

    @classmethod
    def per_table(cls, base: Path | None = None) -> Store:
        """One log and secrets file per table in a folder of its own under ``base`` (default:
        :func:`engine.paths.tables_dir`)."""
        return cls(per_table_base=Path(base) if base is not None else tables_dir())

    def paths(self, table: bytes | None, key: bytes, role: Role) -> tuple[Path | None, Path | None]:
        """(log path, secrets path) for ``table`` (None while unknown: only a fixed directory
        answers), ``key`` (the client's public key) and ``role``."""
        if self.directory is not None:
            return self.directory / "table.vtlog", (self.directory / "seat.secrets" if role == "player" else None)
        if self.per_table_base is not None and table is not None:
            d = self.per_table_base / table.hex()[:16]
            if role == "spectator":
                return d / f"{key.hex()[:16]}-spectator.vtlog", None
            return d / f"{key.hex()[:16]}.vtlog", d / f"{key.hex()[:16]}.secrets"
        return None, None
