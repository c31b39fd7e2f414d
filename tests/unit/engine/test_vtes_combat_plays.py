"""Combat cards the table applies as they are played in a step of combat (shared/rules/vtes-actions.md
5.2–5.9, P5; docs/protocol.md 4.4.1): Torn Signpost sets a strength for the combat, Carrion Crows
deals ranged damage each round, Immortal Grapple allows only hand strikes this round (at superior,
another round at close range, with an optional press), Taste of Vitae gains the blood the opposing
vampire lost this round. Each is offered in the step its text binds it to, changes the numbers at
once, is narrated with the card's name, and replays to the same state; outside its step it is
refused in the card's words.

Ana's vampire bleeds Ben, Ben's blocks (Ana: 4 blood, Ben: 2). Fish (ANI POT, capacity 5) plays
the superior levels, Darva Felispa (ani pot, capacity 3) the basic ones."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove, Note
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import copy_table, first_vampire, one_vampire_table, replayed, to_combat_step

SUPERIOR = "Fish (G4)"
BASIC = "Darva Felispa (G3)"
LIBRARY = (("Torn Signpost", 1), ("Carrion Crows", 1), ("Immortal Grapple", 2), ("Taste of Vitae", 2))


@pytest.fixture(scope="module")
def superior() -> SimTable:
    return one_vampire_table(SUPERIOR, LIBRARY, seed=5)


@pytest.fixture(scope="module")
def basic() -> SimTable:
    return one_vampire_table(BASIC, LIBRARY, seed=5)


def _play(t: SimTable, done: list[tuple[int, Act]], seat: int, act: Act) -> list[str]:
    notes: tuple[Note, ...] = t.play(seat, act)
    t.run_ops()
    done.append((seat, act))
    return [n.render([f"seat {s}" for s in range(4)]) for n in notes]


def through(t: SimTable, done: list[tuple[int, Act]], step: str) -> list[str]:
    """Pass, and strike with the hand, up to combat step ``step`` (or the combat's end)."""
    said: list[str] = []
    for _ in range(40):
        c = t.state.open_combat
        if c is None or c.step == step:
            return said
        if c.step == "strike":
            minion = c.due()[0]
            said += _play(t, done, c.impulse, {"do": "strike", "minion": list(minion)})
        else:
            said += _play(t, done, c.impulse, {"do": "pass"})
    raise AssertionError(f"no {step} step")


def offered(t: SimTable, seat: int, name: str) -> list[Act]:
    view = t.view(seat)
    cards = [c.as_list() for c in view.hand if c.name == name]
    return [a for a in VTES.legal_acts(view) if a["do"] == "play" and a.get("card") in cards]


def played_before_range(
    start: SimTable, name: str, field: str, value: int
) -> tuple[SimTable, list[tuple[int, Act]], int, list[str]]:
    """A copy of ``start`` in which Ana plays ``name`` before range, the level whose ``field`` is
    ``value``, the most of its offered levels. Returns the table, the acts, Ben's seat and the
    narration of the play."""
    t, done = copy_table(start), []
    ana, ben = to_combat_step(t, done, "before_range")
    plays = offered(t, ana, name)
    assert max(a[field] for a in plays) == value
    said = _play(t, done, ana, next(a for a in plays if a[field] == value))
    return t, done, ben, said


def blood(t: SimTable, pos: list[int]) -> int:
    return next(c.counters for c in t.state.cards if list(c.pos) == pos)


@pytest.mark.parametrize(("table", "strength"), [("basic", 2), ("superior", 3)])
def test_torn_signpost_sets_the_strength_the_hand_strike_deals_for_the_combat(
    table: str, strength: int, request: pytest.FixtureRequest
) -> None:
    start = request.getfixturevalue(table)
    t, done, ben, said = played_before_range(start, "Torn Signpost", "strength", strength)
    assert any(f"a strength of {strength} this combat (Torn Signpost)" in line for line in said), said
    c = t.state.open_combat
    assert c is not None and c.strength_of(c.acting) == strength
    target = first_vampire(t, ben)
    said = through(t, done, "press")
    # Ben's vampire (2 blood) takes the strength's damage: 2 mended, or 3: 2 mended and to torpor
    assert any(f"takes {strength} damage" in line for line in said), said
    assert blood(t, target) == 0
    assert replayed(start, done).state == t.state


@pytest.mark.parametrize(("table", "points"), [("basic", 1), ("superior", 2)])
def test_carrion_crows_deals_ranged_damage_each_round_with_the_strikes(
    table: str, points: int, request: pytest.FixtureRequest
) -> None:
    start = request.getfixturevalue(table)
    t, done, _, said = played_before_range(start, "Carrion Crows", "environmental", points)
    assert any(f"takes {points}R damage each round of this combat (Carrion Crows)" in line for line in said)
    # both hand strike at close range: Ben's vampire takes 1 damage, and the crows' with it
    said = through(t, done, "press")
    assert any(f"takes {1 + points} damage" in line for line in said), said
    assert replayed(start, done).state == t.state


def test_carrion_crows_is_refused_once_range_is_determined(basic: SimTable) -> None:
    t, done = copy_table(basic), []
    ana, _ = to_combat_step(t, done, "before_strikes")
    card = next(c.as_list() for c in t.view(ana).hand if c.name == "Carrion Crows")
    with pytest.raises(IllegalMove, match='Carrion Crows says "only usable before range is determined"'):
        t.play(ana, {"do": "play", "card": card, "minion": first_vampire(t, ana), "environmental": 1})
    assert not offered(t, ana, "Carrion Crows")


def test_immortal_grapple_allows_only_hand_strikes_this_round(basic: SimTable) -> None:
    t, done = copy_table(basic), []
    ana, ben = to_combat_step(t, done, "before_strikes")
    plays = offered(t, ana, "Immortal Grapple")
    assert plays and plays[0]["grapple"] and "close" not in plays[0]
    said = _play(t, done, ana, plays[0])
    assert any("Immortal Grapple: only hand strikes this round" in line for line in said), said
    through(t, done, "strike")
    with pytest.raises(IllegalMove, match="only hand strikes may be used this round"):
        t.play(ana, {"do": "strike", "minion": first_vampire(t, ana), "damage": 2})
    assert replayed(basic, done).state == t.state


def test_immortal_grapple_at_superior_presses_into_a_round_at_close_range(superior: SimTable) -> None:
    t, done = copy_table(superior), []
    ana, ben = to_combat_step(t, done, "before_strikes")
    plays = offered(t, ana, "Immortal Grapple")
    grapple = max(plays, key=len)
    assert grapple["grapple"] and grapple["close"] and grapple["press"]
    _play(t, done, ana, grapple)
    through(t, done, "press")
    c = t.state.open_combat
    if c is None:
        pytest.skip("a combatant left the combat in the first round")
    press = [a for a in VTES.legal_acts(t.view(c.impulse)) if a["do"] == "press" and a.get("card") == grapple["card"]]
    if c.impulse != ana:
        _play(t, done, c.impulse, {"do": "pass"})
        press = [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "press" and a.get("card") == grapple["card"]]
    assert press, "the grapple's optional press is offered in the press step"
    _play(t, done, ana, press[0])
    said = through(t, done, "before_strikes")
    c = t.state.open_combat
    assert c is not None and c.round == 2 and not c.long
    assert any("Round 2: close range, the determine range step skipped" in line for line in said), said
    assert replayed(superior, done).state == t.state


@pytest.fixture(scope="module")
def thirsty() -> tuple[SimTable, SimTable, list[tuple[int, Act]]]:
    """Ben's vampire has 4 blood here: the hand strikes are made and the round is at its end; Ana's
    vampire (2 blood) has taken 1, Ben's lost 1. The start, the table and the acts."""
    start = one_vampire_table(BASIC, LIBRARY, seed=5, blood=(2, 4, 2, 2))
    t, done = copy_table(start), []
    ana, _ = to_combat_step(t, done, "before_range")
    assert not offered(t, ana, "Taste of Vitae")  # bound to the end of a round
    through(t, done, "end_of_round")
    return start, t, done


def test_taste_of_vitae_gains_the_blood_the_opposing_vampire_lost_this_round(thirsty) -> None:
    start, t, done = thirsty[0], copy_table(thirsty[1]), list(thirsty[2])
    ana = t.state.acting
    mine = first_vampire(t, ana)
    before = blood(t, mine)
    plays = offered(t, ana, "Taste of Vitae")
    assert {a["gain_blood"] for a in plays} == {1}
    said = _play(t, done, ana, plays[0])
    assert blood(t, mine) == before + 1
    assert any("gains 1 blood (Taste of Vitae)" in line for line in said), said
    assert replayed(start, done).state == t.state


def test_taste_of_vitae_refuses_more_blood_than_was_lost(thirsty) -> None:
    t = copy_table(thirsty[1])
    ana = t.state.acting
    card = next(c.as_list() for c in t.view(ana).hand if c.name == "Taste of Vitae")
    with pytest.raises(IllegalMove, match="lost 1 blood to damage this round: Taste of Vitae gains that, not 3"):
        t.play(ana, {"do": "play", "card": card, "minion": first_vampire(t, ana), "gain_blood": 3})


def test_a_combat_cards_effect_outside_combat_is_refused(basic: SimTable) -> None:
    t = copy_table(basic)
    ana = t.state.acting
    card = next(c.as_list() for c in t.view(ana).hand if c.name == "Torn Signpost")
    with pytest.raises(IllegalMove, match="changes a combat, and no combat is under way"):
        t.play(ana, {"do": "play", "card": card, "minion": first_vampire(t, ana), "strength": 2})


def test_a_bot_plays_its_combat_card_in_the_step_it_is_bound_to(superior: SimTable) -> None:
    from engine.games.vtes.bots import vtes_bot

    t, done = copy_table(superior), []
    ana, _ = to_combat_step(t, done, "before_range")
    view = t.view(ana)
    chosen = vtes_bot("heuristic", seed=1).choose(view, VTES.legal_acts(view))
    assert chosen is not None and chosen["do"] == "play" and ("strength" in chosen or "environmental" in chosen)


def test_the_offered_play_states_the_cards_printed_limit_and_the_table_keeps_the_acts(thirsty) -> None:
    """docs/protocol.md 4.4.1: the act carries "A vampire can play only one Taste of Vitae each
    round" as ``limit``; the table keeps the limit the act states (an act stating another scope
    is kept with that scope), and an act stating none is read from the card record, as logs
    written before the field fold."""
    t = copy_table(thirsty[1])
    ana = t.state.acting
    plays = offered(t, ana, "Taste of Vitae")
    assert plays and all(a["limit"] == "each round" and "limit_all" not in a for a in plays)
    stated = copy_table(t)
    stated.play(ana, {**plays[0], "limit": "each combat"})
    assert [(x.scope, x.minion) for x in stated.state.limited] == [("each combat", tuple(plays[0]["minion"]))]
    legacy = copy_table(t)
    legacy.play(ana, {k: v for k, v in plays[0].items() if k != "limit"})
    assert [x.scope for x in legacy.state.limited] == ["each round"]
    with pytest.raises(IllegalMove, match='says "A vampire can play only one Taste of Vitae each round"'):
        legacy.play(ana, {**plays[1], "gain_blood": 1})


@pytest.mark.parametrize(
    ("vampire", "name", "whole"),
    [
        ("Jane Sims (G4)", "Claws of the Dead", False),  # [pro], 1 blood
        ("Jane Sims (G4)", "Chiropteran Marauder", False),  # [VIC]: burn 1 blood
        ("Erinyi (G2)", "Raking Talons", True),  # a Gargoyle: the rest of the combat
    ],
)
def test_a_card_makes_the_hand_strikes_damage_aggravated(vampire: str, name: str, whole: bool) -> None:
    start = one_vampire_table(vampire, ((name, 2), ("Conditioning", 2)), seed=5)
    t, done = copy_table(start), []
    ana, ben = to_combat_step(t, done, "before_range")
    mine = first_vampire(t, ana)
    plays = offered(t, ana, name)
    assert plays and all(a["aggravated"] and a.get("whole_combat", False) == whole for a in plays)
    if name != "Raking Talons":
        assert plays[0]["blood"] == 1  # its cost, or the blood its text burns
    before = blood(t, mine)
    said = _play(t, done, ana, plays[0])
    assert any("hand strikes deal aggravated damage" in line and f"({name})" in line for line in said), said
    assert blood(t, mine) == before - plays[0].get("blood", 0)
    said = through(t, done, "press")
    assert any("1 aggravated damage" in line for line in said), said
    assert replayed(start, done).state == t.state
