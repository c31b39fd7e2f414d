"""Vampire Queen, one rule per test (shared/rules/vampire-queen.md).

Each test sets a table in a chosen position and plays it through ``GAME.check`` / ``GAME.apply``
the way the table does: hidden cards are positions, and a play passes the identities it opens in
``revealed``. States are immutable values, so "the state is unchanged" after a refused act means:
the engine raised and returned nothing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from engine.bots import RandomBot
from engine.games.base import Draw, EndEvent, GameError, IllegalMove, MalformedAct, OptionError, Shuffle
from engine.games.queen import DECK, GAME, Card, Phase, QueenState
from engine.protocol.codec import encode
from engine.sim import SimTable, play_game

EVENT = 1  # the shuffle event of the round being played (round 1 was event 0)
NAMES = [f"seat {s}" for s in range(12)]


class Table:
    """A Vampire Queen table set in a chosen position, played act by act through the engine.

    ``hands``: per seat, the identities of the cards it holds (``"5-0"``, ``"Q-1"``); they sit at
    positions of one shuffle event, hidden unless named in ``shown`` (public cards, as if taken in a
    hunter trick). ``h15``/``h20``: the seats holding the hunters; Hunter 20's holder leads unless
    ``leader`` says otherwise. Extra keyword arguments are table options.
    """

    def __init__(
        self,
        hands: list[list[str]],
        *,
        h15: int,
        h20: int,
        leader: int | None = None,
        round_no: int = 2,
        shown: tuple[str, ...] = (),
        totals: tuple[int, ...] | None = None,
        **options: Any,
    ) -> None:
        self.truth: dict[tuple[int, int], str] = {}
        built = []
        for hand in hands:
            cards = []
            for ident in hand:
                pos = (EVENT, len(self.truth))
                self.truth[pos] = ident
                cards.append(Card(pos, ident if ident in shown else None))
            built.append(tuple(cards))
        seats = len(hands)
        self.state: QueenState = replace(
            GAME.setup(seats, options),
            phase="play",
            round=round_no,
            event=EVENT,
            dealt=seats,
            stock=len(DECK) - len(self.truth),
            hands=tuple(built),
            hunters=(h15, h20),
            leader=h20 if leader is None else leader,
            totals=totals if totals is not None else (0,) * seats,
        )
        self.lines: list[str] = []

    # -- acts ------------------------------------------------------------------------------------

    def positions(self, seat: int, *idents: str) -> list[list[int]]:
        """The positions in ``seat``'s hand of the cards ``idents``, as an act lists them."""
        free = list(self.state.hands[seat])
        out = []
        for ident in idents:
            card = next(c for c in free if (c.ident or self.truth[c.pos]) == ident)
            free.remove(card)
            out.append(list(card.pos))
        return out

    def opened_by(self, act: Any) -> dict[tuple[int, int], str]:
        """What the table would verify and pass with ``act``: the identities of the positions it names."""
        named = act.get("cards") if isinstance(act, dict) else None
        if not isinstance(named, list):
            return {}
        pairs = [tuple(p) for p in named if isinstance(p, list) and len(p) == 2]
        return {p: self.truth[p] for p in pairs if p in self.truth}

    def act(self, seat: int, act: dict) -> Table:
        """Make ``act`` for ``seat``: check it, apply it, keep the narration."""
        revealed = self.opened_by(act)
        GAME.check(self.state, seat, act, revealed)
        self.lines.append(GAME.describe(self.state, seat, act, revealed).render(NAMES))
        self.state, notes = GAME.apply(self.state, seat, act, revealed)
        self.lines.extend(note.render(NAMES) for note in notes)
        return self

    def play(self, seat: int, *idents: str) -> Table:
        return self.act(seat, {"do": "play", "cards": self.positions(seat, *idents)})

    def passes(self, seat: int) -> Table:
        return self.act(seat, {"do": "pass"})

    def leads_hunter(self, seat: int, hunter: int) -> Table:
        return self.act(seat, {"do": "hunter", "hunter": hunter})

    def refusal(self, seat: int, act: Any, revealed: dict | None = None, error: type[GameError] = IllegalMove) -> str:
        """The sentence with which the engine refuses ``act`` (with ``error``: IllegalMove for a
        rule, MalformedAct for a wrong shape); check and apply both refuse it and the table keeps
        its state."""
        revealed = self.opened_by(act) if revealed is None else revealed
        before = self.state
        with pytest.raises(error) as refused:
            GAME.check(before, seat, act, revealed)
        with pytest.raises(error):
            GAME.apply(before, seat, act, revealed)
        assert self.state is before
        message = str(refused.value)
        assert message and " " in message  # a sentence, not a code
        return message.lower()

    def refusal_of_play(self, seat: int, *idents: str) -> str:
        return self.refusal(seat, {"do": "play", "cards": self.positions(seat, *idents)})

    # -- what everyone sees ----------------------------------------------------------------------

    def hand(self, seat: int) -> Counter:
        """The identities ``seat`` holds (hidden ones resolved from the truth), hunters apart."""
        return Counter(c.ident or self.truth[c.pos] for c in self.state.hands[seat])

    def public_cards(self, seat: int) -> Counter:
        return Counter(c.ident for c in self.state.hands[seat] if c.ident is not None)

    @property
    def actors(self) -> tuple[int, ...]:
        return GAME.pending(self.state).actors

    def legal(self, seat: int) -> list[dict]:
        known = {c.pos: self.truth[c.pos] for c in self.state.hands[seat]}
        return GAME.legal_acts(GAME.view(self.state, seat, known))

    def end_round(self) -> Table:
        """Reveal the round's seeds: fold the EndEvent whose outcome is the event's whole row."""
        assert self.state.phase == "score"
        spare = Counter(DECK) - Counter(self.truth.values())
        rest = sorted(spare.elements())
        row = tuple(self.truth.get((EVENT, i)) or rest.pop() for i in range(len(DECK)))
        assert Counter(row) == Counter(DECK)
        (op,) = GAME.pending(self.state).ops
        assert op == EndEvent(EVENT)
        self.state, notes = GAME.resolve(self.state, op, row)
        self.lines.extend(note.render(NAMES) for note in notes)
        return self


