"""The registry of games: every game's spec agrees with its rules, and a name no game has is a
sentence that lists the games there are."""

from __future__ import annotations

import random

import pytest

from engine.games import UnknownGame, find_game, game_names
from engine.games.base import TABLE_OPTIONS
from engine.games.spec import BotSpecError


@pytest.mark.parametrize("name", game_names())
def test_a_games_spec_and_its_rules_say_the_same(name):
    spec = find_game(name)
    rules = spec.rules()
    assert (spec.name, spec.title) == (rules.name, rules.title)
    assert (spec.min_seats, spec.max_seats) == (rules.min_seats, rules.max_seats)
    assert spec.min_seats <= spec.default_seats <= spec.max_seats
    assert spec.default_bot in spec.bot_levels and spec.filler_bot in spec.bot_levels
    # The spec lists the game's own rules, then the table rules every game shares (PROTOCOL.md 6.5).
    assert spec.option_schema == (*rules.option_schema, *TABLE_OPTIONS)


@pytest.mark.parametrize("name", game_names())
def test_every_level_a_game_lists_makes_a_bot_and_no_other_does(name):
    spec = find_game(name)
    kit = spec.kit() if spec.kit is not None else None
    for level in spec.bot_levels:
        rng = random.Random(level)
        bot = spec.bot(level, rng, kit.for_bot(rng) if kit is not None else None)
        assert callable(bot.choose)
    with pytest.raises(BotSpecError, match=f"unknown bot level 'genius': {spec.title} has"):
        spec.bot("genius", random.Random(0))


def test_a_game_nobody_registered_is_a_sentence_naming_the_games():
    with pytest.raises(UnknownGame, match="no game is called 'chess': choose queen, vtes"):
        find_game("chess")
