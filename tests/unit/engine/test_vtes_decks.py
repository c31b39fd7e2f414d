"""VTES deck files: every common text format, exact card names, sizes (shared/rules/vtes.md,
"Setup"; engine/games/vtes/decks.py)."""

from __future__ import annotations

import pytest

from engine.errors import VampireError
from engine.games.vtes import Deck, DeckFileError, bundled_deck, bundled_deck_names, card_base, load_deck, parse_deck
from engine.games.vtes.decks import (
    DeckFormat,
    crypt_group_problem,
    read_deck,
    read_deck_file,
    table_problems,
    write_deck,
)

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


def test_a_name_that_resolves_to_no_card_names_its_line_and_the_closest_card():
    lines = crypt_lines("{n}x {name}") + library_lines("{n}x {name}")
    lines[4] = "10x Govern the Unknown"
    with pytest.raises(DeckFileError) as err:
        parse_deck("\n".join(lines))
    message = str(err.value)
    assert message == 'line 5: no card is named "Govern the Unknown"; did you mean Govern the Unaligned?'
    assert isinstance(err.value, VampireError)


def test_a_misspelling_krcg_matches_is_read_and_said_in_the_notes():
    lines = crypt_lines("{n}x {name}") + library_lines("{n}x {name}")
    lines[4] = "10x Govern the Unalligned"
    deck = parse_deck("\n".join(lines))
    assert names(deck)["Govern the Unaligned"] == 10
    assert deck.notes == ('line 5: "Govern the Unalligned" read as Govern the Unaligned',)
    # What a player is shown when it brings the deck (vampire join --deck, the lobby) names the guess.
    from engine.games.vtes.spec import DeckKit

    assert 'line 5: "Govern the Unalligned" read as Govern the Unaligned' in DeckKit().summary(deck)


def test_every_unknown_line_is_reported_and_an_unknown_name_is_not_guessed():
    lines = (
        crypt_lines("{n}x {name}")
        + library_lines("{n}x {name}")
        + ["1x Qwzx Frobnicate", "2x Sphinx Dreams", "1 Deflection", "Blood Dolls of Doom"]
    )
    with pytest.raises(DeckFileError) as err:
        parse_deck("\n".join(lines))
    message = str(err.value)
    assert 'line 10: no card is named "Qwzx Frobnicate"' in message
    assert 'line 11: no card is named "Sphinx Dreams"; did you mean Dreams of the Sphinx?' in message
    assert 'line 13: no card is named "Blood Dolls of Doom"' in message  # a lone bare name is JOL's one copy


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
    bad.write_text("12x Anarch Convert\n60x Blood Dollies in a Row\n", encoding="utf-8")
    with pytest.raises(DeckFileError, match=r"bad.txt: line 2: .*Blood Doll"):
        load_deck(bad)
    with pytest.raises(DeckFileError, match="cannot read"):
        load_deck(tmp_path / "missing.txt")


# --- krcg's parser reads what players write -----------------------------------------------------

BLOOD_DOLL = 100199
TORN_SIGNPOST = 101993
PENTEX_SUBVERSION = 101384
FIFTH_TRADITION = 100727


def test_a_comment_in_brackets_after_the_card_name_is_a_comment():
    text = "\n".join(
        crypt_lines("{n}x {name}")
        + library_lines("{n}x {name}", 66)
        + ["2 Blood Doll (best card of the day)", "12 Torn Signpost (won me the final)"]
    )
    deck = parse_deck(text)
    library = dict(deck.library)
    assert library[BLOOD_DOLL] == 8 + 2  # the two Blood Doll lines add up
    assert library[TORN_SIGNPOST] == 12
    assert deck.library_size == 80 and deck.notes == ()


def test_pentex_is_pentex_subversion():
    text = "\n".join(crypt_lines("{n}x {name}") + library_lines("{n}x {name}", 79) + ["1x Pentex"])
    deck = parse_deck(text)
    assert dict(deck.library)[PENTEX_SUBVERSION] == 1 and deck.notes == ()


