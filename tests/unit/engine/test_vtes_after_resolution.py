"""An action modifier "only usable after action resolution" that unlocks its vampire (Freak Drive:
"[for] Only usable if the action was successful. Unlock this vampire. [FOR] Only usable if the
action was blocked."), from its record: offered to the acting Methuselah once its minion's action
resolved (its combat over) and before the next, at the level whose condition fits how the action
ended, its printed cost paid; the table unlocks the minion with the card's name; the log replays
to the same state; played before an action resolved it is refused with a sentence.

Every crypt is twelve Arika (FOR at superior); Ana's vampire (4 blood) bleeds Ben."""

from __future__ import annotations

import re

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import copy_table, one_vampire_table, replayed, to_the_strike
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = (("Freak Drive", 2), ("Lost in Crowds", 2))


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Arika", LIBRARY, seed=5)


def drives(t: SimTable) -> list[Act]:
    ana = t.state.acting
    view = t.view(ana)
    card = next(c.as_list() for c in view.hand if c.name == "Freak Drive")
    return [a for a in VTES.legal_acts(view) if a["do"] == "play" and a["card"] == card]


def state_of(t: SimTable, seat: int) -> tuple[bool, int]:
    c = next(c for c in t.view(seat).cards if c.as_list() == vampire(t, seat))
    return c.locked, c.counters


def pass_all(t: SimTable, done: list[tuple[int, Act]]) -> None:
    while (w := t.state.open_combat or t.state.open_action) is not None:
        step: tuple[int, Act] = (w.impulse, {"do": "pass"})
        if t.state.open_combat is not None and w.step == "strike":
            minion = w.due()[0]
            seat = next(s for s in range(4) if list(minion) == vampire(t, s))
            step = (seat, {"do": "strike", "minion": list(minion)})
        t.play(*step)
        done.append(step)


def test_freak_drive_unlocks_after_a_successful_action_at_basic(start: SimTable) -> None:
    t = copy_table(start)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    card = next(c.as_list() for c in t.view(ana).hand if c.name == "Freak Drive")
    with pytest.raises(IllegalMove, match="after an action of yours resolves"):
        t.play(ana, {"do": "play", "card": card, "minion": vampire(t, ana), "unlock": True})
    done: list[tuple[int, Act]] = [(ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})]
    t.play(*done[0])
    assert drives(t) == []  # not while the action is under way
    pass_all(t, done)
    offered = drives(t)
    assert len(offered) == 1 and offered[0]["unlock"] is True and offered[0]["blood"] == 1  # [for] only
    assert state_of(t, ana) == (True, 4)
    notes = t.play(ana, offered[0])
    done.append((ana, offered[0]))
    assert state_of(t, ana) == (False, 3)  # unlocked, 1 blood paid
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert any(s.startswith("Freak Drive: ") and "unlocks after its action (successful)" in s for s in said), said
    assert drives(t) == []  # unlocked: nothing left to unlock
    assert replayed(start, done).state == t.state


def test_freak_drive_follows_a_blocked_action_at_superior(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, _ = to_the_strike(t, done)
    pass_all(t, done)
    offered = drives(t)
    assert len(offered) == 1  # the [FOR] clause: only if the action was blocked
    t.play(ana, offered[0])
    assert not state_of(t, ana)[0]


def test_forced_march_is_played_once_a_turn_by_a_vampire_as_its_text_limits() -> None:
    """ "A vampire can play only one Forced March each turn": after a second successful action the
    second copy is neither offered nor accepted, in the card's words; the next turn it is."""
    t = one_vampire_table("Arika", (("Forced March", 2), ("Lost in Crowds", 2)), seed=5)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey

    def marches() -> list[Act]:
        view = t.view(ana)
        cards = [c.as_list() for c in view.hand if c.name == "Forced March"]
        return [a for a in VTES.legal_acts(view) if a["do"] == "play" and a["card"] in cards]

    done: list[tuple[int, Act]] = [(ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})]
    t.play(*done[0])
    pass_all(t, done)
    first = marches()
    assert first and first[0]["unlock"] is True
    t.play(ana, first[0])
    assert state_of(t, ana)[0] is False
    t.play(ana, {"do": "action", "kind": "hunt", "minion": vampire(t, ana)})
    pass_all(t, done)
    assert state_of(t, ana)[0] is True and marches() == []
    second = next(c.as_list() for c in t.view(ana).hand if c.name == "Forced March")
    words = '"A vampire can play only one Forced March each turn": Arika (G2) has played one already'
    with pytest.raises(IllegalMove, match=re.escape(words)):
        t.play(ana, {"do": "play", "card": second, "minion": vampire(t, ana), "unlock": True})
    assert t.state.limited and t.state.limited[0].scope == "each turn"
    t.play(ana, {"do": "end_turn"})
    assert t.state.limited == ()  # the turn is over: so is the limit
