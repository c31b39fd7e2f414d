"""Lasting effects of cards in play, applied by the table where they count (rulebook, "Master
Cards", "Retainers"): Information Highway ("+2 transfers"), played in the master phase, adds 2
transfers to its controller's influence phase (after the minion phase); a retainer whose text says "The employer gets +1
intercept" (Mr. Winthrop, Raven Spy) adds its intercept to the block attempt of the minion it is
on, narrated with its name; The Parthenon, locked in its controller's master phase (offered
there, once: it stays locked), gives one more master phase action, and nothing at another
moment; Dreams of the Sphinx, locked, adds 1 blood in the uncontrolled region or (in the unlock
phase, with the Edge) 1 pool, takes a counter and burns with three; The Coven, locked, adds 2 blood
to a ready vampire of its controller. The log replays to the same state.

Every crypt is twelve Arika (contested copies turned face up by hand)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.games.vtes.vocab import Phase
from engine.sim import SimTable
from tests.support.vtes_sim import act, card_plays, copy_table, first_vampire, one_vampire_table, played, settle

LIBRARY = (("Information Highway", 1), ("Mr. Winthrop", 1), ("Raven Spy", 1), ("Lost in Crowds", 2))


def said(t: SimTable) -> list[str]:
    return [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in t.notes]


def assert_replays(start: SimTable, t: SimTable, done: list[tuple[int, Act]]) -> None:
    """The acts ``done`` (seat, act) played again from ``start``, as a log's replay, reach ``t``'s state."""
    again = copy_table(start)
    for seat, a in done:
        played(again, seat, a)
    assert again.state == t.state


def test_information_highway_adds_two_transfers_to_the_influence_phase() -> None:
    start = one_vampire_table("Arika", LIBRARY, seed=5, phase="master")
    t = copy_table(start)
    ana = t.state.acting
    (play,) = card_plays(t, ana, "Information Highway")
    done: list[Act] = [play, {"do": "phase"}, {"do": "phase"}]  # the minion phase, the influence phase
    for a in done:
        played(t, ana, a)
    assert t.state.phase == "influence"
    assert t.state.transfers == 1 + 2  # the first player's first turn: 1 transfer (rulebook), +2
    assert any(s.endswith("influence phase, 3 transfers; Information Highway: +2 transfers") for s in said(t)), said(t)
    assert_replays(start, t, [(ana, a) for a in done])


def test_without_the_card_the_influence_phase_has_its_usual_transfers() -> None:
    t = one_vampire_table("Arika", LIBRARY, seed=5, phase="master")
    act(t, t.state.acting, "phase")
    act(t, t.state.acting, "phase")
    assert t.state.transfers == 1


def blocked_with(start: SimTable, card: str) -> tuple[SimTable, list[tuple[int, Act]]]:
    """Ben's first vampire, with the card ``card`` of his hand put on it, blocks Ana's bleed at
    +1 stealth; ``start`` gets the card moved, the copy returned the bleed and block, with the acts."""
    ana = start.state.acting
    ben = start.view(ana).players[ana].prey
    held = next(c.as_list() for c in start.view(ben).hand if c.name == card)
    act(start, ben, "move", cards=[held], to="on", on=first_vampire(start, ben), no_replace=True)
    t = copy_table(start)
    done: list[tuple[int, Act]] = [
        (ana, {"do": "action", "kind": "bleed", "minion": first_vampire(t, ana), "target": ben, "stealth": 1}),
        (ana, {"do": "pass"}),
        (ben, {"do": "block", "minion": first_vampire(t, ben)}),
    ]
    for seat, a in done:
        played(t, seat, a)
    return t, done


def test_a_retainer_gives_its_employer_intercept_as_it_attempts_to_block() -> None:
    start = one_vampire_table("Arika", LIBRARY, seed=5)
    t, done = blocked_with(start, "Mr. Winthrop")
    action = t.state.open_action
    assert action is not None and action.intercept == 1 and action.stealth == 1
    assert any(s.startswith("Mr. Winthrop: +1 intercept to Arika") for s in said(t)), said(t)
    assert_replays(start, t, done)


def test_a_minion_with_no_such_card_blocks_with_the_intercept_it_is_given() -> None:
    t = one_vampire_table("Arika", LIBRARY, seed=5)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    act(t, ana, "action", kind="bleed", minion=first_vampire(t, ana), target=ben, stealth=1)
    act(t, ana, "pass")
    act(t, ben, "block", minion=first_vampire(t, ben))
    action = t.state.open_action
    assert action is not None and action.intercept == 0


PARTHENON = (("The Parthenon", 1), ("Information Highway", 1), ("Minion Tap", 2))


def test_the_parthenon_locked_in_the_master_phase_gives_one_more_master_phase_action() -> None:
    start = one_vampire_table("Arika", PARTHENON, seed=5, blood=(7, 2, 2, 2), phase="master")
    t = copy_table(start)
    ana = t.state.acting
    (play,) = card_plays(t, ana, "The Parthenon")
    played(t, ana, play)
    parthenon = next(c for c in t.view(ana).cards if c.name == "The Parthenon")
    assert parthenon.zone == "ready" and not parthenon.locked
    assert card_plays(t, ana, "Information Highway") == []  # the one master phase action is used
    lock = {"do": "lock", "cards": [parthenon.as_list()]}
    assert lock in VTES.legal_acts(t.view(ana))
    played(t, ana, lock)
    assert any(s.startswith("The Parthenon: +1 master phase action") for s in said(t)), said(t)
    assert lock not in VTES.legal_acts(t.view(ana))  # locked: once a turn
    (highway,) = card_plays(t, ana, "Information Highway")
    played(t, ana, highway)
    assert card_plays(t, ana, "Minion Tap") == []  # and no third
    assert_replays(start, t, [(ana, a) for a in (play, lock, highway)])


def test_the_parthenon_locked_outside_the_master_phase_gives_nothing() -> None:
    t = one_vampire_table("Arika", PARTHENON, seed=5, phase="master")
    ana = t.state.acting
    (play,) = card_plays(t, ana, "The Parthenon")
    played(t, ana, play)
    act(t, ana, "phase")  # the minion phase
    parthenon = next(c for c in t.view(ana).cards if c.name == "The Parthenon")
    assert {"do": "lock", "cards": [parthenon.as_list()]} not in VTES.legal_acts(t.view(ana))
    before = t.state.master_actions
    act(t, ana, "lock", cards=[parthenon.as_list()])
    assert t.state.master_actions == before
    assert not any(s.startswith("The Parthenon: +1") for s in said(t))


ASHUR = (("Ashur Tablets", 4), ("Minion Tap", 1))


def test_the_third_ashur_tablets_removes_every_copy_for_3_pool() -> None:
    """Two copies already in play (moved by hand), and one of Ben's: the third Ana plays removes
    all four from the game and Ana gains 3 pool (her ash heap holds no library card to recover)."""
    start = one_vampire_table("Arika", ASHUR, seed=5, phase="master")
    ana = start.state.acting
    ben = start.view(ana).players[ana].prey
    for seat, n in ((ana, 2), (ben, 1)):
        tablets = [c.as_list() for c in start.view(seat).hand if c.name == "Ashur Tablets"][:n]
        act(start, seat, "move", cards=tablets, to="ready", no_replace=True)
    t = copy_table(start)
    plays = card_plays(t, ana, "Ashur Tablets")
    assert plays and all(a["to"] == "ready" for a in plays)
    pool = t.view(ana).players[ana].pool
    played(t, ana, plays[0])
    assert t.view(ana).players[ana].pool == pool + 3
    left = [c for c in t.view(ana).cards if c.name == "Ashur Tablets" and c.zone.in_play]
    assert left == []
    assert any("Ashur Tablets: 4 copies removed from the game" in s for s in said(t)), said(t)
    assert_replays(start, t, [(ana, plays[0])])


def test_two_ashur_tablets_stay_in_play() -> None:
    t = one_vampire_table("Arika", ASHUR, seed=5, phase="master")
    ana = t.state.acting
    first = next(c.as_list() for c in t.view(ana).hand if c.name == "Ashur Tablets")
    act(t, ana, "move", cards=[first], to="ready", no_replace=True)
    pool = t.view(ana).players[ana].pool
    played(t, ana, card_plays(t, ana, "Ashur Tablets")[0])
    assert t.view(ana).players[ana].pool == pool
    assert len([c for c in t.view(ana).cards if c.name == "Ashur Tablets" and c.zone.in_play]) == 2


VILLEIN = (("Villein", 2), ("Minion Tap", 1))


def test_a_villein_in_play_makes_minion_tap_and_another_villein_on_that_vampire_cost_1_pool() -> None:
    start = one_vampire_table("Arika", VILLEIN, seed=5, blood=(7, 2, 2, 2), phase="master")
    ana = start.state.acting
    arika = first_vampire(start, ana)
    assert all("pool" not in a for a in card_plays(start, ana, "Minion Tap") + card_plays(start, ana, "Villein"))
    first = next(c.as_list() for c in start.view(ana).hand if c.name == "Villein")
    act(start, ana, "move", cards=[first], to="on", on=arika, no_replace=True)
    t = copy_table(start)
    taps = card_plays(t, ana, "Minion Tap")
    assert taps and all(a["pool"] == 1 for a in taps)
    villeins = card_plays(t, ana, "Villein")
    assert villeins and all(a["pool"] == 1 and a["on"] == arika for a in villeins)
    chosen = next(a for a in villeins if a["move_blood"] == 5)
    pool = t.view(ana).players[ana].pool
    played(t, ana, chosen)
    assert t.view(ana).players[ana].pool == pool - 1 + 5
    assert_replays(start, t, [(ana, chosen)])


IMMEDIATE = (("Life in the City", 1), ("Tribute to the Master", 1), ("Effective Management", 1))


def _master_start() -> SimTable:
    return one_vampire_table("Arika", IMMEDIATE, seed=5, blood=(3, 2, 2, 2), phase="master")


def test_life_in_the_city_adds_1_blood_to_a_ready_vampire_of_anyone() -> None:
    start = _master_start()
    ana = start.state.acting
    ben = start.view(ana).players[ana].prey
    t = copy_table(start)
    plays = card_plays(t, ana, "Life in the City")
    targets = {tuple(a["add_to"]) for a in plays}
    assert {tuple(first_vampire(t, ana)), tuple(first_vampire(t, ben))} <= targets
    assert all(a["add_blood"] == 1 for a in plays)
    chosen = next(a for a in plays if a["add_to"] == first_vampire(t, ben))
    played(t, ana, chosen)
    assert next(c for c in t.view(ana).cards if c.as_list() == first_vampire(t, ben)).counters == 3
    assert any(s.startswith("Life in the City: 1 blood added to Arika") for s in said(t)), said(t)
    assert_replays(start, t, [(ana, chosen)])


def _played_alone(name: str) -> tuple[SimTable, SimTable]:
    """The master start, and a copy where its acting Methuselah played ``name`` as offered (one
    way, no choice); the play replays to the same state."""
    start = _master_start()
    ana = start.state.acting
    t = copy_table(start)
    (play,) = card_plays(t, ana, name)
    played(t, ana, play)
    assert_replays(start, t, [(ana, play)])
    return start, t


def test_tribute_to_the_master_moves_1_blood_from_each_ready_vampire_you_control() -> None:
    start, t = _played_alone("Tribute to the Master")
    ana = t.state.acting
    assert t.view(ana).players[ana].pool == start.view(ana).players[ana].pool + 1
    assert next(c for c in t.view(ana).cards if c.as_list() == first_vampire(t, ana)).counters == 2
    assert any(s.startswith("Tribute to the Master: 1 blood moved") for s in said(t)), said(t)


def test_effective_management_moves_the_crypt_top_card_to_the_uncontrolled_region() -> None:
    start, t = _played_alone("Effective Management")
    ana = t.state.acting
    top = start.state.players[ana].crypt[0]
    assert len(t.view(ana).uncontrolled(ana)) == len(start.view(ana).uncontrolled(ana)) + 1
    assert next(c for c in t.state.cards if c.pos == top).zone == "uncontrolled"
    assert any(s.startswith("Effective Management: 1 card of") for s in said(t)), said(t)


DREAMS = (("Dreams of the Sphinx", 1), ("The Coven", 1), ("Minion Tap", 1))


def _dreams_table() -> tuple[SimTable, list[int]]:
    """Ana in her master phase with Dreams of the Sphinx and The Coven in play (moved by hand)."""
    t = one_vampire_table("Arika", DREAMS, seed=5, phase="master")
    ana = t.state.acting
    cards = [c.as_list() for c in t.view(ana).hand if c.name in ("Dreams of the Sphinx", "The Coven")]
    act(t, ana, "move", cards=cards, to="ready", no_replace=True)
    dreams = next(c.as_list() for c in t.view(ana).cards if c.name == "Dreams of the Sphinx")
    return t, dreams


def _uses(t: SimTable, by: list[int]) -> list[Act]:
    """The blood the card ``by`` adds as it is locked (a ``transfer`` naming it)."""
    ana = t.state.acting
    return [a for a in VTES.legal_acts(t.view(ana)) if a.get("by") == by]


def test_dreams_of_the_sphinx_is_locked_to_add_1_blood_in_the_uncontrolled_region_with_a_counter() -> None:
    start, dreams = _dreams_table()
    ana = start.state.acting
    t = copy_table(start)
    offered = _uses(t, dreams)
    waiting = {tuple(c.as_list()) for c in t.view(ana).uncontrolled(ana)}
    assert offered and {tuple(a["card"]) for a in offered} == waiting and all(a["n"] == 1 for a in offered)
    chosen = offered[0]
    blood = next(c.counters for c in t.view(ana).cards if c.as_list() == chosen["card"])
    played(t, ana, chosen)
    assert next(c.counters for c in t.view(ana).cards if c.as_list() == chosen["card"]) == blood + 1
    held = next(c for c in t.view(ana).cards if c.as_list() == dreams)
    assert held.locked and held.counters == 1
    assert any(s.startswith("Dreams of the Sphinx is locked: 1 blood added") for s in said(t)), said(t)
    assert _uses(t, dreams) == []  # locked until its next unlock
    assert_replays(start, t, [(ana, chosen)])


def test_dreams_of_the_sphinx_is_burned_with_its_third_counter() -> None:
    t, dreams = _dreams_table()
    ana = t.state.acting
    act(t, ana, "blood", card=dreams, delta=2, cause="effect")  # two earlier locks
    played(t, ana, _uses(t, dreams)[0])
    assert next(c for c in t.state.cards if list(c.pos) == dreams).zone == "ash"
    assert any(s == "Dreams of the Sphinx has 3 counters and is burned" for s in said(t)), said(t)


def test_dreams_of_the_sphinx_locked_in_the_unlock_phase_with_the_edge_gains_1_pool() -> None:
    t, dreams = _dreams_table()
    ana = t.state.acting
    lock = {"do": "lock", "cards": [dreams]}
    t.state = replace(t.state, phase=Phase.UNLOCK, edge=ana)
    assert lock in VTES.legal_acts(t.view(ana))
    pool = t.view(ana).players[ana].pool
    played(t, ana, lock)
    assert t.view(ana).players[ana].pool == pool + 1
    assert next(c for c in t.view(ana).cards if c.as_list() == dreams).counters == 1
    assert any("holds the Edge and gains 1 pool" in s for s in said(t)), said(t)
    assert t.state.players[ana].hand_size == 7  # the pool, not the hand size


def test_the_coven_is_locked_to_add_2_blood_to_a_ready_vampire_you_control() -> None:
    t, _ = _dreams_table()
    ana = t.state.acting
    coven = next(c.as_list() for c in t.view(ana).cards if c.name == "The Coven")
    (use,) = _uses(t, coven)
    assert use["card"] == first_vampire(t, ana) and use["n"] == 2
    blood = next(c.counters for c in t.view(ana).cards if c.as_list() == use["card"])
    played(t, ana, use)
    assert next(c.counters for c in t.view(ana).cards if c.as_list() == use["card"]) == blood + 2
    with pytest.raises(IllegalMove, match="The Coven is locked"):
        played(t, ana, use)


def test_the_transfer_command_locks_a_card_to_add_its_blood_outside_the_influence_phase() -> None:
    from tui.games.vtes.commands import Context, parse

    t, dreams = _dreams_table()
    ana = t.state.acting
    ctx = Context(t.view(ana), ["Ana", "Ben", "Cy", "Dee"])
    typed = parse("transfer 1", ctx)
    assert typed["by"] == dreams and typed["kind"] == "pool" and typed["n"] == 1
    coven = parse("transfer 2", ctx)
    assert coven["card"] == first_vampire(t, ana) and coven["n"] == 2
    played(t, ana, typed)
    assert next(c for c in t.view(ana).cards if c.as_list() == dreams).locked


def test_powerbase_montreal_adds_1_blood_once_in_the_influence_phase_without_a_transfer() -> None:
    start = one_vampire_table("Arika", (("Powerbase: Montreal", 1), ("Minion Tap", 1)), seed=5, phase="master")
    ana = start.state.acting
    montreal = next(c.as_list() for c in start.view(ana).hand if c.name == "Powerbase: Montreal")
    act(start, ana, "move", cards=[montreal], to="ready", no_replace=True)
    assert _uses(start, montreal) == []  # the master phase: not yet
    act(start, ana, "phase")
    act(start, ana, "phase")  # the influence phase
    t = copy_table(start)
    offered = _uses(t, montreal)
    assert offered and all(a["n"] == 1 for a in offered)
    transfers = t.state.transfers
    blood = next(c.counters for c in t.view(ana).cards if c.as_list() == offered[0]["card"])
    played(t, ana, offered[0])
    assert next(c.counters for c in t.view(ana).cards if c.as_list() == offered[0]["card"]) == blood + 1
    assert t.state.transfers == transfers  # no transfer spent
    assert not next(c for c in t.view(ana).cards if c.as_list() == montreal).locked
    assert _uses(t, montreal) == []  # once a turn
    with pytest.raises(IllegalMove, match="has added its blood this turn already"):
        played(t, ana, offered[0])
    assert any(s.startswith("Powerbase: Montreal: 1 blood added to") for s in said(t)), said(t)
    assert_replays(start, t, [(ana, offered[0])])


def test_anarch_revolt_burns_1_pool_of_a_methuselah_with_no_ready_anarch_as_their_unlock_phase_begins() -> None:
    """Every crypt is twelve Arika (Camarilla, no Anarch); Ana's Anarch Revolt is in play: as Ben's
    turn begins he burns 1 pool; a Methuselah with a ready Anarch (Aisha az-Zahra) burns none."""
    start = one_vampire_table("Arika", (("Anarch Revolt", 1), ("Minion Tap", 1)), seed=5, phase="master")
    ana = start.state.acting
    ben = start.view(ana).players[ana].prey
    revolt = next(c.as_list() for c in start.view(ana).hand if c.name == "Anarch Revolt")
    act(start, ana, "move", cards=[revolt], to="ready", no_replace=True)
    t = copy_table(start)
    pool = t.state.players[ben].pool
    played(t, ana, {"do": "end_turn"})
    assert t.state.acting == ben and t.state.players[ben].pool == pool - 1
    who = ["Ana", "Ben", "Cy", "Dee"][ben]
    assert any(s == f"Anarch Revolt: {who} controls no ready Anarch and burns 1 pool" for s in said(t)), said(t)
    assert_replays(start, t, [(ana, {"do": "end_turn"})])


def test_anarch_revolt_spares_a_methuselah_with_a_ready_anarch() -> None:
    t = one_vampire_table("Aisha az-Zahra", (("Anarch Revolt", 1), ("Minion Tap", 1)), seed=5, phase="master")
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    revolt = next(c.as_list() for c in t.view(ana).hand if c.name == "Anarch Revolt")
    act(t, ana, "move", cards=[revolt], to="ready", no_replace=True)
    pool = t.state.players[ben].pool
    act(t, ana, "end_turn")
    assert t.state.players[ben].pool == pool


def test_fame_makes_its_vampires_controller_burn_3_pool_as_it_goes_to_torpor() -> None:
    start = one_vampire_table("Arika", (("Fame", 1), ("Minion Tap", 1)), seed=5, phase="master")
    ana = start.state.acting
    arika = first_vampire(start, ana)
    fame = next(c.as_list() for c in start.view(ana).hand if c.name == "Fame")
    act(start, ana, "move", cards=[fame], to="on", on=arika, no_replace=True)
    t = copy_table(start)
    pool = t.state.players[ana].pool
    to_torpor: Act = {"do": "move", "cards": [arika], "to": "torpor"}
    played(t, ana, to_torpor)
    assert t.state.players[ana].pool == pool - 3
    assert any(s.startswith("Fame: Arika (G2) goes to torpor") for s in said(t)), said(t)
    assert_replays(start, t, [(ana, to_torpor)])


def test_monastery_of_shadows_gives_1_hand_size_while_in_play() -> None:
    start = one_vampire_table("Arika", (("Monastery of Shadows", 1), ("Minion Tap", 1)), seed=5, phase="master")
    ana = start.state.acting
    size = start.state.players[ana].hand_size
    t = copy_table(start)
    (play,) = card_plays(t, ana, "Monastery of Shadows")
    played(t, ana, play)
    assert t.state.players[ana].hand_size == size + 1
    assert any(s.startswith("Monastery of Shadows: ") and "hand size +1" in s for s in said(t)), said(t)
    assert_replays(start, t, [(ana, play)])
    monastery = next(c.as_list() for c in t.view(ana).cards if c.name == "Monastery of Shadows")
    act(t, ana, "burn", cards=[monastery])
    assert t.state.players[ana].hand_size == size


def test_a_minion_with_pentex_subversion_on_it_cannot_block() -> None:
    t = one_vampire_table("Arika", (("Pentex™ Subversion", 1), ("Minion Tap", 1)), seed=5)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    pentex = next(c.as_list() for c in t.view(ben).hand if c.name == "Pentex™ Subversion")
    act(t, ben, "move", cards=[pentex], to="on", on=first_vampire(t, ben), no_replace=True)
    act(t, ana, "action", kind="bleed", minion=first_vampire(t, ana), target=ben, stealth=1)
    act(t, ana, "pass")
    assert not any(a["do"] == "block" for a in VTES.legal_acts(t.view(ben)))
    with pytest.raises(IllegalMove, match=r"cannot block: Pentex™ Subversion is on it"):
        played(t, ben, {"do": "block", "minion": first_vampire(t, ben)})


def test_jake_washington_is_burned_in_the_unlock_phase_to_add_up_to_4_blood_to_an_empty_ready_vampire() -> None:
    start = one_vampire_table("Arika", (("Jake Washington", 1), ("Minion Tap", 1)), seed=5, blood=(1, 2, 2, 2))
    ana = start.state.acting
    act(start, ana, "blood", card=first_vampire(start, ana), delta=-1, cause="effect")  # no blood left
    jake = next(c.as_list() for c in start.view(ana).hand if c.name == "Jake Washington")
    act(start, ana, "move", cards=[jake], to="ready", no_replace=True)
    assert _uses(start, jake) == []  # the minion phase: not now
    start.state = replace(start.state, phase=Phase.UNLOCK)
    t = copy_table(start)
    offered = _uses(t, jake)
    assert offered and all(a["n"] == 4 for a in offered)
    chosen = next(a for a in offered if a["card"] == first_vampire(t, ana))
    played(t, ana, chosen)
    assert next(c.counters for c in t.view(ana).cards if c.as_list() == first_vampire(t, ana)) == 4
    assert next(c for c in t.state.cards if list(c.pos) == jake).zone == "ash"
    assert any(s.startswith("Jake Washington is burned: 4 blood added to Arika") for s in said(t)), said(t)
    assert_replays(start, t, [(ana, chosen)])


def test_perfectionist_gives_1_blood_after_a_successful_action_with_no_reaction_played() -> None:
    start = one_vampire_table("Arika", (("Perfectionist", 1), ("Minion Tap", 1)), seed=5)
    ana = start.state.acting
    arika = first_vampire(start, ana)
    perfectionist = next(c.as_list() for c in start.view(ana).hand if c.name == "Perfectionist")
    act(start, ana, "move", cards=[perfectionist], to="on", on=arika, no_replace=True)
    t = copy_table(start)
    ben = t.view(ana).players[ana].prey
    blood = next(c.counters for c in t.view(ana).cards if c.as_list() == arika)
    act(t, ana, "action", kind="bleed", minion=arika, target=ben)
    settle(t)
    assert next(c.counters for c in t.view(ana).cards if c.as_list() == arika) == blood + 1
    assert any(s.startswith("Perfectionist: Arika (G2) gains 1 blood") for s in said(t)), said(t)


def test_liquidation_burns_7_library_cards_for_3_pool() -> None:
    start = one_vampire_table("Arika", (("Liquidation", 1), ("Minion Tap", 13)), seed=5, phase="master")
    ana = start.state.acting
    t = copy_table(start)
    library = t.state.players[ana].library
    assert len(library) >= 7
    (play,) = card_plays(t, ana, "Liquidation")
    pool = t.state.players[ana].pool
    played(t, ana, play)
    t.run_ops()
    assert t.state.players[ana].pool == pool + 3
    assert all(c.zone == "ash" and c.card for c in t.state.cards if c.pos in library[:7])  # face up
    assert any(s.startswith("Liquidation: 7 cards burned from the top of") for s in said(t)), said(t)


@pytest.mark.parametrize(("crypt", "intercept"), [("Arika", 1), ("Tori Longwood (G2)", 0)])
def test_bowl_of_convergence_gives_intercept_to_a_bearer_with_auspex(crypt: str, intercept: int) -> None:
    """Bowl of Convergence: "The bearer with Auspex [aus] gets +1 intercept." Arika (aus) blocks
    with +1; Tori Longwood (no Auspex) with none."""
    start = one_vampire_table(crypt, (("Bowl of Convergence", 1), ("Lost in Crowds", 2)), seed=5)
    t, done = blocked_with(start, "Bowl of Convergence")
    action = t.state.open_action
    assert action is not None and action.intercept == intercept
    assert any(s.startswith("Bowl of Convergence: +1 intercept") for s in said(t)) == bool(intercept), said(t)
    assert_replays(start, t, done)
