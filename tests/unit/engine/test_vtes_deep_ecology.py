"""Deep Ecology ("Requires an Anarch. [ani] Only usable during an action directed at you (or a card
you control). +2 intercept. [for] Reduce a bleed against you by 2. [pro] Only usable by a locked
vampire. This vampire burns 1 blood to unlock."): at Protean, a locked Anarch of the bled
Methuselah is offered it while its Methuselah may still block; it pays 1 blood and unlocks, and may
then block; the log replays to the same state. Every crypt is twelve Crow (an Anarch with Protean)."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import card_plays as plays
from tests.support.vtes_sim import copy_table, logged, one_vampire_table, replayed
from tests.support.vtes_sim import first_vampire as vampire


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Crow", (("Deep Ecology", 3), ("Conditioning", 4)), seed=5, blood=(4, 3, 3, 3))


def test_a_locked_anarch_burns_1_blood_to_unlock_and_may_block(start: SimTable) -> None:
    t = copy_table(start)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    done: list[tuple[int, Act]] = []
    logged(t, done, ben, {"do": "lock", "cards": [vampire(t, ben)], "cause": "effect"})
    logged(t, done, ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})
    logged(t, done, ana, {"do": "pass"})
    offered = [a for a in plays(t, ben, "Deep Ecology") if a.get("unlock")]
    assert [(a["blood"], a["minion"]) for a in offered] == [(1, vampire(t, ben))]
    said = logged(t, done, ben, offered[0])
    me = t.view(ben).card(tuple(vampire(t, ben)))
    assert me is not None and not me.locked and me.counters == 2
    assert any(s.startswith("Deep Ecology: ") and "unlocks" in s for s in said), said
    while (a := t.state.open_action) is not None and a.impulse != ben:
        logged(t, done, a.impulse, {"do": "pass"})
    assert [b["minion"] for b in VTES.legal_acts(t.view(ben)) if b["do"] == "block"] == [vampire(t, ben)]
    assert replayed(start, done).state == t.state
