"""Fifth Tradition: Hospitality ("+1 stealth action. Requires a prince or justicar. Add 4 blood to
another vampire."): announced with its +1 stealth and the vampire chosen, any Methuselah's ready
vampire but the acting one; the 4 blood added as it succeeds (shared/rules/vtes-actions.md P2,
P4); the log replays to the same state. Every crypt is three each of four princes and justicars,
every hand seven Hospitality."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.games.vtes import VTES
from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck
from tests.support.vtes_fight import Fight, fight_table, refused
from tests.support.vtes_sim import copy_table

CARD = "Fifth Tradition: Hospitality"
TITLED = ("Anson", "Queen Anne", "Lodin (Olaf Holte)", "Lucinde, Alastor")


@pytest.fixture(scope="module")
def f() -> Fight:
    ids = [card_base().lookup(n) for n in TITLED]
    crypt = Deck("titled", tuple((i.id, 3) for i in ids if i is not None), ())
    return fight_table(seed=1, blood=(4, 1, 1, 1), crypt=crypt, library=((CARD, 7),))


def offered(f: Fight) -> list[Act]:
    view = f.t.view(f.ana)
    return [a for a in VTES.legal_acts(view) if a["do"] == "action" and a.get("card") and a["minion"] == f.lucia]


def blood(t, pos: list[int]) -> int:
    return next(c.counters for c in t.state.cards if list(c.pos) == pos)


def test_hospitality_adds_4_blood_to_another_ready_vampire_as_it_succeeds(f: Fight) -> None:
    t = copy_table(f.t)
    acts = offered(f)
    assert sorted(tuple(a["add_to"]) for a in acts) == sorted(tuple(p) for p in (f.marek, f.nico, f.sasha))
    assert all(a["add_blood"] == 4 and a["stealth"] == 1 for a in acts)  # both lines, one way
    chosen = next(a for a in acts if a["add_to"] == f.marek)
    before = blood(t, f.marek)
    done: list[tuple[int, Act]] = [(f.ana, chosen)]
    notes = list(t.play(f.ana, chosen))
    while t.state.open_action is not None:
        seat = t.state.open_action.impulse
        notes += t.play(seat, {"do": "pass"})
        done.append((seat, {"do": "pass"}))
    assert blood(t, f.marek) == before + 4
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert any("4 blood added to" in line for line in said), said
    assert not any("by hand" in line for line in said), said
    again = copy_table(f.t)
    for seat, act_ in done:
        again.play(seat, act_)
    assert again.state == t.state


def test_hospitality_adds_no_blood_to_the_acting_vampire(f: Fight) -> None:
    t = copy_table(f.t)
    chosen = {**offered(f)[0], "add_to": f.lucia}
    refused(t, f.ana, chosen, f"{CARD} adds blood to another ready vampire than the acting one")
