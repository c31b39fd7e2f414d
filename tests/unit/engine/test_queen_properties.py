"""Vampire Queen properties over whole games between random bots, for random seeds and 3–12 seats.

The simulation stand-in (:class:`engine.sim.SimTable`) knows the truth behind every hidden position,
so these tests can follow every one of the 110 cards through a game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots import RandomBot
from engine.games.base import IllegalMove
from engine.games.queen import ALL_CARDS, DECK, GAME, HUNTERS, hand_size, is_queen, rank
from engine.sim import SimTable, play_game

seeds = st.integers(min_value=0, max_value=2**32 - 1)
seat_counts = st.integers(min_value=3, max_value=12)
whole_games = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_bots(seats: int, seed: int) -> list[RandomBot]:
    return [RandomBot(random.Random(f"{seed}/{s}")) for s in range(seats)]


def moves(seats: int, seed: int, options: dict | None = None) -> Iterator[SimTable]:
    """Play a game between random bots; yield the table once it waits for a move (after the table
    ran its operations) and again right after each move (before the table runs any)."""
    table = SimTable(GAME, seats, options, seed)
    bots = random_bots(seats, seed)
    while True:
        table.run_ops()
        yield table
        actors = table.pending().actors
        if not actors:
            return
        (seat,) = actors
        view = table.view(seat)
        legal = GAME.legal_acts(view)
        assert legal, "the seat to play always has a legal act"
        table.play(seat, bots[seat].choose(view, legal))
        yield table


def every_card(table: SimTable) -> Counter:
    """Where the 110 cards are now: hands, the trick, the discard, the undealt stock, the hunters.

    Hidden positions resolve through the table's truth; a public card's identity must match it.
    Asserts that no position is in two places.
    """
    state = table.state
    found: Counter = Counter()
    seen_positions: list[tuple[int, int]] = []
    for hand in state.hands:
        for card in hand:
            truth = table.truth[card.pos]
            assert card.ident in (None, truth)
            found[truth] += 1
            seen_positions.append(card.pos)
    if state.trick is not None:
        for play in state.trick.plays:
            found.update(play.cards)
            for pos, ident in zip(play.positions, play.cards, strict=False):  # a hunter lead has no position
                assert table.truth[pos] == ident
            seen_positions.extend(play.positions)
    found.update(state.discard)
    dealt = state.seats * hand_size(state.seats)
    assert state.stock == len(DECK) - dealt
    for index in range(dealt, len(DECK)):
        found[table.truth[(state.event, index)]] += 1
        seen_positions.append((state.event, index))
    for hunter, holder in zip(HUNTERS, state.hunters, strict=True):
        if holder >= 0:
            found[f"H{hunter}"] += 1
    assert len(seen_positions) == len(set(seen_positions))
    return found


def points_in_hand(table: SimTable) -> tuple[int, ...]:
    state = table.state
    return tuple(
        sum(rank(table.truth[c.pos]) for c in state.hands[s]) + sum(state.hunters_of(s)) for s in range(state.seats)
    )


@given(seed=seeds, seats=seat_counts)
@whole_games
def test_every_one_of_the_110_cards_is_somewhere_exactly_once_after_every_move(seed, seats):
    for table in moves(seats, seed):
        if table.state.phase in ("play", "score"):
            assert every_card(table) == Counter(ALL_CARDS)


@given(seed=seeds, seats=seat_counts, rounds=st.integers(min_value=1, max_value=5))
@whole_games
def test_every_game_ends_after_its_rounds_with_a_result(seed, seats, rounds):
    record = play_game(GAME, random_bots(seats, seed), seed, options={"rounds": rounds}, max_moves=20_000)
    assert len(record.result.scores) == seats
    assert sum("ends. Points in hand" in note.text for note in record.notes) == rounds
    low = min(record.result.scores)
    assert record.result.winners == tuple(s for s in range(seats) if record.result.scores[s] == low)


@given(seed=seeds, seats=seat_counts)
@whole_games
def test_the_scores_at_each_round_end_are_the_points_of_the_hands_at_that_moment(seed, seats):
    expected: list[tuple[int, ...]] = []
    final = None
    for table in moves(seats, seed):
        state = table.state
        if state.phase == "score" and len(expected) < state.round:
            expected.append(points_in_hand(table))
        final = state
    assert final is not None and final.phase == "over"
    assert list(final.round_scores) == expected
    assert final.totals == tuple(map(sum, zip(*expected, strict=True)))
    assert all(0 in scores for scores in expected)  # each round ends with someone holding nothing


def equivalence(act: dict, cards: dict[tuple[int, int], str]) -> tuple:
    """What an act does, regardless of which copies it names: the kind, and for a play the
    multiset of card ranks with Queens counted as Queens."""
    if act["do"] == "play":
        ranks = sorted("Q" if is_queen(cards[tuple(p)]) else str(rank(cards[tuple(p)])) for p in act["cards"])
        return ("play", tuple(ranks))
    if act["do"] == "hunter":
        return ("hunter", act["hunter"])
    return ("pass",)


def candidates(rng: random.Random, hand: list[tuple[tuple[int, int], str]], count: int) -> list[dict]:
    """Acts a seat might try: random subsets of its hand, sets of one number with or without
    Queens, a pass, and each hunter."""
    out: list[dict] = [{"do": "pass"}, {"do": "hunter", "hunter": 15}, {"do": "hunter", "hunter": 20}]
    positions = [pos for pos, _ in hand]
    for _ in range(count if hand else 0):
        if rng.random() < 0.5:
            picked = rng.sample(positions, rng.randint(1, min(len(positions), 5)))
        else:
            number = rng.choice([ident for _, ident in hand])
            same = [pos for pos, ident in hand if rank(ident) == rank(number) or is_queen(ident)]
            picked = rng.sample(same, rng.randint(1, len(same)))
        out.append({"do": "play", "cards": [list(p) for p in picked]})
    return out


@given(seed=seeds, seats=seat_counts, tries_seed=seeds)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_legal_acts_are_exactly_the_acts_that_check_accepts(seed, seats, tries_seed):
    tries = random.Random(tries_seed)
    for table in moves(seats, seed, {"rounds": 2}):
        state = table.state
        if state.phase != "play":
            continue
        seat = state.turn
        view = table.view(seat)
        hand = [(pos, ident) for pos, ident in view.hand]
        assert all(ident is not None for _, ident in hand)
        cards = dict(hand)
        legal = GAME.legal_acts(view)
        legal_kinds = [equivalence(a, cards) for a in legal]
        assert len(legal_kinds) == len(set(legal_kinds)), "one act per distinct play"
        for act in legal:
            GAME.check(state, seat, act, {p: table.truth[p] for p in GAME.to_open(state, seat, act)})
        for act in candidates(tries, hand, 8):
            revealed = {p: table.truth[p] for p in GAME.to_open(state, seat, act)}
            try:
                GAME.check(state, seat, act, revealed)
            except IllegalMove:
                accepted = False
            else:
                accepted = True
            assert accepted == (equivalence(act, cards) in legal_kinds), (act, legal)
        other = (seat + 1) % seats
        assert GAME.legal_acts(table.view(other)) == []


@given(seed=seeds, seats=seat_counts)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_same_seed_gives_the_same_game(seed, seats):
    first = [(t.state, len(t.notes)) for t in moves(seats, seed, {"rounds": 2})][-1]
    again = [(t.state, len(t.notes)) for t in moves(seats, seed, {"rounds": 2})][-1]
    assert first == again
    other = [(t.state, len(t.notes)) for t in moves(seats, seed + 1, {"rounds": 2})][-1]
    assert other[0].round_hands != first[0].round_hands
