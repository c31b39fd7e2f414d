"""An aim played with a strike (rulebook, "Strike"; docs/protocol.md 4.4.1 ``aim``): Target Vitals,
"Aim. Only usable as this minion chooses a strike. … If any damage from this strike is successfully
inflicted on the opposing minion, they take +2 damage from this strike, and they cannot press this
round." The aimed hand strike is offered, deals 1 + 2 when it lands, and its target is offered no
press and refused one; fully prevented, it deals nothing more and its target may press; an aim with
a dodge is refused; the automatic pass stops for it; a bot aims its strike; the log replays to the
same state.

Every crypt is twelve Arika (strength 1, FOR at superior); Ana's vampire (4 blood) bleeds Ben,
whose vampire (5 blood) blocks; both strike at close range."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.games.vtes.autopass import auto_pass
from engine.games.vtes.bots import vtes_bot
from engine.sim import SimTable
from tests.support.vtes_sim import copy_table, one_vampire_table, replayed, to_the_strike
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = (("Target Vitals", 3), ("Hidden Strength", 2), ("Psyche!", 2))


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Arika", LIBRARY, seed=5, blood=(4, 5, 2, 2))


def aimed(t: SimTable, seat: int) -> list[Act]:
    return [a for a in VTES.legal_acts(t.view(seat)) if a["do"] == "strike" and "aim" in a]


def blood(t: SimTable, pos: list[int]) -> int:
    return next(c.counters for c in t.state.cards if list(c.pos) == pos)


def play(t: SimTable, done: list[tuple[int, Act]], seat: int, chosen: Act) -> list[str]:
    notes = t.play(seat, chosen)
    done.append((seat, chosen))
    return [n.render([f"seat {s}" for s in range(4)]) for n in notes]


def to_step(t: SimTable, done: list[tuple[int, Act]], step: str) -> list[str]:
    said: list[str] = []
    while (c := t.state.open_combat) is not None and c.step != step:
        said += play(t, done, c.impulse, {"do": "pass"})
    return said


def test_the_aimed_hand_strike_lands_for_two_more_and_bars_the_press(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, ben = to_the_strike(t, done)
    offered = aimed(t, ana)
    hand_aimed = [a for a in offered if "card" not in a]
    assert hand_aimed, offered  # the hand strike, with Target Vitals as its aim
    assert auto_pass(t.view(ana)) is None  # the automatic pass stops: the aim fits this strike
    target = vampire(t, ben)
    said = play(t, done, ana, hand_aimed[0])
    assert any("aims with Target Vitals" in line for line in said), said
    play(t, done, ben, {"do": "strike", "minion": target})
    said = to_step(t, done, "press")
    assert blood(t, target) == 5 - 3  # 1 from the hand strike, 2 more from the aim
    assert any("The aimed strike lands" in line and "cannot press this round" in line for line in said), said
    c = t.state.open_combat
    assert c is not None and c.no_press == (tuple(target),)
    if c.impulse == ana:
        play(t, done, ana, {"do": "pass"})
    assert t.state.open_combat is not None and t.state.open_combat.impulse == ben
    assert not [a for a in VTES.legal_acts(t.view(ben)) if a["do"] == "press"]
    with pytest.raises(IllegalMove, match="cannot press this round"):
        t.play(ben, {"do": "press", "minion": target})
    assert auto_pass(t.view(ben)) == {"do": "pass"}  # Psyche! in hand, but no press to make
    assert replayed(start, done).state == t.state


def test_a_fully_prevented_aimed_strike_deals_nothing_more(start: SimTable) -> None:
    """Hidden Strength ([FOR] "Prevent X+1 damage") prevents the strike's 1: the aim adds nothing
    and Ben's vampire may still press."""
    t, done = copy_table(start), []
    ana, ben = to_the_strike(t, done)
    target = vampire(t, ben)
    play(t, done, ana, next(a for a in aimed(t, ana) if "card" not in a))
    play(t, done, ben, {"do": "strike", "minion": target})
    while (c := t.state.open_combat) is not None and c.step == "damage" and c.impulse != ben:
        play(t, done, c.impulse, {"do": "pass"})
    prevents = [a for a in VTES.legal_acts(t.view(ben)) if a["do"] == "prevent" and a.get("normal") == 1]
    assert prevents
    play(t, done, ben, prevents[-1])
    to_step(t, done, "press")
    assert blood(t, target) == 5 - int(prevents[-1].get("blood", 0))
    c = t.state.open_combat
    assert c is not None and c.no_press == ()
    assert replayed(start, done).state == t.state


def test_an_aim_with_a_dodge_or_no_aim_card_is_refused(start: SimTable) -> None:
    t = copy_table(start)
    ana, _ = to_the_strike(t, [])
    view = t.view(ana)
    vitals = next(c.as_list() for c in view.hand if c.name == "Target Vitals")
    press = next(c.as_list() for c in view.hand if c.name == "Psyche!")
    me = vampire(t, ana)
    with pytest.raises(IllegalMove, match="aims a strike that deals damage"):
        t.play(ana, {"do": "strike", "minion": me, "dodge": True, "aim": vitals})
    with pytest.raises(IllegalMove, match="is not an aim card in your hand"):
        t.play(ana, {"do": "strike", "minion": me, "aim": press})


def test_a_bot_aims_its_strike(start: SimTable) -> None:
    t = copy_table(start)
    ana, _ = to_the_strike(t, [])
    view = t.view(ana)
    chosen = vtes_bot("heuristic", seed=1).choose(view, VTES.legal_acts(view))
    assert chosen is not None and chosen["do"] == "strike" and "aim" in chosen
