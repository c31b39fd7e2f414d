"""A combat card that equips its minion with a weapon from the hand (docs/protocol.md 4.4.1 ``play``
``equip``): Concealed Weapon, "Only usable before range is determined. This minion equips with a
non-unique weapon card from your hand (requirements and cost apply as normal). The weapon cannot
cost 3 or more pool or inflict (with a regular strike) aggravated damage or 4 or more damage."

Before range, .44 Magnum (2 pool, "Strike: 2R damage") is offered and equipped, its 2 pool paid; it
then strikes from play; Ivory Bow (unique) and AK-47 (5 pool) are refused with a sentence; the
automatic pass stops only with a weapon to equip; a bot equips; Weighted Walking Stick goes on as a
weapon and wears; Leather Jacket is burned to prevent a strike; the log replays to the same state.

Every crypt is twelve Arika; Ana's vampire (4 blood) bleeds Ben, whose vampire (2 blood) blocks."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.games.vtes.autopass import auto_pass
from engine.games.vtes.bots import vtes_bot
from engine.sim import SimTable
from tests.support.vtes_sim import act, copy_table, one_vampire_table, replayed, to_combat_step
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = (("Concealed Weapon", 2), (".44 Magnum", 1), ("Ivory Bow", 1), ("AK-47", 1), ("Conditioning", 2))


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Arika", LIBRARY, seed=5)


def hand(t: SimTable, seat: int, name: str) -> list[int]:
    return next(c.as_list() for c in t.view(seat).hand if c.name == name)


def equips(t: SimTable, seat: int) -> list[Act]:
    return [a for a in VTES.legal_acts(t.view(seat)) if a["do"] == "play" and "equip" in a]


def test_concealed_weapon_equips_the_magnum_which_then_strikes(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, ben = to_combat_step(t, done, "before_range")
    assert t.state.open_combat is not None and t.state.open_combat.impulse == ana
    magnum = hand(t, ana, ".44 Magnum")
    offered = equips(t, ana)
    assert offered and all(a["equip"] == magnum for a in offered)  # not Ivory Bow (unique), not AK-47 (5 pool)
    assert auto_pass(t.view(ana)) is None
    pool = t.view(ana).players[ana].pool
    notes = t.play(ana, offered[0])
    done.append((ana, offered[0]))
    said = [n.render([f"seat {s}" for s in range(4)]) for n in notes]
    assert any("equips with .44 Magnum (Concealed Weapon)" in line for line in said), said
    on = next(c for c in t.view(ana).cards if c.as_list() == magnum)
    assert on.on == tuple(vampire(t, ana)) and t.view(ana).players[ana].pool == pool - 2
    while (c := t.state.open_combat) is not None and c.step != "strike":
        t.play(c.impulse, {"do": "pass"})
        done.append((c.impulse, {"do": "pass"}))
    strikes = [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "strike" and a.get("card") == magnum]
    assert strikes and strikes[0]["damage"] == 2 and strikes[0]["ranged"] is True
    assert replayed(start, done).state == t.state


@pytest.mark.parametrize(("weapon", "why"), [("Ivory Bow", "Ivory Bow is unique"), ("AK-47", "costs 5 pool")])
def test_a_weapon_outside_the_cards_limits_is_refused(start: SimTable, weapon: str, why: str) -> None:
    t = copy_table(start)
    ana, _ = to_combat_step(t, [], "before_range")
    act = {"do": "play", "card": hand(t, ana, "Concealed Weapon"), "minion": vampire(t, ana)}
    with pytest.raises(IllegalMove, match=why):
        t.play(ana, {**act, "equip": hand(t, ana, weapon)})


def test_a_bot_equips_and_with_no_weapon_the_pass_goes_on(start: SimTable) -> None:
    t = copy_table(start)
    ana, _ = to_combat_step(t, [], "before_range")
    view = t.view(ana)
    chosen = vtes_bot("heuristic", seed=1).choose(view, VTES.legal_acts(view))
    assert chosen is not None and chosen.get("equip") == hand(t, ana, ".44 Magnum")
    bare = one_vampire_table("Arika", (("Concealed Weapon", 2), ("Conditioning", 2)), seed=5)
    ana, _ = to_combat_step(bare, [], "before_range")
    assert equips(bare, ana) == [] and auto_pass(bare.view(ana)) == {"do": "pass"}


def test_weighted_walking_stick_goes_on_as_a_weapon_and_wears_with_its_damage() -> None:
    """Weighted Walking Stick: "Put this card with 5 counters on it on this minion; it becomes a
    melee weapon equipment that can strike: strength+1 damage. For each damage inflicted by this
    strike (even if prevented), burn 1 counter from this card. … A minion can have only one": it
    goes on Ana's vampire with 5 counters, a second is not offered, its strike deals 1 + 1 and
    burns 2 counters."""
    start = one_vampire_table("Arika", (("Weighted Walking Stick", 2), ("Conditioning", 2)), seed=5)
    t, done = copy_table(start), []
    ana, ben = to_combat_step(t, done, "before_range")
    me = vampire(t, ana)
    sticks = [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "play" and a.get("to") == "on"]
    assert sticks and all(a["on"] == me for a in sticks)
    with pytest.raises(IllegalMove, match="goes on the minion that plays it"):
        t.play(ana, {k: v for k, v in sticks[0].items() if k not in ("to", "on")})
    t.play(ana, sticks[0])
    done.append((ana, sticks[0]))
    stick = next(c for c in t.view(ana).cards if c.as_list() == sticks[0]["card"])
    assert stick.on == tuple(me) and stick.counters == 5
    assert not [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "play" and a.get("to") == "on"]
    while (c := t.state.open_combat) is not None and c.step != "strike":
        t.play(c.impulse, {"do": "pass"})
        done.append((c.impulse, {"do": "pass"}))
    offered = [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "strike" and a.get("card") == stick.as_list()]
    assert offered and offered[0]["damage"] == 2 and not offered[0].get("ranged")
    target = vampire(t, ben)
    for seat, chosen in ((ana, offered[0]), (ben, {"do": "strike", "minion": target})):
        t.play(seat, chosen)
        done.append((seat, chosen))
    while (c := t.state.open_combat) is not None:
        t.play(c.impulse, {"do": "pass"})
        done.append((c.impulse, {"do": "pass"}))
    assert next(c.counters for c in t.state.cards if list(c.pos) == target) == 0  # 2 blood mend the 2
    assert next(c.counters for c in t.state.cards if c.pos == stick.pos) == 3
    assert replayed(start, done).state == t.state


def test_leather_jacket_is_burned_to_prevent_all_of_the_opposing_strike() -> None:
    """Leather Jacket: "Bearer may burn Leather Jacket to prevent all the damage from the opposing
    minion's strike." Ben's vampire wears it; Ana's hand strike (1 damage) is prevented with the
    jacket, which burns, and Ben's vampire keeps its blood; the automatic pass stops for it."""
    start = one_vampire_table("Arika", (("Leather Jacket", 1), ("Conditioning", 3)), seed=5)
    ana = start.state.acting
    ben = start.view(ana).players[ana].prey
    jacket = hand(start, ben, "Leather Jacket")
    act(start, ben, "move", cards=[jacket], to="on", on=vampire(start, ben), no_replace=True)
    t, done = copy_table(start), []
    ana, ben = to_combat_step(t, done, "strike")
    target = vampire(t, ben)
    for seat, chosen in ((ana, {"do": "strike", "minion": vampire(t, ana)}), (ben, {"do": "strike", "minion": target})):
        t.play(seat, chosen)
        done.append((seat, chosen))
    while (c := t.state.open_combat) is not None and c.step == "damage" and c.impulse != ben:
        t.play(c.impulse, {"do": "pass"})
        done.append((c.impulse, {"do": "pass"}))
    offered = [a for a in VTES.legal_acts(t.view(ben)) if a["do"] == "prevent" and a.get("card") == jacket]
    assert offered == [{"do": "prevent", "minion": target, "card": jacket, "normal": 1}]
    assert auto_pass(t.view(ben)) is None
    t.play(ben, offered[0])
    done.append((ben, offered[0]))
    while (c := t.state.open_combat) is not None:
        t.play(c.impulse, {"do": "pass"})
        done.append((c.impulse, {"do": "pass"}))
    assert next(c.counters for c in t.state.cards if list(c.pos) == target) == 2
    assert next(c.zone for c in t.state.cards if list(c.pos) == jacket) == "ash"
    assert replayed(start, done).state == t.state
