"""Spirit's Touch ("[aus] +1 intercept. [AUS] As above, with 1 optional maneuver during the
resulting combat if this vampire blocks."): played by a blocker with superior Auspex, its +1
intercept makes the block, and the maneuver is carried into the combat that follows: offered in
the range step naming the card, made once, narrated with its name; the log replays to the same
state.

Every seat's vampire is Aisling Sturbridge (superior Auspex); Ana bleeds Ben and, once Ben's
vampire attempts to block, adds +1 stealth by hand (Ben accepts)."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.games.vtes.game import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import bleed_blocked, card_plays, copy_table, logged, one_vampire_table, replayed

LIBRARY = (("Spirit's Touch", 2), ("Raven Spy", 2))


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Aisling Sturbridge", LIBRARY, seed=5)


def _to_range(t: SimTable, done: list[tuple[int, Act]]) -> tuple[int, int, tuple[str, ...]]:
    """Ana bleeds Ben; Ben's vampire attempts to block and plays Spirit's Touch (+1 intercept);
    everyone passes up to the combat's range step. Returns Ana's and Ben's seats and the notes of
    the play."""
    ana, ben, steps = bleed_blocked(t)
    done += steps
    logged(t, done, ana, {"do": "adjust", "stealth": 1, "cause": "effect"})  # +1 stealth, Ben accepts
    for seat, accept in [(s, {"do": "accept", "act": c.act}) for c in t.state.claims for s in c.seats]:
        logged(t, done, seat, accept)
    while (a := t.state.open_action) is not None and a.impulse != ben:
        logged(t, done, a.impulse, {"do": "pass"})
    offered = [a for a in card_plays(t, ben, "Spirit's Touch") if a.get("intercept") == 1]
    said = logged(t, done, ben, offered[0])
    for _ in range(40):
        c = t.state.open_combat
        if c is not None and c.step == "range":
            return ana, ben, said
        window = c if c is not None else t.state.open_action
        assert window is not None
        logged(t, done, window.impulse, {"do": "pass"})
    raise AssertionError("no range step")


def test_its_maneuver_is_carried_into_the_combat_its_block_opens(start: SimTable) -> None:
    t = copy_table(start)
    done: list[tuple[int, Act]] = []
    ana, ben, _ = _to_range(t, done)
    c = t.state.open_combat
    assert c is not None and len(c.carried) == 1
    blocker, card = c.carried[0]
    while t.state.open_combat.impulse != ben:
        logged(t, done, t.state.open_combat.impulse, {"do": "pass"})
    move = {"do": "maneuver", "minion": list(blocker), "card": list(card)}
    assert move in VTES.legal_acts(t.view(ben))
    long = t.state.open_combat.long
    said = logged(t, done, ben, move)
    c = t.state.open_combat
    assert c.long != long and c.carried == () and c.maneuvered == blocker
    assert any(s.startswith("Spirit's Touch: Aisling Sturbridge") and "maneuvers" in s for s in said), said
    assert move not in VTES.legal_acts(t.view(ben))  # once
    assert replayed(start, done).state == t.state