def test_a_jol_line_5th_tradition_is_one_copy_of_the_fifth_tradition():
    text = "\n".join(crypt_lines("{n}x {name}") + library_lines("{n}x {name}", 79) + ["5th Tradition"])
    deck = parse_deck(text)
    assert dict(deck.library)[FIFTH_TRADITION] == 1 and deck.library_size == 80


@pytest.mark.parametrize("name", bundled_deck_names())
@pytest.mark.parametrize("fmt", list(DeckFormat))
def test_every_bundled_deck_written_by_krcg_reads_back_equal(name, fmt):
    deck = bundled_deck(name)
    text = write_deck(deck, fmt)
    back = parse_deck(text)
    assert (back.crypt, back.library) == (deck.crypt, deck.library)
    assert back.notes == ()
    if fmt in (DeckFormat.TWD, DeckFormat.TEXT, DeckFormat.VDB, DeckFormat.JSON):
        assert back.name == deck.name  # the formats that carry a name


def test_the_deck_formats_krcg_writes_look_like_their_tools():
    deck = bundled_deck("atraco")
    assert write_deck(deck, DeckFormat.LACKEY).splitlines()[-13] == "Crypt:"
    assert write_deck(deck, DeckFormat.JOL).splitlines()[0].startswith("1x ")
    assert write_deck(deck, DeckFormat.VDB).startswith("https://vdb.im/decks/deck?name=atraco#")
    assert '"cards"' in write_deck(deck, DeckFormat.JSON)


def test_a_vdb_link_or_a_json_deck_with_an_unknown_card_id_is_a_sentence():
    with pytest.raises(DeckFileError, match="the VDB link has '9=2', which is not a card id and a count"):
        parse_deck("https://vdb.im/decks/deck?name=x#200076=12;9=2")
    with pytest.raises(DeckFileError, match="not valid JSON"):
        parse_deck("{nope")
    with pytest.raises(DeckFileError, match='a JSON deck is a map with "cards"'):
        parse_deck('{"name": "x"}')


def test_comments_headers_and_a_preface_are_not_cards():
    text = "\n".join(
        [
            "My deck for the GP",
            "3 rounds, 2 wins and a line that starts with a number",
            "-- a marked comment",
            "Crypt:",
            *crypt_lines("{n}x {name}"),
            "// and a comment line among the cards",
            "Library:",
            *library_lines("{n}x {name}  -- a comment after the name"),
            "[the end]",
        ]
    )
    check_sample(parse_deck(text))


def test_a_card_line_in_the_preface_that_names_no_card_is_still_an_error():
    text = "\n".join(["2x Qwzx Frobnicate"] + crypt_lines("{n}x {name}") + library_lines("{n}x {name}"))
    with pytest.raises(DeckFileError, match='line 1: no card is named "Qwzx Frobnicate"'):
        parse_deck(text)


# --- decks as players write them: every guess said, XML, Lackey's sets, headers, crypt groups -----

ABRAHAM_MELLON = 201634
ALEXANDRA_G2 = 200025
TYPOS = ["Crypt:", "12x Abraham Melon", "", "Library:", "17x Govern the Unalinged", "17x Govrn teh Unalined"]


def test_every_misspelt_name_is_said_with_its_line_and_the_card_it_was_read_as():
    reading = read_deck("\n".join([*TYPOS, "26x Blood Doll"]))
    assert reading.readings == (
        'line 2: "Abraham Melon" read as Abraham Mellon (G6)',
        'line 5: "Govern the Unalinged" read as Govern the Unaligned',
        'line 6: "Govrn teh Unalined" read as Govern the Unaligned',
    )
    assert reading.problems == () and dict(reading.deck.library)[GOVERN] == 34
    # What a player bringing it is told (vampire join --deck, the lobby) names every one of them.
    from engine.games.vtes.spec import DeckKit

    summary = DeckKit().summary(reading.deck)
    assert all(note in summary for note in reading.readings)


def test_with_exact_names_a_misspelt_name_is_an_error_naming_the_card_it_would_be_read_as():
    with pytest.raises(DeckFileError) as err:
        parse_deck("\n".join([*TYPOS, "26x Blood Doll"]), exact=True)
    message = str(err.value)
    assert 'line 2: no card is named exactly "Abraham Melon"; did you mean Abraham Mellon (G6)?' in message
    assert 'line 6: no card is named exactly "Govrn teh Unalined"; did you mean Govern the Unaligned?' in message


