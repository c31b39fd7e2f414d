"""Master cards in play whose lasting text the table applies (rulebook, "Master Cards"): Fame on a
vampire in torpor makes every Methuselah burn 1 pool as their unlock phase begins. The log replays
to the same state. Pentex™ Subversion is burned, and Powerbase: Montreal stolen, by a directed
action of a minion its text names against the card's controller; a vampire calls a referendum
that burns Anarch Revolt. The third Ashur Tablets recovers library cards from the ash heap; The
Coven passes to its controller's predator in their discard phase; Misdirection locks the minion its
player chooses; The Barrens is locked to discard a card and draw up. A bot plays, in its master phase, the master cards the table applies that serve
it (a Discipline card on its vampire, a location adding transfers), never one that hurts it or
goes on another's minion. Dreams of the Sphinx, locked, gives 2 hand size until the end of the
turn: its controller draws up at once, and discards down as the turn ends.

Every crypt is twelve Arika (contested copies turned face up by hand)."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.games.vtes.bots import VtesBot
from engine.games.vtes.card_actions import card_action, may_take
from engine.games.vtes.cards import card_base
from engine.sim import SimTable
from tests.support.vtes_sim import (
    act,
    answer_passes,
    card_plays,
    copy_table,
    first_vampire,
    one_vampire_table,
    played,
    replayed,
)

WHO = ["Ana", "Ben", "Cy", "Dee"]


def said(t: SimTable) -> list[str]:
    return [n.render(WHO) for n in t.notes]


def test_fame_on_a_vampire_in_torpor_makes_each_methuselah_burn_1_pool_in_their_unlock_phase() -> None:
    start = one_vampire_table("Arika", (("Fame", 1), ("Minion Tap", 1)), seed=5, phase="master")
    ana = start.state.acting
    ben = start.view(ana).players[ana].prey
    arika = first_vampire(start, ana)
    fame = next(c.as_list() for c in start.view(ana).hand if c.name == "Fame")
    act(start, ana, "move", cards=[fame], to="on", on=arika, no_replace=True)
    act(start, ana, "move", cards=[arika], to="torpor")  # Fame: Ana burns 3 pool
    t = copy_table(start)
    pools = [p.pool for p in t.state.players]
    done: list[tuple[int, Act]] = [(ana, {"do": "end_turn"})]
    played(t, ana, {"do": "end_turn"})
    assert t.state.acting == ben and t.state.players[ben].pool == pools[ben] - 1
    assert f"Fame: Arika (G2) is in torpor, {WHO[ben]} burns 1 pool" in said(t), said(t)
    while t.state.acting != ana:
        done.append((t.state.acting, {"do": "end_turn"}))
        t.play(t.state.acting, {"do": "end_turn"})
    assert [p.pool for p in t.state.players] == [n - 1 for n in pools]  # everyone, Ana too
    assert replayed(start, done).state == t.state


def test_fame_on_a_ready_vampire_burns_no_pool_in_the_unlock_phase() -> None:
    t = one_vampire_table("Arika", (("Fame", 1), ("Minion Tap", 1)), seed=5, phase="master")
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    fame = next(c.as_list() for c in t.view(ana).hand if c.name == "Fame")
    act(t, ana, "move", cards=[fame], to="on", on=first_vampire(t, ana), no_replace=True)
    pool = t.state.players[ben].pool
    act(t, ana, "end_turn")
    assert t.state.players[ben].pool == pool


def _bot_choice(t: SimTable, seat: int) -> Act | None:
    view = t.view(seat)
    return VtesBot(seed=0).choose(view, VTES.legal_acts(view))


def test_a_bot_puts_a_discipline_card_on_its_vampire_in_its_master_phase() -> None:
    t = one_vampire_table("Beetleman", (("Dominate", 1), ("Fame", 1), ("Minion Tap", 1)), seed=5, phase="master")
    ana = t.state.acting
    chosen = _bot_choice(t, ana)
    dominate = next(c.as_list() for c in t.view(ana).hand if c.name == "Dominate")
    assert chosen is not None and chosen["card"] == dominate
    assert chosen["to"] == "on" and chosen["on"] == first_vampire(t, ana)
    played(t, ana, chosen)
    t.run_ops()
    assert _bot_choice(t, ana) == {"do": "phase"}  # its one master phase action is used


def test_a_bot_plays_a_location_that_adds_transfers_and_never_fame_or_pentex() -> None:
    library = (("Information Highway", 1), ("Fame", 1), ("Pentex™ Subversion", 1), ("Anarch Revolt", 1))
    t = one_vampire_table("Arika", library, seed=5, phase="master")
    ana = t.state.acting
    chosen = _bot_choice(t, ana)
    highway = next(c.as_list() for c in t.view(ana).hand if c.name == "Information Highway")
    assert chosen is not None and chosen["card"] == highway and chosen["to"] == "ready"
    played(t, ana, chosen)
    t.run_ops()
    t = one_vampire_table("Arika", library[1:], seed=5, phase="master")
    assert _bot_choice(t, t.state.acting) == {"do": "phase"}


def _bens_card_in_play(name: str, on_his_vampire: bool) -> tuple[SimTable, int, int, list[int]]:
    """A table in Ana's minion phase where her prey Ben has put his card ``name`` in play (on his
    vampire, or in his ready region): the table, Ana's and Ben's seats, the card's position."""
    start = one_vampire_table("Arika", ((name, 1), ("Minion Tap", 1)), seed=5)
    ana = start.state.acting
    ben = start.view(ana).players[ana].prey
    card = next(c.as_list() for c in start.view(ben).hand if c.name == name)
    where = {"to": "on", "on": first_vampire(start, ben)} if on_his_vampire else {"to": "ready"}
    act(start, ben, "move", cards=[card], no_replace=True, **where)
    return start, ana, ben, card


