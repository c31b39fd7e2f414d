"""The whole-log audit (DESIGN.md, "The command line"): ``vampire audit FILE``.

Checks the file's framing and encoding, every signature and head signature, the chain, every entry
against the table rules (by folding a fresh :class:`~engine.table.Table`, which checks every point,
scalar and proof), every commitment against its reveal, recomputes from the seeds of every event
whose seeds were revealed its keys and every shuffle's output cards, decodes every card and checks
every claim, and recomputes the result (PROTOCOL.md 6.3, item 7). With ``strict`` (``vampire audit
--strict``) it also re-derives from the seeds every key proof, proof of shuffle and decryption share
(PROTOCOL.md 6.2) and names a seat whose proof or share was not derived from its seed.

The first fault found is one of two verdicts (:class:`FaultKind`):

- a fault of the **file**: the bytes are not what their authors signed (a signature or a head
  signature that does not verify, a damaged frame, a broken chain, bytes after the `end` entry,
  PROTOCOL.md 8). Anyone who can write the file can do that, so it blames no player;
- a **proven cheat**: an entry whose signature verifies breaks a rule of the table or a proof
  (PROTOCOL.md 6), so its author signed it. The audit names that author.

Exit codes: 0 complete and fully checked; 1 a fault (named); 2 no fault, but unfinished or with
events whose seeds were never revealed; 3 (:data:`USAGE_EXIT`) the file cannot be audited at all:
it is missing or unreadable, is not a log file, or is a log of a game this program does not know
(:class:`AuditUsageError`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from engine.audit_ahead import AHEAD_BYTES, AHEAD_ENTRIES, ProofsAhead, note_seed, read_ahead, scan_seeds
from engine.errors import VampireError
from engine.files import open_regular
from engine.games.base import Game
from engine.protocol.identity import short_fingerprint
from engine.protocol.log import (
    LOG_MAGIC,
    Entry,
    LogFile,
    LogFileError,
    SignaturesAhead,
    TrailingBytes,
    count_frames,
    parse_log,
    stream_log,
)
from engine.table import Checks, EntryKind, Keep, Table, TableRefusal

__all__ = [
    "AHEAD_BYTES",
    "AHEAD_ENTRIES",
    "AuditFault",
    "AuditReport",
    "AuditUsageError",
    "FaultKind",
    "ProofsAhead",
    "audit_bytes",
    "audit_file",
    "audit_stream",
    "scan_seeds",
]

USAGE_EXIT = 3
"""The exit code of an audit that could not start: the file is missing, unreadable, not a log file,
or a log of a game this program does not know."""


class AuditUsageError(VampireError):
    """A file the audit cannot check at all (see :data:`USAGE_EXIT`): ``path`` and the sentence
    saying why. Not a fault of the log: nothing in it was checked."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"Cannot audit {path}: {reason}")
        self.path = path
        self.reason = reason

    def as_json(self) -> dict[str, Any]:
        """The JSON report of an audit that could not start: the keys of
        :meth:`AuditReport.as_json`, ``exit`` 3, ``status`` ``"unusable"`` and ``error`` (the sentence)."""
        report = AuditReport(self.path).as_json()
        report.update(exit=USAGE_EXIT, status="unusable", error=str(self))
        return report


class FaultKind(StrEnum):
    """Whose fault the audit proves: the ``file``'s (the bytes were changed after they were signed,
    or damaged: nobody is blamed) or a player's ``cheat`` (a validly signed entry that breaks a rule
    or a proof: its author is named)."""

    FILE = "file"
    CHEAT = "cheat"


