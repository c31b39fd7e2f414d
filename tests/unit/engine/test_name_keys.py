"""The key two names are compared by (engine.table.names.name_key; docs/protocol.md 7.4, "Names") is
folded with Unicode 3.2, which every Python ships unchanged, so peers on two Python versions fold
one name to one key and seat the same players under the same names."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from engine.table.lobby import free_name
from engine.table.names import FOLD_UCD, name_key


def test_look_alikes_spellings_and_invisibles_have_one_key() -> None:
    assert name_key("Lisa") == name_key("Lіsa") == name_key("LISA") == name_key("Li sa") == name_key("Li\u200bsa")
    assert name_key("Zo\u00eb") == name_key("Zoe\u0308")
    assert name_key("Ada") != name_key("Ida")


def test_a_character_assigned_after_unicode_3_2_is_left_out_whatever_this_pythons_unicode() -> None:
    # U+A7CB (Unicode 16.0) case-folds to U+0264 in Python's own database from 3.14 on and is
    # unassigned before; U+2066 (a bidi isolate, 6.3) and an emoji (6.0) are later than 3.2 too.
    for late in ("\ua7cb", "\u2066", "\U0001f3b2"):
        assert FOLD_UCD.category(late) == "Cn"
        assert name_key(f"Lisa{late}") == name_key("Lisa")
    assert free_name("Lisa\ua7cb", ["Lisa"]) != "Lisa\ua7cb"  # one name: renamed, on every peer


@given(st.text(max_size=12))
def test_the_key_holds_only_characters_unicode_3_2_assigns(name: str) -> None:
    key = name_key(name)
    assert all(FOLD_UCD.category(ch) != "Cn" for ch in key)
    assert name_key(unicodedata.normalize("NFD", name)) == name_key(unicodedata.normalize("NFC", name)) or any(
        FOLD_UCD.category(ch) == "Cn" for ch in name
    )
