"""The ways out of a VTES game other than ousts, played from the keyboard on the real table screen
against a real host and heuristic bots over loopback TCP (shared/rules/vtes.md, "Withdrawal" and
"Tournament rules"):

- a person announces withdrawal (``w``) and, losing no pool or blood for a round, leaves the game
  with its VP;
- a person announces withdrawal, then spends pool: the screen names the condition that failed and
  the act that broke it, and at the person's next turn the withdrawal fails and the person plays on;
- a tournament game called on time (``T``; the bots agree) ends at the end of the phase, and the
  result screen says it ended by time-out, with each survivor's half VP.

Withdrawing needs an exhausted library and less than a full hand, so the person brings a
six-card library (table rule ``library_size`` off): after the opening deal the library is empty
and the hand holds 6 of 7. The bots bring a crypt of capacity 8 and more, so none of their vampires
can bleed before the person's second turn: the successful withdrawal does not depend on luck.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from engine.games import all_rules
from engine.games.vtes.decks import Deck, bundled_deck, parse_deck
from engine.games.vtes.vocab import Phase, Status, Step
from engine.opening import open_sequencer, order_table
from engine.protocol.identity import new_key
from engine.seat import now_ms
from net.client import Client
from net.driver import Seating
from net.host import Host
from net.local import bot_factory
from net.session import Session
from net.store import Store
from tests.support.local_play import TmpFactory
from tests.support.net import FAST, QUICK_BACKOFF
from tests.support.poll import eventually
from tests.support.tui import screen_words, shown
from tests.support.vtes_table import keys_after_a_look
from tests.support.vtes_table import screen_view as _view
from tui.app import Start, VampireApp
from tui.connect import wrap_session
from tui.games.vtes.table import VtesTableScreen
from tui.screens.results import GameEndScreen
from tui.session import LocalTableSpec

#: The person's deck: a legal crypt, and a library the opening hand empties (6 of a 7-card hand).
SHORT = "12 Nana Buruku\n6 Wider View\n"
#: The bots' shipped deck whose smallest capacity is 8: no bot bleeds before its third turn.
SLOW_CRYPT = "girls_will_find_boys"


def _deck() -> Deck:
    return parse_deck(SHORT, library_size=False, name="short")


@asynccontextmanager
async def _table(tmp_path: Path, bots: int, rules: dict[str, Any]) -> AsyncIterator[VampireApp]:
    """A host on 127.0.0.1, the person (Mina, bringing :data:`SHORT`) in its lobby on the real
    screen, then ``bots`` heuristic bots bringing :data:`SLOW_CRYPT`; the game starts by itself."""
    order = order_table("vtes", people=1, bots=["heuristic"] * bots, rules=rules, seats=1 + bots, title="t")
    host = Host(open_sequencer(order, new_key(), tmp_path / "host.vtlog", now_ms), timeouts=FAST)
    await host.start("127.0.0.1", 0)
    address = ("127.0.0.1", host.port)
    person = Session.connect(
        address, new_key(), name="Mina", brought=_deck(), store=Store.memory(), timeouts=FAST, games=all_rules()
    )
    wrapped = wrap_session(person, host=host)
    clients: list[Client] = []
    app = VampireApp(Start("lobby", wrapped), name="Mina")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: wrapped.seat is not None, 20, "Mina's seat", pilot=pilot)
            for i in range(bots):
                rng = random.Random(70 + i)
                bot = Client(
                    address,
                    new_key(),
                    name=f"Bot{i}",
                    games=all_rules(),
                    store=Store.memory(),
                    seating=Seating(bot=bot_factory("heuristic", rng, bundled_deck(SLOW_CRYPT))),
                    timeouts=FAST,
                    backoff=QUICK_BACKOFF,
                    stop_when_over=True,
                )
                clients.append(bot)
                await bot.start()
            app.pilot = pilot  # type: ignore[attr-defined]
            await eventually(lambda: isinstance(app.screen, VtesTableScreen), 60, "the table screen", pilot=pilot)
            yield app
    finally:
        for bot in clients:
            await bot.stop()
        await host.close()


def _me(app: VampireApp) -> Any:
    view = _view(app)
    return view.players[view.seat] if view is not None else None


def _my_turn(app: VampireApp, phase: Phase | None = None) -> bool:
    view = _view(app)
    ready = view is not None and view.step == Step.PLAY and view.acting == view.seat and not app.screen.submitting
    return ready and (phase is None or view.phase == phase)


def _text(app: VampireApp, selector: str) -> str:
    return shown(app.screen.query_one(selector))


def _log(app: VampireApp) -> str:
    """The game log as shown, its wrapped lines joined again."""
    return " ".join(" ".join(line.text.split()) for line in app.screen.query_one("#log").lines)


async def _announce(app: VampireApp, pilot: Any) -> None:
    """At the person's first turn (its unlock phase), ``w``: the screen says it is announced."""
    await eventually(lambda: _my_turn(app, Phase.UNLOCK), 90, "Mina's first turn", pilot=pilot)
    me = _me(app)
    assert me.library_count == 0 and me.hand_count < me.hand_size  # the conditions to withdraw hold
    await pilot.press("w")
    await eventually(lambda: _me(app).withdrawing, 20, "the withdrawal announced", pilot=pilot)
    await eventually(lambda: "withdrawal announced" in _text(app, "#vt-say"), 10, "the turn line", pilot=pilot)
    assert "withdrawing" in _text(app, "#vt-players")


