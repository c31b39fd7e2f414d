"""A person at a VTES table, by keys and commands only, against a real host and two bots over
loopback TCP (tui.connect.LocalPlay: the code path of `vampire play --game vtes`): the seat
declares its deck by itself, the person moves through phases, transfers pool to a vampire,
influences it out, announces a bleed with it and passes the impulse until it resolves (blocked or
not), passes when a bot's action waits for it, changes pool by command (naming the cause when it is
another Methuselah's), and ousts the table to the end screen; a refused act shows the engine's
sentence and is never sent; ``A`` switches the seat's automatic pass off and on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from engine.games.vtes.vocab import ActionKind, CombatStep, Phase, Poll, Status, Step, Zone
from tests.support.local_play import TmpFactory
from tests.support.poll import eventually
from tests.support.tui import screen_words, shown
from tests.support.vtes_table import keys_after_a_look
from tests.support.vtes_table import screen_view as _view
from tui.app import Start, VampireApp
from tui.games.vtes.table import VtesTableScreen
from tui.screens.results import GameEndScreen
from tui.session import LocalTableSpec


def _app(tmp_path: Path) -> tuple[VampireApp, TmpFactory]:
    factory = TmpFactory(tmp_path / "game.vtlog")
    spec = LocalTableSpec("Mina", ["heuristic", "heuristic"], {}, "vtes")
    return VampireApp(Start("play", spec), factory=factory, name="Mina"), factory


def _my_phase(app: VampireApp, phase: Phase | None = None) -> bool:
    """It is my turn (in ``phase``, if given) and nothing of mine is on its way."""
    view = _view(app)
    if view is None or view.step != Step.PLAY or view.acting != view.seat or app.screen.submitting:
        return False
    return phase is None or view.phase == phase


def _my_key(app: VampireApp) -> str | None:
    """The key that answers what waits for me now: ``s`` when my combatant's strike is due, ``.``
    on my impulse in an action, a combat step or before a referendum's votes, and to say I am done
    voting; None when nothing waits for me (or my last key is still on its way)."""
    view = _view(app)
    if view is None or app.screen.submitting:
        return None
    me = view.seat
    r = view.referendum
    if r is not None:
        before = r.step == Poll.BEFORE and r.impulse == me
        return "full_stop" if before or (r.step == Poll.VOTING and me not in r.done) else None
    c = view.combat
    if c is not None:
        if c.impulse != me:
            return None
        return "s" if c.step == CombatStep.STRIKE else "full_stop"
    return "full_stop" if view.action is not None and view.action.impulse == me else None


def _at_capacity(view: Any) -> list[Any]:
    """My uncontrolled vampires with as much blood as their capacity (ready to influence out)."""
    return [c for c in view.uncontrolled(view.seat) if c.capacity and c.counters >= c.capacity]


def _settled(app: VampireApp) -> bool:
    """No action, combat or referendum under way."""
    view = _view(app)
    return view.action is None and view.combat is None and view.referendum is None


async def _my_turn(pilot: Any, app: VampireApp, timeout: float) -> None:
    """Wait for my turn, settled; meanwhile answer whatever waits for me (:func:`_my_key`): an
    action's impulse, a combat's step or strike, a referendum's pass or done."""
    for _ in range(int(timeout / 0.02)):
        if _my_phase(app) and _settled(app):
            return
        key = _my_key(app)
        if key is not None:
            await pilot.press(key)
        await pilot.pause(0.02)
    view = _view(app)
    raise AssertionError(
        f"my turn did not come (the screen says: {_say(app)}; {shown(app.screen.query_one('#waiting'))};"
        f" {view.action if view else None}; {view.combat if view else None};"
        f" {view.referendum if view else None}; focus {app.focused}; {app.screen.submitting})"
    )


async def _resolve(pilot: Any, app: VampireApp) -> None:
    """Answer each impulse of the open action, then of the combat it may open, until all resolve."""
    for _ in range(3000):
        if _settled(app) and not app.screen.submitting:
            return
        key = _my_key(app)
        if key is not None:
            await pilot.press(key)
        await pilot.pause(0.02)
    raise AssertionError("the action never resolved")