@dataclass
class AuditFault:
    """The first fault: the entry's ``seq`` (frame index), its author's ``seat`` and ``name`` when
    the author is proven (a cheat; None for a fault of the file), ``what`` was wrong, the
    ``evidence`` and the verdict's ``kind``."""

    seq: int
    seat: int | None
    name: str | None
    what: str
    evidence: str = ""
    kind: FaultKind = FaultKind.CHEAT

    @property
    def author(self) -> str:
        """Who the verdict names: "seat 3 (Richard)", "the host" or "a key that holds no seat"."""
        if self.seat is not None:
            return f"seat {self.seat} ({self.name})"
        return self.name or "a key that holds no seat"

    def headline(self) -> str:
        """The verdict in a few words, after "FAULT in FILE: "."""
        if self.kind == FaultKind.FILE:
            return "the file was changed after it was signed, or damaged"
        return f"a proven cheat by {self.author}"

    def describe(self) -> str:
        """The fault in sentences: where, what, the evidence, and whom it proves anything about."""
        if self.kind == FaultKind.FILE:
            text = f"entry {self.seq} of the file: {self.what}"
            if self.evidence:
                text += f"\nevidence: {self.evidence}"
            return text + (
                "\nThis is a fault of the file, not of a player: anyone who can write the file can "
                "change its bytes, and bytes that are not what was signed prove nothing about who wrote them."
            )
        text = f"entry {self.seq}, signed by {self.author}: {self.what}"
        return text + (f"\nevidence: {self.evidence}" if self.evidence else "")


@dataclass
class AuditReport:
    """What the audit found. ``code`` is the exit code (0, 1, 2; an audit that cannot start raises
    :class:`AuditUsageError` instead). ``strict``: proofs and shares were re-derived from the seeds;
    ``rederived`` of them were, ``underived`` could not be (their seeds were never revealed)."""

    path: str
    entries: int = 0
    game: str = ""
    table_name: str = ""
    table_id: str = ""
    players: list[tuple[str, str]] = field(default_factory=list)
    rounds: int = 0
    result: str = ""
    scores: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    fault: AuditFault | None = None
    unchecked: list[int] = field(default_factory=list)
    checked_events: int = 0
    event_names: dict[int, str] = field(default_factory=dict)
    shuffles: int = 0
    shuffles_from_seeds: int = 0
    shuffles_by_proofs: list[tuple[int, str]] = field(default_factory=list)
    finished: bool = False
    torn: bool = False
    strict: bool = False
    rederived: int = 0
    underived: int = 0

    @property
    def code(self) -> int:
        if self.fault is not None:
            return 1
        return 0 if self.finished and not self.unchecked else 2

    def as_json(self) -> dict[str, Any]:
        return {
            "file": self.path,
            "exit": self.code,
            "status": {0: "clean", 1: "fault", 2: "incomplete"}[self.code],
            "error": None,
            "entries": self.entries,
            "game": self.game,
            "table": self.table_name,
            "table_id": self.table_id,
            "players": [{"seat": i, "name": n, "key": k} for i, (n, k) in enumerate(self.players)],
            "rounds": self.rounds,
            "result": self.result,
            "scores": self.scores,
            "winners": self.winners,
            "events_checked": self.checked_events,
            "events_unchecked": self.unchecked,
            "shuffles": self.shuffles,
            "shuffles_from_seeds": self.shuffles_from_seeds,
            "shuffles_by_proofs_only": [{"event": e, "by": who} for e, who in self.shuffles_by_proofs],
            "finished": self.finished,
            "torn_tail_dropped": self.torn,
            "strict": self.strict,
            "proofs_rederived": self.rederived if self.strict else None,
            "proofs_not_rederived": self.underived if self.strict else None,
            "fault": None
            if self.fault is None
            else {
                "seq": self.fault.seq,
                "seat": self.fault.seat,
                "name": self.fault.name,
                "what": self.fault.what,
                "evidence": self.fault.evidence,
                "kind": self.fault.kind.value,
            },
        }

    def _event(self, number: int) -> str:
        """``deck event 3 (the library of Ann)``."""
        what = self.event_names.get(number)
        return f"deck event {number}" + (f" ({what})" if what else "")

    def _shuffle_lines(self) -> list[str]:
        """How the shuffles were checked: recomputed from their authors' seeds, or only by their
        proofs (a seat that left the table revealed its key, not its seed), naming those."""
        if not self.shuffles:
            return []
        n, seeded, proved = self.shuffles, self.shuffles_from_seeds, len(self.shuffles_by_proofs)
        events = self.checked_events + len(self.unchecked)
        head = f"  shuffles: {n} in {events} deck event{'s' if events != 1 else ''}"
        if seeded == n:
            return [f"{head}, each recomputed from its author's seed"]
        lines = [f"{head}: {seeded} recomputed from their authors' seeds"]
        if proved:
            lines[0] += f", {proved} checked only by {'their proofs' if proved != 1 else 'its proof'}"
            lines.append(
                "  checked only by proofs, since their seats left the table and revealed their keys, not their seeds:"
            )
            by_event: dict[int, list[str]] = {}
            for e, who in self.shuffles_by_proofs:
                by_event.setdefault(e, []).append(who)
            for e, who_all in by_event.items():
                who = ", ".join(who_all[:-1]) + " and " + who_all[-1] if len(who_all) > 1 else who_all[0]
                lines.append(f"    {self._event(e)}: shuffled by {who}")
        return lines

    def text(self) -> str:
        lines = []
        if self.fault is not None:
            lines.append(f"FAULT in {self.path}: {self.fault.headline()}")
            lines.append("  " + self.fault.describe().replace("\n", "\n  "))
        elif self.code == 0:
            lines.append(f"CLEAN: {self.path} is complete and every check passed.")
        else:
            lines.append(f"NO FAULT, BUT NOT FULLY CHECKED: {self.path}")
        if self.game:
            lines.append(f"  table: {self.table_name!r}, {self.game}, id {self.table_id}")
        for i, (name, key) in enumerate(self.players):
            lines.append(f"  seat {i}: {name} (key {key})")
        lines.append(f"  entries: {self.entries}")
        lines.extend(self._shuffle_lines())
        if self.strict:
            lines.append(f"  strict: {self.rederived} proofs and shares re-derived from their seeds")
            if self.underived:
                lines.append(f"  not re-derived: {self.underived} (their authors' seeds were never revealed)")
        elif self.checked_events:
            lines.append("  proofs and shares verified on arrival (--strict re-derives them from seeds)")
        if self.rounds:
            lines.append(f"  rounds played: {self.rounds}")
        if self.result:
            lines.append(f"  result: {self.result}")
        # After a fault the table stopped (or the file ends there for the audit): seeds that were
        # never revealed are no gap in the check, and saying so would blur the verdict.
        if self.unchecked and self.fault is None:
            which = "; ".join(self._event(n) for n in self.unchecked)
            lines.append(
                f"  NOT RECOMPUTED: {which}: its seeds were not all revealed (the log stops before the seed "
                "reveal, or a seat left without revealing its key), so its cards were checked only by the "
                "proofs that came with them"
            )
        if not self.finished and self.code != 1:
            lines.append("  UNFINISHED: the log has no end entry")
        if self.torn:
            lines.append("  a torn last frame (a crash mid-write) was dropped")
        return "\n".join(lines)


