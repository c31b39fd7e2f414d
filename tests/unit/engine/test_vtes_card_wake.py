"""A reaction that wakes a locked minion (rulebook: it "ignore[s] the requirement to be unlocked for
playing reaction cards and attempting to block until the end of the action"): On the Qui Vive and
Eyes of Argus at superior are offered to a Methuselah who may block with only a locked minion, the
play marks that minion woken, it blocks, it may play another reaction, and the log replays to the
same state; refusals name what is missing. A reaction whose vampire "unlocks and attempts to block"
(Sense the Savage Way at superior) unlocks it, and it blocks.

Every crypt is twelve Arika (aus cel DOM FOR OBF PRE): Auspex at basic only, so Eyes of Argus is
offered at basic (+2 intercept) to an unlocked vampire, never its superior wake."""

from __future__ import annotations

import re

import pytest

from engine.games.base import IllegalMove
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_fight import titled_table
from tests.support.vtes_sim import act, copy_table, one_vampire_table
from tests.support.vtes_sim import card_plays as plays
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = (("On the Qui Vive", 2), ("Telepathic Misdirection", 2), ("Eyes of Argus", 2), ("Lost in Crowds", 1))


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Arika", LIBRARY, seed=5)


def bleed_on_a_locked_prey(t: SimTable) -> tuple[int, int]:
    """Ben's vampire is locked; Ana's bleeds Ben and passes the impulse to Ben (window A)."""
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    act(t, ben, "lock", cards=[vampire(t, ben)], cause="effect")
    act(t, ana, "action", kind="bleed", minion=vampire(t, ana), target=ben)
    act(t, ana, "pass")
    a = t.state.open_action
    assert a is not None and a.impulse == ben
    return ana, ben


def test_a_locked_prey_is_offered_on_the_qui_vive_and_blocks_after_it(start: SimTable) -> None:
    t = copy_table(start)
    ana, ben = bleed_on_a_locked_prey(t)
    view = t.view(ben)
    assert not [a for a in VTES.legal_acts(view) if a["do"] == "block"]  # locked: no block yet
    assert plays(t, ben, "Eyes of Argus") == []  # its wake is superior Auspex, which Arika lacks
    offered = plays(t, ben, "On the Qui Vive")
    assert offered and all(a["wake"] is True and a["minion"] == vampire(t, ben) for a in offered)
    done = [(ben, offered[0])]
    notes = t.play(ben, offered[0])
    t.run_ops()
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert any("On the Qui Vive" in s and "wakes" in s for s in said), said
    a = t.state.open_action
    assert a is not None and tuple(vampire(t, ben)) in a.woken
    while (a := t.state.open_action) is not None and a.impulse != ben:  # the impulse returns to Ana (P1)
        done.append((a.impulse, {"do": "pass"}))
        t.play(a.impulse, {"do": "pass"})
    blocks = [x for x in VTES.legal_acts(t.view(ben)) if x["do"] == "block"]
    assert [b["minion"] for b in blocks] == [vampire(t, ben)]
    t.play(ben, blocks[0])
    done.append((ben, blocks[0]))
    t.run_ops()
    a = t.state.open_action
    assert a is not None and a.window == "B" and a.blocker == tuple(vampire(t, ben))
    # the woken vampire may play a reaction as though unlocked: Ana adds stealth, then Ben intercept
    stealth = plays(t, ana, "Lost in Crowds")[0]
    t.play(ana, stealth)
    done.append((ana, stealth))
    while (a := t.state.open_action) is not None and a.impulse != ben:
        done.append((a.impulse, {"do": "pass"}))
        t.play(a.impulse, {"do": "pass"})
    intercept = plays(t, ben, "Telepathic Misdirection")
    assert intercept and intercept[0]["minion"] == vampire(t, ben)
    again = copy_table(start)
    bleed_on_a_locked_prey(again)
    for seat, x in done:
        again.play(seat, x)
    assert again.state == t.state


def test_no_wake_where_it_cannot_matter(start: SimTable) -> None:
    t = copy_table(start)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    act(t, ana, "action", kind="bleed", minion=vampire(t, ana), target=ben)
    act(t, ana, "pass")
    assert plays(t, ben, "On the Qui Vive") == []  # Ben's vampire is unlocked: nothing to wake
    assert [a["intercept"] for a in plays(t, ben, "Eyes of Argus")] == []  # no block attempt yet (4.3)


