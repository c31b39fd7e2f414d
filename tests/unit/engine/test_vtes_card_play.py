"""A played card's numbers, as its record reads them, change the open action at once
(shared/rules/vtes-actions.md 4.3, 4.6, P8): the offers carry them, per level the minion may play
(basic, superior), the table applies and narrates them with the card's name, and replaying the
same acts gives the same state.

Every crypt is twelve Arika (aus cel DOM FOR OBF PRE) and every library seven chosen cards (table
rule ``library_size=off``), so each opening hand holds them all: Lost in Crowds (+1 stealth, +2 at
superior), Conditioning (+2 bleed (limited), +3 at superior), Telepathic Misdirection (+1 intercept
at basic), Patrol (+1 intercept, requires Flight) and Deflection (redirects a bleed once blocks are
declined, and at basic locks the reacting vampire)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.games.vtes.bots import VtesBot
from engine.games.vtes.card_play import LevelError, pick, unmet_condition, window_choices
from engine.games.vtes.card_record import record
from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck
from engine.games.vtes.state import Action
from engine.games.vtes.vocab import ActionKind
from engine.sim import SimTable
from tests.support.vtes_sim import act, by_hand, copy_table, deck_of, one_vampire_table, vtes_table

LIBRARY = (("Lost in Crowds", 2), ("Conditioning", 1), ("Telepathic Misdirection", 1), ("Patrol", 2), ("Deflection", 1))


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Arika", LIBRARY, seed=5)


def seats(t: SimTable) -> tuple[int, int]:
    ana = t.state.acting
    return ana, t.view(ana).players[ana].prey


def vampire(t: SimTable, seat: int) -> list[int]:
    return next(c.as_list() for c in t.view(seat).controlled(seat) if c.crypt)


def plays(t: SimTable, seat: int, name: str) -> list[Act]:
    """The offered plays of the first hand card ``name`` (one per choice)."""
    view = t.view(seat)
    card = next(c.as_list() for c in view.hand if c.name == name)
    return [a for a in VTES.legal_acts(view) if a["do"] == "play" and a["card"] == card]


def bleed_and_block(t: SimTable) -> tuple[int, int]:
    """Ana's vampire bleeds Ben; Ben's attempts to block: stealth 0, intercept 0 (stealth needed)."""
    ana, ben = seats(t)
    act(t, ana, "action", kind="bleed", minion=vampire(t, ana), target=ben)
    act(t, ana, "pass")  # the impulse goes from the acting Methuselah to the prey (P1)
    act(t, ben, "block", minion=vampire(t, ben))
    a = t.state.open_action
    assert a is not None and a.window == "B" and (a.stealth, a.intercept) == (0, 0)
    return ana, ben


def numbers(t: SimTable) -> tuple[int, int, int]:
    a = t.state.open_action
    assert a is not None
    return a.stealth, a.intercept, a.amount


@pytest.mark.parametrize(("level", "stealth"), [("basic", 1), ("superior", 2)])
def test_a_stealth_card_adds_its_levels_stealth_when_it_is_needed(start: SimTable, level: str, stealth: int) -> None:
    t = copy_table(start)
    ana, _ = bleed_and_block(t)
    offered = plays(t, ana, "Lost in Crowds")
    assert sorted(a["stealth"] for a in offered) == [1, 2]  # a superior vampire may play either level
    chosen = next(a for a in offered if a["stealth"] == stealth)
    notes = t.play(ana, chosen)
    t.run_ops()
    assert numbers(t)[0] == stealth
    said = [n.render([f"seat {s}" for s in range(4)]) for n in notes]
    assert f"Lost in Crowds: stealth +{stealth} → {stealth}" in said


def test_stealth_that_is_not_needed_is_not_offered(start: SimTable) -> None:
    t = copy_table(start)
    ana, ben = seats(t)
    act(t, ana, "action", kind="bleed", minion=vampire(t, ana), target=ben)
    assert plays(t, ana, "Lost in Crowds") == []  # no block attempt: no stealth is needed (4.3)


def test_an_intercept_card_adds_intercept_for_the_blocker(start: SimTable) -> None:
    t = copy_table(start)
    ana, ben = bleed_and_block(t)
    stealthy = next(a for a in plays(t, ana, "Lost in Crowds") if a["stealth"] == 2)
    act(t, ana, "play", **{k: v for k, v in stealthy.items() if k != "do"})
    act(t, ana, "pass")
    offered = plays(t, ben, "Telepathic Misdirection")
    assert [a["intercept"] for a in offered] == [1]  # Arika has Auspex at basic only
    assert offered[0]["minion"] == vampire(t, ben)
    t.play(ben, offered[0])
    t.run_ops()
    assert numbers(t)[:2] == (2, 1)
    assert plays(t, ben, "Patrol") == []  # it requires Flight, which Arika has not


@pytest.mark.parametrize(("level", "amount"), [("basic", 2), ("superior", 3)])
def test_a_limited_bleed_card_adds_its_levels_bleed_once(start: SimTable, level: str, amount: int) -> None:
    t = copy_table(start)
    ana, ben = seats(t)
    act(t, ana, "action", kind="bleed", minion=vampire(t, ana), target=ben)
    view = t.view(ana)
    card = next(c for c in view.hand if c.name == "Conditioning")
    chosen = pick(window_choices(view, card), level)
    assert chosen is not None and chosen.superior == (level == "superior")
    before = next(c.counters for c in t.view(ana).cards if c.as_list() == vampire(t, ana))
    t.play(ana, {"do": "play", "card": card.as_list(), **chosen.act_fields()})
    t.run_ops()
    assert numbers(t)[2] == 1 + amount
    after = next(c.counters for c in t.view(ana).cards if c.as_list() == vampire(t, ana))
    assert before - after == 1  # Conditioning's printed cost: 1 blood from the acting vampire
    assert t.state.open_action is not None and t.state.open_action.bleed_mods == 1


def declined_bleed(t: SimTable) -> tuple[int, int]:
    """Ana's vampire bleeds Ben; Ben declines to block; every Methuselah passes up to Ben's
    impulse in window C (blocks declined)."""
    ana, ben = seats(t)
    act(t, ana, "action", kind="bleed", minion=vampire(t, ana), target=ben)
    act(t, ana, "pass")
    act(t, ben, "pass")  # declines to block
    for _ in range(8):
        a = t.state.open_action
        assert a is not None
        if a.window == "C" and a.impulse == ben:
            return ana, ben
        act(t, a.impulse, "pass")
    raise AssertionError("the impulse never reached Ben in window C")


def test_deflection_is_offered_once_blocks_are_declined_with_its_cost_and_each_target(start: SimTable) -> None:
    t = copy_table(start)
    ana, ben = bleed_and_block(t)
    assert plays(t, ben, "Deflection") == []  # during a block attempt the target is fixed (4.4)
    t = copy_table(start)
    ana, ben = declined_bleed(t)
    offered = plays(t, ben, "Deflection")
    others = sorted(s for s in range(4) if s not in (ana, ben))
    assert sorted({a["target"] for a in offered}) == others  # another than the acting Methuselah and Ben
    assert all(a["blood"] == 1 and a["minion"] == vampire(t, ben) for a in offered)  # its printed cost, paid
    assert {bool(a.get("lock")) for a in offered} == {True, False}  # [dom] locks, [DOM] does not


@pytest.mark.parametrize(("level", "locked"), [("basic", True), ("superior", False)])
def test_deflection_redirects_the_bleed_and_locks_the_reacting_vampire_at_basic(
    start: SimTable, level: str, locked: bool
) -> None:
    t = copy_table(start)
    ana, ben = declined_bleed(t)
    view = t.view(ben)
    card = next(c for c in view.hand if c.name == "Deflection")
    cy = next(s for s in range(4) if s not in (ana, ben))
    choice = pick([c for c in window_choices(view, card) if dict(c.fields)["target"] == cy], level)
    assert choice is not None
    notes = t.play(ben, {"do": "play", "card": card.as_list(), **choice.act_fields()})
    t.run_ops()
    a = t.state.open_action
    assert a is not None and a.targets == (cy,) and a.window == "A" and a.declined == ()  # blocking reopens
    mine = next(c for c in t.view(ben).cards if c.as_list() == vampire(t, ben))
    assert mine.locked == locked
    said = [n.render([f"seat {s}" for s in range(4)]) for n in notes]
    assert any(line.startswith("Deflection: the target is now seat") for line in said), said
    assert any(line.startswith("Deflection: ") and line.endswith(" locks") for line in said) == locked, said


def test_a_redirect_and_a_lock_outside_an_action_are_refused(start: SimTable) -> None:
    t = copy_table(start)
    ana, _ = seats(t)
    card = next(c.as_list() for c in t.view(ana).hand if c.name == "Deflection")
    with pytest.raises(IllegalMove, match="there is no open action for this card to change"):
        t.play(ana, {"do": "play", "card": card, "lock": True, "minion": vampire(t, ana)})


def test_a_level_the_card_cannot_be_played_at_is_a_sentence(start: SimTable) -> None:
    t = copy_table(start)
    ana, ben = bleed_and_block(t)
    view = t.view(ben)
    card = next(c for c in view.hand if c.name == "Telepathic Misdirection")
    with pytest.raises(LevelError, match="cannot be played at superior"):
        pick(window_choices(view, card), "superior")


def test_replaying_the_acts_gives_the_same_state(start: SimTable) -> None:
    t, again = copy_table(start), copy_table(start)
    done: list[tuple[int, Act]] = []
    ana, ben = seats(t)
    for seat, chosen in (
        (ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben}),
        (ana, {"do": "pass"}),
        (ben, {"do": "block", "minion": vampire(t, ben)}),
    ):
        t.play(seat, chosen)
        t.run_ops()
        done.append((seat, chosen))
    for seat, name in ((ana, "Lost in Crowds"), (ana, "pass"), (ben, "Telepathic Misdirection")):
        chosen = {"do": "pass"} if name == "pass" else plays(t, seat, name)[-1]
        t.play(seat, chosen)
        t.run_ops()
        done.append((seat, chosen))
    for seat, chosen in done:
        again.play(seat, chosen)
        again.run_ops()
    assert again.state == t.state


def test_a_reaction_the_blocker_has_played_is_not_offered_to_it_again() -> None:
    """Each minion plays a card at most once per action (2.1): once Ben's blocker has played its
    Enhanced Senses (+1 intercept, the blocker's), the second copy is not offered with it, though
    Ben has another ready vampire (the offers and the table agree)."""
    t = one_vampire_table("Anson", (("Enhanced Senses", 2), ("Lost in Crowds", 5)), seed=5)
    ana, ben = seats(t)
    second = next(c for c in t.state.cards if c.owner == ben and c.zone == "uncontrolled")
    # A second Anson of Ben's own would be burned (rulebook, "Contested Cards"): put in play by
    # hand, a position no act reaches, for a minion with the same Disciplines.
    first = next(c for c in t.state.cards if c.owner == ben and c.zone == "ready")
    cards = tuple(
        dataclasses.replace(c, zone=first.zone, card=first.card, counters=2) if c.pos == second.pos else c
        for c in t.state.cards
    )
    t.state = dataclasses.replace(t.state, cards=cards)
    blocker = vampire(t, ben)
    act(t, ana, "action", kind="bleed", minion=vampire(t, ana), target=ben)
    act(t, ana, "pass")
    act(t, ben, "block", minion=blocker)

    def stealth_then_to_ben() -> None:
        by_hand(t, ana, "adjust", stealth=1, cause="a card")  # intercept is needed again
        while t.state.open_action is not None and t.state.open_action.impulse != ben:
            act(t, t.state.open_action.impulse, "pass")

    stealth_then_to_ben()
    once = plays(t, ben, "Enhanced Senses")
    assert once and all(a["minion"] == blocker for a in once)
    t.play(ben, once[0])
    t.run_ops()
    stealth_then_to_ben()
    # Intercept is the blocker's: its second copy is not offered (the blocker played one), and
    # the table refuses it with the rule's sentence.
    assert plays(t, ben, "Enhanced Senses") == []
    card = next(c.as_list() for c in t.view(ben).hand if c.name == "Enhanced Senses")
    with pytest.raises(IllegalMove):
        t.play(ben, {"do": "play", "card": card, "minion": blocker, "intercept": 1})


def test_the_play_command_names_the_new_target_and_the_level() -> None:
    from tui.games.vtes.commands import CommandError, Context, parse

    t = one_vampire_table("Arika", LIBRARY, seed=5)
    ana, ben = declined_bleed(t)
    names = ["Ana", "Ben", "Cy", "Dee"]
    cy = next(s for s in range(4) if s not in (ana, ben))
    ctx = Context(t.view(ben), names)
    chosen = parse(f"play Deflection to {names[cy]} superior", ctx)
    assert (chosen["target"], "lock" in chosen) == (cy, False)
    assert parse(f"play Deflection to {names[cy]} basic", ctx)["lock"] is True
    with pytest.raises(CommandError, match=f"Deflection cannot make {names[ana]} the bleed's target now"):
        parse(f"play Deflection to {names[ana]}", ctx)
    t.play(ben, chosen)
    t.run_ops()
    assert t.state.open_action is not None and t.state.open_action.targets == (cy,)


def test_a_reaction_only_usable_by_a_locked_minion_is_played_by_a_locked_one() -> None:
    """Eluding the Arms of Morpheus ("Only usable by a locked vampire"): offered to, and taken
    from, Ben's locked vampire during Ana's bleed; an unlocked one may not play it."""
    t = one_vampire_table("Arika", (("Eluding the Arms of Morpheus", 2), ("Lost in Crowds", 5)), seed=5)
    ana, ben = seats(t)
    marek = vampire(t, ben)
    card = next(c.as_list() for c in t.view(ben).hand if c.name == "Eluding the Arms of Morpheus")
    with pytest.raises(IllegalMove, match="needs a ready locked minion of yours"):
        act(t, ana, "action", kind="bleed", minion=vampire(t, ana), target=ben)
        act(t, ana, "pass")
        t.play(ben, {"do": "play", "card": card, "minion": marek})
    t = one_vampire_table("Arika", (("Eluding the Arms of Morpheus", 2), ("Lost in Crowds", 5)), seed=5)
    act(t, ben, "lock", cards=[marek])
    act(t, ana, "action", kind="bleed", minion=vampire(t, ana), target=ben)
    act(t, ana, "pass")
    offered = plays(t, ben, "Eluding the Arms of Morpheus")
    assert offered and all(a.get("minion", marek) == marek for a in offered)
    t.play(ben, offered[0])


def test_lost_in_crowds_and_into_thin_air_cannot_both_be_played_in_one_action() -> None:
    t = one_vampire_table("Arika", (("Lost in Crowds", 2), ("Into Thin Air", 2), ("Deflection", 3)), seed=5)
    ana, _ = bleed_and_block(t)
    crowds = next(a for a in plays(t, ana, "Lost in Crowds") if a["stealth"] == 1)
    t.play(ana, crowds)
    t.run_ops()
    assert plays(t, ana, "Into Thin Air") == []  # not offered
    thin_air = next(c.as_list() for c in t.view(ana).hand if c.name == "Into Thin Air")
    with pytest.raises(IllegalMove, match="Into Thin Air and Lost in Crowds cannot both be played during the same"):
        t.play(ana, {"do": "play", "card": thin_air, "stealth": 1})


def _two_vampires_table(library: tuple[tuple[str, int], ...]) -> tuple[SimTable, list[int], list[int], list[int]]:
    """Every crypt four each of Arika (obf at superior), Colette (OBF) and Gathii; the first seed
    that deals Ana an Arika and a Colette, and Ben a Gathii, in their uncontrolled regions: Ana
    moves both to her ready region with 3 blood each, Ben his Gathii with 1; Ana is in her minion
    phase. Returns the table, Arika's, Colette's and Gathii's positions."""
    base = card_base()
    ids = tuple(sorted((base.lookup(n).id, 4) for n in ("Arika", "Colette (G6)", "Gathii (G7)")))  # type: ignore[union-attr]
    for seed in range(1, 80):
        t = vtes_table([deck_of(Deck("three", ids, ()), *library) for _ in range(4)], {"library_size": False}, seed)
        ana, ben = t.state.seating[:2]

        def find(seat: int, name: str) -> list[int] | None:
            return next((c.as_list() for c in t.view(seat).uncontrolled(seat) if c.name.startswith(name)), None)

        arika, colette, gathii = find(ana, "Arika"), find(ana, "Colette"), find(ben, "Gathii")
        if arika is None or colette is None or gathii is None:
            continue
        for seat, pos, blood in ((ana, arika, 3), (ana, colette, 3), (ben, gathii, 1)):
            act(t, seat, "move", cards=[pos], to="ready")
            act(t, seat, "blood", card=pos, delta=blood, cause="effect")
        while t.state.phase != "minion":
            act(t, ana, "phase")
        return t, arika, colette, gathii
    raise AssertionError("no seed dealt the vampires")


def test_veil_the_legions_is_played_by_another_vampire_for_the_acting_minions_stealth() -> None:
    t, arika, colette, gathii = _two_vampires_table((("Veil the Legions", 2), ("Conditioning", 5)))
    ana, ben = t.state.seating[:2]
    act(t, ana, "action", kind="bleed", minion=arika, target=ben)
    act(t, ana, "pass")
    act(t, ben, "block", minion=gathii)
    offered = plays(t, ana, "Veil the Legions")
    assert offered and {tuple(a["minion"]) for a in offered} == {tuple(colette)}  # not the acting Arika
    veil = offered[0]["card"]
    with pytest.raises(IllegalMove, match="only usable by a ready unlocked vampire other than the acting minion"):
        t.play(ana, {"do": "play", "card": veil, "stealth": 1, "minion": arika})
    notes = t.play(ana, offered[0])
    t.run_ops()
    assert numbers(t)[0] == 1
    said = [n.render([f"seat {s}" for s in range(4)]) for n in notes]
    assert "Veil the Legions: stealth +1 → 1" in said


def test_aire_of_elation_adds_its_bleed_and_one_more_only_for_a_toreador() -> None:
    t = one_vampire_table("Arika", (("Aire of Elation", 2), ("Conditioning", 5)), seed=5)
    ana, ben = seats(t)
    act(t, ana, "action", kind="bleed", minion=vampire(t, ana), target=ben)
    offered = plays(t, ana, "Aire of Elation")
    assert sorted(a["amount"] for a in offered) == [1, 2]  # Arika is Ventrue: no Toreador's +1
    toreador = one_vampire_table("Anson", (("Aire of Elation", 2), ("Conditioning", 5)), seed=5)
    ana, ben = seats(toreador)
    act(toreador, ana, "action", kind="bleed", minion=vampire(toreador, ana), target=ben)
    assert sorted(a["amount"] for a in plays(toreador, ana, "Aire of Elation")) == [2, 3]


def test_foreshadowing_destruction_adds_3_at_superior_only_against_9_pool_or_fewer() -> None:
    t = one_vampire_table("Arika", (("Foreshadowing Destruction", 2), ("Conditioning", 5)), seed=5)
    ana, ben = seats(t)
    act(t, ana, "action", kind="bleed", minion=vampire(t, ana), target=ben)
    assert sorted(a["amount"] for a in plays(t, ana, "Foreshadowing Destruction")) == [1]  # Ben has 30 pool
    act(t, ben, "pool", delta=9 - t.state.players[ben].pool, cause="test")
    assert sorted(a["amount"] for a in plays(t, ana, "Foreshadowing Destruction")) == [1, 3]


def test_a_modifier_only_usable_during_a_bleed_is_refused_in_another_action_with_its_sentence(start: SimTable) -> None:
    t = copy_table(start)
    ana, _ = seats(t)
    act(t, ana, "action", kind="hunt", minion=vampire(t, ana))
    assert plays(t, ana, "Conditioning") == []
    card = next(c.as_list() for c in t.view(ana).hand if c.name == "Conditioning")
    with pytest.raises(IllegalMove) as refused:
        act(t, ana, "play", card=card)
    assert (
        'Conditioning says "Only usable during a bleed action", and this action does not meet it (Arika (G2) hunts'
        in str(refused.value)
    )


def test_a_modifier_not_usable_during_a_bleed_fits_a_hunt_and_is_refused_in_a_bleed() -> None:
    labyrinth = record(next(i.id for i in card_base().every_info() if i.name == "Forgotten Labyrinth"))
    assert labyrinth is not None
    assert unmet_condition(labyrinth, Action(0, (1, 0), ActionKind.HUNT)) is None
    assert unmet_condition(labyrinth, Action(0, (1, 0), ActionKind.BLEED)) == "Not usable during a bleed action"
    t = one_vampire_table("Arika", (("Forgotten Labyrinth", 2), ("Conditioning", 5)), seed=5)
    ana, ben = seats(t)
    act(t, ana, "action", kind="bleed", minion=vampire(t, ana), target=ben)
    card = next(c.as_list() for c in t.view(ana).hand if c.name == "Forgotten Labyrinth")
    assert plays(t, ana, "Forgotten Labyrinth") == []
    with pytest.raises(IllegalMove, match='says "Not usable during a bleed action"'):
        act(t, ana, "play", card=card)


def _replayed(start: SimTable, t: SimTable, done: list[tuple[int, Act]]) -> None:
    """The acts ``done`` from ``start`` fold to the state of ``t``."""
    again = copy_table(start)
    for seat, chosen in done:
        again.play(seat, chosen)
        again.run_ops()
    assert again.state == t.state


def _attempt(t: SimTable) -> tuple[int, int, list[tuple[int, Act]]]:
    """Ana's vampire bleeds Ben, whose vampire attempts to block (stealth 0, intercept 0): the acts."""
    ana, ben = seats(t)
    done: list[tuple[int, Act]] = [
        (ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben}),
        (ana, {"do": "pass"}),
        (ben, {"do": "block", "minion": vampire(t, ben)}),
    ]
    for seat, chosen in done:
        act(t, seat, chosen["do"], **{k: v for k, v in chosen.items() if k != "do"})
    return ana, ben, done


