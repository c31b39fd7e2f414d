"""``b`` after a failed block attempt (rulebook, "Who May Attempt to Block": "If one attempt to
block fails, another can be made as often as the blocking Methuselah wishes"): the minion whose
attempt failed may try again, and ``b`` still offers it when it is selected; with nothing selected
it offers a minion that has not tried first. On an in-memory table: Ana's Lucia bleeds Ben with
stealth 1; Ben's Marek attempts a block with intercept 0 and fails."""

from __future__ import annotations

from engine.games.vtes.vocab import Zone
from tests.support.vtes_fight import Fight, card, fight_table
from tests.support.vtes_sim import act
from tui.games.vtes.key_acts import blocker


def _failed_attempt(f: Fight) -> None:
    t = f.t
    act(t, f.ana, "action", kind="bleed", minion=f.lucia, stealth=1)
    act(t, f.ana, "pass")
    act(t, f.ben, "block", minion=f.marek)
    for seat in (f.ana, f.ben, f.cy, f.dee):
        act(t, seat, "pass")
    assert t.state.open_action is not None and t.state.open_action.window == "A"  # the block failed
    act(t, f.ana, "pass")
    assert t.state.open_action.impulse == f.ben


def test_the_minion_whose_block_failed_may_try_again_and_b_offers_it() -> None:
    f = fight_table(seed=1, blood=(4, 1, 1, 1))
    _failed_attempt(f)
    view = f.t.view(f.ben)
    marek = view.card(tuple(f.marek))
    assert f.t.state.open_action.tried == (tuple(f.marek),)
    assert view.may_block(f.ben) and view.may_try(f.ben) == (marek,) and view.untried(f.ben) == ()
    assert blocker(view, f.ben, marek) == marek
    assert blocker(view, f.ben, None) == marek  # no other minion: the one that tried
    act(f.t, f.ben, "block", minion=f.marek, intercept=1)
    a = f.t.state.open_action
    assert a is not None and a.window == "B" and a.blocker == tuple(f.marek)


def test_another_ready_minion_is_offered_and_a_new_action_forgets_the_failure() -> None:
    f = fight_table(seed=1, blood=(4, 1, 1, 1))
    t = f.t
    marek_name = t.view(f.ben).card(tuple(f.marek)).name
    other = next(
        c
        for c in t.state.cards
        if c.owner == f.ben and c.zone == Zone.UNCONTROLLED and c.crypt and t.view(f.ben).card(c.pos).name != marek_name
    )
    act(t, f.ben, "move", cards=[list(other.pos)], to="ready")
    _failed_attempt(f)
    view = t.view(f.ben)
    marek = view.card(tuple(f.marek))
    assert blocker(view, f.ben, marek) == marek  # selected: it may try again
    offered = blocker(view, f.ben, None)
    assert offered is not None and offered.pos == other.pos and not card(t, other.pos).locked
    # Ben declines; the bleed succeeds; the next action's blockers start afresh.
    for _ in range(8):
        if t.state.open_action is None:
            break
        act(t, t.state.open_action.impulse, "pass")
    assert t.state.open_action is None
    fresh = next(c for c in t.state.cards if c.owner == f.ana and c.zone == Zone.UNCONTROLLED and c.crypt)
    act(t, f.ana, "move", cards=[list(fresh.pos)], to="ready")
    act(t, f.ana, "blood", card=list(fresh.pos), delta=2, cause="effect")
    act(t, f.ana, "action", kind="bleed", minion=list(fresh.pos), stealth=1)
    assert t.state.open_action is not None and t.state.open_action.tried == ()
