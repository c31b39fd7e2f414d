"""A limit printed "at superior" binds only a play at that level (Instantaneous Transformation:
"[CEL][PRO] Only usable after resolution of a successful action. Unlock this vampire. A vampire
can play only one Instantaneous Transformation at superior each turn."; Sideslip: "[CEL] Prevent 1
damage. A vampire can play only one Sideslip at superior each round."): the level is read from the
act that plays the card (its unlock, its prevention), the play at superior states the limit, a
second one is neither offered nor accepted, in the card's words (a play at basic binds nothing); the log replays to the same state.

Every crypt is twelve Darrell Boyce, Consul (CEL OBF PRO at superior); Ana's vampire has 4 blood."""

from __future__ import annotations

import re

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.games.vtes.card_levels import known, played_superior, shown
from engine.sim import SimTable
from tests.support.vtes_sim import copy_table, one_vampire_table, record_named, replayed, to_combat_step
from tests.support.vtes_sim import first_vampire as vampire

DARRELL = "Darrell Boyce, Consul"


def test_the_level_is_read_from_the_act_where_one_level_alone_could_make_it() -> None:
    it, slip = record_named("Instantaneous Transformation"), record_named("Sideslip")
    assert played_superior(it, shown({"unlock", "minion", "card"}, "play"))
    assert not played_superior(it, shown({"stealth", "minion", "card"}, "play"))
    assert played_superior(slip, shown({"normal", "minion", "card"}, "prevent"))
    assert not played_superior(slip, shown({"dodge", "minion", "card"}, "strike"))
    assert not played_superior(slip, shown(set(), "strike"))  # shows nothing: basic
    assert known(it) and known(slip)
    (limit,) = it.requires.limits
    assert limit.superior and limit.scope == "each turn" and it.limits_at(False) == ()


def its(t: SimTable, seat: int, name: str) -> list[Act]:
    view = t.view(seat)
    card = next((c.as_list() for c in view.hand if c.name == name), None)  # one copy's
    return [a for a in VTES.legal_acts(view) if a.get("card") == card]


def locked(t: SimTable, seat: int) -> bool:
    return next(c.locked for c in t.view(seat).cards if c.as_list() == vampire(t, seat))


def pass_all(t: SimTable, done: list[tuple[int, Act]]) -> None:
    while (w := t.state.open_combat or t.state.open_action) is not None:
        t.play(w.impulse, {"do": "pass"})
        done.append((w.impulse, {"do": "pass"}))


def test_instantaneous_transformation_unlocks_once_a_turn_at_superior_and_stays_playable_at_basic() -> None:
    start = one_vampire_table(DARRELL, (("Instantaneous Transformation", 3), ("Lost in Crowds", 2)), seed=5)
    t = copy_table(start)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    done: list[tuple[int, Act]] = [(ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})]
    t.play(*done[0])
    pass_all(t, done)
    (first,) = its(t, ana, "Instantaneous Transformation")
    assert first["unlock"] is True and first["limit"] == "each turn"  # the play at superior states its limit
    notes = t.play(ana, first)
    done.append((ana, first))
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert any(s.startswith("Instantaneous Transformation: ") for s in said), said
    assert not locked(t, ana) and len(t.state.limited) == 1
    hunt = {"do": "action", "kind": "hunt", "minion": vampire(t, ana)}
    t.play(ana, hunt)
    done.append((ana, hunt))
    pass_all(t, done)
    assert locked(t, ana) and its(t, ana, "Instantaneous Transformation") == []  # superior spent
    second = next(c.as_list() for c in t.view(ana).hand if c.name == "Instantaneous Transformation")
    words = (
        '"A vampire can play only one Instantaneous Transformation at superior each turn": '
        f"{DARRELL} (G2) has played one already"
    )
    for stated in ({}, {"limit": "each turn"}):  # the level read from the act, its limit stated or not
        with pytest.raises(IllegalMove, match=re.escape(words)):
            t.play(ana, {"do": "play", "card": second, "minion": vampire(t, ana), "unlock": True, **stated})
    assert replayed(start, done).state == t.state
    t.play(ana, {"do": "end_turn"})
    assert t.state.limited == ()


def test_sideslip_prevents_once_a_round_at_superior() -> None:
    start = one_vampire_table(DARRELL, (("Sideslip", 3), ("Lost in Crowds", 2)), seed=5)
    t, done = copy_table(start), []
    ana, _ = to_combat_step(t, done, "strike")
    assert any(a.get("dodge") for a in its(t, t.state.open_combat.impulse, "Sideslip"))  # basic: no limit stated
    while (c := t.state.open_combat) is not None and c.step == "strike":
        minion = c.due()[0]
        seat = next(s for s in range(4) if list(minion) == vampire(t, s))
        done.append((seat, {"do": "strike", "minion": list(minion)}))
        t.play(*done[-1])
    assert t.state.open_combat is not None and t.state.open_combat.impulse == ana
    (first,) = [a for a in its(t, ana, "Sideslip") if a["do"] == "prevent"]
    assert first["normal"] == 1 and first["limit"] == "each round"
    t.play(ana, first)
    done.append((ana, first))
    assert its(t, ana, "Sideslip") == []
    second = next(c.as_list() for c in t.view(ana).hand if c.name == "Sideslip")
    words = f'"A vampire can play only one Sideslip at superior each round": {DARRELL} (G2) has played one already'
    with pytest.raises(IllegalMove, match=re.escape(words)):
        t.play(ana, {"do": "prevent", "minion": vampire(t, ana), "card": second, "normal": 1})
    assert replayed(start, done).state == t.state
