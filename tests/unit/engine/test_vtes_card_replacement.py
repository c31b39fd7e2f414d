"""A card whose text says "Do not replace until …" is not replaced in its player's hand when it is
played (rulebook, "Hand size"): the hand is refilled to its size less the cards not yet replaced,
and each is replaced when its moment comes (Dodge: "Do not replace until after combat."; Glancing
Blow: "Do not replace until your next unlock phase."). Every crypt is twelve Arika; every library
is ten copies of one combat card (table rule ``library_size=off``), so a refill has cards to draw."""

from __future__ import annotations

from engine.games.base import Act
from engine.games.vtes import VTES
from engine.games.vtes.vocab import Replacement
from engine.sim import SimTable
from tests.support.vtes_fight import Fight, bleed_blocked, one_crypt_fight
from tests.support.vtes_sim import act, copy_table, settle


def _hand(t: SimTable, seat: int) -> int:
    return len(t.view(seat).hand)


def _to_strike(f: Fight) -> tuple[int, Act]:
    """Lucia bleeds, Marek blocks, everyone passes to the strike step: the seat whose strike is
    due and its first strike with a card from hand."""
    t = f.t
    bleed_blocked(f)
    while (c := t.state.open_combat) is not None and c.step != "strike":
        act(t, c.impulse, "pass")
    c = t.state.open_combat
    assert c is not None
    seat = c.impulse  # the controller of the combatant whose strike is due (5.4)
    strikes = [a for a in VTES.legal_acts(t.view(seat)) if a["do"] == "strike" and "card" in a]
    assert strikes, "no strike with a card offered"
    return seat, strikes[0]


def test_dodge_is_replaced_only_after_the_combat() -> None:
    f = one_crypt_fight("Arika", (("Dodge", 10),))
    t = f.t
    seat, dodge = _to_strike(f)
    assert dodge.get("dodge") is True
    notes = t.play(seat, dodge)
    t.run_ops()
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert "Dodge is not replaced until after combat" in said
    assert _hand(t, seat) == 6 and [d.when for d in t.state.players[seat].deferred] == [Replacement.AFTER_COMBAT]
    settle(t)
    assert t.state.open_combat is None
    assert _hand(t, seat) == 7 and t.state.players[seat].deferred == ()


def test_glancing_blow_waits_for_its_players_next_unlock_phase() -> None:
    f = one_crypt_fight("Arika", (("Glancing Blow", 10),))
    t = f.t
    bleed_blocked(f)
    while (c := t.state.open_combat) is not None and c.step != "damage":
        due = c.due() if c.step == "strike" else ()
        act(t, c.impulse, "strike", minion=list(due[0])) if due else act(t, c.impulse, "pass")
    c = t.state.open_combat
    assert c is not None
    seat = c.impulse
    mine = f.lucia if seat == f.ana else f.marek
    blow = next(a for a in VTES.legal_acts(t.view(seat)) if a["do"] == "prevent")
    assert blow["minion"] == mine and blow["normal"] == 1
    t.play(seat, blow)
    t.run_ops()
    assert _hand(t, seat) == 6
    settle(t)
    assert _hand(t, seat) == 6  # the combat is over, the card still waits
    played_in = t.state.turn
    while not (t.state.acting == seat and t.state.turn > played_in):
        assert _hand(t, seat) == 6
        act(t, t.state.acting, "end_turn")
    assert t.state.phase == "unlock"
    assert _hand(t, seat) == 7 and t.state.players[seat].deferred == ()


def test_the_strike_act_states_when_its_card_is_replaced_and_the_table_keeps_the_acts() -> None:
    """docs/protocol.md 4.4.1: the offered strike with Dodge carries ``replace`` "after combat";
    an act stating another moment is kept at that moment; one stating none is read from the card
    record (a log written before the field)."""
    f = one_crypt_fight("Arika", (("Dodge", 10),))
    t = f.t
    seat, dodge = _to_strike(f)
    assert dodge["replace"] == "after combat"
    stated = copy_table(t)
    stated.play(seat, {**dodge, "replace": "your next unlock phase"})
    assert [d.when for d in stated.state.players[seat].deferred] == [Replacement.UNLOCK]
    legacy = copy_table(t)
    legacy.play(seat, {k: v for k, v in dodge.items() if k != "replace"})
    assert [d.when for d in legacy.state.players[seat].deferred] == [Replacement.AFTER_COMBAT]
