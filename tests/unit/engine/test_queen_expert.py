"""The expert Vampire Queen bot: it decides from its seat's view only (what it infers of the hidden
cards is exactly what the public record allows), plays legal acts, replays the same from the same
seed, keeps to its thinking budget, and, over many games (slow), beats the other bots."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.games import find_game
from engine.games.queen import GAME
from engine.games.queen.belief import Belief
from engine.games.queen.bots import QueenHeuristic
from engine.games.queen.expert import DEFAULT_PLAYOUTS, QueenExpert, greedy_move
from engine.games.queen.rollout import Rollout
from engine.games.queen.rules import rank
from engine.sim import SimTable, play_game

SPEC = find_game("queen")


def expert(seed: object, playouts: int = 24) -> QueenExpert:
    """An expert with a tiny budget (deterministic, as every expert without a time cap)."""
    return QueenExpert(random.Random(str(seed)), playouts=playouts)


def walk(table: SimTable, moves: int, rng: random.Random) -> None:
    """Random legal acts until ``moves`` were made or the game waits for nobody."""
    for _ in range(moves):
        table.run_ops()
        actors = table.pending().actors
        if not actors:
            return
        view = table.view(actors[0])
        table.play(actors[0], rng.choice(GAME.legal_acts(view)))
    table.run_ops()


def hidden_from(table: SimTable, seat: int) -> list[tuple[int, int]]:
    """The positions of this round whose cards ``seat`` has not seen: other hands and the stock."""
    event = table.state.event
    known = table.known_to(seat)
    return [p for p in table.truth if p[0] == event and p not in known]


def test_the_spec_offers_the_expert_first_and_seats_it_by_default():
    assert SPEC.bot_levels[0] == "expert" and SPEC.default_bot == "expert"
    bot = SPEC.bot("expert", random.Random(0))
    assert isinstance(bot, QueenExpert) and bot.playouts == DEFAULT_PLAYOUTS and bot.max_seconds is None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(min_value=3, max_value=12),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    moves=st.integers(min_value=0, max_value=250),
)
def test_the_belief_holds_exactly_the_cards_the_seat_has_not_seen(seats, seed, moves):
    table = SimTable(GAME, seats, {"rounds": 2}, seed)
    walk(table, moves, random.Random(seed))
    actors = table.pending().actors
    if not actors:
        return
    seat = actors[0]
    belief = Belief.of(table.view(seat))
    hidden = hidden_from(table, seat)
    assert Counter(belief.unseen) == Counter(rank(table.truth[p]) for p in hidden)
    state = table.state
    for s in range(seats):
        expected = 0 if s == seat else sum(c.ident is None for c in state.hands[s])
        assert belief.hidden[s] == expected
    sample = belief.sample(random.Random(seed))
    truth = Rollout.from_state(state, table.truth)
    assert sample.counts[seat] == truth.counts[seat]
    assert sample.sizes == truth.sizes and sample.hunters == truth.hunters and sample.turn == truth.turn
    for s in range(seats):
        assert sum(sample.counts[s]) == sample.sizes[s]


def test_the_expert_decides_the_same_whatever_the_other_seats_hide():
    """Two tables that differ only in the cards a seat cannot see (the other hands and the stock,
    shuffled among themselves) give it the same view and the expert the same decision."""
    checked = 0
    for seed in range(4):
        table = SimTable(GAME, 4, {"rounds": 1}, seed)
        rng = random.Random(seed)
        for step in range(0, 120, 6):
            walk(table, 6, rng)
            actors = table.pending().actors
            if not actors:
                break
            seat = actors[0]
            view = table.view(seat)
            legal = GAME.legal_acts(view)
            if len(legal) < 2:
                continue
            hidden = hidden_from(table, seat)
            idents = [table.truth[p] for p in hidden]
            random.Random(step).shuffle(idents)
            twin = SimTable(GAME, 4, {"rounds": 1}, 0)
            twin.state, twin.known, twin.public = table.state, table.known, table.public
            twin.truth = {**table.truth, **dict(zip(hidden, idents, strict=True))}
            assert [twin.truth[p] for p in hidden] != [table.truth[p] for p in hidden] or len(set(idents)) == 1
            twin_view = twin.view(seat)
            assert twin_view == view
            mine = expert(step).choose(view, legal)
            theirs = expert(step).choose(twin_view, GAME.legal_acts(twin_view))
            assert mine == theirs
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("seats, seed", [(3, 1), (12, 2)])
def test_experts_play_whole_games_of_legal_acts_and_replay_them_from_their_seeds(seats, seed):
    """play_game checks and applies every act through the rules; the same seeds replay the game
    note for note."""

    def run() -> list[str]:
        bots = [expert(f"{seed}/{s}", playouts=8) for s in range(seats)]
        record = play_game(GAME, bots, seed=seed, options={"rounds": 1})
        return [n.text for n in record.notes]

    first = run()
    assert any("Round 1 ends" in text for text in first)
    assert run() == first


def test_the_expert_spends_its_budget_and_no_more_than_its_time_cap():
    table = SimTable(GAME, 4, {"rounds": 1}, 5)
    table.run_ops()
    seat = table.pending().actors[0]
    view = table.view(seat)
    legal = GAME.legal_acts(view)
    counted = expert(0, playouts=50)
    assert counted.choose(view, legal) in legal
    assert (counted.thinking.decisions, counted.thinking.playouts) == (1, 50)
    # the time cap, on a clock that moves a millisecond each time it is read: read every 8 playouts,
    # so 0.05 s of it is about 50 reads, 400 playouts
    ticks = iter(range(10**9))
    capped = QueenExpert(
        random.Random(0), playouts=10**9, max_seconds=0.05, max_moves=10**12, clock=lambda: next(ticks) / 1000
    )
    assert capped.choose(view, legal) in legal
    assert 8 <= capped.thinking.playouts <= 8 * 52
    # The counted budget: simulations stop once the simulated moves reach max_moves (each root
    # move is still tried once), the same number every time.
    runs = [QueenExpert(random.Random(1), playouts=10**9, max_moves=2_000) for _ in range(2)]
    assert runs[0].choose(view, legal) == runs[1].choose(view, legal)
    assert runs[0].thinking.playouts == runs[1].thinking.playouts
    assert len(legal) <= runs[0].thinking.playouts < 2_000


def test_the_expert_with_one_choice_does_not_think():
    bot = expert(0)
    table = SimTable(GAME, 3, {"rounds": 1}, 0)
    table.run_ops()
    view = table.view(table.pending().actors[0])
    assert bot.choose(view, [{"do": "pass"}]) == {"do": "pass"}
    assert bot.choose(view, []) is None
    assert bot.thinking.decisions == 0


def test_an_expert_needs_a_budget():
    with pytest.raises(ValueError, match="at least one simulation"):
        QueenExpert(random.Random(0), playouts=0)


@settings(max_examples=30, deadline=None)
@given(seats=st.integers(min_value=3, max_value=12), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_the_greedy_simulation_policy_always_moves_legally(seats, seed):
    rng = random.Random(seed)
    game = Rollout.new_game(seats, {"rounds": 2, "queen_in_hunter_trick": rng.choice([14, 1])}, rng)
    while not game.over:
        move = greedy_move(game, rng)
        assert move in game.legal()
        game.apply(move)


STRENGTH_GAMES = 1000
STRENGTH_PLAYOUTS = 300
"""The strength runs give the expert fewer simulations than its default, to fit the run's time:
it is at least as strong at its default budget."""


def strength(opponent: str, games: int = STRENGTH_GAMES) -> float:
    """The expert's share of wins (a shared win counts its share) in ``games`` four-seat games
    against three ``opponent`` bots, its seat rotating, every bot seeded by game and seat."""
    wins = 0.0
    for game in range(games):
        seat = game % 4
        bots = [
            QueenExpert(random.Random(f"{game}/{s}"), STRENGTH_PLAYOUTS)
            if s == seat
            else SPEC.bot(opponent, random.Random(f"{game}/{s}"))
            for s in range(4)
        ]
        result = play_game(GAME, bots, seed=game).result
        if seat in result.winners:
            wins += 1 / len(result.winners)
        if (game + 1) % 100 == 0:
            print(f"expert vs 3 {opponent}: {wins:.1f} wins in {game + 1} games", flush=True)
    return wins / games


@pytest.mark.slow
def test_the_expert_wins_at_least_40_percent_against_three_heuristic_bots():
    share = strength("heuristic")
    print(f"expert vs 3 heuristic: {share:.3f} of {STRENGTH_GAMES} games")
    assert share >= 0.40


@pytest.mark.slow
def test_the_expert_wins_at_least_90_percent_against_three_random_bots():
    share = strength("random")
    print(f"expert vs 3 random: {share:.3f} of {STRENGTH_GAMES} games")
    assert share >= 0.90


def test_a_hand_not_yet_opened_to_its_seat_falls_back_to_rules_of_thumb():
    table = SimTable(GAME, 4, {"rounds": 1}, 6)
    table.run_ops()
    seat = table.pending().actors[0]
    view = table.view(seat)
    hidden = dataclasses.replace(view, hand=((view.hand[0][0], None), *view.hand[1:]))
    with pytest.raises(ValueError, match="not fully opened"):
        Belief.of(hidden)
    legal = GAME.legal_acts(hidden)
    assert expert(0).choose(hidden, legal) == QueenHeuristic(random.Random(0)).choose(hidden, legal)
