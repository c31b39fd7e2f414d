"""A master card that moves blood from a vampire its player controls to their pool (rulebook, "2.
Master Phase"): Villein (2 to 5 blood, put on that vampire) and Minion Tap (any amount) are offered
per vampire with blood, moving as much as the card allows and the vampire has; the table moves the
blood as the card is played, narrates it with the card's name, and the log replays to the same
state; a vampire with too little blood, or another's, is refused with a sentence.

Every crypt is twelve Arika; the first Methuselah's vampire has 7 blood; it is in its master
phase, its hand holding Villein and Minion Tap."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import copy_table, one_vampire_table

LIBRARY = (("Villein", 2), ("Minion Tap", 2))


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


@pytest.mark.parametrize(("name", "moved", "placed"), [("Villein", 5, True), ("Minion Tap", 7, False)])
def test_a_master_card_moves_blood_to_the_pool(start: SimTable, name: str, moved: int, placed: bool) -> None:
    t = copy_table(start)
    ana = t.state.acting
    vampire, blood = arika(t)
    offered = plays(t, name)
    assert [(a["move_blood"], a["minion"]) for a in offered] == [(moved, vampire)]
    assert (offered[0].get("on") == vampire) == placed
    pool = t.view(ana).players[ana].pool
    notes = t.play(ana, offered[0])
    t.run_ops()
    assert t.view(ana).players[ana].pool == pool + moved
    assert arika(t)[1] == blood - moved
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert any(f"{name}: {moved} blood moved from" in s for s in said), said
    if placed:
        assert next(c for c in t.view(ana).cards if c.name == name and c.zone.in_play).on == tuple(vampire)
    again = copy_table(start)
    again.play(ana, offered[0])
    assert again.state == t.state


def test_more_blood_than_the_vampire_has_or_anothers_vampire_is_refused(start: SimTable) -> None:
    t = copy_table(start)
    ana = t.state.acting
    tap = plays(t, "Minion Tap")[0]
    with pytest.raises(IllegalMove, match="has 7 blood: Minion Tap cannot move 8"):
        t.play(ana, {**tap, "move_blood": 8})
    ben = t.view(ana).players[ana].prey
    bens = next(c.as_list() for c in t.view(ana).controlled(ben) if c.crypt)
    with pytest.raises(IllegalMove, match="must be a card you control"):
        t.play(ana, {**tap, "minion": bens})
    assert t.state == start.state
