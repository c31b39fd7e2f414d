"""Log files (PROTOCOL.md 8): reading one whole (:func:`read_log`, :func:`parse_log`) or as a
stream of entries in bounded memory (:func:`stream_log`), and appending to one
(:class:`LogWriter`).

The entries themselves, their signatures and chain, head signatures, fork evidence and the errors
of a log are in :mod:`engine.protocol.entry`; every name there is re-exported here, the way
callers import them. A whole file's signatures are verified together, on every core, after its
frames are read (:mod:`engine.protocol.signatures`): the error is the one a check of each frame
in order gives (:func:`read_log_unverified` leaves them to its caller, for work done meanwhile).
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

from engine.files import NotRegularFile, check_regular, fsync_dir, open_regular, try_lock
from engine.protocol.codec import DEFAULT_LIMITS, CodecError, Limits, decode, encode
from engine.protocol.entry import (
    END_KIND,
    ENTRY_CONTEXT,
    FRAME_HEADER,
    LOG_MAGIC,
    VERSION,
    ZERO32,
    BadAuthorKey,
    BadSignature,
    ChainError,
    Entry,
    EntryTooLarge,
    ForkEvidence,
    Head,
    LogError,
    LogFileError,
    MalformedEntry,
    TrailingBytes,
    check_link,
    find_fork,
    head_message,
    sign_entry,
    sign_head,
    signature_error,
    validate_author_key,
    verify_head,
)
from engine.protocol.signatures import (
    SIGNATURES_AHEAD,
    SIGNATURES_AHEAD_FRAME,
    FrameSignature,
    SignaturesAhead,
    first_bad_signature,
    head_failure,
)

__all__ = [
    "END_KIND",
    "ENTRY_CONTEXT",
    "FRAME_HEADER",
    "LOG_MAGIC",
    "SIGNATURES_AHEAD",
    "SIGNATURES_AHEAD_FRAME",
    "VERSION",
    "ZERO32",
    "BadAuthorKey",
    "BadSignature",
    "ChainError",
    "Entry",
    "EntryTooLarge",
    "ForkEvidence",
    "Head",
    "LogError",
    "LogFile",
    "LogFileError",
    "LogInUse",
    "LogStream",
    "LogWriter",
    "MalformedEntry",
    "SignaturesAhead",
    "TrailingBytes",
    "UnverifiedLog",
    "altered_length",
    "check_link",
    "count_frames",
    "encode_frame",
    "find_fork",
    "first_bad_signature",
    "head_message",
    "parse_log",
    "read_log",
    "read_log_unverified",
    "sign_entry",
    "sign_head",
    "signature_error",
    "stream_log",
    "validate_author_key",
    "verify_head",
]


# --- Log files (PROTOCOL.md 8) ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LogFile:
    """A log file as read: ``entries`` in order from genesis, ``heads[i]`` the head signature
    stored with ``entries[i]`` (64 bytes) or None; ``torn`` when a torn last frame was dropped;
    ``length``: bytes of the file up to the end of the last whole frame."""

    entries: tuple[Entry, ...]
    heads: tuple[bytes | None, ...]
    torn: bool
    length: int


def encode_frame(entry: Entry, head_sig: bytes | None = None) -> bytes:
    """One log-file frame: 4-byte big-endian length N, then N bytes, the canonical encoding of
    ``[[payload, signature], head_sig or nil]`` (PROTOCOL.md 8)."""
    body = encode([entry.wire_array(), head_sig])
    return len(body).to_bytes(FRAME_HEADER, "big") + body


def _check_head(host: bytes, entry: Entry, head_sig: Any) -> None:
    if head_sig is None:
        return
    if not verify_head(host, entry.table_id, entry.seq, entry.id, head_sig):
        raise head_failure(entry)


class UnverifiedLog:
    """A log file read with its signatures not yet verified (:func:`read_log_unverified`).

    ``entries``: the entries read in order, each one decoded, checked and chained to the one
    before, as :func:`parse_log` checks them but for the signatures; a corrupt frame stops the
    reading there (``complete`` False), its error kept for :meth:`verify`. Nothing in
    ``entries`` is to be trusted (shown, written or acted on) before :meth:`verify` returns."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.entries: list[Entry] = []
        self.heads: list[bytes | None] = []
        self.torn = False
        self.length = 0
        self.error: LogFileError | None = None
        self.signatures: list[FrameSignature] = []

    @property
    def complete(self) -> bool:
        """Whether every frame was read (no corrupt frame stopped the reading)."""
        return self.error is None

    def verify(self) -> LogFile:
        """The log, once every signature of the frames read verifies (:func:`first_bad_signature`).
        Raises exactly what :func:`parse_log` raises for the same bytes: the LogFileError of the
        first frame, in order, whose signature does not verify or that is corrupt."""
        bad = first_bad_signature(self.signatures)
        if bad is not None:
            raise self.signatures[bad].failure(self.name)
        if self.error is not None:
            raise self.error
        return LogFile(tuple(self.entries), tuple(self.heads), torn=self.torn, length=self.length)