def test_elder_impersonation_at_superior_makes_the_attempt_fail_and_bars_the_blocker() -> None:
    start = one_vampire_table("Arika", (("Elder Impersonation", 2), ("Conditioning", 5)), seed=5)
    t = copy_table(start)
    ana, ben, done = _attempt(t)
    offered = plays(t, ana, "Elder Impersonation")
    assert sorted(bool(a.get("fail_block")) for a in offered) == [False, True]  # +1 stealth, or the attempt fails
    chosen = next(a for a in offered if a.get("fail_block"))
    notes = t.play(ana, chosen)
    t.run_ops()
    done.append((ana, chosen))
    a = t.state.open_action
    assert a is not None and a.window == "A" and not a.blocker and a.barred == (tuple(vampire(t, ben)),)
    said = [n.render([f"seat {s}" for s in range(4)]) for n in notes]
    assert any(line.startswith("Elder Impersonation: the block by Arika") and "cannot attempt" in line for line in said)
    _replayed(start, t, done)
    act(t, ana, "pass")
    assert not any(o["do"] == "block" for o in VTES.legal_acts(t.view(ben)))
    with pytest.raises(IllegalMove, match="cannot attempt to block this action: a card played in it says so"):
        act(t, ben, "block", minion=vampire(t, ben))


