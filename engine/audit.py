"""The whole-log audit (issue 3, item 7): ``vampire audit FILE``.

Checks the file's framing and encoding, every signature and head signature, the chain, every entry
against the table rules (by folding a fresh :class:`~engine.table.Table`, which checks every point,
scalar and proof), every commitment against its reveal, recomputes every pass of every event whose
seeds were revealed, decodes every card and checks every claim, and recomputes the result.

Exit codes: 0 complete and fully checked; 1 a fault (named); 2 no fault, but unfinished or with
events whose seeds were never revealed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.games.base import Game
from engine.protocol import codec
from engine.protocol.identity import short_fingerprint
from engine.protocol.log import LogFile, LogFileError, parse_log
from engine.table import Table, TableRefusal


@dataclass
class AuditFault:
    """The first fault: the entry's ``seq`` (frame index), its author's ``seat`` and ``name`` when
    known, ``what`` was wrong and the ``evidence``."""

    seq: int
    seat: int | None
    name: str | None
    what: str
    evidence: str = ""
    in_entry: bool = True  # False: the fault is the file's own (unreadable, not a log file)

    def describe(self) -> str:
        if not self.in_entry:
            return f"the file itself: {self.what}"
        who = f"seat {self.seat} ({self.name})" if self.seat is not None else (self.name or "an author without a seat")
        text = f"entry {self.seq}, by {who}: {self.what}"
        return text + (f"\n  evidence: {self.evidence}" if self.evidence else "")


@dataclass
class AuditReport:
    """What the audit found. ``code`` is the exit code (0, 1, 2)."""

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
    finished: bool = False
    torn: bool = False

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
            "finished": self.finished,
            "torn_tail_dropped": self.torn,
            "fault": None
            if self.fault is None
            else {
                "seq": self.fault.seq,
                "seat": self.fault.seat,
                "name": self.fault.name,
                "what": self.fault.what,
                "evidence": self.fault.evidence,
            },
        }

    def text(self) -> str:
        lines = []
        if self.fault is not None:
            lines.append(f"FAULT in {self.path}")
            lines.append("  " + self.fault.describe().replace("\n", "\n  "))
        elif self.code == 0:
            lines.append(f"CLEAN: {self.path} is complete and every check passed.")
        else:
            lines.append(f"NO FAULT, BUT NOT FULLY CHECKED: {self.path}")
        if self.game:
            lines.append(f"  table: {self.table_name!r}, {self.game}, id {self.table_id}")
        for i, (name, key) in enumerate(self.players):
            lines.append(f"  seat {i}: {name} (key {key})")
        lines.append(f"  entries: {self.entries}; shuffle events checked from their seeds: {self.checked_events}")
        if self.rounds:
            lines.append(f"  rounds played: {self.rounds}")
        if self.result:
            lines.append(f"  result: {self.result}")
        if self.unchecked:
            lines.append(f"  UNCHECKED: events {', '.join(map(str, self.unchecked))} never had their seeds revealed")
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
    return None, None


def audit_bytes(
    data: bytes, path: str, games: Mapping[str, Game], progress: Callable[[int, int], None] | None = None
) -> AuditReport:
    """Audit the bytes of a log file. ``progress(done, total)`` is called as entries are folded."""
    report = AuditReport(path)
    log: LogFile | None
    try:
        log = parse_log(data, f"The log {path}")
        bad_frame: LogFileError | None = None
    except LogFileError as err:
        bad_frame = err
        # Audit what comes before the corrupt frame, then report it.
        log = parse_log(data[: err.offset], f"The log {path}") if err.offset else None
    table = Table(games)
    entries = log.entries if log else ()
    report.torn = bool(log and log.torn and bad_frame is None)
    total = len(entries) + (1 if bad_frame else 0)
    for i, entry in enumerate(entries):
        try:
            table.apply(entry)
        except TableRefusal as err:
            seat, name = _author_seat(table, entry.author)
            report.fault = AuditFault(
                entry.seq,
                seat,
                name,
                f"the table refuses this {entry.kind} entry ({err.code}): {err.detail}",
                f"entry id {entry.id.hex()}, author key {entry.author.hex()}",
            )
            break
        if table.fault is not None:
            f = table.fault
            report.fault = AuditFault(
                f.seq,
                f.seat,
                table.seats[f.seat].name if f.seat < len(table.seats) else None,
                f"a proven cheat: {f.reason}",
                f"entry {f.seq} signed by key {table.seats[f.seat].key.hex() if f.seat < len(table.seats) else '?'}"
                f" (id {table.entries[f.seq].id.hex()})",
            )
            break
        if progress and (i % 16 == 0 or i == len(entries) - 1):
            progress(i + 1, total)
    if report.fault is None and bad_frame is not None:
        seq = bad_frame.frame if bad_frame.frame is not None else len(entries)
        seat, name = _suspect_author(data, bad_frame.offset, table)
        cause = bad_frame.__cause__ or bad_frame
        where = f"frame {seq} at byte offset {bad_frame.offset}" if bad_frame.offset is not None else ""
        report.fault = AuditFault(seq, seat, name, str(cause), where, in_entry=bad_frame.offset is not None)
    _summarise(report, table)
    return report


def _suspect_author(data: bytes, offset: int | None, table: Table) -> tuple[int | None, str | None]:
    """Best effort: the seat named as author inside a frame that failed its checks."""
    if offset is None:
        return None, None
    try:
        n = int.from_bytes(data[offset : offset + 4], "big")
        frame = codec.decode(data[offset + 4 : offset + 4 + n])
        payload = codec.decode(frame[0][0])
        return _author_seat(table, payload["author"])
    except Exception:  # the frame is corrupt: nothing reliable can be said of its author
        return None, None


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
    path: str | Path, games: Mapping[str, Game], progress: Callable[[int, int], None] | None = None
) -> AuditReport:
    """Audit the log file at ``path``. A file that cannot be read is a fault at entry 0."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        report = AuditReport(str(path))
        report.fault = AuditFault(0, None, None, f"it cannot be read: {err.strerror or err}", in_entry=False)
        return report
    return audit_bytes(data, str(path), games, progress)
