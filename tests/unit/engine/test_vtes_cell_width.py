"""The width of a player's name (printable: engine.table.lobby) in the organiser's result text
(engine.games.vtes.scoring.cell_width, from the standard library's East Asian Width): the same as
rich's cell_len, which the screens use, for the names players give."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from engine.games.vtes.scoring import cell_width

NAMES = [
    "Alice",
    "Zoë",
    "Zoe\u0308",  # decomposed: e and a combining diaeresis
    "François Déjà-vu",
    "Łukasz Żółć",
    "Ørjan Ærø",
    "Дмитрий",
    "Γιώργος",
    "José María O'Neill",
    "山田太郎",
    "김민준",
    "すずき",
    "ｆｕｌｌｗｉｄｔｈ",
    "ﾊﾝｶｸ",
    "नमस्ते",
    "محمد",
    "שלום",
    "ไทย",
    "Theo 🦇",
    "🧛‍♂️ Vlad",
    "👨‍👩‍👧 family",
    "❤️ hearts",
    "🇫🇷 Paris",
    "👍🏽",
    "",
]


@pytest.mark.parametrize("name", NAMES)
def test_names_take_the_cells_rich_counts(name: str) -> None:
    assert cell_width(name) == cell_len(name)


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        st.characters(
            categories=("Lu", "Ll", "Lt", "Lm", "Lo", "Nd", "Pc", "Pd", "Ps", "Pe", "Po", "Zs", "Sm", "Sc"),
            max_codepoint=0xFFFF,
        ),
        max_size=32,
    )
)
def test_text_takes_the_cells_rich_counts(text: str) -> None:
    assert cell_width(text) == cell_len(text)
