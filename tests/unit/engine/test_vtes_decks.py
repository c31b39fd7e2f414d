"""VTES deck files: every common text format, exact card names, sizes (shared/rules/vtes.md,
"Setup"; engine/games/vtes/decks.py)."""

from __future__ import annotations

import pytest

from engine.errors import VampireError
from engine.games.vtes import Deck, DeckFileError, bundled_deck, bundled_deck_names, card_base, load_deck, parse_deck

GOVERN = 100845
ANARCH_CONVERT = 200076
THEO_BELL_ADV = 201363
GILBERT_DUANE_G6 = 201617
GILBERT_DUANE_G1 = 200517


def names(deck: Deck, kind: str = "library") -> dict[str, int]:
    base = card_base()
    pairs = deck.library if kind == "library" else deck.crypt
    return {base.info(cid).name: n for cid, n in pairs}


def library_lines(fmt: str, total: int = 80) -> list[str]:
    """A library of ``total`` cards in a given line format."""
    cards = [("Govern the Unaligned", 10), ("Dreams of the Sphinx", 10), ("The Rack", 2), ("Blood Doll", 8)]
    cards.append(("Deflection", total - sum(n for _, n in cards)))
    return [fmt.format(n=n, name=name) for name, n in cards]


CRYPT = [("Anarch Convert", 6), ("Theo Bell (ADV)", 2), ("Gilbert Duane", 2), ("Xaviar (ADV)", 2)]


def crypt_lines(fmt: str) -> list[str]:
    return [fmt.format(n=n, name=name) for name, n in CRYPT]


def check_sample(deck: Deck, library: int = 80) -> None:
    assert deck.crypt_size == 12 and deck.library_size == library
    crypt = dict(deck.crypt)
    assert crypt[ANARCH_CONVERT] == 6 and crypt[THEO_BELL_ADV] == 2
    assert dict(deck.library)[GOVERN] == 10


def test_twd_format_from_the_archive_parses_with_groups_and_headers():
    deck = bundled_deck("atraco")  # written by krcg's TWD serializer: event headers, crypt table
    assert (deck.crypt_size, deck.library_size) == (12, 90)
    assert GILBERT_DUANE_G6 in dict(deck.crypt)  # "Gilbert Duane (G6) … Malkavian:6"


def test_vdb_text_format():
    text = "\n".join(
        [
            "Deck Name: Sample",
            "Author: Someone",
            "Description:",
            "3 rounds, 2 wins, and a line starting with a number",
            "",
            "Crypt (12 cards, min=4, max=32, avg=4.5)",
            "================================",
            "6x Anarch Convert                  1   -none-                     Caitiff:ANY",
            "2x Theo Bell (ADV)                 8   CEL POT PRE dom   Brujah:2",
            "2x Gilbert Duane                   7   AUS DOM OBF  prince  Malkavian:6",
            "2x Xaviar (ADV)                    10  ABO ANI FOR PRO   Gangrel:3",
            "",
            "Library (80 cards)",
            "Master (12; 2 trifle)",
            *library_lines("{n}x {name}")[2:4],
            "Action (20)",
            *library_lines("{n}x {name}")[:2],
            "Reaction (50)",
            "50x Deflection   -- a comment",
        ]
    )
    deck = parse_deck(text)
    check_sample(deck)
    assert deck.name == "Sample"
    assert GILBERT_DUANE_G6 in dict(deck.crypt) and GILBERT_DUANE_G1 not in dict(deck.crypt)


def test_jol_format():
    text = "\n".join(crypt_lines("{n}x{name}") + [""] + library_lines("{n}x{name}")[:-1] + ["50x Deflection"])
    deck = parse_deck(text)
    check_sample(deck)
    assert GILBERT_DUANE_G1 in dict(deck.crypt)  # no group column: the first Gilbert Duane


def test_jol_bare_names_are_one_copy():
    text = "\n".join(crypt_lines("{n}x {name}") + library_lines("{n}x {name}", 79) + ["Pentex Subversion"])
    deck = parse_deck(text)
    assert deck.library_size == 80
    assert names(deck)["Pentex™ Subversion"] == 1


def test_lackey_format():
    text = "\n".join(library_lines("{n}\t{name}") + ["Crypt:"] + crypt_lines("{n}\t{name}"))
    check_sample(parse_deck(text))