def _author_seat(table: Table, author: bytes) -> tuple[int | None, str | None]:
    seat = table.seat_of(author)
    if seat is not None:
        return seat, table.seats[seat].name
    if author == table.host:
        return None, "the host"
    return None, f"a key that holds no seat ({short_fingerprint(author)})"


def audit_bytes(
    data: bytes,
    path: str,
    games: Mapping[str, Game],
    progress: Callable[[int, int], None] | None = None,
    *,
    strict: bool = False,
) -> AuditReport:
    """Audit the bytes of a log file. ``progress(done, total)`` is called as entries are folded.
    ``strict``: also re-derive every proof and share from the revealed seeds (Checks.STRICT).

    Raises AuditUsageError when ``data`` is not a log file (no VTLOG1 magic) or is the log of a
    game ``games`` does not hold."""
    if not data.startswith(LOG_MAGIC):
        raise AuditUsageError(path, "it is not a vampire-table log file (it does not start with VTLOG1).")
    report = AuditReport(path, strict=strict)
    log: LogFile | None
    try:
        log = parse_log(data, f"The log {path}")
        bad_frame: LogFileError | None = None
    except LogFileError as err:
        bad_frame = err
        # Audit what comes before the corrupt frame, then report it.
        log = parse_log(data[: err.offset], f"The log {path}") if err.offset else None
    entries = log.entries if log else ()
    if entries:
        _check_game(entries[0], path, games)
    table = Table(games, Checks.STRICT if strict else Checks.PEER, Keep.LAST)
    report.torn = bool(log and log.torn and bad_frame is None)
    total = len(entries) + (1 if bad_frame else 0)
    hints: dict[tuple[int, bytes], bytes] = {}
    for e in entries:
        if e.kind == EntryKind.SEED_REVEAL:
            note_seed(hints, {"kind": e.kind, "author": e.author, "body": e.body})
    ahead = ProofsAhead(table, seeds=hints)
    try:
        for i, entry in enumerate(read_ahead(entries, ahead)):
            if _apply(report, table, entry, lambda seq: entries[seq].id):
                break
            if progress and (i % 16 == 0 or i == len(entries) - 1):
                progress(i + 1, total)
    finally:
        ahead.close()
    if report.fault is None and bad_frame is not None:
        _file_fault(report, bad_frame, len(entries), len(data))
    _summarise(report, table)
    return report


