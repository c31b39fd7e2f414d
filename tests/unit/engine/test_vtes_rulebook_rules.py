"""Rules of the VEKN rulebook (github GiottoVerducci/rulebook2024, content.md) where it says more
than shared/rules/vtes-actions.md, each with its section: who may attempt to block, the blood
hunt, a political action's card, a rescue's cost, the first turns' transfers, master and discard
phase actions.

Tables as in test_vtes_actions.py and test_vtes_politics.py: seats clockwise Ana, Ben, Cy, Dee in
Ana's minion phase, one ready vampire each (Lucia with 4 blood, Marek, Nico and Sasha with 1).
"""

from __future__ import annotations

from engine.games.vtes.autopass import auto_pass
from engine.games.vtes.bots import VtesBot
from engine.games.vtes.offers import legal_acts
from tests.support.vtes_fight import card, fight_table, in_hand, refused
from tests.support.vtes_sim import act, by_hand

# --- Who May Attempt to Block ----------------------------------------------------------------------


def _failed_block(f) -> None:
    """Lucia bleeds Ben with stealth 1; Ben's Marek attempts with intercept 0; every seat passes:
    the attempt fails; Ana passes and the impulse is Ben's again."""
    t = f.t
    act(t, f.ana, "action", kind="bleed", minion=f.lucia, stealth=1)
    act(t, f.ana, "pass")
    act(t, f.ben, "block", minion=f.marek)
    notes = []
    for seat in (f.ana, f.ben, f.cy, f.dee):
        notes += act(t, seat, "pass")
    assert any("another attempt can be made as often as the blocking Methuselah wishes" in n.text for n in notes)
    a = t.state.open_action
    assert a is not None and a.window == "A" and a.tried == (tuple(f.marek),)
    act(t, f.ana, "pass")
    assert t.state.open_action.impulse == f.ben


def test_a_minion_whose_block_failed_may_try_again():
    f = fight_table(seed=1)
    t = f.t
    _failed_block(f)
    view = t.view(f.ben)
    assert {"do": "block", "minion": f.marek} in legal_acts(view)
    act(t, f.ben, "block", minion=f.marek, intercept=1)
    assert t.state.open_action.window == "B"
    # "as long as another minion is not already blocking"
    refused(t, f.dee, {"do": "block", "minion": f.sasha}, "as long as another minion is not already blocking")
    for seat in (f.ana, f.ben, f.cy, f.dee):
        act(t, seat, "pass")
    assert t.state.open_action is None and t.state.open_combat is not None  # blocked: combat


NO_REACTION = (("Kine Resources Contested", 2), ("Immortal Grapple", 1), ("Raven Spy", 1), ("Threats", 3))
"""Seven cards with no reaction: no card of Ben's could raise Marek's intercept."""


def test_a_decline_stays_final_and_neither_bot_nor_automatic_pass_retries_a_failed_block():
    f = fight_table(seed=1, library=NO_REACTION)
    t = f.t
    _failed_block(f)
    view = t.view(f.ben)
    # Marek carries nothing and Ben has no reaction that fits: another attempt would fail again.
    assert auto_pass(view) == {"do": "pass"}
    for seed in range(20):  # whatever its chance to block, the bot does not retry Marek
        assert VtesBot(seed=seed, block_chance=1.0).choose(view, legal_acts(view)) == {"do": "pass"}
    act(t, f.ben, "pass")  # Ben declines: "that decision is final"
    assert t.state.open_action.declined == (f.ben,)
    act(t, f.cy, "pass")
    act(t, f.dee, "pass")
    refused(t, f.ben, {"do": "block", "minion": f.marek}, "every blocker has declined")
    assert not card(t, f.marek).locked


# --- The Blood Hunt --------------------------------------------------------------------------------


def test_no_action_modifier_nor_reaction_in_a_blood_hunt_referendum():
    from engine.games.vtes.politics import open_blood_hunt
    from engine.games.vtes.work import Work

    f = fight_table(seed=1)
    t = f.t
    w = Work(t.state)
    open_blood_hunt(w, tuple(f.marek))
    t.state = w.freeze()
    r = t.state.open_referendum
    assert (r.step, r.impulse) == ("before", f.ana)
    words = "a blood hunt referendum is not an action, so action modifiers and reaction cards cannot be played"
    refused(t, f.ana, {"do": "play", "card": in_hand(t, f.ana, "Threats")}, words)
    assert auto_pass(t.view(f.ana)) == {"do": "pass"}
    act(t, f.ana, "pass")
    refused(t, f.ben, {"do": "play", "card": in_hand(t, f.ben, "Patrol")}, words)
    act(t, f.ben, "pass")
    assert t.state.open_referendum.impulse != f.ben


# --- Political Action ------------------------------------------------------------------------------


def test_a_political_action_needs_a_political_action_card():
    f = fight_table(seed=1)
    t = f.t
    political = {"do": "action", "kind": "political", "minion": f.lucia}
    refused(t, f.ana, political, 'only bleed and hunt "do not require the play of action cards"')
    raven = in_hand(t, f.ana, "Raven Spy")  # a retainer: an action card, not a political action card
    refused(t, f.ana, {**political, "card": raven}, "is not a political action card (Retainer)")
    kine = in_hand(t, f.ana, "Kine Resources Contested")
    act(t, f.ana, "action", kind="political", minion=f.lucia, card=kine)
    a = t.state.open_action
    assert (a.kind, a.card, card(t, kine).zone) == ("political", tuple(kine), "aside")


