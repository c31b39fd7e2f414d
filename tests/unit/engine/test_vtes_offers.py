"""The offers are the one statement of what a seat may do (engine.games.vtes.offers), and the windows
one stack of impulse loops (engine.games.vtes.windows; shared/rules/vtes-actions.md 5.1, P1):
over random sequences of acts, every window carries one loop, the table waits for the innermost
holder, every window closes, each offered act is taken by the engine and the structural acts not
offered are refused.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.games.base import Act, IllegalMove, MalformedAct
from engine.games.vtes import rules
from engine.games.vtes.claims import window_held
from engine.games.vtes.game import VTES
from engine.games.vtes.offers import answers, offers
from engine.games.vtes.state import Loop, Referendum, VtesState
from engine.games.vtes.view import VtesView
from engine.games.vtes.vocab import ActionKind, Do, Poll, Status, Step, Zone
from engine.sim import SimTable
from tests.support.vtes_fight import fight_table, one_crypt_fight
from tests.support.vtes_sim import act as make
from tests.support.vtes_sim import copy_table, minion_phase_table
from tui.games.vtes.menus import announce_choices


@pytest.fixture(scope="module")
def starts() -> list[SimTable]:
    """A 4-seat and a 3-seat table in the first player's minion phase, and a table where a bleed
    is about to be blocked into combat."""
    return [minion_phase_table(4, seed=1), minion_phase_table(3, seed=2, blood=(1, 3, 0)), fight_table(seed=1).t]


def takes(t: SimTable, seat: int, act: Act) -> str | None:
    """None when the engine takes ``act`` by ``seat`` now; else its refusal. Changes nothing."""
    try:
        positions = VTES.to_open(t.state, seat, act)
        if any(p not in t.known[seat] for p in positions):
            return "that card is not in your hand"
        rules.run_act(t.state, seat, act, {p: t.truth[p] for p in positions})
    except (IllegalMove, MalformedAct) as err:
        return str(err)
    return None


def structural(view: VtesView, seat: int) -> list[Act]:
    """The acts that answer a window or move a turn on, made by ``seat`` with each of its minions
    in play and each combatant: the engine refuses every one of them that is not offered."""
    minions = [c.as_list() for c in view.cards if c.controller == seat and c.zone in (Zone.READY, Zone.TORPOR)]
    combatants = [list(m) for m in ((view.combat.acting, view.combat.opposing) if view.combat else ())]
    acts: list[Act] = [
        {"do": Do.PASS},
        {"do": Do.DONE},
        {"do": Do.DIABLERISE},
        {"do": Do.PHASE},
        {"do": Do.END_TURN},
        {"do": Do.EDGE},
        {"do": Do.TERMS, "text": "as the card says"},
    ]
    acts += [{"do": Do.BLOCK, "minion": m} for m in minions]
    for m in combatants:
        # A maneuver with no card is by hand (a vampire's ability: the command ``maneuver``), as a
        # number of an action changed with no card is: not offered, and taken (a claim in the window).
        acts += [{"do": do, "minion": m} for do in (Do.STRIKE, Do.PRESS)]
    return acts


def check_windows(state: VtesState, awaited: tuple[int, ...]) -> None:
    """One loop per window; a loop's holder is in its order (a step that is no loop: its holder
    alone); the innermost holder is among the seats the table waits for, or, while a claim made in
    the window holds it, the seats it touches that have not accepted it."""
    for window in state.windows:
        assert isinstance(window.loop, Loop)
        lp = window.loop
        assert not lp.order or lp.holder in lp.order or lp.holder == -1
        assert len(set(lp.order)) == len(lp.order)
    top = state.innermost
    if top is None:
        return
    held = window_held(state.claims)
    if held is not None:  # a claim made in the window holds it: the table waits for its answer
        assert awaited == tuple(s for s in held.seats if s not in held.accepted)
        return
    if top.loop.holder >= 0:
        assert state.players[top.loop.holder].status == Status.IN
        assert awaited == (top.loop.holder,)
    else:
        assert isinstance(top, Referendum) and top.step == Poll.VOTING
        assert set(awaited) == {s for s in state.in_game() if s not in top.done}


def check_offers(t: SimTable) -> None:
    """For every seat in the game: each offered act is taken; each structural act not offered is
    refused."""
    for seat in t.state.in_game():
        view = t.view(seat)
        offered = [o.act for o in offers(view)]
        for act in offered:
            refusal = takes(t, seat, act)
            assert refusal is None, f"seat {seat} was offered {act}, and it is refused: {refusal}"
        for act in structural(view, seat):
            if act not in offered and not any(_same(act, o) for o in offered):
                assert takes(t, seat, act) is not None, f"seat {seat} may make {act}, which is not offered"


def _same(act: Act, offered: Act) -> bool:
    """``act`` is an offered act less its defaults (the strike or block of one minion)."""
    return act["do"] == offered["do"] and all(offered.get(k) == v for k, v in act.items())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_offers_are_what_the_engine_takes_and_every_window_closes(starts, data):
    t = copy_table(data.draw(st.sampled_from(starts), label="start"))
    for _ in range(data.draw(st.integers(5, 30), label="acts")):
        if t.state.step != Step.PLAY:
            break
        awaited = t.pending().awaited
        check_windows(t.state, awaited)
        check_offers(t)
        seat = data.draw(st.sampled_from(awaited))
        offered = [o.act for o in offers(t.view(seat))]
        assert offered, f"the table waits for seat {seat}, who is offered nothing"
        answering = [o.act for o in answers(t.view(seat))]
        # Answers are drawn more often than turn acts, so that windows open and nest.
        chosen = data.draw(st.sampled_from(offered + answering * 3))
        t.play(seat, chosen)
        t.run_ops()
    event(f"windows seen: {len(t.state.windows)}")
    for _ in range(200):  # everyone passing (the hand strike when due): every window closes
        if t.state.step != Step.PLAY or not t.state.windows:
            break
        awaited = t.pending().awaited
        check_windows(t.state, awaited)
        seat = awaited[0]
        held = window_held(t.state.claims)
        legal = [o.act for o in answers(t.view(seat))] if held is None else [{"do": Do.ACCEPT, "act": held.act}]
        chosen = next((a for a in legal if a["do"] in (Do.PASS, Do.DONE)), None) or next(
            (a for a in legal if a["do"] == Do.STRIKE), None
        )
        if chosen is None:
            chosen = legal[0]  # the terms, or a diablerie
        t.play(seat, chosen)
        t.run_ops()
    assert not t.state.windows or t.state.step != Step.PLAY, "a window never closes"


def test_every_basic_action_is_offered_and_leaving_torpor_only_to_a_vampire_that_can_pay():
    """The minion phase offers, besides a bleed and a hunt, a rescue and a diablerie of a vampire in
    torpor (rulebook, "Rescue a Vampire from Torpor", "Diablerie"), an action applied by hand, and
    leaving torpor to a vampire of the acting Methuselah that has the 2 blood it costs; the engine
    takes each offered one, and the announce menu words each once (vocab.action_phrase)."""
    t = copy_table(minion_phase_table(4, seed=1, blood=(4, 1, 1, 1)))
    me = t.state.acting
    other = next(c for c in t.state.cards if c.controller != me and c.zone == Zone.READY)
    make(t, other.controller, "move", cards=[list(other.pos)], to="torpor")
    kinds = {(o.act["kind"], tuple(o.act.get("target_card", ()))) for o in offers(t.view(me)) if o.do == Do.ACTION}
    assert ("rescue", other.pos) in kinds and ("diablerise", other.pos) in kinds and ("other", ()) in kinds
    # A second vampire of mine, in torpor: offered to leave it only once it holds 2 blood.
    spare = next(c for c in t.state.cards if c.owner == me and c.zone == Zone.UNCONTROLLED)
    make(t, me, "move", cards=[list(spare.pos)], to="torpor")

    def leaving() -> list[Act]:
        return [o.act for o in offers(t.view(me)) if o.act.get("kind") == "leave_torpor"]

    assert leaving() == []
    make(t, me, "blood", card=list(spare.pos), delta=2, cause="effect")
    assert leaving() == [{"do": Do.ACTION, "kind": "leave_torpor", "minion": list(spare.pos)}]
    for o in offers(t.view(me)):
        assert takes(t, me, o.act) is None, o.act
    words = [w for w, _ in announce_choices(t.view(me), ["Ana", "Ben", "Cy", "Di"], None, None)]
    assert any(w.startswith("Your ") and "leaves torpor (2 blood)" in w for w in words)
    assert any(" bleeds " in w and " for 1" in w for w in words)


def test_an_action_card_that_bleeds_at_every_level_is_offered_once_as_a_bleed():
    """Break the Bonds says "Ⓓ Bleed." before its levels ([ani] [obf] [pre], each applied by
    hand): played at any level it is a bleed, so Ana's Anarch with Presence is offered it once, as
    a bleed of her prey for 1, never also as an action of another kind; the engine takes it."""
    f = one_crypt_fight("Ariane (G5)", [("Break the Bonds", 7)])
    view = f.t.view(f.ana)
    with_card = [o.act for o in offers(view) if o.do == Do.ACTION and "card" in o.act and o.act["minion"] == f.lucia]
    assert [(a["kind"], a.get("amount")) for a in with_card] == [(ActionKind.BLEED, 1)]
    assert takes(f.t, f.ana, with_card[0]) is None
    names = ["Ana", "Ben", "Cy", "Dee"]
    words = [w for w, _ in announce_choices(view, names, None, None) if "Break the Bonds" in w]
    assert words == [f"Your Ariane bleeds {names[view.players[f.ana].prey]} for 1 with Break the Bonds"]