def test_playing_with_a_misspelt_deck_says_each_reading_and_asks_first(tmp_path):
    from engine.errors import VampireError as Refused
    from engine.games import find_game
    from engine.kits import bring_file

    path = tmp_path / "typos.txt"
    path.write_text("\n".join([*TYPOS, "26x Blood Doll"]), encoding="utf-8")
    said: list[str] = []
    deck = bring_file(find_game("vtes"), str(path), {}, say=said.append, ask=lambda question: "")
    assert deck.library_size == 60 and said[0] == "You bring typos: crypt 12, library 60."
    assert '  line 5: "Govern the Unalinged" read as Govern the Unaligned' in said
    with pytest.raises(Refused, match="Write the cards' exact names on those lines"):
        bring_file(find_game("vtes"), str(path), {}, say=said.append, ask=lambda question: "n")


LACKEY_DEK = """<?xml version="1.0" encoding="UTF-8"?>
<deck version="0.8">
  <meta><game>vtes</game></meta>
  <superzone name="Deck">
{library}  </superzone>
  <superzone name="Crypt">
{crypt}  </superzone>
</deck>
"""


def lackey_cards(cards: list[tuple[str, int]]) -> str:
    return "".join(
        f"    <card><name id='x'>{name}</name><set>KMW</set></card>\n" for name, n in cards for _ in range(n)
    )


def test_a_lackey_dek_xml_file_is_read_one_card_element_a_copy(tmp_path):
    library = [("Govern the Unaligned", 10), ("Dreams of the Sphinx", 10), ("The Rack", 2), ("Blood Doll", 8)]
    library += [("Deflection", 49), ("Deflectoin", 1)]
    path = tmp_path / "mine.dek"
    path.write_text(LACKEY_DEK.format(library=lackey_cards(library), crypt=lackey_cards(CRYPT)), encoding="utf-8")
    reading = read_deck_file(path)
    check_sample(reading.deck)
    assert reading.deck.name == "mine" and reading.problems == ()
    assert len(reading.readings) == 1 and '"Deflectoin" read as Deflection' in reading.readings[0]


ARDB_XML = """<?xml version="1.0" encoding="ISO-8859-1"?>
<deck generator="ARDB" formatVersion="-TODO-1.0" databaseVersion="20090410">
  <name>An ARDB deck</name>
  <author>Someone</author>
  <crypt size="12">
    <vampire databaseID="1" count="6"><adv></adv><name>Anarch Convert</name><group>ANY</group></vampire>
    <vampire databaseID="2" count="2"><adv>(Advanced)</adv><name>Theo Bell</name><group>2</group></vampire>
    <vampire databaseID="3" count="2"><adv/><name>Gilbert Duane</name><group>6</group></vampire>
    <vampire databaseID="4" count="2"><adv>(Advanced)</adv><name>Xaviar</name><group>3</group></vampire>
  </crypt>
  <library size="80">
    <card databaseID="5" count="10"><name>Govern the Unaligned</name><type>Action</type></card>
    <card databaseID="6" count="10"><name>Dreams of the Sphinx</name></card>
    <card databaseID="7" count="2"><name>Rack, The</name></card>
    <card databaseID="8" count="8"><name>Blood Doll</name></card>
    <card databaseID="9" count="50"><name>Deflection</name></card>
  </library>
</deck>
"""


def test_an_ardb_xml_deck_is_read_with_counts_groups_and_advanced_vampires():
    deck = parse_deck(ARDB_XML)
    check_sample(deck)
    assert deck.name == "An ARDB deck"
    assert GILBERT_DUANE_G6 in dict(deck.crypt) and GILBERT_DUANE_G1 not in dict(deck.crypt)
    bad = ARDB_XML.replace("<name>Blood Doll</name>", "<name>Blood Dollies in a Row</name>")
    with pytest.raises(
        DeckFileError, match=r'line 15: no card is named "Blood Dollies in a Row"; did you mean Blood Doll'
    ):
        parse_deck(bad)