async def _press(pilot: Any, app: VampireApp, *keys: str, until: Any, what: str) -> None:
    """Press ``keys`` on the table screen and wait until ``until()`` holds (the act is folded)."""
    await pilot.press(*keys)
    await eventually(until, 30, what, pilot=pilot)


async def _command(
    pilot: Any, app: VampireApp, line: str, until: Any, what: str, leave: bool = True, accepted_by: int | None = None
) -> None:
    """Type ``line`` on the command line (``:`` opens it) and Enter; ``leave``: then Esc back to
    the hand (not when the act may end the game: Esc would close the end screen); ``accepted_by``:
    the bot's seat whose things the line changes: it disputes a claim on one's word
    (docs/vtes-by-hand.md, "A bot's answer"), then its seat accepts it, as a person there may."""
    await pilot.press("colon", *_keys(line), "enter", *(["escape"] if leave else []))
    try:
        if accepted_by is not None:
            await _accept_as_bot(pilot, app, accepted_by)
        await eventually(until, 30, what, pilot=pilot)
    except AssertionError as err:
        notes = app.screen.session.table.notes[-4:]
        log = " | ".join(n.render(list(app.screen.session.table.names)) for n in notes)
        raise AssertionError(f"{err} (after {line!r} the screen says: {_say(app)}; log: {log})") from None


async def _accept_as_bot(pilot: Any, app: VampireApp, seat: int) -> None:
    """The bot at ``seat`` disputes the claim just made on its things; its seat then accepts it
    (a disputed claim takes effect once the touched Methuselah accepts it)."""

    def disputed() -> Any:
        view = _view(app)
        return next((c for c in view.claims if seat in c.disputed and seat not in c.accepted), None) if view else None

    await eventually(lambda: disputed() is not None, 30, "the bot's dispute", pilot=pilot)
    bot = next(b for b in app.screen.session._local.bots if b.seat is not None and b.seat.index == seat)
    await bot.submit("move", {"do": "accept", "act": disputed().act})


def _keys(line: str) -> list[str]:
    """The key presses that type ``line``."""
    return ["space" if ch == " " else ch for ch in line]


def _say(app: VampireApp) -> str:
    return shown(app.screen.query_one("#vt-say"))


async def _to_phase(pilot: Any, app: VampireApp, phase: Phase) -> None:
    while not _my_phase(app, phase):
        await _my_turn(pilot, app, 30)
        if _my_phase(app, phase):
            break
        before = _view(app).phase
        await _press(pilot, app, "n", until=lambda b=before: _view(app).phase != b, what="the next phase")