def next_round_on_a_sim_table(state: QueenState, seed: int = 1) -> SimTable:
    """Hand a state between rounds to the simulation stand-in, which shuffles and deals the next round."""
    table = SimTable(GAME, state.seats, seed=seed)
    table.state = state
    table.run_ops()
    return table


def worked_example() -> Table:
    """The rule page's worked example: 3 players, round 2; seat 1 holds Hunter 20, seat 2 Hunter 15."""
    return Table(
        [
            ["3-0", "4-0", "6-0", "11-0"],
            ["5-0", "5-1", "Q-1", "8-0", "10-0"],
            ["9-0", "Q-0", "2-0", "12-0"],
        ],
        h15=2,
        h20=1,
    )


# --- the worked example -----------------------------------------------------------------------


def test_worked_example_plays_out_as_the_rule_page_says():
    t = worked_example()
    assert t.actors == (1,)

    t.play(1, "5-0", "5-1")
    t.play(2, "9-0", "Q-0")  # a pair of 9s
    t.passes(0)
    assert t.state.last_trick.plays[1].value == 9
    assert "seat 2 wins the trick." in t.lines
    assert Counter(t.state.discard) == Counter(["5-0", "5-1", "9-0", "Q-0"])
    assert t.state.leader == 2 and t.actors == (2,)

    t.leads_hunter(2, 15)
    assert t.actors == (0,)
    assert "play one card" in t.refusal(0, {"do": "pass"})  # seat 0 must play a card
    t.play(0, "3-0")
    t.play(1, "Q-1")
    assert [p.value for p in t.state.last_trick.plays] == [0, 3, 14]  # the Queen counts 14

    assert t.state.hunters == (1, 1)  # seat 1 took Hunter 15 and still holds Hunter 20
    assert t.public_cards(1) == Counter(["3-0", "Q-1"])
    assert t.hand(1) == Counter(["8-0", "10-0", "3-0", "Q-1"])
    assert t.hand(2) == Counter(["2-0", "12-0"])  # seat 2 gave up Hunter 15 and took nothing
    assert "seat 1 takes Hunter 15, a 3 and a Queen." in t.lines
    assert t.state.leader == 1 and t.actors == (1,)

    assert "hunter 15" in t.refusal(1, {"do": "hunter", "hunter": 15})
    GAME.check(t.state, 1, {"do": "hunter", "hunter": 20}, {})
    hunters_legal = [a["hunter"] for a in t.legal(1) if a["do"] == "hunter"]
    assert hunters_legal == [20]


# --- sets -------------------------------------------------------------------------------------


def test_queens_join_a_set_and_stand_for_its_number():
    t = Table([["7-0", "7-1", "Q-0", "1-0"], ["8-0", "8-1", "8-2", "2-0"], ["3-0", "4-0"]], h15=2, h20=0)
    t.play(0, "7-0", "Q-0", "7-1")
    assert t.lines[-1] == "seat 0 leads three 7s (7, 7, Queen)."
    assert t.state.trick.plays[0].value == 7
    t.play(1, "8-0", "8-1", "8-2")  # seat 2 cannot follow three cards: the trick ends
    assert t.state.last_trick.best.seat == 1


