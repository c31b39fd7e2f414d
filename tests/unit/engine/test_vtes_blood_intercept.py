"""Blood burned for intercept during an action by the vampire that played the card that allows it
(and as a card is played: Falcon's Eye at Animalism, "This vampire burns 1 blood to get +1 intercept")
(Speak with Spirits at superior: "Only usable by a locked vampire. This vampire unlocks and attempts
to block. Once this action, this vampire can burn 1 blood to get +1 intercept."; Eyes of the Wild:
"During this action, this Gangrel can burn 1 blood to get +1 intercept."): offered while that
vampire attempts to block and its intercept is under the action's stealth, the blood burned and the
intercept added with the card's name, "once this action" refused in the card's words, the automatic
pass stops for it, a bot takes it while it keeps a blood, and the log replays to the same state.

Ana's vampire (4 blood) bleeds Ben, whose locked vampire (2 blood) plays the card, unlocks and
blocks; Ana then adds stealth with Cloak the Gathering and Lost in Crowds."""

from __future__ import annotations

import re

import pytest

from engine.games.base import Act, IllegalMove, MalformedAct
from engine.games.vtes import VTES
from engine.games.vtes.autopass import auto_pass
from engine.games.vtes.blood_intercept import bot_use
from engine.games.vtes.card_coverage import coverage_of
from engine.games.vtes.card_record import Coverage
from engine.games.vtes.card_report import find
from engine.sim import SimTable
from tests.support.vtes_sim import by_hand, copy_table, one_vampire_table, replayed
from tests.support.vtes_sim import first_vampire as vampire
from tui.games.vtes.commands import Context, parse

HAND = (("Cloak the Gathering", 2), ("Lost in Crowds", 2))


def blood(t: SimTable, seat: int) -> int:
    return next(c.counters for c in t.view(seat).cards if c.as_list() == vampire(t, seat))


def legal(t: SimTable, seat: int, do: str) -> list[Act]:
    return [a for a in VTES.legal_acts(t.view(seat)) if a["do"] == do]


def more_stealth(t: SimTable, done: list[tuple[int, Act]], ana: int, ben: int) -> None:
    """Ana plays the first stealth card offered, then the seats pass up to Ben's impulse."""
    cloak = legal(t, ana, "play")[0]
    t.play(ana, cloak)
    done.append((ana, cloak))
    while (a := t.state.open_action) is not None and a.impulse != ben:
        t.play(a.impulse, {"do": "pass"})
        done.append((a.impulse, {"do": "pass"}))


Bleeding = tuple[SimTable, SimTable, list[tuple[int, Act]], int, int]


def bleeding(card: str, vampire_name: str, locked: bool = True) -> Bleeding:
    """Every crypt ``vampire_name``, every library ``card`` and :data:`HAND`; Ben's vampire locked
    (``locked``), Ana's bleeds Ben: the table, a copy from the start, the acts played, Ana's and
    Ben's seats."""
    start = one_vampire_table(vampire_name, ((card, 3), *HAND), seed=5)
    ana = start.state.acting
    ben = start.view(ana).players[ana].prey
    if locked:
        by_hand(start, ben, "lock", cards=[vampire(start, ben)])
    t = copy_table(start)
    done: list[tuple[int, Act]] = [(ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})]
    t.play(*done[0])
    return t, start, done, ana, ben


def to_the_attempt(card: str, vampire_name: str) -> Bleeding:
    """As :func:`bleeding`, then Ben's locked vampire plays ``card`` (unlocking), blocks Ana's
    bleed, and Ana adds 1 stealth."""
    t, start, done, ana, ben = bleeding(card, vampire_name)
    while (a := t.state.open_action) is not None and a.window == "A":
        seat = a.impulse
        if seat == ben:
            wake = [x for x in legal(t, ben, "play") if x.get("unlock") or x.get("wake")]
            step = wake[0] if wake else legal(t, ben, "block")[0]
        else:
            step = {"do": "pass"}
        t.play(seat, step)
        done.append((seat, step))
    assert t.state.open_action is not None and t.state.open_action.impulse == ana
    more_stealth(t, done, ana, ben)
    return t, start, done, ana, ben


