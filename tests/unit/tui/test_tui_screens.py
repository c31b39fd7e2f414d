"""Home, lobby, help and the terminal-size guard, by keys (no network: the sessions are the
in-process test adapter)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Button, DataTable, Input, Select

from engine.games.base import IllegalMove
from tests.support.local_session import LocalGameSession, build_local
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.app import Start, VampireApp
from tui.games.queen.table import TableScreen, pick_act
from tui.screens.help import HelpScreen
from tui.screens.home import HomeScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.replay import ReplayScreen
from tui.session import HostSpec, JoinSpec, LocalTableSpec
from tui.widgets.common.too_small import TooSmallNotice

PERSON = [None, "heuristic", "heuristic", "random"]


class FakeFactory:
    """Records what the home screen asked for and hands out in-process tables."""

    def __init__(self) -> None:
        self.asked: list[object] = []

    def local(self, spec: LocalTableSpec) -> LocalGameSession:
        self.asked.append(spec)
        return LocalGameSession(build_local(1, [None] + list(spec.levels), {"rounds": 1}), 0, auto=False)

    def host(self, spec: HostSpec):
        self.asked.append(spec)
        from engine.errors import VampireError

        raise VampireError("no table is opened in these tests")

    def join(self, spec: JoinSpec):
        self.asked.append(spec)
        from engine.errors import VampireError

        raise VampireError(f"nobody answers at {spec.address}")


def _notices(app: VampireApp) -> list[str]:
    """The notifications ``app`` shows from now on, kept in a list (they leave the screen)."""
    said: list[str] = []
    notify = app.notify
    app.notify = lambda message, **kw: (said.append(message), notify(message, **kw))[1]  # type: ignore[method-assign]
    return said


@pytest.fixture(autouse=True)
def no_recent_logs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.screens.home.recent_logs", lambda *a, **k: [])


async def test_home_plays_against_bots_with_the_chosen_settings() -> None:
    factory = FakeFactory()
    app = VampireApp(factory=factory, name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "home", pilot=pilot)
        await pilot.press("enter")  # "Play against bots": into its form, on the name
        await pilot.press(*"Vlad", "enter")
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
    spec = factory.asked[0]
    assert isinstance(spec, LocalTableSpec)
    assert spec.levels == ["expert"] * 3 and spec.options == {"rounds": 5}
    assert spec.name.endswith("Vlad")


async def test_home_join_without_a_host_is_a_sentence() -> None:
    factory = FakeFactory()
    app = VampireApp(factory=factory, name="Mina")
    said = _notices(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down", "down", "enter")  # "Join a table": the address field
        await pilot.press("enter")  # no address typed
        assert said and said[-1].startswith("Type the table's address") and said[-1].endswith(".")
        await pilot.press(*"10.0.0.9:7447", "enter")
        await eventually(
            lambda: any("Nobody answers at 10.0.0.9:7447." in m for m in said), 10, "the error", pilot=pilot
        )
        assert isinstance(app.screen, HomeScreen)


async def test_the_host_form_takes_a_relay_for_a_table_across_the_internet_and_refuses_one_that_is_not() -> None:
    """The home screen's host form says what ``vampire host --internet --relay`` says: the relay is
    an https URL or ``off``, and only for a table across the internet; blank is n0's relays."""
    factory = FakeFactory()
    app = VampireApp(factory=factory, name="Mina")
    said = _notices(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "home", pilot=pilot)
        screen = app.screen
        relay = screen.query_one("#host-relay", Input)
        relay.value = "ftp://relay.example.org"
        screen.query_one("#host-go", Button).press()
        await eventually(lambda: said, 10, "a sentence", pilot=pilot)
        assert said[-1] == "A relay is for a table across the internet: choose it under Friends."
        screen.query_one("#host-internet", Select).value = True
        screen.query_one("#host-go", Button).press()
        await eventually(lambda: len(said) > 1, 10, "a second sentence", pilot=pilot)
        assert "is not a relay: give its URL (https://relay.example.org) or off." in said[-1], said
        assert factory.asked == []  # no table was asked for
        relay.value = "off"
        screen.query_one("#host-go", Button).press()
        await eventually(lambda: factory.asked, 10, "the table asked for", pilot=pilot)
        spec = factory.asked[0]
        assert isinstance(spec, HostSpec) and spec.internet and spec.relay == "off"
        relay.value = ""
        screen.query_one("#host-go", Button).press()
        await eventually(lambda: len(factory.asked) == 2, 10, "the table asked for again", pilot=pilot)
        assert factory.asked[1].relay is None  # n0's public relays


