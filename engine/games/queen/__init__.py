"""Vampire Queen (shared/rules/vampire-queen.md): the rules in :mod:`.rules`, the spec the registry
reads in :mod:`.spec`."""

from engine.games.queen.rules import (
    ALL_CARDS,
    DECK,
    GAME,
    HUNTERS,
    QUEEN,
    Card,
    Do,
    HunterTie,
    Phase,
    QueenState,
    QueenView,
    Tie,
    card_word,
    hand_size,
    is_queen,
    rank,
    set_words,
)

__all__ = [
    "ALL_CARDS",
    "DECK",
    "GAME",
    "HUNTERS",
    "QUEEN",
    "Card",
    "Do",
    "HunterTie",
    "Phase",
    "QueenState",
    "QueenView",
    "Tie",
    "card_word",
    "hand_size",
    "is_queen",
    "rank",
    "set_words",
]
