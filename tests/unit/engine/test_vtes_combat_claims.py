"""A combat effect declared with no card is a claim on the other side, and the combat waits for
their answer or its time (shared/rules/vtes-actions.md P9, docs/vtes-by-hand.md, as every change
recorded by hand): a strike other than the hand strike, a maneuver, a press, a prevention. The hand
strike, and an effect played with its card, are not claims.

Seats clockwise Ana, Ben, Cy, Dee; Lucia (Ana's, acting) fights Marek (Ben's) after Ben's block of
Lucia's bleed (:func:`tests.support.vtes_fight.bleed_blocked`).
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.base import IllegalMove
from engine.games.vtes.claims import CLAIM_WAIT_MS
from engine.games.vtes.scoring import result_text
from engine.games.vtes.vocab import ClaimStatus
from tests.support.vtes_fight import Fight, bleed_blocked, combat_loop, fight_table, in_hand, refused
from tests.support.vtes_sim import accept_claims, act, copy_table


@pytest.fixture(scope="module")
def base() -> Fight:
    f = fight_table(seed=1, blood=(4, 3, 1, 1))
    bleed_blocked(f)
    return f


@pytest.fixture
def f(base: Fight) -> Fight:
    return dataclasses.replace(base, t=copy_table(base.t))


def _order(f: Fight) -> tuple[int, ...]:
    return (f.ana, f.ben, f.cy, f.dee)


def _claims(f: Fight) -> list[tuple[int, tuple[int, ...], str, str]]:
    return [(c.author, c.seats, c.text, c.cause) for c in f.t.state.claims]


def test_a_strike_by_hand_waits_for_ben_and_his_dispute_leaves_it_out(f):
    """Ana's strike of 2 aggravated with no card is a claim on Ben: the combat waits for his
    answer (his strike is refused meanwhile), and his dispute lets the combat go on without it:
    Ana chooses her strike again, the judge sees the dispute."""
    t = f.t
    for _ in range(3):
        combat_loop(t, _order(f))
    act(t, f.ana, "strike", minion=f.lucia, damage=2, aggravated=True)
    [(author, seats, text, cause)] = _claims(f)
    assert (author, seats, cause) == (f.ana, (f.ben,), "no card named")
    assert text.startswith("the strike of ") and text.endswith(": 2 aggravated damage")
    number = t.state.claims[0].act
    assert t.state.claims[0].status == ClaimStatus.PENDING and t.state.open_combat.strikes == ()
    assert "the window waits for it" in t.notes[-1].text
    assert t.pending().awaited == (f.ben,)
    refused(t, f.ben, {"do": "strike", "minion": f.marek}, f"the window waits for {{s{f.ben}}}'s answer")
    refused(t, f.cy, {"do": "dispute", "act": number}, "only the Methuselah whose things")
    act(t, f.ben, "dispute", act=number)
    assert t.state.claims[0].status == ClaimStatus.VOID and t.state.claims[0].disputed == (f.ben,)
    assert "the window goes on" in t.notes[-1].text
    act(t, f.ana, "strike", minion=f.lucia)  # the hand strike: no claim
    act(t, f.ben, "strike", minion=f.marek)
    assert len(t.state.claims) == 1
    text = result_text(t.state, [f"P{i}" for i in range(4)])
    assert f"act {number} by P{f.ana}" in text and "the window went on without it" in text, text
    assert text.count(f"disputed by P{f.ben}") == 1, text  # the dispute said once


def test_a_strike_by_hand_ben_accepts_takes_effect_and_a_prevention_by_hand_waits_its_time(f):
    t = f.t
    for _ in range(3):
        combat_loop(t, _order(f))
    act(t, f.ana, "strike", minion=f.lucia, damage=2, aggravated=True)
    number = t.state.claims[0].act
    act(t, f.ben, "accept", act=number)
    assert t.state.claims[0].status == ClaimStatus.TAKEN and len(t.state.open_combat.strikes) == 1
    act(t, f.ben, "strike", minion=f.marek)
    # the damage step: Ben, on the impulse, prevents by hand
    while t.state.open_combat.impulse != f.ben:
        act(t, t.state.open_combat.impulse, "pass")
    act(t, f.ben, "prevent", minion=f.marek, agg=1)
    held = t.state.claims[-1]
    assert (held.author, held.seats, held.status) == (f.ben, (f.ana,), ClaimStatus.PENDING)
    assert t.state.open_combat.prevent == ()
    at = t.state.clock + CLAIM_WAIT_MS
    with pytest.raises(IllegalMove, match="waits 1 second more"):
        t.play(f.cy, {"do": "lapse", "act": held.act}, at=at - 1)
    t.play(f.cy, {"do": "lapse", "act": held.act}, at=at)
    assert t.state.claims[-1].status == ClaimStatus.TAKEN and t.state.open_combat.prevent != ()


def test_a_maneuver_and_a_press_by_hand_are_claims_with_a_card_they_are_not(f):
    t = f.t
    combat_loop(t, _order(f))  # before range
    act(t, f.ana, "maneuver", minion=f.lucia)
    assert [(a, s, c) for a, s, _, c in _claims(f)] == [(f.ana, (f.ben,), "no card named")]
    assert _claims(f)[0][2].startswith("a maneuver by ")
    accept_claims(t)
    assert t.state.claims[0].status == ClaimStatus.TAKEN and t.state.open_combat.long
    act(t, f.ana, "pass")
    grapple = in_hand(t, f.ben, "Immortal Grapple")
    # played with a card (which sets aside its Potence, that Marek lacks: P9): no claim
    act(t, f.ben, "maneuver", minion=f.marek, card=grapple, lift="requirement", by=grapple)
    assert len(t.state.claims) == 1
    combat_loop(t, _order(f))  # the range step, after Ben's play
    combat_loop(t, _order(f))  # before strikes
    act(t, f.ana, "strike", minion=f.lucia)
    act(t, f.ben, "strike", minion=f.marek)
    combat_loop(t, _order(f))  # damage
    assert (t.state.open_combat.step, t.state.open_combat.impulse) == ("press", f.ana)
    act(t, f.ana, "press", minion=f.lucia)
    last = t.state.claims[-1]
    assert (len(t.state.claims), last.seats, last.cause) == (2, (f.ben,), "no card named")
    assert last.text.startswith("a press by ") and last.status == ClaimStatus.PENDING
    accept_claims(t)
    assert list(t.state.open_combat.press) == list(f.lucia)
