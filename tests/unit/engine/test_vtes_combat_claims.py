"""A combat effect declared with no card is a claim the other side may dispute (shared/rules/
vtes-actions.md P9, as every change recorded by hand): a strike other than the hand strike, a
maneuver, a press. The hand strike, and an effect played with its card, are not claims.

Seats clockwise Ana, Ben, Cy, Dee; Lucia (Ana's, acting) fights Marek (Ben's) after Ben's block of
Lucia's bleed (:func:`tests.support.vtes_fight.bleed_blocked`).
"""

from __future__ import annotations

import dataclasses

import pytest

from tests.support.vtes_fight import Fight, bleed_blocked, combat_loop, fight_table, in_hand, refused
from tests.support.vtes_sim import act, copy_table


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


def test_a_strike_by_hand_is_a_claim_ben_disputes_and_the_hand_strike_is_none(f):
    t = f.t
    for _ in range(3):
        combat_loop(t, _order(f))
    act(t, f.ana, "strike", minion=f.lucia, damage=2, aggravated=True)
    [(author, seats, text, cause)] = _claims(f)
    assert (author, seats, cause) == (f.ana, (f.ben,), "no card named")
    assert text.startswith("the strike of ") and text.endswith(": 2 aggravated damage")
    number = t.state.claims[0].act
    said = [n.text for n in t.notes if "may be disputed" in n.text]
    assert said[-1].endswith(f"(cause: no card named); act {number} may be disputed")
    act(t, f.ben, "strike", minion=f.marek)  # the hand strike: no claim
    assert len(t.state.claims) == 1
    refused(t, f.cy, {"do": "dispute", "act": number}, "only the Methuselah whose things")
    act(t, f.ben, "dispute", act=number)
    assert t.state.claims[0].disputed == (f.ben,)
    assert "a judge settles it" in t.notes[-1].text


def test_a_maneuver_and_a_press_by_hand_are_claims_with_a_card_they_are_not(f):
    t = f.t
    combat_loop(t, _order(f))  # before range
    act(t, f.ana, "maneuver", minion=f.lucia)
    assert [(a, s, c) for a, s, _, c in _claims(f)] == [(f.ana, (f.ben,), "no card named")]
    assert _claims(f)[0][2].startswith("a maneuver by ")
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
    assert last.text.startswith("a press by ")