def test_a_set_of_queens_only_is_worth_14():
    t = Table([["13-0", "13-1", "1-0"], ["Q-0", "Q-1", "2-0"], ["3-0", "4-0"]], h15=2, h20=0)
    t.play(0, "13-0", "13-1")
    t.play(1, "Q-0", "Q-1")
    assert t.state.trick.plays[-1].value == 14
    assert t.lines[-1] == "seat 1 plays two Queens."


def test_a_lone_queen_is_a_single_14():
    t = Table([["13-0", "1-0"], ["Q-0", "2-0"], ["3-0", "4-0"]], h15=2, h20=0)
    t.play(0, "13-0")
    t.play(1, "Q-0")
    assert t.state.trick.best.value == 14


def test_cards_of_two_numbers_are_not_a_set():
    t = Table([["7-0", "8-0", "1-0"], ["2-0"], ["3-0"]], h15=2, h20=0)
    assert "one number" in t.refusal_of_play(0, "7-0", "8-0")


# --- a normal trick ---------------------------------------------------------------------------


def test_a_follow_must_be_the_same_size_as_the_lead():
    t = Table([["5-0", "5-1", "1-0"], ["9-0", "9-1", "9-2", "2-0"], ["3-0", "4-0"]], h15=2, h20=0)
    t.play(0, "5-0", "5-1")
    assert "2 cards" in t.refusal_of_play(1, "9-0")
    assert "2 cards" in t.refusal_of_play(1, "9-0", "9-1", "9-2")


def test_a_follow_must_be_strictly_higher_than_the_highest_set_so_far():
    t = Table([["5-0", "1-0"], ["9-0", "2-0"], ["9-1", "7-0", "3-0"]], h15=2, h20=0)
    t.play(0, "5-0")
    t.play(1, "9-0")
    assert "higher than 9" in t.refusal_of_play(2, "9-1")  # equal is not higher
    assert "higher than 9" in t.refusal_of_play(2, "7-0")  # higher than the lead is not enough


def test_queens_follow_a_pair_of_13s_but_not_a_pair_of_queens():
    t = Table([["13-0", "13-1", "1-0"], ["Q-0", "Q-1", "2-0"], ["Q-2", "Q-3", "3-0"]], h15=2, h20=0)
    t.play(0, "13-0", "13-1")
    t.play(1, "Q-0", "Q-1")
    assert "higher than 14" in t.refusal_of_play(2, "Q-2", "Q-3")


def test_each_player_gets_exactly_one_turn_in_a_trick():
    t = Table([["5-0", "1-0", "1-1"], ["9-0", "9-1", "2-0"], ["3-0", "4-0"]], h15=2, h20=0)
    t.play(0, "5-0")
    t.passes(1)
    assert t.actors == (2,)
    assert "not your turn" in t.refusal_of_play(1, "9-0")  # passed: does not play again
    t.passes(2)
    assert t.state.trick is None  # after the last turn the trick is over, not back to the leader
    assert t.state.last_trick.waiting == ()
    assert [p.seat for p in t.state.last_trick.plays] == [0, 1, 2]


def test_play_passes_clockwise_wrapping_round_the_table():
    t = Table([["1-0", "1-1"], ["2-0", "2-1"], ["3-0", "3-1"], ["4-0", "4-1"]], h15=1, h20=2)
    t.play(2, "3-0")
    assert t.state.trick.waiting == (3, 0, 1)


def test_the_leader_wins_when_everybody_passes():
    t = Table([["5-0", "1-0"], ["9-0", "2-0"], ["3-0", "4-0"]], h15=2, h20=0)
    t.play(0, "5-0").passes(1).passes(2)
    assert "seat 0 wins the trick." in t.lines
    assert t.state.leader == 0 and t.actors == (0,)
    assert t.state.discard == ("5-0",)


def test_the_highest_set_wins_and_every_played_card_is_discarded():
    t = Table([["5-0", "1-0"], ["9-0", "2-0"], ["7-0", "3-0"], ["6-0", "8-0"]], h15=2, h20=0)
    t.play(0, "5-0").play(1, "9-0").passes(2).passes(3)
    assert t.state.leader == 1
    assert Counter(t.state.discard) == Counter(["5-0", "9-0"])
    assert t.hand(2) == Counter(["7-0", "3-0"]) and t.hand(3) == Counter(["6-0", "8-0"])


def test_a_player_with_fewer_cards_than_the_lead_passes_without_an_act():
    t = Table([["5-0", "5-1", "1-0"], ["9-0", "2-0", "2-1"], ["3-0"]], h15=1, h20=0)
    t.play(0, "5-0", "5-1").passes(1)
    assert t.state.trick is None  # seat 2, with one card, could not follow a pair
    assert t.state.last_trick.plays[-1].seat == 2 and t.state.last_trick.plays[-1].forced
    assert "seat 2 cannot play 2 cards and passes." in t.lines


# --- a hunter trick ---------------------------------------------------------------------------


