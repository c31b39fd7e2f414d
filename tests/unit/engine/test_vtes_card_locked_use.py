"""Who may play a reaction, as its record reads the text (rulebook, "Reaction Cards"; shared/rules/
vtes-actions.md 4.3): "Only usable by a locked …" in one of a card's two ways (Second Tradition:
Domain's "[REACTION] Only usable by a locked prince or justicar. This vampire burns 1 blood to
unlock …") binds that way only, so its "+2 intercept" is played by an unlocked prince who blocks;
"Usable by a locked vampire" lets a locked vampire play it as well as an unlocked one, where "Only
usable by a locked" requires one.

Every crypt is twelve Andi Liu (prince; aus obf pre DOM)."""

from __future__ import annotations

from engine.games.vtes.card_record import CardRecord, record
from engine.games.vtes.cards import card_base
from tests.support.vtes_sim import act, card_plays, first_vampire, one_vampire_table

LIBRARY = (("Second Tradition: Domain", 2), ("Lost in Crowds", 2))


def test_an_unlocked_prince_who_blocks_plays_domain_for_2_intercept() -> None:
    t = one_vampire_table("Andi Liu", LIBRARY, seed=5)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    act(t, ana, "action", kind="bleed", minion=first_vampire(t, ana), target=ben)
    act(t, ana, "pass")
    act(t, ben, "block", minion=first_vampire(t, ben))
    t.play(ana, card_plays(t, ana, "Lost in Crowds")[0])
    act(t, ana, "pass")
    a = t.state.open_action
    assert a is not None and a.stealth > a.intercept == 0
    offered = card_plays(t, ben, "Second Tradition: Domain")
    assert [(x["intercept"], x["minion"]) for x in offered] == [(2, first_vampire(t, ben))]
    notes = t.play(ben, offered[0])
    a = t.state.open_action
    assert a is not None and a.intercept == 2
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert any("Second Tradition: Domain" in s and "intercept" in s for s in said), said


def _record(name: str) -> CardRecord:
    found = card_base().lookup(name)
    assert found is not None
    rec = record(found.id)
    assert rec is not None
    return rec


def test_usable_by_a_locked_vampire_allows_a_locked_one_and_only_usable_requires_one() -> None:
    domain, loyalist = _record("Second Tradition: Domain"), _record("Loyalist")
    assert not domain.requires.locked and not domain.requires.locked_too
    assert loyalist.requires.locked_too and not loyalist.requires.locked
    assert _record("On the Qui Vive").requires.locked