def test_a_bot_makes_the_block_attempt_fail_before_adding_stealth_or_bleed() -> None:
    t = one_vampire_table("Arika", (("Elder Impersonation", 2), ("Conditioning", 5)), seed=5)
    ana, _, _ = _attempt(t)
    view = t.view(ana)
    chosen = VtesBot(Deck("none", (), ()), 0).choose(view, VTES.legal_acts(view))
    assert chosen is not None and chosen.get("fail_block") is True


def test_elder_impersonation_is_not_offered_without_a_block_attempt() -> None:
    t = one_vampire_table("Arika", (("Elder Impersonation", 2), ("Conditioning", 5)), seed=5)
    ana, ben = seats(t)
    act(t, ana, "action", kind="bleed", minion=vampire(t, ana), target=ben)
    assert plays(t, ana, "Elder Impersonation") == []
    card = next(c.as_list() for c in t.view(ana).hand if c.name == "Elder Impersonation")
    with pytest.raises(IllegalMove, match="no block attempt is under way"):
        act(t, ana, "play", card=card, fail_block=True)


def test_call_of_the_hungry_dead_lowers_intercept_at_basic() -> None:
    start = one_vampire_table("Accorri Giovanni", (("Call of the Hungry Dead", 2), ("Conditioning", 5)), seed=5)
    t = copy_table(start)
    ana, _, done = _attempt(t)
    offered = plays(t, ana, "Call of the Hungry Dead")
    assert [(a.get("intercept"), a.get("fail_block")) for a in offered] == [(-1, None)]  # basic Necromancy only
    notes = t.play(ana, offered[0])
    t.run_ops()
    done.append((ana, offered[0]))
    assert numbers(t)[:2] == (0, -1)
    said = [n.render([f"seat {s}" for s in range(4)]) for n in notes]
    assert "Call of the Hungry Dead: intercept -1 → -1" in said
    _replayed(start, t, done)


