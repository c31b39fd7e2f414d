"""Cards in combat and diablerie (shared/rules/vtes-actions.md 5.4, 6.3, P5): bots strike with
their combat cards where the card's text has a plain reading, a person's ``strike with CARD`` reads
it the same way, a combat card's printed cost is paid when it is played, and a diablerist takes
the victim's equipment.

Every crypt is Theo Bell (G2: cel dom pre POT); every hand holds Sacrament of Carnage ([pot]
Strike: 2R damage, [POT] 3R; 1 blood), Majesty ([pre] Strike: combat ends; 1 blood), a retainer
(Raven Spy) and an equipment card (Flak Jacket).
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.vtes.autopass import auto_pass
from engine.games.vtes.bots import VtesBot
from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck
from engine.games.vtes.offers import legal_acts
from engine.games.vtes.readings import StrikeReading, best_strike, combat_steps, strike_readings
from engine.games.vtes.vocab import CombatStep
from tests.support.vtes_fight import Fight, bleed_blocked, card, combat_loop, fight_table, in_hand, refused
from tests.support.vtes_sim import act, copy_table

LIBRARY = (("Sacrament of Carnage", 3), ("Majesty", 2), ("Raven Spy", 1), ("Flak Jacket", 1))


def _id(name: str) -> int:
    found = card_base().lookup(name)
    assert found is not None, name
    return found.id


@pytest.fixture(scope="module")
def base() -> Fight:
    theo = Deck("theo", ((_id("Theo Bell (G2)"), 12),), ())
    return fight_table(seed=3, blood=(4, 4, 1, 1), crypt=theo, library=LIBRARY)


def fresh(base: Fight, lucia: int = 4, marek: int = 4) -> Fight:
    """Lucia's bleed of Ben blocked by Marek, at the strike step, with the blood given."""
    f = dataclasses.replace(base, t=copy_table(base.t))
    bleed_blocked(f)
    for pos, want in ((f.lucia, lucia), (f.marek, marek)):
        delta = want - card(f.t, pos).counters
        if delta:
            act(f.t, f.ana if pos == f.lucia else f.ben, "blood", card=pos, delta=delta, cause="effect")
    for _ in range(3):
        combat_loop(f.t, (f.ana, f.ben, f.cy, f.dee))
    c = f.t.state.open_combat
    assert c is not None and c.step == "strike"
    return f


def bot_act(f: Fight, seat: int) -> dict[str, object]:
    view = f.t.view(seat)
    chosen = VtesBot(seed=0).choose(view, legal_acts(view))
    assert chosen is not None
    return dict(chosen)


def test_plain_strike_lines_are_read_per_discipline_level():
    sacrament = strike_readings(_id("Sacrament of Carnage"))
    assert [(r.levels, r.damage, r.ranged) for r in sacrament] == [(("pot",), 2, True), (("POT",), 3, True)]
    no_trace = strike_readings(_id("No Trace"))
    assert [(r.levels, r.range, r.ends) for r in no_trace] == [(("obf",), "long", True), (("OBF",), "", True)]
    # a sentence binding the whole card leaves no reading; a card that is not a combat card has none
    assert strike_readings(_id("Ahriman's Demesne")) == ()
    assert strike_readings(_id("Taste of Vitae")) == ()
    assert strike_readings(_id("Govern the Unaligned")) == ()
    # an inferior line serves a vampire with the superior Discipline, not the reverse
    inferior = StrikeReading(levels=("pot",), damage=2)
    assert inferior.usable_by(frozenset({"POT"})) and inferior.usable_by(frozenset({"pot"}))
    assert not StrikeReading(levels=("POT",)).usable_by(frozenset({"pot"}))
    assert not inferior.usable_by(frozenset({"cel"}))


def test_the_strongest_usable_line_at_the_range(base: Fight):
    theo = card_base().info(_id("Theo Bell (G2)"))
    assert theo is not None
    sacrament = f"{_id('Sacrament of Carnage')}-1"
    striker = f"{theo.id}-1"
    reading = best_strike(sacrament, striker, long=False)
    assert reading is not None and (reading.damage, reading.ranged) == (3, True)
    # No Trace needs Obfuscate, which Theo Bell lacks
    assert best_strike(f"{_id('No Trace')}-1", striker, long=True) is None