def _no_entry(name: str, pos: int) -> LogFileError:
    """A log file whose every byte after its magic is zero: no game at all, not a torn last frame."""
    return LogFileError(f"{name} holds no entry: after its first line it is all zero bytes.", 0, pos)


def _read_frames(f: BinaryIO, end: int, name: str, limits: Limits) -> UnverifiedLog:
    """Every frame of the log file ``f`` (positioned just past its magic; ``end``: its size in
    bytes) read one at a time, decoded and checked but for its signatures, which are kept in
    order in ``signatures`` (each one after the checks of its frame that come before it: a
    frame's fields, then its signature, its link, its head signature). Memory holds the entries
    read and one frame (at most ``limits.max_bytes``), never the rest of the file: a file that is
    no log is refused at its first bad frame, and a tail of zeros is read in chunks."""
    log = UnverifiedLog(name)
    entries = log.entries
    pos = len(LOG_MAGIC)
    try:
        while pos < end:
            index = len(entries)
            header = f.read(FRAME_HEADER)
            if len(header) < FRAME_HEADER:
                break  # torn length
            n = int.from_bytes(header, "big")
            if n == 0 and _zeros_to_end(f, end - pos - FRAME_HEADER):
                if not entries:
                    raise _no_entry(name, pos)
                break  # a zero-filled tail: the file grew but the frame never reached the disk
            if n == 0 or n > limits.max_bytes:
                raise LogFileError(
                    f"{name} is corrupt at frame {index} (byte offset {pos}): it declares {n} bytes.",
                    index,
                    pos,
                )
            if end - pos - FRAME_HEADER < n:
                altered = altered_length(header + f.read(n), 0, limits)  # fewer than n bytes are left
                if altered is not None:
                    raise LogFileError(f"{name} is corrupt at frame {index} (byte offset {pos}): {altered}", index, pos)
                break  # torn frame
            frame = f.read(n)
            try:
                value = decode(frame, limits)
                if not (isinstance(value, list) and len(value) == 2):
                    raise MalformedEntry("A frame must be the array [entry, head signature or nil].")
                entry = Entry.from_wire(value[0], limits, verify=False)
                log.signatures.append(FrameSignature(index, pos, entry))
                check_link(entries[-1] if entries else None, entry)
                if value[1] is not None:
                    host = entries[0].author if entries else entry.author
                    log.signatures.append(FrameSignature(index, pos, entry, host, value[1]))
            except (CodecError, LogError) as err:
                raise LogFileError(
                    f"{name} is corrupt at frame {index} (byte offset {pos}): {err}", index, pos
                ) from err
            entries.append(entry)
            log.heads.append(value[1])
            pos += FRAME_HEADER + n
            if entry.kind == END_KIND and pos < end:
                # Nothing is ever written after the end entry, so these bytes cannot be a torn frame.
                trailing = TrailingBytes(entry.seq, end - pos, pos)
                raise LogFileError(f"{name} is corrupt: {trailing}", index + 1, pos) from trailing
    except LogFileError as err:
        log.error = err
    log.torn = pos < end
    log.length = pos
    return log