def test_another_minion_burns_pentex_subversion_by_a_directed_action_against_its_controller() -> None:
    start, ana, ben, pentex = _bens_card_in_play("Pentex™ Subversion", on_his_vampire=True)
    t = copy_table(start)
    offered = [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "action" and a.get("card") == pentex]
    (burn,) = offered
    assert burn["minion"] == first_vampire(t, ana) and burn["burn"]
    assert burn["target"] == ben and burn["target_card"] == pentex
    with pytest.raises(IllegalMove, match="gives one action: to burn it"):
        copy_table(t).play(ana, {**burn, "burn": False})
    pool = t.state.players[ana].pool
    played(t, ana, burn)
    assert t.state.open_action is not None and t.state.open_action.targets == (ben,)
    done: list[tuple[int, Act]] = [(ana, burn)]
    while t.state.open_action is not None:
        seat = t.state.open_action.impulse
        done.append((seat, {"do": "pass"}))
        played(t, seat, {"do": "pass"})
    assert next(c for c in t.view(ana).cards if c.as_list() == pentex).zone == "ash"
    assert t.state.players[ana].pool == pool  # the action costs nothing
    assert any("Pentex™ Subversion burns" in s for s in said(t)), said(t)
    assert replayed(start, done).state == t.state


def _id(name: str) -> int:
    found = card_base().lookup(name)
    assert found is not None
    return found.id


def test_who_may_take_a_cards_action_is_as_its_text_says() -> None:
    pentex = card_action(f"{_id('Pentex™ Subversion')}-1")
    haven = card_action(f"{_id('Haven Uncovered')}-1")
    rack = card_action(f"{_id('The Rack')}-1")
    assert pentex is not None and haven is not None and rack is not None
    bearer, other = (4, 0), (5, 0)
    assert not may_take(pentex, bearer, 1, bearer, True, 0) and may_take(pentex, bearer, 1, other, False, 0)
    assert may_take(haven, bearer, 1, bearer, True, 0) and not may_take(haven, bearer, 1, other, True, 0)
    assert haven.amount == 1  # "as a +1 stealth (D) action"
    assert not may_take(rack, (), 1, other, True, 1) and may_take(rack, (), 1, other, True, 0)


def test_a_vampire_steals_powerbase_montreal_by_a_directed_action() -> None:
    start, ana, ben, montreal = _bens_card_in_play("Powerbase: Montreal", on_his_vampire=False)
    t = copy_table(start)
    (steal,) = [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "action" and a.get("card") == montreal]
    assert "burn" not in steal and steal["target"] == ben
    done: list[tuple[int, Act]] = [(ana, steal)]
    played(t, ana, steal)
    while t.state.open_action is not None:
        seat = t.state.open_action.impulse
        done.append((seat, {"do": "pass"}))
        played(t, seat, {"do": "pass"})
    held = next(c for c in t.view(ana).cards if c.as_list() == montreal)
    assert held.zone == "ready" and held.controller == ana
    assert any(s.endswith(f"{WHO[ana]} takes control of Powerbase: Montreal") for s in said(t)), said(t)
    assert replayed(start, done).state == t.state


