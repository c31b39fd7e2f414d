"""Changes by hand to another Methuselah's things are claims (docs/vtes-by-hand.md): they wait
for the touched Methuselah's answer or their time, a dispute holds them, hidden
cards stay hidden, sources are one's own, and each seat's changes by hand are bounded."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.games.base import GameError, IllegalMove, MalformedAct
from engine.games.vtes.claims import BY_HAND_RATE, CLAIM_WAIT_MS
from engine.games.vtes.scoring import result_text
from engine.games.vtes.vocab import ClaimStatus, Status, Zone
from engine.sim import SimTable
from tests.support.vtes_fight import in_hand
from tests.support.vtes_sim import act, answer_passes, copy_table, minion_phase_table, one_vampire_table, resolve

T0 = 10_000_000
"""A table time (ms) well past every time the set-up used."""


@dataclasses.dataclass(frozen=True)
class Seats:
    t: SimTable
    ana: int
    ben: int
    cy: int
    dee: int


@pytest.fixture(scope="module")
def made() -> Seats:
    t = minion_phase_table(4, seed=1, blood=(4, 1, 1, 1))
    return Seats(t, *t.state.seating)


@pytest.fixture
def s(made: Seats) -> Seats:
    return dataclasses.replace(made, t=copy_table(made.t))


def play(t: SimTable, seat: int, at: int, do: str, /, **fields: object) -> list[str]:
    notes = t.play(seat, {"do": do, **fields}, at=at)
    t.run_ops()
    return [n.text for n in (*notes, *answer_passes(t))]


def refused(t: SimTable, seat: int, at: int, act_: dict, words: str) -> None:
    before, moves = t.state, t.moves
    with pytest.raises(IllegalMove, match=re.escape(words)) as err:
        t.play(seat, act_, at=at)
    assert not isinstance(err.value, MalformedAct)
    assert t.state is before and t.moves == moves


def claim_of(t: SimTable, number: int):
    return next(c for c in t.state.claims if c.act == number)


def test_an_oust_by_hand_waits_for_the_ousted_ones_answer_then_its_time(s: Seats) -> None:
    t = s.t
    play(t, s.ana, T0, "pool", seat=s.ben, delta=-30, cause="judge ruling")
    number = t.state.acts
    assert t.state.players[s.ben].pool == 30 and t.state.players[s.ben].status == Status.IN
    assert claim_of(t, number).status == ClaimStatus.PENDING
    lapse = {"do": "lapse", "act": number}
    refused(t, s.cy, T0 + CLAIM_WAIT_MS - 1, lapse, f"act {number} waits 1 second more for an answer")
    refused(t, s.ana, T0 + CLAIM_WAIT_MS, lapse, "a Methuselah other than")  # not its own author
    refused(t, s.cy, T0, {"do": "accept", "act": number}, "only the Methuselah whose things")
    play(t, s.cy, T0 + CLAIM_WAIT_MS, "lapse", act=number)
    assert t.state.players[s.ben].status == Status.OUSTED
    assert claim_of(t, number).status == ClaimStatus.TAKEN
    # Ousted and absent meanwhile, Ben may still dispute what ousted him; the judge sees it.
    play(t, s.ben, T0 + 2 * CLAIM_WAIT_MS, "dispute", act=number)
    assert claim_of(t, number).disputed == (s.ben,)
    refused(t, s.ben, T0 + 2 * CLAIM_WAIT_MS, {"do": "pool", "delta": 1, "cause": "x"}, "you may only dispute")
    text = result_text(t.state, [f"P{i}" for i in range(4)])
    assert "judge ruling" in text and "it took effect (took effect when its time ran out" in text


def test_an_accepted_oust_takes_effect_at_once_and_a_disputed_one_never_by_time(s: Seats) -> None:
    t = s.t
    play(t, s.ana, T0, "pool", seat=s.ben, delta=-2, cause="a card")
    first = t.state.acts
    play(t, s.ben, T0 + 1, "accept", act=first)
    assert t.state.players[s.ben].pool == 28
    play(t, s.ana, T0 + 2, "pool", seat=s.cy, delta=-3, cause="a card")
    second = t.state.acts
    play(t, s.cy, T0 + 3, "dispute", act=second)
    refused(t, s.dee, T0 + 10 * CLAIM_WAIT_MS, {"do": "lapse", "act": second}, "is disputed by")
    assert t.state.players[s.cy].pool == 30
    play(t, s.cy, T0 + 4, "accept", act=second)  # the touched one changes its mind
    assert t.state.players[s.cy].pool == 27
    play(t, s.ana, T0 + 5, "pool", seat=s.dee, delta=-1, cause="a card")
    third = t.state.acts
    refused(t, s.dee, T0 + 6, {"do": "retract", "act": third}, "may retract it")
    play(t, s.ana, T0 + 6, "retract", act=third)
    refused(t, s.dee, T0 + 7, {"do": "accept", "act": third}, "is no longer waiting")
    assert t.state.players[s.dee].pool == 30


def test_a_claim_disputed_then_accepted_stays_listed_with_its_history_and_names(s: Seats) -> None:
    """A dispute the touched Methuselah later gives up by accepting stays listed for the judge,
    with who accepted it, in names (no seat placeholder)."""
    t = s.t
    play(t, s.ana, T0, "pool", seat=s.ben, delta=-3, cause="misplay")
    number = t.state.acts
    play(t, s.ben, T0 + 1, "dispute", act=number)
    play(t, s.ben, T0 + 2, "accept", act=number)
    assert t.state.players[s.ben].pool == 27
    assert claim_of(t, number).disputed == (s.ben,) and claim_of(t, number).holding == ()
    names = [f"P{i}" for i in range(4)]
    text = result_text(t.state, names)
    assert f"Disputed, for the judge: act {number} by P{s.ana}" in text, text
    assert f"disputed by P{s.ben}, who later accepted it (P{s.ben})" in text, text
    assert f"it took effect (was accepted by P{s.ben})" in text and "{s" not in text, text


def test_a_dispute_after_an_oust_by_the_table_is_listed(s: Seats) -> None:
    t = s.t
    players = list(t.state.players)
    players[s.ben] = dataclasses.replace(players[s.ben], pool=1)
    t.state = dataclasses.replace(t.state, players=tuple(players))
    lucia = next(c.as_list() for c in t.view(s.ana).controlled(s.ana))
    act(t, s.ana, "action", minion=lucia, kind="bleed", target=s.ben)
    resolve(t)
    assert t.state.players[s.ben].status == Status.OUSTED
    out = next(o for o in t.state.outs if o.seat == s.ben)
    assert s.ben in t.pending().actors  # an ousted Methuselah may still answer what ousted it
    refused(t, s.ben, T0, {"do": "dispute", "act": out.act - 1}, "there is nothing to dispute")
    play(t, s.ben, T0, "dispute", act=out.act)
    names = [f"P{i}" for i in range(4)]
    text = result_text(t.state, names)
    assert f"Disputed, for the judge: act {out.act} by " in text and f"the oust of {names[s.ben]}" in text
    assert s.ben not in t.pending().actors  # nothing left to dispute


def test_moving_or_burning_anothers_hidden_cards_is_asked_of_the_owner(s: Seats) -> None:
    t = s.t
    hand = [c.pos for c in t.state.cards if c.owner == s.ben and c.zone == Zone.HAND][:2]
    top = t.state.players[s.ben].crypt[0]
    play(t, s.ana, T0, "burn", cards=[list(p) for p in hand], cause="a card")
    burn = t.state.acts
    play(t, s.cy, T0 + 1, "move", cards=[list(top)], to="ash", cause="a card")
    mill = t.state.acts
    for seat in (s.ana, s.cy, s.dee):
        assert not {*hand, top} & set(t.known[seat]), "nobody but the owner knows these cards"
    assert all(not c.card for c in t.state.cards if c.pos in {*hand, top})
    refused(t, s.dee, T0 + 10 * CLAIM_WAIT_MS, {"do": "lapse", "act": burn}, "moves hidden cards")
    play(t, s.ben, T0 + 2, "accept", act=burn)  # Ben burns them himself: they turn face up
    burned = [c for c in t.state.cards if c.pos in hand]
    assert all(c.zone == Zone.ASH and c.card == t.truth[c.pos] for c in burned)
    play(t, s.ben, T0 + 3, "dispute", act=mill)
    assert not any(c.card for c in t.state.cards if c.pos == top)


def test_vote_and_lift_sources_are_ones_own(s: Seats) -> None:
    t = s.t
    marek = next(c.as_list() for c in t.view(s.ben).controlled(s.ben))
    lucia = next(c.as_list() for c in t.view(s.ana).controlled(s.ana))
    refused(
        t,
        s.ana,
        T0,
        {"do": "action", "minion": lucia, "kind": "bleed", "target": s.cy, "lift": "target", "by": marek},
        "must be a card you control",
    )
    refused(
        t,
        s.ana,
        T0,
        {"do": "pool", "seat": s.ben, "delta": -1, "cause": "x", "by": marek},
        "must be a card you control",
    )
    refused(t, s.ana, T0, {"do": "hand_size", "seat": s.ben, "delta": 1}, "names its cause")
    refused(t, s.ana, T0, {"do": "shuffle", "seat": s.ben, "zone": "crypt"}, "names its cause")
    refused(t, s.ana, T0, {"do": "combat", "minions": [marek, lucia]}, "names its cause")


def test_a_played_cards_blood_is_paid_only_by_a_minion_of_ones_own() -> None:
    """A card's cost in blood is paid by the minion that plays it (P8): naming another
    Methuselah's vampire as the payer would burn its blood with no claim, so it is refused."""
    t = one_vampire_table("Arika", (("Information Highway", 7),), seed=5)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    mine, theirs = (next(c.as_list() for c in t.view(s).controlled(s) if c.crypt) for s in (ana, ben))
    card = in_hand(t, ana, "Information Highway")
    play_ = {"do": "play", "card": card, "blood": 2}
    refused(t, ana, T0, {**play_, "minion": theirs}, "the minion that plays the card must be a card you control")
    # A master card outside the master phase: the test names a card that lifts the timing (P9).
    play(t, ana, T0, "play", card=card, blood=2, minion=mine, lift="timing", by=card)
    blood = {list(c.pos) == mine: c.counters for c in t.state.cards if list(c.pos) in (mine, theirs)}
    assert blood == {True: 2, False: 2}  # Ana's vampire paid 2 of its 4; Ben's kept its 2


