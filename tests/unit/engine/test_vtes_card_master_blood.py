"""A master card that moves blood from a vampire its player controls to their pool (rulebook, "2.
Master Phase"): Villein (2 to 5 blood, put on that vampire) and Minion Tap (any amount) are offered
per vampire with blood and amount the card allows and the vampire has (the player picks); the
table moves the blood as the card is played, narrates it with the card's name, and the log replays
to the same state; an amount outside the card's range, a vampire with too little blood, or
another's, is refused with a sentence. A master card that adds blood (Zillah's Valley: 4 to an
uncontrolled vampire of capacity 8 or more; Giant's Blood: a vampire of yours to its capacity) is
offered per vampire it fits and adds it.

Every crypt is twelve Arika; the first Methuselah's vampire has 7 blood; it is in its master
phase, its hand holding Villein, Minion Tap, Zillah's Valley and Giant's Blood."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import answer_passes, copy_table, one_vampire_table

LIBRARY = (("Villein", 2), ("Minion Tap", 2), ("Zillah's Valley", 1), ("Giant's Blood", 1))


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Arika", LIBRARY, seed=5, blood=(7, 2, 2, 2), phase="master")


def plays(t: SimTable, name: str) -> list[Act]:
    ana = t.state.acting
    view = t.view(ana)
    card = next(c.as_list() for c in view.hand if c.name == name)
    return [a for a in VTES.legal_acts(view) if a["do"] == "play" and a["card"] == card]


def arika(t: SimTable) -> tuple[list[int], int]:
    ana = t.state.acting
    c = next(c for c in t.view(ana).controlled(ana) if c.crypt)
    return c.as_list(), c.counters


@pytest.mark.parametrize(("name", "moved", "low", "placed"), [("Villein", 5, 2, True), ("Minion Tap", 7, 1, False)])
def test_a_master_card_moves_blood_to_the_pool(start: SimTable, name: str, moved: int, low: int, placed: bool) -> None:
    t = copy_table(start)
    ana = t.state.acting
    vampire, blood = arika(t)
    offered = plays(t, name)
    # one offer per amount the card allows and the vampire has, the most first: the player picks
    assert [(a["move_blood"], a["minion"]) for a in offered] == [(n, vampire) for n in range(moved, low - 1, -1)]
    assert (offered[0].get("on") == vampire) == placed
    pool = t.view(ana).players[ana].pool
    notes = t.play(ana, offered[0])
    t.run_ops()
    notes += answer_passes(t)  # the others pass: none holds a card that cancels it
    assert t.view(ana).players[ana].pool == pool + moved
    assert arika(t)[1] == blood - moved
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert any(f"{name}: {moved} blood moved from" in s for s in said), said
    if placed:
        assert next(c for c in t.view(ana).cards if c.name == name and c.zone.in_play).on == tuple(vampire)
    again = copy_table(start)
    again.play(ana, offered[0])
    answer_passes(again)
    assert again.state == t.state


def test_more_blood_than_the_vampire_has_or_anothers_vampire_is_refused(start: SimTable) -> None:
    t = copy_table(start)
    ana = t.state.acting
    tap = plays(t, "Minion Tap")[0]
    with pytest.raises(IllegalMove, match="has 7 blood: Minion Tap cannot move 8"):
        t.play(ana, {**tap, "move_blood": 8})
    villein = plays(t, "Villein")[0]
    for amount in (1, 6):  # "move 2 to 5 blood"
        with pytest.raises(IllegalMove, match=f"Villein moves 2 to 5 blood, not {amount}"):
            t.play(ana, {**villein, "move_blood": amount})
    ben = t.view(ana).players[ana].prey
    bens = next(c.as_list() for c in t.view(ana).controlled(ben) if c.crypt)
    with pytest.raises(IllegalMove, match="must be a card you control"):
        t.play(ana, {**tap, "minion": bens})
    assert t.state == start.state


def test_zillahs_valley_and_giants_blood_add_blood_to_a_vampire_of_yours(start: SimTable) -> None:
    t = copy_table(start)
    ana = t.state.acting
    waiting = sorted(c.as_list() for c in t.view(ana).uncontrolled(ana))
    valley = plays(t, "Zillah's Valley")
    assert sorted(a["add_to"] for a in valley) == waiting and all(a["add_blood"] == 4 for a in valley)
    vampire, blood = arika(t)
    giant = plays(t, "Giant's Blood")
    assert sorted((a["add_to"], a["add_blood"]) for a in giant) == sorted(
        [(vampire, 11 - blood)] + [(w, 11) for w in waiting]
    )  # Arika's capacity is 11
    pool = t.view(ana).players[ana].pool
    notes = t.play(ana, valley[0]) + answer_passes(t)
    assert next(c.counters for c in t.view(ana).cards if c.as_list() == valley[0]["add_to"]) == 4
    assert t.view(ana).players[ana].pool == pool - 5  # its printed cost
    assert any(n.text.startswith("Zillah's Valley: 4 blood added to") for n in notes)
    with pytest.raises(IllegalMove, match="add_blood and add_to go together"):
        t.play(ana, {k: v for k, v in giant[0].items() if k != "add_to"})
