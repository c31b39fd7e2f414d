"""Games as plugins (DESIGN.md, "Games behind one interface"): the registry finds each game
through its entry point, a broken declaration is a sentence, a game's spec is the one place its
facts live, and what a player states at a table (a game's seat facts: a VEKN id) is checked by the
game the table plays, kept in the profile, and carried by the `join` (docs/protocol.md 4.1).
"""

from __future__ import annotations

import json
from importlib.metadata import EntryPoint

import pytest

import engine.games as registry
from engine.games import UnknownGame, find_game, game_names, known_facts, register_game, unregister_game
from engine.games.base import TABLE_OPTIONS, GameError, SeatFact
from engine.kits import profile_facts
from engine.paths import Profile, ProfileError, load_profile, profile_path, save_profile
from engine.protocol.identity import new_key
from engine.protocol.secrets import SecretsFile
from engine.seat import Seat
from engine.sequencer import Sequencer
from engine.table import TableRefusal
from tests.seamgame.spec import SPEC as HIGH_CARD
from tests.support.protocol import GAMES
from tui.games import find_front_end
from tui.games import installed as installed_front_ends

# --- the registry reads entry points ---------------------------------------------------------------


def test_the_games_that_ship_are_found_through_their_entry_points():
    points = registry.installed()
    assert {name: p.value for name, p in points.items()} == {
        "queen": "engine.games.queen.spec:SPEC",
        "vtes": "engine.games.vtes.spec:SPEC",
    }
    assert game_names() == ["queen", "vtes"]
    assert all(find_game(name) is points[name].load() for name in points)
    fronts = installed_front_ends()
    assert sorted(fronts) == ["queen", "vtes"]
    assert all(find_front_end(name) is fronts[name].load() for name in fronts)


@pytest.mark.parametrize(
    ("value", "sentence"),
    [
        ("tests.no_such_module:SPEC", "which fails to load"),
        ("tests.seamgame.spec:NOTHING", "which fails to load"),
        ("tests.seamgame.rules:GAME", "which is not a GameSpec"),
        ("tests.seamgame.spec:SPEC", "the spec of 'highcard'"),
    ],
)
def test_an_entry_point_that_gives_no_game_of_its_name_is_a_sentence(monkeypatch, value, sentence):
    point = EntryPoint("brokengame", value, registry.GROUP)
    points = {**registry.installed(), "brokengame": point}
    monkeypatch.setattr(registry, "installed", lambda: points)
    assert "brokengame" in game_names()  # listed by name: nothing is loaded to list it
    with pytest.raises(UnknownGame, match=f"the game 'brokengame' is declared as '{value}', {sentence}"):
        find_game("brokengame")
    assert registry.all_rules().get("brokengame") is None  # a table does not know such a game


def test_a_registered_game_is_found_without_an_entry_point_and_forgotten_after():
    assert "highcard" not in game_names()
    with pytest.raises(UnknownGame, match="no game is called 'highcard': choose queen, vtes"):
        find_game("highcard")
    register_game(HIGH_CARD)
    try:
        assert game_names() == ["queen", "vtes", "highcard"] and find_game("highcard") is HIGH_CARD
    finally:
        unregister_game("highcard")
    assert "highcard" not in game_names()


def test_the_game_opened_when_none_is_named_is_the_one_whose_spec_says_so(monkeypatch):
    from dataclasses import replace

    from tui.cli.parser import build_parser

    assert registry.default_game() == "queen" and find_game("queen").opens_first
    assert build_parser().parse_args(["play"]).game == "queen"
    # A game whose spec says so (first by name) is opened instead; with none saying so, the first name.
    monkeypatch.setattr(
        registry, "_installed_spec", lambda name: replace(registry._load(registry.installed()[name]), opens_first=False)
    )
    register_game(replace(HIGH_CARD, opens_first=True))
    try:
        assert registry.default_game() == "highcard"
        assert build_parser().parse_args(["play"]).game == "highcard"
    finally:
        unregister_game("highcard")
    assert registry.default_game() == "queen"  # no spec says so: the first name


# --- a game's facts live in its spec -----------------------------------------------------------------


@pytest.mark.parametrize("spec", [find_game("queen"), find_game("vtes"), HIGH_CARD], ids=lambda s: s.name)
def test_a_games_rules_read_their_facts_from_its_spec(spec):
    rules = spec.rules()
    assert (rules.name, rules.title, rules.min_seats, rules.max_seats, rules.seat_facts) == (
        spec.name,
        spec.title,
        spec.min_seats,
        spec.max_seats,
        spec.seat_facts,
    )
    assert spec.option_schema == rules.option_schema + TABLE_OPTIONS  # its own, then the table's


# --- seat facts ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "example", "message"),
    [
        ("VEKN", "1", "lower-case letters"),
        ("member id", "1", "lower-case letters"),
        ("name", "1", "no join field"),
        ("bot", "1", "no join field"),
        ("deck", "1", "no join field"),
        ("vekn", "12a", "is no"),
    ],
)
def test_a_seat_fact_with_a_bad_key_or_example_is_refused_when_declared(key, example, message):
    with pytest.raises(ValueError, match=message):
        SeatFact(key, "member number", 10, example)


