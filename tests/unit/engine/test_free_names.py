"""No two seats share a name: the name a joining seat takes (``free_name``, compared ignoring case
after the cleaning a `join` gets), the bots' names (``bot_names``), and the sentence that tells a
player when their seat took another name."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.opening import bot_names
from engine.table.lobby import MAX_NAME, free_name, renamed_sentence


def test_a_free_name_is_kept_cleaned() -> None:
    assert free_name("  Ann ", ["Bob", "Lisa"]) == "Ann"


def test_a_taken_name_takes_the_first_free_number_ignoring_case() -> None:
    assert free_name("lisa", ["Lisa"]) == "lisa 2"
    assert free_name("Lisa", ["LISA", "lisa 2", "Bob"]) == "Lisa 3"
    assert free_name(" Lisa ", [" Lisa "]) == "Lisa 2"


def test_a_long_taken_name_is_shortened_to_fit_with_its_number() -> None:
    long = "x" * MAX_NAME
    got = free_name(long, [long.upper()])
    assert got == "x" * (MAX_NAME - 2) + " 2" and len(got) == MAX_NAME


@given(
    st.text(st.characters(categories=("L", "N", "Zs")), min_size=1, max_size=MAX_NAME).filter(str.strip),
    st.lists(st.text(st.characters(categories=("L", "N", "Zs")), min_size=1, max_size=MAX_NAME), max_size=12),
)
def test_a_free_name_never_equals_a_seated_one(wanted: str, taken: list[str]) -> None:
    got = free_name(wanted, taken)
    assert 0 < len(got) <= MAX_NAME and got == got.strip()
    assert got.casefold() not in {t.strip().casefold() for t in taken}


def test_bot_names_avoid_each_other_and_the_people_ignoring_case() -> None:
    names = bot_names(14, ["lisa", "SCOTT"])
    folded = [n.casefold() for n in names]
    assert len(set(folded)) == 14 and "lisa" not in folded and "scott" not in folded


def test_the_sentence_only_when_the_name_changed() -> None:
    assert renamed_sentence("Lisa", "Lisa") is None
    assert renamed_sentence(" Lisa ", "Lisa") is None
    assert renamed_sentence("Lisa", "Lisa 2") == "The name Lisa is taken at this table: you sit as Lisa 2."