def test_a_card_moved_on_anothers_minion_or_into_their_control_is_a_claim_on_them(s: Seats) -> None:
    """Moving one's own card onto another Methuselah's minion, or under their control, changes
    their things: it names its cause and waits for their answer like any change by hand."""
    t = s.t
    lucia = next(c.as_list() for c in t.view(s.ana).controlled(s.ana))
    marek = next(c.as_list() for c in t.view(s.ben).controlled(s.ben))
    on = {"do": "move", "cards": [lucia], "to": "on", "on": marek}
    given = {"do": "move", "cards": [lucia], "to": "ready", "controller": s.cy}
    for move in (on, given):
        refused(t, s.ana, T0, move, "names its cause")
    play(t, s.ana, T0, "move", **{**on, "cause": "a card"})
    play(t, s.ana, T0, "move", **{**given, "cause": "a card"})
    claims = t.state.claims[-2:]
    assert [(c.seats, c.status) for c in claims] == [((s.ben,), ClaimStatus.PENDING), ((s.cy,), ClaimStatus.PENDING)]
    lucia_now = next(c for c in t.state.cards if list(c.pos) == lucia)
    assert (lucia_now.zone, lucia_now.controller, lucia_now.on) == (Zone.READY, s.ana, ())
    play(t, s.ben, T0 + 1, "accept", act=claims[0].act)
    assert next(c for c in t.state.cards if list(c.pos) == lucia).on == tuple(marek)


