"""Combat, torpor and diablerie (shared/rules/vtes-actions.md 5, 6, P5, P6): the page's worked
example 2 act by act, the rulebook's three damage examples, every refusal of P5 with its sentence,
each strike effect, and random combats that keep blood and life sound and always end.

Seats clockwise Ana, Ben, Cy, Dee (``t.state.seating``); each test starts in Ana's minion phase
(prey Ben, predator Dee) with Dee holding the Edge, one ready vampire each (Ana's Lucia with 4
blood, Ben's Marek, Cy's Nico and Dee's Sasha with 1) and every hand the seven cards of
:data:`tests.support.vtes_fight.FIGHT_LIBRARY`.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.vtes import VTES
from engine.games.vtes.autopass import auto_pass
from engine.games.vtes.cards import card_base
from engine.games.vtes.combat import apply_damage
from engine.games.vtes.offers import legal_acts
from engine.games.vtes.readings import reaction_fits
from engine.games.vtes.simulate import simulate_vtes
from engine.games.vtes.vocab import News, Zone
from engine.games.vtes.work import Work
from tests.support.vtes_fight import Fight, bleed_blocked, card, combat_loop, fight_table, in_hand, refused
from tests.support.vtes_sim import act, by_hand, copy_table


@pytest.fixture(scope="module")
def base() -> Fight:
    f = fight_table(seed=1, blood=(4, 1, 1, 1))
    assert (f.t.state.acting, f.t.state.phase, f.t.state.edge) == (f.ana, "minion", f.dee)
    return f


@pytest.fixture
def f(base: Fight) -> Fight:
    return dataclasses.replace(base, t=copy_table(base.t))


def order(f: Fight) -> tuple[int, int, int, int]:
    """A combat step's impulse order when Lucia fights Marek: Ana, Ben, then Cy and Dee."""
    return (f.ana, f.ben, f.cy, f.dee)


def step(f: Fight) -> str:
    c = f.t.state.open_combat
    assert c is not None, "no combat is under way"
    return c.step


def to_strikes(f: Fight) -> None:
    """Pass the before-range, range and before-strikes steps."""
    for _ in range(3):
        combat_loop(f.t, order(f))
    assert step(f) == "strike"


def blood(f: Fight, pos: list[int]) -> tuple[int, str]:
    c = card(f.t, pos)
    return c.counters, c.zone


# --- worked example 2 --------------------------------------------------------------------------------


