"""The home screen at 24 rows: its fields lose their borders (``HomeScreen.-short``) while it is
shown, and a terminal resized while another screen covers it (a table) restyles none of its
nodes then: it takes the class as it comes back. (Textual's breakpoints restyled the whole home
screen under a table at each resize; a Pilot test that resized a table spent its time there
under load.) Counted, never timed: the nodes the stylesheet restyles."""

from __future__ import annotations

from typing import Any

import pytest
from textual.screen import Screen
from textual.widgets import Static

from tests.support.poll import eventually
from tui.app import VampireApp
from tui.screens.home import HomeScreen


@pytest.fixture(autouse=True)
def no_recent_logs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.screens.home.recent_logs", lambda *a, **k: [])


class Cover(Screen[None]):
    """A screen over the home screen, as a table is."""

    def compose(self) -> Any:
        yield Static("a table")


def _restyled_on(app: VampireApp, screen: Screen[Any]) -> list[int]:
    """From now on: how many of ``screen``'s nodes each restyle of the stylesheet touches."""
    counts: list[int] = []
    update = app.stylesheet.update_nodes

    def counted(nodes: Any, animate: bool = False) -> None:
        nodes = list(nodes)
        counts.append(sum(1 for n in nodes if getattr(n, "screen", None) is screen))

        update(nodes, animate=animate)

    app.stylesheet.update_nodes = counted  # type: ignore[method-assign]
    return counts


async def test_the_home_screen_is_short_at_24_rows_and_is_not_restyled_under_a_table() -> None:
    app = VampireApp(name="Mina")
    async with app.run_test(size=(80, 40)) as pilot:
        await eventually(lambda: isinstance(app.screen, HomeScreen), 30, "the home screen", pilot=pilot)
        home = app.screen
        assert not home.has_class("-short")
        await pilot.resize_terminal(80, 24)
        await eventually(lambda: home.has_class("-short"), 10, "short while shown", pilot=pilot)
        await pilot.resize_terminal(80, 40)
        await eventually(lambda: not home.has_class("-short"), 10, "tall again", pilot=pilot)
        await app.push_screen(Cover())
        restyled = _restyled_on(app, home)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        # Never its whole tree (before: 126 of its nodes at once); a single widget may be.
        assert max(restyled, default=0) <= 1, restyled
        app.pop_screen()
        await eventually(lambda: app.screen is home and home.has_class("-short"), 10, "short once back", pilot=pilot)
