"""Perfect Paragon at superior ("[PRE] Allies and younger vampires get -1 intercept."): offered to
the acting Methuselah while a younger vampire's block would succeed, it takes 1 intercept from that
blocker at once and from every later blocker that is an ally or younger for the rest of the action;
a blocker as old as the acting vampire is not touched; the log replays to the same state.

Ana's vampire is Arika (Presence at superior, capacity 11); the others' are Nettie Hale (capacity 5)."""

from __future__ import annotations

from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck
from engine.sim import SimTable
from tests.support.vtes_sim import (
    act,
    bleed_blocked,
    copy_table,
    deck_of,
    face_up_by_hand,
    logged,
    replayed,
    vtes_table,
)
from tests.support.vtes_sim import card_plays as plays
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = (("Perfect Paragon", 3), ("Conditioning", 4))


def _table() -> SimTable:
    arika, nettie = card_base().lookup("Arika"), card_base().lookup("Nettie Hale")
    assert arika is not None and nettie is not None
    crypt = Deck("mixed", ((arika.id, 6), (nettie.id, 6)), ())
    t = vtes_table([deck_of(crypt, *LIBRARY) for _ in range(4)], {"library_size": False}, 7)
    ana = t.state.acting
    moved = []
    for seat in t.state.seating:
        want = "Arika" if seat == ana else "Nettie Hale"
        mine = [
            c for c in t.view(seat).cards if c.owner == seat and c.zone == "uncontrolled" and c.name.startswith(want)
        ]
        assert mine, f"seed 7 deals {want} to seat {seat}"
        act(t, seat, "move", cards=[mine[0].as_list()], to="ready")
        moved.append(mine[0].pos)
    face_up_by_hand(t, moved)
    for i, seat in enumerate(t.state.seating):
        act(t, seat, "blood", card=list(moved[i]), delta=4, cause="effect")
    while t.state.phase != "minion":
        act(t, t.state.acting, "phase")
    return t


def test_younger_blockers_lose_1_intercept_for_the_rest_of_the_action() -> None:
    start = _table()
    t = copy_table(start)
    ana, ben, done = bleed_blocked(t)
    while (a := t.state.open_action) is not None and a.impulse != ana:
        logged(t, done, a.impulse, {"do": "pass"})
    offered = [a for a in plays(t, ana, "Perfect Paragon") if a.get("intercept")]
    assert [a["intercept"] for a in offered] == [-1]
    said = logged(t, done, ana, offered[0])
    a = t.state.open_action
    assert a is not None and a.intercept == -1 and a.weaken == 1
    assert any(s.startswith("Perfect Paragon: ") and "intercept" in s for s in said), said
    while (a := t.state.open_action) is not None and a.window == "B":  # the attempt fails: -1 against 0
        logged(t, done, a.impulse, {"do": "pass"})
    while (a := t.state.open_action) is not None and a.impulse != ben:
        logged(t, done, a.impulse, {"do": "pass"})
    said = logged(t, done, ben, {"do": "block", "minion": vampire(t, ben)})  # a later attempt: -1 again
    a = t.state.open_action
    assert a is not None and a.window == "B" and a.intercept == -1
    assert any("gets -1 intercept" in s for s in said), said
    assert replayed(start, done).state == t.state
