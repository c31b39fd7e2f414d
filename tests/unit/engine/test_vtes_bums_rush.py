"""Bum's Rush ("Do not replace until after this action. Ⓓ Enter combat with a minion. This acting
minion gets 1 optional maneuver during that combat."): announced naming another Methuselah's ready
minion (offered one per such minion; that minion's controller is the target); as it succeeds the
two enter combat and the acting minion's maneuver is carried into it: offered in the range step
naming the card, made once, narrated with its name; a minion of one's own is refused with a
sentence; the log replays to the same state.

Every seat's vampire is Nettie Hale; Ana's rushes Ben's."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.games.vtes.game import VTES
from engine.sim import SimTable
from tests.support.vtes_fight import refused
from tests.support.vtes_sim import copy_table, logged, one_vampire_table, replayed
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = (("Bum's Rush", 2), ("Raven Spy", 2))


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Nettie Hale", LIBRARY, seed=5)


def _rush(t: SimTable) -> list[Act]:
    ana = t.state.acting
    card = next(c.as_list() for c in t.view(ana).hand if c.name == "Bum's Rush")
    return [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "action" and a.get("card") == card]


def test_it_enters_combat_with_the_minion_named_and_carries_its_maneuver(start: SimTable) -> None:
    t = copy_table(start)
    done: list[tuple[int, Act]] = []
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    offered = _rush(t)
    assert sorted(tuple(a["target_card"]) for a in offered) == sorted(
        c.pos for c in t.view(ana).cards if c.crypt and c.zone == "ready" and c.controller != ana
    )
    chosen = next(a for a in offered if a["target_card"] == vampire(t, ben))
    logged(t, done, ana, chosen)
    assert t.state.open_action.targets == (ben,)
    said: tuple[str, ...] = ()
    for _ in range(40):
        if t.state.open_combat is not None:
            break
        a = t.state.open_action
        assert a is not None
        said += logged(t, done, a.impulse, {"do": "pass"})
    assert any("enters combat with" in s for s in said), said
    c = t.state.open_combat
    assert c is not None and (list(c.acting), list(c.opposing)) == (vampire(t, ana), vampire(t, ben))
    assert len(c.carried) == 1 and list(c.carried[0][0]) == vampire(t, ana)
    while t.state.open_combat.step != "range" or t.state.open_combat.impulse != ana:
        logged(t, done, t.state.open_combat.impulse, {"do": "pass"})
    move = {"do": "maneuver", "minion": vampire(t, ana), "card": list(c.carried[0][1])}
    assert move in VTES.legal_acts(t.view(ana))
    said = logged(t, done, ana, move)
    assert t.state.open_combat.carried == () and t.state.open_combat.long
    assert any(s.startswith("Bum's Rush: Nettie Hale") and "maneuvers: long range" in s for s in said), said
    assert replayed(start, done).state == t.state


def test_a_minion_of_ones_own_is_refused(start: SimTable) -> None:
    t = copy_table(start)
    ana = t.state.acting
    own = {**_rush(t)[0], "target_card": vampire(t, ana)}
    own.pop("target", None)
    refused(t, ana, own, "is not a ready minion of another Methuselah")
