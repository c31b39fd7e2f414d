"""A combat card whose strike sends the opposing vampire to torpor (rulebook, "Combat"; vtes-actions.md
5.5): Coma ("Strike: send the opposing vampire to torpor") is offered in the strike step, deals no
damage, and as the strikes resolve the opposing vampire goes to torpor and the combat ends (5.8); a
bot strikes with it; the strike at a minion it does not fit, or with no card, is refused with its
sentence; the log replays to the same state.

Every crypt is twelve Alicia Barrows (AUS DEM OBF POT PRE); Ana's vampire (4 blood) bleeds Ben,
whose vampire (2 blood) blocks; every hand seven Coma (3 blood)."""

from __future__ import annotations

import pytest

from engine.games.vtes import VTES
from engine.games.vtes.bots import VtesBot
from engine.sim import SimTable
from tests.support.vtes_fight import refused
from tests.support.vtes_sim import copy_table, one_vampire_table, replayed, to_the_strike
from tests.support.vtes_sim import first_vampire as vampire


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Alicia Barrows", (("Coma", 7),), seed=5)


def test_coma_sends_the_opposing_vampire_to_torpor_and_the_combat_ends(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, ben = to_the_strike(t, done)
    offered = [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "strike" and a.get("card")]
    assert offered and all(a.get("torpor") is True and "damage" not in a for a in offered)
    blocker = vampire(t, ben)
    for seat, chosen in ((ana, offered[0]), (ben, {"do": "strike", "minion": blocker})):
        t.play(seat, chosen)
        done.append((seat, chosen))
    while t.state.open_combat is not None:
        seat = t.state.open_combat.impulse
        t.play(seat, {"do": "pass"})
        done.append((seat, {"do": "pass"}))
    target = next(c for c in t.view(ana).cards if c.as_list() == blocker)
    assert target.zone == "torpor"
    assert any(n.text.endswith("goes to torpor: Alicia Barrows (G4)'s strike") for n in t.notes), t.notes[-8:]
    assert replayed(start, done).state == t.state


def test_a_bot_strikes_with_coma(start: SimTable) -> None:
    t = copy_table(start)
    ana, _ben = to_the_strike(t, [])
    view = t.view(ana)
    chosen = VtesBot(seed=0).choose(view, VTES.legal_acts(view))
    assert chosen is not None and chosen.get("torpor") is True


def test_a_torpor_strike_with_no_card_is_refused(start: SimTable) -> None:
    t = copy_table(start)
    ana, _ben = to_the_strike(t, [])
    refused(
        t,
        ana,
        {"do": "strike", "minion": vampire(t, ana), "torpor": True},
        "a strike that sends to torpor or burns is a card's: name the card",
    )
