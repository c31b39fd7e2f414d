"""Entries, their signatures and chain, head signatures, and log files (PROTOCOL.md 2, 3, 8).

An entry is made by :func:`sign_entry` or read by :meth:`Entry.from_wire`, which checks everything
an entry can be checked for on its own: canonical bytes, field types, the author's key and the
signature. :func:`check_link` checks that an entry follows another. Head signatures are made and
checked by :func:`sign_head` / :func:`verify_head`; :func:`find_fork` turns two conflicting heads
into :class:`ForkEvidence`. :class:`LogWriter` and :func:`read_log` keep a log on disk.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import msgpack
import nacl.bindings
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from engine.errors import VampireError
from engine.files import fsync_dir, try_lock
from engine.protocol.codec import (
    DEFAULT_LIMITS,
    CodecError,
    LimitError,
    Limits,
    Spec,
    bin_of,
    check_map,
    decode,
    encode,
    hash_input,
    int_in,
)
from engine.protocol.identity import public_bytes

VERSION = 2
"""The protocol version every entry carries in ``v``."""

ZERO32 = bytes(32)
"""The ``table`` and ``prev`` of a genesis entry."""

ENTRY_CONTEXT = b"vampire-table/entry/v1\x00"
"""Prefix of the message an entry signature covers: ``ENTRY_CONTEXT + payload_bytes``."""

_VERIFIED: set[tuple[bytes, bytes, bytes]] = set()
_VERIFIED_SIZE = 1 << 14


def _signature_verifies(author: bytes, payload: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is ``author``'s Ed25519 signature of the entry ``payload``. The
    signatures that verified are kept per process (by the author, the payload's SHA-256 and the
    signature: a pure function's memo, bounded), so that the host and the seats of one process
    (``vampire play``) verify each entry's signature once."""
    key = (author, hashlib.sha256(payload).digest(), signature)
    if key in _VERIFIED:
        return True
    try:
        Ed25519PublicKey.from_public_bytes(author).verify(signature, ENTRY_CONTEXT + payload)
    except (InvalidSignature, ValueError):
        return False
    if len(_VERIFIED) >= _VERIFIED_SIZE:
        _VERIFIED.clear()
    _VERIFIED.add(key)
    return True


LOG_MAGIC = b"VTLOG1\n"
"""The first bytes of every log file (PROTOCOL.md 8)."""

FRAME_HEADER = 4
"""Bytes of the big-endian length that starts every log-file frame."""

END_KIND = "end"
"""The kind of the host's closing entry (PROTOCOL.md 4): a complete log ends with it, and a log
file holds nothing after its frame (PROTOCOL.md 8)."""


class LogError(VampireError):
    """An entry, a chain, a head signature or a log file that is not what the protocol says."""


class MalformedEntry(LogError):
    """Entry bytes that do not decode canonically or whose fields are not the protocol's."""


class EntryTooLarge(MalformedEntry):
    """Entry bytes over the decoding limits (wire rejection code ``too-large``)."""


class BadAuthorKey(MalformedEntry):
    """An author key that is not a canonical point of the main subgroup, or is of small order."""


class BadSignature(LogError):
    """An entry or head signature that does not verify."""


class ChainError(LogError):
    """An entry that does not follow the previous one (seq, prev, table)."""


class LogFileError(LogError):
    """A log file that cannot be read or written: wrong magic, a corrupt frame, an I/O error.

    ``frame`` (0-based index) and ``offset`` (byte offset of the frame's length) locate a corrupt
    frame, when there is one.
    """

    def __init__(self, message: str, frame: int | None = None, offset: int | None = None):
        super().__init__(message)
        self.frame = frame
        self.offset = offset


class TrailingBytes(LogError):
    """Bytes after a log file's `end` entry (PROTOCOL.md 8): ``count`` of them from byte ``offset``,
    after the entry of seq ``after``. A crash never leaves them (nothing is written after `end`),
    so they were added to the file after it was written."""

    def __init__(self, after: int, count: int, offset: int) -> None:
        super().__init__(
            f"{count} byte{'s' if count != 1 else ''} follow the end entry (seq {after}), from byte "
            f"offset {offset}; a complete log ends with its end entry, so they were added to the file "
            "after it was written."
        )
        self.after = after
        self.count = count
        self.offset = offset


