"""A card's requirements are checked as it is announced or played (the rulebook's "Requirements for
Playing Cards"; vtes-actions.md §2, P2, P9): a clan, a Discipline, a sect; each refusal a sentence naming
what is missing, and a card named in the act lifts it. A card played by command outside its window
is refused too: a combat card with no combat under way.

Every crypt is twelve Mark Decker (Gangrel: ani for obf pot CEL PRO, Prince); every hand holds an
Emerald Legionnaire (an ally that requires a Harbinger of Skulls), Govern the Unaligned (requires
Dominate), Carlton Van Wyk (an ally with no requirement), Torn Signpost (combat, Potence), Majesty
(combat, Presence) and Telepathic Misdirection (reaction, Auspex)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.vtes.offers import offers
from tests.support.vtes_fight import Fight, bleed_blocked, in_hand, one_crypt_fight, refused
from tests.support.vtes_sim import act, copy_table

LIBRARY = (
    ("Emerald Legionnaire", 1),
    ("Govern the Unaligned", 1),
    ("Carlton Van Wyk", 1),
    ("Torn Signpost", 2),
    ("Majesty", 1),
    ("Telepathic Misdirection", 1),
)


SECT_LIBRARY = (("Abbot", 2), ("Protection Racket", 3), ("Carlton Van Wyk", 2))
"""Abbot (an action: "Requires a Sabbat vampire"), Protection Racket (a reaction: "Requires an
Anarch"), for Mark Decker, a Camarilla prince."""

_DEALT: dict[tuple[tuple[str, int], ...], Fight] = {}


def _fresh(library: tuple[tuple[str, int], ...]) -> Fight:
    """A copy of the table of twelve Mark Decker with ``library``, dealt once per module."""
    if library not in _DEALT:
        _DEALT[library] = one_crypt_fight("Mark Decker", library)
    base = _DEALT[library]
    return dataclasses.replace(base, t=copy_table(base.t))


@pytest.fixture
def f() -> Fight:
    return _fresh(LIBRARY)


@pytest.fixture
def s() -> Fight:
    return _fresh(SECT_LIBRARY)


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


def test_a_combat_card_in_the_minion_phase_is_refused(f: Fight) -> None:
    signpost = in_hand(f.t, f.ana, "Torn Signpost")
    refused(f.t, f.ana, {"do": "play", "card": signpost}, "Torn Signpost is a combat card: it is played during combat")


def test_a_combat_card_during_an_action_before_any_combat_is_refused(f: Fight) -> None:
    act(f.t, f.ana, "action", kind="bleed", minion=f.lucia)
    refused(
        f.t,
        f.ana,
        {"do": "play", "card": in_hand(f.t, f.ana, "Torn Signpost")},
        "Torn Signpost is a combat card: it is played during combat, and no combat is under way",
    )


@pytest.mark.parametrize(
    ("library", "name", "words"),
    [
        (LIBRARY, "Telepathic Misdirection", "Telepathic Misdirection requires AUS, which Mark Decker"),
        (
            SECT_LIBRARY,
            "Protection Racket",
            "Protection Racket requires an Anarch minion, and Mark Decker (G3) is Camarilla",
        ),
    ],
)
def test_a_reaction_whose_discipline_or_sect_the_reacting_minion_lacks_is_refused(
    library: tuple[tuple[str, int], ...], name: str, words: str
) -> None:
    f = _fresh(library)
    act(f.t, f.ana, "action", kind="bleed", minion=f.lucia)
    act(f.t, f.ana, "pass")
    refused(f.t, f.ben, {"do": "play", "card": in_hand(f.t, f.ben, name), "minion": f.marek}, words)


def test_in_combat_a_card_whose_discipline_the_combatant_lacks_is_refused_and_one_it_has_is_played(f: Fight) -> None:
    bleed_blocked(f)
    refused(f.t, f.ana, {"do": "play", "card": in_hand(f.t, f.ana, "Majesty")}, "Majesty requires PRE")
    act(f.t, f.ana, "play", card=in_hand(f.t, f.ana, "Torn Signpost"))  # Mark Decker has Potence
    assert f.t.state.open_combat is not None


def test_a_strike_with_a_card_whose_discipline_the_striker_lacks_is_refused(f: Fight) -> None:
    bleed_blocked(f)
    t = f.t
    while t.state.open_combat is not None and t.state.open_combat.step != "strike":
        act(t, t.state.open_combat.impulse, "pass")
    majesty = in_hand(t, f.ana, "Majesty")
    refused(t, f.ana, {"do": "strike", "minion": f.lucia, "card": majesty, "ends": True}, "Majesty requires PRE")


def test_an_action_card_of_another_sect_is_refused_with_the_sect_named_and_not_offered(s: Fight) -> None:
    abbot = in_hand(s.t, s.ana, "Abbot")
    act_ = {"do": "action", "kind": "other", "minion": s.lucia, "card": abbot}
    refused(s.t, s.ana, act_, "Abbot requires a Sabbat minion, and Mark Decker (G3) is Camarilla")
    offered = [o.act.get("card") for o in offers(s.t.view(s.ana))]
    assert abbot not in offered and in_hand(s.t, s.ana, "Carlton Van Wyk") in offered


def test_a_card_named_in_the_act_lifts_the_sect_requirement(s: Fight) -> None:
    abbot = in_hand(s.t, s.ana, "Abbot")
    act(s.t, s.ana, "action", kind="other", minion=s.lucia, card=abbot, lift="requirement", by=s.lucia)
    assert s.t.state.open_action is not None
