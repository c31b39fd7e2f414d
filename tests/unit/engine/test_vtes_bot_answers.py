"""Bots answer claims only as their seat may (docs/vtes-by-hand.md): over many seeded whole games
between bots of both levels, counted act by act, no bot ever writes a `lapse` (a claim's time is
said to have run out by a person's screen, never a bot), a bot accepts or disputes only a waiting
claim on its own things, and retracts only a claim it made itself."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from engine.games.base import Act
from engine.games.vtes.bots import VtesBot, vtes_bot
from engine.games.vtes.decks import bundled_decks
from engine.games.vtes.game import VTES
from engine.games.vtes.view import VtesView
from engine.games.vtes.vocab import ClaimStatus, Do
from engine.sim import play_game

GAMES = 12
"""Seeded whole games, each of 3 to 5 seats with a random mix of bot levels."""


@dataclass
class Tally:
    """Every act the bots chose, by kind, and each answer to a claim that its seat may not make."""

    acts: Counter[str] = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)


@dataclass
class Counted:
    """A bot whose every choice is counted and its answers to claims checked against its view."""

    bot: VtesBot
    tally: Tally

    def choose(self, view: VtesView, legal: list[Act]) -> Act | None:
        act = self.bot.choose(view, legal)
        if act is None:
            return None
        do, seat = str(act["do"]), view.seat
        self.tally.acts[do] += 1
        if do in (Do.ACCEPT, Do.DISPUTE, Do.RETRACT, Do.LAPSE):
            claim = next((c for c in view.claims if c.act == act["act"]), None)
            pending = claim is not None and claim.status == ClaimStatus.PENDING
            mine = claim is not None and seat in claim.seats
            own = claim is not None and seat == claim.author
            if do == Do.LAPSE or not pending or (do == Do.RETRACT and not own) or (do != Do.RETRACT and not mine):
                self.tally.wrong.append(f"seat {seat} {do} {claim}")
        return act


def test_bots_never_lapse_a_claim_and_answer_only_their_own_over_many_games() -> None:
    tally = Tally()
    decks = bundled_decks()
    for game in range(GAMES):
        rng = random.Random(game)
        seats = rng.choice([3, 4, 5])
        chosen = rng.sample(decks, seats)
        private: dict[tuple[int, str], list[str]] = {}
        for s, deck in enumerate(chosen):
            private.update(deck.private_decks(s))
        bots = [
            Counted(vtes_bot(rng.choice(["heuristic", "random"]), chosen[s], seed=100 * game + s), tally)
            for s in range(seats)
        ]
        play_game(VTES, bots, game, None, private)
    assert tally.acts[Do.LAPSE] == 0
    assert not tally.wrong, tally.wrong[:3]
    # The games did make claims (a passed referendum's terms applied to others' things), and the
    # bots they touched answered them: the count is not empty by chance.
    assert tally.acts[Do.ACCEPT] > 0, tally.acts
