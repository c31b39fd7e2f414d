"""Delaying Tactics ("Only usable during the polling step of a political action. Cancel the
referendum. Unlock the acting vampire. If a political action card was played to call this
referendum, return it to its owner's hand (discard down afterward). Minions controlled by the
acting Methuselah cannot perform the same political action again this turn."): offered to
another Methuselah's ready unlocked vampire while a political action's referendum polls, paid
with its 1 blood; the referendum ends with no result (its terms not applied), the acting vampire
unlocks, the calling card goes back to its owner's hand, and the acting Methuselah's minions are
barred from that political action for the rest of the turn; refused with its sentence before
polling; a bot plays it against terms that burn its pool; the log replays to the same state.

Ana controls Arika and Nettie Hale; Ben, Cy and Dee one Nettie Hale each (turned face up by hand)."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.games.vtes.bots import VtesBot
from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck
from engine.games.vtes.game import VTES
from engine.games.vtes.simulate import vtes_table
from engine.sim import SimTable
from tests.support.vtes_fight import refused
from tests.support.vtes_sim import act, card_plays, copy_table, deck_of, face_up_by_hand, logged, replayed

LIBRARY = (("Kine Resources Contested", 2), ("Delaying Tactics", 2), ("Raven Spy", 1))


@pytest.fixture(scope="module")
def start() -> SimTable:
    arika, nettie = card_base().lookup("Arika"), card_base().lookup("Nettie Hale")
    assert arika is not None and nettie is not None
    crypt = Deck("mixed", ((arika.id, 6), (nettie.id, 6)), ())
    for seed in range(1, 60):
        t = vtes_table([deck_of(crypt, *LIBRARY) for _ in range(4)], {"library_size": False}, seed)
        ana = t.state.acting
        mine = {c.name.split(" (")[0]: c for c in t.view(ana).cards if c.owner == ana and c.zone == "uncontrolled"}
        if {"Arika", "Nettie Hale"} <= set(mine):
            break
    else:
        raise AssertionError("no seed deals Ana both vampires")
    moved = [mine["Arika"].pos, mine["Nettie Hale"].pos]
    for seat in t.state.seating[1:]:
        nettie_of = next(
            c.pos for c in t.view(seat).cards if c.owner == seat and c.zone == "uncontrolled" and "Nettie" in c.name
        )
        moved.append(nettie_of)
    for pos in moved:
        act(t, t.state.cards[[c.pos for c in t.state.cards].index(pos)].owner, "move", cards=[list(pos)], to="ready")
    face_up_by_hand(t, moved)
    for pos in moved:
        owner = next(c.owner for c in t.state.cards if c.pos == pos)
        act(t, owner, "blood", card=list(pos), delta=3, cause="effect")
    while t.state.phase != "minion":
        act(t, t.state.acting, "phase")
    return t


def _vampire(t: SimTable, seat: int, name: str) -> list[int]:
    return next(c.as_list() for c in t.view(seat).controlled(seat) if c.crypt and c.name.startswith(name))


def _to_polling(t: SimTable, done: list[tuple[int, Act]]) -> tuple[int, int]:
    """Ana's Arika calls Kine Resources Contested, allocating Ben 3 and Cy 1; nobody blocks or
    plays before votes; Ana casts the calling card's vote. Returns Ana's and Ben's seats."""
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    kine = next(c.as_list() for c in t.view(ana).hand if c.name == "Kine Resources Contested")
    logged(t, done, ana, {"do": "action", "kind": "political", "minion": _vampire(t, ana, "Arika"), "card": kine})
    for _ in range(40):
        r = t.state.open_referendum
        if r is not None and r.step == "voting":
            break
        if r is not None and r.step == "terms":
            terms = [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "terms" and "changes" in a]
            logged(t, done, ana, next(a for a in terms if a["changes"] == [[ben, 3], [(ben + 1) % 4, 1]]))
            continue
        w = t.state.open_action or r
        assert w is not None
        logged(t, done, w.impulse, {"do": "pass"})
    logged(t, done, ana, {"do": "vote", "source": "calling"})
    return ana, ben


def test_it_cancels_the_referendum_unlocks_returns_the_card_and_bars_the_action(start: SimTable) -> None:
    t = copy_table(start)
    done: list[tuple[int, Act]] = []
    ana, ben = _to_polling(t, done)
    pools = [p.pool for p in t.state.players]
    offered = card_plays(t, ben, "Delaying Tactics")
    ben_nettie = _vampire(t, ben, "Nettie")
    assert offered and offered[0]["minion"] == ben_nettie and offered[0]["blood"] == 1
    assert card_plays(t, ana, "Delaying Tactics") == []  # the caller's own referendum: a reaction is another's
    said = logged(t, done, ben, offered[0])
    assert t.state.open_referendum is None
    assert any(s.startswith("Delaying Tactics: the referendum is canceled") for s in said), said
    assert any("Delaying Tactics: Arika" in s and "unlocks" in s for s in said), said
    assert any("Kine Resources Contested" in s and "goes back to Ana's hand" in s for s in said), said
    assert [p.pool for p in t.state.players] == pools  # no terms applied
    arika = next(c for c in t.view(ana).controlled(ana) if c.name.startswith("Arika"))
    assert not arika.locked
    assert sum(c.name == "Kine Resources Contested" for c in t.view(ana).hand) == 2
    assert next(c for c in t.view(ben).controlled(ben) if c.crypt).counters == 2  # 1 blood paid
    kine = next(c.as_list() for c in t.view(ana).hand if c.name == "Kine Resources Contested")
    refused(
        t,
        ana,
        {"do": "action", "kind": "political", "minion": _vampire(t, ana, "Nettie"), "card": kine},
        "cannot perform the same action (political) again this turn: Delaying Tactics ended it",
    )
    assert replayed(start, done).state == t.state


def test_before_polling_it_is_refused_with_its_sentence(start: SimTable) -> None:
    t = copy_table(start)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    kine = next(c.as_list() for c in t.view(ana).hand if c.name == "Kine Resources Contested")
    t.play(ana, {"do": "action", "kind": "political", "minion": _vampire(t, ana, "Arika"), "card": kine})
    while (r := t.state.open_referendum) is None or r.step == "terms":
        if r is not None:
            t.play(ana, {"do": "terms", "text": "as the card says"})
            continue
        a = t.state.open_action
        assert a is not None
        t.play(a.impulse, {"do": "pass"})
    while t.state.open_referendum.impulse != ben:
        t.play(t.state.open_referendum.impulse, {"do": "pass"})
    card = next(c.as_list() for c in t.view(ben).hand if c.name == "Delaying Tactics")
    play = {"do": "play", "card": card, "minion": _vampire(t, ben, "Nettie"), "blood": 1}
    refused(t, ben, play, 'Delaying Tactics says "Only usable during the polling step of a political action"')


def test_a_bot_plays_it_against_terms_that_burn_its_pool(start: SimTable) -> None:
    t = copy_table(start)
    ana, ben = _to_polling(t, [])
    view = t.view(ben)
    chosen = VtesBot(None, seed=1).choose(view, VTES.legal_acts(view))
    assert chosen is not None and chosen["do"] == "play"
    assert next(c.name for c in view.hand if c.as_list() == chosen["card"]) == "Delaying Tactics"
    dee = (ben + 2) % 4  # terms that touch Dee not at all: Dee's bot votes and is done
    if dee != ana:
        view = t.view(dee)
        assert VtesBot(None, seed=1).choose(view, VTES.legal_acts(view)) == {"do": "done"}
