"""A spectator at a Vampire Queen table presses nothing to follow the game: the box that ends a
round closes by itself once the next round is dealt, and the end screen follows the last round.
The table is stepped by the test, entry by entry, so each moment is reached, never raced."""

from __future__ import annotations

from typing import Any

from tests.support.local_session import SpectatorSession, build_local
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.app import Start, VampireApp
from tui.games.queen.results import RoundEndScreen
from tui.games.queen.table import TableScreen
from tui.screens.results import GameEndScreen
from tui.session import SessionEvent


class WatcherSession(SpectatorSession):
    """TEST ONLY. A spectator's session stepped by the test."""

    def step_until(self, done: Any) -> None:
        """Step the table (every seat a bot) until ``done(state)``, telling the screen each entry."""
        for _ in range(20000):
            if done(self.table.gstate):
                return
            assert self.local.step(), "the table stopped before the moment the test waits for"
            self._emit(SessionEvent("entry", seq=self.table.seq - 1))
        raise AssertionError("never reached")


async def test_a_watchers_round_box_closes_by_itself_when_the_next_round_is_dealt() -> None:
    local = build_local(5, ["heuristic"] * 3, {"rounds": 2})
    session = WatcherSession(local)
    session.step_until(lambda s: s is not None and len(s.round_scores) == 1)  # round 2 not dealt yet
    app = VampireApp(Start("table", session), name="Watcher")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, RoundEndScreen), 10, "round 1's box", pilot=pilot)
        assert "closes by itself" in " ".join(shown(w) for w in app.screen.query(".dialog-title"))
        session.step_until(lambda s: s.round == 2 and s.phase == "play")
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table again", pilot=pilot)
        session.step_until(lambda s: s.phase == "over")
        await eventually(lambda: isinstance(app.screen, GameEndScreen), 10, "the end screen", pilot=pilot)
        assert not any(isinstance(s, RoundEndScreen) for s in app.screen_stack)
