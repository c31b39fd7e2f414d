"""Voter Captivation ("Only usable after resolution of a political action whose referendum passed.
[pre] This vampire gains 1 blood for each vote by which the referendum passed. [PRE] As above, but
move up to 2 of those blood to your pool instead of this vampire."): offered to the acting
Methuselah once its political action has resolved and its referendum passed, by the acting
vampire, at each level it may play; the vampire gains the blood (what its capacity cannot hold
drains off: rulebook, "Capacity"), at superior up to 2 of them go to the pool instead; refused with
the card's sentence after a referendum that failed, and for a second copy; the log replays to the
same state.

Ana's vampire calls Kine Resources Contested and plays Bewitching Oration (+2 votes, +4 at
superior); nobody else votes, so the referendum passes by 2 (4)."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes.bots import VtesBot
from engine.games.vtes.game import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import card_plays as plays
from tests.support.vtes_sim import copy_table, one_vampire_table, replayed
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = (("Kine Resources Contested", 2), ("Bewitching Oration", 2), ("Voter Captivation", 2))
NAMES = ["Ana", "Ben", "Cy", "Dee"]


@pytest.fixture(scope="module")
def arika() -> SimTable:
    return one_vampire_table("Arika", LIBRARY, seed=5)  # Presence at superior


@pytest.fixture(scope="module")
def nettie() -> SimTable:
    return one_vampire_table("Nettie Hale", LIBRARY, seed=5)  # Presence at basic, capacity 5


def _step(t: SimTable, done: list[tuple[int, Act]], seat: int, act: Act) -> None:
    t.play(seat, act)
    done.append((seat, act))


def to_resolution(t: SimTable, votes: int | None) -> list[tuple[int, Act]]:
    """Ana's vampire calls Kine Resources Contested; once polling opens she plays Bewitching Oration
    for ``votes`` (None: none); every Methuselah is done; the referendum resolves."""
    ana = t.state.acting
    kine = next(c.as_list() for c in t.view(ana).hand if c.name == "Kine Resources Contested")
    done: list[tuple[int, Act]] = []
    _step(t, done, ana, {"do": "action", "kind": "political", "minion": vampire(t, ana), "card": kine})
    for _ in range(80):
        r = t.state.open_referendum
        if r is None and t.state.open_action is None:
            return done
        if r is not None and r.step == "terms":
            _step(t, done, ana, {"do": "terms", "text": "as the card says"})
        elif r is not None and r.step == "voting":
            if votes is not None and r.total(True) == 0:
                oration = next(a for a in plays(t, ana, "Bewitching Oration") if a["votes"] == votes)
                _step(t, done, ana, oration)
            seat = next(s for s in t.state.seating if s not in r.done)
            _step(t, done, seat, {"do": "done"})
        else:
            w = t.state.open_action or r
            assert w is not None
            _step(t, done, w.impulse, {"do": "pass"})
    raise AssertionError("the referendum never resolved")


def test_at_superior_two_of_the_blood_go_to_the_pool(arika: SimTable) -> None:
    t = copy_table(arika)
    ana = t.state.acting
    assert plays(t, ana, "Voter Captivation") == []  # no action resolved yet
    done = to_resolution(t, votes=4)
    assert t.state.done[-1].passed_by == 4
    offered = plays(t, ana, "Voter Captivation")
    assert sorted(a.get("move_blood", 0) for a in offered) == [0, 2]  # basic, superior
    assert all(a["minion"] == vampire(t, ana) for a in offered)
    me = next(c for c in t.view(ana).controlled(ana) if c.crypt)
    blood, pool = me.counters, t.state.players[ana].pool
    superior = next(a for a in offered if a.get("move_blood"))
    notes = t.play(ana, superior)
    done.append((ana, superior))
    after = next(c for c in t.view(ana).controlled(ana) if c.crypt)
    assert (after.counters, t.state.players[ana].pool) == (blood + 2, pool + 2)
    said = [n.render(NAMES) for n in notes]
    assert any(s.startswith("Voter Captivation: ") and "gains 4 blood" in s for s in said), said
    assert plays(t, ana, "Voter Captivation") == []  # one copy for one action
    second = next(c.as_list() for c in t.view(ana).hand if c.name == "Voter Captivation")
    with pytest.raises(IllegalMove, match="has already played Voter Captivation for this action"):
        t.play(ana, {"do": "play", "card": second})
    assert replayed(arika, done).state == t.state


def test_at_basic_the_vampire_gains_the_blood_up_to_its_capacity(nettie: SimTable) -> None:
    t = copy_table(nettie)
    ana = t.state.acting
    done = to_resolution(t, votes=2)
    offered = plays(t, ana, "Voter Captivation")
    assert [a.get("move_blood", 0) for a in offered] == [0]  # Presence at basic only
    me = next(c for c in t.view(ana).controlled(ana) if c.crypt)
    assert (me.counters, me.capacity) == (4, 5)
    pool = t.state.players[ana].pool
    notes = t.play(ana, offered[0])
    done.append((ana, offered[0]))
    after = next(c for c in t.view(ana).controlled(ana) if c.crypt)
    assert (after.counters, t.state.players[ana].pool) == (5, pool)
    said = [n.render(NAMES) for n in notes]
    assert any("gains 2 blood" in s and "1 over its capacity drain off" in s for s in said), said
    with pytest.raises(IllegalMove):  # basic moves no blood to the pool
        copy = copy_table(nettie)
        moved = to_resolution(copy, votes=2)
        assert moved
        card = next(c.as_list() for c in copy.view(ana).hand if c.name == "Voter Captivation")
        copy.play(ana, {"do": "play", "card": card, "minion": vampire(copy, ana), "move_blood": 1})
    assert replayed(nettie, done).state == t.state


def test_after_a_referendum_that_failed_it_is_refused_with_its_sentence(arika: SimTable) -> None:
    t = copy_table(arika)
    ana = t.state.acting
    to_resolution(t, votes=None)  # no votes: 0 for, 0 against, the referendum fails
    assert t.state.done[-1].passed_by == 0
    assert plays(t, ana, "Voter Captivation") == []
    card = next(c.as_list() for c in t.view(ana).hand if c.name == "Voter Captivation")
    before = t.state
    with pytest.raises(IllegalMove, match='says "Only usable after resolution of a political action whose referendum'):
        t.play(ana, {"do": "play", "card": card})
    assert t.state == before


def test_a_bot_plays_it_once_its_referendum_passed(arika: SimTable) -> None:
    t = copy_table(arika)
    ana = t.state.acting
    to_resolution(t, votes=4)
    view = t.view(ana)
    chosen = VtesBot(None, seed=1).choose(view, VTES.legal_acts(view))
    assert chosen is not None and chosen["do"] == "play" and chosen.get("move_blood") == 2
