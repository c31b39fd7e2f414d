"""The Unmasking ("Gehenna. Do not replace until your next discard phase. Allies get +1 intercept
against vampires."): an event put in play in its player's master phase; while it is in play every
ally, anyone's, that attempts to block a vampire's action gets +1 intercept, narrated with the
card's name; a vampire blocking gets nothing; the log replays to the same state.

Every seat's vampire is Nettie Hale; Ben has an ally (Gregory Winter) put in play by hand."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.games.vtes.bots import VtesBot
from engine.games.vtes.game import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import by_hand, card_plays, copy_table, logged, one_vampire_table, replayed
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = (("The Unmasking", 2), ("Gregory Winter", 1), ("Arcanum Investigator", 2))


@pytest.fixture(scope="module")
def start() -> SimTable:
    t = one_vampire_table("Nettie Hale", LIBRARY, seed=5, phase="master")
    ben = t.view(t.state.acting).players[t.state.acting].prey
    ally = next(c.as_list() for c in t.view(ben).hand if c.name == "Gregory Winter")
    by_hand(t, ben, "move", cards=[ally], to="ready")
    return t


def _ally(t: SimTable, seat: int) -> list[int]:
    return next(c.as_list() for c in t.view(seat).controlled(seat) if c.name == "Gregory Winter")


def _bleed_then_block(t: SimTable, done: list[tuple[int, Act]], blocker: str) -> tuple[str, ...]:
    """Ana's vampire bleeds Ben; Ben attempts to block with his ally or his vampire."""
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    while t.state.phase != "minion":
        logged(t, done, ana, {"do": "phase"})
    logged(t, done, ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})
    logged(t, done, ana, {"do": "pass"})
    minion = _ally(t, ben) if blocker == "ally" else vampire(t, ben)
    return logged(t, done, ben, {"do": "block", "minion": minion})


def test_an_ally_blocking_a_vampire_gets_1_intercept_while_it_is_in_play(start: SimTable) -> None:
    t = copy_table(start)
    ana, done = t.state.acting, []
    offered = card_plays(t, ana, "The Unmasking")
    assert offered and offered[0]["to"] == "ready"
    logged(t, done, ana, offered[0])
    said = _bleed_then_block(t, done, "ally")
    a = t.state.open_action
    assert a is not None and a.window == "B" and a.intercept == 1
    assert any(s.startswith("The Unmasking: +1 intercept to Gregory Winter") for s in said), said
    assert replayed(start, done).state == t.state


def test_a_vampire_blocking_gets_nothing_and_without_it_an_ally_neither(start: SimTable) -> None:
    t = copy_table(start)
    logged(t, [], t.state.acting, card_plays(t, t.state.acting, "The Unmasking")[0])
    said = _bleed_then_block(t, [], "vampire")
    assert t.state.open_action.intercept == 0 and not any("The Unmasking" in s for s in said)
    t = copy_table(start)
    _bleed_then_block(t, [], "ally")
    assert t.state.open_action.intercept == 0


def test_a_bot_plays_it_only_with_more_allies_than_any_rival(start: SimTable) -> None:
    t = copy_table(start)
    ana = t.state.acting

    def chosen() -> Act | None:
        view = t.view(ana)
        return VtesBot(None, seed=1).choose(view, VTES.legal_acts(view))

    card = next(c.as_list() for c in t.view(ana).hand if c.name == "The Unmasking")
    assert (chosen() or {}).get("card") != card  # Ben has an ally, Ana none
    for ally in [c.as_list() for c in t.view(ana).hand if c.name == "Arcanum Investigator"]:
        by_hand(t, ana, "move", cards=[ally], to="ready")  # two allies against Ben's one
    assert (chosen() or {}).get("card") == card