def validate_author_key(pub: Any) -> bytes:
    """``pub`` if it is an acceptable author key (PROTOCOL.md 2), else BadAuthorKey.

    Acceptable: 32 bytes that are the canonical encoding of a point of the prime-order subgroup of
    edwards25519, not of small order (libsodium's ``crypto_core_ed25519_is_valid_point``). Every
    key made by Ed25519 key generation passes.
    """
    if not isinstance(pub, bytes) or len(pub) != 32:
        raise BadAuthorKey("An author key must be 32 bytes.")
    try:
        ok = nacl.bindings.crypto_core_ed25519_is_valid_point(pub)
    except Exception:
        ok = False
    if not ok:
        raise BadAuthorKey("The author key is not a canonical point of the main subgroup, or is of small order.")
    return pub


# --- Entries (PROTOCOL.md 2) --------------------------------------------------------------------


def _check_version(value: Any, what: str) -> int:
    if type(value) is not int or value != VERSION:
        raise MalformedEntry(f"The entry is of protocol version {value!r}; this program reads {VERSION}.")
    return value


def _check_kind(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise MalformedEntry("The entry payload field 'kind' must be a non-empty str.")
    return value


_PAYLOAD: Mapping[str, Spec] = MappingProxyType(
    {
        "v": _check_version,
        "table": bin_of(32),
        "seq": int_in(0),
        "prev": bin_of(32),
        "author": bin_of(32),
        "kind": _check_kind,
        "body": dict,
        "time": int,
    }
)


def _parse_payload(payload: bytes, limits: Limits) -> dict[str, Any]:
    try:
        fields = check_map(decode(payload, limits), _PAYLOAD, what="the entry payload")
    except LimitError as err:
        raise EntryTooLarge(f"The entry payload is too large: {err}") from None
    except CodecError as err:
        raise MalformedEntry(str(err)) from None
    validate_author_key(fields["author"])
    return fields


@dataclass(frozen=True, eq=False, slots=True)
class Entry:
    """One signed log entry (PROTOCOL.md 2); made by :func:`sign_entry` or :meth:`from_wire`.

    ``payload``: the canonical payload bytes; ``signature``: 64 bytes; ``table``, ``prev``,
    ``author``: 32 bytes; ``seq``: int >= 0; ``kind``: str; ``body``: the decoded body map (do
    not mutate it: the payload bytes are the truth); ``time``: the author's clock in ms;
    ``id``: SHA-256 of the payload (32 bytes). Two entries are equal when their payload and
    signature are.
    """

    payload: bytes
    signature: bytes
    table: bytes
    seq: int
    prev: bytes
    author: bytes
    kind: str
    body: dict[str, Any]
    time: int
    id: bytes

    @classmethod
    def _make(cls, payload: bytes, signature: bytes, fields: dict[str, Any]) -> Entry:
        return cls(
            payload=payload,
            signature=signature,
            table=fields["table"],
            seq=fields["seq"],
            prev=fields["prev"],
            author=fields["author"],
            kind=fields["kind"],
            body=fields["body"],
            time=fields["time"],
            id=hashlib.sha256(payload).digest(),
        )

    @classmethod
    def from_wire(cls, data: bytes | list[Any], limits: Limits = DEFAULT_LIMITS) -> Entry:
        """The entry encoded by ``data``: the canonical bytes of ``[payload, signature]``, or that
        array already decoded (a list of two bytes values).

        Checks canonical decoding within ``limits`` (payload too), the payload fields (exactly
        v == 1, table/prev/author bin 32, seq int >= 0, kind non-empty str, body map, time int),
        the author key (:func:`validate_author_key`) and the signature. Chaining is not checked
        here (:func:`check_link`). Raises EntryTooLarge, MalformedEntry, BadAuthorKey (all
        MalformedEntry) or BadSignature.
        """
        if isinstance(data, (bytes, bytearray, memoryview)):
            try:
                data = decode(bytes(data), limits)
            except LimitError as err:
                raise EntryTooLarge(f"The entry is too large: {err}") from None
            except CodecError as err:
                raise MalformedEntry(f"The entry is malformed: {err}") from None
        if not (
            isinstance(data, list) and len(data) == 2 and isinstance(data[0], bytes) and isinstance(data[1], bytes)
        ):
            raise MalformedEntry("An entry must be the array [payload, signature] of two bins.")
        payload, signature = data
        if len(signature) != 64:
            raise MalformedEntry(f"An entry signature must be 64 bytes, not {len(signature)}.")
        fields = _parse_payload(payload, limits)
        if not _signature_verifies(fields["author"], payload, signature):
            raise BadSignature(
                f"The signature of the {fields['kind']!r} entry at seq {fields['seq']} does not "
                "verify against its author's key."
            )
        return cls._make(payload, signature, fields)

    @property
    def is_genesis(self) -> bool:
        """True for seq 0, the ``table`` entry whose id is the table id."""
        return self.seq == 0

    @property
    def table_id(self) -> bytes:
        """The id of this entry's table: its own id for genesis, else its ``table`` field."""
        return self.id if self.seq == 0 else self.table

    def wire_array(self) -> list[bytes]:
        """The entry as the array ``[payload, signature]`` (PROTOCOL.md 2)."""
        return [self.payload, self.signature]

    def to_wire(self) -> bytes:
        """The canonical encoding of :meth:`wire_array`: the entry on the wire and on disk."""
        return encode(self.wire_array())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Entry):
            return NotImplemented
        return self.payload == other.payload and self.signature == other.signature

    def __hash__(self) -> int:
        return hash((self.payload, self.signature))

    def __repr__(self) -> str:
        return f"Entry(seq={self.seq}, kind={self.kind!r}, id={self.id.hex()[:16]}…)"