def test_worked_example_2_a_blocked_bleed_then_two_rounds_of_hand_strikes(f):
    t, ana, ben, cy, dee = f.t, f.ana, f.ben, f.cy, f.dee
    pool = t.state.players[ben].pool
    # 1. Ana announces: Lucia bleeds Ben; Ana passes; Ben attempts a block with Marek, intercept 0.
    act(t, ana, "action", kind="bleed", minion=f.lucia, target=ben, stealth=0, amount=1)
    assert card(t, f.lucia).locked
    act(t, ana, "pass")
    act(t, ben, "block", minion=f.marek, intercept=0)
    a = t.state.open_action
    assert (a.window, a.blocker, a.impulse) == ("B", tuple(f.marek), ana)
    # 2. Pass ×4: 0 ≥ 0, blocked; no card, no cost; Marek locks; a combat opens.
    for seat in (ana, ben, cy, dee):
        assert t.state.open_action.impulse == seat
        act(t, seat, "pass")
    assert t.state.open_action is None and card(t, f.marek).locked
    c = t.state.open_combat
    assert (c.acting, c.opposing, c.round, c.step, c.long, c.impulse) == (
        tuple(f.lucia),
        tuple(f.marek),
        1,
        "before_range",
        False,
        ana,
    )
    assert (t.state.blocks, t.state.combats) == (1, 1)
    assert any("enter combat: round 1, before range" in n.text for n in t.notes)
    opened = [n for n in t.notes if n.news == News.COMBAT_OPENED]
    assert len(opened) == 1 and "enter combat" in opened[0].text
    # 3. Round 1: all pass before range, at range (close), before strikes; hand strikes.
    combat_loop(t, order(f))
    assert step(f) == "range"
    combat_loop(t, order(f))
    assert step(f) == "before_strikes" and not t.state.open_combat.long
    combat_loop(t, order(f))
    assert (step(f), t.state.open_combat.impulse) == ("strike", ana)
    by_hand(t, ana, "strike", minion=f.lucia)
    assert (step(f), t.state.open_combat.impulse) == ("strike", ben)
    by_hand(t, ben, "strike", minion=f.marek)
    assert (step(f), t.state.open_combat.impulse) == ("damage", ana)
    hands = t.state.open_combat.strikes
    assert [(s.minion, s.damage, s.hand) for s in hands] == [(tuple(f.lucia), 1, True), (tuple(f.marek), 1, True)]
    combat_loop(t, order(f))
    assert blood(f, f.lucia) == (3, "ready") and blood(f, f.marek) == (0, "ready")  # mended, still ready
    assert (step(f), t.state.open_combat.impulse) == ("press", ana)
    # 4. Ana presses for Lucia; all pass (Ben does not cancel): round 2.
    by_hand(t, ana, "press", minion=f.lucia)
    assert (t.state.open_combat.press, t.state.open_combat.impulse) == (tuple(f.lucia), ana)
    combat_loop(t, order(f))
    assert step(f) == "end_of_round"
    combat_loop(t, order(f))
    c = t.state.open_combat
    assert (c.round, c.step, c.impulse, c.strikes) == (2, "before_range", ana, ())
    # 5. Round 2: no maneuver, hand strikes, no prevention: Marek cannot mend, torpor; press skipped.
    to_strikes(f)
    by_hand(t, ana, "strike", minion=f.lucia)
    by_hand(t, ben, "strike", minion=f.marek)
    combat_loop(t, order(f))
    assert blood(f, f.lucia) == (2, "ready") and blood(f, f.marek) == (0, "torpor")
    c = t.state.open_combat
    assert (c.round, c.step, c.over) == (2, "end_of_round", True)
    # 6. End of round runs anyway; the action is over, blocked: no pool lost, the Edge stays with Dee.
    combat_loop(t, order(f))
    assert t.state.open_combat is None and t.state.open_action is None
    assert t.state.players[ben].pool == pool and t.state.edge == dee
    assert any("is over" in n.text for n in t.notes[-2:])


# --- P6: the rulebook's damage examples ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "have", "normal", "aggravated", "zone", "left"),
    [
        ("Nassir", 1, 0, 1, "torpor", 1),
        ("Tamoszius", 2, 0, 3, "torpor", 0),
        ("Ryan", 1, 2, 1, "ash", 0),
    ],
)
def test_the_rulebooks_damage_examples(f, who, have, normal, aggravated, zone, left):
    w = Work(f.t.state)
    pos = tuple(f.marek)
    w.setc(pos, counters=have)
    apply_damage(w, pos, normal, aggravated)
    assert (w.cards[pos].zone, w.cards[pos].counters) == (zone, left), who


def test_a_vampire_in_torpor_is_already_wounded_and_aggravated_damage_burns_blood(f):
    w = Work(f.t.state)
    pos = tuple(f.marek)
    w.setc(pos, counters=2, zone=Zone.TORPOR)
    apply_damage(w, pos, 0, 2)
    assert (w.cards[pos].zone, w.cards[pos].counters) == ("torpor", 0)
    apply_damage(w, pos, 0, 1)
    assert w.cards[pos].zone == "ash"


@pytest.mark.parametrize(("have", "aggravated", "zone", "left"), [(1, 1, "torpor", 1), (2, 3, "torpor", 0)])
def test_aggravated_strikes_follow_the_damage_examples(f, have, aggravated, zone, left):
    t = f.t
    if have != 1:
        act(t, f.ben, "blood", card=f.marek, delta=have - 1, cause="effect")
    bleed_blocked(f)
    to_strikes(f)
    by_hand(t, f.ana, "strike", minion=f.lucia, damage=aggravated, aggravated=True)
    by_hand(t, f.ben, "strike", minion=f.marek, damage=0)
    combat_loop(t, order(f))
    assert blood(f, f.marek) == (left, zone)


