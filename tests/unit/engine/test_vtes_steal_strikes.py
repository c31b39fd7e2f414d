"""A combat card's strike that steals blood (shared/rules/vtes-actions.md 5.5: stealing is not
damage): Theft of Vitae, "[tha] Strike, ranged: steal 1 blood or life (becoming blood). [THA]
Strike, ranged: steal 2 blood or life (becoming blood)", offered as a ranged steal at its level,
moves the blood from the opposing vampire to the striker at once, narrated, and the log replays to
the same state.

Ana's vampire (4 blood) bleeds Ben, Ben's (2 blood) blocks; both are Blythe Candeleria (THA,
capacity 3) for the superior level, Ehrich Weiss (tha, capacity 3) for the basic one."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.games.vtes import VTES
from tests.support.vtes_sim import copy_table, first_vampire, one_vampire_table, replayed, to_the_strike

LIBRARY = (("Theft of Vitae", 3), ("Conditioning", 4))


def counters(t, pos: list[int]) -> int:
    return next(c.counters for c in t.state.cards if list(c.pos) == pos)


@pytest.mark.parametrize(("vampire", "steal"), [("Ehrich Weiss (G3)", 1), ("Blythe Candeleria (G2)", 2)])
def test_theft_of_vitae_steals_blood_at_its_level(vampire: str, steal: int) -> None:
    start = one_vampire_table(vampire, LIBRARY, seed=5, blood=(1, 2, 2, 2))
    t, done = copy_table(start), []
    ana, ben = to_the_strike(t, done)
    view = t.view(ana)
    cards = [c.as_list() for c in view.hand if c.name == "Theft of Vitae"]
    offered = [a for a in VTES.legal_acts(view) if a["do"] == "strike" and a.get("card") in cards]
    assert offered and max(a["steal"] for a in offered) == steal and all(a["ranged"] for a in offered)
    strike: Act = next(a for a in offered if a["steal"] == steal)
    mine, theirs = first_vampire(t, ana), first_vampire(t, ben)
    t.play(ana, strike)
    done.append((ana, strike))
    c = t.state.open_combat
    assert c is not None
    notes = []
    hand = {"do": "strike", "minion": theirs}
    t.play(c.impulse, hand)
    done.append((c.impulse, hand))
    while (c := t.state.open_combat) is not None and c.step == "damage":
        notes += t.play(c.impulse, {"do": "pass"})
        done.append((c.impulse, {"do": "pass"}))
    said = [n.render([f"seat {s}" for s in range(4)]) for n in notes]
    assert any(f"steals {steal} blood from" in line for line in said), said
    assert counters(t, theirs) == 2 - steal
    # Ana's vampire: 1 blood, +steal (capacity 3), -1 from Ben's hand strike
    assert counters(t, mine) == 1 + steal - 1
    assert replayed(start, done).state == t.state
