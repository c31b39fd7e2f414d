"""An action card's requirements are checked as it is announced (the rulebook's "Requirements for
Playing Cards"; vtes-actions.md P2, P9): a clan, a Discipline; each refusal a sentence naming what
is missing, and a card named in the act lifts it.

Every crypt is twelve Mark Decker (Gangrel: ani for obf pot CEL PRO, Prince); every hand holds an
Emerald Legionnaire (an ally that requires a Harbinger of Skulls), Govern the Unaligned (requires
Dominate) and Carlton Van Wyk (an ally with no requirement)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck
from tests.support.vtes_fight import Fight, fight_table, in_hand, refused
from tests.support.vtes_sim import act, copy_table

LIBRARY = (("Emerald Legionnaire", 2), ("Govern the Unaligned", 2), ("Carlton Van Wyk", 3))


@pytest.fixture(scope="module")
def base() -> Fight:
    mark = card_base().lookup("Mark Decker")
    assert mark is not None
    return fight_table(seed=3, blood=(4, 4, 1, 1), crypt=Deck("mark", ((mark.id, 12),), ()), library=LIBRARY)


@pytest.fixture
def f(base: Fight) -> Fight:
    return dataclasses.replace(base, t=copy_table(base.t))


def test_an_ally_of_another_clan_is_refused_with_the_clan_named(f: Fight) -> None:
    legionnaire = in_hand(f.t, f.ana, "Emerald Legionnaire")
    act_ = {"do": "action", "kind": "recruit", "minion": f.lucia, "card": legionnaire}
    refused(
        f.t, f.ana, act_, "Emerald Legionnaire requires a Harbinger of Skulls minion, and Mark Decker (G3) is Gangrel"
    )


def test_an_action_card_whose_discipline_the_vampire_lacks_is_refused(f: Fight) -> None:
    govern = in_hand(f.t, f.ana, "Govern the Unaligned")
    act_ = {"do": "action", "kind": "bleed", "minion": f.lucia, "card": govern}
    refused(f.t, f.ana, act_, "Govern the Unaligned requires DOM, which Mark Decker (G3) does not have")


def test_a_card_named_in_the_act_lifts_the_requirement(f: Fight) -> None:
    legionnaire = in_hand(f.t, f.ana, "Emerald Legionnaire")
    notes = act(f.t, f.ana, "action", kind="recruit", minion=f.lucia, card=legionnaire, lift="requirement", by=f.lucia)
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert any("sets a rule aside" in line and "Harbinger of Skulls" in line for line in said), said
    assert f.t.state.open_action is not None


def test_a_card_with_no_requirement_is_announced(f: Fight) -> None:
    act(f.t, f.ana, "action", kind="recruit", minion=f.lucia, card=in_hand(f.t, f.ana, "Carlton Van Wyk"))
    assert f.t.state.open_action is not None
