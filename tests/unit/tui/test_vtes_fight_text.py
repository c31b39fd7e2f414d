"""What the combat box says a strike will do (shared/rules/vtes-actions.md 5.4–5.5, P5–P6), read
against what the engine then does: a dodge shields, prevention is taken off, stolen blood goes to
the striker, a first strike that sends the other to torpor stops its strike, and a refusal to a
Methuselah whose minion has struck says so (not "when it reaches you").

Seats as in :mod:`tests.support.vtes_fight`: Ana's Lucia (4 blood) against Ben's Marek (1 blood),
after a blocked bleed, at the strike step.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.vtes.combat import damage_result
from engine.games.vtes.vocab import CombatStep
from tests.support.vtes_fight import Fight, bleed_blocked, card, combat_loop, fight_table, refused
from tests.support.vtes_sim import act, by_hand, copy_table
from tui.games.vtes.action_text import waiting_words, window_words
from tui.games.vtes.fight_text import combat_keys, combat_lines, foresee
from tui.games.vtes.key_acts import may_fight

NAMES = ["Ana", "Ben", "Cy", "Dee"]


@pytest.fixture(scope="module")
def base() -> Fight:
    f = fight_table(seed=1, blood=(4, 1, 1, 1))
    bleed_blocked(f)
    for _ in range(3):  # before range, range, before strikes
        combat_loop(f.t, (f.ana, f.ben, f.cy, f.dee))
    assert f.t.state.open_combat is not None and f.t.state.open_combat.step == "strike"
    return f


@pytest.fixture
def f(base: Fight) -> Fight:
    return dataclasses.replace(base, t=copy_table(base.t))


def name_of(f: Fight, pos: list[int]) -> str:
    c = f.t.view(f.ana).card(tuple(pos))
    assert c is not None
    return c.name.split(" (")[0]


def said(f: Fight, seat: int, striker: list[int]) -> str:
    """What ``seat``'s combat box says ``striker``'s chosen strike will do."""
    view = f.t.view(seat)
    c = view.combat
    assert c is not None
    s = next(s for s in c.strikes if list(s.minion) == striker)
    return foresee(view, c, s)


def resolve(f: Fight) -> None:
    """Everyone passes the damage step: the engine resolves the pair."""
    combat_loop(f.t, (f.ana, f.ben, f.cy, f.dee))


def test_a_dodge_shields_the_dodger_and_the_box_says_so(f: Fight) -> None:
    t, marek = f.t, name_of(f, f.marek)
    by_hand(t, f.ana, "strike", minion=f.lucia)
    by_hand(t, f.ben, "strike", minion=f.marek, dodge=True)
    for seat in (f.ana, f.ben):  # both sides read it, not "mended, 0 blood left"
        assert said(f, seat, f.lucia) == f"{marek} dodges it"
    _, detail = combat_lines(t.view(f.ana), NAMES, t.view(f.ana).combat)  # type: ignore[arg-type]
    assert f"hand strike, 1 damage → {marek} dodges it" in detail
    resolve(f)
    assert card(t, f.marek).counters == 1  # kept


def test_prevention_recorded_is_taken_off_the_damage_foreseen(f: Fight) -> None:
    t, lucia = f.t, name_of(f, f.lucia)
    by_hand(t, f.ana, "strike", minion=f.lucia)
    by_hand(t, f.ben, "strike", minion=f.marek)
    assert said(f, f.ben, f.marek) == f"{lucia} mended, 3 blood left"
    by_hand(t, f.ana, "prevent", minion=f.lucia, normal=1, agg=0)
    assert said(f, f.ben, f.marek) == f"{lucia} prevents it all"
    resolve(f)
    assert card(t, f.lucia).counters == 4  # stayed


def test_stolen_blood_says_what_the_striker_gains(f: Fight) -> None:
    t, lucia, marek = f.t, name_of(f, f.lucia), name_of(f, f.marek)
    by_hand(t, f.ana, "strike", minion=f.lucia, steal=1)
    by_hand(t, f.ben, "strike", minion=f.marek)
    text = said(f, f.ana, f.lucia)
    assert text == f"{lucia} gains 1 blood ({marek} 0 left)" and "mended" not in text
    resolve(f)
    assert (card(t, f.lucia).counters, card(t, f.marek).counters) == (4, 0)  # 4 - 1 damage + 1 stolen


def test_a_first_strike_that_sends_to_torpor_stops_the_other_strike(f: Fight) -> None:
    t, marek = f.t, name_of(f, f.marek)
    by_hand(t, f.ana, "strike", minion=f.lucia, damage=2, first=True)
    by_hand(t, f.ben, "strike", minion=f.marek)
    assert said(f, f.ana, f.lucia) == f"{marek} to torpor with 0 blood"
    assert said(f, f.ana, f.marek) == "no strike: the first strike resolves before it"
    resolve(f)
    assert card(t, f.marek).zone == "torpor" and card(t, f.lucia).counters == 4


def test_aggravated_damage_foreseen_is_what_the_engine_applies(f: Fight) -> None:
    t, lucia = f.t, name_of(f, f.lucia)
    by_hand(t, f.ana, "strike", minion=f.lucia)
    by_hand(t, f.ben, "strike", minion=f.marek, damage=3, aggravated=True)
    assert said(f, f.ana, f.marek) == f"{lucia} to torpor with 2 blood"
    resolve(f)
    assert (card(t, f.lucia).counters, card(t, f.lucia).zone) == (2, "torpor")


def test_the_lines_name_the_target_of_each_strike(f: Fight) -> None:
    t, lucia, marek = f.t, name_of(f, f.lucia), name_of(f, f.marek)
    by_hand(t, f.ana, "strike", minion=f.lucia)
    by_hand(t, f.ben, "strike", minion=f.marek)
    view = t.view(f.ben)
    assert view.combat is not None
    _, detail = combat_lines(view, NAMES, view.combat)
    assert f"{lucia}: hand strike, 1 damage → {marek} mended, 0 blood left" in detail
    assert f"{marek}: hand strike, 1 damage → {lucia} mended, 3 blood left" in detail


@pytest.mark.parametrize(
    ("counters", "crypt", "torpor", "normal", "agg", "expected"),
    [
        (3, True, False, 2, 0, (1, False, False)),  # mended
        (1, True, False, 2, 0, (0, True, False)),  # wounded: torpor
        (2, True, False, 0, 3, (0, True, False)),  # 1st point wounds, 2 burn blood
        (1, True, False, 0, 3, (0, True, True)),  # burned
        (2, True, True, 1, 0, (1, True, False)),  # in torpor already
        (2, False, False, 1, 0, (1, False, False)),  # an ally's life
        (2, False, False, 1, 1, (0, False, True)),
    ],
)
def test_the_damage_arithmetic_is_one_function(
    counters: int, crypt: bool, torpor: bool, normal: int, agg: int, expected: tuple[int, bool, bool]
) -> None:
    r = damage_result(counters, crypt, torpor, normal, agg)
    assert (r.left, r.wounded, r.burned) == expected


def test_a_strike_refused_after_striking_says_the_minion_has_struck(f: Fight) -> None:
    t = f.t
    by_hand(t, f.ana, "strike", minion=f.lucia)
    err = refused(t, f.ana, {"do": "strike", "minion": f.lucia}, "has struck this round")
    assert "when it reaches you" not in str(err) and "holds the impulse" in str(err)


def test_no_maneuver_is_offered_to_the_minion_that_made_the_last() -> None:
    """No card of the fight library gives a maneuver: ``m`` is offered to neither combatant (a
    maneuver by hand is the command, a claim); Lucia's by hand is the last, so a second is refused."""
    f = fight_table(seed=1, blood=(4, 1, 1, 1))
    t = f.t
    bleed_blocked(f)
    combat_loop(t, (f.ana, f.ben, f.cy, f.dee))  # before range
    view = t.view(f.ana)
    assert view.combat is not None and ("m", "maneuver") not in combat_keys(view, view.combat)
    by_hand(t, f.ana, "maneuver", minion=f.lucia)
    view = t.view(f.ana)
    assert view.combat is not None and view.combat.impulse == f.ana  # a play returns the impulse
    assert ("m", "maneuver") not in combat_keys(view, view.combat)
    assert not may_fight(view, f.ana, CombatStep.RANGE)
    refused(t, f.ana, {"do": "maneuver", "minion": f.lucia}, "made the last maneuver")
    act(t, f.ana, "pass")
    view = t.view(f.ben)
    assert view.combat is not None and ("m", "maneuver") not in combat_keys(view, view.combat)
    assert not may_fight(view, f.ben, CombatStep.RANGE)


