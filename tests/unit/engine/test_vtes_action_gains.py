"""What an action card gives its own as it succeeds, from its record (shared/rules/vtes-actions.md
P2, P4): Restoration, "+1 stealth action. [for] This vampire gains 2 blood. [FOR] This vampire gains
3 blood.", the acting vampire's blood up to its capacity (the excess drained, as a hunt's); Art
Scam, "+1 stealth action. Gain 2 pool.", its Methuselah's pool; each narrated with what it gave,
and the log replays to the same state."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import announced_through, copy_table, one_vampire_table, replayed
from tests.support.vtes_sim import first_vampire as vampire


def announced(t: SimTable, name: str) -> list[Act]:
    ana = t.state.acting
    view = t.view(ana)
    card = next(c.as_list() for c in view.hand if c.name == name)
    return [a for a in VTES.legal_acts(view) if a["do"] == "action" and a.get("card") == card]


def blood(t: SimTable) -> int:
    ana = t.state.acting
    return next(c.counters for c in t.view(ana).cards if c.as_list() == vampire(t, ana))


@pytest.mark.parametrize(("vampire_name", "start_blood", "level", "after"), [("Arika", 4, 3, 7), ("C.J.", 3, 3, 4)])
def test_restoration_gives_the_acting_vampire_its_blood_up_to_its_capacity(
    vampire_name: str, start_blood: int, level: int, after: int
) -> None:
    start = one_vampire_table(vampire_name, (("Restoration", 7),), seed=5, blood=(start_blood, 2, 2, 2))
    t = copy_table(start)
    offered = announced(t, "Restoration")
    assert sorted(a["add_blood"] for a in offered) == [2, 3]  # FOR at superior: either level
    act = next(a for a in offered if a["add_blood"] == level)
    assert act["add_to"] == vampire(t, t.state.acting) and act["stealth"] == 1
    done, said = announced_through(t, act)
    assert blood(t) == after
    gained = after - start_blood
    drained = f" ({level - gained} over capacity drained)" if gained < level else ""
    assert any(s.endswith(f"gains {gained} blood{drained}") for s in said), said
    assert replayed(start, done).state == t.state


def test_restoration_gives_no_other_vampire_its_blood() -> None:
    t = one_vampire_table("Arika", (("Restoration", 7),), seed=5)
    act = announced(t, "Restoration")[0]
    ben = t.view(t.state.acting).players[t.state.acting].prey
    with pytest.raises(IllegalMove, match="add_to names a vampire of your uncontrolled region"):
        t.play(t.state.acting, {**act, "add_to": vampire(t, ben)})


def test_art_scam_gains_its_methuselah_2_pool_as_it_succeeds() -> None:
    start = one_vampire_table("Amber", (("Art Scam", 7),), seed=5)
    t = copy_table(start)
    ana = t.state.acting
    (act,) = announced(t, "Art Scam")
    assert act["gain_pool"] == 2 and act["kind"] == "other"
    before = t.view(ana).players[ana].pool
    done, said = announced_through(t, act)
    assert t.view(ana).players[ana].pool == before + 2
    assert any(s.endswith("gains 2 pool") for s in said), said
    assert not any("by hand" in s for s in said), said
    assert replayed(start, done).state == t.state