def test_dreams_of_the_sphinx_locked_gives_2_hand_size_until_the_end_of_the_turn() -> None:
    start = one_vampire_table("Arika", (("Dreams of the Sphinx", 1), ("Minion Tap", 9)), seed=5, phase="master")
    ana = start.state.acting
    dreams = next(c.as_list() for c in start.view(ana).hand if c.name == "Dreams of the Sphinx")
    act(start, ana, "move", cards=[dreams], to="ready")
    t = copy_table(start)
    lock = {"do": "lock", "cards": [dreams]}
    assert lock in VTES.legal_acts(t.view(ana))
    done: list[tuple[int, Act]] = [(ana, lock), (ana, {"do": "end_turn"})]
    act(t, ana, "lock", cards=[dreams])
    assert t.state.players[ana].hand_size == 9 and len(t.view(ana).hand) == 9  # drawn up at once
    assert f"Dreams of the Sphinx: {WHO[ana]}'s hand size +2 until the end of the turn" in said(t), said(t)
    assert next(c for c in t.view(ana).cards if c.as_list() == dreams).counters == 1
    act(t, ana, "end_turn")
    assert t.state.players[ana].hand_size == 7 and len(t.view(ana).hand) == 9
    assert any(s.startswith(f"Dreams of the Sphinx: {WHO[ana]}'s hand size -2 as the turn ends") for s in said(t))
    discards = [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "discard"]
    assert discards  # down to 7, at once (rulebook, "Drawing Cards"), in Ben's turn
    for a in discards[:2]:
        played(t, ana, a)
        done.append((ana, a))
    assert len(t.view(ana).hand) == 7
    assert not any(a["do"] == "discard" for a in VTES.legal_acts(t.view(ana)))
    again = copy_table(start)
    for seat, a in done:
        act(again, seat, a["do"], **{k: v for k, v in a.items() if k != "do"})
    assert again.state == t.state


def test_the_coven_passes_to_its_controllers_predator_in_their_discard_phase() -> None:
    start = one_vampire_table("Arika", (("The Coven", 1), ("Minion Tap", 1)), seed=5, phase="master")
    ana = start.state.acting
    predator = start.view(ana).players[ana].predator
    coven = next(c.as_list() for c in start.view(ana).hand if c.name == "The Coven")
    act(start, ana, "move", cards=[coven], to="ready")
    t = copy_table(start)
    for _ in range(3):  # the minion, influence and discard phases
        act(t, ana, "phase")
    assert next(c for c in t.view(ana).cards if c.as_list() == coven).controller == ana  # during it
    act(t, ana, "end_turn")
    held = next(c for c in t.view(ana).cards if c.as_list() == coven)
    assert held.controller == predator and held.zone == "ready"
    assert f"The Coven: {WHO[predator]} takes control of it (discard phase)" in said(t), said(t)
    done: list[tuple[int, Act]] = [(ana, {"do": "phase"})] * 3 + [(ana, {"do": "end_turn"})]
    assert replayed(start, done).state == t.state


