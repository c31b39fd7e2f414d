"""Who may play a reaction, as its record reads the text (rulebook, "Reaction Cards"; shared/rules/
vtes-actions.md 4.3): "Only usable by a locked …" in one of a card's two ways (Second Tradition:
Domain's "[REACTION] Only usable by a locked prince or justicar. This vampire burns 1 blood to
unlock …") binds that way only, so its "+2 intercept" is played by an unlocked prince who blocks;
"Usable by a locked vampire" lets a locked vampire play it as well as an unlocked one, where "Only
usable by a locked" requires one.

Every crypt is twelve Andi Liu (prince; aus obf pre DOM)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.base import IllegalMove
from engine.games.vtes.card_record import CardRecord, record
from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck
from tests.support.vtes_sim import (
    act,
    by_hand,
    card_plays,
    deck_of,
    face_up_by_hand,
    first_vampire,
    one_vampire_table,
    vtes_table,
)

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


def test_organized_resistance_is_played_by_the_baron_for_the_blocking_anarch() -> None:
    """Organized Resistance ("Requires a baron. Usable by a locked baron. An Anarch you control
    gets +1 intercept"): Ben's Ariane (an Anarch, no title) blocks; the offer is played by his
    baron Casey Snyder, and the intercept is the block's."""
    found = {n: card_base().lookup(n) for n in ("Arika", "Casey Snyder", "Ariane")}
    ids = {n: c.id for n, c in found.items() if c is not None}
    library = ("Organized Resistance", 7)
    decks = [Deck("arika", ((ids["Arika"], 12),), ())] * 4
    decks[3] = Deck("anarchs", ((ids["Casey Snyder"], 6), (ids["Ariane"], 6)), ())
    t = vtes_table([deck_of(d, library) for d in decks], {"library_size": False}, 1)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    assert ben == 3  # with seed 1: Ana is seat 1 and her prey seat 3
    moved: dict[str, list[int]] = {}
    for seat in t.state.seating:
        waiting = t.view(seat).uncontrolled(seat)
        names = {(card_base().info(c.card).name.split(" (")[0] if seat == ben else f"seat {seat}"): c for c in waiting}  # type: ignore[union-attr]
        for name, c in names.items() if seat == ben else list(names.items())[:1]:
            act(t, seat, "move", cards=[c.as_list()], to="ready")
            moved[name] = c.as_list()
    face_up_by_hand(t, [tuple(p) for p in moved.values()])
    for pos in moved.values():
        act(t, next(c.owner for c in t.state.cards if list(c.pos) == pos), "blood", card=pos, delta=4, cause="effect")
    while t.state.phase != "minion":
        act(t, t.state.acting, "phase")
    act(t, ana, "action", kind="bleed", minion=moved[f"seat {ana}"], target=ben)
    act(t, ana, "pass")
    act(t, ben, "block", minion=moved["Ariane"])
    by_hand(t, ana, "adjust", stealth=1, cause="a card")
    while (a := t.state.open_action) is not None and a.impulse != ben:
        act(t, a.impulse, "pass")
    offered = card_plays(t, ben, "Organized Resistance")
    assert [(x["intercept"], x["minion"]) for x in offered] == [(1, moved["Casey Snyder"])]
    t.play(ben, offered[0])
    a = t.state.open_action
    assert a is not None and a.intercept == 1


def test_a_prince_whose_title_is_yielded_is_not_offered_domain() -> None:
    """A title yielded (or contested) counts as none ("treated as if they have no title", rulebook
    "Contested Titles"): the prince who blocks is not offered Domain's +2 intercept, which the
    rules would refuse ("requires a prince or justicar, and … is untitled"). Before, the offers
    read the printed title and a bot's offered play was refused."""
    t = one_vampire_table("Andi Liu", LIBRARY, seed=5)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    prince = tuple(first_vampire(t, ben))
    t.state = dataclasses.replace(t.state, contests=dataclasses.replace(t.state.contests, yielded=(prince,)))
    act(t, ana, "action", kind="bleed", minion=first_vampire(t, ana), target=ben)
    act(t, ana, "pass")
    act(t, ben, "block", minion=first_vampire(t, ben))
    t.play(ana, card_plays(t, ana, "Lost in Crowds")[0])
    act(t, ana, "pass")
    assert card_plays(t, ben, "Second Tradition: Domain") == []
    with pytest.raises(IllegalMove, match="requires a prince or justicar"):
        t.play(
            ben,
            {
                "do": "play",
                "card": next(c.as_list() for c in t.view(ben).hand if c.name == "Second Tradition: Domain"),
                "intercept": 2,
            },
        )