def test_a_seat_fact_checks_a_value_with_a_sentence():
    fact = known_facts()["vekn"]
    assert fact.check(" 1003456 ") == "1003456"
    with pytest.raises(GameError, match=r"^A VEKN id is 1 to 10 digits \(like 1003456\), not '12345678901'\.$"):
        fact.check("12345678901")


def test_the_seat_facts_here_are_those_the_games_declare():
    assert list(known_facts()) == ["vekn"]
    assert find_game("vtes").seat_facts == find_game("queen").seat_facts == (known_facts()["vekn"],)
    assert HIGH_CARD.seat_facts == ()


def _seat_at(game: str, facts: dict, options: dict | None = None) -> tuple[Sequencer, Seat]:
    host = Sequencer(new_key(), GAMES, None, lambda: 0)
    host.open_table(game, options or {}, 3, "t")
    seat = Seat(new_key(), "Ann", GAMES, SecretsFile(None), facts=facts)
    seat.fold(host.table.entries[0])
    return host, seat


def test_a_join_carries_a_fact_its_tables_game_takes_as_a_field_of_its_own():
    host, seat = _seat_at("queen", {"vekn": "42"}, {"rounds": 1})
    body = seat.join_body()
    assert body == {"name": "Ann", "deck": None, "vekn": "42"}
    host.submit(seat.sign("join", body))
    assert host.table.seats[0].facts == {"vekn": "42"}


def test_a_join_without_facts_is_as_it_always_was():
    host, seat = _seat_at("queen", {}, {"rounds": 1})
    assert seat.join_body() == {"name": "Ann", "deck": None}
    host.submit(seat.sign("join", seat.join_body()))
    assert host.table.seats[0].facts == {}


@pytest.mark.parametrize(
    ("game", "facts", "detail"),
    [
        ("highcard", {"vekn": "42"}, "vekn"),  # a fact the table's game does not take
        ("queen", {"vekn": 42}, "vekn"),  # not a string
        ("queen", {"vekn": "4 2"}, "a VEKN id is 1 to 10 digits"),
    ],
)
def test_a_join_with_a_fact_its_game_refuses_is_malformed_and_seats_nobody(game, facts, detail):
    register_game(HIGH_CARD)
    try:
        host, seat = _seat_at(game, {})
        body = {**seat.join_body(), **facts}
        with pytest.raises(TableRefusal) as err:
            host.submit(seat.sign("join", body))
        assert err.value.code == "malformed" and detail in err.value.detail
        assert host.table.seats == []
    finally:
        unregister_game("highcard")


# --- a profile keeps what its player states ----------------------------------------------------------


def test_a_profile_keeps_facts_by_key_and_the_games_check_them(tmp_path):
    assert profile_facts("ann", {"vekn": " 1003456 "}, base=tmp_path) == {"vekn": "1003456"}
    assert json.loads(profile_path("ann", tmp_path).read_text()) == {"vekn": "1003456"}
    assert profile_facts("ann", base=tmp_path) == {"vekn": "1003456"}
    assert profile_facts("ann", {"vekn": None}, "vtes", tmp_path) == {"vekn": "1003456"}  # not given: kept
    register_game(HIGH_CARD)
    try:
        assert profile_facts("ann", game="highcard", base=tmp_path) == {}  # its game takes none
    finally:
        unregister_game("highcard")
    assert profile_facts("ann", {"vekn": "None"}, base=tmp_path) == {}  # forgotten
    assert load_profile("ann", tmp_path) == Profile("ann")


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"vekn": "12ab"}, r"A VEKN id is 1 to 10 digits \(like 1003456\), not '12ab'\."),
        ({"elo": "1500"}, "No game here takes a 'elo' from its players."),
    ],
)
def test_a_bad_fact_given_is_a_sentence_and_changes_nothing(tmp_path, given, message):
    save_profile(Profile("ann", {"vekn": "7"}), tmp_path)
    before = profile_path("ann", tmp_path).read_bytes()
    with pytest.raises(ProfileError, match=message):
        profile_facts("ann", given, base=tmp_path)
    assert profile_path("ann", tmp_path).read_bytes() == before


def test_a_profile_holding_a_bad_fact_is_a_sentence_and_a_new_fact_is_not_saved_beside_it(tmp_path):
    profile_path("ann", tmp_path).parent.mkdir(parents=True)
    profile_path("ann", tmp_path).write_text('{"vekn": "abc", "note": "kept"}')
    with pytest.raises(ProfileError, match="holds 'abc' as its VEKN id, which is not 1 to 10 digits"):
        profile_facts("ann", base=tmp_path)
    assert profile_facts("ann", {"vekn": "5"}, base=tmp_path) == {"vekn": "5"}  # a new value replaces it
    assert load_profile("ann", tmp_path).facts == {"note": "kept", "vekn": "5"}  # a key no game takes stays
    profile_path("ann", tmp_path).write_text('{"vekn": 5}')
    with pytest.raises(ProfileError, match="holds 5 as its vekn, which is not text"):
        load_profile("ann", tmp_path)