# --- Rescue a Vampire from Torpor ------------------------------------------------------------------


def test_a_rescue_cost_may_be_split_with_the_rescued_vampire():
    f = fight_table(seed=1, blood=(1, 1, 1, 1))
    t = f.t
    hers = next(c for c in t.state.cards if c.owner == f.ana and c.zone == "uncontrolled" and c.crypt)
    torpid = list(hers.pos)
    act(t, f.ana, "move", cards=[torpid], to="torpor")
    act(t, f.ana, "blood", card=torpid, delta=3, cause="effect")
    rescue = {"do": "action", "kind": "rescue", "minion": f.lucia, "target_card": torpid}
    # Lucia has 1 blood: alone she cannot pay the 2; the vampire in torpor pays from its own blood.
    refused(t, f.ana, rescue, "has 1 blood and this action costs 2")
    refused(t, f.ana, {**rescue, "cost_rescued": 4}, "has 3 blood and would pay 4 of its rescue: it cannot pay")
    refused(t, f.ana, {**rescue, "kind": "hunt", "cost_rescued": 1}, "only a rescue has it")
    act(t, f.ana, "action", kind="rescue", minion=f.lucia, target_card=torpid, cost_rescued=1)
    a = t.state.open_action
    assert (a.cost_blood, a.cost_rescued) == (1, 1)  # the default 2, split
    notes = []
    while t.state.open_action is not None:
        notes += act(t, t.state.open_action.impulse, "pass")
    assert card(t, torpid).zone == "ready" and card(t, torpid).counters == 2 and card(t, f.lucia).counters == 0
    assert any("pays 1 blood of the rescue's cost" in n.text for n in notes)


# --- 4. Influence Phase: the first turns' transfers ------------------------------------------------


def test_first_turn_transfers_follow_the_order_of_turns_after_an_oust_before_a_first_turn():
    """The second seat is ousted in the first turn, before its own first: the third seat plays the
    game's second turn, "the Methuselah who plays second gets 2 transfers"; the fourth takes the
    third turn and gets 3; then 4."""
    from engine.games.vtes.decks import bundled_decks
    from engine.games.vtes.simulate import vtes_table

    decks = bundled_decks()
    t = vtes_table([decks[s % len(decks)] for s in range(5)], {}, 0)
    order = t.state.seating
    budgets = []
    for turn in range(5):
        if turn == 0:
            by_hand(t, order[0], "pool", seat=order[1], delta=-t.state.players[order[1]].pool, cause="burn")
            assert t.state.players[order[1]].status == "ousted" and t.state.players[order[1]].turns == 0
        while t.state.phase != "influence":
            act(t, t.state.acting, "phase")
        budgets.append((t.state.acting, t.state.transfers))
        act(t, t.state.acting, "end_turn")
    assert budgets == [(order[0], 1), (order[2], 2), (order[3], 3), (order[4], 4), (order[0], 4)]


# --- 2. Master Phase, 5. Discard Phase -------------------------------------------------------------


def test_one_master_phase_action_and_one_discard_phase_action_unless_a_card_gives_more():
    from engine.games.vtes.decks import bundled_decks
    from engine.games.vtes.simulate import vtes_table
    from tests.support.vtes_sim import deck_of

    library = (("Dreams of the Sphinx", 3), ("Wider View", 1), ("Threats", 3))  # a master card needing no target
    t = vtes_table([deck_of(d, *library) for d in bundled_decks()[:2]], {"library_size": False}, 1)
    ana = t.state.seating[0]
    while t.state.phase != "master":
        act(t, ana, "phase")

    def hand(name: str) -> list[list[int]]:
        return [c.as_list() for c in t.view(ana).hand if c.name == name]

    def offered(do: str) -> list[list[int]]:
        return [a["card"] for a in legal_acts(t.view(ana)) if a["do"] == do]

    wider = hand("Wider View")[0]
    assert wider in offered("play") and hand("Dreams of the Sphinx")[0] in offered("play")
    act(t, ana, "play", card=wider, to="ready", no_replace=True)  # a trifle, put in play
    assert t.state.master_actions == 1
    tap = hand("Dreams of the Sphinx")[0]
    refused(t, ana, {"do": "play", "card": tap}, "you have used your master phase action")
    assert not set(map(tuple, offered("play"))) & set(map(tuple, hand("Dreams of the Sphinx")))
    act(t, ana, "play", card=tap, lift="once", by=wider, no_replace=True)  # the trifle's extra action
    assert t.state.master_actions == 2
    while t.state.phase != "discard":
        act(t, ana, "phase")
    first, second = hand("Threats")[:2]
    assert first in offered("discard")
    act(t, ana, "discard", card=first, no_replace=True)
    assert offered("discard") == []
    refused(t, ana, {"do": "discard", "card": second}, "you have used your discard phase action")
    act(t, ana, "discard", card=second, lift="once", by=wider, no_replace=True)
    assert t.state.discard_actions == 2
