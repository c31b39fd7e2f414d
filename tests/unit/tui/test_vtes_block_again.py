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


def test_after_a_failed_attempt_the_keys_say_what_it_needs_and_the_pass_waits_only_for_intercept() -> None:
    """Marek's attempt failed (intercept 0 against stealth 1): ``b`` is offered again, and its words
    say what the attempt needs ("play intercept or it fails again"); the automatic pass stops Ben
    while he holds a card that gives intercept (Patrol), and passes for him, declining, when he
    holds none: a newcomer pressing ``b`` again and again only loops."""
    import dataclasses

    from engine.games.vtes.autopass import auto_pass
    from tui.games.vtes.action_text import Key, your_keys

    f = fight_table(seed=1, blood=(4, 1, 1, 1))
    _failed_attempt(f)
    view = f.t.view(f.ben)
    keys = your_keys(view, "Marek", None)
    assert Key("b", "block with Marek (intercept 0 against stealth 1: play intercept or it fails again)") in keys
    assert any(c.name == "Patrol" for c in view.hand)
    assert auto_pass(view) is None
    no_intercept = dataclasses.replace(view, hand=tuple(c for c in view.hand if c.name != "Patrol"))
    assert auto_pass(no_intercept) == {"do": "pass"}


def test_a_card_that_wakes_a_minion_to_block_does_not_stop_a_block_that_could_only_fail() -> None:
    """Ben also holds On the Qui Vive and controls a locked vampire it could wake to block: with no
    card that gives intercept, that block would fail too, so the card is no decision (a tester's
    "b block with Claus Wegener · p a reaction: On the Qui Vive" came back after every failure)."""
    import dataclasses

    from engine.games.vtes.autopass import auto_pass
    from engine.games.vtes.cards import card_base
    from engine.games.vtes.offers import answers
    from engine.games.vtes.vocab import Do

    f = fight_table(seed=1, blood=(4, 1, 1, 1))
    _failed_attempt(f)
    view = f.t.view(f.ben)
    marek = view.card(tuple(f.marek))
    assert marek is not None
    asleep = dataclasses.replace(marek, pos=(marek.pos[0], marek.pos[1] + 100), locked=True)
    found = card_base().lookup("On the Qui Vive")
    assert found is not None
    patrol = next(c for c in view.hand if c.name == "Patrol")
    qui_vive = dataclasses.replace(patrol, card=f"{found.id}-1", name="On the Qui Vive", types=("Reaction",), text="")
    hand = tuple(c for c in view.hand if c.name != "Patrol") + (qui_vive,)
    woken = dataclasses.replace(view, cards=(*view.cards, asleep), hand=hand)
    assert any(o.do == Do.PLAY and o.card == qui_vive.pos for o in answers(woken))
    assert auto_pass(woken) == {"do": "pass"}