def test_call_of_the_hungry_dead_at_superior_burns_a_blood_to_make_the_attempt_fail() -> None:
    start = one_vampire_table("Ambrogino Giovanni", (("Call of the Hungry Dead", 2), ("Conditioning", 5)), seed=5)
    t = copy_table(start)
    ana, ben, done = _attempt(t)
    chosen = next(a for a in plays(t, ana, "Call of the Hungry Dead") if a.get("fail_block"))
    assert (chosen["blood"], chosen["minion"]) == (1, vampire(t, ana))

    def blood() -> int:
        card = t.view(ana).card(tuple(vampire(t, ana)))
        assert card is not None
        return card.counters

    before = blood()
    t.play(ana, chosen)
    t.run_ops()
    done.append((ana, chosen))
    a = t.state.open_action
    assert a is not None and a.window == "A" and a.barred == (tuple(vampire(t, ben)),)
    assert blood() == before - 1
    _replayed(start, t, done)


def test_faceless_night_at_superior_locks_the_minion_whose_attempt_failed_before_resolution() -> None:
    start = one_vampire_table("Arika", (("Faceless Night", 2), ("Conditioning", 5)), seed=5)
    t = copy_table(start)
    ana, ben, done = _attempt(t)
    offered = plays(t, ana, "Faceless Night")
    assert sorted((a["stealth"], bool(a.get("lock_failed"))) for a in offered) == [(1, False), (1, True)]
    chosen = next(a for a in offered if a.get("lock_failed"))
    t.play(ana, chosen)
    t.run_ops()
    done.append((ana, chosen))
    _replayed(start, t, done)
    notes = []
    while (a := t.state.open_action) is not None:  # the attempt fails (stealth 1), then all pass
        notes += t.play(a.impulse, {"do": "pass"})
        t.run_ops()
    blocker = t.view(ben).card(tuple(vampire(t, ben)))
    assert blocker is not None and blocker.locked
    said = [n.render([f"seat {s}" for s in range(4)]) for n in notes]
    assert any(s.startswith("Before the action resolves, Arika") and "lock" in s for s in said), said


