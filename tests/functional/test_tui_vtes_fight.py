"""A person's combat and referendum at the VTES table, by keys and the command line only, against
heuristic bots (shared/rules/vtes-actions.md 5–7, P5–P7; the table in one process,
tests.support.vtes_table):

- the person's bleed is blocked by a bot (its pool is low: it blocks): the combat opens, the combat
  box names both combatants with their blood, the round and the step; ``.`` passes each step, ``s``
  strikes the hand strike, ``P`` presses in round 1's press step (the engine leaves the press's
  source to the player), and a second round is fought; the box shows each side's strike;
- the person calls a referendum with a political action card of the hand: ``a`` announces it (the
  menu), ``.`` passes the action's windows, ``:terms`` records the terms, ``.`` passes before votes,
  ``V`` prefills ``vote for `` on the command line (``calling`` completes it), ``.`` says done; the
  bots vote and say done; the referendum box showed the votes, and the result is said.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.games.vtes.offers import hunts_due
from engine.games.vtes.vocab import ActionKind, CombatStep, Phase, Poll
from tests.support.local_session import LocalGameSession
from tests.support.poll import eventually
from tests.support.tui import shown
from tests.support.vtes_table import accept_as, advance, dealt_vtes, keys_after_a_look, said
from tests.support.vtes_table import notes_text as _log
from tests.support.vtes_table import screen_view as _view
from tui.app import Start, VampireApp
from tui.games.vtes.table import VtesTableScreen


def _combat_box(app: VampireApp) -> str:
    return shown(app.screen.query_one("#vt-combat"))


def _referendum_box(app: VampireApp) -> str:
    return shown(app.screen.query_one("#vt-referendum"))


def _log_panel(app: VampireApp) -> str:
    return " ".join(" ".join(line.text.split()) for line in app.screen.query_one("#log").lines)


def _keys(line: str) -> list[str]:
    return ["space" if ch == " " else ch for ch in line]


def _settled(app: VampireApp) -> bool:
    return not app.screen.submitting and not app.screen._queued


async def _pass_action(pilot: Any, app: VampireApp) -> None:
    """Press ``.`` each time the open action's impulse comes to the person, until it resolves."""
    for _ in range(30):
        await eventually(
            lambda: _view(app).action is None or (_view(app).action.impulse == 0 and _settled(app)),
            30,
            "the impulse back, or the action over",
            pilot=pilot,
        )
        if _view(app).action is None:
            return
        await pilot.press("full_stop")
        await pilot.pause(0.05)
    raise AssertionError("the action never resolved")


def _my_bleed_with_a_fighting_blocker(view: Any) -> bool:
    """My minion phase, no action open; a ready unlocked vampire of mine with 2 blood or more that
    has not bled; my prey has a ready unlocked vampire, each of them with 2 blood or more (a hand
    strike leaves both in the fight for a second round), and pool above 11."""
    if view.acting != 0 or view.phase != Phase.MINION or view.action is not None or view.combat is not None:
        return False
    prey = view.players[0].prey
    bled = {d.minion for d in view.done if d.kind == ActionKind.BLEED}
    mine = [c for c in view.ready_unlocked(0) if c.pos not in bled and c.crypt and c.counters >= 2]
    theirs = view.ready_unlocked(prey)
    return (
        bool(mine)
        and bool(theirs)
        and all(c.crypt and c.counters >= 2 for c in theirs)
        and view.players[prey].pool > 11
        and not any("Combat" in c.types for c in view.hand)
    )