@pytest.mark.parametrize(
    ("content", "what"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01", "a binary file, not text"),
        (b'<?xml version="1.0"?>\n<html><body>12x Anarch Convert</body></html>', "root is <html>"),
        (b'<?xml version="1.0"?>\n<deck><crypt>', "not well-formed"),
        (
            b'<?xml version="1.0"?>\n<!DOCTYPE deck [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n<deck>&b;</deck>',
            "document type or entity declaration",
        ),
    ],
)
def test_a_file_that_is_no_deck_list_is_said_to_be_none(tmp_path, content, what):
    path = tmp_path / "deck.dek"
    path.write_bytes(content)
    with pytest.raises(DeckFileError) as err:
        load_deck(path)
    assert str(err.value).startswith("deck.dek: not a deck list this program reads (")
    assert what in str(err.value) and "Lackey's (.dek) and ARDB's XML" in str(err.value)
    assert "crypt has 0 cards" not in str(err.value)


def test_lackey_rows_with_a_set_in_a_third_column_are_read_in_the_crypt_and_the_library():
    crypt_first = ["Crypt:", *crypt_lines("{n}\t{name}\tKMW"), *library_lines("{n}\t{name}\tJyhad")]
    check_sample(parse_deck("\n".join(crypt_first)))
    library_first = [*library_lines("{n}\t{name}"), "Crypt:", *crypt_lines("{n}\t{name}\tLotN")]
    check_sample(parse_deck("\n".join(library_first)))


def test_a_lackey_row_naming_no_card_is_named_even_before_any_card_was_read():
    lines = [
        "Crypt:",
        "6\tAbrahm Mellonius the Third\tLotN",
        *crypt_lines("{n}\t{name}"),
        *library_lines("{n}\t{name}"),
    ]
    with pytest.raises(DeckFileError, match='line 2: no card is named "Abrahm Mellonius the Third"'):
        parse_deck("\n".join(lines))


def test_a_header_count_that_disagrees_with_the_lines_is_a_note():
    text = "\n".join(
        ["Crypt (12 cards, min=4, max=32, avg=4.5)", *crypt_lines("{n}x {name}"), "", "Library (90 cards)"]
        + library_lines("{n}x {name}", 88)
    )
    deck = parse_deck(text)
    assert deck.library_size == 88
    assert deck.notes == ("line 7: the header says 90 library cards, and the list holds 88",)
    agreeing = text.replace("Library (90 cards)", "Library (88 cards)")
    assert parse_deck(agreeing).notes == ()


MIXED_CRYPT = ["6x Alexandra", "6x Abraham Mellon"]


def test_crypt_groups_is_a_table_rule_on_at_tournament_tables():
    from engine.games import find_game

    option = {o.name: o for o in find_game("vtes").option_schema}["crypt_groups"]
    assert option.default == "tournament" and set(option.choices) == {"tournament", "on", "off"}
    deck = parse_deck("\n".join(MIXED_CRYPT + library_lines("{n}x {name}")))
    problem = (
        "the crypt holds vampires of groups 2 (6 cards) and 6 (6 cards), and a crypt holds one group or two "
        "consecutive groups (table rule crypt_groups)"
    )
    assert table_problems(deck, {"ruleset": "tournament"}) == [problem]
    assert table_problems(deck, {"ruleset": "standard", "crypt_groups": "on"}) == [problem]
    assert table_problems(deck, {"ruleset": "standard"}) == []
    assert table_problems(deck, {"ruleset": "tournament", "crypt_groups": "off"}) == []


@pytest.mark.parametrize(
    ("crypt", "legal"),
    [
        (["6x Alexandra", "6x Anarch Convert"], True),  # group 2, and ANY counts as any
        (["6x Xaviar (ADV)", "6x Alexandra"], True),  # groups 3 and 2: consecutive
        (["4x Xaviar (ADV)", "4x Alexandra", "4x Gilbert Duane"], False),  # groups 1, 2 and 3: three groups
        (["6x Gilbert Duane", "6x Abraham Mellon"], False),  # groups 1 and 6
    ],
)
def test_a_crypt_holds_one_group_or_two_consecutive_groups(crypt, legal):
    deck = parse_deck("\n".join(crypt + library_lines("{n}x {name}")))
    assert (crypt_group_problem(deck) is None) == legal
