"""The rollout engine agrees with the rules engine (shared/rules/vampire-queen.md): from random
reachable states, for 3–12 seats and every table option, both offer the same legal moves in the
same order, and the same random playout gives the same hands, tricks, totals and result move for
move, across round ends (the rollout is dealt the cards the simulated table shuffled)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.games.queen import GAME, HUNTERS, QUEEN, QueenState
from engine.games.queen.rollout import DECK_VALUES, PASS, Rollout, act_move, move_act, move_code
from engine.games.queen.rules import rank
from engine.sim import SimTable

options = st.fixed_dictionaries(
    {
        "rounds": st.integers(min_value=1, max_value=3),
        "queen_in_hunter_trick": st.sampled_from([14, 1]),
        "hunter_tie": st.sampled_from(["last", "first"]),
        "tie": st.sampled_from(["shared", "none"]),
    }
)
playouts = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def pick(rng: random.Random, options: list) -> int:
    """An index into ``options`` (rules acts or rollout moves, which come in the same order):
    uniform, except that a hunter lead on offer (always last) is taken half the time, so that
    hunter tricks, rare between uniform players, are well covered."""
    last = options[-1]
    if (last in (-15, -20) or (isinstance(last, dict) and last["do"] == "hunter")) and rng.random() < 0.5:
        return len(options) - 1
    return rng.randrange(len(options))


def advance(table: SimTable, moves: int, rng: random.Random) -> None:
    """Play up to ``moves`` random legal acts on the rules side (stops at the game's end)."""
    for _ in range(moves):
        table.run_ops()
        actors = table.pending().actors
        if not actors:
            return
        view = table.view(actors[0])
        legal = GAME.legal_acts(view)
        table.play(actors[0], legal[pick(rng, legal)])
    table.run_ops()


def same_position(state: QueenState, fast: Rollout, truth: dict) -> None:
    """Everything the two engines both keep is equal."""
    assert fast.turn == state.turn
    assert fast.hunters == list(state.hunters)
    assert fast.totals == list(state.totals)
    assert fast.round == state.round
    for s in range(state.seats):
        held = [0] * 15
        for card in state.hands[s]:
            held[rank(card.ident or truth[card.pos])] += 1
        assert fast.counts[s] == held, f"seat {s}"
        assert fast.sizes[s] == len(state.hands[s])
    if state.trick is None:
        assert not fast.in_trick
        assert fast.banned == state.banned
        assert fast.leader == state.leader
    else:
        assert fast.in_trick and fast.hunter == state.trick.hunter
        if state.trick.hunter:
            played = [(p.seat, p.value) for p in state.trick.plays[1:] if p.cards]
            assert [(seat, value) for seat, value, _ in fast.taken] == played
        else:
            assert (fast.best, fast.best_seat, fast.size) == (
                state.trick.best.value,
                state.trick.best.seat,
                state.trick.size,
            )


@playouts
@given(
    seats=st.integers(min_value=3, max_value=12),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    opts=options,
    before=st.integers(min_value=0, max_value=400),
)
def test_legal_moves_and_random_playouts_agree_move_for_move(seats, seed, opts, before):
    rng = random.Random(seed)
    table = SimTable(GAME, seats, opts, seed)
    advance(table, before, rng)
    if not table.pending().actors:
        return  # the game ended within ``before`` moves
    fast = Rollout.from_state(table.state, table.truth)
    fast.auto_deal = False
    while True:
        actors = table.pending().actors
        if not actors:
            break
        if fast.deal_due:
            event = table.state.event
            fast.deal([rank(table.truth[(event, i)]) for i in range(len(DECK_VALUES))])
        same_position(table.state, fast, table.truth)
        seat = actors[0]
        view = table.view(seat)
        legal = GAME.legal_acts(view)
        moves = fast.legal()
        assert [act_move(view, a) for a in legal] == moves
        assert [move_act(view, m) for m in moves] == legal
        move = moves[pick(rng, moves)]
        table.play(seat, move_act(view, move))
        fast.apply(move)
        table.run_ops()
    result = table.result()
    assert result is not None and fast.over
    assert fast.result() == type(result)(result.scores, result.winners, "")
    assert fast.round_scores == [list(r) for r in table.state.round_scores]


@settings(max_examples=30, deadline=None)
@given(seats=st.integers(min_value=3, max_value=12), seed=st.integers(min_value=0, max_value=2**32 - 1), opts=options)
def test_a_whole_rollout_game_ends_with_every_card_accounted_for(seats, seed, opts):
    game = Rollout.new_game(seats, opts, random.Random(seed))
    game.play_out(random.Random(seed + 1))
    assert game.over and game.result() is not None
    assert len(game.round_scores) == opts["rounds"]
    assert sum(game.totals) == sum(sum(r) for r in game.round_scores)
    winners = game.winners()
    low = min(game.totals)
    assert all(game.totals[s] == low for s in winners)
    assert winners or (opts["tie"] == "none" and game.totals.count(low) > 1)


def test_a_copy_plays_on_without_touching_the_original():
    game = Rollout.new_game(4, None, random.Random(3))
    before = (game.counts[0][:], game.sizes[:], game.turn)
    twin = game.copy()
    twin.play_out(random.Random(4))
    assert twin.over and not game.over
    assert (game.counts[0], game.sizes, game.turn) == before


def test_moves_name_value_numbers_and_queens():
    """The worked example's plays as moves: a pair of 9s made of a 9 and a Queen, a lone Queen."""
    assert move_code(9, 1, 1) == 9 | 1 << 4 | 1 << 7
    assert move_code(QUEEN, 0, 1) == 14 | 16
    assert PASS == 0 and sorted(-h for h in HUNTERS) == [-20, -15]


def test_a_rollout_only_starts_in_play():
    with pytest.raises(ValueError, match="in play"):
        Rollout.from_state(GAME.setup(4, {}), {})