def test_a_wake_is_refused_for_an_unlocked_minion_and_outside_an_action(start: SimTable) -> None:
    t = copy_table(start)
    ana, ben = bleed_on_a_locked_prey(t)
    x = plays(t, ben, "On the Qui Vive")[0]
    act(t, ben, "unlock", cards=[vampire(t, ben)], cause="effect")
    with pytest.raises(IllegalMove, match="needs a ready locked minion|is not a locked minion"):
        t.play(ben, x)
    t2 = copy_table(start)
    ana2 = t2.state.acting
    card = next(c.as_list() for c in t2.view(ana2).hand if c.name == "On the Qui Vive")
    with pytest.raises(IllegalMove, match="no open action"):
        t2.play(ana2, {"do": "play", "card": card, "wake": True, "minion": vampire(t2, ana2)})


def test_sense_the_savage_way_unlocks_a_locked_vampire_to_block() -> None:
    """Gabrielle di Righetti (ANI at superior, capacity 10) plays Sense the Savage Way at
    superior ("This vampire unlocks and attempts to block") while locked, and blocks."""
    start = one_vampire_table("Gabrielle di Righetti", (("Sense the Savage Way", 2), ("Lost in Crowds", 2)), seed=5)
    t = copy_table(start)
    ana, ben = bleed_on_a_locked_prey(t)
    offered = plays(t, ben, "Sense the Savage Way")
    assert [(a.get("unlock"), a["minion"]) for a in offered] == [(True, vampire(t, ben))]
    notes = t.play(ben, offered[0])
    assert any("Sense the Savage Way: " in n.text and "unlocks" in n.text for n in notes)
    assert not next(c.locked for c in t.view(ben).cards if c.as_list() == vampire(t, ben))
    while (a := t.state.open_action) is not None and a.impulse != ben:
        t.play(a.impulse, {"do": "pass"})
    assert [x["minion"] for x in VTES.legal_acts(t.view(ben)) if x["do"] == "block"] == [vampire(t, ben)]


def _to_impulse(t: SimTable, seat: int) -> None:
    """Every Methuselah passes until ``seat`` holds the impulse of the open action."""
    while (a := t.state.open_action) is not None and a.impulse != seat:
        act(t, a.impulse, "pass")


def test_on_the_qui_vive_is_played_once_between_its_minions_unlock_phases() -> None:
    """ "A minion can play only one On the Qui Vive between their unlock phases": Dee's locked
    vampire wakes with one against Ana's hunt; against her second hunt the other copy is neither
    offered nor accepted, in the card's words; the limit lasts through Ben's and Cy's turns and
    ends in Dee's unlock phase."""
    t = one_vampire_table("Arika", (("On the Qui Vive", 2), ("Lost in Crowds", 5)), seed=5)
    ana = t.state.acting
    dee = t.view(ana).players[ana].predator
    act(t, dee, "lock", cards=[vampire(t, dee)], cause="effect")
    act(t, ana, "action", kind="hunt", minion=vampire(t, ana))
    _to_impulse(t, dee)
    first = plays(t, dee, "On the Qui Vive")
    assert first and first[0]["wake"] is True
    t.play(dee, first[0])
    while t.state.open_action is not None:
        act(t, t.state.open_action.impulse, "pass")
    act(t, ana, "unlock", cards=[vampire(t, ana)], cause="effect")
    act(t, ana, "action", kind="hunt", minion=vampire(t, ana))
    _to_impulse(t, dee)
    assert plays(t, dee, "On the Qui Vive") == []
    second = next(c.as_list() for c in t.view(dee).hand if c.name == "On the Qui Vive")
    words = '"A minion can play only one On the Qui Vive between their unlock phases": Arika (G2) has played one'
    with pytest.raises(IllegalMove, match=re.escape(words)):
        t.play(dee, {"do": "play", "card": second, "minion": vampire(t, dee), "wake": True})
    while t.state.open_action is not None:
        act(t, t.state.open_action.impulse, "pass")
    for _ in range(2):  # Ben's turn, Cy's turn: Dee's minion has not unlocked
        act(t, t.state.acting, "end_turn")
        assert len(t.state.limited) == 1 and t.state.acting != dee
    act(t, t.state.acting, "end_turn")
    assert t.state.acting == dee and t.state.limited == ()
    assert not next(c.locked for c in t.state.cards if list(c.pos) == vampire(t, dee))  # a vampire unlocks