def hunter_trick_table(**options: Any) -> Table:
    """4 players; seat 0 holds both hunters and leads."""
    return Table(
        [["1-0", "2-0"], ["9-0", "Q-0", "3-0"], ["9-1", "2-1", "4-0"], ["13-0", "9-2", "5-0"]],
        h15=0,
        h20=0,
        **options,
    )


def test_hunter_trick_nobody_may_pass():
    t = hunter_trick_table().leads_hunter(0, 20)
    assert "nobody may pass" in t.refusal(1, {"do": "pass"})


def test_hunter_trick_each_player_plays_exactly_one_card():
    t = hunter_trick_table().leads_hunter(0, 20)
    assert "exactly one card" in t.refusal_of_play(1, "9-0", "Q-0")


def test_hunter_trick_any_value_may_follow():
    t = hunter_trick_table().leads_hunter(0, 20)
    t.play(1, "9-0").play(2, "2-1")  # lower than what was played before: allowed
    assert t.actors == (3,)


def test_hunter_trick_winner_takes_every_card_played_and_the_hunter_as_public_cards():
    t = hunter_trick_table().leads_hunter(0, 20)
    assert t.state.hunters == (0, -1)  # the led hunter is on the table
    t.play(1, "3-0").play(2, "4-0").play(3, "13-0")
    assert t.state.hunters == (0, 3)
    assert t.public_cards(3) == Counter(["3-0", "4-0", "13-0"])
    assert t.hand(3) == Counter(["3-0", "4-0", "13-0", "9-2", "5-0"])
    assert t.state.discard == ()  # nothing from a hunter trick is discarded
    assert t.state.leader == 3 and t.actors == (3,)
    assert "seat 3 takes Hunter 20, a 3, a 4 and a 13." in t.lines


def test_hunter_trick_queen_counts_14_by_default():
    t = hunter_trick_table().leads_hunter(0, 15)
    t.play(1, "Q-0").play(2, "4-0").play(3, "13-0")
    assert t.state.hunters[0] == 1


def test_hunter_trick_queen_counts_1_with_queen_in_hunter_trick_1():
    t = hunter_trick_table(queen_in_hunter_trick=1).leads_hunter(0, 15)
    t.play(1, "Q-0").play(2, "2-1").play(3, "5-0")
    assert [p.value for p in t.state.last_trick.plays] == [0, 1, 2, 5]
    t = Table([["1-0", "2-0"], ["Q-0", "3-0"], ["2-1", "4-0"]], h15=0, h20=0, queen_in_hunter_trick=1)
    t.leads_hunter(0, 15).play(1, "Q-0").play(2, "2-1")
    assert t.state.hunters[0] == 2  # a 2 beats a Queen worth 1


def test_hunter_trick_tie_goes_to_last_player():
    t = hunter_trick_table().leads_hunter(0, 20)
    t.play(1, "9-0").play(2, "9-1").play(3, "5-0")
    assert t.state.hunters[1] == 2


def test_hunter_trick_tie_goes_to_first_player_with_hunter_tie_first():
    t = hunter_trick_table(hunter_tie="first").leads_hunter(0, 20)
    t.play(1, "9-0").play(2, "9-1").play(3, "9-2")
    assert t.state.hunters[1] == 1


def test_hunter_trick_winner_may_not_lead_the_hunter_just_taken():
    t = hunter_trick_table().leads_hunter(0, 20)
    t.play(1, "3-0").play(2, "4-0").play(3, "13-0")
    message = t.refusal(3, {"do": "hunter", "hunter": 20})
    assert "hunter 20" in message and "just ended" in message
    assert {"do": "hunter", "hunter": 20} not in t.legal(3)


def test_hunter_trick_winner_may_lead_the_other_hunter():
    t = Table([["1-0", "13-0"], ["2-0", "3-0"], ["4-0", "5-0"]], h15=0, h20=2, leader=2)
    t.leads_hunter(2, 20).play(0, "13-0").play(1, "2-0")
    assert t.state.hunters == (0, 0) and t.state.leader == 0
    assert "hunter 20" in t.refusal(0, {"do": "hunter", "hunter": 20})
    t.leads_hunter(0, 15)
    assert t.state.trick.hunter == 15


def test_the_ban_on_the_hunter_just_taken_lasts_for_the_next_lead_only():
    t = Table([["1-0", "13-0", "13-1"], ["2-0", "3-0", "4-0"], ["5-0", "6-0", "7-0"]], h15=1, h20=1)
    t.leads_hunter(1, 15).play(2, "5-0").play(0, "13-0")
    assert t.state.hunters == (0, 1) and t.state.banned == 15
    t.play(0, "13-1").passes(1).passes(2)  # seat 0 leads something else and wins again
    assert t.state.leader == 0 and t.state.banned == 0
    t.leads_hunter(0, 15)
    assert t.state.trick.hunter == 15


