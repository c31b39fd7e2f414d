"""A vampire as it stands in play: a Discipline master card put on it ("This vampire gets +1 level
of Dominate [dom] and +1 capacity. Cannot be put on a vampire with superior Dominate [DOM].")
gives it the Discipline's level and a capacity, read by the requirement checks, the offers and
the blood it may hold (rulebook, "Master Cards", "Disciplines"); a second copy makes the level
superior, a third is refused. The log replays to the same state.

Every crypt is twelve Beetleman (Nosferatu, capacity 4: [obf] [ANI], no Dominate)."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.games.vtes.view import CardView
from engine.sim import SimTable
from tests.support.vtes_sim import (
    act,
    answer_passes,
    card_plays,
    copy_table,
    first_vampire,
    one_vampire_table,
    played,
    resolve,
)

LIBRARY = (("Dominate", 2), ("Obfuscate", 2), ("Govern the Unaligned", 2), ("Minion Tap", 1))


def _beetleman(t: SimTable, seat: int) -> CardView:
    return next(c for c in t.view(seat).controlled(seat) if c.crypt)


def _governs(t: SimTable, seat: int) -> list[Act]:
    """The actions offered to ``seat`` with Govern the Unaligned."""
    view = t.view(seat)
    govern = {tuple(c.pos) for c in view.hand if c.name == "Govern the Unaligned"}
    return [a for a in VTES.legal_acts(view) if a["do"] == "action" and tuple(a.get("card") or ()) in govern]


def test_dominate_put_on_a_vampire_gives_it_dominate_and_1_capacity() -> None:
    start = one_vampire_table("Beetleman", LIBRARY, seed=5, phase="master")
    t = copy_table(start)
    ana = t.state.acting
    vampire = first_vampire(t, ana)
    plays = card_plays(t, ana, "Dominate")
    assert plays and all(p["to"] == "on" for p in plays)  # offered on a vampire of hers
    (play,) = [p for p in plays if p["on"] == vampire]
    played(t, ana, play)
    t.run_ops()
    answer_passes(t)  # the others let the master card through
    beetleman = _beetleman(t, ana)
    assert beetleman.capacity == 5 and beetleman.disciplines is not None and "dom" in beetleman.disciplines
    done: list[tuple[int, Act]] = [(ana, play), (ana, {"do": "phase"})]
    played(t, ana, {"do": "phase"})  # the minion phase
    governs = _governs(t, ana)
    assert governs and all(a.get("amount") == 1 + 2 for a in governs)  # [dom] +2 bleed, never [DOM]
    hunt = {"do": "action", "kind": "hunt", "minion": vampire}
    played(t, ana, hunt)
    t.run_ops()
    done.append((ana, hunt))
    resolve(t)
    assert _beetleman(t, ana).counters == 5  # 4 blood and capacity 5: the hunt's 1 blood is kept
    again = copy_table(start)
    for seat, a in done:
        act(again, seat, a["do"], **{k: v for k, v in a.items() if k != "do"})
    resolve(again)
    assert again.state == t.state


def test_without_dominate_the_vampire_cannot_govern_and_holds_its_printed_capacity() -> None:
    t = one_vampire_table("Beetleman", LIBRARY, seed=5)
    ana = t.state.acting
    assert _governs(t, ana) == []
    govern = next(c for c in t.view(ana).hand if c.name == "Govern the Unaligned")
    with pytest.raises(IllegalMove, match="requires DOM"):
        act(t, ana, "action", kind="bleed", minion=first_vampire(t, ana), card=govern.as_list(), target=1)
    act(t, ana, "action", kind="hunt", minion=first_vampire(t, ana))
    resolve(t)
    assert _beetleman(t, ana).counters == 4


def test_a_second_level_is_superior_and_a_card_on_a_superior_vampire_is_refused() -> None:
    t = one_vampire_table("Beetleman", LIBRARY, seed=5, phase="master")
    ana = t.state.acting
    vampire = first_vampire(t, ana)
    (play,) = [p for p in card_plays(t, ana, "Obfuscate") if p["on"] == vampire]
    played(t, ana, play)  # [obf] becomes [OBF]
    t.run_ops()
    beetleman = _beetleman(t, ana)
    assert beetleman.disciplines is not None and "OBF" in beetleman.disciplines and beetleman.capacity == 5
    act(t, ana, "end_turn")
    while t.state.acting != ana or t.state.phase != "master":
        act(t, t.state.acting, "end_turn" if t.state.acting != ana else "phase")
    assert card_plays(t, ana, "Obfuscate") == []  # no vampire of hers may take it
    other = next(c for c in t.view(ana).hand if c.name == "Obfuscate")
    with pytest.raises(IllegalMove, match=r"cannot be put on a vampire with superior \[OBF\]"):
        act(t, ana, "play", card=other.as_list(), to="on", on=vampire)
