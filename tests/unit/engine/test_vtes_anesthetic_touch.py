"""Anesthetic Touch ("Only usable at close range. [obe] Strike: hand strike. Combat ends
immediately after the resolution of this strike. [OBE] As [obe] above, with first strike."): the
hand strike is offered and dealt, combat ends once it resolved (no press, no second round), and at
superior it strikes first, so that an opposing vampire it sends to torpor never strikes
(rulebook, "First Strike"; shared/rules/vtes-actions.md 5.5). The log replays to the same state.

Ana's vampire bleeds Ben; Ben's blocks; both strike at close range, Ben with his hand."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import act, copy_table, one_vampire_table, replayed, to_the_strike
from tests.support.vtes_sim import first_vampire as vampire

CARD = "Anesthetic Touch"


def _state(t: SimTable, pos: list[int]) -> tuple[int, str]:
    card = next(c for c in t.state.cards if list(c.pos) == pos)
    return card.counters, card.zone


@pytest.mark.parametrize(
    ("crypt", "blood", "first", "ana_after", "ben_after"),
    [
        # [obe] (Lord Tremere): strikes together; each mends its 1 damage; combat ends after them
        ("Lord Tremere (G5)", (4, 2, 2, 2), False, (3, "ready"), (1, "ready")),
        # [OBE] (Blanche Hill): first strike; Ben's empty vampire goes to torpor and never strikes
        ("Blanche Hill (G2)", (4, 1, 1, 1), True, (4, "ready"), (0, "torpor")),
    ],
)
def test_anesthetic_touch_strikes_with_the_hand_and_ends_combat(
    crypt: str, blood: tuple[int, ...], first: bool, ana_after: tuple[int, str], ben_after: tuple[int, str]
) -> None:
    start = one_vampire_table(crypt, ((CARD, 4), ("Conditioning", 3)), seed=5, blood=blood)
    if blood[1] == 1:  # Ben's vampire empty: 1 damage sends it to torpor
        ben0 = start.view(start.state.acting).players[start.state.acting].prey
        act(start, ben0, "blood", card=vampire(start, ben0), delta=-1, cause="effect")
    t, done = copy_table(start), []
    ana, ben = to_the_strike(t, done)
    hand = [c.as_list() for c in t.view(ana).hand if c.name == CARD]
    offered = [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "strike" and a.get("card") in hand]
    # One strike offered per level that differs (basic first): the level under test is the one
    # with first strike at [OBE], the only one at [obe].
    touch = [a for a in offered if not a.get("dodge") and bool(a.get("first")) == first]
    assert touch and all(a["damage"] == 1 for a in touch)
    assert first or not any(a.get("first") for a in offered)
    mine, theirs = vampire(t, ana), vampire(t, ben)
    notes = list(t.play(ana, touch[0]))
    done.append((ana, touch[0]))
    chosen: Act = {"do": "strike", "minion": theirs}
    notes += t.play(ben, chosen)
    done.append((ben, chosen))
    steps = set()
    while (c := t.state.open_combat) is not None:
        steps.add(str(c.step))
        assert c.round == 1
        notes += t.play(c.impulse, {"do": "pass"})
        done.append((c.impulse, {"do": "pass"}))
    assert "press" not in steps
    said = [n.render([f"seat {s}" for s in range(4)]) for n in notes]
    assert _state(t, mine) == ana_after and _state(t, theirs) == ben_after
    if ben_after[1] == "ready":
        assert any("Combat ends after" in line for line in said), said
    assert replayed(start, done).state == t.state
