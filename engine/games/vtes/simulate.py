"""Bots playing whole VTES games in memory (DESIGN.md, ``vampire simulate --game vtes``).

Each seat gets a shipped tournament-winning deck (or one given), declared with a ``deck`` act and
dealt as a private deck by :class:`engine.sim.SimTable`, and a :class:`engine.games.vtes.bots.VtesBot`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from engine.games.base import GameError, Note, OptionValue
from engine.games.vtes.bots import VtesBot, vtes_bot
from engine.games.vtes.decks import Deck, bundled_decks
from engine.games.vtes.game import VTES
from engine.sim import GameRecord, SimTable, play_game


def vtes_table(
    decks: Sequence[Deck],
    options: Mapping[str, OptionValue] | None = None,
    seed: int = 0,
    kind: type[SimTable] = SimTable,
) -> SimTable:
    """An in-memory table (a ``kind``) with one seat per deck, every deck declared, shuffled and
    dealt: the first player is in its unlock phase. Seating comes from the seeded joint draw
    (``table.state.seating``, first player first). Raises OptionError/GameError from setup and
    IllegalMove for a deck of the wrong size.
    """
    private: dict[tuple[int, str], list[str]] = {}
    for s, deck in enumerate(decks):
        private.update(deck.private_decks(s))
    table = kind(VTES, len(decks), options, seed, private)
    for s, deck in enumerate(decks):
        table.play(s, deck.deck_act())
    table.run_ops()
    return table


def simulate_vtes(
    seats: int = 5,
    games: int = 1,
    seed: int = 0,
    bots: Sequence[str] | int | None = None,
    options: Mapping[str, OptionValue] | None = None,
    decks: Sequence[Deck] | None = None,
    on_note: Callable[[Note], None] | None = None,
    max_moves: int = 100_000,
) -> list[GameRecord]:
    """Play ``games`` whole VTES games between bots; game ``k`` uses seed ``seed + k``.

    ``bots``: bot levels, one per seat (``["heuristic", "random", …]``), or a number of seats
    (every bot "heuristic"), or None (``seats`` heuristic bots). ``decks``: decks to deal, cycled
    over the seats in a seeded random order (default: the shipped tournament-winning decks).
    ``options``: table options (``{"ruleset": "tournament"}``). Returns one
    :class:`engine.sim.GameRecord` per game: its ``result.scores`` are VP in half-points per seat.
    Raises OptionError/GameError for a bad seat count, option or bot level; RuntimeError if a game
    does not end within ``max_moves`` acts (a rules bug).
    """
    if isinstance(bots, int):
        seats, levels = bots, ["heuristic"] * bots
    elif bots is None:
        levels = ["heuristic"] * seats
    else:
        levels = list(bots)
        seats = len(levels)
    if not VTES.min_seats <= seats <= VTES.max_seats:
        raise GameError(f"VTES is played by {VTES.min_seats} to {VTES.max_seats} Methuselahs, not {seats}")
    records: list[GameRecord] = []
    for k in range(games):
        bots_k, private = _seat_bots(levels, seed + k, decks)
        records.append(play_game(VTES, bots_k, seed + k, options, private, on_note, max_moves))
    return records


def _seat_bots(
    levels: Sequence[str], seed: int, decks: Sequence[Deck] | None = None
) -> tuple[list[VtesBot], dict[tuple[int, str], list[str]]]:
    """Bots for one simulated game and the private decks to give :func:`engine.sim.play_game`.

    ``levels``: one bot level per seat; ``decks``: decks dealt in a ``seed``-random order, cycled
    over the seats (default: the shipped tournament-winning decks). Returns ``(bots,
    private_decks)``. Raises OptionError for an unknown level.
    """
    pool = list(decks) if decks else bundled_decks()
    rng = random.Random(seed)
    order = pool[:]
    rng.shuffle(order)
    chosen = [order[s % len(order)] for s in range(len(levels))]
    private: dict[tuple[int, str], list[str]] = {}
    for s, deck in enumerate(chosen):
        private.update(deck.private_decks(s))
    bots = [vtes_bot(level, chosen[s], seed * 101 + s) for s, level in enumerate(levels)]
    return bots, private
