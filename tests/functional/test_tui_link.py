"""What a person reads about connections, against real hosts and clients over loopback TCP: a join
that cannot reach anything fails at once with the sentence `vampire join` prints; the host's
screen (and every other seat) says "Ann disconnected" the moment her client dies and "Ann is back"
when it returns; a guest whose host closes the table is told so, and its attempts to reconnect
show as one line kept up to date, not a notice per attempt."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import tui.app
from engine.protocol.identity import new_key
from net.client import Client, Store
from net.events import Backoff
from net.session import Session
from tests.support.net import FAST, QUICK_BACKOFF, free_port, open_host, start_bots, stop_all
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.app import Start, VampireApp
from tui.connect import HostedTable, wrap_session
from tui.games.queen.table import TableScreen
from tui.screens.home import HomeScreen
from tui.screens.lobby import LobbyScreen
from tui.session import HostSpec, JoinSpec, SessionEvent

SLOW_BACKOFF = Backoff(first=60.0, most=60.0)
"""A client that does not come back by itself: as good as a dead process, until it is stopped."""


class RecordingApp(VampireApp):
    """The app, keeping every notification it was asked to show (they leave the screen after a
    few seconds; a test counts them)."""

    CSS_PATH = str(Path(tui.app.__file__).with_name("vampire.tcss"))  # the app's, not beside this file

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.said: list[tuple[str, str]] = []

    def notify(self, message: str, *, title: str = "", **kwargs: Any) -> None:  # type: ignore[override]
        self.said.append((title, message))
        super().notify(message, title=title, **kwargs)

    def told(self, text: str) -> list[str]:
        """The notifications that contain ``text``."""
        return [message for _, message in self.said if text in message]


def _guest(port: int, name: str, key: Any = None, backoff: Backoff = QUICK_BACKOFF) -> Client:
    """A person's client (no bot) at the host on ``port``."""
    return Session.connect(
        ("127.0.0.1", port), key or new_key(), name=name, store=Store.memory(), timeouts=FAST, backoff=backoff
    ).client


def _attempts(text: str) -> int:
    """The attempt a link line names ("… (attempt 7)."), 0 when it names none. A test waits for at
    least the n-th: under load the line may move past the n-th between two looks at it."""
    found = re.search(r"\(attempt (\d+)\)", text)
    return int(found.group(1)) if found else 0


# -- a table that cannot be reached --------------------------------------------------------------


async def _join_fails(address: str, sentence: str) -> None:
    app = RecordingApp(Start("join", JoinSpec(address, "Zed")), name="Zed")
    async with app.run_test(size=(80, 24)) as pilot:
        # At once: within the time a first attempt takes, far below the link's 10 s connect time-out.
        await eventually(lambda: app.told(sentence), 5, "the sentence", pilot=pilot)
        await eventually(lambda: isinstance(app.screen, HomeScreen), 5, "the home screen again", pilot=pilot)
        assert app.session is None
        assert [title for title, message in app.said if sentence in message] == ["Could not start"]
        assert not app.told("Trying again"), "one sentence, and no attempt after it"


async def test_joining_a_name_that_resolves_nowhere_fails_at_once_with_the_clis_sentence() -> None:
    # The sentence `vampire join no-such-host.invalid --bot random` prints before it stops.
    await _join_fails("no-such-host.invalid", "The address 'no-such-host.invalid' names no computer this one can find.")


async def test_joining_an_address_where_nothing_listens_fails_at_once() -> None:
    port = free_port()
    await _join_fails(f"127.0.0.1:{port}", f"Nothing answers at 127.0.0.1:{port}: is the table open there?")


async def test_vampire_join_where_nothing_listens_ends_with_the_sentence_and_exit_1() -> None:
    # What `vampire join 127.0.0.1:PORT` runs (tui.run_session): the command's own table cannot
    # start, so the app ends with the sentence as its message and exit 1 (no traceback, no home).
    port = free_port()
    session = Session.connect(("127.0.0.1", port), new_key(), name="Zed", store=Store.memory(), timeouts=FAST)
    app = RecordingApp(Start("lobby", wrap_session(session)), name="Zed")
    messages: list[object] = []
    real_exit = app.exit

    def exit_(*args: Any, **kwargs: Any) -> None:
        messages.append(kwargs.get("message"))
        real_exit(*args, **kwargs)

    app.exit = exit_  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: app.return_code is not None, 10, "the app to end", pilot=pilot)
    assert app.return_code == 1
    assert messages == [f"vampire: Nothing answers at 127.0.0.1:{port}: is the table open there?"]
    assert not app.said  # no toast on a home screen: the command's table, the command's sentence


