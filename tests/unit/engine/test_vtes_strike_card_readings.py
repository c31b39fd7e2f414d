"""Strikes read from cards whose text the table once left by hand (shared/rules/vtes-actions.md 5.4,
P5; rulebook "Strike"): a card that "Requires an Anarch" still has its strikes (Dust Up [pot]
"hand strike at +2 damage"; Donnybrook [pro] "hand strike, aggravated"), Undead Strength's hand
strike at +1 (basic) or +2 (superior), and Sniper Rifle's "Strike: 2R damage, only usable at long
range" from play; Arms of the Abyss's dodge "with 1 additional strike". Each strike card is
offered with its damage, played, and deals it; the log replays to the same state.

Ana's vampire (4 blood) bleeds Ben; Ben's (2 blood) blocks; both strike at close range."""

from __future__ import annotations

import pytest

from engine.games.base import Act
from engine.games.vtes import VTES
from engine.games.vtes.card_report import find
from engine.games.vtes.readings import best_strike
from engine.sim import SimTable
from tests.support.vtes_sim import act, copy_table, one_vampire_table, replayed, to_the_strike
from tests.support.vtes_sim import first_vampire as vampire

TORI = "Tori Longwood (G2)"  # Anarch: cel pot pre pro, strength 1
ADANA = "Adana de Sforza (G4)"  # POT at superior, strength 1


def offered_strikes(t: SimTable, seat: int, name: str) -> list[Act]:
    view = t.view(seat)
    cards = [c.as_list() for c in (*view.hand, *view.cards) if c.name == name]
    return [a for a in VTES.legal_acts(view) if a["do"] == "strike" and a.get("card") in cards]


def strike_and_resolve(t: SimTable, done: list[tuple[int, Act]], ana: int, ben: int, chosen: Act) -> list[str]:
    """Ana strikes with ``chosen``, Ben with his hand, and every step passes to the combat's end;
    the narration in words."""
    notes = list(t.play(ana, chosen))
    done.append((ana, chosen))
    hand = {"do": "strike", "minion": vampire(t, ben)}
    notes += t.play(ben, hand)
    done.append((ben, hand))
    while (c := t.state.open_combat) is not None:
        notes += t.play(c.impulse, {"do": "pass"})
        done.append((c.impulse, {"do": "pass"}))
    return [n.render([f"seat {s}" for s in range(4)]) for n in notes]


def bens_vampire(t: SimTable, pos: list[int]) -> tuple[int, str]:
    card = next(c for c in t.state.cards if list(c.pos) == pos)
    return card.counters, card.zone


@pytest.mark.parametrize(
    ("crypt", "card", "damage", "aggravated", "after"),
    [
        (TORI, "Dust Up", 3, False, (0, "torpor")),  # [pot]: 1 + 2; Ben's 2 blood mend 2, the third wounds
        (TORI, "Donnybrook", 1, True, (2, "torpor")),  # [pro]: 1 aggravated wounds and cannot be mended
        (TORI, "Undead Strength", 2, False, (0, "ready")),  # [pot] basic: 1 + 1, mended with 2 blood
        (ADANA, "Undead Strength", 3, False, (0, "torpor")),  # [POT] superior: 1 + 2
    ],
)
def test_a_read_hand_strike_card_deals_its_damage(
    crypt: str, card: str, damage: int, aggravated: bool, after: tuple[int, str]
) -> None:
    start = one_vampire_table(crypt, ((card, 4), ("Conditioning", 3)), seed=5)
    t, done = copy_table(start), []
    ana, ben = to_the_strike(t, done)
    offered = offered_strikes(t, ana, card)[-1:]  # one strike per level that differs: its last line
    assert offered and {a["damage"] for a in offered} == {damage}
    assert all(bool(a.get("aggravated")) == aggravated for a in offered)
    target = vampire(t, ben)
    said = strike_and_resolve(t, done, ana, ben, offered[0])
    assert bens_vampire(t, target) == after
    assert any("torpor" in line or "blood left" in line for line in said), said
    assert replayed(start, done).state == t.state


def test_sniper_rifle_strikes_2r_at_long_range_only() -> None:
    """ "Strike: 2R damage, only usable at long range": no strike at close range, 2R at long."""
    start = one_vampire_table("Arika", (("Sniper Rifle", 1), ("Conditioning", 4)), seed=5)
    t, done = copy_table(start), []
    ana = t.state.acting
    rifle = next(c for c in t.view(ana).hand if c.name == "Sniper Rifle")
    act(t, ana, "move", cards=[rifle.as_list()], to="on", on=vampire(t, ana), no_replace=True)
    ana, _ = to_the_strike(t, done)
    assert offered_strikes(t, ana, "Sniper Rifle") == []  # close range
    rec = find("Sniper Rifle")
    assert rec is not None
    striker = next(c.card for c in t.view(ana).cards if c.as_list() == vampire(t, ana))
    at_long = best_strike(f"{rec.id}-1", striker, long=True)
    assert at_long is not None and (at_long.damage, at_long.ranged, at_long.range) == (2, True, "long")
    assert best_strike(f"{rec.id}-1", striker, long=False) is None