def test_seduction_bars_a_younger_vampire_at_basic_and_any_at_superior_as_the_action_is_announced() -> None:
    t, arika, _, gathii = _two_vampires_table((("Seduction", 2), ("Conditioning", 5)))
    ana, ben = t.state.seating[:2]
    act(t, ana, "action", kind="bleed", minion=arika, target=ben)
    offered = plays(t, ana, "Seduction")
    assert [a["bar"] for a in offered] == [gathii]  # Gathii is younger than Arika: either level bars him
    view = t.view(ana)
    card = next(c for c in view.hand if c.name == "Seduction")
    assert sorted(c.superior for c in window_choices(view, card)) == [False]  # one choice, basic kept first
    notes = t.play(ana, offered[0])
    t.run_ops()
    said = [n.render([f"seat {s}" for s in range(4)]) for n in notes]
    assert any(s.startswith("Seduction: Gathii") and s.endswith("cannot block this action") for s in said), said
    act(t, ana, "pass")
    assert not [a for a in VTES.legal_acts(t.view(ben)) if a["do"] == "block"]
    with pytest.raises(IllegalMove, match="cannot attempt to block this action: a card played in it says so"):
        act(t, ben, "block", minion=gathii)


def test_seduction_at_basic_finds_no_younger_vampire_among_equals_and_waits_for_no_attempt() -> None:
    t = one_vampire_table("Arika", (("Seduction", 2), ("Conditioning", 5)), seed=5)
    ana, ben = seats(t)
    act(t, ana, "action", kind="bleed", minion=vampire(t, ana), target=ben)
    view = t.view(ana)
    card = next(c for c in view.hand if c.name == "Seduction")
    choices = window_choices(view, card)  # Ben's Arika is not younger than Ana's: the superior level only
    assert [(dict(c.fields)["bar"], c.superior) for c in choices] == [(tuple(vampire(t, ben)), True)]
    act(t, ana, "pass")
    act(t, ben, "block", minion=vampire(t, ben))
    assert plays(t, ana, "Seduction") == []  # "Only usable as the action is announced"


