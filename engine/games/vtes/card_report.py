"""``vampire cards``: what the table knows of VTES cards (DESIGN.md, the command line): each named
card's record (:mod:`engine.games.vtes.card_record`), and with ``--coverage`` the share of the
Tournament Winning Deck Archive's library card copies whose effects the table applies fully,
partly, or leaves by hand, weighted by the copies of each card in the archive's frequency table
(``shared/data/twda-card-frequency.tsv``, read as its README describes: tab-separated, a header
line, columns ``section``, ``rank``, ``card_id``, ``name``, …, ``copies``).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import VampireError
from engine.files import open_regular
from engine.games.vtes.card_corrections import CorrectionError, check, kept
from engine.games.vtes.card_record import CardRecord, Coverage, record
from engine.games.vtes.cards import card_base
from engine.games.vtes.edge_readings import edge_words

#: Where the archive's frequency table is looked for when none is named: ``shared/data`` beside
#: the project's checkout (the folder the project's steering files keep).
ARCHIVE_NAME = "twda-card-frequency.tsv"

#: How many of the archive's most played library cards must each have a kept reason when the
#: table leaves them by hand (:mod:`engine.games.vtes.card_corrections`).
MOST_PLAYED = 300

#: Bytes of the largest frequency table read: the archive's (a row for each card ever played) is
#: about 270 KB; a file larger than this is no such table, and is not read whole.
ARCHIVE_MAX = 4 << 20


def default_archive() -> Path:
    """``../shared/data/twda-card-frequency.tsv`` from the project's checkout (the folder above
    ``engine``)."""
    return Path(__file__).resolve().parents[3].parent / "shared" / "data" / ARCHIVE_NAME


@dataclass(frozen=True)
class Row:
    """One library card of the archive: its krcg ``card_id``, ``name``, ``copies`` and ``rank``."""

    card_id: int
    name: str
    copies: int
    rank: int


def read_archive(path: Path) -> list[Row]:
    """The library rows of the archive's frequency table at ``path``, by rank. Reads at most
    :data:`ARCHIVE_MAX` bytes, and no file that is not a regular one (a named pipe, a device, a
    folder). Raises VampireError for a file that is missing or is not that table (a sentence
    naming the file)."""
    try:
        with open_regular(path) as f:
            data = f.read(ARCHIVE_MAX + 1)
    except OSError as e:
        raise VampireError(f"cannot read the archive's card frequencies {path}: {e.strerror or e}") from e
    if len(data) > ARCHIVE_MAX:
        raise _not_the_table(path, f"it holds more than {ARCHIVE_MAX >> 20} MiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _not_the_table(path, "a binary file, not text") from None
    rows: list[Row] = []
    need = {"section", "rank", "card_id", "name", "copies"}
    try:
        reader = csv.DictReader(text.splitlines(), delimiter="\t")
        if not need <= set(reader.fieldnames or ()):
            raise _not_the_table(path, f"columns {', '.join(sorted(need))}")
        for r in reader:
            if r["section"] == "library":
                rows.append(Row(int(r["card_id"]), r["name"], int(r["copies"]), int(r["rank"])))
    except (TypeError, ValueError, csv.Error) as e:
        raise VampireError(f"{path}: a row is not a card's counts ({e})") from e
    return sorted(rows, key=lambda r: r.rank)


def _not_the_table(path: Path, why: str) -> VampireError:
    return VampireError(f"{path} is not the archive's card frequency table ({why})")


@dataclass(frozen=True)
class CoverageReport:
    """Library card copies of the archive by how much of each card the table applies: ``shares``
    (0 to 1, by :class:`Coverage`), ``copies`` (all counted), ``top``: the most played cards of
    each kind (name, copies), ``unknown``: archive cards no record knows, ``unexplained``: the
    cards among the :data:`MOST_PLAYED` most played that the table leaves by hand with no reason
    kept for them (their record has no note), by rank."""

    shares: dict[Coverage, float]
    copies: int
    top: dict[Coverage, list[tuple[str, int]]] = field(default_factory=dict)
    unknown: tuple[str, ...] = ()
    unexplained: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        """``fully``, ``partly``, ``by_hand`` (shares), ``copies``, ``top`` by kind, ``unknown``,
        ``by_hand_without_reason_top_300`` (a count) and its ``…_names``."""
        out: dict[str, object] = {str(k): round(v, 6) for k, v in self.shares.items()}
        out["copies"] = self.copies
        out["top"] = {str(k): [{"name": n, "copies": c} for n, c in v] for k, v in self.top.items()}
        out["unknown"] = list(self.unknown)
        out[f"by_hand_without_reason_top_{MOST_PLAYED}"] = len(self.unexplained)
        out[f"by_hand_without_reason_top_{MOST_PLAYED}_names"] = list(self.unexplained)
        return out


def coverage(rows: Sequence[Row], top: int = 10) -> CoverageReport:
    """The :class:`CoverageReport` of the archive's library ``rows`` (each card weighted by its
    copies; a card no record knows counts as by hand, and without a reason)."""
    copies = {k: 0 for k in Coverage}
    best: dict[Coverage, list[tuple[str, int]]] = {k: [] for k in Coverage}
    unknown: list[str] = []
    unexplained: list[str] = []
    for i, row in enumerate(rows):
        rec = record(row.card_id)
        kind = rec.coverage if rec is not None else Coverage.BY_HAND
        if rec is None:
            unknown.append(row.name)
        if i < MOST_PLAYED and kind == Coverage.BY_HAND and (rec is None or not rec.note):
            unexplained.append(row.name)
        copies[kind] += row.copies
        if len(best[kind]) < top:
            best[kind].append((row.name, row.copies))
    total = sum(copies.values())
    shares = {k: (v / total if total else 0.0) for k, v in copies.items()}
    return CoverageReport(shares, total, best, tuple(unknown), tuple(unexplained))


def coverage_lines(report: CoverageReport) -> list[str]:
    """The report in a reader's words: the three shares, then the most played cards of each."""
    lines = [f"Library card copies of the archive: {report.copies:,}"]
    for kind in Coverage:
        lines.append(f"  {str(kind).replace('_', ' '):8} {report.shares[kind]:6.1%}")
    for kind in Coverage:
        names = ", ".join(f"{n} ({c:,})" for n, c in report.top.get(kind, []))
        lines.append(f"Most played, {str(kind).replace('_', ' ')}: {names or 'none'}")
    names = ", ".join(report.unexplained)
    lines.append(f"Of the {MOST_PLAYED} most played, left by hand without a reason: {len(report.unexplained)}")
    if names:
        lines.append(f"  {names}")
    if report.unknown:
        lines.append(f"Cards the table does not know: {', '.join(report.unknown)}")
    return lines


