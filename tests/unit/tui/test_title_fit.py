"""The title line keeps every fingerprint whole at 80 columns (PROTOCOL.md 8: 64-bit fingerprints
in four hex groups are longer than a line's spare room used to be)."""

from __future__ import annotations

from engine.protocol.identity import short_fingerprint
from tui.widgets.common.title import SEPARATOR, fit_parts

KEY = short_fingerprint(bytes(32))
HEAD = "#274 4222-9ca7-a587-82af"


def test_a_title_that_fits_is_one_line():
    parts = ["Vampire Queen", f"Mina (you, key {KEY})", f"head {HEAD}"]
    assert fit_parts(parts, 118, optional={0}) == [SEPARATOR.join(parts)]


def test_the_optional_part_goes_first_when_the_line_is_short():
    parts = ["Vampire: The Eternal Struggle", f"Mina (you, key {KEY})", "turn 14", f"head {HEAD}"]
    assert fit_parts(parts, 78, optional={0}) == [SEPARATOR.join(parts[1:])]


def test_a_title_that_cannot_fit_wraps_between_parts_never_inside_one():
    parts = ["Vampire Queen", f"Mina Longname (you, key {KEY})", "round 1 of 2", f"head {HEAD}"]
    lines = fit_parts(parts, 78, optional={0})
    assert len(lines) == 2
    assert all(len(line) <= 78 for line in lines)
    assert SEPARATOR.join(lines) == SEPARATOR.join(parts)  # nothing dropped once it wraps
    assert any(KEY in line for line in lines) and any(HEAD in line for line in lines)


def test_before_layout_the_title_is_one_line():
    assert fit_parts(["a", "b"], 0) == ["a · b"]
