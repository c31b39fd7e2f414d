"""`vampire deck FILE`: what a table would read from a deck file, without sitting at one (DESIGN.md,
"The command line"): the counts, every name read as a close match and what it was read as, every
problem; exit 0 when a table would take the deck, 1 when it would refuse it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.cli import main

LIBRARY = ["10x Govern the Unaligned", "10x Dreams of the Sphinx", "8x Blood Doll", "32x Deflection"]


def deck_file(tmp_path: Path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_a_misspelt_deck_is_taken_and_every_line_read_as_a_close_match_is_named(tmp_path, capsys):
    path = deck_file(
        tmp_path,
        "typos.txt",
        [
            "Crypt:",
            "12x Abraham Melon",
            "",
            "Library:",
            "17x Govern the Unalinged",
            "17x Govrn teh Unalined",
            "26x Blood Doll",
        ],
    )
    assert main(["deck", path]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "typos: crypt 12, library 60"
    assert out[1:4] == [
        '  line 2: "Abraham Melon" read as Abraham Mellon (G6)',
        '  line 5: "Govern the Unalinged" read as Govern the Unaligned',
        '  line 6: "Govrn teh Unalined" read as Govern the Unaligned',
    ]
    assert "write the card's exact name on its line" in out[4]
    assert out[-1] == "A table would take this deck."
    # --exact refuses every guess, naming the line and the card it would have been read as.
    assert main(["deck", path, "--exact"]) == 1
    out = capsys.readouterr().out
    assert 'problem: line 5: no card is named exactly "Govern the Unalinged"; did you mean Govern the Unaligned?' in out
    assert out.splitlines()[-1] == "A table would refuse this deck."


def test_a_mixed_crypt_is_refused_at_a_tournament_table_and_noted_at_any_other(tmp_path, capsys):
    path = deck_file(tmp_path, "mixed.txt", ["6x Gilbert Duane", "6x Abraham Mellon", *LIBRARY])
    assert main(["deck", path]) == 0
    out = capsys.readouterr().out
    assert "note: the crypt holds vampires of groups 1 (6 cards) and 6 (6 cards)" in out
    assert main(["deck", path, "--rule", "ruleset=tournament"]) == 1
    out = capsys.readouterr().out
    assert "problem: the crypt holds vampires of groups 1 (6 cards) and 6 (6 cards), and a crypt holds one" in out
    assert main(["deck", path, "--rule", "ruleset=tournament", "--rule", "crypt_groups=off"]) == 0


def test_a_short_library_is_refused_unless_the_table_rule_is_off(tmp_path, capsys):
    path = deck_file(tmp_path, "short.txt", ["12x Anarch Convert", "Library (50 cards)", "40x Blood Doll"])
    assert main(["deck", path]) == 1
    out = capsys.readouterr().out
    assert "note: line 2: the header says 50 library cards, and the list holds 40" in out
    assert "problem: the library has 40 cards, and a library needs 60 to 90 (table rule library_size)" in out
    assert main(["deck", path, "--rule", "library_size=off"]) == 0


@pytest.mark.parametrize(
    ("name", "content", "said"),
    [
        ("deck.bin", bytes(range(256)), "not a deck list this program reads (a binary file, not text)"),
        ("deck.xml", b"<?xml version='1.0'?><cards/>", "not a deck list this program reads (XML whose root is <cards>"),
        ("missing.txt", None, "cannot read the deck file"),
    ],
)
def test_a_file_that_is_no_deck_list_is_refused_with_a_sentence(tmp_path, capsys, name, content, said):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    assert main(["deck", str(path)]) == 1
    out, err = capsys.readouterr()
    assert said in out and out.splitlines()[-1] == "A table would refuse this deck." and err == ""


def test_a_bad_rule_or_a_game_whose_players_bring_nothing_is_a_sentence(tmp_path, capsys):
    path = deck_file(tmp_path, "deck.txt", ["12x Anarch Convert", *LIBRARY])
    assert main(["deck", path, "--rule", "crypt_groups=maybe"]) == 1
    assert "option crypt_groups takes one of tournament, on, off" in capsys.readouterr().err
    assert main(["deck", path, "--game", "queen"]) == 1
    assert "bring nothing to a table" in capsys.readouterr().err


def test_a_bundled_deck_is_checked_by_its_name_and_said_to_be_the_bundled_one(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no file named atraco here
    assert main(["deck", "atraco"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "atraco: crypt 12, library 90"
    assert "  note: the bundled deck atraco (no file of that name here)" in out
    assert out[-1] == "A table would take this deck."


def test_a_file_in_this_folder_wins_over_a_bundled_deck_of_its_name_and_says_so(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    deck_file(tmp_path, "atraco", ["12x Gilbert Duane", *LIBRARY])
    assert main(["deck", "atraco"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "atraco: crypt 12, library 60"  # the file's cards, not the bundled deck's 90
    assert "  note: the file atraco in this folder, not the bundled deck of that name" in out


def test_a_name_that_is_neither_a_file_nor_a_bundled_deck_lists_the_bundled_decks(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["deck", "atracco"]) == 1
    out = capsys.readouterr().out
    assert "cannot read the deck file 'atracco'" in out and "nor is it a bundled deck: atraco, " in out


def test_play_and_join_take_a_bundled_deck_by_its_name(tmp_path, monkeypatch):
    from engine.games import find_game
    from engine.kits import bring_file
    from tui.cli.seats import DeckFile

    monkeypatch.chdir(tmp_path)
    said: list[str] = []
    deck = bring_file(find_game("vtes"), "atraco", {}, say=said.append)  # vampire play --deck atraco
    assert (deck.name, deck.crypt_size, deck.library_size) == ("atraco", 12, 90)
    assert said[0] == "You bring atraco: crypt 12, library 90."
    assert "the bundled deck atraco (no file of that name here)" in said[1]
    joined = DeckFile("atraco", said.append)("vtes")  # vampire join --deck atraco
    assert joined == deck


def test_the_lobby_says_which_deck_was_read_without_a_warning_mark(tmp_path, monkeypatch):
    """Your deck in the lobby: a bundled deck taken by its name is news, not a warning (no ⚠);
    a name read as a close match keeps its mark."""
    from engine.games import find_game
    from engine.kits import bring_file
    from tui.games.vtes.deckpick import deck_report

    monkeypatch.chdir(tmp_path)
    deck = bring_file(find_game("vtes"), "atraco", {}, say=lambda _: None)
    report = deck_report(deck).plain
    assert "the bundled deck atraco (no file of that name here)" in report and "⚠" not in report
    misspelt = deck_file(tmp_path, "typos.txt", ["12 Ingrid Rossler", "60 Govern the Unalinged", "30 Blood Doll"])
    read = bring_file(find_game("vtes"), misspelt, {}, say=lambda _: None)
    assert '⚠ line 2: "Govern the Unalinged" read as Govern the Unaligned' in deck_report(read).plain


def test_with_exact_a_misspelt_line_is_a_problem_and_the_header_counts_agree_with_the_list_as_written(tmp_path, capsys):
    path = deck_file(
        tmp_path,
        "headed.txt",
        [
            "Crypt (12 cards)",
            "12x Gilbert Duane",
            "",
            "Library (60 cards)",
            "10x Govern the Unalinged",
            "10x Dreams of the Sphinx",
            "8x Blood Doll",
            "32x Deflection",
        ],
    )
    assert main(["deck", path, "--exact"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "headed: crypt 12, library 60"  # the misspelt line counts as what it was read as
    assert out[1:] == [
        '  problem: line 5: no card is named exactly "Govern the Unalinged"; did you mean Govern the Unaligned?',
        "A table would refuse this deck.",
    ]  # no note that the header's 60 disagrees: it does not
    assert main(["deck", path]) == 0  # without --exact: the same counts, the line a reading
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "headed: crypt 12, library 60" and not any("header" in line for line in out)


def test_with_exact_a_header_that_truly_disagrees_is_still_noted(tmp_path, capsys):
    path = deck_file(
        tmp_path,
        "short.txt",
        ["Crypt (12 cards)", "12x Gilbert Duane", "", "Library (62 cards)", "10x Govern the Unalinged", *LIBRARY[1:]],
    )
    assert main(["deck", path, "--exact"]) == 1
    out = capsys.readouterr().out
    assert "note: line 4: the header says 62 library cards, and the list holds 60" in out
    assert 'problem: line 5: no card is named exactly "Govern the Unalinged"' in out


def test_declining_a_close_match_names_the_deck_check_as_the_person_types_it(tmp_path):
    """Asked whether to play a name read as a close match, "n" refuses the deck with the command
    that checks the file, written as the person's shell runs this program."""
    import pytest

    from engine.errors import VampireError
    from engine.games import find_game
    from engine.kits import bring_file

    misspelt = deck_file(tmp_path, "typos.txt", ["12 Ingrid Rossler", "60 Govern the Unalinged", "30 Blood Doll"])
    with pytest.raises(VampireError, match=r"\(\.venv/bin/vampire deck .*typos\.txt checks the file\)"):
        bring_file(find_game("vtes"), misspelt, {}, say=lambda _: None, ask=lambda _: "n", command=".venv/bin/vampire")


def test_join_takes_a_short_library_to_a_table_whose_rule_allows_it_and_refuses_it_to_one_that_does_not(tmp_path):
    """`vampire join --deck FILE` reads the file before connecting, and checks its library's size
    only once the host has named the table's rules (table rule library_size): a library of 40
    cards is taken at a table with library_size=off, and refused in a sentence at one with the
    rule on (the default), never before the rules are known."""
    from engine.errors import VampireError
    from tui.cli.seats import DeckFile

    path = deck_file(tmp_path, "short", ["12 Anson", "40 Govern the Unaligned"])
    said: list[str] = []
    deck = DeckFile(path, said.append)  # read before any connection: taken, no rule known yet
    assert said == ["You bring short: crypt 12, library 40."]
    deck.options = lambda: {"library_size": False}
    assert deck("vtes").library_size == 40
    deck.options = lambda: {}  # the table's rules, every one at its default
    with pytest.raises(VampireError, match=r"^short: the library has 40 cards, and a library needs 60 to 90"):
        deck("vtes")
