"""Mirror Walk ("Do not replace until your next discard phase. [tha] +1 stealth. [THA] As above,
and if this action is blocked, lock the blocking minion and end the action before block
resolution."): at superior the table adds the stealth and keeps the rest on the action; when a
block would then succeed, the blocker locks and the action ends unsuccessfully with no combat, the
acting vampire still locked; at basic the block leads to combat as usual; the log replays to the
same state. Every crypt is twelve Aisling Sturbridge (Thaumaturgy at superior)."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.games.vtes.bots import VtesBot
from engine.games.vtes.game import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import bleed_blocked, copy_table, logged, one_vampire_table, replayed
from tests.support.vtes_sim import card_plays as plays
from tests.support.vtes_sim import first_vampire as vampire


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Aisling Sturbridge", (("Mirror Walk", 3), ("Conditioning", 4)), seed=5)


def _walk_then_blocked(t: SimTable, superior: bool) -> tuple[int, int, list[tuple[int, Act]], tuple[str, ...]]:
    """Ana's vampire bleeds Ben; Ben's blocks; Ana plays Mirror Walk at the level asked; Ben adds 1
    intercept by hand (Ana accepts), so the block would succeed; everyone passes."""
    ana, ben, done = bleed_blocked(t)
    offered = plays(t, ana, "Mirror Walk")
    assert sorted(bool(a.get("end_if_blocked")) for a in offered) == [False, True]
    logged(t, done, ana, next(a for a in offered if bool(a.get("end_if_blocked")) == superior))
    while (a := t.state.open_action) is not None and a.impulse != ben:
        logged(t, done, a.impulse, {"do": "pass"})
    logged(t, done, ben, {"do": "adjust", "intercept": 1, "cause": "a card"})
    for claim in t.state.claims:
        logged(t, done, ana, {"do": "accept", "act": claim.act})
    said: tuple[str, ...] = ()
    while (a := t.state.open_action) is not None:
        assert a.window == "B" and a.stealth == a.intercept == 1
        said += logged(t, done, a.impulse, {"do": "pass"})
    return ana, ben, done, said


def test_at_superior_a_block_locks_the_blocker_and_ends_the_action_without_combat(start: SimTable) -> None:
    t = copy_table(start)
    ana, ben, done, said = _walk_then_blocked(t, superior=True)
    assert t.state.open_action is None and t.state.open_combat is None
    mine, theirs = t.view(ana).card(tuple(vampire(t, ana))), t.view(ben).card(tuple(vampire(t, ben)))
    assert mine is not None and mine.locked and theirs is not None and theirs.locked
    assert t.state.players[ben].pool == 30  # the bleed did not succeed
    assert any(s.startswith("Mirror Walk: ") and "ends unsuccessfully before block resolution" in s for s in said), said
    assert replayed(start, done).state == t.state


def test_at_basic_the_block_leads_to_combat(start: SimTable) -> None:
    t = copy_table(start)
    _walk_then_blocked(t, superior=False)
    assert t.state.open_combat is not None


def test_a_bot_plays_mirror_walk_at_superior(start: SimTable) -> None:
    t = copy_table(start)
    ana, _, _ = bleed_blocked(t)
    view = t.view(ana)
    chosen = VtesBot(None, seed=1).choose(view, VTES.legal_acts(view))
    assert chosen is not None and chosen["do"] == "play" and chosen.get("end_if_blocked") is True
