"""A combat card that is a maneuver or a press is offered as one, with its card (vtes-actions.md
5.3, 5.9, P5): Swallowed by the Night's superior is a maneuver, for a vampire with Obfuscate at
superior (every crypt here is Arika: aus cel DOM FOR OBF PRE); the table plays the card with it.
A prevention card likewise (Rolling with the Punches: "[for] Prevent 1 damage"), in the damage step
against a strike that deals damage; one of non-aggravated damage only (Soak: "[FOR] Prevent 4
non-aggravated damage") never against aggravated damage."""

from __future__ import annotations

import pytest

from engine.games.vtes import VTES
from engine.games.vtes.autopass import auto_pass
from engine.games.vtes.cards import card_base
from engine.games.vtes.combat_cards import prevent_acts
from engine.games.vtes.decks import Deck
from engine.games.vtes.state import Strike
from tests.support.vtes_fight import Fight, bleed_blocked, card, fight_table, in_hand, one_crypt_fight, refused, to_step
from tests.support.vtes_sim import act, settle

LIBRARY = (("Swallowed by the Night", 2), ("Rolling with the Punches", 2), ("Soak", 1), ("Conditioning", 2))


@pytest.fixture
def f() -> Fight:
    arika = card_base().lookup("Arika")
    assert arika is not None
    return fight_table(seed=3, blood=(4, 4, 1, 1), crypt=Deck("arika", ((arika.id, 12),), ()), library=LIBRARY)


def _to_step(f: Fight, step: str) -> None:
    to_step(f.t, step)


def _damage_step(f: Fight) -> tuple[int, list[int]]:
    """Lucia bleeds, Marek blocks, the combat reaches the damage step: the seat holding the
    impulse and its combatant."""
    bleed_blocked(f)
    _to_step(f, "damage")
    c = f.t.state.open_combat
    assert c is not None
    return c.impulse, f.lucia if c.impulse == f.ana else f.marek


def test_a_prevention_card_is_offered_in_the_damage_step_and_played(f: Fight) -> None:
    t = f.t
    seat, mine = _damage_step(f)
    rolling = in_hand(t, seat, "Rolling with the Punches")
    offered = [a for a in VTES.legal_acts(t.view(seat)) if a["do"] == "prevent"]
    assert {"do": "prevent", "minion": mine, "normal": 1, "card": rolling} in offered
    t.play(seat, {"do": "prevent", "minion": mine, "normal": 1, "card": rolling})
    t.run_ops()
    assert card(t, rolling).zone == "ash"


def test_a_maneuver_card_is_offered_in_the_range_step_and_played(f: Fight) -> None:
    t = f.t
    bleed_blocked(f)
    _to_step(f, "range")
    c = t.state.open_combat
    assert c is not None and c.step == "range"
    seat = c.impulse
    mine = f.lucia if seat == f.ana else f.marek
    swallowed = in_hand(t, seat, "Swallowed by the Night")
    offered = [a for a in VTES.legal_acts(t.view(seat)) if a["do"] == "maneuver"]
    assert {"do": "maneuver", "minion": mine, "card": swallowed} in offered
    long_before = c.long
    t.play(seat, {"do": "maneuver", "minion": mine, "card": swallowed})
    t.run_ops()
    c = t.state.open_combat
    assert c is not None and c.long != long_before
    assert card(t, swallowed).zone == "ash"


def test_a_prevention_of_non_aggravated_damage_only_is_never_used_against_aggravated(f: Fight) -> None:
    t = f.t
    seat, mine = _damage_step(f)
    soak = in_hand(t, seat, "Soak")
    view = t.view(seat)
    vampire = view.card(tuple(mine))
    assert vampire is not None
    normal, aggravated = Strike(minion=(0, 0), damage=4), Strike(minion=(0, 0), damage=4, aggravated=True)
    against = {tuple(a["card"]): a["normal"] for a in prevent_acts(view, vampire, normal)}
    assert against[tuple(soak)] == 4  # Arika has Fortitude at superior
    assert tuple(soak) not in {tuple(a["card"]) for a in prevent_acts(view, vampire, aggravated)}
    play = {"do": "prevent", "minion": mine, "agg": 1, "card": soak}
    refused(t, seat, play, "Soak prevents non-aggravated damage only: it cannot prevent aggravated damage")
    t.play(seat, {"do": "prevent", "minion": mine, "normal": 4, "card": soak})
    t.run_ops()
    assert card(t, soak).zone == "ash"


def test_a_move_only_usable_one_way_is_offered_and_accepted_only_that_way() -> None:
    """Leapfrog: "[obf] Maneuver, only usable to go to long range"; Quick Exit: "[obf] Press, only
    usable to end combat": at close range Leapfrog maneuvers to long range, and then neither
    combatant may use it; with no press standing Quick Exit is no press."""
    f = one_crypt_fight("Arika", (("Leapfrog", 2), ("Quick Exit", 2), ("Conditioning", 3)))
    t = f.t
    bleed_blocked(f)
    _to_step(f, "range")
    c = t.state.open_combat
    assert c is not None and not c.long
    seat = c.impulse
    mine = f.lucia if seat == f.ana else f.marek
    leap = in_hand(t, seat, "Leapfrog")
    assert {"do": "maneuver", "minion": mine, "card": leap} in VTES.legal_acts(t.view(seat))
    t.play(seat, {"do": "maneuver", "minion": mine, "card": leap})
    t.run_ops()
    other = f.ben if seat == f.ana else f.ana
    while (c := t.state.open_combat) is not None and c.impulse != other:
        t.play(c.impulse, {"do": "pass"})
    assert c is not None and c.long and c.step == "range"
    theirs = f.lucia if other == f.ana else f.marek
    again = in_hand(t, other, "Leapfrog")
    assert not [a for a in VTES.legal_acts(t.view(other)) if a["do"] == "maneuver" and "card" in a]
    words = "Leapfrog: maneuver, only usable to go to long range, and it cannot do so now"
    refused(t, other, {"do": "maneuver", "minion": theirs, "card": again}, words)
    _to_step(f, "press")
    c = t.state.open_combat
    assert c is not None and not c.press
    seat = c.impulse
    mine = f.lucia if seat == f.ana else f.marek
    assert not [a for a in VTES.legal_acts(t.view(seat)) if a["do"] == "press" and "card" in a]
    exit_ = in_hand(t, seat, "Quick Exit")
    words = "Quick Exit: press, only usable to end combat, and it cannot do so now"
    refused(t, seat, {"do": "press", "minion": mine, "card": exit_}, words)


