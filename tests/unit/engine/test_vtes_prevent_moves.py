"""Preventions and moves the table reads beyond a number (shared/rules/vtes-actions.md 5.3, 5.9,
P5): Hidden Strength ("Prevent X+1 damage", X blood; superior with 1 optional press), Skin of Steel
(all of the strike's damage; superior: all damage this round), Rolling with the Punches at
superior (burn 1 blood: all damage this round), Flash ("Maneuver or press"; superior "Maneuver with
1 optional press"). Each is offered in its step, changes the numbers at once, and replays to the
same state.

Ana's vampire (4 blood) bleeds Ben, Ben's (2 blood) blocks; every crypt is Arika (FOR at superior,
cel at basic) or Brachah (for at basic, CEL at superior)."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import (
    copy_table,
    first_vampire,
    one_vampire_table,
    replayed,
    to_combat_step,
    to_the_strike,
)

SUPERIOR_FOR = "Arika"
BASIC_FOR = "Brachah (G2)"
LIBRARY = (("Hidden Strength", 1), ("Skin of Steel", 1), ("Rolling with the Punches", 1), ("Flash", 2))


@pytest.fixture(scope="module")
def tables() -> dict[str, SimTable]:
    return {name: one_vampire_table(name, LIBRARY, seed=5) for name in (SUPERIOR_FOR, BASIC_FOR)}


def damage_step(start: SimTable) -> tuple[SimTable, list[tuple[int, Act]], int, int]:
    """Both hand strikes chosen: the damage step, Ana on the impulse."""
    t, done = copy_table(start), []
    ana, ben = to_the_strike(t, done)
    for seat in (ana, ben):
        strike = {"do": "strike", "minion": first_vampire(t, seat)}
        t.play(seat, strike)
        done.append((seat, strike))
    c = t.state.open_combat
    assert c is not None and c.step == "damage" and c.impulse == ana
    return t, done, ana, ben


def offered(t: SimTable, seat: int, name: str, do: str) -> list[Act]:
    view = t.view(seat)
    cards = [c.as_list() for c in view.hand if c.name == name]
    return [a for a in VTES.legal_acts(view) if a["do"] == do and a.get("card") in cards]


def blood(t: SimTable, pos: list[int]) -> int:
    return next(c.counters for c in t.state.cards if list(c.pos) == pos)


def play(t: SimTable, done: list[tuple[int, Act]], seat: int, act: Act) -> list[str]:
    notes = t.play(seat, act)
    done.append((seat, act))
    return [n.render([f"seat {s}" for s in range(4)]) for n in notes]


def finish_damage(t: SimTable, done: list[tuple[int, Act]]) -> list[str]:
    said: list[str] = []
    while (c := t.state.open_combat) is not None and c.step == "damage":
        said += play(t, done, c.impulse, {"do": "pass"})
    return said


@pytest.mark.parametrize(("vampire", "press"), [(BASIC_FOR, False), (SUPERIOR_FOR, True)])
def test_hidden_strength_prevents_x_plus_one_for_x_blood(
    tables: dict[str, SimTable], vampire: str, press: bool
) -> None:
    t, done, ana, _ = damage_step(tables[vampire])
    plays = offered(t, ana, "Hidden Strength", "prevent")
    assert plays and all(a["normal"] == 1 and "blood" not in a for a in plays)  # 1 damage: X is 0
    assert any(a.get("press") for a in plays) == press
    mine = first_vampire(t, ana)
    # two points prevented for one blood (X = 1), as a player may choose
    act = {**plays[0], "normal": 2, "blood": 1}
    said = play(t, done, ana, act)
    assert any("Hidden Strength (burning 1 blood) prevents 2 normal" in line for line in said), said
    said = finish_damage(t, done)
    assert blood(t, mine) == 4 - 1  # the blood burned, no damage taken
    assert replayed(tables[vampire], done).state == t.state


@pytest.mark.parametrize(("vampire", "whole_round"), [(BASIC_FOR, False), (SUPERIOR_FOR, True)])
def test_skin_of_steel_prevents_all_of_the_strike_and_at_superior_the_round(
    tables: dict[str, SimTable], vampire: str, whole_round: bool
) -> None:
    t, done, ana, _ = damage_step(tables[vampire])
    plays = offered(t, ana, "Skin of Steel", "prevent")
    assert plays and {a["normal"] for a in plays} == {1}
    chosen = max(plays, key=lambda a: bool(a.get("round")))
    assert bool(chosen.get("round")) == whole_round
    mine = first_vampire(t, ana)
    play(t, done, ana, chosen)
    c = t.state.open_combat
    assert c is not None and (tuple(mine) in c.shielded) == whole_round
    finish_damage(t, done)
    assert blood(t, mine) == 4 - 1  # its printed cost, no damage
    assert replayed(tables[vampire], done).state == t.state


def test_rolling_with_the_punches_at_superior_burns_a_blood_for_the_round(tables: dict[str, SimTable]) -> None:
    t, done, ana, _ = damage_step(tables[SUPERIOR_FOR])
    plays = offered(t, ana, "Rolling with the Punches", "prevent")
    rolled = next(a for a in plays if a.get("round"))
    assert rolled["blood"] == 1
    mine = first_vampire(t, ana)
    said = play(t, done, ana, rolled)
    assert any("all damage from the opposing strikes for the rest of this round" in line for line in said), said
    finish_damage(t, done)
    assert blood(t, mine) == 4 - 1
    assert replayed(tables[SUPERIOR_FOR], done).state == t.state


def test_flash_at_basic_is_a_maneuver_or_a_press(tables: dict[str, SimTable]) -> None:
    t, done = copy_table(tables[SUPERIOR_FOR]), []  # Arika: cel at basic
    ana, _ = to_combat_step(t, done, "range")
    maneuvers = offered(t, ana, "Flash", "maneuver")
    assert maneuvers and not any(a.get("press") for a in maneuvers)
    play(t, done, ana, maneuvers[0])
    assert t.state.open_combat is not None and t.state.open_combat.long
    assert replayed(tables[SUPERIOR_FOR], done).state == t.state


def test_flash_at_superior_maneuvers_with_an_optional_press(tables: dict[str, SimTable]) -> None:
    t, done = copy_table(tables[BASIC_FOR]), []  # Brachah: CEL at superior
    ana, _ = to_combat_step(t, done, "range")
    flash = next(a for a in offered(t, ana, "Flash", "maneuver") if a.get("press"))
    play(t, done, ana, flash)
    c = t.state.open_combat
    assert c is not None and c.long and (tuple(flash["minion"]), tuple(flash["card"])) in c.presses
    assert replayed(tables[BASIC_FOR], done).state == t.state


def test_a_bot_prevents_the_damage_it_faces_with_its_card(tables: dict[str, SimTable]) -> None:
    from engine.games.vtes.bots import vtes_bot

    t, _, ana, _ = damage_step(tables[SUPERIOR_FOR])
    view = t.view(ana)
    chosen = vtes_bot("heuristic", seed=1).choose(view, VTES.legal_acts(view))
    assert chosen is not None and chosen["do"] == "prevent" and chosen["normal"] == 1 and "blood" not in chosen
