"""The home screen offers VTES: its table rule (standard or tournament) and a table against bots
whose spec names the game (the seat's deck is chosen when the table opens)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Select

from tests.support.poll import eventually
from tui.app import VampireApp
from tui.screens.home import HomeScreen
from tui.session import LocalTableSpec


@pytest.fixture(autouse=True)
def no_recent_logs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.screens.home.recent_logs", lambda *a, **k: [])


class Recorder:
    """A session factory that records the table asked for, and opens none."""

    def __init__(self) -> None:
        self.asked: list[LocalTableSpec] = []

    def local(self, spec: LocalTableSpec) -> Any:
        self.asked.append(spec)
        raise RuntimeError("no table in this test")

    def host(self, spec: object) -> Any:  # pragma: no cover - not used here
        raise AssertionError("no hosting in this test")

    def join(self, spec: object) -> Any:  # pragma: no cover - not used here
        raise AssertionError("no joining in this test")


async def test_home_plays_vtes_with_its_ruleset() -> None:
    factory = Recorder()
    app = VampireApp(factory=factory, name="Mina")  # type: ignore[arg-type]
    async with app.run_test(size=(100, 40)) as pilot:
        await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "home", pilot=pilot)
        home = app.screen
        home.query_one("#play-game", Select).value = "vtes"
        await eventually(lambda: bool(home.query("#play-rule-ruleset")), 10, "the VTES rule", pilot=pilot)
        await pilot.pause()  # the new Select composes its parts first
        home.query_one("#play-rule-ruleset", Select).value = "tournament"
        await pilot.pause()
        home.query_one("#play-go").press()
        await eventually(lambda: factory.asked, 10, "the table to be asked for", pilot=pilot)
    spec = factory.asked[0]
    assert spec.game == "vtes" and spec.options == {"ruleset": "tournament"}
    assert spec.levels and set(spec.levels) <= {"heuristic", "random"}


async def _play_form_with_deck(pilot: Any, app: VampireApp, deck: str) -> HomeScreen:
    """The play form set to VTES, its deck field holding ``deck``, and Play pressed."""
    from textual.widgets import Input

    await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "home", pilot=pilot)
    home = app.screen
    assert isinstance(home, HomeScreen)
    home.query_one("#play-game", Select).value = "vtes"
    await eventually(lambda: bool(home.query("#play-deck")), 10, "the deck field", pilot=pilot)
    home.query_one("#play-deck", Input).value = deck
    home.query_one("#play-go").press()
    return home


async def test_the_play_form_takes_a_bundled_deck_by_its_name(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no file named atraco here
    factory = Recorder()
    app = VampireApp(factory=factory, name="Mina")  # type: ignore[arg-type]
    async with app.run_test(size=(100, 40)) as pilot:
        await _play_form_with_deck(pilot, app, "atraco")
        await eventually(lambda: factory.asked, 10, "the table to be asked for", pilot=pilot)
        assert any("You bring atraco: crypt 12, library 90." in n.message for n in app._notifications)
    spec = factory.asked[0]
    assert spec.brought is not None and (spec.brought.name, spec.brought.library_size) == ("atraco", 90)


async def test_the_play_form_refuses_a_deck_it_cannot_read_and_opens_no_table(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    factory = Recorder()
    app = VampireApp(factory=factory, name="Mina")  # type: ignore[arg-type]
    async with app.run_test(size=(100, 40)) as pilot:
        await _play_form_with_deck(pilot, app, "atracco")
        await eventually(
            lambda: any("nor is it a bundled deck" in n.message for n in app._notifications), 10, "why", pilot=pilot
        )
    assert not factory.asked


async def test_the_play_form_with_an_empty_deck_field_leaves_the_deck_to_the_table() -> None:
    factory = Recorder()
    app = VampireApp(factory=factory, name="Mina")  # type: ignore[arg-type]
    async with app.run_test(size=(100, 40)) as pilot:
        await _play_form_with_deck(pilot, app, "")
        await eventually(lambda: factory.asked, 10, "the table to be asked for", pilot=pilot)
    assert factory.asked[0].brought is None


async def test_at_80x24_the_deck_fields_hint_reads_whole() -> None:
    """The play form's Deck field at 80×24: its hint (a file or a bundled deck's name; empty: any)
    is not cut by the field's edge."""
    from textual.widgets import Input

    app = VampireApp(factory=Recorder(), name="Mina")  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "home", pilot=pilot)
        home = app.screen
        home.query_one("#play-game", Select).value = "vtes"
        await eventually(lambda: bool(home.query("#play-deck")), 10, "the deck field", pilot=pilot)
        await pilot.pause()
        field = home.query_one("#play-deck", Input)
        assert "empty: any" in str(field.placeholder)
        assert len(str(field.placeholder)) < field.content_size.width, (field.placeholder, field.content_size)
