"""Entries, their signatures and chain, head signatures and fork evidence (PROTOCOL.md 2, 3, 8),
and the errors of a log; :mod:`engine.protocol.log` reads and writes log files with them (and
re-exports every name here, the way callers import them).

An entry is made by :func:`sign_entry` or read by :meth:`Entry.from_wire`, which checks everything
an entry can be checked for on its own: canonical bytes, field types, the author's key and the
signature. :func:`check_link` checks that an entry follows another. Head signatures are made and
checked by :func:`sign_head` / :func:`verify_head`; :func:`find_fork` turns two conflicting heads
into :class:`ForkEvidence`.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import nacl.bindings
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from engine.errors import VampireError
from engine.files import open_regular
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


class VerifiedMemo[K]:
    """The statements whose signature verified in this process (a pure function's memo: a key
    holds every byte the signature covers), bounded: cleared whole when it holds ``size``."""

    def __init__(self, size: int = 1 << 14) -> None:
        self.size = size
        self._keys: set[K] = set()

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def __len__(self) -> int:
        return len(self._keys)

    def add(self, key: K) -> None:
        """Keep ``key`` (clearing the memo first when it is full)."""
        if len(self._keys) >= self.size:
            self._keys.clear()
        self._keys.add(key)

    def update(self, keys: Sequence[K]) -> None:
        """Keep every one of ``keys`` (at most ``size``), clearing the memo first when they would
        not all fit."""
        if len(self._keys) + len(keys) > self.size:
            self._keys.clear()
        self._keys.update(keys[: self.size])

    def snapshot(self) -> list[K]:
        """The keys kept, in no order."""
        return list(self._keys)

    def clear(self) -> None:
        self._keys.clear()


VERIFIED_SIGNATURES: VerifiedMemo[tuple[bytes, bytes, bytes]] = VerifiedMemo()
"""Entry signatures that verified, by (author, entry id: the payload's SHA-256, signature)."""

VERIFIED_HEADS: VerifiedMemo[tuple[bytes, bytes, int, bytes, bytes]] = VerifiedMemo()
"""Head signatures that verified, by (host, table, seq, entry id, signature)."""


def _signature_verifies(author: bytes, payload: bytes, signature: bytes, entry_id: bytes) -> bool:
    """Whether ``signature`` is ``author``'s Ed25519 signature of the entry ``payload`` (whose
    SHA-256 is ``entry_id``). The signatures that verified are kept per process (by the author,
    the payload's SHA-256 and the signature: a pure function's memo, bounded), so that the host
    and the seats of one process (``vampire play``) verify each entry's signature once."""
    key = (author, entry_id, signature)
    if key in VERIFIED_SIGNATURES:
        return True
    try:
        Ed25519PublicKey.from_public_bytes(author).verify(signature, ENTRY_CONTEXT + payload)
    except (InvalidSignature, ValueError):
        return False
    VERIFIED_SIGNATURES.add(key)
    return True


LOG_MAGIC = b"VTLOG1\n"
"""The first bytes of every log file (PROTOCOL.md 8)."""

FRAME_HEADER = 4
"""Bytes of the big-endian length that starts every log-file frame."""


def raw_frames(path: str | os.PathLike[str], *, skip_over: int | None = None) -> Iterator[bytes | None]:
    """The frames of the log file at ``path`` (PROTOCOL.md 8), as their bytes, one in memory at a
    time and nothing checked: for work ahead of a reader, which names whatever is wrong. Ends at a
    file that does not start with :data:`LOG_MAGIC`, a length of 0 or over the frame budget
    (``DEFAULT_LIMITS.max_bytes``), or a torn frame; a frame over ``skip_over`` bytes is not read
    and yields None. Raises OSError when the file cannot be read."""
    with open_regular(path) as f:
        if f.read(len(LOG_MAGIC)) != LOG_MAGIC:
            return
        while True:
            header = f.read(FRAME_HEADER)
            n = int.from_bytes(header, "big")
            if len(header) < FRAME_HEADER or not 0 < n <= DEFAULT_LIMITS.max_bytes:
                return
            if skip_over is not None and n > skip_over:
                f.seek(n, os.SEEK_CUR)
                yield None
                continue
            frame = f.read(n)
            if len(frame) < n:
                return
            yield frame


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
    if not _valid_point(pub):
        raise BadAuthorKey("The author key is not a canonical point of the main subgroup, or is of small order.")
    return pub


@functools.lru_cache(maxsize=1 << 12)
def _valid_point(pub: bytes) -> bool:
    """Whether the 32 bytes ``pub`` pass libsodium's ``crypto_core_ed25519_is_valid_point``; a pure
    function, so each key of a log (a table has a few authors, and every entry names one) is
    validated once per process, its answer kept (bounded, least recently used dropped)."""
    try:
        return bool(nacl.bindings.crypto_core_ed25519_is_valid_point(pub))
    except Exception:
        return False


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
    def _make(cls, payload: bytes, signature: bytes, fields: dict[str, Any], entry_id: bytes | None = None) -> Entry:
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
            id=hashlib.sha256(payload).digest() if entry_id is None else entry_id,
        )

    @classmethod
    def from_wire(cls, data: bytes | list[Any], limits: Limits = DEFAULT_LIMITS, *, verify: bool = True) -> Entry:
        """The entry encoded by ``data``: the canonical bytes of ``[payload, signature]``, or that
        array already decoded (a list of two bytes values).

        Checks canonical decoding within ``limits`` (payload too), the payload fields (exactly
        v == 1, table/prev/author bin 32, seq int >= 0, kind non-empty str, body map, time int),
        the author key (:func:`validate_author_key`) and the signature. Chaining is not checked
        here (:func:`check_link`). Raises EntryTooLarge, MalformedEntry, BadAuthorKey (all
        MalformedEntry) or BadSignature.

        ``verify=False`` checks everything but the signature, which the caller then checks with
        :func:`signature_error` before it trusts the entry (:mod:`engine.protocol.log` verifies
        the signatures of a file together, on every core, in the order of its entries).
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
        entry = cls._make(payload, signature, fields)
        if verify and (error := signature_error(entry)) is not None:
            raise error
        return entry

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


def signature_error(entry: Entry) -> BadSignature | None:
    """None when ``entry``'s signature is its author's Ed25519 signature of its payload
    (PROTOCOL.md 2), else the BadSignature that :meth:`Entry.from_wire` raises for it. Thread-safe:
    the Ed25519 verification releases the GIL, so threads verify on every core."""
    if _signature_verifies(entry.author, entry.payload, entry.signature, entry.id):
        return None
    return bad_signature(entry)


def bad_signature(entry: Entry) -> BadSignature:
    """The error of ``entry``'s signature when it does not verify (nothing is verified here)."""
    return BadSignature(
        f"The signature of the {entry.kind!r} entry at seq {entry.seq} does not verify against its author's key."
    )


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
    when the genesis was read). Any malformed argument gives False, never an exception. The head
    signatures that verified are kept per process (a pure function's memo, bounded, like the entry
    signatures'), so that the host's log and every copy in one process (``vampire play``) verify
    each head once.
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
    key = (pub, table, seq, entry_id, sig)
    if key in VERIFIED_HEADS:
        return True
    try:
        Ed25519PublicKey.from_public_bytes(pub).verify(sig, head_message(table, seq, entry_id))
    except (InvalidSignature, ValueError, CodecError):
        return False
    VERIFIED_HEADS.add(key)
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
