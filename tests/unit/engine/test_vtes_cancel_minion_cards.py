"""Cancel a minion card as it is played inside an action (rulebook, "Playing a Card", "Cancel";
engine.games.vtes.cancels): an action modifier or a reaction played from the hand waits for the
answers of the other Methuselahs who may cancel it (not the acting one: the cancels the table
answers with are out-of-turn master cards); Direct Intervention cancels it, its cost unpaid and
its effect absent, and is itself a master card the others may cancel (Sudden Reversal). Every
crypt is twelve Arika; Ana's vampire bleeds her prey Ben. The table rule ``cancels=all`` is the
default (at ``cancels=master`` only a master card waits); the tables are plain ``SimTable``s, whose
``play`` leaves the window open (not tests.support.vtes_sim.AnsweredTable)."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.games.vtes import VTES
from engine.games.vtes.autopass import auto_pass
from engine.games.vtes.bots import VtesBot
from engine.games.vtes.cancel_reading import ANSWERED, MINION_CARD, cancel_of
from engine.games.vtes.card_coverage import coverage_of
from engine.games.vtes.card_record import Coverage, Timing, every_record
from engine.games.vtes.card_report import find
from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck, bundled_decks
from engine.games.vtes.simulate import vtes_table
from engine.games.vtes.state import Action, Answer
from engine.sim import SimTable
from tests.support.vtes_fight import refused
from tests.support.vtes_sim import card_plays, copy_table, one_vampire_table, replayed, to_combat_step
from tests.support.vtes_sim import first_vampire as vampire

ALL = {"cancels": "all"}
"""The table rule under which a minion card played in an action or a combat waits for answers (the default)."""
LIBRARY = (("Threats", 2), ("Direct Intervention", 2), ("Sudden Reversal", 1), ("Deflection", 2))


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Arika", LIBRARY, seed=5, rules=ALL, kind=SimTable)


def _do(t: SimTable, done: list[tuple[int, Act]], seat: int, a: Act) -> None:
    t.play(seat, a)
    t.run_ops()
    done.append((seat, a))


def _card(t: SimTable, seat: int, name: str) -> list[int]:
    return next(c.as_list() for c in t.view(seat).hand if c.name == name)


def _said(t: SimTable) -> str:
    """The log, the seats named Ana, Ben, Cy and Dee in seating order from the first player."""
    seating, first = t.state.seating, t.state.acting
    names = [""] * 4
    for i, name in enumerate(("Ana", "Ben", "Cy", "Dee")):
        names[seating[(seating.index(first) + i) % 4]] = name
    return " / ".join(n.render(names) for n in t.notes)


def _offered(t: SimTable, seat: int, name: str) -> Act:
    """The ``play`` of ``seat``'s hand card ``name`` the table offers now (its cost with it)."""
    return next(a for a in VTES.legal_acts(t.view(seat)) if a["do"] == "play" and a["card"] == _card(t, seat, name))


def _let_through(t: SimTable, done: list[tuple[int, Act]]) -> None:
    """Every seat asked passes the card announced last, which then applies."""
    card = t.state.innermost.card
    while isinstance(t.state.innermost, Answer) and t.state.innermost.card == card:
        _do(t, done, t.state.innermost.loop.holder, {"do": "pass"})


def _threats(t: SimTable, done: list[tuple[int, Act]]) -> tuple[int, int, int, int]:
    """Ana's vampire bleeds Ben and Ana plays Threats (+1 bleed); returns Ana, Ben, Cy, Dee."""
    ana = t.state.acting
    ben, cy, dee = (t.state.seating[(t.state.seating.index(ana) + i) % 4] for i in (1, 2, 3))
    _do(t, done, ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})
    _do(t, done, ana, card_plays(t, ana, "Threats")[0])
    return ana, ben, cy, dee