# --- P5: refusals --------------------------------------------------------------------------------------


def test_a_maneuver_outside_the_range_step_or_twice_in_a_row_is_refused(f):
    t, ana, ben = f.t, f.ana, f.ben
    bleed_blocked(f)
    refused(
        t, ana, {"do": "maneuver", "minion": f.lucia}, "maneuvers are made in the range step, and this is before range"
    )
    combat_loop(t, order(f))
    by_hand(t, ana, "maneuver", minion=f.lucia)
    assert t.state.open_combat.long and t.state.open_combat.impulse == ana  # a play returns the impulse
    refused(
        t, ana, {"do": "maneuver", "minion": f.lucia}, "made the last maneuver: never two in a row by one minion (5.3)"
    )
    act(t, ana, "pass")
    by_hand(t, ben, "maneuver", minion=f.marek)
    assert not t.state.open_combat.long
    by_hand(t, ana, "maneuver", minion=f.lucia)  # answered: Lucia may maneuver again
    assert t.state.open_combat.long


def test_a_strike_out_of_turn_for_a_minion_not_yours_or_passed_is_refused(f):
    t, ana, ben = f.t, f.ana, f.ben
    bleed_blocked(f)
    refused(
        t, ana, {"do": "strike", "minion": f.lucia}, "strikes are chosen in the strike step, and this is before range"
    )
    to_strikes(f)
    err = refused(
        t,
        ben,
        {"do": "strike", "minion": f.marek},
        "holds the impulse: you may choose a strike when it reaches you (5.1)",
    )
    assert str(ana) in str(err)
    refused(t, ana, {"do": "strike", "minion": f.marek}, "is not yours: its controller chooses what it does")
    refused(t, ana, {"do": "strike", "minion": f.nico}, "is not in this combat")
    refused(t, ana, {"do": "pass"}, "strikes are chosen, not passed: choose a strike (the hand strike by default)")
    by_hand(t, ana, "strike", minion=f.lucia)
    refused(t, ana, {"do": "strike", "minion": f.lucia}, "holds the impulse")
    refused(t, ben, {"do": "pass"}, "strikes are chosen, not passed")


def test_the_opposing_minion_never_chooses_first_even_under_one_controller(f):
    """A card may hand one Methuselah both combatants (reading: the order of 5.4 still holds)."""
    t, ana = f.t, f.ana
    bleed_blocked(f)
    to_strikes(f)
    by_hand(t, ana, "move", cards=[f.marek], to="ready", controller=ana, cause="a card takes control")
    assert card(t, f.marek).controller == ana
    refused(t, ana, {"do": "strike", "minion": f.marek}, "chooses its strike first (5.4)")


def test_a_retainer_is_struck_only_by_a_ranged_strike_at_long_range(f):
    t, ana, ben = f.t, f.ana, f.ben
    spy = in_hand(t, ben, "Raven Spy")
    act(t, ben, "move", cards=[spy], to="on", on=f.marek)
    act(t, ben, "life", card=spy, delta=1, cause="effect")
    assert card(t, spy).zone == "on" and card(t, spy).counters == 1
    bleed_blocked(f)
    to_strikes(f)
    words = "only a ranged strike at long range may target a retainer (5.8)"
    refused(t, ana, {"do": "strike", "minion": f.lucia, "retainer": spy}, words)
    refused(t, ana, {"do": "strike", "minion": f.lucia, "retainer": spy, "ranged": True}, words)  # close range
    refused(
        t,
        ana,
        {"do": "strike", "minion": f.lucia, "retainer": f.marek, "ranged": True},
        "is not a retainer on the opposing minion",
    )
    by_hand(t, ana, "strike", minion=f.lucia, damage=0, dodge=True)
    by_hand(t, ben, "strike", minion=f.marek, damage=0)
    combat_loop(t, order(f))
    by_hand(t, ana, "press", minion=f.lucia)
    for _ in range(2):
        combat_loop(t, order(f))
    combat_loop(t, order(f))  # round 2, before range
    by_hand(t, ana, "maneuver", minion=f.lucia)
    combat_loop(t, order(f))
    combat_loop(t, order(f))
    assert t.state.open_combat.long and step(f) == "strike"
    by_hand(t, ana, "strike", minion=f.lucia, retainer=spy, ranged=True, damage=1)
    by_hand(t, ben, "strike", minion=f.marek)  # a hand strike at long range does nothing
    combat_loop(t, order(f))
    assert card(t, spy).zone == "ash" and blood(f, f.lucia) == (4, "ready") and blood(f, f.marek) == (1, "ready")


