"""``b`` after a failed block attempt (shared/rules/vtes-actions.md 4.2): a minion attempts to block
an action once; after its attempt failed, the table refuses it a second attempt with a sentence, and
``b`` offers only the Methuselah's other ready unlocked minions, none when it has no other (the key
leaves the footer). On an in-memory table: Ana's Lucia bleeds Ben with stealth 1; Ben's Marek
attempts a block with intercept 0 and fails."""

from __future__ import annotations

import pytest

from engine.games.base import IllegalMove
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


def test_the_minion_whose_block_failed_is_not_offered_again_nor_is_b_with_no_other() -> None:
    f = fight_table(seed=1, blood=(4, 1, 1, 1))
    _failed_attempt(f)
    view = f.t.view(f.ben)
    marek = view.card(tuple(f.marek))
    assert f.t.state.open_action.tried == (tuple(f.marek),)
    assert not view.may_block(f.ben) and view.may_try(f.ben) == ()  # Ben has no other minion to try
    assert blocker(view, f.ben, marek) is None  # b leaves the footer (before: Marek offered again)
    before = f.t.state
    with pytest.raises(IllegalMove, match="has already tried to block this action: another of your minions may try"):
        act(f.t, f.ben, "block", minion=f.marek)
    assert f.t.state == before


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
    offered = blocker(view, f.ben, marek)
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
