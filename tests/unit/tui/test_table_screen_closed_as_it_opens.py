"""A table screen that opens as the app closes: the lobby switches to the game's table screen the
moment the game starts, and a person who quits at that moment (or a test that ends then) must get
a clean exit, not a traceback from a screen looking for widgets it never mounted. The screen that
is closed before its widgets are mounted neither fills them in nor follows the session."""

from __future__ import annotations

from tests.support.local_session import LocalGameSession, build_local
from tests.support.poll import eventually
from tests.support.vtes_table import dealt_vtes
from tui.app import Start, VampireApp
from tui.games.queen.table import TableScreen
from tui.games.vtes.table import VtesTableScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.table import table_screen


async def test_the_app_quits_cleanly_as_the_lobby_switches_to_the_table_screen() -> None:
    local = build_local(3, [None, "heuristic", "random"], {"rounds": 1}, start=False)
    session = LocalGameSession(local, 0, auto=False)
    app = VampireApp(Start("lobby", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(
            lambda: isinstance(app.screen, LobbyScreen) and app.screen.is_mounted, 10, "the lobby", pilot=pilot
        )
        local.host_entry("start", {})
        app.screen.refresh_lobby()  # what the game's start does: the lobby switches to the table
        opening = app.screen
        assert isinstance(opening, TableScreen) and not opening.is_mounted
        app.exit()  # in the same moment: nothing of the table screen ran yet
    assert app.return_code == 0  # run_test raised nothing: no exception in the screen's on_mount


async def test_a_vtes_table_screen_closed_as_it_opens_raises_nothing() -> None:
    session = LocalGameSession(dealt_vtes(11), 0, auto=False)
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(
            lambda: isinstance(app.screen, VtesTableScreen) and app.screen.is_mounted, 30, "the table", pilot=pilot
        )
        app.pop_screen()
        app.push_screen(table_screen(session))  # a second table screen, closed before it mounts
        app.exit()
    assert app.return_code == 0