def test_a_card_ends_anothers_action_only_on_its_methuselahs_impulse(s: Seats) -> None:
    """Ending the open action by a card is an act in its window (P1, P4): refused to a Methuselah
    who does not hold the impulse, with the card its own or not; taken on the impulse."""
    t = s.t
    lucia = next(c.as_list() for c in t.view(s.ana).controlled(s.ana))
    marek = next(c.as_list() for c in t.view(s.ben).controlled(s.ben))
    act(t, s.ana, "action", kind="bleed", minion=lucia)
    assert t.state.open_action.impulse == s.ana
    refused(t, s.ben, T0, {"do": "action_end", "by": marek}, "you may end the action when it reaches you")
    act(t, s.ana, "pass")  # the impulse goes to the prey, Ben (P1)
    refused(t, s.ben, T0, {"do": "action_end", "by": lucia}, "must be a card you control")
    act(t, s.ben, "action_end", by=marek)
    assert t.state.open_action is None


def test_an_actions_numbers_changed_by_a_rule_with_no_card_wait_for_the_other_party(s: Seats) -> None:
    """A bleed's amount changed with no card named is a claim on the other parties to the
    action, and the window waits for their answer (docs/vtes-by-hand.md): the acting Methuselah's
    +1 waits for the prey, who accepts it; the prey's -2 on its impulse waits for the acting
    Methuselah, whose dispute leaves it out (the window goes on) and is listed for the judge."""
    t = s.t
    lucia = next(c.as_list() for c in t.view(s.ana).controlled(s.ana))
    act(t, s.ana, "action", kind="bleed", minion=lucia)
    act(t, s.ana, "adjust", amount=1, cause="a card of mine")
    (first,) = t.state.claims
    assert (first.seats, first.status, t.state.open_action.amount) == ((s.ben,), ClaimStatus.PENDING, 1)
    refused(t, s.ana, T0, {"do": "pass"}, "the window waits for")
    assert t.pending().awaited == (s.ben,)
    act(t, s.ben, "accept", act=first.act)
    assert t.state.open_action.amount == 2
    act(t, s.ana, "pass")  # the impulse goes to the prey, Ben (P1)
    act(t, s.ben, "adjust", amount=-2, cause="judge ruling")
    claim = t.state.claims[-1]
    assert (claim.author, claim.seats, claim.status, claim.cause) == (
        s.ben,
        (s.ana,),
        ClaimStatus.PENDING,
        "judge ruling",
    )
    assert t.state.open_action.amount == 2
    play(t, s.ana, T0, "dispute", act=claim.act)
    assert t.state.open_action.amount == 2 and t.state.claims[-1].status == ClaimStatus.VOID
    text = result_text(t.state, [f"P{i}" for i in range(4)])
    assert f"Disputed, for the judge: act {claim.act} by P{s.ben}" in text and "amount -2" in text, text


