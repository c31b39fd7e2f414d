"""Eagle's Sight at superior ("[AUS] This vampire attempts to block the current action, ignoring the
normal prey, predator or target restrictions for blocking actions"): a Methuselah not entitled to
block a bleed (rulebook, "Who May Attempt to Block": only the target) is offered it on its impulse,
and its vampire attempts to block at once; the basic level's "+1 intercept" is offered only to a
blocker; the log replays to the same state. Every crypt is twelve Abiku (Auspex at superior)."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from engine.sim import SimTable
from tests.support.vtes_sim import card_plays as plays
from tests.support.vtes_sim import copy_table, one_vampire_table, replayed
from tests.support.vtes_sim import first_vampire as vampire

NAMES = ["Ana", "Ben", "Cy", "Dee"]


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Abiku", (("Eagle's Sight", 3), ("Conditioning", 4)), seed=5)


def _to(t: SimTable, done: list[tuple[int, Act]], seat: int) -> None:
    """Everyone passes until ``seat`` holds the open action's impulse."""
    while (a := t.state.open_action) is not None and a.impulse != seat:
        done.append((a.impulse, {"do": "pass"}))
        t.play(a.impulse, {"do": "pass"})
    assert t.state.open_action is not None


def _bled(start: SimTable) -> tuple[SimTable, list[tuple[int, Act]], int]:
    """Ana's vampire bleeds Ben, her prey; the impulse reaches Cy, across the table (neither her
    prey nor her predator: not entitled to block a bleed of Ben)."""
    t = copy_table(start)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    cy = t.view(ana).players[ben].prey
    done: list[tuple[int, Act]] = [(ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})]
    t.play(*done[0])
    _to(t, done, cy)
    return t, done, cy


def test_a_vampire_not_entitled_to_block_attempts_to_block_with_eagles_sight(start: SimTable) -> None:
    t, done, cy = _bled(start)
    offered = plays(t, cy, "Eagle's Sight")
    assert [a.get("block") for a in offered] == [True]  # no intercept to add: Cy's vampire is no blocker
    assert offered[0]["minion"] == vampire(t, cy)
    notes = t.play(cy, offered[0])
    done.append((cy, offered[0]))
    a = t.state.open_action
    assert a is not None and a.window == "B" and list(a.blocker) == vampire(t, cy)
    said = [n.render(NAMES) for n in notes]
    assert any(s.startswith("Eagle's Sight: ") and "attempts to block" in s for s in said), said
    assert replayed(start, done).state == t.state


def test_a_block_by_hand_is_still_refused_to_a_methuselah_not_entitled(start: SimTable) -> None:
    t, done, cy = _bled(start)
    with pytest.raises(IllegalMove, match="may block this action"):
        t.play(cy, {"do": "block", "minion": vampire(t, cy)})
    own = next(c.as_list() for c in t.view(cy).hand if c.name == "Conditioning")
    with pytest.raises(IllegalMove):  # Conditioning has no block attempt
        t.play(cy, {"do": "play", "card": own, "minion": vampire(t, cy), "block": True})
