"""Whole VTES games between structural bots, and what each seat's view may hold
(shared/rules/vtes.md; DESIGN.md: simulation uses the same module through engine.sim)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.base import OptionError
from engine.games.vtes import VTES, archon_problems, bundled_decks
from engine.games.vtes.bots import VtesBot, vtes_bot
from engine.games.vtes.simulate import simulate_vtes
from engine.games.vtes.view import CardView
from engine.sim import SimTable, bots_choose, next_act, play_game


@pytest.fixture(scope="module")
def decks():
    return bundled_decks()


def test_a_five_seat_bot_game_ends_by_ousts_with_correct_vp(decks):
    chosen = [decks[s % len(decks)] for s in range(5)]
    private = {}
    for seat, deck in enumerate(chosen):
        private[(seat, f"crypt/{seat}")] = deck.crypt_identities()
        private[(seat, f"library/{seat}")] = deck.library_identities()
    bots = [VtesBot(deck, seed=seat) for seat, deck in enumerate(chosen)]
    record = play_game(VTES, bots, seed=7, private_decks=private, max_moves=20_000)
    texts = [n.text for n in record.notes]
    left = sum("is ousted" in t for t in texts) + sum("withdraws from the game" in t for t in texts)
    assert left == 4
    assert sum("is the last Methuselah" in t for t in texts) == 1
    scores = record.result.scores
    assert sum(scores) == 10  # 1 VP per Methuselah leaving, 1 for the last one
    assert record.result.winners == (scores.index(max(scores)),) or scores.count(max(scores)) > 1


def test_a_tournament_bot_game_passes_the_archon_checks(decks):
    table = SimTable(VTES, 4, {"ruleset": "tournament"}, seed=3, private_decks=_private(decks, 4))
    bots = [VtesBot(decks[s], seed=s) for s in range(4)]
    _play(table, bots, max_moves=20_000)
    assert table.state.step == "over" and table.state.end == "last"
    assert archon_problems(table.state) == []
    assert sum((v + 1) // 2 for v in table.result().scores) == 4


@pytest.mark.parametrize("seats", [2, 3, 6])
def test_simulate_vtes_plays_every_table_size(seats):
    (record,) = simulate_vtes(seats=seats, games=1, seed=seats)
    assert len(record.result.scores) == seats
    assert sum(record.result.scores) == 2 * seats


def test_simulate_vtes_with_bot_levels_and_options():
    records = simulate_vtes(
        games=2, seed=1, bots=["heuristic", "random", "heuristic", "random"], options={"ruleset": "tournament"}
    )
    assert len(records) == 2 and all(len(r.result.scores) == 4 for r in records)
    with pytest.raises(OptionError, match="no VTES bot level"):
        vtes_bot("genius")


def test_simulation_is_reproducible_from_its_seed():
    a = simulate_vtes(seats=3, games=1, seed=11)[0]
    b = simulate_vtes(seats=3, games=1, seed=11)[0]
    assert (a.moves, a.result) == (b.moves, b.result)
    assert [n.text for n in a.notes] == [n.text for n in b.notes]


# --- what a view may hold ------------------------------------------------------------------------


def _private(decks, seats):
    private = {}
    for seat in range(seats):
        private.update(decks[seat % len(decks)].private_decks(seat))
    return private


def _play(table: SimTable, bots, max_moves: int, check=None) -> None:
    while table.moves < max_moves:
        table.run_ops()
        if check:
            check(table)
        if not next_act(table, bots_choose(bots)):
            return


def _cards_in(view) -> list[CardView]:
    return list(view.cards) + list(view.hand) + list(view.known_positions)


def assert_views_hide_other_seats_cards(table: SimTable) -> None:
    for seat in range(table.seats):
        view = table.view(seat)
        for card in _cards_in(view):
            if not card.card:
                continue
            assert card.card == table.truth[card.pos]
            # a known identity is public, or one of this seat's own cards opened to it
            assert card.pos in table.public or (card.owner == seat and card.pos in table.known[seat]), (
                f"seat {seat} sees {card.card} at {card.pos}, a hidden card of seat {card.owner}"
            )
        for other in view.players:
            if other.seat != seat:
                assert not any(c.owner == other.seat for c in view.hand)
    spectator = table.view(None)
    assert spectator.hand == () and spectator.known_positions == ()
    assert all(not c.card or c.pos in table.public for c in spectator.cards)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000), seats=st.integers(2, 5), randomness=st.sampled_from([0.0, 0.3]))
def test_no_view_ever_holds_another_seats_hidden_cards(seed, seats, randomness):
    decks = bundled_decks()
    rng = random.Random(seed)
    chosen = [decks[rng.randrange(len(decks))] for _ in range(seats)]
    private = {}
    for seat, deck in enumerate(chosen):
        private.update(deck.private_decks(seat))
    table = SimTable(VTES, seats, {}, seed=seed, private_decks=private)
    bots = [VtesBot(deck, seed=seed + s, randomness=randomness) for s, deck in enumerate(chosen)]
    _play(table, bots, max_moves=250, check=assert_views_hide_other_seats_cards)
