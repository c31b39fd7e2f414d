"""Vampire Queen as the registry knows it (shared/rules/vampire-queen.md, "Seats and hand size")."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.games.base import Act, Game, SeatFact
from engine.games.spec import Bot, GameSpec, ScoreUnit


def _rules() -> Game:
    from engine.games.queen.rules import GAME

    return GAME


def _bot(level: str, rng: random.Random, brought: object) -> Bot:
    """A bot of ``level`` (the spec has checked it); a Vampire Queen seat brings nothing."""
    if level == "random":
        from engine.bots.uniform import RandomBot

        return RandomBot(rng)
    if level == "expert":
        from engine.games.queen.expert import QueenExpert

        return QueenExpert(rng)
    from engine.games.queen.bots import QueenHeuristic

    return QueenHeuristic(rng)


VEKN = SeatFact("vekn", "VEKN id", 10, "1003456")
"""A player's VEKN id, the member number the VEKN gives a player: Vampire Queen tables have
recorded it in a `join` from the first (docs/protocol.md 4.1), and still take it."""


def _hand_words(cards: Sequence[str]) -> str:
    """A hand as numbers, low to high, Queens as Q ("7-3" is a 7: copies play alike)."""
    from engine.games.queen.rules import is_queen, rank

    return " ".join(("Q" if is_queen(c) else c.split("-", 1)[0]) for c in sorted(cards, key=lambda c: (rank(c), c)))


def _auto_act(view: Any) -> Act | None:
    """A pass when the rules leave the seat nothing else (shared/rules/vampire-queen.md, "A normal trick":
    on its turn in a normal trick, no set of its hand beats the lead): every act
    :meth:`engine.games.queen.rules.VampireQueen.legal_acts` offers is a pass. None otherwise, and
    while a card of the hand is still being opened to the seat (the rules cannot judge it yet)."""
    from engine.games.queen.rules import GAME

    if view.seat is None or any(ident is None for _, ident in view.hand):
        return None
    acts = GAME.legal_acts(view)
    if acts and all(act.get("do") == "pass" for act in acts):
        return {"do": "pass"}
    return None


SPEC = GameSpec(
    name="queen",
    title="Vampire Queen",
    min_seats=3,
    max_seats=12,
    default_seats=4,
    rules=_rules,
    bot_levels=("expert", "heuristic", "random"),
    default_bot="expert",
    filler_bot="random",
    make_bot=_bot,
    seat_facts=(VEKN,),
    score=ScoreUnit("mean score", 1, "Vampire Queen: the lowest total wins; tied games share the win."),
    hand_words=_hand_words,
    auto_act=_auto_act,
    opens_first=True,
)
