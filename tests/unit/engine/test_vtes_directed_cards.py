"""An action card whose level is a directed action (its Ⓓ: Line Brawl's "[pot] Ⓓ Enter combat with
a minion.") is announced directed at a Methuselah the player names (rulebook, "Directed and
Undirected Actions"): one offer per other Methuselah in the game; the announced action has that
target, and only the targeted Methuselah may block (4.2). What the level does as it succeeds
(entering combat) is left to the players.

Every crypt is twelve Daliah (anarch; ani aus pot VIC), every library Line Brawl."""

from __future__ import annotations

from engine.games.vtes import VTES
from tests.support.vtes_sim import first_vampire, one_vampire_table


def test_line_brawl_at_pot_is_directed_at_the_methuselah_named() -> None:
    t = one_vampire_table("Daliah", (("Line Brawl", 4),), seed=5)
    ana = t.state.acting
    view = t.view(ana)
    daliah = first_vampire(t, ana)
    offered = [a for a in VTES.legal_acts(view) if a["do"] == "action" and a.get("card") and a["minion"] == daliah]
    others = sorted(s for s in range(4) if s != ana)
    assert sorted(a["target"] for a in offered if a["kind"] == "other") == others  # [pot]: directed
    chosen = next(a for a in offered if a["kind"] == "other" and a["target"] == others[-1])
    t.play(ana, chosen)
    a = t.state.open_action
    assert a is not None and a.directed and a.targets == (others[-1],) and a.stealth == 0