def test_made_up_stealth_against_a_block_waits_for_the_blocker(s: Seats) -> None:
    """The acting Methuselah's stealth raised with no card named during a block attempt works
    against the blocker: a claim that Methuselah answers before the block resolves."""
    t = s.t
    lucia = next(c.as_list() for c in t.view(s.ana).controlled(s.ana))
    act(t, s.ana, "action", kind="bleed", minion=lucia)
    act(t, s.ana, "pass")
    blocker = next(c.as_list() for c in t.view(s.ben).controlled(s.ben) if not c.locked)
    act(t, s.ben, "block", minion=blocker)
    act(t, s.ana, "adjust", stealth=5, cause="made up")
    claim = t.state.claims[-1]
    assert (claim.seats, claim.status, t.state.open_action.stealth) == ((s.ben,), ClaimStatus.PENDING, 0)
    assert t.pending().awaited == (s.ben,)
    assert t.pending().waiting == f"{{s{s.ben}}}: the answer to act {claim.act}, a change by hand"
    refused(t, s.ben, T0, {"do": "pass"}, "the window waits for")
    play(t, s.ben, T0, "dispute", act=claim.act)
    assert t.state.open_action.stealth == 0 and t.state.claims[-1].status == ClaimStatus.VOID


def test_a_cause_that_names_a_card_or_a_title_names_one_of_the_authors(s: Seats) -> None:
    """Words that are a card's name or a title name the author's own (docs/vtes-by-hand.md,
    "Sources are one's own"): a card in play, set aside or put in its ash heap this turn, a
    Discipline of a minion it controls, a title a vampire it controls holds; a card in hand is
    played first; any other words stay free and are shown with the claim."""
    t = s.t
    ana, ben, dee = s.ana, s.ben, s.dee  # Aksinya Daclau (no Obfuscate); Alexander Silverson, Prince; Ashley, obf
    pool = {"do": "pool", "seat": ben, "delta": -1}
    refused(t, ana, T0, {**pool, "cause": "Govern the Unaligned"}, "Govern the Unaligned is not yours to name")
    refused(t, ana, T0, {**pool, "cause": "govern THE unaligned"}, "Govern the Unaligned is not yours to name")
    refused(t, ana, T0, {**pool, "cause": "Conditioning"}, "no Conditioning of yours is in play")  # in her hand
    refused(t, ana, T0, {**pool, "cause": "Alexander Silverson"}, "no Alexander Silverson of yours")  # Ben's
    refused(t, ana, T0, {**pool, "cause": "Prince of Chicago"}, "Prince is not yours to name as a cause")
    refused(t, ana, T0, {**pool, "cause": "Obfuscate"}, "no minion you control has Obfuscate")
    play(t, ana, T0, "burn", cards=[in_hand(t, ana, "Conditioning")], cause="discard")  # her own: at once
    play(t, ana, T0, "pool", seat=ben, delta=-1, cause="conditioning")
    play(t, ana, T0, "pool", seat=ben, delta=-1, cause="Aksinya Daclau")
    play(t, dee, T0, "pool", seat=ben, delta=-1, cause="Obfuscate")
    play(t, ben, T0, "pool", seat=dee, delta=-1, cause="Prince")
    play(t, ben, T0, "pool", seat=dee, delta=-1, cause="judge ruling")
    assert [c.cause for c in t.state.claims] == [
        "conditioning",
        "Aksinya Daclau",
        "Obfuscate",
        "Prince",
        "judge ruling",
    ]
    t.state = dataclasses.replace(t.state, ashed=())  # the next turn: the card was not put there this turn
    refused(t, ana, T0, {**pool, "cause": "Conditioning"}, "put in your ash heap this turn")
    act(t, ana, "action", kind="bleed", minion=next(c.as_list() for c in t.view(ana).controlled(ana)))
    refused(t, ana, T0, {"do": "adjust", "stealth": 1, "cause": "Conditioning"}, "not yours to name")


