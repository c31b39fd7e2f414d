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
from engine.games.vtes.offers import legal_acts
from engine.games.vtes.simulate import vtes_table
from engine.games.vtes.view import VtesView
from engine.games.vtes.vocab import ClaimStatus, Do, Zone
from engine.sim import SimTable, play_game
from tests.support.vtes_fight import refused
from tests.support.vtes_sim import act, deck_of, minion_phase_table

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


def _answer(t: SimTable, bot: VtesBot, seat: int) -> Act | None:
    """What ``bot`` at ``seat`` answers now; the table applies it."""
    view = t.view(seat)
    chosen = bot.choose(view, legal_acts(view))
    if chosen is not None and chosen["do"] in (Do.ACCEPT, Do.DISPUTE):
        t.play(seat, chosen)
        t.run_ops()
    return chosen


def test_a_bot_refuses_a_drain_typed_in_free_words_and_says_why() -> None:
    """``pool -5 <bot> for judge ruling``, again and again, drains nothing: a bot takes no pool on
    a claimant's word, and the game log says why at each dispute; other changes on one's word are
    taken at most one a turn (docs/vtes-by-hand.md, "A bot's answer")."""
    t = minion_phase_table(blood=(3, 3, 3, 3))
    me = t.state.acting
    prey = t.view(me).players[me].prey
    bot = vtes_bot(seed=0)
    pool = t.state.players[prey].pool
    for delta in (-5, -1, -5):
        act(t, me, "pool", seat=prey, delta=delta, cause="judge ruling")
        claim = t.state.claims[-1]
        chosen = _answer(t, bot, prey)
        assert chosen is not None and chosen["do"] == Do.DISPUTE and chosen["act"] == claim.act
        said = t.game.describe(t.state, prey, chosen, {}).render(["A", "B", "C", "D"])
        assert said.endswith(f"disputes act {claim.act}: no card named: a bot takes no pool on your word"), said
    assert t.state.players[prey].pool == pool
    assert all(c.status == ClaimStatus.PENDING and c.holding == (prey,) for c in t.state.claims)
    vampire = next(c for c in t.view(me).controlled(prey) if c.crypt and c.card)
    act(t, me, "blood", card=vampire.as_list(), delta=-1, cause="misplay")
    assert _answer(t, bot, prey) == {"do": Do.ACCEPT, "act": t.state.claims[-1].act}  # one a turn
    act(t, me, "blood", card=vampire.as_list(), delta=-1, cause="misplay")
    chosen = _answer(t, bot, prey)
    assert chosen is not None and chosen["do"] == Do.DISPUTE and "1 a turn" in chosen["why"]
    # A card burned or moved on one's word: never (a whole minion burned, or taken).
    for change in (
        {"do": "burn", "cards": [vampire.as_list()]},
        {"do": "move", "cards": [vampire.as_list()], "to": "ready", "controller": me},
    ):
        act(t, me, str(change.pop("do")), **change, cause="judge ruling")
        chosen = _answer(t, bot, prey)
        assert chosen is not None and chosen["why"].startswith("no card named: a bot takes no card"), chosen
    assert t.view(me).card(vampire.pos).zone == Zone.READY


def test_a_card_applied_by_hand_against_a_bot_is_accepted_up_to_what_its_text_does() -> None:
    """A person plays Personal Involvement (its prey burns 3 pool, applied by hand: named from the
    hand it is refused, as nobody else sees it; played, it is face up in the ash heap this turn) and
    records the 3 pool on the bot naming it: accepted; a fourth pool for it that turn, or a change its text
    speaks nothing of (the bot's hand size): disputed, each saying why."""
    library = (("Personal Involvement", 2), ("Threats", 2))
    t = vtes_table([deck_of(d, *library) for d in bundled_decks()[:2]], {"library_size": False}, 1)
    ana = t.state.seating[0]
    prey = t.state.prey(ana)
    while t.state.phase != "master":
        act(t, ana, "phase")
    hand = {c.name: c.as_list() for c in t.view(ana).hand}
    # In the hand, nobody else can see it: naming it is refused; played, it is face up for all.
    refused(t, ana, {"do": "pool", "seat": prey, "delta": -3, "cause": "Personal Involvement"}, "play it first")
    act(t, ana, "play", card=hand["Personal Involvement"], pool=3, no_replace=True)
    seen = t.view(prey).card(tuple(hand["Personal Involvement"]))
    assert seen is not None and seen.name == "Personal Involvement" and seen.zone == Zone.ASH
    bot = vtes_bot(seed=0)
    pool = t.state.players[prey].pool
    act(t, ana, "pool", seat=prey, delta=-3, cause="Personal Involvement")
    assert _answer(t, bot, prey) == {"do": Do.ACCEPT, "act": t.state.claims[-1].act}
    assert t.state.players[prey].pool == pool - 3
    act(t, ana, "pool", seat=prey, delta=-1, cause="personal involvement")
    chosen = _answer(t, bot, prey)
    assert chosen is not None and chosen["why"] == "its card does at most 3 a turn: Personal Involvement"
    act(t, ana, "hand_size", seat=prey, delta=-1, cause="Personal Involvement")
    chosen = _answer(t, bot, prey)
    assert chosen is not None and chosen["why"] == "its card says nothing of hand size: Personal Involvement"
    # Its "by burning 2 pool" burns counters, not cards: it burns no minion of the bot.
    theirs = next(c for c in t.view(ana).cards if c.owner == prey and c.zone == Zone.UNCONTROLLED)
    act(t, ana, "burn", cards=[theirs.as_list()], cause="Personal Involvement")
    chosen = _answer(t, bot, prey)
    assert chosen is not None and chosen["why"] == "its card says nothing of burn: Personal Involvement"
    assert t.state.players[prey].pool == pool - 3
