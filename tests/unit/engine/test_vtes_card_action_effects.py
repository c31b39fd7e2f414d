"""What an action card does as it succeeds, from its record (shared/rules/vtes-actions.md P2, P4):
Govern the Unaligned bleeds for 3 at basic ("+2 bleed"), and at superior adds 3 blood to a younger
vampire of the actor's uncontrolled region, chosen as it is announced; Kindred Spirits gains 1
pool when its bleed succeeds; the log replays to the same state.

Every crypt is six Arika (capacity 11: aus cel DOM FOR OBF PRE) and six Ashley (capacity 3); with
seed 1 Ana's ready vampire is an Arika and her uncontrolled region holds three Ashley. Every hand
is seven Govern the Unaligned."""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck
from tests.support.vtes_fight import Fight, fight_table
from tests.support.vtes_sim import copy_table, one_vampire_table, settle


@pytest.fixture(scope="module")
def base() -> Fight:
    arika, ashley = card_base().lookup("Arika"), card_base().lookup("Ashley")
    assert arika is not None and ashley is not None
    crypt = Deck("mixed", ((arika.id, 6), (ashley.id, 6)), ())
    return fight_table(seed=1, blood=(4, 4, 1, 1), crypt=crypt, library=(("Govern the Unaligned", 7),))


@pytest.fixture
def f(base: Fight) -> Fight:
    return dataclasses.replace(base, t=copy_table(base.t))


def governs(f: Fight) -> list[Act]:
    view = f.t.view(f.ana)
    return [a for a in VTES.legal_acts(view) if a["do"] == "action" and a.get("card") and a["minion"] == f.lucia]


def counters(f: Fight, pos: list[int]) -> int:
    return next(c.counters for c in f.t.view(f.ana).cards if c.as_list() == pos)


def test_govern_the_unaligned_bleeds_for_3_at_basic(f: Fight) -> None:
    bleeds = [a for a in governs(f) if a["kind"] == "bleed"]
    assert bleeds and all(a["amount"] == 3 for a in bleeds)
    ben = f.t.view(f.ben).players[f.ben]
    before = ben.pool
    f.t.play(f.ana, bleeds[0])
    settle(f.t)
    assert f.t.view(f.ben).players[f.ben].pool == before - 3


def test_govern_the_unaligned_at_superior_adds_3_blood_to_the_younger_vampire_chosen(f: Fight, base: Fight) -> None:
    adds = [a for a in governs(f) if a.get("add_blood")]
    younger = sorted(c.as_list() for c in f.t.view(f.ana).uncontrolled(f.ana))
    assert sorted(a["add_to"] for a in adds) == younger  # each Ashley (capacity 3) is younger than Arika
    assert all(a["add_blood"] == 3 and a["stealth"] == 1 and a["kind"] == "other" for a in adds)
    chosen = adds[0]
    done: list[tuple[int, Act]] = [(f.ana, chosen)]
    notes = list(f.t.play(f.ana, chosen))
    while f.t.state.open_action is not None:
        seat = f.t.state.open_action.impulse
        notes += f.t.play(seat, {"do": "pass"})
        done.append((seat, {"do": "pass"}))
    assert counters(f, chosen["add_to"]) == 3
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert any("succeeds; 3 blood added to a face-down vampire" in line for line in said), said  # still hidden
    assert not any("by hand" in line for line in said), said
    again = copy_table(base.t)
    for seat, chosen_act in done:
        again.play(seat, chosen_act)
    assert again.state == f.t.state


def test_the_blood_goes_only_to_the_actors_uncontrolled_region(f: Fight) -> None:
    act_ = next(a for a in governs(f) if a.get("add_blood"))
    with pytest.raises(IllegalMove, match="add_to names a vampire of your uncontrolled region"):
        f.t.play(f.ana, {**act_, "add_to": f.marek})
    with pytest.raises(IllegalMove, match="add_blood and add_to go together"):
        f.t.play(f.ana, {k: v for k, v in act_.items() if k != "add_to"})


@pytest.mark.parametrize(("level", "bled"), [("basic", 1), ("superior", 2)])
def test_kindred_spirits_gains_1_pool_when_its_bleed_succeeds(level: str, bled: int) -> None:
    t = one_vampire_table("The Ankou (G5)", (("Kindred Spirits", 7),), seed=3)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    view = t.view(ana)
    ankou = next(c for c in view.controlled(ana) if c.crypt)
    offered = [
        a
        for a in VTES.legal_acts(view)
        if a["do"] == "action" and a.get("card") and a["minion"] == ankou.as_list() and a.get("gain_pool")
    ]
    assert sorted(a["amount"] for a in offered) == [1, 2] and all(a["gain_pool"] == 1 for a in offered)
    chosen = next(a for a in offered if a["amount"] == bled)
    before = (t.view(ana).players[ana].pool, t.view(ben).players[ben].pool)
    t.play(ana, chosen)
    settle(t)
    assert t.view(ben).players[ben].pool == before[1] - bled
    assert t.view(ana).players[ana].pool == before[0] + 1
    assert any("and gains 1 pool" in n.text for n in t.notes), [n.text for n in t.notes[-3:]]


def test_govern_the_unaligned_at_superior_is_not_offered_with_no_younger_vampire_to_take_the_blood() -> None:
    """Every crypt card is Arika (capacity 11): no vampire of the uncontrolled region is younger, so
    the superior's "Add 3 blood to a younger vampire" could not happen; only the basic bleed is
    offered, never an action left to be applied by hand."""
    t = one_vampire_table("Arika", (("Govern the Unaligned", 7),), seed=3)
    ana = t.state.acting
    view = t.view(ana)
    arika = next(c.as_list() for c in view.controlled(ana) if c.crypt)
    offered = [a for a in VTES.legal_acts(view) if a["do"] == "action" and a.get("card") and a["minion"] == arika]
    assert offered and all(a["kind"] == "bleed" and a["amount"] == 3 for a in offered)