def test_a_combat_cards_printed_cost_is_paid_and_refused_when_it_cannot_be(base: Fight):
    f = fresh(base, lucia=4)
    t = f.t
    sacrament = in_hand(t, f.ana, "Sacrament of Carnage")
    notes = act(t, f.ana, "strike", minion=f.lucia, card=sacrament, damage=3, ranged=True)
    assert card(t, f.lucia).counters == 3
    assert any("with Sacrament of Carnage (paying 1 blood)" in n.text for n in notes)

    f = fresh(base, lucia=0)
    refused(
        f.t,
        f.ana,
        {"do": "strike", "minion": f.lucia, "card": in_hand(f.t, f.ana, "Sacrament of Carnage"), "damage": 3},
        "costs 1 blood and",
    )


def test_a_bot_strikes_with_its_strongest_combat_card(base: Fight):
    f = fresh(base, lucia=4, marek=4)
    chosen = bot_act(f, f.ana)
    assert chosen["card"] == in_hand(f.t, f.ana, "Sacrament of Carnage")
    assert (chosen["damage"], chosen["ranged"]) == (3, True)
    f.t.play(f.ana, chosen)  # the table takes it
    assert card(f.t, f.lucia).counters == 3


def test_a_bot_losing_the_fight_ends_combat_and_otherwise_keeps_its_card(base: Fight):
    f = fresh(base, lucia=4, marek=2)
    act(f.t, f.ana, "strike", minion=f.lucia)  # the hand strike
    chosen = bot_act(f, f.ben)
    assert chosen["card"] == in_hand(f.t, f.ben, "Majesty") and chosen["ends"] is True
    # with 1 blood it cannot pay the Majesty and keep a blood: it strikes with its hand
    f = fresh(base, lucia=4, marek=1)
    act(f.t, f.ana, "strike", minion=f.lucia)
    assert bot_act(f, f.ben) == {"do": "strike", "minion": f.marek}


def test_a_person_striking_with_a_card_gets_its_plain_strike(base: Fight):
    # the command line reads the card the same way: ``strike with CARD`` alone is its strike
    from tui.games.vtes.commands import Context
    from tui.games.vtes.fight_commands import parse_line

    f = fresh(base, lucia=4)
    ctx = Context(f.t.view(f.ana), ["Ana", "Ben", "Cy", "Dee"])
    sacrament = in_hand(f.t, f.ana, "Sacrament of Carnage")
    # with no level named, basic (2R); "sup" the superior level (3R)
    assert parse_line("strike with Sacrament of Carnage", ctx) == {
        "do": "strike",
        "minion": f.lucia,
        "card": sacrament,
        "damage": 2,
        "ranged": True,
    }
    assert parse_line("strike with Sacrament of Carnage sup", ctx)["damage"] == 3
    # words given win: the player states the strike
    assert parse_line("strike 2 with Sacrament of Carnage", ctx)["damage"] == 2


def _leave_torpor_blocked_with_cards(base: Fight) -> Fight:
    """Lucia in torpor with Flak Jacket and Raven Spy on her; her leave torpor blocked by Marek."""
    f = dataclasses.replace(base, t=copy_table(base.t))
    t, ana, ben = f.t, f.ana, f.ben
    for name in ("Flak Jacket", "Raven Spy"):
        act(t, ana, "move", cards=[in_hand(t, ana, name)], to="on", on=f.lucia, no_replace=True)
    act(t, ana, "move", cards=[f.lucia], to="torpor")
    act(t, ana, "action", kind="leave_torpor", minion=f.lucia)
    act(t, ana, "pass")
    act(t, ben, "block", minion=f.marek, intercept=1)
    for seat in (ana, ben, f.dee, f.cy):  # window B's impulse order: the acting Methuselah first
        act(t, seat, "pass")
    assert t.state.open_action.window == "D"
    return f


def _on(f: Fight, holder: list[int]) -> list[str]:
    view = f.t.view(f.ana)
    return sorted(c.name for c in view.cards if c.on == tuple(holder))


def test_the_diablerist_takes_the_victims_equipment_and_the_rest_burns(base: Fight):
    f = _leave_torpor_blocked_with_cards(base)
    assert _on(f, f.lucia) == ["Flak Jacket", "Raven Spy"]
    notes = act(f.t, f.ben, "diablerise")
    assert _on(f, f.marek) == ["Flak Jacket"] and card(f.t, f.lucia).zone == "ash"
    assert any("who takes Flak Jacket" in n.text for n in notes)
    assert [c.controller for c in f.t.state.cards if c.on == tuple(f.marek)] == [f.ben]


