"""Archon Investigation ("Out-of-turn. Only usable if a minion is bleeding you and the bleed amount
is 4 or more, after blocks are declined. Burn the acting minion. (The action is not
successful.)"): offered to the bleed's target on its impulse once every blocker declined, for its
3 pool; as played (its answer window passed) the acting minion burns and the bleed ends, not
successful: no pool bled, no Edge; refused with its sentence before blocks are declined and for a
smaller bleed; a bot plays it against a bleed of 4; the log replays to the same state.

Every seat's vampire is Nettie Hale; Ana bleeds Ben, a +3 bleed added by hand (accepted)."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.games.vtes.bots import VtesBot
from engine.games.vtes.game import VTES
from engine.sim import SimTable
from tests.support.vtes_fight import refused
from tests.support.vtes_sim import answer_passes, copy_table, logged, one_vampire_table, replayed
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = (("Archon Investigation", 2), ("Raven Spy", 2))


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Nettie Hale", LIBRARY, seed=5)


def _bleed(t: SimTable, done: list[tuple[int, Act]], more: int) -> tuple[int, int]:
    """Ana's vampire bleeds Ben, ``more`` added by hand; every Methuselah passes until Ben holds the
    impulse with blocks declined (window C). Returns Ana's and Ben's seats."""
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    logged(t, done, ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})
    if more:
        logged(t, done, ana, {"do": "adjust", "amount": more, "cause": "effect"})
        for seat, act in [(s, {"do": "accept", "act": c.act}) for c in t.state.claims for s in c.seats]:
            logged(t, done, seat, act)  # Ben accepts the +3
    for _ in range(30):
        a = t.state.open_action
        assert a is not None
        if a.window == "C" and a.impulse == ben:
            return ana, ben
        logged(t, done, a.impulse, {"do": "pass"})
    raise AssertionError("Ben never held the impulse with blocks declined")


def _card(t: SimTable, seat: int) -> list[int]:
    return next(c.as_list() for c in t.view(seat).hand if c.name == "Archon Investigation")


def test_it_burns_the_minion_bleeding_for_4_and_the_bleed_is_not_successful(start: SimTable) -> None:
    t = copy_table(start)
    done: list[tuple[int, Act]] = []
    ana, ben = _bleed(t, done, 3)
    assert t.state.open_action.amount == 4
    pools, edge = [p.pool for p in t.state.players], t.state.edge
    offered = [a for a in VTES.legal_acts(t.view(ben)) if a["do"] == "play" and a["card"] == _card(t, ben)]
    assert offered == [{"do": "play", "card": _card(t, ben), "pool": 3}]
    bleeder = vampire(t, ana)
    said = logged(t, done, ben, offered[0])
    while t.state.windows and type(t.state.windows[-1]).__name__ == "Answer":
        seat = t.state.windows[-1].loop.holder
        said += logged(t, done, seat, {"do": "pass"})
    assert t.state.open_action is None
    assert any(s.startswith("Archon Investigation: Nettie Hale") and "burns" in s for s in said), said
    gone = next(c for c in t.state.cards if list(c.pos) == bleeder)
    assert gone.zone == "ash"
    after = [p.pool for p in t.state.players]
    assert after[ben] == pools[ben] - 3 and after[ana] == pools[ana] and t.state.edge == edge
    assert replayed(start, done).state == t.state


def test_it_is_refused_before_blocks_are_declined_and_for_a_smaller_bleed(start: SimTable) -> None:
    t = copy_table(start)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    t.play(ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})
    t.play(ana, {"do": "pass"})
    sentence = 'Archon Investigation says "Only usable if a minion is bleeding you and the bleed amount is 4 or more'
    refused(t, ben, {"do": "play", "card": _card(t, ben), "pool": 3}, sentence)
    t = copy_table(start)
    _, ben = _bleed(t, [], 0)
    assert [a for a in VTES.legal_acts(t.view(ben)) if a.get("card") == _card(t, ben)] == []
    refused(t, ben, {"do": "play", "card": _card(t, ben), "pool": 3}, "and the bleed amount is 1")


def test_a_bot_plays_it_against_a_bleed_of_4(start: SimTable) -> None:
    t = copy_table(start)
    _, ben = _bleed(t, [], 3)
    view = t.view(ben)
    chosen = VtesBot(None, seed=1).choose(view, VTES.legal_acts(view))
    assert chosen == {"do": "play", "card": _card(t, ben), "pool": 3}
    answer_passes(t)
