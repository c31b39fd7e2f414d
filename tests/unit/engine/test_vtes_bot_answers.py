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


def test_a_bot_disputes_a_claim_for_a_card_the_table_applies_and_accepts_the_others() -> None:
    """A claim on a bot's pool "for" a card the table applies whole would apply it twice: the bot
    disputes it for the judge, and does not accept it after; one in free words ("judge ruling"),
    or for a card in sight whose text the table leaves by hand, it accepts (docs/vtes-by-hand.md)."""
    from engine.games.vtes.card_record import Coverage, record
    from engine.games.vtes.offers import legal_acts
    from tests.support.vtes_sim import act, minion_phase_table

    t = minion_phase_table()
    me = t.state.acting
    vampire = next(c for c in t.view(me).controlled(me) if c.crypt and c.card)
    rec = record(vampire.card)
    assert rec is not None and rec.coverage != Coverage.FULLY
    for cause, answer in (("judge ruling", Do.ACCEPT), (vampire.name, Do.ACCEPT)):
        t = minion_phase_table()
        bot_seat = t.view(me).players[me].prey
        act(t, me, "pool", seat=bot_seat, delta=-1, cause=cause)
        claim = t.state.claims[-1]
        view = t.view(bot_seat)
        chosen = vtes_bot(seed=0).choose(view, legal_acts(view))
        assert chosen == {"do": answer, "act": claim.act}, cause
    from engine.games.vtes.bots import _applied_card

    # The dispute: a card the table applies whole (its change by hand would apply it twice).
    assert _applied_card("Govern the Unaligned") and not _applied_card("judge ruling")
    assert not _applied_card(vampire.name)
