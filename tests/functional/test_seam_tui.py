"""The TUI's seam with the games (DESIGN.md, "Games behind one interface"): High Card, the game
that exists only in the test suite, played by a person through the TUI by keys to the end screen,
against two bots over loopback TCP (the code path of ``vampire play``). Its front end
(:mod:`tests.seamgame.front`) is the smallest a game can have: everything else on the way (home
screen start, table frame, status, narration, end of game, audit) is the shared screens'.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.games import register_game, unregister_game
from tests.seamgame.front import FRONT_END, HighCardScreen
from tests.seamgame.spec import SPEC
from tests.support.local_play import TmpFactory
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.app import Start, VampireApp
from tui.games import find_front_end, register_front_end, unregister_front_end
from tui.screens.audit import AuditScreen
from tui.screens.results import GameEndScreen
from tui.session import LocalTableSpec


@pytest.fixture
def high_card() -> Iterator[None]:
    """High Card and its front end, registered in this process only."""
    register_game(SPEC)
    register_front_end(FRONT_END)
    yield
    unregister_front_end(SPEC.name)
    unregister_game(SPEC.name)


def _my_turn(app: VampireApp) -> bool:
    screen = app.screen
    if not isinstance(screen, HighCardScreen):
        return False
    s = screen.session
    # "Your turn." (and, after a while, how long the table has waited for it).
    return shown(screen.query_one("#waiting")).startswith("Your turn.") and (s.seat, "move") in s.table.owed()


async def test_a_person_plays_high_card_by_keys_through_the_tui_to_the_end_and_audits_it(high_card, tmp_path: Path):
    assert find_front_end("highcard").table_screen is not None  # a table screen: a person may sit
    factory = TmpFactory(tmp_path / "game.vtlog")
    spec = LocalTableSpec("Mina", ["greedy", "random"], {"tricks": 3}, game="highcard")
    app = VampireApp(Start("play", spec), factory=factory, name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, HighCardScreen), 30, "the High Card table", pilot=pilot)
        for played in range(3):
            await eventually(lambda: _my_turn(app), 60, "my turn", pilot=pilot)
            screen = app.screen
            hand = shown(screen.query_one("#hc-hand"))
            assert hand.startswith("Your hand: 1 the ") and "?" not in hand, hand
            assert hand.count(" · ") == 2 - played  # one card fewer each trick
            # The highest card: the last one, as the hand lists the lowest first.
            await pilot.press(str(3 - played))
            taken = lambda screen=screen, played=played: shown(screen.query_one("#hc-hand")).count(" ·") < 2 - played  # noqa: E731
            await eventually(lambda: played == 2 or taken(), 30, "the card gone from the hand", pilot=pilot)
        await eventually(lambda: isinstance(app.screen, GameEndScreen), 60, "the end of the game", pilot=pilot)
        text = " ".join(shown(w) for w in app.screen.query("Static"))
        assert "Game over." in text and " trick" in text
        await pilot.press("a")
        await eventually(
            lambda: isinstance(app.screen, AuditScreen) and app.screen.report is not None, 60, "the audit", pilot=pilot
        )
        assert app.screen.report.code == 0
    sent = factory.made[0].sent
    assert len(sent) == 3 and all(act["do"] == "play" for act in sent)