def parse_log(data: bytes, name: str = "The log", limits: Limits = DEFAULT_LIMITS) -> LogFile:
    """The log held by the bytes ``data`` of a log file (see :func:`read_log`); ``name`` starts
    the error messages. Its signatures are verified on every core (:func:`first_bad_signature`),
    the first frame at fault named as a check in order names it."""
    return _read_file(io.BytesIO(data), len(data), name, limits).verify()


def _read_file(f: BinaryIO, end: int, name: str, limits: Limits) -> UnverifiedLog:
    """:func:`_read_frames` of the log file ``f`` at its start (``end``: its size), once its magic
    is checked: what is no log is refused before anything else is read. Raises LogFileError."""
    if f.read(len(LOG_MAGIC)) != LOG_MAGIC:
        raise LogFileError(f"{name} is not a vampire-table log file (it does not start with VTLOG1).")
    return _read_frames(f, end, name, limits)


def altered_length(data: bytes, offset: int, limits: Limits = DEFAULT_LIMITS) -> str | None:
    """Why the frame at ``offset``, which declares more bytes than the file holds, cannot be a torn
    tail, or None if it can be.

    A crash mid-write leaves a prefix of the frame: never a whole frame value (the value is exactly
    the declared length). When the bytes after the length hold a whole, validly signed entry frame
    and then more, the length was altered (one flipped byte would otherwise make the rest of the
    log look like a torn tail and be dropped).
    """
    declared = int.from_bytes(data[offset : offset + FRAME_HEADER], "big")
    rest = data[offset + FRAME_HEADER :]
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=max(len(rest), 1))
    try:
        unpacker.feed(rest)
        unpacker.unpack()
        size = unpacker.tell()
        value = decode(rest[:size], limits)
        if not (isinstance(value, list) and len(value) == 2):
            return None
        Entry.from_wire(value[0], limits)
    except Exception:
        return None
    return (
        f"it declares {declared} bytes, but a whole entry of {size} bytes starts there and the file "
        "ends before the length it declares: the length was altered (a crash never leaves a whole "
        "entry in a torn frame)."
    )


def read_log(path: str | os.PathLike[str], limits: Limits = DEFAULT_LIMITS) -> LogFile:
    """Read and check the log file at ``path`` (PROTOCOL.md 8).

    Every frame is decoded canonically within ``limits``, every entry checked by
    :meth:`Entry.from_wire` and :func:`check_link`, every stored head signature checked against
    the host's key (the genesis author). A torn last frame (the file ends inside it, or the rest
    of the file is zero bytes) is dropped and ``torn`` set. Raises LogFileError for a missing or
    unreadable file, a wrong magic, a corrupt frame (naming its index and byte offset, with the
    precise LogError or CodecError as ``__cause__``), or any byte after an `end` entry (no crash
    leaves one: nothing is written after it).
    """
    return read_log_unverified(path, limits).verify()


def read_log_unverified(path: str | os.PathLike[str], limits: Limits = DEFAULT_LIMITS) -> UnverifiedLog:
    """The log file at ``path`` read as :func:`read_log` reads it, its signatures not yet
    verified: a reader that does other work with the entries before it trusts them (``vampire
    result`` folds them while another process verifies, :mod:`engine.protocol.verifier`) calls
    :meth:`UnverifiedLog.verify` before it shows or uses anything, and gets what :func:`read_log`
    gives or raises. Raises LogFileError at once for a file that cannot be read or a wrong magic."""
    path = Path(path)
    name = f"The log file {path}"
    try:
        with open_regular(path) as f:
            return _read_file(f, os.fstat(f.fileno()).st_size, name, limits)
    except OSError as err:
        raise LogFileError(f"Cannot read the log file {path}: {err.strerror or err}.") from None


def _zeros_to_end(f: BinaryIO, count: int) -> bool:
    """Whether the next ``count`` bytes of ``f`` are all zero (read in chunks of 1 MiB)."""
    while count > 0:
        chunk = f.read(min(count, 1 << 20))
        if not chunk or chunk.count(0) != len(chunk):
            return False
        count -= len(chunk)
    return True


