"""Writing the user's files safely (PROTOCOL.md 8; DESIGN.md, "Nothing lost"): a private file
written whole or not at all, a file opened without following a symbolic link, and a lock that keeps
a second process from writing a file one process is writing.

Only the standard library: the protocol (keys, secrets, logs), the paths and the network all use it.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import BinaryIO

if sys.platform != "win32":
    import fcntl

PRIVATE = 0o600
"""The mode of a private file: its owner reads and writes it, nobody else has any access."""

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)


class LinkRefused(OSError):
    """A path that is a symbolic link, where a private file is read or written: refused before
    anything is done to the link or to what it points to. ``errno`` is ELOOP, ``filename`` the path,
    ``strerror`` a sentence fragment ("it is a symbolic link…") for a caller's "Cannot … {path}:"."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(
            errno.ELOOP,
            "it is a symbolic link, and a private file is never read or written through one",
            os.fspath(path),
        )


class NotRegularFile(OSError):
    """A path to read that is not a regular file (a FIFO, a device, a directory, a socket):
    refused before anything is read from it, so that no read waits for a writer that never comes
    or runs on for ever. ``filename`` is the path, ``strerror`` a sentence fragment ("it is a
    FIFO, not a regular file") for a caller's "Cannot read … {path}: …"."""

    def __init__(self, path: str | os.PathLike[str], what: str) -> None:
        super().__init__(errno.EINVAL, f"it is {what}, not a regular file", os.fspath(path))


def _file_kind(mode: int) -> str:
    for test, words in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return words
    return "something else"


def check_regular(fd: int, path: str | os.PathLike[str]) -> None:
    """Raise NotRegularFile unless the open file ``fd`` (opened from ``path``) is a regular file."""
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        raise NotRegularFile(path, _file_kind(mode))


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """The regular file at ``path`` opened for reading (binary). Opening never waits (a FIFO with
    no writer is refused, not waited on). Raises NotRegularFile for a FIFO, a device, a folder or a
    socket, and OSError as ``open`` does (a missing file, no permission)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _BINARY)
    try:
        check_regular(fd, path)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def refuse_link(path: str | os.PathLike[str]) -> None:
    """Raise LinkRefused when ``path`` itself is a symbolic link (dangling or not); nothing else."""
    if os.path.islink(path):
        raise LinkRefused(path)


def write_private(path: str | os.PathLike[str], data: bytes, *, replace: bool = True) -> Path:
    """Make ``data`` the whole content of the file at ``path``, durably and atomically; return
    ``path`` as a Path.

    The bytes go to a new temporary file beside ``path`` (created exclusively, mode 0600), are
    synced to disk, then the file is renamed over ``path`` (``replace=True``) or linked to it
    (``replace=False``: an existing file is never replaced), and the folder is synced: after a crash
    ``path`` holds the old content or the new, whole. The folder must exist.

    Raises LinkRefused when ``path`` is a symbolic link (neither it nor its target is touched),
    FileExistsError when ``replace`` is False and ``path`` exists, OSError on an I/O error. The
    temporary file never outlives the call.
    """
    path = Path(path)
    refuse_link(path)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(name)
    placed = False
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(tmp, path)  # a link put at ``path`` meanwhile is replaced, its target untouched
            placed = True
        else:
            os.link(tmp, path)
    finally:
        if not placed:
            tmp.unlink(missing_ok=True)
    fsync_dir(path.parent)
    return path


def open_no_follow(path: str | os.PathLike[str], flags: int, mode: int = PRIVATE) -> int:
    """``os.open(path, flags, mode)`` (binary on Windows) that refuses a symbolic link at ``path``:
    the descriptor of the file itself. Raises LinkRefused for a link (what it points to is neither
    opened nor changed), OSError otherwise."""
    if not _NOFOLLOW:
        refuse_link(path)  # no O_NOFOLLOW here: checked first instead
    try:
        return os.open(path, flags | _NOFOLLOW | _BINARY, mode)
    except OSError:
        if os.path.islink(path):
            raise LinkRefused(path) from None
        raise


def fsync_dir(directory: str | os.PathLike[str]) -> None:
    """Sync the folder ``directory`` itself, so a file just created or renamed in it survives a
    crash (POSIX; elsewhere nothing). Raises OSError."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def try_lock(fd: int) -> bool:
    """Take an exclusive advisory lock on the open file ``fd`` (``flock``), held until the file is
    closed; True when taken, False when another open of the file holds it (in this process or
    another). Readers take no lock, so it keeps out only a second writer. Without ``flock``
    (Windows) nothing is locked and it returns True. Raises OSError when the lock cannot be asked."""
    if sys.platform == "win32":
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
