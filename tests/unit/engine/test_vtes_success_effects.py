"""What a card does as its action succeeds (shared/rules/vtes-actions.md P4; rulebook, "Action
Resolution"): Flurry of Action at superior ("If the bleed is successful, this vampire unlocks"),
Forced March at superior, played during the action (+1 stealth; "After action resolution, if the
action was successful, this vampire can burn 1 blood to unlock"), Public Trust at superior ("if
the bleed is successful (for 1 or more), add 1 blood to a vampire in your uncontrolled region");
nothing of it when the action is blocked or the bleed burns nothing; the log replays to the same
state.

Every crypt is twelve Sonja Blue (dom pot CEL FOR PRE): Ana's Lucia (4 blood) acts, Ben's Marek
(1 blood) may block; every hand two Public Trust, two Flurry of Action, three Forced March."""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.base import Act
from engine.games.vtes import VTES
from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck
from engine.games.vtes.view import CardView
from tests.support.vtes_fight import Fight, fight_table, in_hand, passed_out, refused, role_names
from tests.support.vtes_sim import accept_claims, copy_table, replayed

LIBRARY = (("Public Trust", 2), ("Flurry of Action", 2), ("Forced March", 3))


@pytest.fixture(scope="module")
def base() -> Fight:
    sonja = card_base().lookup("Sonja Blue")
    assert sonja is not None
    return fight_table(seed=1, crypt=Deck("sonja", ((sonja.id, 12),), ()), library=LIBRARY)


@pytest.fixture
def f(base: Fight) -> Fight:
    return dataclasses.replace(base, t=copy_table(base.t))


def lucia(f: Fight) -> CardView:
    return next(c for c in f.t.view(f.ana).cards if c.as_list() == f.lucia)


def _announced(f: Fight, name: str, **fields: object) -> Act:
    card = in_hand(f.t, f.ana, name)
    offered = [
        a
        for a in VTES.legal_acts(f.t.view(f.ana))
        if a["do"] == "action" and a.get("card") == card and all(a.get(k) == v for k, v in fields.items())
    ]
    assert offered, f"{name} is offered with {fields}"
    return offered[0]


def test_flurry_of_action_at_superior_unlocks_its_vampire_as_the_bleed_succeeds(f: Fight, base: Fight) -> None:
    chosen = _announced(f, "Flurry of Action", unlock=True)
    assert chosen["kind"] == "bleed"
    done = [(f.ana, chosen)]
    f.t.play(f.ana, chosen)
    assert lucia(f).locked
    said = passed_out(f, done)
    assert not lucia(f).locked
    assert any(line.endswith("takes the Edge; Sonja Blue (G4) unlocks (Flurry of Action)") for line in said), said
    assert replayed(base.t, done).state == f.t.state


def test_flurry_of_action_unlocks_nothing_when_the_bleed_is_blocked(f: Fight) -> None:
    f.t.play(f.ana, _announced(f, "Flurry of Action", unlock=True))
    f.t.play(f.ana, {"do": "pass"})
    f.t.play(f.ben, {"do": "block", "minion": f.marek})
    while f.t.state.open_action is not None:
        f.t.play(f.t.state.open_action.impulse, {"do": "pass"})
    assert f.t.state.open_combat is not None and lucia(f).locked


def test_forced_march_at_superior_played_during_the_bleed_unlocks_burning_1_blood_as_it_succeeds(
    f: Fight, base: Fight
) -> None:
    t = f.t
    bleed = {"do": "action", "kind": "bleed", "minion": f.lucia}
    done: list[tuple[int, Act]] = [(f.ana, bleed), (f.ana, {"do": "pass"}), (f.ben, {"do": "block", "minion": f.marek})]
    for seat, act in done:
        t.play(seat, act)
    card = in_hand(t, f.ana, "Forced March")
    plays = [a for a in VTES.legal_acts(t.view(f.ana)) if a["do"] == "play" and a["card"] == card]
    assert [(a.get("stealth"), a.get("unlock")) for a in plays] == [(1, True)]
    notes = [n.render(role_names(f)) for n in t.play(f.ana, plays[0])]
    done.append((f.ana, plays[0]))
    assert "Forced March: Sonja Blue (G4) unlocks if the action succeeds, burning 1 blood" in notes
    blood = lucia(f).counters
    said = passed_out(f, done)
    assert not lucia(f).locked and lucia(f).counters == blood - 1
    assert any(line.endswith("Sonja Blue (G4) unlocks, burning 1 blood (Forced March)") for line in said), said
    assert replayed(base.t, done).state == t.state