async def test_home_opens_a_replay_from_a_typed_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = Path("game.vtlog")
    local = build_local(2, ["heuristic"] * 3, {"rounds": 1}, save=path)
    local.run()
    local.host.log.close()
    app = VampireApp(factory=FakeFactory(), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down", "down", "down", "enter")  # "Replay a log"
        await pilot.press(*str(path), "enter")
        await eventually(lambda: isinstance(app.screen, ReplayScreen), 10, "the replay", pilot=pilot)


async def test_lobby_host_seats_bots_then_the_game_starts() -> None:
    session = LocalGameSession(build_local(5, PERSON, start=False, seated=2), 0, auto=False, address="192.168.1.5:7447")
    app = VampireApp(Start("lobby", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
        screen = app.screen
        assert "vampire join 192.168.1.5:7447" in shown(screen.query_one("#lobby-address"))
        await pilot.press("s")  # two seats are open: s says so, and the lobby stays
        await eventually(
            lambda: any("2 seats are still open" in n.message for n in app._notifications),
            10,
            "the open seats named",
            pilot=pilot,
        )
        assert isinstance(app.screen, LobbyScreen) and session.table.phase == "lobby"
        await pilot.press("b")
        await eventually(lambda: len(session.table.seats) == 3, 10, "a third seat", pilot=pilot)
        await pilot.press("r")
        await eventually(
            lambda: len(session.table.seats) == 4 and screen.check_action("start", ()), 10, "a full table", pilot=pilot
        )
        assert "press s to start" in shown(screen.query_one("#lobby-hint"))
        await pilot.press("s")
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)


async def test_the_lobby_shows_a_seats_route_as_it_changes_with_no_news_from_the_table() -> None:
    """Across the internet a seat's path changes by itself (a start through a relay, then a direct
    path found; its round-trip time): the lobby's ready column follows it, with no entry or
    presence news to redraw it."""
    session = LocalGameSession(build_local(5, PERSON, start=False, seated=2), 0, auto=False, address="192.168.1.5:7447")
    guest = session.table.seats[1].key
    routes = {guest: "relayed, 80 ms"}
    session.routes = routes  # type: ignore[attr-defined]  # what a hosted table's transport says
    app = VampireApp(Start("lobby", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
        grid = app.screen.query_one(DataTable)

        def ready() -> list[str]:
            return [str(grid.get_row_at(row)[-1]) for row in range(grid.row_count)]

        await eventually(lambda: "✓ relayed, 80 ms" in ready(), 10, "the relayed route", pilot=pilot)
        routes[guest] = "direct, 12 ms"
        await eventually(lambda: "✓ direct, 12 ms" in ready(), 10, "the direct route", pilot=pilot)
        assert not any("relayed" in said for said in ready())


async def test_a_guest_not_yet_seated_reads_how_its_connection_reaches_the_host() -> None:
    """Across the internet a guest that has joined but not chosen its deck has no row yet: the
    lobby's sentence says how its connection reaches the host, and once seated its row says it."""
    local = build_local(5, PERSON, start=False, seated=2)
    session = LocalGameSession(local, 3, auto=False, is_host=False)
    session.routes = {local.seats[3].public: "direct, 3 ms"}  # type: ignore[attr-defined]  # the guest's own link
    app = VampireApp(Start("lobby", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
        hint = app.screen.query_one("#lobby-hint")
        await eventually(lambda: "Your connection: direct, 3 ms." in shown(hint), 10, "the route", pilot=pilot)
        assert "2 of 4 seats taken: waiting for more players" in shown(hint)


async def test_a_small_terminal_is_told_how_large_it_must_be() -> None:
    app = VampireApp(name="Mina")
    async with app.run_test(size=(70, 20)) as pilot:
        await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "home", pilot=pilot)
        notice = app.screen.query_one(TooSmallNotice)
        assert app.has_class("-too-small") and notice.display
        assert not app.screen.query_one("#home").display
        assert "needs at least 80×24" in str(notice.render())
        await pilot.resize_terminal(100, 30)
        await eventually(lambda: not app.has_class("-too-small"), 10, "the notice to go", pilot=pilot)
        assert not notice.display and app.screen.query_one("#home").display


async def test_f1_shows_the_keys_and_escape_closes_them() -> None:
    app = VampireApp(name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


def test_a_hunter_is_led_alone() -> None:
    assert pick_act((("H", 20),)) == {"do": "hunter", "hunter": 20}
    assert pick_act(((0, 3), (0, 1))) == {"do": "play", "cards": [[0, 1], [0, 3]]}
    with pytest.raises(IllegalMove, match="led alone"):
        pick_act((("H", 15), (0, 2)))


async def test_cards_are_picked_with_the_mouse_and_the_cursor_stops_at_either_end() -> None:
    """Cards are picked with the mouse too. The hand's cursor stops at either end: pressing Left
    "enough times" lands on the lowest card, as a player expects, instead of wrapping round to
    wherever the count ends."""
    local = build_local(3, PERSON, {"rounds": 1})
    from tests.support.local_session import advance

    advance(local, 0, lambda _local: True)
    app = VampireApp(Start("table", LocalGameSession(local, 0, auto=False)), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        from tui.games.queen.widgets.hand import HandView

        hand = app.screen.query_one(HandView)
        await eventually(lambda: hand.cards, 10, "the hand", pilot=pilot)
        await pilot.click(HandView, offset=(1 + 5 + 2, 0))  # the second card (padding 1, 5 columns a card)
        assert hand.picked_keys() == (hand.cards[1].key,)
        assert shown(app.screen.query_one("#pick"))[:1] in ("✓", "✗")
        await pilot.click(HandView, offset=(1 + 5 + 2, 0))
        assert hand.picked_keys() == ()
        # The cursor stops at either end.
        await eventually(lambda: len(hand.cards) > 2, 10, "the hand", pilot=pilot)
        hand.focus()
        await pilot.press("end")
        assert hand.cursor == len(hand.cards) - 1
        await pilot.press(*["left"] * (len(hand.cards) + 3))
        assert hand.cursor == 0
        await pilot.press("right", "right")
        assert hand.cursor == 2
        await pilot.press(*["right"] * (len(hand.cards) + 3))
        assert hand.cursor == len(hand.cards) - 1