async def test_a_guest_whose_host_answers_nothing_useful_keeps_one_line_kept_up_to_date() -> None:
    # Something listens but closes every connection at once: worth trying again, in one line.
    async def hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.close()

    server = await asyncio.start_server(hang_up, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    session = Session.connect(("127.0.0.1", port), new_key(), name="Zed", store=Store.memory(), backoff=QUICK_BACKOFF)
    wrapped = wrap_session(session)
    app = RecordingApp(Start("lobby", wrapped), name="Zed")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
            screen = app.screen
            hint = screen.query_one("#lobby-hint")
            await eventually(
                lambda: "Could not connect to the table at" in shown(hint) and _attempts(shown(hint)) >= 5,
                20,
                "the fifth attempt in the hint",
                pilot=pilot,
            )
            assert "Esc goes back to the home screen." in shown(hint)
            assert len(app.told("Could not connect")) == 1, app.said
            keys = {b.binding.key for b in app.active_bindings.values()}
            assert not keys & {"b", "r", "x", "s"}  # no host controls for a guest
            await pilot.press("escape")
            await eventually(lambda: not isinstance(app.screen, LobbyScreen), 10, "home", pilot=pilot)
    finally:
        server.close()
        await server.wait_closed()


# -- the others' connections ----------------------------------------------------------------------


async def test_the_host_and_every_seat_see_a_guest_disconnect_and_come_back() -> None:
    app = RecordingApp(Start("host", HostSpec("Mina", 4, (), {"rounds": 1}, port=0)), name="Mina")
    clients: list[Client] = []
    bob_saw: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
        session = app.screen.session
        assert isinstance(session, HostedTable)
        await eventually(lambda: session.seat == 0 and session._host is not None, 20, "my seat", pilot=pilot)
        port = session._host.port
        key = new_key()
        ann = _guest(port, "Ann", key, backoff=SLOW_BACKOFF)
        bob = wrap_session(Session.connect(("127.0.0.1", port), new_key(), name="Bob", store=Store.memory()))
        clients.append(ann)
        bob.subscribe(
            lambda e: bob_saw.append(e.text) if isinstance(e, SessionEvent) and e.kind == "presence" else None
        )
        try:
            await ann.start()
            await bob.start()
            await eventually(lambda: len(session.table.seats) == 3, 20, "Ann and Bob seated", pilot=pilot)
            await eventually(lambda: session.connected_keys and len(session.connected_keys) == 3, 10, "all three here")
            # Ann's client dies: its connection goes without a bye, and it does not come back.
            ann.drop()
            await eventually(
                lambda: app.told("Ann left the table (and can come back)."),
                3,
                "Ann disconnected, on the host's screen",
                pilot=pilot,
            )
            await eventually(
                lambda: "Ann left the table (and can come back)." in bob_saw, 3, "Ann left, at Bob's seat", pilot=pilot
            )
            assert not app.told("Ann is back.")
            # Ann starts again, with the same key.
            await ann.stop()
            again = _guest(port, "Ann", key)
            clients.append(again)
            await again.start()
            await eventually(lambda: app.told("Ann is back."), 5, "Ann is back, on the host's screen", pilot=pilot)
            await eventually(lambda: "Ann is back." in bob_saw, 5, "Ann is back, at Bob's seat", pilot=pilot)
            assert [t for t, m in app.said if m.startswith("Ann ")] == ["Players", "Players"]
            assert bob_saw == ["Ann left the table (and can come back).", "Ann is back."]
            assert len(session.table.seats) == 3, "nobody lost a seat"
        finally:
            await asyncio.gather(*(c.stop() for c in clients), bob.stop(), return_exceptions=True)
        await pilot.press("ctrl+q")


# -- the host's own link ----------------------------------------------------------------------------


async def test_a_guest_at_the_table_is_told_the_host_closed_it_once_while_it_tries_again() -> None:
    host = open_host(seats=3, rounds=3)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 2)
    guest = wrap_session(
        Session.connect(
            ("127.0.0.1", host.port), new_key(), name="Zed", store=Store.memory(), timeouts=FAST, backoff=QUICK_BACKOFF
        )
    )
    app = RecordingApp(Start("lobby", guest), name="Zed")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: isinstance(app.screen, TableScreen), 30, "the table", pilot=pilot)
            screen = app.screen
            line = screen.query_one("#link")
            assert not line.display
            await host.close()
            await eventually(lambda: line.display, 5, "the link line", pilot=pilot)
            assert shown(line).startswith("The host closed the table.")
            # The guest keeps trying, quietly: the line and one notice, however many attempts.
            await eventually(lambda: guest._link.attempts >= 6, 20, "six attempts", pilot=pilot)
            await pilot.pause(0.1)
            assert shown(line).startswith("The host closed the table.")
            connection = [m for t, m in app.said if t == "Connection"]
            assert connection == [shown(line)], app.said
            assert not app.told("Trying again")
            assert isinstance(app.screen, TableScreen)
            await pilot.press("ctrl+q")
    finally:
        await stop_all(host, bots)


