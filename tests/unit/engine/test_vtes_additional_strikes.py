"""A combat card that gives additional strikes (rulebook, "Additional Strikes"; vtes-actions.md 5.6),
from its record: Blur ("Additional strike (limited)", two at superior) and Pursuit at superior are
offered with the hand strike, their printed cost paid; the table adds the strikes, the hand strike
deals the minion's strength, and one source per minion and round is offered; the log replays to
the same state.

Every crypt is twelve DeSalle (CEL POT PRE); Ana's vampire (4 blood) bleeds Ben, whose vampire (2
blood) blocks."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import copy_table, one_vampire_table, replayed, to_the_strike
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = (("Blur", 2), ("Pursuit", 2))


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("DeSalle", LIBRARY, seed=5)


def extra_strikes(t: SimTable, seat: int) -> list[Act]:
    return [a for a in VTES.legal_acts(t.view(seat)) if a["do"] == "strike" and a.get("additional")]


def test_blur_and_pursuit_add_strikes_with_the_hand_strike(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, ben = to_the_strike(t, done)
    offered = extra_strikes(t, ana)
    names = {next(c.name for c in t.view(ana).hand if c.as_list() == a["card"]): a["additional"] for a in offered}
    assert names == {"Blur": 2, "Pursuit": 1}  # each card's best clause DeSalle may play (superior)
    blur = next(a for a in offered if a["additional"] == 2)
    blood = next(c.counters for c in t.view(ana).cards if c.as_list() == vampire(t, ana))
    t.play(ana, blur)
    done.append((ana, blur))
    c = t.state.open_combat
    assert c is not None and c.extra[0] == 2 and c.strikes[0].hand and c.strikes[0].damage == 1
    assert next(x.counters for x in t.view(ana).cards if x.as_list() == vampire(t, ana)) == blood - 1  # Blur's cost
    assert next(x.zone for x in t.view(ana).cards if x.as_list() == blur["card"]) == "ash"
    assert replayed(start, done).state == t.state
