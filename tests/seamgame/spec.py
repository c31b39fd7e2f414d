"""High Card as the registry knows it: the only thing a test registers to add the game
(``register_game(SPEC)``, or ``VAMPIRE_GAMES=tests.seamgame.spec:SPEC`` for a child process)."""

from __future__ import annotations

import random
from typing import Any

from engine.bots.uniform import RandomBot
from engine.games.base import Game
from engine.games.spec import Bot, GameSpec, ScoreUnit
from tests.seamgame.bot import CheapWinner
from tests.seamgame.rules import GAME, MAX_SEATS, MIN_SEATS, NAME, TITLE


def _rules() -> Game:
    return GAME


def _bot(level: str, rng: random.Random, brought: Any) -> Bot:
    return RandomBot(rng) if level == "random" else CheapWinner()


SPEC = GameSpec(
    name=NAME,
    title=TITLE,
    min_seats=MIN_SEATS,
    max_seats=MAX_SEATS,
    default_seats=3,
    rules=_rules,
    bot_levels=("greedy", "random"),
    default_bot="greedy",
    filler_bot="random",
    make_bot=_bot,
    score=ScoreUnit("mean tricks", 1, "High Card: the most tricks wins; tied players share the win."),
)