def sign_entry(
    private_key: Ed25519PrivateKey,
    *,
    table: bytes,
    seq: int,
    prev: bytes,
    kind: str,
    body: dict[str, Any],
    time_ms: int,
) -> Entry:
    """A new entry authored and signed by ``private_key`` (PROTOCOL.md 2).

    ``table``: the table id (``ZERO32`` for genesis); ``seq``: its position; ``prev``: the previous
    entry's id (``ZERO32`` for genesis); ``kind``/``body``: what it says; ``time_ms``: the
    author's clock in ms. The payload is checked as :meth:`Entry.from_wire` would check it, so
    the entry signed is one every peer can read. Raises MalformedEntry (or EntryTooLarge) when a
    field is not the protocol's (a float in the body, a 31-byte prev, ...).
    """
    try:
        payload = encode(
            {
                "v": VERSION,
                "table": table,
                "seq": seq,
                "prev": prev,
                "author": public_bytes(private_key),
                "kind": kind,
                "body": body,
                "time": time_ms,
            }
        )
    except CodecError as err:
        raise MalformedEntry(f"The entry cannot be encoded: {err}") from None
    fields = _parse_payload(payload, DEFAULT_LIMITS)
    return Entry._make(payload, private_key.sign(ENTRY_CONTEXT + payload), fields)


def check_link(prev: Entry | None, entry: Entry) -> None:
    """Raise ChainError unless ``entry`` may follow ``prev`` in a log (PROTOCOL.md 2).

    ``prev`` None means ``entry`` must be a genesis: seq 0, ``table`` and ``prev`` 32 zero bytes.
    Otherwise: seq = prev.seq + 1, ``prev`` = prev.id and ``table`` = the table id of ``prev``.
    """
    if prev is None:
        if entry.seq != 0:
            raise ChainError(f"The log must start with a genesis entry at seq 0, not seq {entry.seq}.")
        if entry.table != ZERO32 or entry.prev != ZERO32:
            raise ChainError("The genesis entry at seq 0 must have 32 zero bytes as its table and prev.")
        return
    if entry.seq != prev.seq + 1:
        raise ChainError(f"The entry at seq {entry.seq} cannot follow the entry at seq {prev.seq}.")
    if entry.prev != prev.id:
        raise ChainError(f"The entry at seq {entry.seq} does not point to the id of the entry at seq {prev.seq}.")
    if entry.table != prev.table_id:
        raise ChainError(f"The entry at seq {entry.seq} belongs to another table.")