def _check_game(genesis: Entry, path: str, games: Mapping[str, Game]) -> None:
    """Raise AuditUsageError when ``genesis`` opens a table of a game ``games`` does not hold."""
    game = genesis.body.get("game")
    if isinstance(game, str) and game not in games:
        known = ", ".join(sorted(games))
        raise AuditUsageError(path, f"it is a log of the game {game!r}, which this program does not know ({known}).")


def _apply(report: AuditReport, table: Table, entry: Entry, id_at: Callable[[int], bytes]) -> bool:
    """Fold ``entry``; on a refusal or a proven cheat, record the fault and return True (stop).
    ``id_at(seq)``: the id of an earlier entry (a cheat a later entry proves names its own entry;
    the table keeps only its last one)."""
    try:
        table.apply(entry)
    except TableRefusal as err:
        seat, name = _author_seat(table, entry.author)
        report.fault = AuditFault(
            entry.seq,
            seat,
            name,
            f"its signature verifies, but the table refuses this {entry.kind} entry ({err.code}): {err.detail}",
            f"entry id {entry.id.hex()}, author key {entry.author.hex()}",
        )
        return True
    if table.fault is not None:
        f = table.fault
        report.fault = AuditFault(
            f.seq,
            f.seat,
            table.seats[f.seat].name if f.seat < len(table.seats) else None,
            f"a proven cheat: {f.reason}",
            f"entry {f.seq} signed by key {table.seats[f.seat].key.hex() if f.seat < len(table.seats) else '?'}"
            f" (id {(entry.id if f.seq == entry.seq else id_at(f.seq)).hex()})",
        )
        return True
    return False


def _file_fault(report: AuditReport, bad_frame: LogFileError, read: int, size: int) -> None:
    """Record the fault of the file ``bad_frame`` (after ``read`` entries of a ``size``-byte file)."""
    seq = bad_frame.frame if bad_frame.frame is not None else read
    cause = bad_frame.__cause__ or bad_frame
    where = f"the frame at byte offset {bad_frame.offset}" if bad_frame.offset is not None else ""
    if isinstance(cause, TrailingBytes):
        seq, where = cause.after, f"the file is {size} bytes long; its end entry ends at byte offset {cause.offset}"
    report.fault = AuditFault(seq, None, None, str(cause), where, kind=FaultKind.FILE)