async def test_a_guest_whose_link_drops_sees_one_line_counting_the_attempts_and_then_is_back() -> None:
    host = open_host(seats=3, rounds=3)
    await host.start("127.0.0.1", 0)
    port = host.port
    bots = await start_bots(host, 2)
    guest = wrap_session(
        Session.connect(
            ("127.0.0.1", port), new_key(), name="Zed", store=Store.memory(), timeouts=FAST, backoff=QUICK_BACKOFF
        )
    )
    app = RecordingApp(Start("lobby", guest), name="Zed")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: isinstance(app.screen, TableScreen), 30, "the table", pilot=pilot)
            line = app.screen.query_one("#link")
            # The host's process dies: no bye, nothing listens any more.
            assert host._server is not None
            host._server.close()
            for peer in list(host.peers):
                peer.outbox.abort()
            await eventually(lambda: _attempts(shown(line)) >= 5, 20, "the fifth attempt", pilot=pilot)
            assert shown(line).startswith(f"The connection to the table at 127.0.0.1:{port} was lost.")
            assert f"Nothing answers at 127.0.0.1:{port}" in shown(line)
            assert len([m for t, m in app.said if t == "Connection"]) == 1, app.said
            # It listens again (a host resumed on the same port): the line goes, one notice says so.
            await host.start("127.0.0.1", port)
            await eventually(lambda: not line.display, 20, "the line gone", pilot=pilot)
            assert app.told(f"Connected to the table at 127.0.0.1:{port} again.")
            assert len([m for t, m in app.said if t == "Connection"]) == 2, app.said
            await pilot.press("ctrl+q")
    finally:
        await stop_all(host, bots)


async def test_a_window_whose_seat_another_window_took_says_so_until_the_player_leaves() -> None:
    # The same person (one key) joins from a second window: the host keeps the newer connection
    # (PROTOCOL.md 7), and the first window must not go on looking like a seat at the table.
    host = open_host(seats=3, rounds=1)
    await host.start("127.0.0.1", 0)
    key = new_key()
    first = wrap_session(
        Session.connect(("127.0.0.1", host.port), key, name="Ann", store=Store.memory(), timeouts=FAST)
    )
    app = RecordingApp(Start("lobby", first), name="Ann")
    second = None
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
            hint = app.screen.query_one("#lobby-hint")
            await eventually(lambda: "seats taken" in shown(hint), 10, "the seat taken", pilot=pilot)
            second = _guest(host.port, "Ann", key=key)
            await second.start()
            await eventually(lambda: "took your place" in shown(hint), 10, "the hint saying why", pilot=pilot)
            assert "no longer at the table" in shown(hint)
            screen = app.screen
            assert isinstance(screen, LobbyScreen)
            screen.refresh_lobby()  # a later redraw keeps it
            await pilot.pause()
            assert "took your place" in shown(hint)
            await pilot.press("escape")
            await eventually(lambda: not isinstance(app.screen, LobbyScreen), 10, "home", pilot=pilot)
    finally:
        if second is not None:
            await second.stop()
        await host.close()


async def test_a_seat_at_the_table_taken_by_another_window_says_so_for_good() -> None:
    host = open_host(seats=3, rounds=1)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 2)
    key = new_key()
    first = wrap_session(
        Session.connect(("127.0.0.1", host.port), key, name="Ann", store=Store.memory(), timeouts=FAST)
    )
    app = RecordingApp(Start("lobby", first), name="Ann")
    second = None
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: isinstance(app.screen, TableScreen), 30, "the table", pilot=pilot)
            line = app.screen.query_one("#link")
            second = _guest(host.port, "Ann", key=key)
            await second.start()
            await eventually(
                lambda: line.display and "took your place" in shown(line), 10, "the link line", pilot=pilot
            )
            assert "no longer at the table" in shown(line)
            assert isinstance(app.screen, TableScreen)
    finally:
        if second is not None:
            await second.stop()
        await stop_all(host, bots)