def test_a_second_source_of_additional_strikes_in_a_round_is_refused(f):
    t, ana, ben = f.t, f.ana, f.ben
    act(t, ben, "blood", card=f.marek, delta=4, cause="effect")
    bleed_blocked(f)
    to_strikes(f)
    by_hand(t, ana, "strike", minion=f.lucia, additional=1)
    by_hand(t, ben, "strike", minion=f.marek)
    combat_loop(t, order(f))
    c = t.state.open_combat
    assert (c.step, c.extra, c.impulse, c.pairs) == ("strike", (1, 0), ana, 1)
    refused(t, ben, {"do": "strike", "minion": f.marek}, "holds the impulse")
    refused(
        t,
        ana,
        {"do": "strike", "minion": f.lucia, "additional": 1},
        "already gained additional strikes this round: one source (5.6)",
    )
    by_hand(t, ana, "strike", minion=f.lucia)
    assert step(f) == "damage"  # Marek has no strike left: only Lucia strikes
    combat_loop(t, order(f))
    assert blood(f, f.marek) == (3, "ready") and blood(f, f.lucia) == (3, "ready")
    assert step(f) == "press"


def test_a_press_twice_in_a_row_by_one_minion_is_refused_and_a_cancel_ends_the_combat(f):
    t, ana, ben = f.t, f.ana, f.ben
    bleed_blocked(f)
    refused(t, ana, {"do": "press", "minion": f.lucia}, "presses are made in the press step, and this is before range")
    to_strikes(f)
    by_hand(t, ana, "strike", minion=f.lucia, damage=0)
    by_hand(t, ben, "strike", minion=f.marek, damage=0)
    combat_loop(t, order(f))
    by_hand(t, ana, "press", minion=f.lucia)
    refused(t, ana, {"do": "press", "minion": f.lucia}, "made the last press: never two in a row by one minion (5.9)")
    act(t, ana, "pass")
    by_hand(t, ben, "press", minion=f.marek)  # cancels the press
    assert t.state.open_combat.press == ()
    for _ in range(2):
        combat_loop(t, order(f))
    assert t.state.open_combat is None


def test_a_non_combat_card_in_combat_is_refused(f):
    t, ana = f.t, f.ana
    bleed_blocked(f)
    for name in ("Threats", "Carlton Van Wyk", "Kine Resources Contested"):
        refused(
            t,
            ana,
            {"do": "play", "card": in_hand(t, ana, name)},
            "is not a combat card: during combat only combat cards are played (§2)",
        )
    grapple = in_hand(t, ana, "Immortal Grapple")
    refused(t, ana, {"do": "play", "card": grapple}, "Immortal Grapple requires POT, which Aksinya Daclau")
    combat_loop(t, order(f))  # "only usable at close range before strikes are chosen"
    combat_loop(t, order(f))
    assert step(f) == "before_strikes"
    act(t, ana, "play", card=grapple, lift="requirement", by=f.lucia)  # a card that allows it
    assert card(t, grapple).zone == "ash" and t.state.open_combat.impulse == ana


# --- strike effects --------------------------------------------------------------------------------------


