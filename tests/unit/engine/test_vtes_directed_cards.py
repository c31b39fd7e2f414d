"""An action card whose level is a directed action (its Ⓓ: Line Brawl's "[pot] Ⓓ Enter combat with
a minion.") is announced directed at the Methuselah controlling the minion the player names
(rulebook, "Directed and Undirected Actions"): one offer per ready minion of another Methuselah;
the announced action targets that minion's controller, and only the targeted Methuselah may block
(4.2). As it succeeds the two minions enter combat (:mod:`engine.games.vtes.carried_moves`).

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
    theirs = {s: first_vampire(t, s) for s in others}
    assert sorted(a["target_card"] for a in offered if a["kind"] == "other") == sorted(theirs.values())  # [pot]
    chosen = next(a for a in offered if a["kind"] == "other" and a["target_card"] == theirs[others[-1]])
    t.play(ana, chosen)
    a = t.state.open_action
    assert a is not None and a.directed and a.targets == (others[-1],) and a.stealth == 0
