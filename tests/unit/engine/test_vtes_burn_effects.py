"""An action card that burns a card in play as it succeeds (shared/rules/vtes-actions.md P2, P4;
rulebook, "Burn"): Conceal at basic ("Ⓓ Burn an equipment") burns the equipment named as it is
announced, Rewilding ("Ⓓ Burn a location and burn 2 pool from its controller") a location and 2 of
its controller's pool; nothing burns when the action is blocked; a card of another kind, or a
burn no card gives, is refused with its sentence; the log replays to the same state.

Every crypt is twelve Mark Decker (a Gangrel with basic obfuscate: Conceal at basic; Rewilding
requires a Gangrel): Ana's Lucia (4 blood) acts, Ben's Marek
(1 blood) may block; every hand two Conceal, two Rewilding, two Flak Jacket (equipment) and one
Information Highway (a location); Ben puts a Flak Jacket on Marek and his Information Highway in
play by hand."""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.base import Act
from engine.games.vtes import VTES
from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck
from tests.support.vtes_fight import Fight, fight_table, in_hand, passed_out, refused, role_names
from tests.support.vtes_sim import act, copy_table, replayed

LIBRARY = (("Conceal", 2), ("Rewilding", 2), ("Flak Jacket", 2), ("Information Highway", 1))


@dataclasses.dataclass
class Table:
    f: Fight
    jacket: list[int]
    highway: list[int]


@pytest.fixture(scope="module")
def base() -> Table:
    decker = card_base().lookup("Mark Decker")
    assert decker is not None
    f = fight_table(seed=1, crypt=Deck("decker", ((decker.id, 12),), ()), library=LIBRARY)
    jacket, highway = in_hand(f.t, f.ben, "Flak Jacket"), in_hand(f.t, f.ben, "Information Highway")
    act(f.t, f.ben, "move", cards=[jacket], to="on", on=f.marek)
    act(f.t, f.ben, "move", cards=[highway], to="ready")
    return Table(f, jacket, highway)


@pytest.fixture
def b(base: Table) -> Table:
    return dataclasses.replace(base, f=dataclasses.replace(base.f, t=copy_table(base.f.t)))


def _offered(f: Fight, name: str) -> list[Act]:
    card = in_hand(f.t, f.ana, name)
    return [a for a in VTES.legal_acts(f.t.view(f.ana)) if a["do"] == "action" and a.get("card") == card]


def _zone(f: Fight, pos: list[int]) -> str:
    return next(c.zone for c in f.t.view(f.ana).cards if c.as_list() == pos)


def test_conceal_burns_the_equipment_named_as_it_succeeds(b: Table, base: Table) -> None:
    f = b.f
    offered = _offered(f, "Conceal")
    burns = [(a["target_card"], a["kind"]) for a in offered if a.get("burn")]
    assert burns == [(b.jacket, "other")]  # basic obfuscate: an equipment, not a location
    chosen = next(a for a in offered if a.get("target_card") == b.jacket)
    refused(f.t, f.ana, chosen | {"target": f.cy}, "the target of an action that burns Flak Jacket is its controller")
    notes = [n.render(role_names(f)) for n in f.t.play(f.ana, chosen)]
    assert any("takes an action against Flak Jacket with Conceal" in line for line in notes), notes
    done = [(f.ana, chosen)]
    said = passed_out(f, done)
    assert _zone(f, b.jacket) == "ash"
    assert any(line.endswith("with Conceal succeeds: Flak Jacket burns") for line in said), said
    assert replayed(base.f.t, done).state == f.t.state


def test_rewilding_burns_the_location_and_2_of_its_controllers_pool(b: Table) -> None:
    f = b.f
    chosen = next(a for a in _offered(f, "Rewilding") if a.get("target_card") == b.highway)
    pool = f.t.state.players[f.ben].pool
    f.t.play(f.ana, chosen)
    said = passed_out(f, [])
    assert _zone(f, b.highway) == "ash" and f.t.state.players[f.ben].pool == pool - 2
    assert any(line.endswith("Information Highway burns and Ben burns 2 pool") for line in said), said


def test_nothing_burns_when_the_action_is_blocked(b: Table) -> None:
    f = b.f
    f.t.play(f.ana, next(a for a in _offered(f, "Conceal") if a.get("target_card") == b.jacket))
    f.t.play(f.ana, {"do": "pass"})
    f.t.play(f.ben, {"do": "block", "minion": f.marek})
    while f.t.state.open_action is not None:
        f.t.play(f.t.state.open_action.impulse, {"do": "pass"})
    assert _zone(f, b.jacket) == "on"


def test_a_burn_the_card_does_not_give_is_refused_with_its_sentence(b: Table) -> None:
    f = b.f
    rewilding = in_hand(f.t, f.ana, "Rewilding")
    burn = {"do": "action", "kind": "other", "minion": f.lucia, "burn": True}
    refused(
        f.t,
        f.ana,
        {**burn, "card": rewilding, "target_card": b.jacket},
        "Flak Jacket is not a card in play this card burns (location)",
    )
    refused(
        f.t,
        f.ana,
        {**burn, "target_card": b.jacket},
        "burn is an action card's: it names the card it burns (target_card)",
    )