def test_a_strike_cards_optional_maneuver_chooses_its_strike_and_its_optional_press_follows() -> None:
    """Aid from Bats: "[ANI] Strike: 1R damage, with 1 optional maneuver. 1 optional press." (every
    crypt here is Ingrid Rossler: ANI at superior): its maneuver in the range step sets the card
    aside and chooses its strike for the round (vtes-actions.md 5.3): in the strike step it is
    the one strike offered, another is refused; once it struck, its optional press is offered in
    the press step and taken without a claim, the card already played."""
    f = one_crypt_fight("Ingrid Rossler (G2)", (("Aid from Bats", 5), ("Conditioning", 2)))
    t = f.t
    bleed_blocked(f)
    _to_step(f, "range")
    c = t.state.open_combat
    assert c is not None
    seat = c.impulse
    mine = f.lucia if seat == f.ana else f.marek
    bats = in_hand(t, seat, "Aid from Bats")
    assert {"do": "maneuver", "minion": mine, "card": bats} in VTES.legal_acts(t.view(seat))
    assert auto_pass(t.view(seat)) is None  # the automatic pass stops for it
    notes = t.play(seat, {"do": "maneuver", "minion": mine, "card": bats})
    t.run_ops()
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert any("maneuvers with Aid from Bats, whose strike it makes this round: long range" in s for s in said), said
    assert card(t, bats).zone == "aside"
    while (c := t.state.open_combat) is not None and c.step != "strike":
        t.play(c.impulse, {"do": "pass"})
        t.run_ops()
    assert c is not None
    if c.due()[0] != tuple(mine):  # the acting minion strikes first
        t.play(c.impulse, {"do": "strike", "minion": list(c.due()[0])})
        t.run_ops()
        c = t.state.open_combat
        assert c is not None
    strikes = [a for a in VTES.legal_acts(t.view(seat)) if a["do"] == "strike"]
    assert strikes == [{"do": "strike", "minion": mine, "card": bats, "damage": 1, "ranged": True}]
    other = in_hand(t, seat, "Aid from Bats")
    words = "maneuver chose its strike this round: the strike of Aid from Bats"
    refused(t, seat, {"do": "strike", "minion": mine, "card": other, "damage": 1, "ranged": True}, words)
    t.play(seat, strikes[0])
    t.run_ops()
    assert card(t, bats).zone == "ash"
    _to_step(f, "press")
    c = t.state.open_combat
    assert c is not None
    while c.impulse != seat:
        t.play(c.impulse, {"do": "pass"})
        c = t.state.open_combat
        assert c is not None and c.step == "press"
    press = {"do": "press", "minion": mine, "card": bats}
    assert press in VTES.legal_acts(t.view(seat)) and auto_pass(t.view(seat)) is None
    t.play(seat, press)
    t.run_ops()
    c = t.state.open_combat
    assert c is not None and c.press == tuple(mine) and not t.state.claims


def test_a_weapons_optional_maneuver_is_once_each_combat_and_chooses_its_strike() -> None:
    """.44 Magnum: "Strike: 2R damage, with 1 optional maneuver each combat": Lucia holds one;
    its maneuver chooses its strike (the weapon stays on her) and is spent for the combat."""
    f = one_crypt_fight("Arika", ((".44 Magnum", 2), ("Conditioning", 5)))
    t = f.t
    magnum = in_hand(t, f.ana, ".44 Magnum")
    act(t, f.ana, "move", cards=[magnum], to="on", on=f.lucia)
    bleed_blocked(f)
    _to_step(f, "range")
    while (c := t.state.open_combat) is not None and c.impulse != f.ana:
        act(t, c.impulse, "pass")
    move = {"do": "maneuver", "minion": f.lucia, "card": magnum}
    assert move in VTES.legal_acts(t.view(f.ana))
    act(t, f.ana, "maneuver", minion=f.lucia, card=magnum)
    c = t.state.open_combat
    assert c is not None and c.long and c.chosen == ((tuple(f.lucia), tuple(magnum)),)
    assert card(t, magnum).zone == "on" and [x.scope for x in t.state.limited] == ["each combat"]
    while (c := t.state.open_combat) is not None and c.step != "strike":
        act(t, c.impulse, "pass")
    assert c is not None and c.due()[0] == tuple(f.lucia)
    strikes = [a for a in VTES.legal_acts(t.view(f.ana)) if a["do"] == "strike"]
    assert strikes == [{"do": "strike", "minion": f.lucia, "card": magnum, "damage": 2, "ranged": True}]
    settle(t)
    assert t.state.open_combat is None and t.state.limited == ()  # the combat is over: so is the limit