def test_a_dodge_with_an_additional_strike_gives_both() -> None:
    """Arms of the Abyss: "[obt] Strike: dodge. [OBT] As above, with 1 additional strike
    (limited)." At superior (Alicia Cortez, OBT) its dodge is offered with the additional strike;
    Ben's hand strike is dodged, and Ana then chooses her additional strike: her hand strike hits."""
    start = one_vampire_table("Alicia Cortez (G4)", (("Arms of the Abyss", 3), ("Conditioning", 3)), seed=5)
    t, done = copy_table(start), []
    ana, ben = to_the_strike(t, done)
    offered = offered_strikes(t, ana, "Arms of the Abyss")[-1:]  # its superior, offered last
    assert offered and all(a.get("dodge") and a.get("additional") == 1 for a in offered)
    target = vampire(t, ben)
    for seat, chosen in ((ana, offered[0]), (ben, {"do": "strike", "minion": target})):
        t.play(seat, chosen)
        done.append((seat, chosen))
    while (c := t.state.open_combat) is not None and c.step != "strike":
        t.play(c.impulse, {"do": "pass"})
        done.append((c.impulse, {"do": "pass"}))
    assert c is not None and c.pairs == 1 and c.due() == (tuple(vampire(t, ana)),)
    # one source of additional strikes (5.6): its basic dodge alone is left
    assert not any(a.get("additional") for a in offered_strikes(t, ana, "Arms of the Abyss"))
    hand = {"do": "strike", "minion": vampire(t, ana)}
    t.play(ana, hand)
    done.append((ana, hand))
    while (c := t.state.open_combat) is not None:
        t.play(c.impulse, {"do": "pass"})
        done.append((c.impulse, {"do": "pass"}))
    assert bens_vampire(t, target) == (1, "ready") and bens_vampire(t, vampire(t, ana)) == (4, "ready")
    assert replayed(start, done).state == t.state


def test_a_strike_card_is_not_offered_to_a_vampire_missing_its_requirement() -> None:
    """Dust Up "Requires an Anarch": Adana de Sforza (POT, not an Anarch) is offered none of its
    strikes, and a bot of hers does not strike with it (the rules would refuse it)."""
    from engine.games.vtes.bots import vtes_bot

    t = one_vampire_table(ADANA, (("Dust Up", 4), ("Conditioning", 3)), seed=5)
    ana, _ = to_the_strike(t, [])
    assert offered_strikes(t, ana, "Dust Up") == []
    view = t.view(ana)
    chosen = vtes_bot("heuristic", seed=1).choose(view, VTES.legal_acts(view))
    assert chosen == {"do": "strike", "minion": vampire(t, ana)}


@pytest.mark.parametrize(("crypt", "points"), [("Andrea Giovanni (G2)", 1), ("Adhiambo (G4)", 2)])
def test_breath_of_the_dragon_at_close_range_burns_its_striker_too(crypt: str, points: int) -> None:
    """Breath of the Dragon: "[vic] Strike: 1R aggravated damage. If this strike is used at close
    range, this striking vampire also takes 1 environmental aggravated damage. [VIC] … 2R … 2":
    at close range Ben's vampire (2 blood) takes the aggravated damage, and Ana's (4 blood, its
    blood cost of 1 paid) takes as much, besides Ben's hand strike of 1."""
    start = one_vampire_table(crypt, (("Breath of the Dragon", 4), ("Conditioning", 3)), seed=5)
    t, done = copy_table(start), []
    ana, ben = to_the_strike(t, done)
    offered = offered_strikes(t, ana, "Breath of the Dragon")[-1:]  # the last level it may use
    assert offered and {(a["damage"], a.get("aggravated"), a.get("ranged")) for a in offered} == {(points, True, True)}
    mine = vampire(t, ana)
    said = strike_and_resolve(t, done, ana, ben, offered[0])
    # Ana's vampire: 4 - 1 (the card's cost) = 3; Ben's 1 normal damage mended with 1 blood; the
    # first aggravated point wounds it (torpor), each other burns a blood
    assert bens_vampire(t, mine) == (3 - 1 - (points - 1), "torpor"), said
    assert replayed(start, done).state == t.state


def test_a_first_strike_a_card_reads_is_struck_with_first_strike() -> None:
    """A strike read as "Strike: first strike, N damage" (P5) carries its first strike into the
    ``strike`` act the offers and bots make from it, so that it resolves before the opposing
    normal strike (:func:`engine.games.vtes.combat._resolve_pair`); a plain one carries none."""
    from engine.games.vtes.card_sentences import read_sentence
    from engine.games.vtes.readings import StrikeReading

    (e,) = read_sentence("strike: first strike, 2 damage").effects
    assert e.first and e.amount == 2
    assert StrikeReading(levels=(), damage=2, first=True).fields() == {"damage": 2, "first": True}
    assert "first" not in StrikeReading(levels=(), damage=2).fields()
