"""High Card as the registry knows it, and the one place its facts live (its rules read them
from here). A test adds it with ``register_game(SPEC)``; a child process finds it through the
entry points :func:`tests.seamgame.plugin.install` declares."""

from __future__ import annotations

import random
from typing import Any

from engine.games.base import Game
from engine.games.spec import Bot, GameSpec, ScoreUnit


def _rules() -> Game:
    from tests.seamgame.rules import GAME

    return GAME


def _bot(level: str, rng: random.Random, brought: Any) -> Bot:
    from engine.bots.uniform import RandomBot
    from tests.seamgame.bot import CheapWinner

    return RandomBot(rng) if level == "random" else CheapWinner()


SPEC = GameSpec(
    name="highcard",
    title="High Card",
    min_seats=3,
    max_seats=6,
    default_seats=3,
    rules=_rules,
    bot_levels=("greedy", "random"),
    default_bot="greedy",
    filler_bot="random",
    make_bot=_bot,
    score=ScoreUnit("mean tricks", 1, "High Card: the most tricks wins; tied players share the win."),
)