# --- Head signatures and fork evidence (PROTOCOL.md 3) ------------------------------------------


def head_message(table: bytes, seq: int, entry_id: bytes) -> bytes:
    """The bytes a head signature covers: ``hash_input("head", table, seq, entry_id)``, the
    canonical encoding of ``["vampire-table/head/v1", table, seq, entry_id]``."""
    return hash_input("head", table, seq, entry_id)


def sign_head(key: Ed25519PrivateKey, table: bytes, seq: int, entry_id: bytes) -> bytes:
    """The host's 64-byte head signature saying entry ``entry_id`` (32 bytes) is at ``seq`` of
    ``table`` (32-byte table id) (PROTOCOL.md 3)."""
    return key.sign(head_message(table, seq, entry_id))


def verify_head(pub: bytes, table: bytes, seq: int, entry_id: bytes, sig: Any) -> bool:
    """Whether ``sig`` is ``pub``'s head signature for (``table``, ``seq``, ``entry_id``).

    ``pub`` is the host's key, the genesis author (already checked by :func:`validate_author_key`
    when the genesis was read). Any malformed argument gives False, never an exception.
    """
    if not (
        isinstance(sig, bytes)
        and len(sig) == 64
        and isinstance(pub, bytes)
        and len(pub) == 32
        and isinstance(table, bytes)
        and isinstance(entry_id, bytes)
        and type(seq) is int
        and seq >= 0
    ):
        return False
    try:
        Ed25519PublicKey.from_public_bytes(pub).verify(sig, head_message(table, seq, entry_id))
    except (InvalidSignature, ValueError, CodecError):
        return False
    return True


@dataclass(frozen=True, slots=True)
class Head:
    """A host's claim that ``entry_id`` is entry ``seq`` of ``table``, with its 64-byte
    ``signature`` (PROTOCOL.md 3)."""

    table: bytes
    seq: int
    entry_id: bytes
    signature: bytes

    def verify(self, host: bytes) -> bool:
        """Whether the signature is ``host``'s (32-byte key) head signature for this claim."""
        return verify_head(host, self.table, self.seq, self.entry_id, self.signature)


@dataclass(frozen=True, slots=True)
class ForkEvidence:
    """Proof that the host forked the log: two heads it signed for one seq of one table, with
    different entry ids (PROTOCOL.md 3). Anyone holding the host's key can :meth:`check` it."""

    host: bytes
    first: Head
    second: Head

    def check(self) -> bool:
        """Whether this really proves a fork by ``host``."""
        a, b = self.first, self.second
        return (
            a.table == b.table
            and a.seq == b.seq
            and a.entry_id != b.entry_id
            and a.verify(self.host)
            and b.verify(self.host)
        )

    def describe(self) -> str:
        """The evidence as a sentence."""
        return (
            f"The host signed two different entries as seq {self.first.seq}: "
            f"{self.first.entry_id.hex()[:16]}… and {self.second.entry_id.hex()[:16]}…."
        )


def find_fork(host: bytes, a: Head, b: Head) -> ForkEvidence | None:
    """ForkEvidence if ``a`` and ``b`` are both ``host``'s valid head signatures for the same
    seq of the same table with different entry ids; None otherwise (including a bad signature)."""
    evidence = ForkEvidence(host, a, b)
    return evidence if evidence.check() else None


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
        raise BadSignature(f"The head signature stored with the entry at seq {entry.seq} is not the host's.")


