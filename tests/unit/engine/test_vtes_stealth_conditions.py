"""A stealth modifier whose level carries its condition after a comma: Shroud of Night ("[obt] +1
stealth, not usable during a bleed action. [OBT] +1 stealth."). Its basic level is offered and
applied in a hunt's block attempt, never in a bleed's (refused with the card's sentence); its
superior level in both; the log replays to the same state. Every crypt is twelve Banjoko (Obtenebration at
basic) or Alvaro (at superior)."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from engine.sim import SimTable
from tests.support.vtes_sim import act, one_vampire_table, replayed
from tests.support.vtes_sim import card_plays as plays
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = (("Shroud of Night", 3), ("Conditioning", 2))


def _blocked(vampire_name: str, kind: str) -> tuple[SimTable, SimTable, list[tuple[int, Act]], int]:
    start = one_vampire_table(vampire_name, LIBRARY, seed=4)
    t = one_vampire_table(vampire_name, LIBRARY, seed=4)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    action: Act = {"do": "action", "kind": kind, "minion": vampire(t, ana)}
    if kind == "bleed":
        action["target"] = ben
    done: list[tuple[int, Act]] = [
        (ana, action),
        (ana, {"do": "pass"}),
        (ben, {"do": "block", "minion": vampire(t, ben)}),
    ]
    for step in done:
        t.play(*step)
    a = t.state.open_action
    assert a is not None and a.window == "B"
    if a.stealth > a.intercept:  # a hunt is a +1 stealth action: Ben's intercept by hand makes it needed
        while (a := t.state.open_action) is not None and a.impulse != ben:
            done.append((a.impulse, {"do": "pass"}))
            t.play(a.impulse, {"do": "pass"})
        adjust: Act = {"do": "adjust", "intercept": a.stealth - a.intercept, "cause": "a card"}
        done.append((ben, adjust))
        t.play(ben, adjust)
        for claim in t.state.claims:  # Ana accepts the change to her action
            accept: Act = {"do": "accept", "act": claim.act}
            done.append((ana, accept))
            t.play(ana, accept)
    a = t.state.open_action
    assert a is not None and a.stealth == a.intercept
    return start, t, done, ana


@pytest.mark.parametrize("vampire_name", ["Banjoko", "Alvaro, The Scion of Angelica"])
def test_shroud_of_night_adds_1_stealth_in_a_hunt_at_either_level(vampire_name: str) -> None:
    start, t, done, ana = _blocked(vampire_name, "hunt")
    offered = plays(t, ana, "Shroud of Night")
    assert [a["stealth"] for a in offered] == [1]
    notes = t.play(ana, offered[0])
    done.append((ana, offered[0]))
    assert t.state.open_action is not None and t.state.open_action.stealth == 2
    assert "Shroud of Night: stealth +1 → 2" in [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert replayed(start, done).state == t.state


def test_at_basic_shroud_of_night_is_not_usable_during_a_bleed() -> None:
    _, t, _, ana = _blocked("Banjoko", "bleed")
    assert plays(t, ana, "Shroud of Night") == []
    card = next(c.as_list() for c in t.view(ana).hand if c.name == "Shroud of Night")
    before = t.state
    with pytest.raises(IllegalMove, match='says "Not usable during a bleed action"'):
        act(t, ana, "play", card=card, stealth=1)
    assert t.state == before


def test_at_superior_shroud_of_night_adds_1_stealth_to_a_bleed() -> None:
    start, t, done, ana = _blocked("Alvaro, The Scion of Angelica", "bleed")
    offered = plays(t, ana, "Shroud of Night")
    assert [a["stealth"] for a in offered] == [1]
    t.play(ana, offered[0])
    done.append((ana, offered[0]))
    assert t.state.open_action is not None and t.state.open_action.stealth == 1
    assert replayed(start, done).state == t.state