def test_public_trust_adds_its_blood_only_when_the_bleed_burns_1_or_more(f: Fight) -> None:
    chosen = _announced(f, "Public Trust", amount=3)
    added = [a for a in VTES.legal_acts(f.t.view(f.ana)) if a.get("card") == chosen["card"] and a.get("add_blood")]
    assert added and all(a["add_blood"] == 1 and a["amount"] == 3 for a in added)
    first = copy_table(f.t)
    first.play(f.ana, added[0])
    passed_out(dataclasses.replace(f, t=first), [])
    assert next(c.counters for c in first.view(f.ana).cards if c.as_list() == added[0]["add_to"]) == 1
    # The same bleed reduced to 0 by hand succeeds, but burns nothing: no blood is added.
    f.t.play(f.ana, added[0])
    f.t.play(f.ana, {"do": "adjust", "amount": -3, "cause": "a reaction"})
    accept_claims(f.t)  # Ben takes the reduction
    said = passed_out(f, [])
    assert next(c.counters for c in f.t.view(f.ana).cards if c.as_list() == added[0]["add_to"]) == 0
    assert not any("blood added" in line for line in said), said


def test_an_unlock_no_card_gives_is_refused_with_its_sentence(f: Fight) -> None:
    t = f.t
    refused(
        t,
        f.ana,
        {"do": "action", "kind": "bleed", "minion": f.lucia, "unlock": True},
        "unlock is a card's: the acting minion unlocks as the action succeeds when its card says so",
    )


def test_flurry_of_action_at_basic_draws_two_as_the_bleed_succeeds_then_the_hand_is_discarded_down() -> None:
    """Every library seven Flurry of Action and three Forced March: three cards left to draw."""
    sonja = card_base().lookup("Sonja Blue")
    assert sonja is not None
    crypt = Deck("sonja", ((sonja.id, 12),), ())
    f = fight_table(seed=1, crypt=crypt, library=(("Flurry of Action", 7), ("Forced March", 3)))
    t, start = f.t, copy_table(f.t)
    chosen = _announced(f, "Flurry of Action", draws=2)
    done = [(f.ana, chosen)]
    t.play(f.ana, chosen)
    t.run_ops()  # the hand refilled: the card drawn is opened to Ana (the deck protocol)
    size = t.state.players[f.ana].hand_size
    said = passed_out(f, done)
    assert any(line.endswith("Ana draws 2 cards and discards down to their hand size") for line in said), said
    hand = t.view(f.ana).hand
    assert len(hand) == size + 2
    discards = [a for a in VTES.legal_acts(t.view(f.ana)) if a["do"] == "discard"]
    assert sorted(a["card"] for a in discards) == sorted(c.as_list() for c in hand)
    for a in discards[:2]:  # in the minion phase: discarding down is no discard phase action
        t.play(f.ana, a)
        done.append((f.ana, a))
    assert len(t.view(f.ana).hand) == size
    assert not any(a["do"] == "discard" for a in VTES.legal_acts(t.view(f.ana)))
    again = copy_table(start)
    for seat, act in done:
        again.play(seat, act)
        again.run_ops()
    assert again.state == t.state


def test_a_bot_bleeds_with_flurry_of_action(f: Fight) -> None:
    from engine.games.vtes.bots import VtesBot

    view = f.t.view(f.ana)
    chosen = VtesBot(seed=0).choose(view, VTES.legal_acts(view))
    assert (
        chosen is not None and chosen["kind"] == "bleed" and chosen["card"] == in_hand(f.t, f.ana, "Flurry of Action")
    )
    assert chosen.get("unlock") or chosen.get("draws")