async def test_the_persons_bleed_is_blocked_and_fought_for_two_rounds_by_keys() -> None:
    local = dealt_vtes(11)
    advance(local, _my_bleed_with_a_fighting_blocker, limit=60000)
    # The prey's pool low: its bot blocks the bleed. A change to another's pool is a claim, which a
    # bot takes on no one's word (docs/vtes-by-hand.md): its seat accepts it, as a person there may.
    prey = local.seats[0].view().players[0].prey
    low = local.seats[0].view().players[prey].pool - 8
    local.submit(
        local.seats[0], "move", local.seats[0].move_body({"do": "pool", "seat": prey, "delta": -low, "cause": "test"})
    )
    accept_as(local, prey)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        keys_after_a_look(app)  # keys at machine speed: past the key guard each time
        name = session.table.names[prey]
        await eventually(lambda: _view(app).players[prey].pool == 8, 30, "the prey's pool at 8", pilot=pilot)
        await eventually(lambda: _settled(app), 10, "the pool change taken", pilot=pilot)
        await pilot.press("b")
        await eventually(lambda: _view(app).action is not None, 30, "the bleed announced", pilot=pilot)
        await _pass_action(pilot, app)
        await eventually(lambda: _view(app).combat is not None, 30, "the bot's block and the combat", pilot=pilot)
        assert _view(app).players[prey].pool == 8  # blocked
        combat = _view(app).combat
        mine, theirs = _view(app).card(combat.acting), _view(app).card(combat.opposing)
        assert mine.controller == 0 and theirs.controller == prey
        short = mine.name.split(" (")[0]
        foe = theirs.name.split(" (")[0]
        # The combat box: both combatants with their blood, the round, the range, the step, the keys.
        await eventually(lambda: "round 1" in _combat_box(app).lower(), 10, "the combat box", pilot=pilot)
        box = _combat_box(app)
        assert f"your {short} ({mine.counters} blood)" in box
        assert f"{name}'s {foe} ({theirs.counters} blood)" in box
        assert "before range" in box
        assert "impulse: you" in box and ". pass" in box
        # The person's own keys fight the combat: . each step, s strikes, P presses in round 1.
        seen: dict[str, str] = {}
        pressed = struck = 0
        for _ in range(60):
            await eventually(
                lambda: _view(app).combat is None or (_view(app).combat.impulse == 0 and _settled(app)),
                30,
                "my impulse in the combat, or its end",
                pilot=pilot,
            )
            c = _view(app).combat
            if c is None:
                break
            box = _combat_box(app)
            seen.setdefault(f"{c.round}:{c.step}", box)
            if c.step == CombatStep.STRIKE:
                assert "your strike is due" in box and "s hand strike" in box
                await pilot.press("s")
                struck += 1
            elif c.step == CombatStep.PRESS and c.round == 1 and not pressed:
                assert "P press" in box
                await pilot.press("P")
                await eventually(lambda: _view(app).combat.press, 10, "the press", pilot=pilot)
                assert "presses to continue" in _combat_box(app)
                pressed += 1
            else:
                await pilot.press("full_stop")
            await pilot.pause(0.05)
        await eventually(lambda: _view(app).combat is None, 30, "the end of the combat", pilot=pilot)
        log = _log(app)
        assert struck == 2 and pressed == 1, (struck, pressed, log)
        assert "The press stands: round 2, before range" in log
        assert f"The combat between {short}" in log and "is over" in log
        # In each round the damage step showed each side's strike and what it will do.
        for rnd in (1, 2):
            damage = seen[f"{rnd}:{CombatStep.DAMAGE}"]
            assert f"round {rnd}" in damage.lower() and "close range" in damage
            # Each hand strike deals its minion's printed strength (Troius: 2, "+1 strength").
            assert f"{short}: hand strike, {_strength(mine)} damage →" in damage
            assert f"{foe}: hand strike, {_strength(theirs)} damage →" in damage
        # The blood: each took the other's strength in damage a round, mended with its own blood (P6).
        after = _view(app)
        assert after.card(combat.acting).counters == mine.counters - 2 * _strength(theirs)
        assert after.card(combat.opposing).counters == theirs.counters - 2 * _strength(mine)
        assert (
            not app.screen.query_one("#vt-combat").display or "-open" not in app.screen.query_one("#vt-combat").classes
        )


def _my_minion_phase_with_a_political_card(view: Any) -> bool:
    if view.acting != 0 or view.phase != Phase.MINION or view.action is not None or view.combat is not None:
        return False
    if any(d.kind == ActionKind.POLITICAL for d in view.done):
        return False
    political = [c for c in view.hand if "Political Action" in c.types]
    vampires = [c for c in view.ready_unlocked(0) if c.crypt and c.counters >= 1]
    return bool(political) and bool(vampires) and not hunts_due(view, 0)


