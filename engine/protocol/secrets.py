"""A seat's secrets file (PROTOCOL.md 8): the seeds, rand values and deck-list salts of one seat at
one table, each written and flushed to disk before anything derived from it is published.

Layout: the bytes ``VTSEC1\\n``, then one frame per record (4-byte big-endian length + canonical
msgpack array ``[kind, key, value]``): ``["seed", event, seed32]``, ``["rand", purpose, r32]``,
``["salts", "list", [salt32, ...]]``, ``["deck", "list", [leaf, ...]]`` (a private deck list) and
``["intent", n, act]`` (a move stored before it is first sent). docs/protocol.md, part 5. A torn last frame is dropped
on load. The file is created with mode 0600. The first record of a kind and key wins: a seat that
crashed after writing a seed and restarts reuses it, never a new one.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.errors import VampireError
from engine.protocol import codec

MAGIC = b"VTSEC1\n"


class SecretsFileError(VampireError):
    """A secrets file that cannot be read (wrong magic, a corrupt record)."""


class SecretsFile:
    """The secrets of one seat at one table, kept in memory and appended to ``path`` (or in memory
    only when ``path`` is None: bots in a simulation that nobody will audit from their side)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._records: dict[tuple[str, Any], Any] = {}
        if path is not None and path.exists():
            self._load(path)

    def _load(self, path: Path) -> None:
        data = path.read_bytes()
        if not data.startswith(MAGIC):
            raise SecretsFileError(f"{path} is not a vampire-table secrets file")
        offset = len(MAGIC)
        while offset < len(data):
            if offset + 4 > len(data):
                break  # torn length
            (length,) = struct.unpack_from(">I", data, offset)
            if offset + 4 + length > len(data):
                break  # torn record
            try:
                kind, key, value = codec.decode(data[offset + 4 : offset + 4 + length])
            except (codec.CodecError, ValueError, TypeError):
                raise SecretsFileError(f"{path}: record at byte {offset} is corrupt") from None
            self._records.setdefault((kind, _key(key)), value)
            offset += 4 + length

    def get(self, kind: str, key: Any) -> Any:
        """The stored value, or None."""
        return self._records.get((kind, _key(key)))

    def put(self, kind: str, key: Any, value: Any) -> Any:
        """Store a record durably (write, flush, fsync) unless one exists; return the stored value."""
        existing = self.get(kind, key)
        if existing is not None:
            return existing
        self._records[(kind, _key(key))] = value
        if self.path is not None:
            frame = codec.encode([kind, key, value])
            new = not self.path.exists()
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                if new:
                    os.write(fd, MAGIC)
                os.write(fd, struct.pack(">I", len(frame)) + frame)
                os.fsync(fd)
            finally:
                os.close(fd)
        return value

    def fresh(self, kind: str, key: Any, random_bytes: Callable[[int], bytes], n: int = 32) -> bytes:
        """The stored secret for (kind, key), or ``n`` new bytes from ``random_bytes(n)`` stored first."""
        existing = self.get(kind, key)
        if isinstance(existing, bytes):
            return existing
        stored: bytes = self.put(kind, key, random_bytes(n))
        return stored


def _key(key: Any) -> Any:
    return tuple(key) if isinstance(key, list) else key
