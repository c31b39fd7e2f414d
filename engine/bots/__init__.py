"""Bots: players that choose acts from a seat's view, never from other hands.

A bot has ``choose(view, legal) -> act | None``: ``legal`` is the game's ``legal_acts(view)``.
Each game's spec (:class:`engine.games.spec.GameSpec`) names its levels and makes its bots; this
module reads ``--bots`` against it.
"""

from __future__ import annotations

from engine.bots.uniform import RandomBot
from engine.games.spec import BotSpecError, GameSpec


def parse_bots(text: str, game: GameSpec) -> list[str]:
    """Parse ``--bots``: a number N (N bots of the game's default level) or a comma list of levels.

    Raises BotSpecError with a sentence when the text is empty or names a level the game has not.
    """
    text = text.strip()
    if text.isdigit():
        return [game.default_bot] * int(text)
    levels = [part.strip() for part in text.split(",") if part.strip()]
    if not levels:
        raise BotSpecError("--bots takes a number or a comma list of bot levels")
    for level in levels:
        if level not in game.bot_levels:
            raise BotSpecError(f"unknown bot level {level!r}: {game.title} has {' or '.join(game.bot_levels)}")
    return levels


__all__ = ["BotSpecError", "RandomBot", "parse_bots"]
