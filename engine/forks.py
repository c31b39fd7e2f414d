"""Fork evidence files (``*.vtfork``, PROTOCOL.md 3 and 7, "Fork evidence without trusting the host").

A peer that holds two head signatures of its host for one seq of one table, with different entry
ids, holds proof that the host showed two logs. It keeps that proof in a file beside its log:

    b"VTFORK1\\n" + canonical map {
        table:   bin 32, the table id (the genesis entry's id),
        host:    bin 32, the host's public key (the genesis author),
        seq:     int, the seq both heads claim,
        heads:   [[entry id (bin 32), head signature (bin 64)], [entry id, head signature]],
        entries: [[payload, signature], ...], the entries the peer held, from the genesis on,
    }

:func:`fork_bytes` writes it; :func:`check_fork` reads bytes and returns a :class:`ForkVerdict`
that anyone can reach on their own, with nothing but this file: both head signatures verify with
``host`` over ``["vampire-table/head/v1", table, seq, id]`` (:func:`engine.protocol.log.verify_head`),
the ids differ, and the entries verify and chain from a genesis whose id is ``table`` and whose
author is ``host`` (so the key that signed both heads is the one that opened this table). Nothing
in the file is trusted before it is checked; a file changed after it was written proves nothing.

Exit codes of ``vampire audit FILE.vtfork``: :data:`FORK_PROVEN` (1: the host forked the table),
:data:`FORK_NOT_PROVEN` (2: the file proves nothing, and says why), :data:`FORK_UNUSABLE` (3: not
a fork evidence file at all, or unreadable).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Any

from engine.errors import VampireError
from engine.files import open_regular, write_private
from engine.protocol.codec import CodecError, Limits, bin_of, check_list, check_map, decode, encode, int_in
from engine.protocol.identity import short_fingerprint
from engine.protocol.log import Entry, ForkEvidence, Head, LogError, check_link, verify_head

MAGIC = b"VTFORK1\n"
"""The first bytes of a fork evidence file."""

SUFFIX = ".vtfork"
"""The suffix of a fork evidence file, written beside the peer's ``.vtlog``."""

MAX_FORK_FILE = 64 * 1024 * 1024
"""The largest fork evidence file read, in bytes (a whole long log fits many times over)."""

_LIMITS = Limits(max_bytes=MAX_FORK_FILE, max_array=1_000_000, max_objects=4_000_000)


class ForkCode(IntEnum):
    """The verdict on a fork evidence file, as ``vampire audit`` exits with it."""

    PROVEN = 1
    """Both heads verify with the table's host key for one seq, with different ids: a fork."""
    NOT_PROVEN = 2
    """The file is a fork evidence file, but what it holds proves nothing (forged or changed)."""
    UNUSABLE = 3
    """Missing, unreadable, or not a fork evidence file: nothing was checked."""


FORK_PROVEN = ForkCode.PROVEN
FORK_NOT_PROVEN = ForkCode.NOT_PROVEN
FORK_UNUSABLE = ForkCode.UNUSABLE


class ForkFileError(VampireError):
    """A fork evidence file that cannot be read as one (see :data:`ForkCode.UNUSABLE`)."""


@dataclass(frozen=True)
class ForkVerdict:
    """What a fork evidence file proves: ``code`` (:class:`ForkCode`), ``reason`` (a sentence),
    and, when it was read, ``table``, ``host``, ``seq`` and the two entry ids."""

    code: ForkCode
    reason: str
    table: bytes | None = None
    host: bytes | None = None
    seq: int | None = None
    ids: tuple[bytes, ...] = ()

    @property
    def proven(self) -> bool:
        """Whether the file proves that the host forked the table."""
        return self.code is ForkCode.PROVEN

    def text(self) -> str:
        """The verdict for a person: a first word (FORK PROVEN, NOT PROVEN, UNUSABLE) and why."""
        word = {ForkCode.PROVEN: "FORK PROVEN", ForkCode.NOT_PROVEN: "NOT PROVEN", ForkCode.UNUSABLE: "UNUSABLE"}
        return f"{word[self.code]}: {self.reason}"

    def as_json(self) -> dict[str, Any]:
        """The verdict as a JSON-ready dict (hex for bytes)."""
        return {
            "kind": "fork-evidence",
            "exit": int(self.code),
            "proven": self.proven,
            "reason": self.reason,
            "table": self.table.hex() if self.table else None,
            "host": self.host.hex() if self.host else None,
            "seq": self.seq,
            "ids": [i.hex() for i in self.ids],
        }


def describe_fork(evidence: ForkEvidence) -> str:
    """A fork as a sentence, with both entry ids in full (64 hex) and the host's fingerprint."""
    return (
        f"The host ({short_fingerprint(evidence.host)}) signed two different entries as seq "
        f"{evidence.first.seq} of this table: {evidence.first.entry_id.hex()} and {evidence.second.entry_id.hex()}."
    )


def fork_bytes(evidence: ForkEvidence, entries: list[Entry]) -> bytes:
    """The bytes of a fork evidence file for ``evidence`` (checked: :meth:`ForkEvidence.check`)
    and the ``entries`` the peer holds (from the genesis on). Raises ForkFileError when the
    evidence does not check."""
    if not evidence.check():
        raise ForkFileError("These two heads are not fork evidence: they do not both verify for one seq.")
    a, b = evidence.first, evidence.second
    body = {
        "table": a.table,
        "host": evidence.host,
        "seq": a.seq,
        "heads": [[a.entry_id, a.signature], [b.entry_id, b.signature]],
        "entries": [e.wire_array() for e in entries],
    }
    return MAGIC + encode(body)