def test_the_ban_on_the_hunter_just_taken_never_carries_into_the_next_round():
    # Seat 2 plays its last card into the hunter trick; seat 1 wins it: the round ends there.
    t = Table([["1-0", "2-0"], ["Q-0", "3-0"], ["4-0"]], h15=0, h20=1, leader=0)
    t.leads_hunter(0, 15).play(1, "Q-0").play(2, "4-0")
    assert t.state.phase == "score" and t.state.hunters == (1, 1)
    t.end_round()
    assert t.state.banned == 0
    table = next_round_on_a_sim_table(t.state)
    assert table.pending().actors == (1,)  # Hunter 20's holder leads ...
    table.play(1, {"do": "hunter", "hunter": 15})  # ... and may lead the hunter taken last round
    assert table.state.trick.hunter == 15


def test_a_player_holding_only_hunters_is_skipped_in_a_hunter_trick_without_an_act():
    t = Table([["1-0", "2-0"], [], ["4-0", "5-0"]], h15=2, h20=1, leader=2)
    t.leads_hunter(2, 15).play(0, "2-0")
    assert t.state.trick is None  # seat 1 (only Hunter 20) was skipped; the trick is over
    skipped = t.state.last_trick.plays[-1]
    assert skipped.seat == 1 and skipped.forced and skipped.passed
    assert "seat 1 holds only hunters and plays nothing." in t.lines
    assert t.state.hunters == (0, 1) and t.state.phase == "play"  # seat 1 is not out


def test_a_player_holding_only_hunters_is_never_asked_to_act_in_a_hunter_trick():
    t = Table([["1-0", "2-0"], ["4-0", "5-0"], [], ["6-0"]], h15=2, h20=1, leader=1)
    t.leads_hunter(1, 20)
    assert t.actors == (3,)  # seat 2 (only Hunter 15) skipped straight away


def test_winner_who_played_their_last_card_in_a_hunter_trick_is_not_out():
    t = Table([["13-0"], ["2-0", "3-0"], ["4-0", "5-0"]], h15=1, h20=1, leader=1)
    t.leads_hunter(1, 15).play(2, "4-0").play(0, "13-0")
    assert t.state.phase == "play" and t.state.leader == 0
    assert t.hand(0) == Counter(["4-0", "13-0"]) and t.state.hunters == (0, 1)


def test_someone_else_out_in_a_hunter_trick_still_ends_the_round():
    t = Table([["13-0"], ["2-0", "3-0"], ["4-0"]], h15=1, h20=1, leader=1)
    t.leads_hunter(1, 15).play(2, "4-0").play(0, "13-0")
    assert t.state.phase == "score"
    assert "seat 2 has no cards left." in t.lines
    assert t.state.hand_count(0) == 3  # the winner holds cards again


def test_two_players_out_at_once_end_the_round():
    t = Table([["5-0"], ["7-0"], ["3-0", "4-0"]], h15=2, h20=2, leader=0)
    t.play(0, "5-0").play(1, "7-0").passes(2)
    assert t.state.phase == "score"
    assert "seat 0 and seat 1 have no cards left." in t.lines
    assert GAME.pending(t.state).actors == ()


def test_a_player_who_goes_out_mid_trick_does_not_end_it_early():
    t = Table([["5-0"], ["7-0", "1-0"], ["9-0", "4-0"]], h15=2, h20=2, leader=0)
    t.play(0, "5-0")
    assert t.state.phase == "play" and t.actors == (1,)
    t.passes(1).play(2, "9-0")
    assert t.state.phase == "score" and t.state.leader == 2


# --- the end of a round -----------------------------------------------------------------------


def test_round_end_scores_the_points_left_in_each_hand():
    # Seat 0: 4 + 13 + a public 7 taken earlier = 24; seat 1: Queen 14 + 2 + Hunter 15 + Hunter 20
    # = 51; seat 2 plays its last card and scores 0.
    t = Table(
        [["4-0", "13-1", "7-0"], ["Q-0", "2-0"], ["5-0"]],
        h15=1,
        h20=1,
        leader=2,
        shown=("7-0",),
        totals=(10, 20, 30),
    )
    t.play(2, "5-0").passes(0).passes(1)
    assert t.state.phase == "score"
    t.end_round()  # the hidden cards are scored from the EndEvent's row
    assert t.state.round_scores == ((24, 51, 0),)
    assert t.state.totals == (34, 71, 30)
    assert t.state.round_hands[-1][1] == ("Q-0", "2-0", "H15", "H20")
    assert "Round 2 ends. Points in hand: seat 0 24, seat 1 51, seat 2 0." in t.lines


