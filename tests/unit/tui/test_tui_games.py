"""The front ends' registry (tui/games): each game's screens chosen by its name, a sentence for a
game with no table screen, a plain front end for a game that registered none, and the network's
events read by their types."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from textual.widgets import Select

from engine.games import find_game, game_names, register_game, unregister_game
from net.events import Connection, Finished, Folded, HostFault, Presence, Refused, Waiting
from tests.support.local_session import LocalGameSession, build_local
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.app import Start, VampireApp
from tui.events import as_session_event
from tui.games import FrontEnd, find_front_end, help_text, playable, register_front_end, unregister_front_end
from tui.games.queen.front import FRONT_END as QUEEN
from tui.screens.help import HelpScreen
from tui.screens.home import HomeScreen
from tui.screens.results import GameEndScreen
from tui.session import LocalTableSpec, SessionEvent

PARLOUR = "parlour"


@pytest.fixture
def parlour() -> Iterator[str]:
    """A game known to the engine only in this test (Vampire Queen's rules under another name),
    with no front end of its own."""
    register_game(dataclasses.replace(find_game("queen"), name=PARLOUR, title="Parlour Queen"))
    yield PARLOUR
    unregister_front_end(PARLOUR)
    unregister_game(PARLOUR)


@pytest.fixture(autouse=True)
def no_recent_logs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.screens.home.recent_logs", lambda *a, **k: [])


def test_every_game_has_a_front_end_under_its_own_name() -> None:
    for name in game_names():
        front = find_front_end(name)
        assert front.name == name and front.title == find_game(name).title


def test_a_game_without_a_table_screen_says_why_nobody_can_sit_and_what_to_do() -> None:
    assert QUEEN.may_sit is None and find_front_end("vtes").may_sit is None
    refusals = [f.may_sit for f in map(find_front_end, game_names()) if f.table_screen is None]
    assert all(r and "--headless" in r and r.endswith(".") for r in refusals)
    assert [f.name for f in playable()] == ["queen", "vtes"]


def test_a_game_that_registered_no_front_end_gets_a_plain_one(parlour: str) -> None:
    front = find_front_end(parlour)
    assert front.title == "Parlour Queen" and front.table_screen is None and front.replay is None
    assert front.may_sit == (
        "The screen cannot play Parlour Queen yet: open the table with --headless, and seat players with "
        "vampire join HOST --bot expert."
    )
    assert "no game called 'nothing'" in (find_front_end("nothing").may_sit or "")


def test_a_registered_front_end_is_the_one_found(parlour: str) -> None:
    register_front_end(FrontEnd(parlour, "Parlour Queen", help="[b]Parlour in short[/b]\n  Play."))
    assert find_front_end(parlour).help.startswith("[b]Parlour")
    assert help_text(["queen", parlour]).endswith("[b]Parlour in short[/b]\n  Play.")
    assert "Vampire Queen in short" in help_text(["queen", parlour])


def test_network_events_become_what_the_screens_read() -> None:
    entry = SimpleNamespace(seq=12)
    folded = as_session_event(Folded(entry, ("Mina leads a 7.",), 0))  # type: ignore[arg-type]
    assert folded == SessionEvent("entry", seq=12)
    lost = as_session_event(Connection("disconnected", "Nothing answers at 10.0.0.9:7447.", retry=2.0))
    assert lost.kind == "connection" and not lost.ok and lost.detail == "Nothing answers at 10.0.0.9:7447."
    assert lost.text == "The connection to the table was lost; trying again in 2 s. Nothing answers at 10.0.0.9:7447."
    assert as_session_event(Connection("connected")) == SessionEvent("connection", text="Connected to the table.")
    assert as_session_event(Connection("connecting")).kind == "other"
    assert as_session_event(Connection("stopped")).kind == "closed"
    refused = as_session_event(Refused("move", "illegal", "not your turn"))
    assert refused.text == "The host refused a move your table found legal (illegal): not your turn"
    assert as_session_event(Refused("chat", "too-long", "a chat line is 500 characters")).text == (
        "The host refused it: a chat line is 500 characters"
    )
    assert as_session_event(Waiting((2,), ("Scott",), 61.0)) == SessionEvent("waiting", seats=(2,), seconds=61.0)
    assert as_session_event(HostFault("a bad head signature")).kind == "error"
    assert as_session_event(Finished("The host closed the table.", "ab12")).kind == "closed"
    assert as_session_event(Presence((b"k" * 32,))).kind == "other"


@pytest.fixture(scope="module")
def finished_vtes(tmp_path_factory: pytest.TempPathFactory) -> LocalGameSession:
    """A whole VTES game between two random bots, over."""
    from engine.local import new_local_game

    local = new_local_game("vtes", ["random", "random"], seed=5)
    while local.step():
        pass
    assert local.table.game.result(local.table.gstate) is not None
    return LocalGameSession(local, 0, log_path=tmp_path_factory.mktemp("vtes") / "vtes.vtlog", auto=False)


async def test_a_finished_vtes_table_shows_its_screen_the_narration_and_the_result(
    finished_vtes: LocalGameSession,
) -> None:
    from tui.games.vtes.table import VtesTableScreen

    app = VampireApp(Start("table", finished_vtes), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, GameEndScreen), 10, "the end of the game", pilot=pilot)
        table_screen = app.screen_stack[-2]
        assert isinstance(table_screen, VtesTableScreen)
        assert "The game is over." in shown(table_screen.query_one("#vt-say"))
        assert table_screen.query_one("#log").lines  # the narration
        end = app.screen
        assert shown(end.query_one(".dialog-title")).startswith("Game over. ")
        assert "Archon checks: passed" in shown(end.query_one("#totals"))
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        text = shown(app.screen.query_one("#help Static"))
        assert "Eternal Struggle in short" in text and "Vampire Queen in short" not in text


async def test_help_away_from_a_table_covers_every_game() -> None:
    app = VampireApp(name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        text = shown(app.screen.query_one("#help Static"))
        assert "Vampire Queen in short" in text and "Eternal Struggle in short" in text


class Recorder:
    """A session factory that records what the home screen asked for."""

    def __init__(self) -> None:
        self.asked: list[LocalTableSpec] = []

    def local(self, spec: LocalTableSpec) -> LocalGameSession:
        self.asked.append(spec)
        return LocalGameSession(build_local(1, [None, "heuristic", "heuristic"], {"rounds": 1}), 0, auto=False)

    def host(self, spec: object) -> LocalGameSession:  # pragma: no cover - not used here
        raise AssertionError("no hosting in this test")

    def join(self, spec: object) -> LocalGameSession:  # pragma: no cover - not used here
        raise AssertionError("no joining in this test")


async def test_home_offers_a_choice_of_game_when_two_can_be_played(parlour: str, tmp_path: Path) -> None:
    register_front_end(dataclasses.replace(QUEEN, name=parlour, title="Parlour Queen", home_options=("tie",)))
    factory = Recorder()
    app = VampireApp(factory=factory, name="Mina")  # type: ignore[arg-type]
    async with app.run_test(size=(100, 40)) as pilot:
        await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "home", pilot=pilot)
        home = app.screen
        assert "Vampire Queen, Vampire: The Eternal Struggle and Parlour Queen" in shown(home.query_one("#home-title"))
        assert home.query("#play-rule-rounds") and not home.query("#play-rule-tie")
        home.query_one("#play-game", Select).value = parlour
        await eventually(  # mounted with its own parts, so that it takes a value
            lambda: bool(home.query("#play-rule-tie #label")), 10, "the game's own options", pilot=pilot
        )
        assert not home.query("#play-rule-rounds")
        home.query_one("#play-rule-tie", Select).value = "none"
        await pilot.pause()
        home.query_one("#play-go").press()
        await eventually(lambda: factory.asked, 10, "the table to be asked for", pilot=pilot)
    spec = factory.asked[0]
    assert spec.game == parlour and spec.options == {"tie": "none"} and spec.levels == ["expert"] * 3