def test_speak_with_spirits_burns_blood_for_intercept_once_this_action() -> None:
    t, start, done, ana, ben = to_the_attempt("Speak with Spirits", "Howler")
    a = t.state.open_action
    assert a is not None and (a.stealth, a.intercept) == (1, 0)
    (use,) = legal(t, ben, "adjust")
    assert use["intercept"] == 1 and use["blood"] == 1
    assert auto_pass(t.view(ben)) is None  # the automatic pass stops for it
    typed = parse("intercept +1 by Speak with Spirits", Context(t.view(ben), ["Ana", "Ben", "Cy", "Dee"]))
    assert typed == use  # as a person types it: the offered act, with its blood
    assert bot_use(t.view(ben), [*legal(t, ben, "pass"), use]) == use  # 2 blood: a bot takes it
    notes = t.play(ben, use)
    done.append((ben, use))
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert "Speak with Spirits: Howler (G2) burns 1 blood" in said, said
    assert "Speak with Spirits: intercept +1 → 1" in said, said
    assert blood(t, ben) == 1 and t.state.open_action.intercept == 1
    more_stealth(t, done, ana, ben)  # Ana outdoes it again
    assert legal(t, ben, "adjust") == []  # once this action
    words = 'Speak with Spirits says "once this action": Howler (G2) has done so already'
    with pytest.raises(IllegalMove, match=re.escape(words)):
        t.play(ben, use)
    assert replayed(start, done).state == t.state
    assert coverage_of(find("Speak with Spirits")) == Coverage.FULLY  # type: ignore[arg-type]


def test_eyes_of_the_wild_burns_blood_for_intercept_each_time_during_this_action() -> None:
    t, start, done, ana, ben = to_the_attempt("Eyes of the Wild", "Basilia")
    (use,) = legal(t, ben, "adjust")
    t.play(ben, use)
    done.append((ben, use))
    more_stealth(t, done, ana, ben)
    (again,) = legal(t, ben, "adjust")  # during this action: again, for 1 blood more
    assert bot_use(t.view(ben), [again]) is None  # its last blood: a bot keeps it
    t.play(ben, again)
    done.append((ben, again))
    assert blood(t, ben) == 0 and t.state.open_action.intercept == 2
    assert replayed(start, done).state == t.state


def test_blood_for_intercept_is_refused_with_a_sentence_for_a_card_or_numbers_that_give_none() -> None:
    t, _, _, ana, ben = to_the_attempt("Speak with Spirits", "Howler")
    (use,) = legal(t, ben, "adjust")
    with pytest.raises(
        IllegalMove, match=re.escape("Speak with Spirits: its vampire burns 1 blood to get +1 intercept")
    ):
        t.play(ben, {**use, "intercept": 2})
    with pytest.raises(IllegalMove, match=re.escape("Howler (G2) gives no intercept for blood during an action")):
        t.play(ben, {**use, "by": vampire(t, ben)})
    assert blood(t, ben) == 2
    with pytest.raises(MalformedAct, match="names the card 'by' that gives the 'intercept'"):
        t.play(ben, {"do": "adjust", "intercept": 1, "blood": 1, "cause": "a rule"})


def test_eyes_of_the_wild_locks_its_gangrel_as_the_action_resolves_when_it_did_not_block() -> None:
    """ "Lock this Gangrel after action resolution if they did not block this action": Ben's
    Gangrel unlocks with the card, then Ben declines to block; the bleed succeeds and it locks."""
    t, start, done, ana, ben = bleeding("Eyes of the Wild", "Basilia")
    said: list[str] = []
    while (a := t.state.open_action) is not None:
        seat = a.impulse
        wake = [x for x in legal(t, ben, "play") if x.get("unlock")] if seat == ben and a.woken == () else []
        step = wake[0] if wake else {"do": "pass"}
        said += [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in t.play(seat, step)]
        done.append((seat, step))
        if wake:
            assert not next(c for c in t.view(ben).cards if c.as_list() == vampire(t, ben)).locked
    assert "Eyes of the Wild: Basilia (G1) locks, having not blocked this action" in said, said
    assert next(c for c in t.view(ben).cards if c.as_list() == vampire(t, ben)).locked
    assert coverage_of(find("Eyes of the Wild")) == Coverage.FULLY  # type: ignore[arg-type]
    assert replayed(start, done).state == t.state


def test_falcons_eye_burns_its_blockers_blood_for_intercept_as_it_is_played() -> None:
    """Falcon's Eye at Animalism: "This vampire burns 1 blood to get +1 intercept": Ben's vampire
    blocks, Ana adds stealth, Ben plays it: the blocker pays 1 blood and gets +1 intercept."""
    t, start, done, ana, ben = bleeding("Falcon's Eye", "Howler", locked=False)
    while (a := t.state.open_action) is not None and a.window == "A":
        step = legal(t, ben, "block")[0] if a.impulse == ben else {"do": "pass"}
        t.play(a.impulse, step)
        done.append((a.impulse, step))
    more_stealth(t, done, ana, ben)
    paid = [x for x in legal(t, ben, "play") if x.get("blood")]
    assert paid and paid[0]["intercept"] == 1 and paid[0]["blood"] == 1 and paid[0]["minion"] == vampire(t, ben)
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in t.play(ben, paid[0])]
    done.append((ben, paid[0]))
    assert any("Falcon's Eye" in s and "intercept +1" in s for s in said), said
    assert blood(t, ben) == 1 and t.state.open_action is not None and t.state.open_action.intercept == 1
    assert coverage_of(find("Falcon's Eye")) == Coverage.FULLY  # type: ignore[arg-type]
    assert replayed(start, done).state == t.state