def test_window_a_offers_no_block_to_a_methuselah_with_every_minion_locked() -> None:
    f = fight_table(seed=1, blood=(4, 1, 1, 1))
    t = f.t
    act(t, f.ben, "lock", cards=[f.marek])
    act(t, f.ana, "action", kind="bleed", minion=f.lucia)
    view = t.view(f.ben)
    assert view.action is not None
    words = window_words(view, NAMES, view.action)
    assert words == "window A: nobody may block (no ready unlocked minion)", words


def test_a_strike_by_hand_makes_the_status_line_wait_for_the_touched_ones_answer(f: Fight) -> None:
    """While Ana's strike of 3 with no card waits for Ben's answer, the combat waits for it: Ben's
    status line asks for his answer, the others' name him; his dispute gives the strike back."""
    t = f.t
    act(t, f.ana, "strike", minion=f.lucia, damage=3)
    number = t.state.claims[-1].act
    ben = waiting_words(t.view(f.ben), NAMES)
    assert ben == f"The table waits for your answer to act {number} (y accept, :dispute {number}).", ben
    assert waiting_words(t.view(f.cy), NAMES) == f"Waiting for {NAMES[f.ben]}'s answer to act {number}."
    act(t, f.ben, "dispute", act=number)
    assert waiting_words(t.view(f.cy), NAMES) == f"Waiting for {NAMES[f.ana]} (combat)."