def test_both_hunters_in_one_hand_score_15_and_20():
    t = Table([["1-0", "2-0"], ["3-0"], ["5-0", "Q-2"]], h15=0, h20=0, leader=1)
    t.play(1, "3-0").passes(2).passes(0)
    t.end_round()
    assert t.state.round_scores == ((1 + 2 + 15 + 20, 0, 5 + 14),)


def test_hunters_are_kept_across_rounds_and_hunter_20s_holder_leads_the_next():
    t = Table([["13-0"], ["2-0", "3-0"], ["4-0"]], h15=1, h20=1, leader=1)
    t.leads_hunter(1, 15).play(2, "4-0").play(0, "13-0")  # seat 0 takes Hunter 15; seat 2 is out
    t.end_round()
    assert t.state.phase == "shuffle" and t.state.round == 3
    assert t.state.hunters == (0, 1)
    table = next_round_on_a_sim_table(t.state)
    state = table.state
    assert state.hunters == (0, 1)
    assert [state.hand_count(s) for s in range(3)] == [14, 14, 13]  # a full hand plus hunters
    assert all(c.ident is None for hand in state.hands for c in hand)  # the taken cards are gone
    assert table.pending().actors == (1,)


def test_hunter_20s_holder_leads_every_round_after_the_first():
    table = SimTable(GAME, 4, seed=11)
    bots = [RandomBot(random.Random(s)) for s in range(4)]
    leaders = {}
    while True:
        table.run_ops()
        state = table.state
        if state.phase == "over":
            break
        if state.trick is None and state.round not in leaders:
            leaders[state.round] = (state.turn, state.hunters[1])
        seat = state.turn
        view = table.view(seat)
        table.play(seat, bots[seat].choose(view, GAME.legal_acts(view)))
    assert sorted(leaders) == [1, 2, 3, 4, 5]
    assert all(turn == h20 for turn, h20 in leaders.values())


# --- the deal ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "seats, dealt",
    [(3, 13), (4, 13), (5, 13), (6, 13), (7, 13), (8, 13), (9, 12), (10, 10), (11, 9), (12, 9)],
)
def test_each_player_is_dealt_the_hand_size_for_the_table_and_the_rest_stay_undealt(seats, dealt):
    table = SimTable(GAME, seats, seed=seats)
    table.state, _ = GAME.resolve(table.state, Draw("dealer", (seats,)), (0,))
    (shuffle,) = GAME.pending(table.state).ops
    assert isinstance(shuffle, Shuffle)
    assert shuffle.count == 108 and Counter(shuffle.cards) == Counter(DECK)  # no hunter shuffled
    assert set(shuffle.participants) == set(range(seats))
    table.run_ops()
    state = table.state
    assert [len(hand) for hand in state.hands] == [dealt] * seats
    assert state.stock == 108 - seats * dealt
    held = {c.pos for hand in state.hands for c in hand}
    assert len(held) == seats * dealt
    undealt = {(state.event, i) for i in range(108)} - held
    assert len(undealt) == state.stock
    assert all(c.ident is None for hand in state.hands for c in hand)  # dealt face down
    for seat, hand in enumerate(state.hands):  # each hand is opened to its holder only
        assert {c.pos for c in hand} <= set(table.known[seat])
        assert not {c.pos for c in hand} & set(table.public)


def test_the_first_dealer_is_drawn_jointly_and_takes_hunter_15_the_next_seat_hunter_20_and_leads():
    state = GAME.setup(5, {})
    (draw,) = GAME.pending(state).ops
    assert draw == Draw("dealer", (5,))
    for dealer in range(5):
        after, _notes = GAME.resolve(state, draw, (dealer,))
        left = (dealer + 1) % 5
        assert after.dealer == dealer and after.hunters == (dealer, left)
        assert after.leader == left and after.round == 1
    dealt = SimTable(GAME, 5, seed=3)
    dealt.run_ops()
    dealer = dealt.state.dealer
    assert dealt.state.hand_count(dealer) == 14 and dealt.pending().actors == ((dealer + 1) % 5,)


def test_the_last_seat_as_dealer_gives_hunter_20_to_seat_0():
    after, _ = GAME.resolve(GAME.setup(3, {}), Draw("dealer", (3,)), (2,))
    assert after.hunters == (2, 0) and after.leader == 0


# --- the end of the game ----------------------------------------------------------------------


def test_the_game_ends_after_5_rounds():
    t = Table([["1-0"], ["2-0", "3-0"], ["4-0", "5-0"]], h15=1, h20=2, leader=0, round_no=4)
    t.play(0, "1-0").passes(1).passes(2).end_round()
    assert t.state.phase == "shuffle" and GAME.result(t.state) is None
    t = Table([["1-0"], ["2-0", "3-0"], ["4-0", "5-0"]], h15=1, h20=2, leader=0, round_no=5)
    t.play(0, "1-0").passes(1).passes(2).end_round()
    assert t.state.phase == "over" and GAME.pending(t.state).ops == GAME.pending(t.state).actors == ()
    assert GAME.result(t.state).winners == (0,)


