"""Bots bring a deck unlike the person's and each other's (while the game ships enough), so that
few vampires are contested at a table against bots: the seat kit's choice (``SeatKit.for_bot``
with what is taken), the bot factories of ``vampire play``, ``host`` and the lobby sharing one
list, a local game and ``vampire simulate``; the same seed gives the same decks."""

from __future__ import annotations

import random
from typing import Any

from engine.games import find_game
from engine.games.vtes.decks import bundled_deck_names
from engine.games.vtes.simulate import _seat_bots
from engine.local import new_local_game
from net.local import bot_factory


def _kit() -> Any:
    kit = find_game("vtes").kit
    assert kit is not None
    return kit()


def test_a_bot_never_brings_the_deck_a_person_brings_while_another_is_shipped() -> None:
    kit = _kit()
    mine = kit.for_bot(random.Random(1))
    for seed in range(20):
        assert kit.for_bot(random.Random(seed), [mine]).name != mine.name


def test_bots_at_a_table_against_you_bring_six_different_decks_and_the_same_for_the_same_seed() -> None:
    def table(seed: int) -> list[str]:
        yours = _kit().for_bot(random.Random(seed))
        taken: list[Any] = [yours]  # as vampire play shares it between its bots
        rng = random.Random(seed)
        bots = [bot_factory("heuristic", random.Random(rng.random()), taken=taken)("vtes") for _ in range(5)]
        return [yours.name, *(bot.deck.name for bot in bots)]

    names = table(7)
    assert len(set(names)) == 6 and set(names) <= set(bundled_deck_names())
    assert table(7) == names


def test_when_every_shipped_deck_is_taken_a_bot_still_brings_one() -> None:
    kit = _kit()
    taken: list[Any] = []
    for s in range(len(bundled_deck_names())):
        taken.append(kit.for_bot(random.Random(s), taken))
    assert {d.name for d in taken} == set(bundled_deck_names())
    assert kit.for_bot(random.Random(0), taken).name in bundled_deck_names()


def test_a_local_game_seats_five_different_decks() -> None:
    game = new_local_game("vtes", ["heuristic"] * 5, seed=3)
    names = [bot.deck.name for bot in game.bots]
    assert len(set(names)) == 5
    assert names == [bot.deck.name for bot in new_local_game("vtes", ["heuristic"] * 5, seed=3).bots]


def test_simulated_bots_play_different_decks() -> None:
    bots, _ = _seat_bots(["heuristic"] * 5, seed=11)
    assert len({bot.deck.name for bot in bots if bot.deck is not None}) == 5


def test_a_bot_brings_a_deck_sharing_the_fewest_vampires_with_the_decks_taken() -> None:
    """Two shipped decks share most of their crypt (atraco, malkavian_politics): against the first,
    a bot never brings the second while a deck sharing none is free (rulebook, "Contested Cards")."""
    from engine.games.vtes.kept_decks import remembered_bundled_deck

    kit = _kit()
    atraco = remembered_bundled_deck("atraco")
    theirs = {card for card, _ in atraco.crypt}
    for seed in range(20):
        chosen = kit.for_bot(random.Random(seed), [atraco])
        assert not {card for card, _ in chosen.crypt} & theirs, chosen.name