def test_daring_the_dawn_bars_every_vampire_from_blocking() -> None:
    start = one_vampire_table("Arika", (("Daring the Dawn", 2), ("Conditioning", 5)), seed=5)
    t = copy_table(start)
    ana, ben = seats(t)
    done: list[tuple[int, Act]] = [(ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})]
    act(t, ana, "action", kind="bleed", minion=vampire(t, ana), target=ben)
    offered = plays(t, ana, "Daring the Dawn")
    assert offered and all(a["bar_vampires"] is True for a in offered)
    t.play(ana, offered[0])
    t.run_ops()
    done.append((ana, offered[0]))
    _replayed(start, t, done)
    act(t, ana, "pass")
    assert not [a for a in VTES.legal_acts(t.view(ben)) if a["do"] == "block"]
    with pytest.raises(IllegalMove, match="is a vampire, and a card played in this action says vampires cannot"):
        act(t, ben, "block", minion=vampire(t, ben))


def test_change_of_target_ends_a_blocked_action_before_combat_and_unlocks_the_acting_minion() -> None:
    start = one_vampire_table("Arika", (("Change of Target", 2), ("Conditioning", 5)), seed=5)
    t = copy_table(start)
    ana, ben, done = _attempt(t)
    offered = plays(t, ana, "Change of Target")
    assert [(a["end_action"], a["unlock_actor"]) for a in offered] == [(True, True)]
    notes = t.play(ana, offered[0])
    t.run_ops()
    done.append((ana, offered[0]))
    assert t.state.open_action is None and t.state.open_combat is None
    acting = t.view(ana).card(tuple(vampire(t, ana)))
    blocker = t.view(ben).card(tuple(vampire(t, ben)))
    assert acting is not None and not acting.locked and blocker is not None and not blocker.locked
    said = [n.render([f"seat {s}" for s in range(4)]) for n in notes]
    assert any(s.startswith("Change of Target ends") and "unsuccessfully" in s for s in said), said
    _replayed(start, t, done)