def test_at_long_range_a_hand_strike_does_nothing_and_a_ranged_one_hits(f):
    t, ana, ben = f.t, f.ana, f.ben
    bleed_blocked(f)
    combat_loop(t, order(f))
    act(t, ana, "pass")
    by_hand(t, ben, "maneuver", minion=f.marek)
    assert t.state.open_combat.long
    for seat in order(f):
        act(t, seat, "pass")
    assert any("long range" in n.text for n in t.notes[-3:])
    combat_loop(t, order(f))
    by_hand(t, ana, "strike", minion=f.lucia)
    by_hand(t, ben, "strike", minion=f.marek, ranged=True, damage=1)
    combat_loop(t, order(f))
    assert blood(f, f.lucia) == (3, "ready") and blood(f, f.marek) == (1, "ready")


def test_a_dodge_shields_the_dodger_and_deals_nothing(f):
    t, ana, ben = f.t, f.ana, f.ben
    bleed_blocked(f)
    to_strikes(f)
    by_hand(t, ana, "strike", minion=f.lucia, dodge=True)
    by_hand(t, ben, "strike", minion=f.marek, damage=2)
    combat_loop(t, order(f))
    assert blood(f, f.lucia) == (4, "ready") and blood(f, f.marek) == (1, "ready")


def test_a_first_strike_to_torpor_stops_the_other_strike(f):
    t, ana, ben = f.t, f.ana, f.ben
    bleed_blocked(f)
    to_strikes(f)
    by_hand(t, ana, "strike", minion=f.lucia, damage=2, first=True)
    by_hand(t, ben, "strike", minion=f.marek, damage=3)
    combat_loop(t, order(f))
    assert blood(f, f.lucia) == (4, "ready") and blood(f, f.marek) == (0, "torpor")
    assert step(f) == "end_of_round" and t.state.open_combat.over
    combat_loop(t, order(f))
    assert t.state.open_combat is None


def test_both_first_strikes_are_simultaneous(f):
    t, ana, ben = f.t, f.ana, f.ben
    bleed_blocked(f)
    to_strikes(f)
    by_hand(t, ana, "strike", minion=f.lucia, damage=2, first=True)
    by_hand(t, ben, "strike", minion=f.marek, damage=1, first=True)
    combat_loop(t, order(f))
    assert blood(f, f.lucia) == (3, "ready") and blood(f, f.marek) == (0, "torpor")


def test_combat_ends_before_all_else(f):
    t, ana, ben = f.t, f.ana, f.ben
    bleed_blocked(f)
    to_strikes(f)
    by_hand(t, ana, "strike", minion=f.lucia, damage=3, first=True)
    by_hand(t, ben, "strike", minion=f.marek, ends=True)
    combat_loop(t, order(f))
    assert blood(f, f.marek) == (1, "ready") and blood(f, f.lucia) == (4, "ready")
    c = t.state.open_combat
    assert (c.step, c.over) == ("end_of_round", True)
    combat_loop(t, order(f))
    assert t.state.open_combat is None


def test_steal_blood_moves_blood_before_mending(f):
    t, ana, ben = f.t, f.ana, f.ben
    bleed_blocked(f)
    to_strikes(f)
    by_hand(t, ana, "strike", minion=f.lucia, steal=2, damage=1)
    by_hand(t, ben, "strike", minion=f.marek)
    combat_loop(t, order(f))
    # Marek's 1 blood is stolen first: it cannot mend the 1 damage, torpor; Lucia 4 + 1 - 1.
    assert blood(f, f.marek) == (0, "torpor") and blood(f, f.lucia) == (4, "ready")


def test_a_steal_blood_strike_alone_deals_no_damage(f):
    t, ana, ben = f.t, f.ana, f.ben
    act(t, ben, "blood", card=f.marek, delta=2, cause="effect")
    bleed_blocked(f)
    to_strikes(f)
    by_hand(t, ana, "strike", minion=f.lucia, steal=1)
    by_hand(t, ben, "strike", minion=f.marek, damage=0)
    combat_loop(t, order(f))
    assert blood(f, f.marek) == (2, "ready") and blood(f, f.lucia) == (5, "ready")


