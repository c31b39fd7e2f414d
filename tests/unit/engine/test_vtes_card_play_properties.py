"""Random play with cards whose numbers the table applies (card_play): from a table whose hands
hold stealth, intercept and bleed cards of the archive's most played (Lost in Crowds, Conditioning,
Telepathic Misdirection, Eyes of Argus, Cloak the Gathering), sequences drawn from the offers never
make pool or a counter negative, and every number a played card adds is narrated with its name."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.vtes import VTES
from engine.games.vtes.vocab import Step
from engine.sim import SimTable
from tests.support.vtes_sim import copy_table, one_vampire_table

LIBRARY = (
    ("Lost in Crowds", 2),
    ("Conditioning", 1),
    ("Telepathic Misdirection", 2),
    ("Eyes of Argus", 1),
    ("Cloak the Gathering", 1),
)


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Arika", LIBRARY, seed=7, blood=(3, 3, 3, 3))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_offered_card_numbers_keep_counters_whole_and_are_narrated(start: SimTable, data: st.DataObject) -> None:
    t = copy_table(start)
    names = [f"seat {s}" for s in range(4)]
    for _ in range(data.draw(st.integers(5, 40), label="acts")):
        if t.state.step != Step.PLAY:
            break
        (seat,) = t.pending().awaited
        legal = VTES.legal_acts(t.view(seat))
        plays = [a for a in legal if a["do"] == "play" and {"stealth", "intercept", "amount"} & set(a)]
        chosen = data.draw(st.sampled_from(plays * 3 + [a for a in legal if a["do"] not in ("end_turn",)] or legal))
        name = next((c.name for c in t.view(seat).hand if c.as_list() == chosen.get("card")), "")
        notes = t.play(seat, chosen)
        t.run_ops()
        said = [n.render(names) for n in notes]
        for field in ("stealth", "intercept", "amount"):
            if chosen["do"] == "play" and chosen.get(field):
                assert any(line.startswith(f"{name}: ") and f"{field} +{chosen[field]}" in line for line in said), said
        assert all(p.pool >= 0 for p in t.state.players)
        assert all(c.counters >= 0 for c in t.state.cards)