def test_changes_by_hand_are_bounded_per_seat_and_a_shuffle_more(s: Seats) -> None:
    t = s.t
    lucia = next(c.as_list() for c in t.view(s.ana).controlled(s.ana))
    for i in range(BY_HAND_RATE.burst):
        play(t, s.ana, T0, "blood", card=lucia, delta=1 if i % 2 == 0 else -1, cause="x")
    refused(t, s.ana, T0, {"do": "blood", "card": lucia, "delta": 1, "cause": "x"}, "at most 30 changes by hand")
    play(t, s.ben, T0, "pool", delta=1, cause="x")  # another seat's bucket is its own
    play(t, s.ana, T0 + 60_000 // BY_HAND_RATE.per_minute, "blood", card=lucia, delta=1, cause="x")
    play(t, s.cy, T0, "shuffle", zone="crypt")
    play(t, s.cy, T0, "shuffle", zone="crypt")
    refused(t, s.cy, T0, {"do": "shuffle", "zone": "crypt"}, "shuffles by hand at most 1 time a minute")


BY_HAND_ACTS = st.sampled_from(
    ["pool", "blood", "burn_hand", "move_top", "hand_size", "shuffle", "lock", "combat", "move_on", "give"]
)


def _attempt(t: SimTable, who: int, victim: int, kind: str, at: int) -> None:
    mine = [c.as_list() for c in t.view(who).controlled(who)]
    theirs = [c.as_list() for c in t.view(victim).controlled(victim)]
    hand = [list(c.pos) for c in t.state.cards if c.owner == victim and c.zone == Zone.HAND]
    lib = t.state.players[victim].crypt
    acts = {
        "pool": {"do": "pool", "seat": victim, "delta": -5 if victim != who else 5, "cause": "x"},
        "blood": {"do": "blood", "card": theirs[0], "delta": -1, "cause": "x"} if theirs else None,
        "burn_hand": {"do": "burn", "cards": hand[:2], "cause": "x"} if hand else None,
        "move_top": {"do": "move", "cards": [list(lib[0])], "to": "ash", "cause": "x"} if lib else None,
        "hand_size": {"do": "hand_size", "seat": victim, "delta": 2, "cause": "x"},
        "shuffle": {"do": "shuffle", "seat": victim, "zone": "crypt", "cause": "x"},
        "lock": {"do": "lock", "cards": theirs[:1], "cause": "x"} if theirs else None,
        "combat": {"do": "combat", "minions": [mine[0], theirs[0]], "cause": "x"} if mine and theirs else None,
        "move_on": {"do": "move", "cards": mine[:1], "to": "on", "on": theirs[0], "cause": "x"}
        if mine and theirs
        else None,
        "give": {"do": "move", "cards": mine[:1], "to": "ready", "controller": victim, "cause": "x"} if mine else None,
    }
    chosen = acts[kind]
    if chosen is not None:
        try:
            t.play(who, chosen, at=at)
            t.run_ops()
        except GameError:
            pass


def _things(t: SimTable, seat: int) -> tuple:
    """A seat's things: its pool, hand size, status, crypt and library, and its cards (those it owns
    out of play, those it controls in play, and whatever lies on them). A card it gave away and
    another controls is that one's (its blood theirs to change)."""
    p = t.state.players[seat]
    theirs = {c.pos for c in t.state.cards if (c.controller == seat if c.zone.in_play else c.owner == seat)}
    cards = tuple(
        sorted(
            (c.pos, c.zone, c.controller, c.counters, c.locked, c.on) for c in t.state.cards if theirs & {c.pos, c.on}
        )
    )
    return (p.pool, p.hand_size, p.status, p.crypt, p.library, cards)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), BY_HAND_ACTS, st.integers(0, 2 * CLAIM_WAIT_MS)),
        min_size=1,
        max_size=12,
    )
)
def test_random_changes_by_hand_never_touch_another_without_its_answer_or_time(made: Seats, steps) -> None:
    """Whatever random seats record by hand to one another, at whatever times, no seat's things
    change unless it accepted or a witness let the claim lapse after its time; and no hidden card
    becomes known to anyone but its owner by another seat's act."""
    t = copy_table(made.t)
    seats = made.t.state.seating
    at = T0
    for who_i, victim_i, kind, later in steps:
        who, victim = seats[who_i], seats[victim_i]
        at += later
        before = {s: _things(t, s) for s in seats if s != who}
        owners = {c.pos: c.owner for c in t.state.cards if c.zone.hidden and not c.card}
        _attempt(t, who, victim, kind, at)
        for s in seats:
            if s != who:
                assert _things(t, s) == before[s], "a change by hand took effect without its answer or time"
        for seat in seats:
            shown = [p for p in owners if p in t.known[seat] and owners[p] not in (seat, who)]
            assert not shown, "another's hidden card was shown"
        assert not any(c.card for c in t.state.cards if c.pos in owners and c.owner != who)
        # Then time passes and someone else answers for the clock: only undisputed, visible
        # claims take effect, and never one that moves another's hidden cards.
        for c in t.state.claims:
            if c.status == ClaimStatus.PENDING and c.due and at >= c.due:
                witness = next(s for s in seats if s != c.author and t.state.players[s].status == Status.IN)
                t.play(witness, {"do": "lapse", "act": c.act}, at=at)
                t.run_ops()
        assert not any(c.card for c in t.state.cards if c.pos in owners and c.owner != who and c.zone.hidden)
