"""What a person starting ``vampire play`` waits for (DESIGN.md, "Quality bars"): the table's
screen, saying what it is doing, before any of the table's work, with no home screen built under
it (home is built when the person leaves the table); and a title or status line given new words
of the same height that lays nothing out again (Textual's update lays out the whole screen)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Static

from tests.support.local_play import TmpFactory
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.app import Start, VampireApp
from tui.screens.home import HomeScreen
from tui.screens.table import TableFrame
from tui.session import LocalTableSpec
from tui.widgets.common.title import show_in_place


class HeldFactory(TmpFactory):
    """``vampire play``'s sessions, whose start waits until the test lets it go."""

    def __init__(self, save: Path) -> None:
        super().__init__(save)
        self.go = asyncio.Event()
        self.starting = asyncio.Event()

    def local(self, spec: LocalTableSpec) -> Any:
        session = super().local(spec)
        start = session.start

        async def held_start() -> None:
            self.starting.set()
            # Bounded: a test that fails before it lets the start go must not hang on its way out.
            await asyncio.wait_for(self.go.wait(), 120)
            await start()

        session.start = held_start  # type: ignore[method-assign]
        return session


async def test_vampire_play_shows_its_table_and_what_it_does_before_any_work_and_no_home(tmp_path: Path) -> None:
    factory = HeldFactory(tmp_path / "game.vtlog")
    spec = LocalTableSpec("Mina", ["random", "random", "random"], {"rounds": 1})
    built: list[HomeScreen] = []
    init = HomeScreen.__init__

    def counted(self: HomeScreen, *args: Any, **kwargs: Any) -> None:
        built.append(self)
        init(self, *args, **kwargs)

    HomeScreen.__init__ = counted  # type: ignore[method-assign]
    try:
        app = VampireApp(Start("play", spec), factory=factory, name="Mina")
        async with app.run_test(size=(80, 24)) as pilot:
            try:
                # The table's session has not started (no host, no bot, no key): its screen is up and
                # says so, and nothing else was built under it.
                await eventually(lambda: factory.starting.is_set(), 30, "the session's start", pilot=pilot)
                await eventually(lambda: isinstance(app.screen, TableFrame), 30, "the table", pilot=pilot)
                status = app.screen.query_one("#waiting")
                await eventually(lambda: shown(status) == "Opening the table…", 30, "the status", pilot=pilot)
                assert not factory.made[0].table.entries, "no entry before the screen"
                assert built == [] and len(app.screen_stack) == 2  # Textual's default screen, the table
                factory.go.set()
                await eventually(lambda: factory.made[0].table.entries, 60, "the table's first entries", pilot=pilot)
                assert built == []
                # Leaving the table builds home, once, and stops the session.
                app.go_home()
                await eventually(lambda: isinstance(app.screen, HomeScreen), 30, "home", pilot=pilot)
                await eventually(lambda: app.session is None, 30, "the session stopped", pilot=pilot)
                assert len(built) == 1
                assert [type(s) for s in app.screen_stack[1:]] == [HomeScreen]
            finally:
                factory.go.set()  # a failure above must not leave the start held as the app stops
    finally:
        HomeScreen.__init__ = init  # type: ignore[method-assign]


class Line(App[None]):
    CSS = "#line { width: 24; height: auto; }"

    def compose(self) -> ComposeResult:
        yield Static("Waiting for Lisa.", id="line")


async def test_new_words_of_the_same_height_lay_nothing_out_and_a_taller_line_gets_its_rows() -> None:
    app = Line()
    async with app.run_test(size=(40, 10)) as pilot:
        line = app.query_one("#line", Static)
        layouts: list[bool] = []
        refresh = line.refresh

        def spy(*regions: Any, layout: bool = False, **kwargs: Any) -> Any:
            layouts.append(layout)
            return refresh(*regions, layout=layout, **kwargs)

        line.refresh = spy  # type: ignore[method-assign]
        show_in_place(line, "Waiting for Scott.")
        await pilot.pause()
        assert shown(line) == "Waiting for Scott." and line.size.height == 1
        assert True not in layouts, "one line for one line: no layout"
        show_in_place(line, "Waiting for Scott.")  # the same words: nothing at all
        show_in_place(line, "Waiting for Scott, Justine and Richard to play.")  # three lines at 24 columns
        await pilot.pause()
        assert True in layouts and line.size.height == 3
        assert shown(line) == "Waiting for Scott, Justine and Richard to play."
