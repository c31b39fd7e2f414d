"""What a combat card's strike does beyond its damage, applied by the table as the strike resolves
(shared/rules/vtes-actions.md 5.5, P5): Majesty at superior ends combat and unlocks the vampire
that played it ("As above, and unlock this vampire before combat ends"); the log replays to the
same state.

Every crypt is twelve Arika (aus cel DOM FOR OBF PRE); every opening hand holds two Majesty."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import copy_table, one_vampire_table, to_the_strike

LIBRARY = (("Majesty", 2), ("Lost in Crowds", 2), ("Conditioning", 1), ("Deflection", 2))


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Arika", LIBRARY, seed=5)


def vampire(t: SimTable, seat: int) -> list[int]:
    return next(c.as_list() for c in t.view(seat).controlled(seat) if c.crypt)


def locked(t: SimTable, seat: int) -> bool:
    return next(c.locked for c in t.view(seat).controlled(seat) if c.crypt)


def majesty_strikes(t: SimTable, seat: int) -> list[Act]:
    view = t.view(seat)
    cards = [c.as_list() for c in view.hand if c.name == "Majesty"]
    return [a for a in VTES.legal_acts(view) if a["do"] == "strike" and a.get("card") in cards]


def test_majesty_at_superior_ends_combat_and_unlocks_the_acting_vampire(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, _ = to_the_strike(t, done)
    assert locked(t, ana)  # it acted
    offered = majesty_strikes(t, ana)  # one strike per level that differs, basic first
    offered = [a for a in offered if a["card"] == offered[0]["card"]]  # one copy
    assert [bool(a.get("unlock")) for a in offered] == [False, True] and all(a["ends"] for a in offered)
    offered = offered[-1:]  # Arika has Presence at superior
    t.play(ana, offered[0])
    done.append((ana, offered[0]))
    c = t.state.open_combat
    assert c is not None
    notes = t.play(c.impulse, {"do": "strike", "minion": vampire(t, c.impulse)})
    done.append((c.impulse, {"do": "strike", "minion": vampire(t, c.impulse)}))
    while t.state.open_combat is not None:  # the damage step, then the end of the round
        seat = t.state.open_combat.impulse
        notes += t.play(seat, {"do": "pass"})
        done.append((seat, {"do": "pass"}))
    assert not locked(t, ana)
    said = [n.render([f"seat {s}" for s in range(4)]) for n in notes]
    assert any(line.endswith("unlocks as its strike resolves") for line in said), said
    again = copy_table(start)
    for seat, chosen in done:
        again.play(seat, chosen)
    assert again.state == t.state


def test_an_unlock_with_no_card_is_refused(start: SimTable) -> None:
    t = copy_table(start)
    ana, _ = to_the_strike(t, [])
    with pytest.raises(IllegalMove, match="an unlock rides with the combat card that gives it"):
        t.play(ana, {"do": "strike", "minion": vampire(t, ana), "unlock": True})


def test_a_hand_strike_at_plus_damage_deals_the_strikers_strength_plus_its_level() -> None:
    """Roundhouse: "[pot] Strike: hand strike at +2 damage. [POT] Strike: hand strike at +3
    damage." (every crypt here is Adana de Sforza, POT at superior, strength 1): its strike is
    offered at 1 + 3 and, at close range, deals it: Ben's vampire, 2 blood, mends 2 and goes to
    torpor."""
    t, done = one_vampire_table("Adana de Sforza (G4)", (("Roundhouse", 3), ("Conditioning", 4)), seed=5), []
    ana, ben = to_the_strike(t, done)
    view = t.view(ana)
    cards = [c.as_list() for c in view.hand if c.name == "Roundhouse"]
    offered = [a for a in VTES.legal_acts(view) if a["do"] == "strike" and a.get("card") in cards][-1:]
    assert offered and {a["damage"] for a in offered} == {4} and not any(a.get("ranged") for a in offered)
    target = vampire(t, ben)
    t.play(ana, offered[0])
    t.run_ops()
    c = t.state.open_combat
    assert c is not None
    t.play(c.impulse, {"do": "strike", "minion": target})
    t.run_ops()
    while (c := t.state.open_combat) is not None and c.step == "damage":
        t.play(c.impulse, {"do": "pass"})
        t.run_ops()
    hit = next(c for c in t.state.cards if list(c.pos) == target)
    assert (hit.zone, hit.counters) == ("torpor", 0)
