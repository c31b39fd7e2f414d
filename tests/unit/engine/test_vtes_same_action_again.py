"""A card that ends an action and says its minion "cannot perform the same action again this turn"
(Change of Target: "Only usable if this minion is blocked, before block resolution. Unlock this
minion. The action ends (unsuccessfully). This minion cannot perform the same action again this
turn."; Obedience, the acting vampire): the table ends the action, unlocks the minion, and then
refuses the same action by that minion this turn with the card's name, while another action is
accepted; the log replays to the same state.

Every crypt is twelve Arika; Ana's Arika hunts (a +1 stealth action) and Ben's blocks with +1
intercept recorded by hand."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes.card_report import find
from engine.sim import SimTable
from tests.support.vtes_sim import card_plays as plays
from tests.support.vtes_sim import copy_table, logged, one_vampire_table, replayed
from tests.support.vtes_sim import first_vampire as vampire


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Arika", (("Change of Target", 2), ("Conditioning", 5)), seed=5)


def _blocked_hunt(t: SimTable) -> tuple[int, list[tuple[int, Act]]]:
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    done: list[tuple[int, Act]] = []
    logged(t, done, ana, {"do": "action", "kind": "hunt", "minion": vampire(t, ana)})
    logged(t, done, ana, {"do": "pass"})
    logged(t, done, ben, {"do": "block", "minion": vampire(t, ben)})
    while (a := t.state.open_action) is not None and a.impulse != ben:
        logged(t, done, a.impulse, {"do": "pass"})
    logged(t, done, ben, {"do": "adjust", "intercept": 1, "cause": "a card"})
    for claim in t.state.claims:
        logged(t, done, ana, {"do": "accept", "act": claim.act})
    while (a := t.state.open_action) is not None and a.impulse != ana:
        logged(t, done, a.impulse, {"do": "pass"})
    a = t.state.open_action
    assert a is not None and a.window == "B" and a.stealth == a.intercept == 1
    return ana, done


def test_change_of_target_bars_the_same_action_again_this_turn(start: SimTable) -> None:
    t = copy_table(start)
    ana, done = _blocked_hunt(t)
    offered = plays(t, ana, "Change of Target")
    assert [(a["end_action"], a["unlock_actor"]) for a in offered] == [(True, True)]
    said = logged(t, done, ana, offered[0])
    assert t.state.open_action is None
    me = t.view(ana).card(tuple(vampire(t, ana)))
    assert me is not None and not me.locked
    assert any("cannot perform the same action again this turn" in s for s in said), said
    assert t.state.done[-1].no_repeat == find("Change of Target").id  # type: ignore[union-attr]
    before = t.state
    with pytest.raises(IllegalMove, match=r"cannot perform the same action \(hunt\) again this turn: Change of Target"):
        t.play(ana, {"do": "action", "kind": "hunt", "minion": vampire(t, ana)})
    assert t.state == before
    ben = t.view(ana).players[ana].prey
    logged(t, done, ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})
    assert t.state.open_action is not None and t.state.open_action.kind == "bleed"
    assert replayed(start, done).state == t.state