def test_an_ally_that_plays_on_the_qui_vive_does_not_unlock_in_its_next_unlock_phase() -> None:
    """ "If this minion is an ally, they do not unlock as normal during their next unlock phase":
    Dee's locked Carlton Van Wyk wakes with On the Qui Vive against Ana's hunt; in Dee's next
    unlock phase Carlton stays locked, the narration naming the card; a vampire would unlock."""
    t = one_vampire_table("Arika", (("On the Qui Vive", 2), ("Carlton Van Wyk", 1), ("Lost in Crowds", 4)), seed=5)
    ana = t.state.acting
    dee = t.view(ana).players[ana].predator
    carlton = next(c.as_list() for c in t.view(dee).hand if c.name == "Carlton Van Wyk")
    act(t, dee, "move", cards=[carlton], to="ready")
    act(t, dee, "lock", cards=[carlton], cause="effect")
    act(t, ana, "action", kind="hunt", minion=vampire(t, ana))
    _to_impulse(t, dee)
    offered = plays(t, dee, "On the Qui Vive")
    assert [a["minion"] for a in offered] == [carlton]  # the locked one
    assert offered and offered[0]["wake"] is True
    t.play(dee, offered[0])
    while t.state.open_action is not None:
        act(t, t.state.open_action.impulse, "pass")
    notes: list[str] = []
    while t.state.acting != dee:
        notes += [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in act(t, t.state.acting, "end_turn")]
    assert next(c.locked for c in t.state.cards if list(c.pos) == carlton)
    assert "Carlton Van Wyk does not unlock as normal (On the Qui Vive)" in notes


def _resolve(t: SimTable) -> None:
    """Every Methuselah passes until the open action resolves (no block)."""
    while (a := t.state.open_action) is not None:
        t.play(a.impulse, {"do": "pass"})
        t.run_ops()


def _blood(t: SimTable, seat: int) -> int:
    return _blood_of(t, seat, vampire(t, seat))


def test_forced_awakening_wakes_and_its_vampire_burns_a_blood_when_it_does_not_block() -> None:
    start = one_vampire_table("Arika", (("Forced Awakening", 2), ("Lost in Crowds", 5)), seed=5)
    t = copy_table(start)
    ana, ben = bleed_on_a_locked_prey(t)
    offered = plays(t, ben, "Forced Awakening")
    assert [(a["wake"], a["wake_cost"], a["minion"]) for a in offered] == [(True, 1, vampire(t, ben))]
    before = _blood(t, ben)
    notes = t.play(ben, offered[0])
    t.run_ops()
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert any("Forced Awakening" in s and "unless it blocks this action, it burns 1 blood" in s for s in said), said
    a = t.state.open_action
    assert a is not None and a.wake_costs == ((tuple(vampire(t, ben)), 1),)
    _resolve(t)  # Ben declines to block: the bleed succeeds
    assert _blood(t, ben) == before - 1


def test_forced_awakening_costs_nothing_when_its_vampire_blocks() -> None:
    t = one_vampire_table("Arika", (("Forced Awakening", 2), ("Lost in Crowds", 5)), seed=5)
    ana, ben = bleed_on_a_locked_prey(t)
    act(t, ben, "play", **{k: v for k, v in plays(t, ben, "Forced Awakening")[0].items() if k != "do"})
    before = _blood(t, ben)
    while (a := t.state.open_action) is not None and a.impulse != ben:
        act(t, a.impulse, "pass")
    act(t, ben, "block", minion=vampire(t, ben))
    while (a := t.state.open_action) is not None and a.window == "B":
        act(t, a.impulse, "pass")
    assert t.state.open_combat is not None and _blood(t, ben) == before  # blocked: combat, no blood burned


def test_second_tradition_domain_unlocks_a_locked_justicar_for_a_blood_and_blocks_with_2_intercept() -> None:
    f = titled_table(library=(("Second Tradition: Domain", 4), ("Lost in Crowds", 3)))
    t = f.t
    act(t, f.ben, "lock", cards=[f.marek], cause="effect")
    act(t, f.ana, "action", kind="bleed", minion=f.lucia, target=f.ben)
    act(t, f.ana, "pass")
    offered = [a for a in plays(t, f.ben, "Second Tradition: Domain") if a.get("unlock")]
    assert [(a["minion"], a["blood"], a["intercept"]) for a in offered] == [(f.marek, 1, 2)]
    before = _blood_of(t, f.ben, f.marek)
    notes = t.play(f.ben, offered[0])
    t.run_ops()
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert any("Second Tradition: Domain" in s and "attempts to block with +2 intercept" in s for s in said), said
    a = t.state.open_action
    assert a is not None and a.window == "B" and a.blocker == tuple(f.marek) and a.intercept == 2
    assert _blood_of(t, f.ben, f.marek) == before - 1
    marek = t.view(f.ben).card(tuple(f.marek))
    assert marek is not None and not marek.locked


def _blood_of(t: SimTable, seat: int, pos: list[int]) -> int:
    card = t.view(seat).card(tuple(pos))
    assert card is not None
    return card.counters