def test_a_diablerist_may_leave_the_equipment_to_burn(base: Fight):
    f = _leave_torpor_blocked_with_cards(base)
    act(f.t, f.ben, "diablerise", take=False)
    assert _on(f, f.marek) == []
    ash = {c.name for c in f.t.view(f.ana).cards if c.zone == "ash"}
    assert {"Flak Jacket", "Raven Spy"} <= ash


def test_a_combat_cards_text_binds_it_to_its_steps():
    steps = {
        name: combat_steps(_id(name))
        for name in (
            "Sacrament of Carnage",
            "Immortal Grapple",
            "Torn Signpost",
            "Swallowed by the Night",
            "Taste of Vitae",
            "Hidden Strength",
            "Rolling with the Punches",
        )
    }
    assert steps == {
        "Sacrament of Carnage": {CombatStep.STRIKE},
        "Immortal Grapple": {CombatStep.BEFORE_STRIKES},  # "Grapple. Only usable … before strikes are chosen."
        "Torn Signpost": {CombatStep.BEFORE_RANGE},
        "Swallowed by the Night": {CombatStep.RANGE},  # its [OBF] [COMBAT] line; the other is a modifier
        "Taste of Vitae": {CombatStep.END_OF_ROUND},
        "Hidden Strength": {CombatStep.DAMAGE},
        "Rolling with the Punches": None,  # "Burn 1 blood to prevent …": any step, the player is asked
    }


def test_a_hand_of_strike_cards_passes_the_other_steps_by_itself(base: Fight):
    f = dataclasses.replace(base, t=copy_table(base.t))
    bleed_blocked(f)
    c = f.t.state.open_combat
    assert c is not None and (c.step, c.impulse) == ("before_range", f.ana)
    # Ana holds Sacrament of Carnage and Majesty: strikes only, nothing for the step before range
    assert auto_pass(f.t.view(f.ana)) == {"do": "pass"}
    for _ in range(3):
        combat_loop(f.t, (f.ana, f.ben, f.cy, f.dee))
    assert auto_pass(f.t.view(f.ana)) is None  # the strike: she chooses
    # and the combat box names the card whose strike she may take
    from tui.games.vtes.fight_text import combat_keys

    view = f.t.view(f.ana)
    assert view.combat is not None
    assert (":", "strike with Sacrament of Carnage") in combat_keys(view, view.combat)


def test_a_block_that_could_only_fail_is_declined_by_the_automatic_pass(base: Fight):
    """A hunt has stealth 1: Ben, with no reaction in hand and nothing on Marek, could only fail
    to block it, so his seat declines by itself; with a retainer on Marek (it may give intercept)
    he is asked."""
    f = dataclasses.replace(base, t=copy_table(base.t))
    t = f.t
    act(t, f.ana, "action", kind="hunt", minion=f.lucia)
    act(t, f.ana, "pass")
    a = t.state.open_action
    assert a.stealth == 1 and a.impulse == f.ben and f.ben in t.view(f.ben).blockers()
    assert auto_pass(t.view(f.ben)) == {"do": "pass"}
    act(t, f.ben, "move", cards=[in_hand(t, f.ben, "Raven Spy")], to="on", on=f.marek, no_replace=True)
    assert auto_pass(t.view(f.ben)) is None


def test_influencing_out_a_second_copy_of_ones_own_vampire_is_refused(base: Fight):
    """Every crypt is Theo Bell: Ana, who controls one, cannot influence out another (rulebook,
    "Contested Cards": "you cannot voluntarily contest cards with yourself")."""
    f = dataclasses.replace(base, t=copy_table(base.t))
    t, ana = f.t, f.ana
    waiting = next(c for c in t.state.cards if c.owner == ana and c.zone == "uncontrolled")
    act(t, ana, "blood", card=list(waiting.pos), delta=7, cause="effect")
    act(t, ana, "phase")  # to the influence phase
    refused(
        t, ana, {"do": "influence", "card": list(waiting.pos)}, "you cannot voluntarily contest cards with yourself"
    )