def test_prevention_lowers_the_damage_taken(f):
    t, ana, ben = f.t, f.ana, f.ben
    bleed_blocked(f)
    to_strikes(f)
    by_hand(t, ana, "strike", minion=f.lucia)
    by_hand(t, ben, "strike", minion=f.marek, damage=2, aggravated=True)
    refused(t, ben, {"do": "prevent", "minion": f.marek, "normal": 1}, "holds the impulse")
    refused(t, ana, {"do": "prevent", "minion": f.lucia}, "a prevention prevents at least 1 point of damage")
    by_hand(t, ana, "prevent", minion=f.lucia, agg=1)
    combat_loop(t, order(f))
    # Lucia: 1 aggravated point left wounds her (unwounded): torpor with her 4 blood.
    assert blood(f, f.lucia) == (4, "torpor") and blood(f, f.marek) == (0, "ready")


def test_prevention_of_all_damage(f):
    t, ana, ben = f.t, f.ana, f.ben
    bleed_blocked(f)
    to_strikes(f)
    by_hand(t, ana, "strike", minion=f.lucia)
    by_hand(t, ben, "strike", minion=f.marek, damage=2)
    by_hand(t, ana, "prevent", minion=f.lucia, normal=2)
    combat_loop(t, order(f))
    assert blood(f, f.lucia) == (4, "ready") and blood(f, f.marek) == (0, "ready")


def test_additional_strikes_follow_the_first_pair(f):
    t, ana, ben = f.t, f.ana, f.ben
    bleed_blocked(f)
    to_strikes(f)
    by_hand(t, ana, "strike", minion=f.lucia, additional=1)
    by_hand(t, ben, "strike", minion=f.marek, damage=0, additional=1)
    combat_loop(t, order(f))
    c = t.state.open_combat
    assert (c.step, c.pairs, c.extra, c.impulse) == ("strike", 1, (1, 1), ana)
    by_hand(t, ana, "strike", minion=f.lucia)
    assert t.state.open_combat.impulse == ben
    by_hand(t, ben, "strike", minion=f.marek)
    combat_loop(t, order(f))
    assert blood(f, f.marek) == (0, "torpor") and blood(f, f.lucia) == (3, "ready")
    assert step(f) == "end_of_round"


# --- torpor, diablerie, withdrawal, a combat from a card ------------------------------------------------


def _leave_torpor_blocked(f: Fight) -> None:
    t, ana, ben, cy, dee = f.t, f.ana, f.ben, f.cy, f.dee
    act(t, ana, "move", cards=[f.lucia], to="torpor")
    act(t, ana, "action", kind="leave_torpor", minion=f.lucia)
    a = t.state.open_action
    assert (a.stealth, a.cost_blood) == (1, 2) and t.view(ana).blockers() == (ben, dee)
    act(t, ana, "pass")
    act(t, ben, "block", minion=f.marek, intercept=1)
    for seat in (ana, ben, dee, cy):
        assert t.state.open_action.impulse == seat
        act(t, seat, "pass")
    a = t.state.open_action
    assert (a.window, a.impulse) == ("D", ben) and t.state.open_combat is None  # no combat (6.2)
    assert card(t, f.marek).locked


def test_a_blocked_leave_torpor_then_diablerie_and_a_blood_hunt_that_burns_the_diablerist(f):
    t, ana, ben, cy, dee = f.t, f.ana, f.ben, f.cy, f.dee
    _leave_torpor_blocked(f)
    refused(t, ana, {"do": "diablerise"}, "holds the impulse")
    act(t, ben, "diablerise")
    assert t.state.open_action is None
    capacity = card_base().info(card(t, f.marek).card).capacity
    assert card(t, f.lucia).zone == "ash" and card(t, f.marek).counters == min(1 + 4, capacity)
    r = t.state.open_referendum
    assert (r.hunted, r.step, r.impulse, r.card) == (tuple(f.marek), "before", ana, ())
    assert t.state.referendums == 1
    for seat in (ana, ben, dee, cy):
        assert t.state.open_referendum.impulse == seat
        act(t, seat, "pass")
    assert t.state.open_referendum.step == "voting"
    act(t, dee, "vote", source="edge", **{"for": True})
    assert t.state.edge == -1
    for seat in (ana, ben, cy, dee):
        act(t, seat, "done")
    assert t.state.open_referendum is None and card(t, f.marek).zone == "ash"
    assert any("burned by the blood hunt" in n.text for n in t.notes[-3:])