def audit_stream(
    path: str | Path,
    games: Mapping[str, Game],
    progress: Callable[[int, int], None] | None = None,
    *,
    strict: bool = False,
) -> AuditReport:
    """Audit the log file at ``path`` as :func:`audit_bytes` does, reading it as a stream
    (:class:`~engine.protocol.log.LogStream`): one frame in memory at a time, each entry folded
    as it is read, the audit stopping at the first fault (what the table holds is all it keeps).
    ``progress(done, total)``: ``total`` counts the file's whole frames (a first pass that reads
    only their lengths). Raises AuditUsageError as :func:`audit_file`."""
    name = str(path)
    try:
        with open_regular(path) as f:
            magic = f.read(len(LOG_MAGIC))
    except OSError as err:
        raise AuditUsageError(name, f"it cannot be read ({err.strerror or err}).") from None
    if magic != LOG_MAGIC:
        raise AuditUsageError(name, "it is not a vampire-table log file (it does not start with VTLOG1).")
    signatures = SignaturesAhead(path)  # verified in a thread from now on, ahead of the reader
    report = AuditReport(name, strict=strict)
    table = Table(games, Checks.STRICT if strict else Checks.PEER, Keep.LAST)
    total = count_frames(path) if progress else 0
    stream = stream_log(path, name=f"The log {name}")
    bad_frame: LogFileError | None = None
    ahead = ProofsAhead(table, seeds=scan_seeds(path))
    try:
        for count, entry in enumerate(read_ahead((entry for entry, _ in stream), ahead), 1):
            if report.fault is not None:
                continue  # read to the end all the same, only to say whether its tail is torn
            if count == 1:
                _check_game(entry, name, games)
            if _apply(report, table, entry, lambda seq: _id_in_file(path, seq)):
                ahead.close()
                continue
            if progress and (count % 16 == 1 or count == total):
                progress(count, max(total, count))
    except LogFileError as err:
        bad_frame = err
    finally:
        ahead.close()
        signatures.close()
    report.torn = stream.torn and bad_frame is None
    if report.fault is None and bad_frame is not None:
        _file_fault(report, bad_frame, stream.count, stream.size)
    _summarise(report, table)
    return report


def _id_in_file(path: str | Path, seq: int) -> bytes:
    """The id of the entry at ``seq`` of the log file at ``path``, read again as a stream (only for
    a fault named at an entry before the last one read)."""
    for entry, _ in stream_log(path):
        if entry.seq == seq:
            return entry.id
    raise LookupError(f"The log file {path} holds no entry at seq {seq}.")


def _summarise(report: AuditReport, table: Table) -> None:
    report.entries = len(table.entries)
    if table.game is None:
        return
    report.game = table.game.title
    report.table_name = table.name
    report.table_id = table.table_id.hex()[:16]
    report.players = [(s.name, short_fingerprint(s.key)) for s in table.seats]
    report.finished = table.ended
    report.checked_events = sum(1 for ev in table.events if ev.cards is not None)
    report.unchecked = [ev.number for ev in table.events if ev.cards is None]
    names = table.names
    for ev in table.events:
        owner = ev.owner if ev.private else None
        who = names[owner] if owner is not None and owner < len(names) else None
        report.event_names[ev.number] = f"the {ev.part} of {who}" if who else f"the shared {ev.deck_name} deck"
        report.shuffles += len(ev.shuffles)
        if ev.cards is None:
            continue  # not recomputed at all: said with report.unchecked
        for rec in ev.shuffles:
            if rec.seat in ev.seeds:
                report.shuffles_from_seeds += 1
            else:
                report.shuffles_by_proofs.append(
                    (ev.number, names[rec.seat] if rec.seat < len(names) else f"seat {rec.seat}")
                )
    report.rederived = table.deck_events.rederived
    report.underived = table.deck_events.underived
    g = table.gstate
    if g is not None and hasattr(g, "round_scores"):
        report.rounds = len(g.round_scores)
    if g is not None:
        result = table.game.result(g)
        if result is not None:
            names = table.names
            report.result = result.summary.format(**{f"s{i}": n for i, n in enumerate(names)})
            report.scores = list(result.scores)
            report.winners = list(result.winners)


def audit_file(
    path: str | Path,
    games: Mapping[str, Game],
    progress: Callable[[int, int], None] | None = None,
    *,
    strict: bool = False,
) -> AuditReport:
    """Audit the log file at ``path`` (:func:`audit_bytes`, ``strict`` as there), read as a stream
    in bounded memory whatever its size (:func:`audit_stream`). Raises AuditUsageError for a file
    that is missing or cannot be read, is not a log file, or is a log of a game ``games`` does not
    hold."""
    return audit_stream(path, games, progress, strict=strict)