@pytest.mark.parametrize("fmt", ["{n} {name}", "{n}x {name}", "{n} x {name}", "{n}X {name}"])
def test_plain_count_and_name_lines(fmt):
    text = "\n".join(["Crypt:"] + crypt_lines(fmt) + ["", "Library:"] + library_lines(fmt))
    check_sample(parse_deck(text))


def test_names_resolve_without_accents_case_or_articles():
    text = "\n".join(crypt_lines("{n} {name}") + library_lines("{n} {name}", 78) + ["1 RACK, THE", "1 govern"])
    deck = parse_deck(text)
    assert names(deck)["The Rack"] == 3 and names(deck)["Govern the Unaligned"] == 11


def test_a_misspelt_name_names_its_line_and_the_closest_card():
    lines = crypt_lines("{n}x {name}") + library_lines("{n}x {name}")
    lines[4] = "10x Govern the Unalligned"
    with pytest.raises(DeckFileError) as err:
        parse_deck("\n".join(lines))
    message = str(err.value)
    assert 'line 5: no card is named "Govern the Unalligned"; did you mean Govern the Unaligned?' in message
    assert isinstance(err.value, VampireError)


def test_every_unknown_line_is_reported_and_an_unknown_name_is_not_guessed():
    lines = (
        crypt_lines("{n}x {name}") + library_lines("{n}x {name}") + ["1x Qwzx Frobnicate", "2x Dreams of the Sphynx"]
    )
    with pytest.raises(DeckFileError) as err:
        parse_deck("\n".join(lines))
    message = str(err.value)
    assert "line 10:" in message and "Qwzx Frobnicate" in message
    assert "line 11:" in message and "did you mean Dreams of the Sphinx?" in message


def test_a_crypt_needs_twelve_cards():
    lines = crypt_lines("{n}x {name}") + library_lines("{n}x {name}")
    lines[0] = "5x Anarch Convert"
    with pytest.raises(DeckFileError, match="the crypt has 11 cards, and a crypt needs at least 12"):
        parse_deck("\n".join(lines))


@pytest.mark.parametrize("total", [59, 91])
def test_a_library_needs_sixty_to_ninety_cards_unless_the_table_rule_is_off(total):
    text = "\n".join(crypt_lines("{n}x {name}") + library_lines("{n}x {name}", total))
    with pytest.raises(DeckFileError, match=f"the library has {total} cards, and a library needs 60 to 90"):
        parse_deck(text)
    assert parse_deck(text, library_size=False).library_size == total


def test_a_zero_count_is_refused():
    lines = crypt_lines("{n}x {name}") + library_lines("{n}x {name}") + ["0x Blood Doll"]
    with pytest.raises(DeckFileError, match="a count of 0"):
        parse_deck("\n".join(lines))


def test_card_identities_are_krcg_id_and_copy():
    text = "\n".join(crypt_lines("{n}x {name}") + library_lines("{n}x {name}"))
    deck = parse_deck(text)
    crypt = deck.crypt_identities()
    assert len(crypt) == 12 and f"{ANARCH_CONVERT}-1" in crypt and f"{ANARCH_CONVERT}-6" in crypt
    assert len(set(deck.library_identities())) == 80
    assert deck.deck_act() == {"do": "deck", "crypt": 12, "library": 80}


def test_shipped_tournament_winning_decks(tmp_path):
    shipped = bundled_deck_names()
    assert len(shipped) >= 5
    for name in shipped:
        deck = bundled_deck(name)
        assert deck.crypt_size >= 12 and 60 <= deck.library_size <= 90
        assert all(card_base().info(cid).capacity > 0 for cid, _ in deck.crypt)
    with pytest.raises(DeckFileError, match="no shipped deck"):
        bundled_deck("nope")


def test_load_deck_reads_a_file_and_names_it_in_errors(tmp_path):
    good = tmp_path / "mine.txt"
    good.write_text("\n".join(crypt_lines("{n}x {name}") + library_lines("{n}x {name}")), encoding="utf-8")
    assert load_deck(good).name == "mine"
    bad = tmp_path / "bad.txt"
    bad.write_text("12x Anarch Convert\n60x Blood Dol\n", encoding="utf-8")
    with pytest.raises(DeckFileError, match=r"bad.txt: line 2: .*Blood Doll"):
        load_deck(bad)
    with pytest.raises(DeckFileError, match="cannot read"):
        load_deck(tmp_path / "missing.txt")
