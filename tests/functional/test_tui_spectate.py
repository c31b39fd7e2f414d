"""A spectator on the table screen (`vampire join --spectate HOST`): a real host on loopback TCP,
bot clients taking every seat, and a spectator's session wrapped as ``vampire join`` wraps it
(:func:`tui.run_session`: ``wrap_session`` and the lobby first). The lobby says the person is
watching; once the game starts, the game's own table screen opens and follows the game live, with
no hand and no hidden card; a key that would act says a spectator makes no moves."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine.games import all_rules
from engine.games.vtes.vocab import Step
from engine.opening import open_sequencer, order_table
from engine.protocol.identity import new_key
from engine.seat import now_ms
from net.client import Client
from net.events import Timeouts
from net.host import Host
from net.local import bot_client
from net.session import Session
from net.store import Store
from tests.support.net import QUICK_BACKOFF
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.app import Start, VampireApp
from tui.connect import wrap_session
from tui.games.queen.results import RoundEndScreen
from tui.games.queen.table import TableScreen as QueenTableScreen
from tui.games.vtes.table import VtesTableScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.results import GameEndScreen

LOADED = 300
"""Seconds before any wait of this test gives up: each waits on the table's state or the screen,
never on a time, and on a machine loaded by other suites (a load of 20 on 2 cores) the bots'
set-up alone took more than 60 s, and the watcher's first fold of a VTES table (the card data)
more than 20 s. A quiet machine runs the whole test in a few seconds."""

PATIENT = Timeouts()
"""The connections' time-outs: the program's own, not the quick ones of other network tests. Host,
bots and watcher share one loaded process here; a hello or a ping held up a few seconds must not
cut a connection this test does not mean to cut."""


async def _host(game: str, seats: int, rules: dict[str, Any], save: Path) -> Host:
    order = order_table(game, bots=["heuristic"] * seats, seats=seats, rules=rules, title="watched table")
    host = Host(open_sequencer(order, new_key(), save, now_ms), timeouts=PATIENT)
    await host.start("127.0.0.1", 0)
    return host


def _spectator(host: Host, tmp_path: Path) -> Any:
    client = Client(
        ("127.0.0.1", host.port),
        new_key(),
        name="Watcher",
        role="spectator",
        games=all_rules(),
        store=Store.in_dir(tmp_path / "watcher"),
        timeouts=PATIENT,
        backoff=QUICK_BACKOFF,
        stop_when_over=True,
    )
    return wrap_session(Session(client))


async def _seat_bots(host: Host, count: int) -> list[Client]:
    bots = []
    for i in range(count):
        bot = bot_client(
            ("127.0.0.1", host.port),
            "heuristic",
            name=f"Bot{i}",
            rng=random.Random(40 + i),
            games=all_rules(),
            timeouts=PATIENT,
            backoff=QUICK_BACKOFF,
        )
        await bot.start()
        bots.append(bot)
    return bots


@pytest.mark.parametrize(
    ("game", "seats", "rules", "screen_cls"),
    # Two Methuselahs: one oust ends a VTES game, which is all a watcher needs to follow to the end;
    # two rounds of Vampire Queen: the first round's box must give way to the second by itself.
    [("vtes", 2, {}, VtesTableScreen), ("queen", 4, {"rounds": 2}, QueenTableScreen)],
)
async def test_a_spectator_watches_the_game_live_on_its_table_screen(
    tmp_path: Path, game: str, seats: int, rules: dict[str, Any], screen_cls: type
) -> None:
    host = await _host(game, seats, rules, tmp_path / "host.vtlog")
    bots: list[Client] = []
    wrapped = _spectator(host, tmp_path)
    app = VampireApp(Start("lobby", wrapped), name="Watcher")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: isinstance(app.screen, LobbyScreen), LOADED, "the lobby", pilot=pilot)
            hint = app.screen.query_one("#lobby-hint")
            await eventually(lambda: "You are watching" in shown(hint), LOADED, "the watcher's hint", pilot=pilot)
            assert "waiting for more players" not in shown(hint)
            bots = await _seat_bots(host, seats)
            # Switched to at once, mounted a moment later: its widgets are there once it is mounted.
            await eventually(
                lambda: isinstance(app.screen, screen_cls) and app.screen.is_mounted,
                LOADED,
                "the game's table screen",
                pilot=pilot,
            )
            screen = app.screen
            assert wrapped.seat is None and wrapped.watching
            first = len(wrapped.table.entries)
            if game == "vtes":
                await eventually(lambda: wrapped.view().step == Step.PLAY, LOADED, "play", pilot=pilot)
                view = wrapped.view()
                # No hand, no named face-down card: only what the table has made public.
                assert view.seat is None and not view.hand
                assert all(not c.name for c in view.cards if c.zone.hidden)
                title = str(screen.query_one("#vt-hand").border_title)  # "▸" and its keys once focused
                assert "Hand" in title and "Your hand" not in title
                # Every seat's name in the players' panel (waited for: the panel redraws on the table's news).
                await eventually(
                    lambda: all(name[:8] in shown(screen.query_one("#vt-players")) for name in wrapped.table.names),
                    LOADED,
                    "every seat in the players' panel",
                    pilot=pilot,
                )
                # No key that acts, no command line: the footer lists only what a watcher may do.
                assert screen.check_action("act", ("next",)) is False
                assert screen.check_action("command", ()) is False
                assert not screen.query_one("#vt-cmd").display
                await pilot.press("n", "colon")
                assert not screen.query_one("#vt-cmd").has_focus
            else:
                # No hand to pick from: the line says so, and Space (Pick) leaves the footer.
                from tui.games.queen.widgets.hand import HandView

                # The line holds from the deal to the end (however far the bots have played by the
                # time the watcher's table catches up): waited for once the table has a game state.
                await eventually(
                    lambda: (
                        wrapped.table.gstate is not None and "You watch this table" in shown(screen.query_one("#pick"))
                    ),
                    LOADED,
                    "the line",
                    pilot=pilot,
                )
                assert screen.query_one(HandView).check_action("pick", ()) is False
            # No key pressed from here: a round's box for a watcher closes by itself once the next
            # round is dealt, and the end screen follows the last round.
            await eventually(lambda: isinstance(app.screen, GameEndScreen), 2 * LOADED, "the game's end", pilot=pilot)
            assert not any(isinstance(s, RoundEndScreen) for s in app.screen_stack)
            # Live: the screen opened at the start and followed the whole game to its end screen.
            assert len(wrapped.table.entries) > first + 10
    finally:
        for bot in bots:
            await bot.stop()
        await host.close()


def test_join_text_without_spectate_is_refused_in_a_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import main

    code = main(["join", "127.0.0.1:1", "--text"])
    err = capsys.readouterr().err
    assert code != 0 and "--text" in err and "--spectate" in err and "Traceback" not in err