def test_the_third_ashur_tablets_recovers_library_cards_from_the_ash_heap() -> None:
    """Ana's two Ashur Tablets in play and three library cards in her ash heap: the third copy,
    played as offered, removes the copies for 3 pool, puts one chosen card in her hand and
    shuffles the two others into her library."""
    library = (("Ashur Tablets", 3), ("Minion Tap", 2), ("Govern the Unaligned", 1), ("Deflection", 1))
    # the whole library in the opening hand: nothing to draw, so the hand shows what moved
    start = one_vampire_table("Arika", library, seed=5, phase="master")
    ana = start.state.acting
    hand = start.view(ana).hand
    tablets = [c.as_list() for c in hand if c.name == "Ashur Tablets"][:2]
    act(start, ana, "move", cards=tablets, to="ready", no_replace=True)
    burned = [c.as_list() for c in hand if c.name in ("Minion Tap", "Govern the Unaligned")]
    act(start, ana, "move", cards=burned, to="ash")
    t = copy_table(start)
    plays = [a for a in card_plays(t, ana, "Ashur Tablets") if "ash_hand" in a]
    assert {tuple(a["ash_hand"]) for a in plays} <= {tuple(p) for p in burned} and len(plays) == 2  # one per name
    play = plays[0]
    assert sorted([play["ash_hand"], *play["ash_library"]]) == sorted(burned)
    pool = t.state.players[ana].pool
    played(t, ana, play)
    assert t.state.players[ana].pool == pool + 3
    assert next(c for c in t.state.cards if list(c.pos) == play["ash_hand"]).zone == "hand"
    again = replayed(start, [(ana, play)])
    answer_passes(again)  # the others let the card through, as they did
    assert again.state == t.state
    t.run_ops()  # the library's shuffle: the two other cards leave the ash heap for it
    assert len(t.state.players[ana].library) == 2
    assert not any(c.zone == "ash" and c.as_list() in burned for c in t.view(ana).cards)
    assert [c.name for c in t.view(ana).hand].count("Deflection") == 1 and len(t.view(ana).hand) == 2
    assert any("into their library, shuffled" in s for s in said(t)), said(t)


def test_ashur_tablets_refuses_cards_it_may_not_recover() -> None:
    library = (("Ashur Tablets", 3), ("Minion Tap", 2))
    t = one_vampire_table("Arika", library, seed=5, phase="master")
    ana = t.state.acting
    hand = t.view(ana).hand
    tablets = [c.as_list() for c in hand if c.name == "Ashur Tablets"]
    taps = [c.as_list() for c in hand if c.name == "Minion Tap"]
    act(t, ana, "move", cards=tablets[:1] + taps[:1], to="ash", no_replace=True)
    with pytest.raises(IllegalMove, match="recovers no card from the ash heap now"):  # the second copy
        played(t, ana, {"do": "play", "card": tablets[1], "to": "ready", "ash_hand": taps[0], "ash_library": []})
    act(t, ana, "move", cards=tablets[1:2], to="ready", no_replace=True)
    act(t, ana, "move", cards=tablets[:1], to="ready", no_replace=True)  # two in play, the third in hand
    third = next(c.as_list() for c in t.view(ana).hand if c.name == "Ashur Tablets")
    with pytest.raises(IllegalMove, match="recovers library cards of your ash heap"):
        played(t, ana, {"do": "play", "card": third, "to": "ready", "ash_hand": taps[1], "ash_library": []})


def test_a_vampire_calls_a_referendum_that_burns_anarch_revolt() -> None:
    start, ana, ben, revolt = _bens_card_in_play("Anarch Revolt", on_his_vampire=False)
    t = copy_table(start)
    offered = [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "action" and a.get("card") == revolt]
    assert offered == [
        {"do": "action", "kind": "political", "minion": first_vampire(t, ana), "card": revolt, "stealth": 1}
    ]
    done: list[tuple[int, Act]] = []

    def make(seat: int, a: Act) -> None:
        done.append((seat, a))
        played(t, seat, a)

    make(ana, offered[0])
    while t.state.open_action is not None:
        make(t.state.open_action.impulse, {"do": "pass"})
    r = t.state.open_referendum
    assert r is not None and r.step == "terms"
    (terms,) = [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "terms" and a.get("printed")]
    make(ana, terms)
    assert t.state.open_referendum is not None and t.state.open_referendum.terms == "Anarch Revolt: Anarch Revolt burns"
    while (r := t.state.open_referendum) is not None and r.step == "before":
        make(r.impulse, {"do": "pass"})
    for seat in t.state.seating:
        votes = [a for a in VTES.legal_acts(t.view(seat)) if a["do"] == "vote"] if seat == ana else []
        for a in votes:
            make(seat, {**a, "for": True})
        make(seat, {"do": "done"})
    assert t.state.open_referendum is None
    assert next(c for c in t.view(ana).cards if c.as_list() == revolt).zone == "ash"
    assert "Anarch Revolt burns (the referendum passed)" in said(t), said(t)
    assert replayed(start, done).state == t.state