def test_change_of_target_waits_for_a_block_that_would_succeed() -> None:
    t = one_vampire_table("Arika", (("Change of Target", 2), ("Lost in Crowds", 5)), seed=5)
    ana, _, _ = _attempt(t)
    act(t, ana, "play", **{k: v for k, v in plays(t, ana, "Lost in Crowds")[0].items() if k != "do"})
    assert plays(t, ana, "Change of Target") == []  # stealth above intercept: the block would fail
    card = next(c.as_list() for c in t.view(ana).hand if c.name == "Change of Target")
    with pytest.raises(IllegalMove, match="ends an action as a block attempt would succeed"):
        act(t, ana, "play", card=card, end_action=True)


def test_obedience_needs_a_younger_acting_vampire_and_keeps_it_locked_at_superior() -> None:
    t = one_vampire_table("Arika", (("Obedience", 2), ("Conditioning", 5)), seed=5)
    ana, ben, _ = _attempt(t)
    act(t, ana, "pass")
    assert plays(t, ben, "Obedience") == []  # Ana's Arika is as old as Ben's
    obedience = record(next(i.id for i in card_base().every_info() if i.name == "Obedience"))
    assert obedience is not None
    ends = {c.levels: [e.whom for e in c.effects if e.kind == "end action"] for c in obedience.clauses if c.levels}
    assert ends == {("dom",): ["unlock"], ("DOM",): [""]}  # "As above, but do not unlock the acting vampire"
