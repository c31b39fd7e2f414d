"""Bots: players that choose acts from a seat's view, never from other hands.

A bot has ``choose(view, legal) -> act | None``: ``legal`` is the game's ``legal_acts(view)``.
"""

from __future__ import annotations

import random
from typing import Any

from engine.errors import VampireError

LEVELS = ("heuristic", "random")


class BotSpecError(VampireError):
    """A --bots value that names no bot level."""


class RandomBot:
    """Any legal act, uniformly."""

    level = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: Any, legal: list[dict]) -> dict | None:
        return self.rng.choice(legal) if legal else None


def make_bot(game: str, level: str, rng: random.Random, deck: Any = None) -> Any:
    """A bot of ``level`` for ``game`` ("queen" or "vtes"). A VTES bot brings ``deck`` (an
    :class:`engine.games.vtes.decks.Deck`); both VTES levels are structural bots, since a uniformly
    random VTES player would never end a game. Raises BotSpecError for an unknown level."""
    if level not in LEVELS:
        raise BotSpecError(f"unknown bot level {level!r}: choose {' or '.join(LEVELS)}")
    if game == "vtes":
        from engine.bots.vtes import make_vtes_bot

        return make_vtes_bot(rng, deck, level)
    if level == "random":
        return RandomBot(rng)
    from engine.bots.queen import QueenHeuristic

    return QueenHeuristic(rng)


def vtes_deck_lists(deck: Any) -> dict[str, list[str]]:
    """A VTES deck as the private deck lists a seat commits to: ``{"crypt": [...], "library": [...]}``."""
    return {"crypt": deck.crypt_identities(), "library": deck.library_identities()}


def parse_bots(spec: str, default_count: int | None = None) -> list[str]:
    """Parse ``--bots``: a number N (N heuristic bots) or a comma list of levels.

    Raises BotSpecError with a sentence when the spec is empty or names an unknown level.
    """
    spec = spec.strip()
    if spec.isdigit():
        return ["heuristic"] * int(spec)
    levels = [part.strip() for part in spec.split(",") if part.strip()]
    if not levels:
        raise BotSpecError("--bots takes a number or a comma list of bot levels")
    for level in levels:
        if level not in LEVELS:
            raise BotSpecError(f"unknown bot level {level!r}: choose {' or '.join(LEVELS)}")
    return levels
