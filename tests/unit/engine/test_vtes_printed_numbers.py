"""The numbers a minion's card prints are the table's (rulebook "Strength", "Allies"): a hand
strike deals the minion's printed strength (Mark Decker's "+1 strength": 2), an ally enters play
with its printed life and bleeds for its printed bleed (Carlton Van Wyk: 2 life, 0 bleed).

Every crypt is twelve Mark Decker; every hand holds Carlton Van Wyk (an ally, 2 pool)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.vtes import VTES
from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck
from tests.support.vtes_fight import Fight, bleed_blocked, card, combat_loop, fight_table, in_hand
from tests.support.vtes_sim import act, copy_table

LIBRARY = (("Carlton Van Wyk", 2), ("Conditioning", 5))


@pytest.fixture(scope="module")
def base() -> Fight:
    mark = card_base().lookup("Mark Decker")
    assert mark is not None
    return fight_table(seed=3, blood=(4, 4, 1, 1), crypt=Deck("mark", ((mark.id, 12),), ()), library=LIBRARY)


def test_a_hand_strike_deals_the_printed_strength(base: Fight) -> None:
    f = dataclasses.replace(base, t=copy_table(base.t))
    bleed_blocked(f)
    for _ in range(3):
        combat_loop(f.t, (f.ana, f.ben, f.cy, f.dee))
    assert f.t.state.open_combat is not None and f.t.state.open_combat.step == "strike"
    act(f.t, f.ana, "strike", minion=f.lucia)  # hand strikes: Mark Decker's strength is 2
    act(f.t, f.ben, "strike", minion=f.marek)
    for _ in range(4):
        c = f.t.state.open_combat
        if c is None or c.step != "damage":
            break
        act(f.t, c.impulse, "pass")
    assert card(f.t, f.lucia).counters == 4 - 2
    assert card(f.t, f.marek).counters == 4 - 2


def test_an_ally_enters_with_its_printed_life_and_bleeds_for_its_printed_bleed(base: Fight) -> None:
    f = dataclasses.replace(base, t=copy_table(base.t))
    t = f.t
    carlton = in_hand(t, f.ana, "Carlton Van Wyk")
    notes = act(t, f.ana, "action", kind="recruit", minion=f.lucia, card=carlton)
    for _ in range(12):  # every Methuselah passes until the action resolves
        if t.state.open_action is None:
            break
        act(t, t.state.open_action.impulse, "pass")
    assert t.state.open_action is None
    ally = card(t, carlton)
    assert (ally.zone, ally.counters) == ("ready", 2)
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in t.notes[len(notes) :]]
    assert any("with 2 life" in line for line in said), said
    # the next turn, its bleed is offered for its printed 0
    t.state = dataclasses.replace(t.state, recruited=())
    view = t.view(f.ana)
    bleeds = [
        a for a in VTES.legal_acts(view) if a["do"] == "action" and a["kind"] == "bleed" and a["minion"] == carlton
    ]
    assert [a["amount"] for a in bleeds] == [0]
