"""The structure of a VTES minion action (shared/rules/vtes-actions.md 2–4, 5.1, P1–P4, P8, P9):
the page's worked examples 1 and 3 act by act, and every refusal of sections 2–4 with its sentence.

Seats clockwise Ana, Ben, Cy, Dee; each example starts in Ana's minion phase (prey Ben, predator
Dee) with Dee holding the Edge. Every seat's library is exactly seven chosen cards (table rule
``library_size=off``), so every opening hand holds them all: Threats (an action modifier, "+1
bleed (limited)"), Conditioning (another "+bleed" modifier), Carlton Van Wyk (an ally) and three
Patrol (a reaction, "+1 intercept").
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

import pytest

from engine.games.base import Act, IllegalMove, MalformedAct
from engine.games.vtes import VTES
from engine.games.vtes.state import CardState, Done
from engine.games.vtes.vocab import Outcome
from engine.sim import SimTable
from tests.support.vtes_sim import act, by_hand, copy_table, minion_phase_table, settle


@dataclass(frozen=True)
class Table:
    """The examples' table in Ana's minion phase: the seats, and one ready vampire each (Lucia
    with 4 blood, Ben's Marek, Cy's Nico and Dee's Sasha with 1), as ``[event, index]`` lists."""

    t: SimTable
    ana: int
    ben: int
    cy: int
    dee: int
    lucia: list[int]
    marek: list[int]
    nico: list[int]
    sasha: list[int]


@pytest.fixture(scope="module")
def minion_phase() -> Table:
    t = minion_phase_table(4, seed=1, blood=(4, 1, 1, 1))
    ana, ben, cy, dee = t.state.seating
    vampires = [next(c.as_list() for c in t.view(seat).controlled(seat)) for seat in (ana, ben, cy, dee)]
    t.state = dataclasses.replace(t.state, edge=dee)  # the examples start with Dee holding the Edge
    assert (t.state.acting, t.state.phase) == (ana, "minion")
    return Table(t, ana, ben, cy, dee, *vampires)


@pytest.fixture
def table(minion_phase: Table) -> Table:
    return dataclasses.replace(minion_phase, t=copy_table(minion_phase.t))


def card(t: SimTable, pos: list[int]) -> CardState:
    return next(c for c in t.state.cards if list(c.pos) == pos)


def in_hand(t: SimTable, seat: int, name: str, nth: int = 0) -> list[int]:
    """The position of ``seat``'s ``nth`` hand card called ``name``."""
    return [c.as_list() for c in t.view(seat).hand if c.name == name][nth]


def uncontrolled(t: SimTable, seat: int) -> list[list[int]]:
    return [list(c.pos) for c in t.state.cards if c.owner == seat and c.zone == "uncontrolled"]


def impulse(t: SimTable) -> int:
    a = t.state.open_action
    assert a is not None, "no action is open"
    return a.impulse


def window(t: SimTable) -> str:
    a = t.state.open_action
    assert a is not None, "no action is open"
    return a.window


def refused(t: SimTable, seat: int, act_: Act, words: str) -> IllegalMove:
    """``seat``'s ``act_`` is refused with a sentence holding ``words`` (literal text), as an
    illegal act, not a malformed one; the table is unchanged."""
    before, notes, moves = t.state, list(t.notes), t.moves
    with pytest.raises(IllegalMove, match=re.escape(words)) as err:
        t.play(seat, act_)
    assert not isinstance(err.value, MalformedAct)
    assert t.state is before and t.notes == notes and t.moves == moves
    return err.value


def lifted(card: list[int]) -> dict[str, object]:
    """Fields by which ``card`` sets aside its own requirement (P9): these tests play Threats and
    Patrol as any modifier and reaction, by vampires that lack Dominate and Flight (the refusal
    itself: test_vtes_card_timing)."""
    return {"lift": "requirement", "by": card}


def bleed(s: Table, **fields: object) -> Act:
    return {"do": "action", "kind": "bleed", "minion": s.lucia, **fields}


def passes(t: SimTable, *seats: int) -> None:
    """Each of ``seats`` passes in turn, each holding the impulse when it does."""
    for seat in seats:
        assert impulse(t) == seat
        act(t, seat, "pass")


# --- worked examples -------------------------------------------------------------------------------


def test_worked_example_1_a_bleed_that_is_not_blocked(table):
    s, t = table, table.t
    ana, ben, cy, dee = s.ana, s.ben, s.cy, s.dee
    assert t.state.edge == dee and t.state.prey(ana) == ben and t.state.predator(ana) == dee
    # 1. Ana announces: Lucia bleeds Ben; basic bleed, stealth 0, bleed 1.
    act(t, ana, "action", kind="bleed", minion=s.lucia, target=ben, stealth=0, amount=1)
    a = t.state.open_action
    assert (a.actor, a.minion, a.kind, a.targets, a.stealth, a.amount) == (ana, tuple(s.lucia), "bleed", (ben,), 0, 1)
    assert card(t, s.lucia).locked and a.directed
    assert t.view(ana).blockers() == (ben,) and t.view(ana).impulse_order() == (ana, ben, cy, dee)
    assert (window(t), impulse(t)) == ("A", ana)
    assert t.pending().awaited == (ana,)
    # 2. Pass ×4: Ben's pass is his final decline; all passed → C, impulse to Ana.
    for seat, then in ((ana, ben), (ben, cy), (cy, dee)):
        act(t, seat, "pass")
        assert (window(t), impulse(t)) == ("A", then)
    assert t.state.open_action.declined == (ben,)
    act(t, dee, "pass")
    assert (window(t), impulse(t)) == ("C", ana)
    # 3. Ana plays an action modifier "+1 bleed", marked "+bleed": bleed 2, impulse back to Ana.
    threats = in_hand(t, ana, "Threats")
    act(t, ana, "play", card=threats, bleed_mod=True, amount=1, **lifted(threats))
    a = t.state.open_action
    assert (a.amount, a.bleed_mods, a.window, a.impulse) == (2, 1, "C", ana)
    assert card(t, threats).zone == "ash"
    # A second "+bleed" modifier is refused (4.6).
    second = {"do": "play", "card": in_hand(t, ana, "Conditioning"), "bleed_mod": True, "amount": 2}
    refused(t, ana, second, "another action modifier already increases this bleed: a second is refused (4.6)")
    # 4. Pass ×4: success; Ben's pool 30 → 28, the Edge moves Dee → Ana.
    passes(t, ana, ben, cy)
    assert t.state.players[ben].pool == 30
    passes(t, dee)
    assert t.state.open_action is None
    assert t.state.players[ben].pool == 28 and t.state.edge == ana
    assert Done(tuple(s.lucia), "bleed", outcome=Outcome.SUCCESSFUL) in t.state.done
    # Lucia may not bleed again this turn, even if she unlocks (2.1).
    act(t, ana, "unlock", cards=[s.lucia])
    refused(t, ana, bleed(s), "has already bled this turn")


def test_worked_example_3_an_undirected_action_blocked_by_the_predator(table):
    s, t = table, table.t
    ana, ben, cy, dee = s.ana, s.ben, s.cy, s.dee
    act(t, ana, "blood", card=s.lucia, delta=-1, cause="effect")  # Lucia has 3 blood
    # 1. Ana announces: recruit an ally, stealth 1, cost 1 blood.
    ally = in_hand(t, ana, "Carlton Van Wyk")
    act(t, ana, "action", kind="recruit", minion=s.lucia, card=ally, stealth=1, cost_blood=1)
    a = t.state.open_action
    assert (a.kind, a.card, a.targets, a.stealth, a.cost_blood) == ("recruit", tuple(ally), (), 1, 1)
    assert card(t, ally).zone == "aside" and card(t, s.lucia).locked
    assert t.view(cy).blockers() == (ben, dee) and t.view(cy).impulse_order() == (ana, ben, dee, cy)
    assert (window(t), impulse(t)) == ("A", ana)
    # 2. Ana and Ben pass; Dee: block attempt with Sasha, intercept 0.
    passes(t, ana, ben)
    assert t.state.open_action.declined == (ben,) and impulse(t) == dee
    refused(t, cy, {"do": "block", "minion": s.nico}, "only the prey and the predator")  # Cy may never block it
    act(t, dee, "block", minion=s.sasha, intercept=0)
    a = t.state.open_action
    assert (a.window, a.blocker, a.intercept, a.impulse) == ("B", tuple(s.sasha), 0, ana)
    # 3. Ana passes (raising stealth is refused: 1 > 0, not needed); Ben passes.
    raise_stealth = {"do": "adjust", "stealth": 1, "cause": "a card"}
    refused(t, ana, raise_stealth, "stealth is added only when needed")
    passes(t, ana, ben)
    assert impulse(t) == dee
    # 4. Sasha plays a reaction "+1 intercept" (allowed: 1 > 0): intercept 1, impulse back to Ana.
    patrol = in_hand(t, dee, "Patrol")
    act(t, dee, "play", card=patrol, minion=s.sasha, intercept=1, **lifted(patrol))
    a = t.state.open_action
    assert (a.window, a.intercept, a.impulse) == ("B", 1, ana)
    assert not card(t, s.sasha).locked  # a reaction does not lock
    VTES.check(t.state, ana, raise_stealth, {})  # Ana could now add stealth, as 1 ≥ 1
    # 5. Pass ×4: blocked.
    passes(t, ana, ben, dee)
    notes = act(t, cy, "pass")
    assert t.state.open_action is None
    assert card(t, ally).zone == "ash" and card(t, ally).owner == ana  # the ally card to Ana's ash heap
    assert card(t, s.lucia).counters == 3  # 1 blood not paid
    assert card(t, s.sasha).locked and t.state.blocks == 1
    combat = t.state.open_combat  # combat (P5)
    assert combat is not None and (combat.acting, combat.opposing) == (tuple(s.lucia), tuple(s.sasha))
    assert any("combat" in n.text for n in notes)
    assert t.state.edge == dee and t.state.players[ben].pool == 30


# --- P2: announcing ---------------------------------------------------------------------------------


def test_an_action_outside_the_acting_methuselahs_own_minion_phase_is_refused(table):
    s, t = table, table.t
    refused(
        t, s.ben, {"do": "action", "kind": "bleed", "minion": s.marek}, f"only the acting Methuselah ({{s{s.ana}}})"
    )
    act(t, s.ana, "phase")
    refused(t, s.ana, bleed(s), "actions are announced in your minion phase, and this is your influence phase")


def test_an_action_while_another_is_open_is_refused(table):
    s, t = table, table.t
    act(t, s.ana, "action", **{k: v for k, v in bleed(s).items() if k != "do"})
    refused(t, s.ana, {"do": "action", "kind": "hunt", "minion": s.lucia}, "one action at a time")


def test_a_locked_minion_or_a_minion_not_yours_cannot_act(table):
    s, t = table, table.t
    refused(t, s.ana, {"do": "action", "kind": "bleed", "minion": s.marek}, "is not a minion you control")
    act(t, s.ana, "lock", cards=[s.lucia])
    refused(
        t, s.ana, bleed(s), "is locked: a locked minion cannot act (a card that allows it may lift the rule: locked)"
    )


def test_a_vampire_in_torpor_may_only_leave_torpor(table):
    s, t = table, table.t
    refused(t, s.ana, {"do": "action", "kind": "leave_torpor", "minion": s.lucia}, "is not in torpor")
    act(t, s.ana, "move", cards=[s.lucia], to="torpor")
    refused(t, s.ana, bleed(s), "is in torpor: a vampire in torpor may only leave torpor")
    refused(t, s.ana, {"do": "action", "kind": "hunt", "minion": s.lucia}, "may only leave torpor")
    act(t, s.ana, "action", kind="leave_torpor", minion=s.lucia)
    assert t.state.open_action.cost_blood == 2 and card(t, s.lucia).locked


def test_a_bleed_at_oneself_or_at_a_non_prey_is_refused_unless_a_card_lifts_the_rule(table):
    s, t = table, table.t
    refused(t, s.ana, bleed(s, target=s.ana), "a minion cannot bleed its own controller")
    refused(
        t,
        s.ana,
        bleed(s, target=s.cy),
        f"may bleed only your prey, {{s{s.ben}}} (a card that allows it may lift the rule: target)",
    )
    # A lift naming a card that lifts nothing is refused too.
    refused(t, s.ana, bleed(s, lift="target", by=s.lucia), "this act breaks no rule of kind 'target'")
    # P9: the same bleed naming the card that allows it goes through, for that act, shown to all.
    notes = act(
        t, s.ana, "action", **{k: v for k, v in bleed(s, target=s.cy, lift="target", by=s.lucia).items() if k != "do"}
    )
    assert any("sets a rule aside with" in n.text for n in notes)
    a = t.state.open_action
    assert a.targets == (s.cy,) and t.view(s.cy).blockers() == (s.cy,)


def test_a_second_bleed_by_one_minion_in_a_turn_is_refused(table):
    s, t = table, table.t
    act(t, s.ana, "action", kind="bleed", minion=s.lucia)
    act(t, s.ana, "action_end", by=s.lucia)  # a card ends it: no cost, no effect
    assert t.state.open_action is None and t.state.players[s.ben].pool == 30
    act(t, s.ana, "unlock", cards=[s.lucia])
    refused(
        t, s.ana, bleed(s), 'even if they unlock" (rulebook, "Bleed") (a card that allows it may lift the rule: once)'
    )
    act(t, s.ana, "action", kind="hunt", minion=s.lucia)  # another kind of action is fine


def test_a_hunt_due_refuses_every_other_action_and_the_end_of_the_minion_phase(table):
    s, t = table, table.t
    hungry = uncontrolled(t, s.ana)[0]
    act(t, s.ana, "move", cards=[hungry], to="ready")  # a ready unlocked vampire with no blood
    refused(t, s.ana, bleed(s), "has no blood and must hunt first (2.2)")
    refused(t, s.ana, {"do": "action", "kind": "hunt", "minion": s.lucia}, "must hunt first")
    refused(t, s.ana, {"do": "phase"}, "has no blood and must hunt before the minion phase ends (2.2)")
    refused(t, s.ana, {"do": "end_turn"}, "must hunt before the minion phase ends")
    act(t, s.ana, "action", kind="hunt", minion=hungry)
    refused(t, s.ana, {"do": "phase"}, "is still open: it resolves first")
    act(t, s.ana, "pass")
    while t.state.open_action is not None:
        act(t, impulse(t), "pass")
    assert card(t, hungry).counters == 1
    act(t, s.ana, "phase")
    assert t.state.phase == "influence"


def test_allies_never_hunt_rescue_diablerise_leave_torpor_or_take_political_actions(table):
    s, t = table, table.t
    ally = in_hand(t, s.ana, "Carlton Van Wyk")
    act(t, s.ana, "move", cards=[ally], to="ready")  # put in play by hand (a card's effect)
    for kind in ("hunt", "political"):
        refused(t, s.ana, {"do": "action", "kind": kind, "minion": ally}, "is an ally: allies never hunt")
    for kind in ("rescue", "diablerise"):
        refused(t, s.ana, {"do": "action", "kind": kind, "minion": ally, "target_card": s.marek}, "allies never hunt")
    act(t, s.ana, "action", kind="bleed", minion=ally)  # an ally may bleed


def test_an_ally_recruited_this_turn_does_not_act(table):
    s, t = table, table.t
    ally = in_hand(t, s.ana, "Carlton Van Wyk")
    act(t, s.ana, "action", kind="recruit", minion=s.lucia, card=ally)
    while t.state.open_action is not None:
        act(t, impulse(t), "pass")
    assert card(t, ally).zone == "ready" and tuple(ally) in t.state.recruited
    refused(t, s.ana, {"do": "action", "kind": "bleed", "minion": ally}, "was recruited this turn")


def test_rescue_or_diablerie_of_a_vampire_not_in_torpor_is_refused(table):
    s, t = table, table.t
    for kind in ("rescue", "diablerise"):
        refused(
            t,
            s.ana,
            {"do": "action", "kind": kind, "minion": s.lucia, "target_card": s.marek},
            "is not in torpor: only a vampire in torpor is rescued or diablerised",
        )
    act(t, s.ben, "move", cards=[s.marek], to="torpor")
    act(t, s.ana, "action", kind="rescue", minion=s.lucia, target_card=s.marek)
    a = t.state.open_action
    assert a.targets == (s.ben,) and a.stealth == 0 and a.cost_blood == 2  # directed: Ben controls Marek


def test_a_cost_not_payable_now_is_refused(table):
    s, t = table, table.t
    refused(t, s.ana, bleed(s, cost_blood=5), "has 4 blood and this action costs 5: it cannot pay")
    act(t, s.ana, "pool", delta=-25, cause="a card")
    refused(t, s.ana, bleed(s, cost_pool=6), "this action costs 6 pool and you have 5")
    refused(t, s.ana, {"do": "action", "kind": "hunt", "minion": s.nico}, "is not a minion you control")


# --- P3: blocks, stealth and intercept ---------------------------------------------------------------


def open_bleed(s: Table) -> None:
    act(s.t, s.ana, "action", kind="bleed", minion=s.lucia)


def open_hunt(s: Table) -> None:
    act(s.t, s.ana, "action", kind="hunt", minion=s.lucia)


def test_the_acting_methuselah_cannot_block_its_own_action(table):
    open_bleed(table)
    refused(table.t, table.ana, {"do": "block", "minion": table.lucia}, "you cannot block your own action")


def test_only_the_target_of_a_directed_action_may_block(table):
    s, t = table, table.t
    open_bleed(s)
    passes(t, s.ana, s.ben)
    refused(
        t,
        s.cy,
        {"do": "block", "minion": s.nico},
        f"only the targeted Methuselah ({{s{s.ben}}}) may block this action (4.2)",
    )


def test_only_the_prey_and_the_predator_may_block_an_undirected_action(table):
    s, t = table, table.t
    open_hunt(s)
    passes(t, s.ana, s.ben, s.dee)
    assert impulse(t) == s.cy and window(t) == "A"
    refused(t, s.cy, {"do": "block", "minion": s.nico}, "only the prey and the predator")


def test_a_decline_is_final(table):
    s, t = table, table.t
    open_hunt(s)
    passes(t, s.ana, s.ben)  # Ben declines
    patrol = in_hand(t, s.dee, "Patrol")
    act(t, s.dee, "play", card=patrol, minion=s.sasha, **lifted(patrol))  # a play: the impulse returns to Ana
    passes(t, s.ana)
    assert (window(t), impulse(t)) == ("A", s.ben)
    refused(t, s.ben, {"do": "block", "minion": s.marek}, "you declined to block this action: that is final")


def test_a_locked_minion_cannot_block(table):
    s, t = table, table.t
    act(t, s.ben, "lock", cards=[s.marek])
    open_bleed(s)
    # Ben's only minion is locked: he hears that he has none to block with, before the impulse
    # reaches him as after (not that Ana holds the impulse).
    never = 'you have no ready, unlocked minion to block with: only a ready, unlocked minion may attempt to block (rulebook, "Who May Attempt to Block")'
    refused(t, s.ben, {"do": "block", "minion": s.marek}, never)
    passes(t, s.ana)
    refused(t, s.ben, {"do": "block", "minion": s.marek}, never)
    refused(t, s.ben, {"do": "block", "minion": s.sasha}, never)
    # With a card that lets a locked minion block named on the act (P9), the lock is lifted.
    act(t, s.ben, "block", minion=s.marek, lift="locked", by=s.marek)
    assert window(t) == "B"


def test_no_second_block_attempt_during_an_attempt_and_none_once_all_declined(table):
    s, t = table, table.t
    open_hunt(s)
    passes(t, s.ana)
    act(t, s.ben, "block", minion=s.marek)
    passes(t, s.ana, s.ben)
    refused(t, s.dee, {"do": "block", "minion": s.sasha}, "a block attempt is under way")
    passes(t, s.dee, s.cy)  # intercept 0 < stealth 1: the attempt fails, back to A
    assert (window(t), impulse(t)) == ("A", s.ana) and t.state.open_action.declined == ()
    passes(t, s.ana, s.ben, s.dee, s.cy)
    assert window(t) == "C"
    passes(t, s.ana, s.ben)
    refused(t, s.dee, {"do": "block", "minion": s.sasha}, "every blocker has declined")


def test_stealth_is_added_only_during_an_attempt_that_needs_it(table):
    s, t = table, table.t
    open_bleed(s)
    stealth = {"do": "adjust", "stealth": 1, "cause": "a card"}
    refused(t, s.ana, stealth, "stealth is added only when needed")  # window A
    passes(t, s.ana)
    act(t, s.ben, "block", minion=s.marek)
    refused(t, s.ben, stealth, "holds the impulse")
    by_hand(t, s.ana, "adjust", stealth=1, cause="a card")  # B (Ben accepts), intercept 0 ≥ stealth 0: needed
    assert t.state.open_action.stealth == 1
    refused(t, s.ana, stealth, "stealth is added only when needed")  # no longer needed
    passes(t, s.ana)
    refused(t, s.ben, {"do": "adjust", "stealth": 1, "cause": "a card"}, "only the acting Methuselah adds stealth")


def test_intercept_is_added_only_by_the_blocker_while_stealth_is_above_it(table):
    s, t = table, table.t
    open_bleed(s)
    passes(t, s.ana)
    patrol = in_hand(t, s.ben, "Patrol")
    refused(t, s.ben, {"do": "play", "card": patrol, "intercept": 1}, "there is no block attempt whose intercept")
    act(t, s.ben, "block", minion=s.marek)
    passes(t, s.ana)
    refused(t, s.ben, {"do": "play", "card": patrol, "intercept": 1}, "intercept is added only when needed")
    refused(t, s.ben, {"do": "adjust", "intercept": 1, "cause": "a card"}, "intercept is added only when needed")


def test_the_target_is_fixed_during_an_attempt_and_a_new_target_reopens_blocking(table):
    s, t = table, table.t
    open_bleed(s)
    passes(t, s.ana)
    act(t, s.ben, "block", minion=s.marek)
    refused(
        t,
        s.ana,
        {"do": "adjust", "target": s.cy, "cause": "a card"},
        "the target is fixed during a block attempt (4.4)",
    )
    passes(t, s.ana, s.ben, s.cy, s.dee)  # 0 ≥ 0: blocked
    assert t.state.open_action is None and t.state.open_combat is not None
    settle(t)
    # A new action: every block declined (C), then redirected: blocking reopens for the new target.
    act(t, s.ana, "unlock", cards=[s.lucia])
    act(t, s.ana, "action", kind="hunt", minion=s.lucia)
    refused(t, s.ana, {"do": "adjust", "target": s.cy, "cause": "a card"}, "an undirected action has no target")


def test_a_redirected_bleed_clears_the_declines(table):
    s, t = table, table.t
    open_bleed(s)
    passes(t, s.ana, s.ben, s.cy, s.dee)
    assert window(t) == "C"
    by_hand(t, s.ana, "adjust", target=s.cy, cause="a card")
    a = t.state.open_action
    assert (a.window, a.targets, a.declined, a.impulse) == ("A", (s.cy,), (), s.ana)
    assert t.view(s.ana).impulse_order() == (s.ana, s.cy, s.ben, s.dee)


def test_a_pass_or_a_play_out_of_the_impulse_is_refused(table):
    s, t = table, table.t
    open_bleed(s)
    refused(t, s.ben, {"do": "pass"}, f"{{s{s.ana}}} holds the impulse: you may pass when it reaches you (5.1)")
    patrol = in_hand(t, s.dee, "Patrol")
    refused(t, s.dee, {"do": "play", "card": patrol}, "holds the impulse: you may play a card when it reaches you")
    refused(t, s.ben, {"do": "block", "minion": s.marek}, "holds the impulse: you may block")
    refused(t, s.ben, {"do": "adjust", "amount": -1, "cause": "a card"}, "holds the impulse: you may change the action")


def test_there_is_no_impulse_without_an_action(table):
    s, t = table, table.t
    refused(t, s.ana, {"do": "pass"}, "there is no open action")
    refused(t, s.ben, {"do": "block", "minion": s.marek}, "there is no open action")
    refused(t, s.ana, {"do": "adjust", "stealth": 1, "cause": "a card"}, "there is no open action")
    refused(t, s.ana, {"do": "action_end", "by": s.lucia}, "there is no open action")


def test_action_cards_modifiers_and_reactions_outside_an_action_are_refused(table):
    s, t = table, table.t
    refused(t, s.ana, {"do": "play", "card": in_hand(t, s.ana, "Threats")}, "Threats is played during an action")
    refused(t, s.ana, {"do": "play", "card": in_hand(t, s.ana, "Carlton Van Wyk")}, "is an action card: announce it")
    refused(t, s.ben, {"do": "play", "card": in_hand(t, s.ben, "Patrol")}, "a reaction: it is played during another")
    refused(t, s.ana, {"do": "play", "card": in_hand(t, s.ana, "Threats"), "amount": 1}, "there is no open action")


def test_modifiers_are_the_actors_and_reactions_the_others_during_an_action(table):
    s, t = table, table.t
    open_bleed(s)
    refused(t, s.ana, {"do": "play", "card": in_hand(t, s.ana, "Patrol")}, "a reaction: it is played during another")
    refused(t, s.ana, {"do": "play", "card": in_hand(t, s.ana, "Carlton Van Wyk")}, "cannot be played during another")
    passes(t, s.ana)
    refused(t, s.ben, {"do": "play", "card": in_hand(t, s.ben, "Threats")}, "the acting Methuselah plays it")
    first = in_hand(t, s.ben, "Patrol")
    act(t, s.ben, "play", card=first, **lifted(first))  # Marek, Ben's only ready unlocked minion
    passes(t, s.ana)
    refused(
        t, s.ben, {"do": "play", "card": in_hand(t, s.ben, "Patrol")}, "has already played Patrol in this action (2.1)"
    )
    # P9: the card that allows it lifts the rule, for that act.
    patrol = in_hand(t, s.ben, "Patrol")
    refused(  # one rule lifted per act: past 2.1, Patrol still requires Flight of Marek
        t, s.ben, {"do": "play", "card": patrol, "lift": "once", "by": patrol}, "Patrol requires FLI, which Alexander"
    )


def test_a_plus_bleed_mark_needs_a_bleed(table):
    s, t = table, table.t
    open_hunt(s)
    threats = in_hand(t, s.ana, "Threats")
    play = {"do": "play", "card": threats, "bleed_mod": True}
    refused(t, s.ana, play, 'Threats says "Only usable during a bleed action", and this action does not meet it')
    # The card's own condition lifted (P9), the "+bleed" mark still needs a bleed.
    refused(t, s.ana, play | {"lift": "timing", "by": threats}, "this action is not a bleed")


# --- by hand, in the open: claims and disputes --------------------------------------------------------


def test_a_change_by_hand_to_another_methuselahs_things_names_its_cause_and_may_be_disputed(table):
    s, t = table, table.t
    refused(t, s.ana, {"do": "lock", "cards": [s.marek]}, "names its cause: a card you control (by) or a rule (cause)")
    refused(t, s.ana, {"do": "burn", "cards": [s.marek]}, "names its cause")
    refused(t, s.ana, {"do": "move", "cards": [s.marek], "to": "torpor"}, "names its cause")
    with pytest.raises(MalformedAct, match="needs a cause"):
        t.play(s.ana, {"do": "pool", "seat": s.ben, "delta": -1})
    act(t, s.ana, "lock", cards=[s.lucia])  # one's own: no claim
    assert t.state.claims == ()
    act(t, s.ana, "pool", seat=s.ben, delta=-1, cause="a card")
    (claim,) = t.state.claims
    number = t.state.acts
    assert (claim.act, claim.author, claim.seats, claim.cause) == (number, s.ana, (s.ben,), "a card")
    refused(
        t,
        s.cy,
        {"do": "dispute", "act": number},
        f"only the Methuselah whose things act {number} changed may dispute it",
    )
    refused(t, s.ana, {"do": "dispute", "act": number}, "may dispute it")
    refused(t, s.ben, {"do": "dispute", "act": number - 1}, "there is nothing to dispute")
    act(t, s.ben, "dispute", act=number)
    assert t.state.claims[0].disputed == (s.ben,)
    assert t.state.players[s.ben].pool == 30  # a disputed claim takes no effect
    refused(t, s.ben, {"do": "dispute", "act": number}, f"you have already disputed act {number}")
