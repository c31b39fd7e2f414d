"""VTES engine speed for ``scripts/bench`` (DESIGN.md, "Quality bars": engine speed in complete
games per second with bots)."""

from __future__ import annotations

import time

from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import bundled_decks
from engine.games.vtes.simulate import simulate_vtes


def run(quick: bool = False) -> dict[str, float]:
    """Time whole 5-seat games between structural bots; return a JSON-ready dict:
    ``card_database_s`` (loading krcg's data), ``deck_parse_ms`` (one shipped deck),
    ``games``, ``games_per_s``, ``acts_per_s`` and ``mean_acts`` per game."""
    start = time.perf_counter()
    card_base()
    loaded = time.perf_counter() - start
    start = time.perf_counter()
    decks = bundled_decks()
    parse_ms = 1000 * (time.perf_counter() - start) / len(decks)
    games = 3 if quick else 30
    start = time.perf_counter()
    records = simulate_vtes(seats=5, games=games, seed=0, decks=decks)
    elapsed = time.perf_counter() - start
    acts = sum(r.moves for r in records)
    return {
        "card_database_s": round(loaded, 3),
        "deck_parse_ms": round(parse_ms, 2),
        "games": games,
        "games_per_s": round(games / elapsed, 2),
        "acts_per_s": round(acts / elapsed),
        "mean_acts": round(acts / games, 1),
    }
