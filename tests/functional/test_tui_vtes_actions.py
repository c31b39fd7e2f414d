"""A person's minion actions at the VTES table, by keys only, against heuristic bots
(shared/rules/vtes-actions.md 4, P1–P4; the table in one process, tests.support.vtes_table):

- a bot's bleed at the person waits for the person's decision (the action box names the
  Methuselah who may block and the impulse; the status line waits for the person alone): ``b``
  attempts the block with the person's ready unlocked minion, ``.`` passes the later windows, and
  the bleed is blocked: the person's pool is untouched;
- the person's bleed (``b`` announces it) is blocked by a bot whose pool is low (set by a ``pool``
  command that names its cause): the prey keeps its pool, the log says the minions enter combat.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.games.vtes.vocab import ActionKind, Phase, Window
from tests.support.local_session import LocalGameSession
from tests.support.poll import eventually
from tests.support.tui import shown
from tests.support.vtes_table import accept_as, advance, dealt_vtes, keys_after_a_look, said
from tests.support.vtes_table import notes_text as _log
from tests.support.vtes_table import screen_view as _view
from tui.app import Start, VampireApp
from tui.games.vtes.table import VtesTableScreen


def _box(app: VampireApp) -> str:
    return shown(app.screen.query_one("#vt-action"))


def _status(app: VampireApp) -> str:
    return shown(app.screen.query_one("#waiting"))


async def _pass_until_closed(pilot: Any, app: VampireApp) -> None:
    """Press ``.`` each time the impulse of the innermost window (the action, or a card in it that
    waits for answers as it is played) comes to the person, until the action resolves."""

    def mine() -> bool:
        loop = getattr(_view(app).innermost, "loop", None)
        return loop is not None and loop.holder == 0 and not app.screen.submitting

    for _ in range(20):
        await eventually(
            lambda: _view(app).action is None or mine(),
            30,
            "the impulse back, or the action over",
            pilot=pilot,
        )
        if _view(app).action is None:
            return
        await pilot.press("full_stop")
        await pilot.pause(0.05)
    raise AssertionError("the action never resolved")


def _bled_at_me(view: Any) -> bool:
    a = view.action
    return (
        a is not None
        and a.kind == ActionKind.BLEED
        and 0 in a.targets
        and a.impulse == 0
        and view.may_block(0)
        and bool(view.ready_unlocked(0))
    )


async def test_a_bots_bleed_waits_for_the_person_who_blocks_it_with_b() -> None:
    local = dealt_vtes(11)
    advance(local, _bled_at_me, limit=60000)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        keys_after_a_look(app)  # keys at machine speed: past the key guard each time
        view = _view(app)
        names = list(session.table.names)
        actor = names[view.action.actor]
        pool = view.players[0].pool
        # The box says who acts, at whom, the window and whose impulse; and the person's keys.
        await eventually(lambda: "b block with" in _box(app), 10, "the block key in the action box", pilot=pilot)
        box = _box(app)
        assert f"{actor}'s " in box and f"bleeds you for {view.action.amount}" in box
        assert "stealth 0 vs intercept 0" in box and "window A: you may block" in box and "impulse: you" in box
        assert "Your impulse" in _status(app) and "Your turn." not in _status(app)
        # Nobody else is waited for: the table waits for the holder of the impulse alone.
        assert session.table.waiting_on() == [0]
        await pilot.press("b")
        # The attempt is made (a bot's card may fail it at once: the minion is then barred).
        await eventually(
            lambda: (a := _view(app).action) is None or a.window == Window.ATTEMPT or bool(a.tried),
            30,
            "the block attempt",
            pilot=pilot,
        )
        assert "attempts to block" in _log(app)
        await _pass_until_closed(pilot, app)
        # The bot may answer the attempt with a stealth card (its record's +1 stealth): the block
        # then fails and the bleed goes on; else the block stands and no pool is burned.
        await eventually(
            lambda: "enter combat" in _log(app) or "fails: intercept" in _log(app), 30, "the block", pilot=pilot
        )
        if "enter combat" in _log(app):
            assert _view(app).players[0].pool == pool
        else:
            assert "stealth +1" in _log(app)
        assert (
            not app.screen.query_one("#vt-action").display or "-open" not in app.screen.query_one("#vt-action").classes
        )


def _my_minion_phase_with_a_blocker(view: Any) -> bool:
    if view.acting != 0 or view.phase != Phase.MINION or view.action is not None:
        return False
    prey = view.players[0].prey
    bled = {d.minion for d in view.done if d.kind == ActionKind.BLEED}
    mine = [c for c in view.ready_unlocked(0) if c.pos not in bled and c.counters > 0]
    return bool(mine) and bool(view.ready_unlocked(prey)) and view.players[prey].pool > 11


async def test_the_persons_bleed_is_blocked_by_a_bot_whose_pool_is_low() -> None:
    local = dealt_vtes(11)
    advance(local, _my_minion_phase_with_a_blocker, limit=60000)
    prey = local.seats[0].view().players[0].prey
    # The prey's pool down to 8: a claim on it, which its seat accepts (a bot takes no pool on
    # words: docs/vtes-by-hand.md, "A bot's answer").
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
        view = _view(app)
        name = session.table.names[prey]
        assert view.players[prey].pool == 8
        await pilot.press("b")
        await eventually(lambda: _view(app).action is not None, 30, "the bleed announced", pilot=pilot)
        assert f"bleeds {name} for " in _box(app)  # its printed bleed (offers.plain_bleed)
        assert "pass" in _box(app)
        await _pass_until_closed(pilot, app)
        await eventually(lambda: "enter combat" in _log(app), 30, "the bot's block", pilot=pilot)
        assert _view(app).players[prey].pool == 8
        assert "blocks" in _log(app)


async def test_a_change_that_becomes_a_claim_is_said_as_a_claim_not_as_done() -> None:
    """A pool change to another Methuselah is a claim: the line under the board says it waits for
    their answer (docs/vtes-by-hand.md), never "Sent" as if it had happened."""
    local = dealt_vtes(11)
    advance(local, _my_minion_phase_with_a_blocker, limit=60000)
    prey = local.seats[0].view().players[0].prey
    # The prey's pool down to 8: a claim on it, which its seat accepts (a bot takes no pool on
    # words: docs/vtes-by-hand.md, "A bot's answer").
    low = local.seats[0].view().players[prey].pool - 8
    local.submit(
        local.seats[0], "move", local.seats[0].move_body({"do": "pool", "seat": prey, "delta": -low, "cause": "test"})
    )
    accept_as(local, prey)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    app = VampireApp(Start("table", session), name="Mina")
    said: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        keys_after_a_look(app)
        screen = app.screen
        assert isinstance(screen, VtesTableScreen)
        say = screen.say

        def keep(text: str, illegal: bool, todo: bool = False, guarding: bool = True) -> None:
            said.append(text)
            say(text, illegal, todo, guarding)

        screen.say = keep  # type: ignore[method-assign]
        name = session.table.names[_view(app).players[0].prey]
        await pilot.press("colon", *[("space" if c == " " else c) for c in f"pool -1 {name} for test"], "enter")
        await eventually(lambda: any("Claim" in s for s in said), 10, "the claim said", pilot=pilot)
        line = next(s for s in said if "Claim" in s)
        assert line.startswith("✓ Claim sent, not done yet:"), line
        assert f"waits for {name} to accept it" in line
        # A change to one's own pool takes effect at once: "Sent", as before.
        said.clear()
        await eventually(lambda: not app.screen.submitting, 10, "the claim taken", pilot=pilot)
        await pilot.press("escape", "colon", *[("space" if c == " " else c) for c in "pool +1"], "enter")
        await eventually(lambda: any("Sent" in s for s in said), 10, "the change said", pilot=pilot)
        assert all("Claim" not in s for s in said), said


def _mina(until: Any) -> tuple[LocalGameSession, VampireApp]:
    """Mina's screen (seat 0) at the table of seed 11 once ``until(view)`` holds."""
    local = dealt_vtes(11)
    advance(local, until, limit=60000)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    return session, VampireApp(Start("table", session), name="Mina")


async def _at_the_table(app: VampireApp, pilot: Any) -> None:
    await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
    keys_after_a_look(app)  # keys at machine speed: past the key guard each time


async def test_a_pool_drain_typed_against_a_bot_is_disputed_and_the_screen_says_why() -> None:
    """``pool -5 <bot> for judge ruling``: the screen says at once that a bot takes no pool on
    one's word, the bot disputes it saying why in the game log, and its pool stays as it was
    (docs/vtes-by-hand.md, "A bot's answer")."""
    session, app = _mina(_my_minion_phase_with_a_blocker)
    async with app.run_test(size=(80, 24)) as pilot:
        await _at_the_table(app, pilot)
        view = _view(app)
        prey = view.players[0].prey
        name = session.table.names[prey]
        pool = view.players[prey].pool
        await pilot.press("colon", *[("space" if c == " " else c) for c in f"pool -5 {name} for judge ruling"], "enter")
        await eventually(lambda: "no card named: a bot takes no pool" in _log(app), 30, "the dispute", pilot=pilot)
        await eventually(lambda: f"{name} is a bot: on your word it takes no pool" in said(app), 30, "the bound said")
        assert f"{name} disputes act" in _log(app)
        assert _view(app).players[prey].pool == pool