def parse_log(data: bytes, name: str = "The log", limits: Limits = DEFAULT_LIMITS) -> LogFile:
    """The log held by the bytes ``data`` of a log file (see :func:`read_log`); ``name`` starts
    the error messages."""
    if not data.startswith(LOG_MAGIC):
        raise LogFileError(f"{name} is not a vampire-table log file (it does not start with VTLOG1).")
    entries: list[Entry] = []
    heads: list[bytes | None] = []
    pos = len(LOG_MAGIC)
    end = len(data)
    while pos < end:
        index = len(entries)
        if end - pos < FRAME_HEADER:
            break  # torn length
        n = int.from_bytes(data[pos : pos + FRAME_HEADER], "big")
        if n == 0 and data.count(0, pos) == end - pos:
            break  # a zero-filled tail: the file grew but the frame never reached the disk
        if n == 0 or n > limits.max_bytes:
            raise LogFileError(
                f"{name} is corrupt at frame {index} (byte offset {pos}): it declares {n} bytes.",
                index,
                pos,
            )
        if end - pos - FRAME_HEADER < n:
            altered = altered_length(data, pos, limits)
            if altered is not None:
                raise LogFileError(f"{name} is corrupt at frame {index} (byte offset {pos}): {altered}", index, pos)
            break  # torn frame
        frame = data[pos + FRAME_HEADER : pos + FRAME_HEADER + n]
        try:
            value = decode(frame, limits)
            if not (isinstance(value, list) and len(value) == 2):
                raise MalformedEntry("A frame must be the array [entry, head signature or nil].")
            entry = Entry.from_wire(value[0], limits)
            check_link(entries[-1] if entries else None, entry)
            _check_head(entries[0].author if entries else entry.author, entry, value[1])
        except (CodecError, LogError) as err:
            raise LogFileError(f"{name} is corrupt at frame {index} (byte offset {pos}): {err}", index, pos) from err
        entries.append(entry)
        heads.append(value[1])
        pos += FRAME_HEADER + n
        if entry.kind == END_KIND and pos < end:
            # Nothing is ever written after the end entry, so these bytes cannot be a torn frame.
            trailing = TrailingBytes(entry.seq, end - pos, pos)
            raise LogFileError(f"{name} is corrupt: {trailing}", index + 1, pos) from trailing
    return LogFile(tuple(entries), tuple(heads), torn=pos < end, length=pos)


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
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise LogFileError(f"Cannot read the log file {path}: {err.strerror or err}.") from None
    return parse_log(data, f"The log file {path}", limits)


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
    """

    def __init__(self, path: str | os.PathLike[str], limits: Limits = DEFAULT_LIMITS):
        self._open(Path(path), limits, drop_torn=False)

    @classmethod
    def open_existing(cls, path: str | os.PathLike[str], limits: Limits = DEFAULT_LIMITS) -> LogWriter:
        """Reopen an existing log file to resume a table: a torn last frame is cut off (the file is
        truncated to ``loaded.length`` and synced) before the first entry is appended, and not
        before, so a resume refused after opening (the wrong host, a log the table refuses) leaves
        the file as it was. Raises LogInUse when another writer holds the file, LogFileError, also
        when the file does not exist."""
        path = Path(path)
        if not path.exists():
            raise LogFileError(f"There is no log file at {path}.")
        writer = cls.__new__(cls)
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
            data = self._read_all()
            if len(data) < len(LOG_MAGIC) and LOG_MAGIC.startswith(data):  # new, empty or a torn creation
                os.ftruncate(self._fd, 0)
                os.lseek(self._fd, 0, os.SEEK_SET)
                self._write_all(LOG_MAGIC)
                os.fsync(self._fd)
                fsync_dir(path.parent)
                self.loaded = LogFile((), (), torn=False, length=len(LOG_MAGIC))
                self._size = len(LOG_MAGIC)
            else:
                self.loaded = parse_log(data, f"The log file {path}", limits)
                if self.loaded.torn and not drop_torn:
                    raise LogFileError(
                        f"The log file {path} ends in a torn frame (a crash while writing); "
                        "resuming the table from it drops that frame."
                    )
                self._cut = self.loaded.torn  # cut off at the first append (see open_existing)
                self._size = self.loaded.length
        except OSError as err:
            self.close()
            raise LogFileError(f"Cannot open the log file {path}: {err.strerror or err}.") from None
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

    def _read_all(self) -> bytes:
        chunks = []
        while chunk := os.read(self._fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view) :]

    def append(self, entry: Entry, head_sig: bytes | None = None) -> None:
        """Write ``entry`` with its host head signature (64 bytes, or None) as one frame, flushed
        and fsynced before returning.

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
        """Close the file, which frees its lock; appending afterwards raises LogFileError."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