async def test_a_person_plays_vtes_by_keys_and_commands_to_the_end_screen(tmp_path: Path) -> None:
    app, factory = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        keys_after_a_look(app)  # keys at machine speed: past the key guard each time
        # The seat declared its deck itself; the game reached play.
        await eventually(lambda: _view(app) is not None and _view(app).step == Step.PLAY, 90, "play", pilot=pilot)
        assert factory.made[0].sent[0]["do"] == "deck"
        # A switches the seat's automatic pass off ("ask me every time": the screen says so), and
        # A again turns it back on (the seat's driver does it).
        session = app.screen.session
        assert session.auto_pass is True
        await pilot.press("A")
        await eventually(lambda: session.auto_pass is False, 10, "auto-pass off", pilot=pilot)
        assert "every time" in _say(app) or "Auto-pass off" in _say(app)
        await pilot.press("A")
        await eventually(lambda: session.auto_pass is True, 10, "auto-pass on again", pilot=pilot)
        bled = influenced = False
        for _turn in range(12):
            await _my_turn(pilot, app, 180)
            pool = _view(app).players[_view(app).seat].pool
            if pool < 12:
                # The bots bleed hard: a pool gain by command keeps the person in the game (the
                # engine applies card effects as players say; here, a "gain" of 10).
                await _command(
                    pilot,
                    app,
                    "pool +10 for gain",
                    until=lambda p=pool: _view(app).players[_view(app).seat].pool == p + 10,
                    what="the pool gain",
                )
            await _to_phase(pilot, app, Phase.MINION)
            view = _view(app)
            me = view.seat
            ready = [c for c in view.controlled(me, Zone.READY) if c.crypt and not c.locked]
            if ready:
                # b announces the bleed; the impulse goes round (a bot may block it).
                await pilot.press("b")
                try:
                    # Announced: open, or already resolved (with nothing to play, the impulse
                    # passes by itself, and a bot may pass at once).
                    await eventually(
                        lambda: any(d.kind == ActionKind.BLEED for d in _view(app).done), 30, "the bleed", pilot=pilot
                    )
                except AssertionError as err:
                    raise AssertionError(f"{err}: {_say(app)}") from None
                await _resolve(pilot, app)
                bled = True
            await _to_phase(pilot, app, Phase.INFLUENCE)
            view = _view(app)
            if not influenced and view.uncontrolled(me) and not _at_capacity(view):
                # Blood by hand (the engine applies card effects as players say) fills the vampire
                # closest to its capacity: no need to play the turns of transfers it would take.
                target = max(view.uncontrolled(me), key=lambda c: c.counters - c.capacity)
                await _command(
                    pilot,
                    app,
                    f"blood +{target.capacity - target.counters} {target.name} for test",
                    until=lambda: bool(_at_capacity(_view(app))),
                    what="the blood by hand",
                )
                view = _view(app)
            at_capacity = _at_capacity(view)
            if at_capacity and not influenced:
                n = len(view.controlled(me, Zone.READY))
                await _press(
                    pilot,
                    app,
                    "i",
                    until=lambda n=n: len(_view(app).controlled(_view(app).seat, Zone.READY)) > n,
                    what="the influence",
                )
                influenced = True
            # Every transfer left to the uncontrolled vampire closest to its capacity, by name.
            view = _view(app)
            if view.transfers > 0 and view.players[me].pool > 4 and view.uncontrolled(me):
                target = max(view.uncontrolled(me), key=lambda c: c.counters - c.capacity)
                left = view.transfers
                await _command(
                    pilot,
                    app,
                    f"transfer {left} {target.name}",
                    until=lambda: _view(app).transfers == 0 and not app.screen.submitting,
                    what="the transfers",
                )
            # End the turn from the influence phase.
            turn = _view(app).turn
            await _press(pilot, app, "N", until=lambda t=turn: _view(app).turn > t, what="the end of my turn")
            if bled:
                break
        assert influenced and bled
        # A pool change by command, on another Methuselah (on my turn: no bot's bleed meanwhile).
        await _my_turn(pilot, app, 180)
        view = _view(app)
        prey = view.players[view.seat].prey
        name = app.screen.session.table.names[prey]
        before = view.players[prey].pool
        await _command(
            pilot,
            app,
            f"pool -1 {name} for test",
            until=lambda: _view(app).players[prey].pool == before - 1,
            what="the pool change",
            accepted_by=prey,
        )
        # An act the rules refuse: the engine's sentence, nothing sent.
        sent = len(factory.made[0].sent)
        await pilot.press("colon", *_keys("pool 0"), "enter")
        await eventually(lambda: "✗" in _say(app), 10, "the refusal", pilot=pilot)
        assert "pool change must not be 0" in _say(app)
        assert len(factory.made[0].sent) == sent
        await pilot.press("escape")
        # Oust every other Methuselah, one prey after another, to the end of the game.
        for _ in range(3):
            view = _view(app)
            if view is None or view.step == Step.OVER:
                break
            prey = view.players[view.seat].prey
            name = app.screen.session.table.names[prey]
            pool = view.players[prey].pool
            await _command(
                pilot,
                app,
                f"pool -{pool} {name} for test",
                until=lambda p=prey: (
                    isinstance(app.screen, GameEndScreen)
                    or (_view(app) is not None and _view(app).players[p].status != Status.IN)
                ),
                what="the ousting",
                leave=False,
                accepted_by=prey,
            )
            if isinstance(app.screen, VtesTableScreen):
                await pilot.press("escape")
        await eventually(lambda: isinstance(app.screen, GameEndScreen), 60, "the end screen", pilot=pilot)
        text = await screen_words(app, pilot, "Archon checks")
        assert "Game over." in text and "game ended by ousts" in text and "Archon checks: passed" in text
        # Two ousts and the last Methuselah standing: 3 VP and the game win.
        assert re.search(r"\bMina\s+3\s+1\s", text), text
