"""A seat's secrets file (PROTOCOL.md 8): the seeds, rand values and deck-list salts of one seat at
one table, each written and flushed to disk before anything derived from it is published.

Layout: the bytes ``VTSEC1\\n``, then one frame per record (4-byte big-endian length + canonical
msgpack array ``[kind, key, value]``): ``["seed", event, seed32]``, ``["rand", purpose, r32]``,
``["salts", "list", [salt32, ...]]``, ``["deck", "list", [leaf, ...]]`` (a private deck list) and
``["intent", n, act]`` (a move stored before it is first sent). docs/protocol.md, part 5. A torn last frame is dropped
on load. The file is created with mode 0600; one found readable by others (on opening it, and
before every write) is made 0600 again and the user is warned, on the ``vampire.files`` logger and
in :attr:`SecretsFile.warnings`, that its secrets may have leaked (PROTOCOL.md 8). A secrets path
that is a symbolic link is refused (SecretsFileError) before anything is done to what it points to:
the file is always opened without following links. The first record
of a kind and key wins: a seat that crashed after writing a seed and restarts reuses it, never a new
one.
"""

from __future__ import annotations

import logging
import os
import stat
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.errors import VampireError
from engine.files import PRIVATE, LinkRefused, fsync_dir, open_no_follow
from engine.protocol import codec

MAGIC = b"VTSEC1\n"

log = logging.getLogger("vampire.files")


class SecretsFileError(VampireError):
    """A secrets file that cannot be read (wrong magic, a corrupt record), or a secrets path that is
    a symbolic link."""


class SecretsFile:
    """The secrets of one seat at one table, kept in memory and appended to ``path`` (or in memory
    only when ``path`` is None: bots in a simulation that nobody will audit from their side).

    ``warnings``: the sentences said about this file so far (a mode that let others read it), for a
    front end to show; each is also logged as a warning on the ``vampire.files`` logger.

    Raises SecretsFileError for a file that is not a secrets file or a ``path`` that is a symbolic
    link (also a dangling one: nothing is created through it), OSError for one that cannot be read.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.warnings: list[str] = []
        self._records: dict[tuple[str, Any], Any] = {}
        if path is not None and (path.is_symlink() or path.exists()):
            self._load(path)

    def _open(self, path: Path, flags: int) -> int:
        try:
            return open_no_follow(path, flags, PRIVATE)
        except LinkRefused:
            raise SecretsFileError(
                f"The secrets file {path} is a symbolic link; it is refused, and what it points to is left as it was."
            ) from None

    def _load(self, path: Path) -> None:
        fd = self._open(path, os.O_RDONLY)
        try:
            self._keep_private(fd)
            chunks = []
            while chunk := os.read(fd, 1 << 16):
                chunks.append(chunk)
        finally:
            os.close(fd)
        data = b"".join(chunks)
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
        """Store a record durably (write, flush, fsync) unless one exists; return the stored value.
        Raises SecretsFileError when the path is a symbolic link (nothing is stored), OSError."""
        existing = self.get(kind, key)
        if existing is not None:
            return existing
        if self.path is not None:
            frame = codec.encode([kind, key, value])
            fd = self._open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
            try:
                self._keep_private(fd)
                new = os.fstat(fd).st_size == 0
                if new:
                    os.write(fd, MAGIC)
                os.write(fd, struct.pack(">I", len(frame)) + frame)
                os.fsync(fd)
                if new:
                    fsync_dir(self.path.parent)  # the new file's name survives a crash too
            finally:
                os.close(fd)
        self._records[(kind, _key(key))] = value
        return value

    def _keep_private(self, fd: int) -> None:
        """Make the open file ``fd`` mode 0600 if others had any access to it, and warn (POSIX; a
        mode checked on the descriptor cannot be swapped for another file's between check and fix)."""
        if os.name != "posix":
            return
        mode = stat.S_IMODE(os.fstat(fd).st_mode)
        if not mode & (stat.S_IRWXG | stat.S_IRWXO):
            return
        os.fchmod(fd, PRIVATE)
        sentence = (
            f"The secrets file {self.path} could be read by other users (mode {mode:04o}); it is private "
            f"now ({PRIVATE:04o}), but the secrets it held may have leaked."
        )
        self.warnings.append(sentence)
        log.warning(sentence)

    def fresh(self, kind: str, key: Any, random_bytes: Callable[[int], bytes], n: int = 32) -> bytes:
        """The stored secret for (kind, key), or ``n`` new bytes from ``random_bytes(n)`` stored first."""
        existing = self.get(kind, key)
        if isinstance(existing, bytes):
            return existing
        stored: bytes = self.put(kind, key, random_bytes(n))
        return stored


def _key(key: Any) -> Any:
    return tuple(key) if isinstance(key, list) else key
