"""A reaction that reduces a bleed against its player (Telepathic Counter: "reduce a bleed against
you by 1", by 2 at superior) is offered to the bled Methuselah once blocks are declined, never
below 0; the table lowers the bleed's amount at once, narrated with the card's name; the pool
burned follows; the log replays to the same state.

Every crypt is twelve Arika (Auspex at basic): Telepathic Counter at basic only. Ana's vampire has
4 blood and plays Conditioning (+2 bleed, limited), so her bleed is for 3."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.sim import SimTable
from tests.support.vtes_sim import card_plays as plays
from tests.support.vtes_sim import copy_table, one_vampire_table, replayed
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = (("Telepathic Counter", 2), ("Conditioning", 2))


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Arika", LIBRARY, seed=5)


def test_telepathic_counter_reduces_the_bleed_once_blocks_are_declined(start: SimTable) -> None:
    t = copy_table(start)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    done: list[tuple[int, Act]] = [(ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})]
    t.play(*done[0])
    assert plays(t, ben, "Telepathic Counter") == []  # not Ben's impulse, blocks not declined
    bleed = next(a for a in plays(t, ana, "Conditioning") if a["amount"] == 2)
    for step in ((ana, bleed), (ana, {"do": "pass"}), (ben, {"do": "pass"})):  # Ben declines to block
        t.play(*step)
        done.append(step)
    while (a := t.state.open_action) is not None and a.impulse != ben:
        done.append((a.impulse, {"do": "pass"}))
        t.play(a.impulse, {"do": "pass"})
    a = t.state.open_action
    assert a is not None and a.window == "C" and a.amount == 3
    offered = plays(t, ben, "Telepathic Counter")
    assert [x["amount"] for x in offered] == [-1]  # basic only: Arika has Auspex at basic
    notes = t.play(ben, offered[0])
    done.append((ben, offered[0]))
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert "Telepathic Counter: amount -1 → 2" in said, said
    pool = t.view(ben).players[ben].pool
    while t.state.open_action is not None:
        seat = t.state.open_action.impulse
        done.append((seat, {"do": "pass"}))
        t.play(seat, {"do": "pass"})
    assert t.view(ben).players[ben].pool == pool - 2
    assert replayed(start, done).state == t.state