def test_misdirection_locks_a_minion_its_player_chooses() -> None:
    start = one_vampire_table("Arika", (("Misdirection", 2), ("Minion Tap", 1)), seed=5, phase="master")
    ana = start.state.acting
    prey = start.view(ana).players[ana].prey
    t = copy_table(start)
    plays = [a for a in card_plays(t, ana, "Misdirection") if "lock_minion" in a]
    assert plays[0]["lock_minion"] == first_vampire(t, prey)  # the prey's first
    assert {tuple(a["lock_minion"]) for a in plays} == {tuple(first_vampire(t, s)) for s in t.state.seating}
    assert _bot_choice(t, ana) == plays[0]  # a bot locks its prey's vampire
    played(t, ana, plays[0])
    assert next(c for c in t.view(ana).cards if c.as_list() == plays[0]["lock_minion"]).locked
    assert any(s.startswith("Misdirection: Arika") and s.endswith(" locks") for s in said(t)), said(t)
    again = replayed(start, [(ana, plays[0])])
    answer_passes(again)
    assert again.state == t.state
    other = next(c.as_list() for c in t.view(ana).hand if c.name == "Misdirection")
    with pytest.raises(IllegalMove, match="locks a ready unlocked minion"):
        copy_table(t).play(ana, {"do": "play", "card": other, "pool": 1, "lock_minion": plays[0]["lock_minion"]})
    tap = next(c.as_list() for c in t.view(ana).hand if c.name == "Minion Tap")
    with pytest.raises(IllegalMove, match="locks no minion"):
        copy_table(t).play(ana, {"do": "play", "card": tap, "lock_minion": first_vampire(t, ana)})


def test_the_barrens_is_locked_to_discard_a_card_and_draw_up() -> None:
    start = one_vampire_table("Arika", (("The Barrens", 1), ("Minion Tap", 8)), seed=5, phase="master")
    ana = start.state.acting
    barrens = next(c.as_list() for c in start.view(ana).hand if c.name == "The Barrens")
    act(start, ana, "move", cards=[barrens], to="ready")  # replaced from the library
    t = copy_table(start)
    offered = [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "discard" and a.get("by") == barrens]
    assert len(offered) == len(t.view(ana).hand) == 7
    library = len(t.state.players[ana].library)
    act(t, ana, "discard", **{k: v for k, v in offered[0].items() if k != "do"})
    assert next(c for c in t.view(ana).cards if c.as_list() == barrens).locked
    assert len(t.view(ana).hand) == 7 and len(t.state.players[ana].library) == library - 1
    assert next(c for c in t.state.cards if list(c.pos) == offered[0]["card"]).zone == "ash"
    assert any(s.startswith("The Barrens is locked:") for s in said(t)), said(t)
    assert not any(a["do"] == "discard" and a.get("by") == barrens for a in VTES.legal_acts(t.view(ana)))
    with pytest.raises(IllegalMove, match="The Barrens is locked"):
        played(t, ana, {**offered[1], "card": t.view(ana).hand[0].as_list()})
    again = copy_table(start)
    act(again, ana, "discard", **{k: v for k, v in offered[0].items() if k != "do"})
    mine = copy_table(start)
    act(mine, ana, "discard", **{k: v for k, v in offered[0].items() if k != "do"})
    assert again.state == mine.state  # the log replays to the same state


def test_a_master_card_whose_each_turn_limit_is_spent_is_not_offered() -> None:
    """ "Only one Ashur Tablets can be played each turn": once one was played this turn (even one
    canceled as it was played, its master phase action given back by Wash), the offers hold no
    other, as the rules refuse it (a bot game met that refusal)."""
    import dataclasses

    from engine.games.vtes.state import Limited
    from engine.games.vtes.vocab import LimitScope

    t = one_vampire_table("Arika", (("Ashur Tablets", 3), ("Minion Tap", 1)), seed=5, phase="master")
    ana = t.state.acting
    assert card_plays(t, ana, "Ashur Tablets")
    ashur = card_base().lookup("Ashur Tablets")
    assert ashur is not None
    t.state = dataclasses.replace(t.state, limited=(Limited((), ashur.id, LimitScope.TURN),))
    assert card_plays(t, ana, "Ashur Tablets") == []
    with pytest.raises(IllegalMove, match="Only one Ashur Tablets can be played each turn"):
        held = next(c.as_list() for c in t.view(ana).hand if c.name == "Ashur Tablets")
        played(t, ana, {"do": "play", "card": held, "to": "ready"})