def test_a_blocked_leave_torpor_declined_fails_at_no_cost(f):
    t, ben = f.t, f.ben
    _leave_torpor_blocked(f)
    act(t, ben, "pass")
    assert t.state.open_action is None and t.state.open_referendum is None
    assert blood(f, f.lucia) == (4, "torpor") and blood(f, f.marek) == (1, "ready")
    assert "declines to diablerise" in t.notes[-1].text


def test_a_block_that_opens_a_combat_fails_a_withdrawal(f):
    t, ben = f.t, f.ben
    players = list(t.state.players)
    players[ben] = dataclasses.replace(players[ben], withdrawing=True)
    t.state = dataclasses.replace(t.state, players=tuple(players))
    bleed_blocked(f)
    assert "entered combat" in t.state.players[ben].withdraw_fail


def test_a_card_opens_a_combat_with_the_current_methuselahs_minion_acting(f):
    t, ana, ben, cy = f.t, f.ana, f.ben, f.cy
    by_hand(t, ana, "combat", minions=[f.nico, f.lucia], cause="a card")
    c = t.state.open_combat
    assert (c.acting, c.opposing, c.step, c.impulse) == (tuple(f.lucia), tuple(f.nico), "before_range", ana)
    assert t.state.open_action is None and t.state.combats == 1
    # The order: Ana, the opposing Cy, then clockwise from Ana's left: Ben, Dee.
    combat_loop(t, (ana, cy, ben, f.dee))
    assert step(f) == "range"


def test_two_minions_of_one_controller_never_fight(f):
    t, ana = f.t, f.ana
    other = next(list(c.pos) for c in t.state.cards if c.owner == ana and c.zone == "uncontrolled")
    act(t, ana, "move", cards=[other], to="ready")
    words = "two minions of one controller never fight each other (5.2)"
    refused(t, ana, {"do": "combat", "minions": [f.lucia, other], "cause": "a card"}, words)


# --- random combats ---------------------------------------------------------------------------------------

MAX_ACTS = 400
LAST_PRESS_ROUND = 4
MAX_PLAYS = 6


@pytest.fixture(scope="module")
def random_base(base: Fight) -> Fight:
    return base


def _combat_act(data: st.DataObject, t, seat: int, plays: list[int]) -> dict:
    """A legal combat act for ``seat`` (the impulse holder) from ``legal_acts``, with random strike
    fields, maneuvers, presses and preventions. Players could answer each other's plays for ever:
    ``plays`` counts maneuvers and preventions, at most :data:`MAX_PLAYS` in a combat, and presses
    stop after round :data:`LAST_PRESS_ROUND`."""
    c = t.state.open_combat
    legal = [a for a in legal_acts(t.view(seat)) if a["do"] in ("pass", "strike", "maneuver", "press")]
    assert legal, (c, seat)
    if c.round >= LAST_PRESS_ROUND:
        legal = [a for a in legal if a["do"] != "press"]
    if plays[0] >= MAX_PLAYS:
        legal = [a for a in legal if a["do"] != "maneuver"]
    choice = dict(data.draw(st.sampled_from(legal)))
    if choice["do"] == "strike":
        minion = tuple(choice["minion"])
        choice["damage"] = data.draw(st.integers(0, 3))
        for flag in ("aggravated", "ranged", "first", "dodge", "ends"):
            if data.draw(st.integers(0, 5)) == 0:
                choice[flag] = True
        if data.draw(st.integers(0, 3)) == 0:
            choice["steal"] = data.draw(st.integers(1, 2))
        if minion not in c.extra_used and data.draw(st.integers(0, 4)) == 0:
            choice["additional"] = data.draw(st.integers(1, 2))
    elif c.step == "damage" and plays[0] < MAX_PLAYS and data.draw(st.integers(0, 3)) == 0:
        mine = [m for m in (c.acting, c.opposing) if card(t, m).controller == seat]
        if mine:
            choice = {"do": "prevent", "minion": list(mine[0]), "normal": data.draw(st.integers(0, 2))}
            choice["agg"] = data.draw(st.integers(0 if choice["normal"] else 1, 2))
    if choice["do"] in ("prevent", "maneuver"):
        plays[0] += 1
    return choice