def test_the_rounds_option_sets_how_many_rounds_are_played():
    t = Table([["1-0"], ["2-0", "3-0"], ["4-0", "5-0"]], h15=1, h20=2, leader=0, round_no=2, rounds=2)
    t.play(0, "1-0").passes(1).passes(2).end_round()
    assert t.state.phase == "over"
    record = play_game(GAME, [RandomBot(random.Random(s)) for s in range(3)], seed=5, options={"rounds": 1})
    assert len(record.result.scores) == 3
    assert sum("ends. Points in hand" in n.text for n in record.notes) == 1


def over_with_totals(totals: tuple[int, ...], **options: Any) -> QueenState:
    return replace(GAME.setup(len(totals), options), phase="over", round=5, totals=totals)


def test_the_lowest_total_wins():
    result = GAME.result(over_with_totals((40, 12, 33)))
    assert result.winners == (1,) and result.scores == (40, 12, 33)
    assert "wins with 12" in result.summary


def test_tied_lowest_totals_share_the_win():
    result = GAME.result(over_with_totals((12, 40, 12)))
    assert result.winners == (0, 2)
    assert "share the win" in result.summary


def test_tied_lowest_totals_win_nothing_with_tie_none():
    result = GAME.result(over_with_totals((12, 40, 12), tie="none"))
    assert result.winners == ()
    assert "nobody wins" in result.summary
    assert GAME.result(over_with_totals((11, 40, 12), tie="none")).winners == (0,)


def test_abandon_ends_the_game_with_no_winner_and_keeps_the_totals():
    t = worked_example()
    t.state = replace(t.state, totals=(30, 10, 20))
    state, notes = GAME.abandon(t.state, 2)
    result = GAME.result(state)
    assert result.winners == () and result.abandoned == (2,)
    assert result.scores == (30, 10, 20)
    assert "abandoned" in result.summary and "no winner" in result.summary
    assert notes[0].seats == (2,)
    assert GAME.pending(state).actors == () and GAME.pending(state).ops == ()
    t.state = state
    assert "over" in t.refusal(1, {"do": "play", "cards": t.positions(1, "5-0")})


# --- options ----------------------------------------------------------------------------------


def test_options_default_to_the_rule_pages_table_rules():
    state = GAME.setup(3, {})
    assert dict(state.options) == {"rounds": 5, "queen_in_hunter_trick": 14, "hunter_tie": "last", "tie": "shared"}


def test_options_given_as_command_line_text_are_typed():
    state = GAME.setup(3, {"queen_in_hunter_trick": "1", "rounds": "3", "hunter_tie": "first"})
    assert state.option("queen_in_hunter_trick") == 1 and state.option("rounds") == 3


@pytest.mark.parametrize(
    "options, words",
    [
        ({"jokers": 2}, "unknown table option"),
        ({"rounds": 0}, "at least 1"),
        ({"rounds": 21}, "at most 20"),
        ({"rounds": "five"}, "whole number"),
        ({"rounds": True}, "rounds"),  # a bool is not a number of rounds
        ({"rounds": 2.0}, "rounds"),
        ({"queen_in_hunter_trick": 7}, "14, 1"),
        ({"queen_in_hunter_trick": "queen"}, "whole number"),
        ({"hunter_tie": "middle"}, "last, first"),
        ({"tie": "all"}, "shared, none"),
        ({"tie": 1}, "tie"),
    ],
)
def test_an_unknown_option_or_a_bad_value_is_refused_with_a_sentence(options, words):
    with pytest.raises(OptionError) as refused:
        GAME.setup(4, options)
    assert words in str(refused.value)
    assert str(refused.value).startswith(("option", "unknown"))


@pytest.mark.parametrize("seats", [0, 1, 2, 13])
def test_vampire_queen_is_played_by_3_to_12_players(seats):
    with pytest.raises(GameError, match="3 to 12"):
        GAME.setup(seats, {})


# --- illegal acts -----------------------------------------------------------------------------


def test_leading_with_a_pass_is_refused():
    assert "leader cannot pass" in worked_example().refusal(1, {"do": "pass"})


def test_playing_out_of_turn_is_refused():
    t = worked_example()
    assert "not your turn" in t.refusal_of_play(0, "3-0")
    assert "not your turn" in t.refusal(2, {"do": "hunter", "hunter": 15})