async def _end_turn(app, pilot) -> None:
    """``N``, and ``N`` again when the table asks first (the influence phase or transfers unused)."""
    await pilot.press("N")
    await eventually(
        lambda: "N again ends the turn" in _text(app, "#vt-say") or _view(app).acting != _view(app).seat,
        10,
        "the turn ended, or the question before it",
        pilot=pilot,
    )
    if "N again ends the turn" in _text(app, "#vt-say"):
        await pilot.press("N")


async def test_a_person_withdraws_and_leaves_the_game_with_one_vp(tmp_path: Path) -> None:
    async with _table(tmp_path, 2, {"library_size": False}) as app:
        pilot = app.pilot  # type: ignore[attr-defined]
        await _announce(app, pilot)
        assert "fail" not in _text(app, "#vt-say")
        turn = _view(app).turn
        await _end_turn(app, pilot)
        await eventually(lambda: _view(app).turn > turn, 20, "the end of Mina's turn", pilot=pilot)
        # A round without losing pool or blood: at Mina's next turn the withdrawal succeeds.
        await eventually(lambda: _me(app).status == Status.WITHDRAWN, 120, "the withdrawal", pilot=pilot)
        assert _me(app).vp == 2  # VP in halves: 1 VP under the standard rules
        await eventually(
            lambda: re.search(r"Mina \(you\).*withdrawn", _text(app, "#vt-players")), 10, "withdrawn shown", pilot=pilot
        )
        gained = "withdraws from the game and gains 1 VP"
        await eventually(lambda: gained in _log(app), 10, "the withdrawal in the log", pilot=pilot)
        # A Methuselah out of the game makes no act: the keys that act leave the footer.
        assert app.screen.check_action("act", ("next",)) is False


async def test_a_withdrawal_broken_by_spending_pool_names_the_condition_and_the_act(tmp_path: Path) -> None:
    async with _table(tmp_path, 2, {"library_size": False}) as app:
        pilot = app.pilot  # type: ignore[attr-defined]
        await _announce(app, pilot)
        # To the master phase, and play Wider View from the hand (``p``): it costs 1 pool.
        await pilot.press("n")
        await eventually(lambda: _my_turn(app, Phase.MASTER), 20, "the master phase", pilot=pilot)
        pool = _me(app).pool
        keys_after_a_look(app)  # a person reads the line before the second p (the key guard lapses)
        await pilot.press("p")  # the first names the card, the second plays it
        await eventually(lambda: "p again plays it" in _text(app, "#vt-say"), 20, "the card named", pilot=pilot)
        await pilot.press("p")
        await eventually(lambda: _me(app).pool == pool - 1, 20, "the card played", pilot=pilot)
        await eventually(lambda: "it will fail" in _text(app, "#vt-say"), 10, "the failed condition", pilot=pilot)
        say = _text(app, "#vt-say")
        # The condition that failed, and the act that broke it (its number, its kind, who recorded it).
        assert "Mina lost or spent pool" in say and "play" in say and "recorded by Mina" in say, say
        assert "withdrawing (fails)" in _text(app, "#vt-players")
        broken = "withdrawal can no longer succeed: Mina lost or spent pool"
        await eventually(lambda: broken in _log(app), 10, "the broken withdrawal in the log", pilot=pilot)
        turn = _view(app).turn
        await _end_turn(app, pilot)
        await eventually(lambda: _view(app).turn > turn, 20, "the end of Mina's turn", pilot=pilot)
        # At Mina's next turn the withdrawal fails, and Mina plays on.
        await eventually(lambda: _my_turn(app), 120, "Mina's next turn", pilot=pilot)
        me = _me(app)
        assert me.status == Status.IN and not me.withdrawing
        failed = "Mina's withdrawal fails: Mina lost or spent pool"
        await eventually(lambda: failed in _log(app), 10, "the failure in the log", pilot=pilot)
        await eventually(lambda: "withdrawing" not in _text(app, "#vt-players"), 10, "no withdrawal shown", pilot=pilot)


async def test_a_tournament_game_called_on_time_ends_on_the_result_screen(tmp_path: Path) -> None:
    factory = TmpFactory(tmp_path / "game.vtlog")
    spec = LocalTableSpec("Mina", ["heuristic"] * 3, {"ruleset": "tournament"}, "vtes")
    app = VampireApp(Start("play", spec), factory=factory, name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: _my_turn(app), 120, "Mina's first turn", pilot=pilot)
        await pilot.press("T")
        # The bots agree (time needs two calls); the turn line says so.
        await eventually(lambda: _view(app) is None or _view(app).time_called, 30, "time called", pilot=pilot)
        if isinstance(app.screen, VtesTableScreen):
            await eventually(lambda: "time is called" in _text(app, "#vt-say"), 10, "the turn line", pilot=pilot)
            # The game ends at the end of this phase: Mina moves on (n), or a bot does.
            if _my_turn(app):
                await pilot.press("n")
        await eventually(lambda: isinstance(app.screen, GameEndScreen), 60, "the result screen", pilot=pilot)
        text = await screen_words(app, pilot, "Archon checks")
        assert "ended by time-out" in text and "Archon checks: passed" in text, text
        state = factory.made[0].table.gstate
        survivors = [p for p in state.players if p.status == Status.IN]
        assert len(survivors) == 4 and all(p.vp == 1 for p in survivors)  # half a VP each
        assert re.search(r"\bMina\s+0\.5\s", text), text