async def test_the_person_calls_a_referendum_votes_and_says_done_by_keys() -> None:
    local = dealt_vtes(12)
    advance(local, _my_minion_phase_with_a_political_card, limit=60000)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        keys_after_a_look(app)  # keys at machine speed: past the key guard each time
        card = next(c for c in _view(app).hand if "Political Action" in c.types)
        title = card.name.split(" (")[0]
        blooded = [c.as_list() for c in _view(app).ready_unlocked(0) if c.crypt and c.counters >= 1]
        # a: the announce menu lists the political action with the card; Enter on it announces it.
        await pilot.press("a")
        await eventually(
            lambda: app.screen is not None and not isinstance(app.screen, VtesTableScreen), 10, "menu", pilot=pilot
        )
        menu = app.screen
        options = menu.query_one("OptionList")
        pick = next(
            (
                i
                for i, (words, act) in enumerate(menu.choices)
                if act.get("kind") == ActionKind.POLITICAL and act["minion"] in blooded and title in words
            ),
            None,
        )
        assert pick is not None, [words for words, _ in menu.choices]
        options.highlighted = pick
        await pilot.press("enter")
        await eventually(
            lambda: _view(app).action is not None or _view(app).referendum is not None,
            30,
            "the political action announced",
            pilot=pilot,
        )
        await _pass_action(pilot, app)
        await eventually(lambda: _view(app).referendum is not None, 30, "the referendum (unblocked)", pilot=pilot)
        # The terms: the caller records them on the command line (in words: the players apply them;
        # a card whose terms the table applies also offers them by number, "terms N|TEXT").
        await eventually(
            lambda: "|TEXT" in _referendum_box(app) or "terms TEXT" in _referendum_box(app),
            10,
            "the terms key",
            pilot=pilot,
        )
        assert "Referendum: you set the terms" in _referendum_box(app)
        await pilot.press("colon", *_keys("terms Mina gains 1 pool"), "enter", "escape")
        await eventually(lambda: _view(app).referendum.step != Poll.TERMS, 30, "the terms recorded", pilot=pilot)
        await eventually(lambda: "Mina gains 1 pool" in _referendum_box(app), 10, "the terms shown", pilot=pilot)
        # Before votes: . passes on each impulse that reaches the person.
        for _ in range(10):
            await eventually(
                lambda: (
                    _view(app).referendum.step == Poll.VOTING or (_view(app).referendum.impulse == 0 and _settled(app))
                ),
                30,
                "my impulse before votes, or the polling",
                pilot=pilot,
            )
            if _view(app).referendum.step == Poll.VOTING:
                break
            assert ". pass" in _referendum_box(app)
            await pilot.press("full_stop")
            await pilot.pause(0.05)
        await eventually(lambda: "V vote" in _referendum_box(app), 10, "the vote key", pilot=pilot)
        # V: the command line prefilled with the first source held, the calling card's vote: Enter.
        await pilot.press("V")
        await eventually(
            lambda: app.screen.query_one("#vt-cmd").value == "vote for calling", 10, "the prefill", pilot=pilot
        )
        assert "calling" in said(app)
        await pilot.press("enter")
        await eventually(lambda: any(v.seat == 0 for v in _view(app).referendum.votes), 30, "my vote cast", pilot=pilot)
        await eventually(lambda: "Mina 1 (calling" in _referendum_box(app), 10, "my vote shown", pilot=pilot)
        box = _referendum_box(app)
        assert "for " in box and "against " in box and "not done:" in box
        # .: done; the bots vote and say done; the referendum closes with its result.
        await eventually(lambda: _settled(app), 10, "settled", pilot=pilot)
        await pilot.press("full_stop")
        await eventually(lambda: _view(app).referendum is None, 30, "the end of the polling", pilot=pilot)
        r = next(
            n.render(list(session.table.names))
            for n in reversed(session.table.notes)
            if n.text.startswith("The referendum ")
        )
        assert r.startswith(("The referendum passes", "The referendum fails")), _log(app)[-600:]
        assert "Mina gains 1 pool" in r
        # The line under the board says the result; so does the log panel; the box is gone.
        await eventually(lambda: said(app) == r, 10, "the result under the board", pilot=pilot)
        await eventually(lambda: r.split(":")[0] in _log_panel(app), 10, "the result in the log panel", pilot=pilot)
        assert "-open" not in app.screen.query_one("#vt-referendum").classes


def _strength(minion: Any) -> int:
    """A minion's printed strength, as its card record reads it (1 where nothing is printed)."""
    from engine.games.vtes.card_record import record

    rec = record(minion.card)
    return rec.printed.strength if rec is not None and rec.printed.strength else 1
