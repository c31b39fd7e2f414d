"""The VTES screen spends its redraws where they show something: a widget given what it already
shows is left as it is (a redraw lays the whole screen out again), and during the set-up (about a
hundred entries in a few seconds) the screen redraws at a steady pace, showing the progress, and
the first turn at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from engine.games.vtes.vocab import Step
from tests.support.local_session import LocalGameSession
from tests.support.poll import eventually
from tests.support.tui import shown
from tests.support.vtes_table import build_vtes, influence_app
from tui.app import Start, VampireApp
from tui.games.vtes.setup_pace import SETUP_REDRAW_S, SETUP_STEPS
from tui.games.vtes.table import VtesTableScreen
from tui.games.vtes.widgets.redraw import same, show


def test_same_content_is_text_styles_and_settings() -> None:
    assert same("pool 30", "pool 30")
    assert not same("pool 30", "pool 29")
    assert same(Text("a", style="bold"), Text("a", style="bold"))
    # Rich's own == ignores the base style: a dimmed line is not the same as a plain one here.
    assert not same(Text("a", style="dim"), Text("a"))
    styled = Text("ab")
    styled.stylize("red", 0, 1)
    assert not same(styled, Text("ab"))
    assert not same(Text("a"), "a")  # a string and a Text are drawn differently (markup)
    assert not same(object(), object())  # any other content is never taken as unchanged


class _One(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("first", id="w")


async def test_show_redraws_only_a_change_even_after_another_update() -> None:
    app = _One()
    async with app.run_test() as pilot:
        widget = app.query_one("#w", Static)
        layouts: list[bool] = []
        refresh = widget.refresh

        def counted(*regions: Any, **kw: Any) -> Any:
            layouts.append(bool(kw.get("layout")))
            return refresh(*regions, **kw)

        widget.refresh = counted  # type: ignore[method-assign]
        assert not show(widget, "first") and layouts == []
        assert show(widget, "second") and shown(widget) == "second" and layouts == [True]
        widget.update("said elsewhere")  # updated past show(): it compares with what is shown
        assert show(widget, "second") and shown(widget) == "second"
        await pilot.pause()


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _setup_app() -> tuple[VampireApp, LocalGameSession]:
    """The app at Mina's VTES table before its set-up is over (decks being declared)."""
    local = build_vtes(11)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    return VampireApp(Start("table", session), name="Mina"), session


async def test_the_set_up_redraws_at_a_steady_pace_and_never_loses_the_last_entry() -> None:
    app, session = _setup_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        screen = app.screen
        assert isinstance(screen, VtesTableScreen)
        assert session.table.gstate.step in SETUP_STEPS
        clock = _Clock()
        screen.pace.clock = clock
        screen.refresh_table()  # the first redraw under this clock
        drawn = screen.pace.redraws
        for _ in range(20):  # a burst of entries, all within the pace
            clock.now += SETUP_REDRAW_S / 40
            screen.refresh_table()
        assert screen.pace.redraws == drawn  # held back: one redraw is owed
        assert screen.pace.holding
        clock.now += SETUP_REDRAW_S  # the pace has passed: the owed redraw comes by itself
        await eventually(lambda: screen.pace.redraws == drawn + 1, 10, "the owed redraw", pilot=pilot)
        assert not screen.pace.holding
        clock.now += SETUP_REDRAW_S
        screen.refresh_table()  # past the pace: at once
        assert screen.pace.redraws == drawn + 2


async def test_the_first_turn_and_play_redraw_at_once() -> None:
    app, session = influence_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        screen = app.screen
        assert isinstance(screen, VtesTableScreen)
        assert session.table.gstate.step == Step.PLAY
        clock = _Clock()
        screen.pace.clock = clock
        before = screen.pace.redraws
        for _ in range(5):  # no time passes, yet each call redraws: play is never held back
            screen.refresh_table()
        assert screen.pace.redraws == before + 5 and not screen.pace.holding