class LogStream:
    """A log file read as a stream (PROTOCOL.md 8): iterating gives each ``(entry, head_sig)`` in
    order, checked exactly as :func:`parse_log` checks it, holding one frame at a time in memory
    (at most ``limits.max_bytes``), so a file of any size is read in bounded memory. The file's
    size is taken when iteration starts (a log being appended to is read up to there).

    Iteration raises LogFileError as :func:`parse_log` does (a file that is missing or cannot be
    read, a wrong magic, a corrupt frame naming its index and byte offset, bytes after `end`) once
    the entries before the fault have been given. Once it ends: ``torn`` (a torn last frame was
    dropped), ``length`` (bytes up to the end of the last whole frame), ``count`` (entries given),
    ``size`` (the file's bytes). While it runs, ``offset`` is the byte offset of the frame of the
    entry just given.

    ``resume`` reads on from the middle of a file already read whole once: ``(offset, prev)``,
    the byte offset of a frame and the entry just before it (its ``prev``), with the genesis
    author's key taken from ``host``; the entries are checked as above, chained to ``prev``."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        limits: Limits = DEFAULT_LIMITS,
        name: str | None = None,
        *,
        resume: tuple[int, Entry] | None = None,
        host: bytes | None = None,
    ) -> None:
        self.path = Path(path)
        self.limits = limits
        self.name = name or f"The log file {self.path}"
        self.torn = False
        self.length = 0
        self.count = 0
        self.size = 0
        self.offset = 0
        if resume is not None and (resume[0] < len(LOG_MAGIC) or host is None):
            raise ValueError("A log stream resumes at a frame's offset past the magic, with the host's key.")
        self._resume = resume
        self._host = host

    def __iter__(self) -> Iterator[tuple[Entry, bytes | None]]:
        name = self.name
        limits = self.limits
        try:
            f = open_regular(self.path)  # closed by the with below, across yields
        except OSError as err:
            raise LogFileError(f"Cannot read the log file {self.path}: {err.strerror or err}.") from None
        with f:
            end = self.size = os.fstat(f.fileno()).st_size
            if f.read(len(LOG_MAGIC)) != LOG_MAGIC:
                raise LogFileError(f"{name} is not a vampire-table log file (it does not start with VTLOG1).")
            pos = len(LOG_MAGIC)
            prev: Entry | None = None
            host: bytes | None = None
            if self._resume is not None:
                pos, prev = self._resume
                host = self._host
                self.count = prev.seq + 1
                f.seek(pos)
            while pos < end:
                index = self.count
                header = f.read(FRAME_HEADER)
                if len(header) < FRAME_HEADER:
                    break  # torn length
                n = int.from_bytes(header, "big")
                if n == 0 and _zeros_to_end(f, end - pos - FRAME_HEADER):
                    if index == 0:
                        raise _no_entry(name, pos)
                    break  # a zero-filled tail: the file grew but the frame never reached the disk
                if n == 0 or n > limits.max_bytes:
                    raise LogFileError(
                        f"{name} is corrupt at frame {index} (byte offset {pos}): it declares {n} bytes.", index, pos
                    )
                if end - pos - FRAME_HEADER < n:
                    altered = altered_length(header + f.read(n), 0, limits)  # fewer than n bytes are left
                    if altered is not None:
                        raise LogFileError(
                            f"{name} is corrupt at frame {index} (byte offset {pos}): {altered}", index, pos
                        )
                    break  # torn frame
                frame = f.read(n)
                try:
                    value = decode(frame, limits)
                    if not (isinstance(value, list) and len(value) == 2):
                        raise MalformedEntry("A frame must be the array [entry, head signature or nil].")
                    entry = Entry.from_wire(value[0], limits)
                    check_link(prev, entry)
                    _check_head(host or entry.author, entry, value[1])
                except (CodecError, LogError) as err:
                    raise LogFileError(
                        f"{name} is corrupt at frame {index} (byte offset {pos}): {err}", index, pos
                    ) from err
                self.offset = pos
                pos += FRAME_HEADER + n
                self.count += 1
                self.length = pos
                prev, host = entry, host or entry.author
                yield entry, value[1]
                if entry.kind == END_KIND and pos < end:
                    trailing = TrailingBytes(entry.seq, end - pos, pos)
                    raise LogFileError(f"{name} is corrupt: {trailing}", index + 1, pos) from trailing
            self.length = pos
            self.torn = pos < end


def stream_log(path: str | os.PathLike[str], limits: Limits = DEFAULT_LIMITS, name: str | None = None) -> LogStream:
    """The log file at ``path`` as a :class:`LogStream` (read as it is iterated); ``name`` starts
    its error messages (default: "The log file PATH")."""
    return LogStream(path, limits, name)


def count_frames(path: str | os.PathLike[str]) -> int:
    """How many whole frames the log file at ``path`` holds, reading only their lengths (nothing
    is checked: a count for progress, not a verdict); 0 for a file that cannot be read."""
    count = 0
    try:
        with open_regular(path) as f:
            end = os.fstat(f.fileno()).st_size
            pos = len(LOG_MAGIC)
            f.seek(pos)
            while end - pos >= FRAME_HEADER:
                n = int.from_bytes(f.read(FRAME_HEADER), "big")
                if n == 0 or end - pos - FRAME_HEADER < n:
                    break
                pos += FRAME_HEADER + n
                f.seek(pos)
                count += 1
    except OSError:
        return 0
    return count


class LogInUse(LogFileError):
    """A log file that another writer holds open: another vampire process (or another writer in
    this one) is appending to it."""


class LogWriter:
    """Appends entries to a log file, each one on disk before :meth:`append` returns
    (PROTOCOL.md 3, 8).

    ``LogWriter(path)`` creates the file (with the magic) if it is missing, empty or a torn
    creation (a strict prefix of the magic); otherwise it reads and checks it (:func:`read_log`)
    and appends after its last entry, refusing a file that ends in a torn frame (use
    :meth:`open_existing`). ``loaded`` is the log found on opening.

    A writer holds an exclusive lock on its file (:func:`engine.files.try_lock`) from opening to
    :meth:`close`, so two writers never append to one log; readers (:func:`read_log`, the audit,
    a replay) take none. Raises LogInUse when another writer holds the file, LogFileError.
    Use as a context manager, or call :meth:`close`.

    ``sync=False`` (a copy of a log that another writer of this process fsyncs first, as the
    player's and the bots' copies of ``vampire play`` behind its host's log): each entry is
    written before :meth:`append` returns but fsynced only by :meth:`close`; after a crash the
    copy may end early or in a torn frame, and its client catches up from the host's log.
    """

    def __init__(self, path: str | os.PathLike[str], limits: Limits = DEFAULT_LIMITS, *, sync: bool = True):
        self._sync = sync
        self._open(Path(path), limits, drop_torn=False)

    @classmethod
    def open_existing(
        cls, path: str | os.PathLike[str], limits: Limits = DEFAULT_LIMITS, *, sync: bool = True
    ) -> LogWriter:
        """Reopen an existing log file to resume a table: a torn last frame is cut off (the file is
        truncated to ``loaded.length`` and synced) before the first entry is appended, and not
        before, so a resume refused after opening (the wrong host, a log the table refuses) leaves
        the file as it was. Raises LogInUse when another writer holds the file, LogFileError, also
        when the file does not exist."""
        path = Path(path)
        if not path.exists():
            raise LogFileError(f"There is no log file at {path}.")
        writer = cls.__new__(cls)
        writer._sync = sync
        writer._open(path, limits, drop_torn=True)
        return writer

    def _open(self, path: Path, limits: Limits, drop_torn: bool) -> None:
        self.path = path
        self._limits = limits
        self._fd = -1
        self._cut = False
        try:
            # Locked before it is read: what is read is what this writer appends to.
            create = 0 if drop_torn else os.O_CREAT
            self._fd = os.open(path, os.O_RDWR | create | getattr(os, "O_BINARY", 0), 0o644)
            if not try_lock(self._fd):
                raise LogInUse(
                    f"The log file {path} is in use by another vampire process, which is writing to it: "
                    "close that one first (a log has one writer)."
                )
            check_regular(self._fd, path)  # a FIFO or a device is never read nor written as a log
            size = os.fstat(self._fd).st_size
            head = os.pread(self._fd, len(LOG_MAGIC), 0)
            if size < len(LOG_MAGIC) and LOG_MAGIC.startswith(head):  # new, empty or a torn creation
                os.ftruncate(self._fd, 0)
                os.lseek(self._fd, 0, os.SEEK_SET)
                self._write_all(LOG_MAGIC)
                os.fsync(self._fd)
                fsync_dir(path.parent)
                self.loaded = LogFile((), (), torn=False, length=len(LOG_MAGIC))
                self._size = len(LOG_MAGIC)
            else:
                with open(self._fd, "rb", closefd=False) as f:  # read a frame at a time
                    self.loaded = _read_file(f, size, f"The log file {path}", limits).verify()
                if self.loaded.torn and not drop_torn:
                    raise LogFileError(
                        f"The log file {path} ends in a torn frame (a crash while writing); "
                        "resuming the table from it drops that frame."
                    )
                self._cut = self.loaded.torn  # cut off at the first append (see open_existing)
                self._size = self.loaded.length
        except OSError as err:
            self.close()
            why = NotRegularFile(path, "a folder").strerror if isinstance(err, IsADirectoryError) else err.strerror
            raise LogFileError(f"Cannot open the log file {path}: {why or err}.") from None
        except BaseException:
            self.close()
            raise
        entries = self.loaded.entries
        self._last: Entry | None = entries[-1] if entries else None
        self._host: bytes | None = entries[0].author if entries else None

    @property
    def last(self) -> Entry | None:
        """The last entry in the file, or None while it holds none."""
        return self._last

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view) :]

    def append(self, entry: Entry, head_sig: bytes | None = None) -> None:
        """Write ``entry`` with its host head signature (64 bytes, or None) as one frame, written
        and fsynced before returning (fsynced at :meth:`close` for a writer with ``sync=False``).

        Raises ChainError if ``entry`` does not follow the last entry, BadSignature if
        ``head_sig`` is not the host's (the genesis author's) for it, LogFileError on an I/O error
        (the partial frame is cut off again), a frame over the size limit, or after an `end` entry
        (a complete log ends with it, PROTOCOL.md 8). Nothing is written when it raises before the
        I/O.
        """
        if self._fd < 0:
            raise LogFileError(f"The log file {self.path} is closed.")
        if self._last is not None and self._last.kind == END_KIND:
            raise LogFileError(
                f"The log file {self.path} is complete: nothing is written after its end entry (seq {self._last.seq})."
            )
        check_link(self._last, entry)
        _check_head(self._host or entry.author, entry, head_sig)
        frame = encode_frame(entry, head_sig)
        if len(frame) - FRAME_HEADER > self._limits.max_bytes:
            raise LogFileError(f"The entry at seq {entry.seq} is too large for a log-file frame.")
        try:
            if self._cut:
                os.ftruncate(self._fd, self._size)
                self._cut = False
            os.lseek(self._fd, self._size, os.SEEK_SET)
            self._write_all(frame)
            if self._sync:
                os.fsync(self._fd)
        except OSError as err:
            try:
                os.ftruncate(self._fd, self._size)
            except OSError:
                pass
            raise LogFileError(f"Cannot write to the log file {self.path}: {err.strerror or err}.") from None
        self._size += len(frame)
        self._last = entry
        if self._host is None:
            self._host = entry.author

    def close(self) -> None:
        """Close the file (fsynced first when written with ``sync=False``), which frees its lock;
        appending afterwards raises LogFileError."""
        if self._fd >= 0:
            if not self._sync:
                try:
                    os.fsync(self._fd)
                except OSError:
                    pass  # a copy: its client catches up from the host's log
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