def test_an_action_modifier_waits_for_the_others_who_may_cancel_it(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, ben, cy, dee = _threats(t, done)
    answer = t.state.innermost
    assert isinstance(answer, Answer) and answer.loop.order == (ben, cy, dee)  # not Ana: it is her turn
    assert t.state.open_action.amount == 1  # announced: its +1 bleed waits
    assert "Ana plays Threats: the others may cancel it as it is played" in _said(t)
    refused(t, ben, {"do": "block", "minion": vampire(t, ben)}, "Threats waits for the others' answers")
    _let_through(t, done)
    assert t.state.innermost is t.state.open_action and t.state.open_action.amount == 2
    assert replayed(start, done, ops=True).state == t.state


def test_direct_intervention_cancels_it_and_the_minion_cannot_play_it_again(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, ben, cy, dee = _threats(t, done)
    offered = [a for a in VTES.legal_acts(t.view(ben)) if a["do"] == "play"]
    assert _card(t, ben, "Direct Intervention") in [a["card"] for a in offered]
    assert auto_pass(t.view(ben)) is None  # Ben holds a card that cancels it: his to decide
    _do(t, done, ben, _offered(t, ben, "Direct Intervention"))
    inner = t.state.innermost  # Direct Intervention is a master card: it waits too, Ana not asked
    assert isinstance(inner, Answer) and inner.seat == ben and inner.loop.order == (cy, dee)
    _let_through(t, done)
    action = t.state.innermost
    assert isinstance(action, Action) and action.amount == 1 and action.loop.holder == ana
    assert t.state.players[ben].pool == 29 and t.state.players[ana].pool == 30  # DI's 1 pool paid
    said = _said(t)
    assert "Ben cancels Ana's Threats with Direct Intervention: its cost is not paid and it has no effect" in said
    again = {"do": "play", "card": _card(t, ana, "Threats"), "amount": 1, "bleed_mod": True}
    refused(t, ana, again, "has already played Threats in this action")  # the canceled one was played
    assert replayed(start, done, ops=True).state == t.state


def test_sudden_reversal_cancels_direct_intervention_and_the_modifier_applies(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, ben, cy, dee = _threats(t, done)
    _do(t, done, ben, _offered(t, ben, "Direct Intervention"))
    assert t.state.innermost.loop.holder == cy
    assert _card(t, cy, "Sudden Reversal") in [a["card"] for a in VTES.legal_acts(t.view(cy)) if a["do"] == "play"]
    _do(t, done, cy, _offered(t, cy, "Sudden Reversal"))
    assert [w.card for w in t.state.windows if isinstance(w, Answer)] == [
        tuple(card_of(done, ana)),
        tuple(card_of(done, ben)),
        tuple(card_of(done, cy)),
    ]
    _let_through(t, done)  # Sudden Reversal applies: Direct Intervention is canceled, its cost unpaid
    assert "Cy cancels Ben's Direct Intervention with Sudden Reversal" in _said(t)
    assert t.state.players[ben].pool == 30
    top = t.state.innermost
    assert isinstance(top, Answer) and top.seat == ana  # Threats still waits: the others answer again
    _let_through(t, done)
    assert t.state.open_action.amount == 2
    assert replayed(start, done, ops=True).state == t.state


def card_of(done: list[tuple[int, Act]], seat: int) -> list[int]:
    """The card of ``seat``'s last play in ``done``."""
    return next(a["card"] for s, a in reversed(done) if s == seat and a["do"] == "play")


def test_a_reaction_waits_for_the_others_but_the_acting_methuselah(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, ben, cy, dee = _threats(t, done)
    _let_through(t, done)
    while not (plays := card_plays(t, ben, "Deflection")):  # after blocks are declined
        _do(t, done, t.state.open_action.loop.holder, {"do": "pass"})
    _do(t, done, ben, plays[0])
    answer = t.state.innermost
    assert isinstance(answer, Answer) and answer.seat == ben and answer.loop.order == (cy, dee)


def test_what_does_not_cancel_a_minion_card_is_refused_with_its_sentence(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, ben, cy, dee = _threats(t, done)
    refused(
        t,
        ben,
        {"do": "play", "card": _card(t, ben, "Sudden Reversal")},
        "Sudden Reversal cancels a master card played by another Methuselah, and Threats is not a master card",
    )


def test_a_seat_with_nothing_that_fits_passes_by_itself_and_a_bot_cancels_a_bleed_modifier_against_it(
    start: SimTable,
) -> None:
    t = one_vampire_table("Arika", (("Threats", 2), ("Deflection", 2)), seed=5, rules=ALL, kind=SimTable)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    t.play(ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})
    t.play(ana, card_plays(t, ana, "Threats")[0])
    assert auto_pass(t.view(ben)) == {"do": "pass"}
    s, done = copy_table(start), []
    ana, ben, cy, dee = _threats(s, done)
    chosen = VtesBot(seed=1).choose(s.view(ben), VTES.legal_acts(s.view(ben)))
    assert chosen is not None and chosen["do"] == "play" and chosen["card"] == _card(s, ben, "Direct Intervention")
    _do(s, done, ben, {"do": "pass"})
    # Cy is not bled: Ana's Threats is not worth his Direct Intervention
    assert VtesBot(seed=1).choose(s.view(cy), VTES.legal_acts(s.view(cy))) == {"do": "pass"}


@pytest.mark.parametrize("name", ["Direct Intervention", "Dark Influences"])
def test_a_cancel_of_a_minion_card_is_applied_partly(name: str) -> None:
    """Its cancel is applied (at cancels=all); the rest of its text is by hand."""
    rec = find(name)
    assert rec is not None and coverage_of(rec) == Coverage.PARTLY
    assert cancel_of(rec) is not None and cancel_of(rec).whom == MINION_CARD


def test_the_cancels_the_table_answers_with_are_out_of_turn_master_cards() -> None:
    """The acting Methuselah is asked only in its master phase (cancel_reading.asked): every card
    whose cancel the table answers with is an out-of-turn master card."""
    cancels = [r for r in every_record() if cancel_of(r) is not None]
    assert {cancel_of(r).whom for r in cancels} == ANSWERED
    for r in cancels:
        assert "Master" in r.types and Timing.OUT_OF_TURN in r.requires.timing, r.name


def test_at_cancels_master_a_minion_card_applies_at_once_and_direct_intervention_is_not_offered() -> None:
    t = one_vampire_table("Arika", LIBRARY, seed=5, rules={"cancels": "master"}, kind=SimTable)
    done: list[tuple[int, Act]] = []
    ana, ben, cy, dee = _threats(t, done)
    assert t.state.innermost is t.state.open_action and t.state.open_action.amount == 2
    assert _card(t, ben, "Direct Intervention") not in [a.get("card") for a in VTES.legal_acts(t.view(ben))]


COMBAT_LIBRARY = (("Torn Signpost", 2), ("Direct Intervention", 2), ("Immortal Grapple", 3))


@pytest.fixture(scope="module")
def in_combat() -> SimTable:
    """Fish (ANI POT) at every seat: Ana's vampire bleeds Ben, Ben's blocks, before range."""
    t = one_vampire_table("Fish (G4)", COMBAT_LIBRARY, seed=5, rules=ALL, kind=SimTable)
    to_combat_step(t, [], "before_range")
    return t


def _signpost(t: SimTable, done: list[tuple[int, Act]]) -> tuple[int, int]:
    """Ana plays Torn Signpost at superior (strength 3 for the combat); returns Ana and Ben."""
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    _do(t, done, ana, next(a for a in card_plays(t, ana, "Torn Signpost") if a.get("strength") == 3))
    return ana, ben


def test_a_combat_card_waits_and_applies_when_every_seat_asked_passes(in_combat: SimTable) -> None:
    t, done = copy_table(in_combat), []
    ana, ben = _signpost(t, done)
    c = t.state.open_combat
    assert isinstance(t.state.innermost, Answer) and c.strength_of(c.acting) != 3
    _let_through(t, done)
    c = t.state.open_combat
    assert t.state.innermost is c and c.strength_of(c.acting) == 3
    assert replayed(in_combat, done, ops=True).state == t.state


def test_direct_intervention_cancels_a_combat_card_and_the_combat_goes_on(in_combat: SimTable) -> None:
    t, done = copy_table(in_combat), []
    ana, ben = _signpost(t, done)
    _do(t, done, ben, _offered(t, ben, "Direct Intervention"))
    _let_through(t, done)
    c = t.state.open_combat
    assert t.state.innermost is c and c.strength_of(c.acting) != 3 and c.step == "before_range"
    assert "Ben cancels Ana's Torn Signpost with Direct Intervention" in _said(t)
    assert t.state.players[ben].pool == 29
    assert replayed(in_combat, done, ops=True).state == t.state


def test_a_whole_bot_game_at_cancels_all_with_direct_interventions_ends() -> None:
    """Four bots with bundled decks and four Direct Interventions each, at a table whose rule is
    cancels=all: every modifier, reaction and combat card played with ``play`` waits for answers,
    the bots cancel some played against them, and the game still ends."""
    intervention = card_base().lookup("Direct Intervention")
    assert intervention is not None
    decks = [
        Deck(d.name, d.crypt, tuple(sorted({**dict(d.library), intervention.id: 4}.items())))
        for d in bundled_decks()[:4]
    ]
    t = vtes_table(decks, {"library_size": False, **ALL}, 3)
    bots = [VtesBot(decks[s], seed=s) for s in range(4)]
    for _ in range(20000):
        pending = t.pending()
        if not pending.actors:
            break
        seat = pending.awaited[0] if pending.awaited else pending.actors[0]
        view = t.view(seat)
        chosen = bots[seat].choose(view, VTES.legal_acts(view))
        assert chosen is not None, f"seat {seat} does nothing"
        t.play(seat, chosen)
        t.run_ops()
    assert t.state.step == "over"
    said = " ".join(n.render(["Ana", "Ben", "Cy", "Dee"]) for n in t.notes)
    assert "with Direct Intervention: its cost is not paid and it has no effect" in said