@settings(max_examples=30, deadline=None)
@given(data=st.data(), lucia=st.integers(0, 5), nico=st.integers(0, 5))
def test_random_combats_keep_blood_sound_end_and_fold_the_same(random_base, data, lucia, nico):
    f = random_base
    t = copy_table(f.t)
    for seat, pos, delta in ((f.ana, f.lucia, lucia - 4), (f.cy, f.nico, nico - 1)):
        if delta:
            act(t, seat, "blood", card=pos, delta=delta, cause="effect")
    act(t, f.ana, "combat", minions=[f.lucia, f.nico], cause="a card")
    start = t.state
    log = []
    gone_round = 0
    plays = [0]
    for n in range(MAX_ACTS):
        c = t.state.open_combat
        if c is None:
            break
        seat = c.impulse
        choice = _combat_act(data, t, seat, plays)
        t.play(seat, choice)
        assert not t.pending().ops
        log.append((seat, choice))
        assert all(x.counters >= 0 for x in t.state.cards)
        assert all(p.pool >= 0 for p in t.state.players)
        c = t.state.open_combat
        out = [m for m in (f.lucia, f.nico) if card(t, m).zone != "ready"]
        if out and not gone_round:
            gone_round = c.round if c is not None else -1
        if out and c is not None:
            assert c.over and c.round == gone_round and c.step == "end_of_round"
    else:
        raise AssertionError(f"the combat did not end within {MAX_ACTS} acts")
    folded = start
    for seat, choice in log:
        folded, _ = VTES.apply(folded, seat, choice, {})
    assert folded == t.state


# --- simulation --------------------------------------------------------------------------------------------


def test_simulated_games_tally_combats_and_referendums():
    (record,) = simulate_vtes(seats=4, games=1, seed=1)
    tallies = dict(record.result.tallies)
    assert tallies["combats"] >= 1 and tallies["referendums"] >= 1
    texts = [n.text for n in record.notes]
    assert sum("enter combat: round 1" in x for x in texts) == tallies["combats"]
    assert (
        sum(x.startswith("A referendum") or x.startswith("A blood hunt is called") for x in texts)
        == tallies["referendums"]
    )


def test_the_automatic_pass_stops_only_a_methuselah_whose_reaction_could_be_played(f):
    """Every hand holds Patrol ("+1 intercept."): it stops the bled Methuselah, who may block, and
    not the two others, for whom an intercept card does nothing (vtes-actions.md 4.2)."""
    t = f.t
    act(t, f.ana, "action", kind="bleed", minion=f.lucia)
    act(t, f.ana, "pass")
    assert auto_pass(t.view(f.ben)) is None  # Ben may block, and may play Patrol to do it
    act(t, f.ben, "pass")  # declines
    for seat in (f.cy, f.dee):
        assert t.state.open_action.impulse == seat
        assert auto_pass(t.view(seat)) == {"do": "pass"}
        act(t, seat, "pass")


def test_a_reactions_only_usable_sentence_is_read_per_discipline_level(f):
    t = f.t
    act(t, f.ana, "action", kind="bleed", minion=f.lucia)
    a = t.state.open_action
    base = card_base()

    def fits(name: str, seat: int) -> bool:
        found = base.lookup(name)
        assert found is not None
        return reaction_fits(found.text, a, t.view(seat), seat)

    assert fits("Deflection", f.ben) and not fits("Deflection", f.cy)  # "if a minion is bleeding you"
    assert fits("Eyes of Argus", f.ben) and not fits("Eyes of Argus", f.dee)  # "directed at you"; a wake
    assert fits("Telepathic Misdirection", f.ben) and not fits("Telepathic Misdirection", f.cy)
    assert not fits("Cats' Guidance", f.cy)  # its levels: after blocking; +1 intercept
