"""A combat card that adds to the hand strike ("[pot] Hand strike at +2 damage.", Roundhouse's
"[POT] Strike: hand strike at +3 damage") is offered as a strike dealing the striker's strength
plus its damage (the rulebook's "Strength"; shared/rules/vtes-actions.md 5.4, P5), and the table
deals that damage; the log replays to the same state.

Every crypt is twelve Chas Giovanni Tello (DOM POT, strength 1)."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import copy_table, one_vampire_table, replayed, to_the_strike
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = (("Slam", 1), ("Roundhouse", 1), ("Lost in Crowds", 2))


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Chas Giovanni Tello", LIBRARY, seed=5, blood=(4, 6, 2, 2))


def strikes_with(t: SimTable, seat: int, name: str) -> list[Act]:
    view = t.view(seat)
    cards = [c.as_list() for c in view.hand if c.name == name]
    return [a for a in VTES.legal_acts(view) if a["do"] == "strike" and a.get("card") in cards]


@pytest.mark.parametrize(("name", "damage"), [("Roundhouse", 4), ("Slam", 3)])
def test_a_hand_strike_card_deals_strength_plus_its_damage(start: SimTable, name: str, damage: int) -> None:
    t, done = copy_table(start), []
    ana, ben = to_the_strike(t, done)
    offered = strikes_with(t, ana, name)
    # one strike per level that differs, basic first; superior POT: 1 strength + the card's damage
    assert [a["damage"] for a in offered][-1:] == [damage]
    offered = offered[-1:]
    before = next(c.counters for c in t.view(ben).controlled(ben) if c.crypt)
    t.play(ana, offered[0])
    done.append((ana, offered[0]))
    notes: list[str] = []
    while (c := t.state.open_combat) is not None and c.step == "strike":
        step = (c.impulse, {"do": "strike", "minion": vampire(t, c.impulse)})
        t.play(*step)
        done.append(step)
    while (c := t.state.open_combat) is not None and c.step == "damage":
        step = (c.impulse, {"do": "pass"})
        notes += [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in t.play(*step)]
        done.append(step)
    after = next(c.counters for c in t.view(ben).controlled(ben) if c.crypt)
    assert before - after == damage, notes
    assert replayed(start, done).state == t.state