def test_playing_a_card_not_held_is_refused():
    t = worked_example()
    someone_elses = {"do": "play", "cards": t.positions(0, "3-0")}
    assert "not in your hand" in t.refusal(1, someone_elses)
    with pytest.raises(IllegalMove, match="not in your hand"):
        GAME.to_open(t.state, 1, someone_elses)  # the table refuses to open it at all
    nowhere = {"do": "play", "cards": [[EVENT, 99]]}
    assert "not in your hand" in t.refusal(1, nowhere)


def test_playing_a_hidden_card_without_opening_it_is_refused():
    t = worked_example()
    assert "not opened" in t.refusal(1, {"do": "play", "cards": t.positions(1, "8-0")}, revealed={})


def test_leading_a_hunter_not_held_is_refused():
    assert "do not hold hunter 15" in worked_example().refusal(1, {"do": "hunter", "hunter": 15})


def test_a_hunter_played_into_a_trick_is_refused():
    t = worked_example().play(1, "5-0", "5-1")
    assert "only be led" in t.refusal(2, {"do": "hunter", "hunter": 15})
    t = worked_example().play(1, "5-0", "5-1").play(2, "9-0", "Q-0").passes(0).leads_hunter(2, 15)
    assert "only be led" in t.refusal(0, {"do": "hunter", "hunter": 20})


@pytest.mark.parametrize(
    "act, words",
    [
        ("pass", "map"),
        ({}, "no act"),
        ({"do": "fold"}, "no act"),
        ({"do": "play"}, "fields"),
        ({"do": "hunter"}, "fields"),
        ({"do": "pass", "cards": []}, "fields"),
        ({"do": "hunter", "hunter": 20, "cards": []}, "fields"),
        ({"do": "hunter", "hunter": True}, "hunter 15 and hunter 20"),
        ({"do": "hunter", "hunter": "20"}, "hunter 15 and hunter 20"),
        ({"do": "hunter", "hunter": 17}, "hunter 15 and hunter 20"),
        ({"do": "play", "cards": []}, "pairs"),
        ({"do": "play", "cards": "5-0"}, "pairs"),
        ({"do": "play", "cards": [[True, 5]]}, "pairs"),
        ({"do": "play", "cards": [[1, 5, 0]]}, "pairs"),
        ({"do": "play", "cards": [[1, -5]]}, "pairs"),
        ({"do": "play", "cards": [[1, 4], [1, 4]]}, "twice"),
    ],
)
def test_a_malformed_act_is_refused_with_a_sentence(act, words):
    table = worked_example()
    assert words in table.refusal(1, act, revealed={}, error=MalformedAct)
    with pytest.raises(MalformedAct):
        GAME.to_open(table.state, 1, act)  # the table refuses to open anything for it


def test_a_well_formed_act_the_rules_refuse_is_illegal_not_malformed():
    table = worked_example()
    with pytest.raises(IllegalMove) as refused:
        GAME.check(table.state, 1, {"do": "pass"}, {})
    assert not isinstance(refused.value, MalformedAct)
    assert "leader cannot pass" in str(refused.value)


def test_acts_are_refused_while_the_cards_are_dealt():
    table = SimTable(GAME, 3, seed=1)
    state, _ = GAME.resolve(table.state, Draw("dealer", (3,)), (0,))
    with pytest.raises(IllegalMove, match="dealt"):
        GAME.check(state, 1, {"do": "hunter", "hunter": 20}, {})


def test_a_refused_act_leaves_the_game_where_it_was():
    t = worked_example()
    before = t.state
    t.refusal_of_play(1, "5-0", "8-0")
    t.play(1, "5-0", "5-1")  # the same seat may still make a legal act
    assert t.state is not before and t.actors == (2,)


def test_states_encode_as_before_the_phases_were_an_enum():
    """Phases are a StrEnum: a state's canonical encoding (what the table's digest hashes) is
    byte for byte what it was with plain strings; these digests were taken before the change."""
    table = SimTable(GAME, 4, {"rounds": 2}, 5)
    table.run_ops()
    rng = random.Random(1)
    digests = [_state_digest(table.state)]
    moves = 0
    while table.pending().actors:
        seat = table.pending().actors[0]
        table.play(seat, rng.choice(GAME.legal_acts(table.view(seat))))
        table.run_ops()
        moves += 1
        if moves == 10:
            digests.append(_state_digest(table.state))
    digests.append(_state_digest(table.state))
    assert isinstance(table.state.phase, Phase) and table.state.phase == "over"
    assert digests == [
        "401b075305caf51887e9fc4b43c4f7a0c5dd8ae32c13c808306615a915fbe81c",
        "232f2b01949c44fbc5825da77afcd5d243d4087f7ada8a9b9a4b3865396fcdbd",
        "6690b7360d4b21e1cc3f5623d0e703fc80e2a5f165d38d107e12e2cc70c20ddc",
    ]


def _state_digest(state: QueenState) -> str:
    return hashlib.sha256(encode(dataclasses.asdict(state))).hexdigest()