def record_lines(rec: CardRecord) -> list[str]:
    """One card's record in a reader's words: name and types, printed numbers, cost,
    requirements, each clause's effects and what is left by hand, how much is applied."""
    lines = [f"{rec.name} ({'/'.join(rec.types)}): applied {str(rec.coverage).replace('_', ' ')}"]
    p = rec.printed
    printed = [
        f"{label} {value}"
        for label, value in (
            ("capacity", p.capacity),
            ("life", p.life),
            ("strength", p.strength),
            ("bleed", p.bleed),
            ("votes", p.votes),
        )
        if value
    ]
    if p.title:
        printed.append(p.title)
    if p.sect:
        printed.append(p.sect)
    if printed:
        lines.append("  printed: " + ", ".join(printed))
    if rec.costs.words():
        lines.append("  cost: " + rec.costs.words())
    q = rec.requires
    needs = [f"clan {' or '.join(q.clans)}"] if q.clans else []
    if q.disciplines:
        joiner = " and " if q.discipline_rule == "Combo" else " or "
        needs.append("discipline " + joiner.join(q.disciplines))
    needs += [f"title {' or '.join(q.titles)}"] if q.titles else []
    needs += [f"sect {q.sect}"] if q.sect else []
    needs += [f"capacity {q.capacity} or more"] if q.capacity else []
    needs += ["unique"] if q.unique else []
    needs += ["a ready vampire"] if q.ready else []
    needs += ["a locked minion"] if q.locked else ["a locked or unlocked minion"] if q.locked_too else []
    needs += [", ".join(q.timing)]
    needs += list(q.only)
    needs += [f"not with {other} in one action" for other in q.exclusive]
    lines.append("  requires: " + "; ".join(needs))
    for c in rec.clauses:
        if not c.effects and not c.by_hand:
            continue  # conditions only: said under "requires"
        where = " ".join(f"[{lv}]" for lv in c.levels) or "card"
        if c.type:
            where += f" as {c.type}"
        effects = ", ".join(edge_words(e) or e.words() for e in c.effects)
        lines.append(f"  {where}: {effects or 'no effect the table applies'}")
        lines += [f"    by hand: {s}" for s in c.by_hand]
    if rec.note:
        label = "left by hand" if rec.coverage == Coverage.BY_HAND else "correction"
        lines.append(f"  {label}: {rec.note}")
    return lines


def find(name: str) -> CardRecord | None:
    """The record of the card with exactly this name (krcg's normalisation), or None."""
    card = card_base().lookup(name)
    return record(card.id) if card is not None else None


def cards_command(
    names: Sequence[str],
    with_coverage: bool = False,
    as_json: bool = False,
    archive: str | None = None,
    out: Callable[[str], None] = print,
) -> int:
    """``vampire cards [NAME…] [--coverage] [--json] [--archive FILE]``: each named card's record,
    then with ``with_coverage`` the archive's coverage. Returns 0, or 1 when a name is no card's
    (the closest card is named). Raises VampireError for an archive file that cannot be read."""
    status = 0
    found: list[CardRecord] = []
    for name in names:
        rec = find(name)
        if rec is None:
            close = card_base().closest(name)
            out(f"no card is named {name!r}" + (f" (closest: {close})" if close else ""))
            status = 1
            continue
        found.append(rec)
    rows = read_archive(Path(archive) if archive else default_archive()) if with_coverage else None
    if rows is not None:
        _check_kept()
    report = coverage(rows) if rows is not None else None
    if as_json:
        data: dict[str, object] = {"cards": [_record_json(r) for r in found]}
        if report is not None:
            data.update(report.as_json())
        out(json.dumps(data, ensure_ascii=False, indent=1))
        return status
    for rec in found:
        for line in record_lines(rec):
            out(line)
    if report is not None:
        for line in coverage_lines(report):
            out(line)
    if not names and not with_coverage:
        out("name one or more cards, or ask for --coverage")
    return status


def _check_kept() -> None:
    """Raises VampireError when the kept corrections name no card or keep a stale reason."""
    try:
        check(kept(), find)
    except CorrectionError as e:
        raise VampireError(f"the kept corrections file is out of date: {e}") from e


def _record_json(rec: CardRecord) -> dict[str, object]:
    return {
        "name": rec.name,
        "types": list(rec.types),
        "coverage": str(rec.coverage),
        "lines": record_lines(rec)[1:],
    }
