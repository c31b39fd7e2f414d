"""A weapon's strike, from its record (rulebook, "Equipment"; vtes-actions.md 5.4): the minion
holding .44 Magnum (a gun: "Strike: 2R damage") or Ivory Bow ("Strike: 1R aggravated damage") is
offered that strike, the weapon stays on it and nothing is paid; the damage is its printed damage;
the log replays to the same state; a card on another minion, or in hand, is no weapon to strike
with.

Every crypt is twelve Arika; Ana's vampire (4 blood) holds the weapon, moved on it from her hand;
Ben's (2 blood) blocks her bleed."""

from __future__ import annotations

import pytest

from engine.games.base import IllegalMove
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import act, copy_table, one_vampire_table, replayed, to_the_strike
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = ((".44 Magnum", 1), ("Ivory Bow", 1), ("Lost in Crowds", 2))


@pytest.fixture(scope="module")
def start() -> SimTable:
    t = one_vampire_table("Arika", LIBRARY, seed=5)
    ana = t.state.acting
    for name in (".44 Magnum", "Ivory Bow"):
        weapon = next(c.as_list() for c in t.view(ana).hand if c.name == name)
        act(t, ana, "move", cards=[weapon], to="on", on=vampire(t, ana), no_replace=True)
    return t


def bens(t: SimTable, seat: int, pos: list[int]) -> tuple[int, str]:
    """The blood and zone of the vampire at ``pos``."""
    c = next(c for c in t.view(seat).cards if c.as_list() == pos)
    return c.counters, c.zone


@pytest.mark.parametrize(("name", "damage", "aggravated"), [(".44 Magnum", 2, False), ("Ivory Bow", 1, True)])
def test_a_weapon_strikes_from_play_for_its_printed_damage(
    start: SimTable, name: str, damage: int, aggravated: bool
) -> None:
    t, done = copy_table(start), []
    ana, ben = to_the_strike(t, done)
    weapon = next(c for c in t.view(ana).cards if c.name == name)
    offered = [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "strike" and a.get("card") == weapon.as_list()]
    assert len(offered) == 1 and offered[0]["damage"] == damage and offered[0]["ranged"] is True
    assert bool(offered[0].get("aggravated")) == aggravated
    target = vampire(t, ben)
    before = (bens(t, ben, target)[0], t.view(ana).players[ana].pool)
    notes = t.play(ana, offered[0])
    done.append((ana, offered[0]))
    hand = {"do": "strike", "minion": vampire(t, ben)}
    notes += t.play(ben, hand)
    done.append((ben, hand))
    while t.state.open_combat is not None:
        seat = t.state.open_combat.impulse
        notes += t.play(seat, {"do": "pass"})
        done.append((seat, {"do": "pass"}))
    # normal damage burns blood; aggravated damage that a vampire cannot heal sends it to torpor (5.5)
    assert bens(t, ben, target) == ((before[0], "torpor") if aggravated else (before[0] - damage, "ready"))
    assert t.view(ana).players[ana].pool == before[1]  # nothing paid
    assert next(c for c in t.view(ana).cards if c.name == name).on == tuple(vampire(t, ana))  # it stays
    assert replayed(start, done).state == t.state


def test_a_weapon_on_another_minion_is_not_the_strikers(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, ben = to_the_strike(t, done)
    t.play(ana, {"do": "strike", "minion": vampire(t, ana)})  # Ana's hand strike
    magnum = next(c.as_list() for c in t.view(ana).cards if c.name == ".44 Magnum")
    offered = [a for a in VTES.legal_acts(t.view(ben)) if a["do"] == "strike" and a.get("card") == magnum]
    assert offered == []
    with pytest.raises(IllegalMove, match="not in your hand, nor a weapon on the striking minion"):
        t.play(ben, {"do": "strike", "minion": vampire(t, ben), "card": magnum, "damage": 2, "ranged": True})
