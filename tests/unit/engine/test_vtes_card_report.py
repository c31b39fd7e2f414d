"""``vampire cards``: each named card's record, and the archive's coverage, recomputed here from
the frequency table and the card records."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import VampireError
from engine.games.vtes import card_report
from engine.games.vtes.card_corrections import parse
from engine.games.vtes.card_record import Coverage, record
from engine.games.vtes.card_report import cards_command, default_archive, read_archive

ARCHIVE = default_archive()
needs_archive = pytest.mark.skipif(
    not ARCHIVE.exists(), reason="the archive's card frequency table (shared/data) is not beside this checkout"
)


def run(*names: str, coverage: bool = False, as_json: bool = False, archive: str | None = None) -> tuple[int, str]:
    lines: list[str] = []
    status = cards_command(names, coverage, as_json, archive, lines.append)
    return status, "\n".join(lines)


def test_a_named_card_shows_its_record() -> None:
    status, text = run("Conditioning", "Emerald Legionnaire")
    assert status == 0
    assert "Conditioning (Action Modifier): applied fully" in text
    assert "[DOM]: +3 bleed (limited)" in text
    assert "printed: life 2, strength 2, bleed 1" in text
    assert "clan Harbinger of Skulls" in text


def test_a_card_left_by_hand_shows_its_kept_reason() -> None:
    status, text = run("Golconda: Inner Peace")
    assert status == 0
    assert "Golconda: Inner Peace (Master): applied by hand" in text
    assert "  left by hand: removes a vampire of capacity 8+ from the game for pool" in text


def test_a_name_that_is_no_card_is_said_with_the_closest_and_exit_1() -> None:
    status, text = run("Govern the Unalinged")
    assert status == 1 and "closest: Govern the Unaligned" in text


@needs_archive
def test_the_coverage_figures_are_the_records_weighted_by_the_archives_copies() -> None:
    status, text = run(coverage=True, as_json=True)
    assert status == 0
    got = json.loads(text)
    copies = {k: 0 for k in Coverage}
    with ARCHIVE.open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["section"] != "library":
                continue
            rec = record(int(row["card_id"]))
            copies[rec.coverage if rec is not None else Coverage.BY_HAND] += int(row["copies"])
    total = sum(copies.values())
    assert got["copies"] == total == 379_616  # the README's count of library copies
    for kind in Coverage:
        assert got[str(kind)] == pytest.approx(copies[kind] / total, abs=1e-6)
    assert got["fully"] + got["partly"] + got["by_hand"] == pytest.approx(1.0, abs=3e-6)  # each rounded to 1e-6


@needs_archive
def test_none_of_the_300_most_played_is_left_by_hand_without_a_reason() -> None:
    status, text = run(coverage=True, as_json=True)
    assert status == 0
    got = json.loads(text)
    with ARCHIVE.open(encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["section"] == "library"]
    top = sorted(rows, key=lambda r: int(r["rank"]))[:300]
    records = [record(int(r["card_id"])) for r in top]
    by_hand = [r for r in records if r is None or r.coverage == Coverage.BY_HAND]
    assert by_hand  # the check below counts something
    unexplained = [r.name if r else "?" for r in by_hand if r is None or not r.note]
    assert got["by_hand_without_reason_top_300"] == len(unexplained) == 0, unexplained
    _, words = run(coverage=True)
    assert "Of the 300 most played, left by hand without a reason: 0" in words


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "cannot read"),
        ("a\tb\n1\t2\n", "is not the archive's"),
        ("section\trank\tcard_id\tname\tcopies\nlibrary\tx\t1\tA\t2\n", "not a card's counts"),
    ],
)
def test_a_bad_archive_file_is_a_sentence(tmp_path: Path, content: str | None, words: str) -> None:
    path = tmp_path / "freq.tsv"
    if content is not None:
        path.write_text(content)
    with pytest.raises(VampireError, match=words):
        read_archive(path)


@needs_archive
def test_the_command_line_prints_the_coverage_as_json() -> None:
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "cards", "--coverage", "--json"], cwd=root, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert {"fully", "partly", "by_hand", "copies"} <= set(data)


def test_a_corrected_card_applied_in_part_shows_its_correction() -> None:
    _, text = run("Organized Resistance")
    assert "applied partly" in text and "  correction: the intercept goes to an Anarch of yours" in text


@needs_archive
def test_the_coverage_refuses_a_stale_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    stale = parse("[[by_hand]]\nname = 'Conditioning'\nreason = 'the table has no bleed'\n")
    monkeypatch.setattr(card_report, "kept", lambda: stale)
    with pytest.raises(
        VampireError, match="out of date: Conditioning has a by-hand reason but the table applies it fully"
    ):
        run(coverage=True)


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Sideslip", Coverage.FULLY),  # "only one Sideslip at superior each round": its prevention is superior
        ("Form of Mist", Coverage.PARTLY),  # "… at superior each action" (and a clause by hand)
        ("Political Stranglehold", Coverage.PARTLY),  # "… can be played or called in a game"
        ("Giant's Blood", Coverage.FULLY),  # "only one Giant's Blood can be played in a game": checked
        ("Taste of Vitae", Coverage.FULLY),  # "only one Taste of Vitae each round": checked
    ],
)
def test_a_printed_play_limit_the_table_does_not_check_leaves_the_card_partly(name: str, kind: Coverage) -> None:
    from engine.games.vtes.card_coverage import coverage_of, unchecked_limit
    from engine.games.vtes.card_report import find

    rec = find(name)
    assert rec is not None and coverage_of(rec) == kind
    assert (unchecked_limit(rec) is None) == (kind == Coverage.FULLY)