def fork_path(log_path: Path) -> Path:
    """Where the evidence of a peer whose log is ``log_path`` goes: beside it, ``.vtfork``."""
    return log_path.with_suffix(SUFFIX)


def write_fork_file(path: Path, evidence: ForkEvidence, entries: list[Entry]) -> Path:
    """Write the evidence file at ``path`` (:func:`engine.files.write_private`: mode 0600, synced,
    then renamed into place so that a crash leaves a whole file or none). Returns ``path``. Raises
    ForkFileError, LinkRefused (an OSError) when ``path`` is a symbolic link, OSError."""
    return write_private(path, fork_bytes(evidence, entries))


def is_fork_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names a fork evidence file: by its suffix, or by its first bytes."""
    p = Path(path)
    if p.suffix == SUFFIX:
        return True
    try:
        with open_regular(p) as f:
            return f.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def audit_fork_file(path: str | os.PathLike[str]) -> ForkVerdict:
    """The verdict on the fork evidence file at ``path`` (never raises for what the file holds)."""
    try:
        p = Path(path)
        with open_regular(p) as f:
            data = f.read(MAX_FORK_FILE + 1)
        if len(data) > MAX_FORK_FILE:
            return ForkVerdict(
                ForkCode.UNUSABLE, f"{path} is larger than any fork evidence file ({MAX_FORK_FILE} bytes)."
            )
    except FileNotFoundError:
        return ForkVerdict(ForkCode.UNUSABLE, f"There is no file {path}.")
    except OSError as err:
        return ForkVerdict(ForkCode.UNUSABLE, f"{path} cannot be read: {err.strerror or err}.")
    return check_fork(data, str(path))


def _parse(data: bytes, name: str) -> dict[str, Any]:
    if not data.startswith(MAGIC):
        raise ForkFileError(f"{name} is not a fork evidence file: it does not start with VTFORK1.")
    try:
        value = decode(data[len(MAGIC) :], _LIMITS)
    except CodecError as err:
        raise ForkFileError(f"{name} is damaged: {err}") from None
    head = lambda v, w: check_list(v, lambda x, y: x, w, 2, 2)  # noqa: E731
    try:
        body = check_map(
            value,
            {
                "table": bin_of(32),
                "host": bin_of(32),
                "seq": int_in(0),
                "heads": lambda v, w: check_list(v, head, w, 2, 2),
                "entries": lambda v, w: check_list(v, list, w, 0),
            },
            what="the evidence",
        )
        for i, pair in enumerate(body["heads"]):
            bin_of(32)(pair[0], f"head {i + 1}'s entry id")
            bin_of(64)(pair[1], f"head {i + 1}'s signature")
    except CodecError as err:
        raise ForkFileError(f"{name} is damaged: {err}") from None
    return body


def check_fork(data: bytes, name: str = "The file") -> ForkVerdict:
    """The verdict on the bytes of a fork evidence file (``name`` names it in the sentences)."""
    try:
        body = _parse(data, name)
    except ForkFileError as err:
        return ForkVerdict(ForkCode.UNUSABLE, str(err))
    table, host, seq = body["table"], body["host"], body["seq"]
    (id_a, sig_a), (id_b, sig_b) = body["heads"]
    read = {"table": table, "host": host, "seq": seq, "ids": (id_a, id_b)}

    def refuse(reason: str) -> ForkVerdict:
        return ForkVerdict(ForkCode.NOT_PROVEN, reason, **read)

    if id_a == id_b:
        return refuse(f"Both heads name the same entry for seq {seq}: that is no fork.")
    for n, (entry_id, sig) in enumerate(((id_a, sig_a), (id_b, sig_b)), 1):
        if not verify_head(host, table, seq, entry_id, sig):
            return refuse(
                f"Head {n}'s signature does not verify with the host key {host.hex()} for seq {seq}: "
                "the file was forged or changed after it was written."
            )
    why = _check_entries(body["entries"], table, host, seq, (id_a, id_b))
    if why is not None:
        return refuse(why)
    first = Head(table, seq, id_a, sig_a)
    second = Head(table, seq, id_b, sig_b)
    evidence = ForkEvidence(host, first, second)
    return ForkVerdict(ForkCode.PROVEN, describe_fork(evidence), **read)


def _check_entries(items: list[Any], table: bytes, host: bytes, seq: int, ids: tuple[bytes, bytes]) -> str | None:
    """Why the entries do not tie ``host`` to ``table`` (a sentence), or None when they do: they
    verify, chain from a genesis of id ``table`` authored by ``host``, and the one at ``seq`` (if
    held) is one of the two heads."""
    if not items:
        return "The file holds no entries: nothing shows that the key which signed both heads opened this table."
    prev: Entry | None = None
    for i, item in enumerate(items):
        try:
            entry = Entry.from_wire(item)
            check_link(prev, entry)
        except LogError as err:
            return f"Entry {i} of the file does not verify or chain: {err}"
        if i == 0 and entry.id != table:
            return "The file's first entry is not the genesis of the table it names."
        if i == 0 and entry.author != host:
            return f"The table was opened by {entry.author.hex()}, not by the key that signed the heads."
        if i == seq and entry.id not in ids:
            return f"The entry the file holds at seq {seq} is neither of the two heads."
        prev = entry
    return None
