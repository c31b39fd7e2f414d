"""The lobby against a real host over loopback TCP: the host adds bots, removes one (its `leave` is
in the host's log), fills the table and starts it with `s`; `vampire host`'s session (a host in
this process, bots it started) and a guest who quits the lobby, which frees the seat."""

from __future__ import annotations

from textual.widgets import DataTable

from engine.protocol.identity import new_key, short_fingerprint
from engine.protocol.log import read_log
from net.client import Store
from net.local import bot_client
from net.session import Session
from tests.support.net import FAST, QUICK_BACKOFF, open_host, stop_all
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.app import Start, VampireApp
from tui.connect import HostedTable, wrap_session
from tui.games.queen.table import TableScreen
from tui.screens.lobby import LobbyScreen
from tui.session import HostSpec


def _names(grid: DataTable) -> list[str]:
    """The name column of the seat list, as shown."""
    return [str(grid.get_row_at(i)[1]) for i in range(grid.row_count)]


async def test_the_host_adds_two_bots_removes_one_fills_the_table_and_starts_with_s() -> None:
    app = VampireApp(Start("host", HostSpec("Mina", 4, (), {"rounds": 1}, port=0)), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
        screen = app.screen
        session = screen.session
        assert isinstance(session, HostedTable)
        grid = screen.query_one(DataTable)
        hint = screen.query_one("#lobby-hint")
        await eventually(lambda: session.seat == 0 and "1 of 4 seats taken" in shown(hint), 20, "my seat", pilot=pilot)
        assert "press b to add a bot, or wait for friends to join." in shown(hint)
        assert screen.check_action("start", ()) is True  # shown: with seats open, s says what is missing
        assert screen.check_action("remove_bot", ()) is False  # no bot yet: x leaves the footer

        async def add_bot(seats: int) -> None:
            await eventually(lambda: screen.check_action("add_bot", ("expert",)), 10, "the add-bot key", pilot=pilot)
            await pilot.press("b")
            await eventually(
                lambda: len(session.table.seats) == seats and not screen._busy, 30, f"{seats} seats", pilot=pilot
            )

        await add_bot(2)
        await add_bot(3)
        table = session.table
        _, doomed, kept = table.seats
        assert session.bots == {1: "expert", 2: "expert"}  # b adds the game's default level
        assert _names(grid)[:3] == ["Mina", doomed.name, kept.name]

        # The highlighted bot goes: the seat list loses it, the next bot moves up one seat.
        await pilot.press("down")
        assert grid.cursor_row == 1
        await pilot.press("x")
        await eventually(
            lambda: len(session.table.seats) == 2 and not screen._busy, 30, "the bot to leave", pilot=pilot
        )
        assert [s.key for s in session.table.seats] == [table.seats[0].key, kept.key]
        await eventually(
            lambda: _names(grid)[:3] == ["Mina", kept.name, "— open seat —"], 10, "the seat list", pilot=pilot
        )
        assert session.bots == {1: "expert"}
        assert "2 of 4 seats taken" in shown(hint)
        host_log = read_log(session.log_path).entries
        leaves = [e for e in host_log if e.kind == "leave"]
        assert len(leaves) == 1 and leaves[0].author == doomed.key
        assert not any(b.public == doomed.key for b in session._bot_clients)

        await add_bot(3)
        await pilot.press("s")  # a seat is still open: s says so, and the game does not start
        await eventually(
            lambda: screen.app._notifications and "1 seat is still open" in list(screen.app._notifications)[-1].message,
            10,
            "the open seat named",
            pilot=pilot,
        )
        assert session.table.phase == "lobby"
        await add_bot(4)
        await eventually(lambda: screen.check_action("start", ()) is True, 10, "the start key", pilot=pilot)
        assert "Every seat is taken: press s to start the game" in shown(hint)
        await pilot.pause(0.3)
        assert session.table.phase == "lobby", "a host with a screen waits for its person to press s"
        await pilot.press("s")
        await eventually(lambda: isinstance(app.screen, TableScreen), 30, "the table", pilot=pilot)
        assert [e.kind for e in read_log(session.log_path).entries].count("start") == 1
        await pilot.press("ctrl+q")


async def test_vampire_host_lobby_removes_a_bot_it_started_and_starts_on_demand() -> None:
    host = open_host(seats=3, auto_start=False)
    await host.start("127.0.0.1", 0)
    address = ("127.0.0.1", host.port)
    started = bot_client(address, "random", name="Lisa", timeouts=FAST, backoff=QUICK_BACKOFF)
    await started.start()
    await eventually(lambda: started.seat is not None and started.seat.index == 0, 10, "the bot seated")
    person = Session.connect(
        address, new_key(), name="Mina", store=Store.memory(), timeouts=FAST, backoff=QUICK_BACKOFF
    )
    wrapped = wrap_session(person, host=host, address="192.168.1.5:7447", bots=[(started, "random")])
    try:
        assert wrapped.is_host and not wrapped.auto_start and wrapped.address == "192.168.1.5:7447"
        await wrapped.start()
        await eventually(lambda: wrapped.seat == 1 and wrapped.bots == {0: "random"}, 10, "my seat")
        await wrapped.remove_bot(0)
        assert started.left and started.finished.is_set()
        await eventually(lambda: wrapped.seat == 0 and wrapped.bots == {}, 10, "the bot gone, my seat moved down")
        await wrapped.add_bot("heuristic")
        await wrapped.add_bot("heuristic")
        assert len(host.table.seats) == 3 and host.table.phase == "lobby"
        await wrapped.start_game()
        await eventually(lambda: wrapped.table.phase == "running", 10, "the start")
    finally:
        await wrapped.stop()
        await stop_all(host, [started])


async def test_a_guest_who_quits_the_lobby_gives_up_the_seat() -> None:
    host = open_host(seats=3, auto_start=False)
    await host.start("127.0.0.1", 0)
    guest = wrap_session(
        Session.connect(
            ("127.0.0.1", host.port), new_key(), name="Ann", store=Store.memory(), timeouts=FAST, backoff=QUICK_BACKOFF
        )
    )
    try:
        assert not guest.is_host and guest.address == f"127.0.0.1:{host.port}"
        await guest.start()
        await eventually(lambda: guest.seat == 0 and guest._net.connection == "connected", 10, "the guest seated")
        await guest.stop()
        assert host.table.seats == []
        assert [e.kind for e in host.table.entries] == ["table", "join", "leave"]
    finally:
        await stop_all(host, [])


async def test_a_host_listening_on_loopback_only_shows_that_address_in_its_lobby() -> None:
    from tui.connect import share_address

    host = open_host(seats=3, auto_start=False)
    await host.start("127.0.0.1", 0)
    person = Session.connect(
        ("127.0.0.1", host.port), new_key(), name="Mina", store=Store.memory(), timeouts=FAST, backoff=QUICK_BACKOFF
    )
    wrapped = wrap_session(person, host=host)  # no address handed over: read where the host listens
    try:
        assert share_address(host) == f"127.0.0.1:{host.port}"
        assert wrapped.address == f"127.0.0.1:{host.port}"
        app = VampireApp(Start("lobby", wrapped), name="Mina")
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
            line = app.screen.query_one("#lobby-address")
            await eventually(
                lambda: f"vampire join 127.0.0.1:{host.port}" in shown(line), 10, "the address", pilot=pilot
            )
            # The host key a friend's list of tables shows (PROTOCOL.md 9), to compare by ear.
            await eventually(lambda: "host key" in shown(line), 10, "the host key", pilot=pilot)
            assert short_fingerprint(host.table.host) in shown(line)
            await pilot.press("ctrl+q")
    finally:
        await stop_all(host, [])


async def test_bots_the_lobby_adds_keep_their_files_for_vampire_host_resume(tmp_path) -> None:
    """A bot added in the lobby of `vampire host` keeps its level, key and files in a numbered
    folder beside the log (as `--bots` does), which `vampire host --resume` reads to run it again;
    one removed in the lobby is not brought back."""
    from engine.protocol.identity import public_bytes
    from net.local import load_or_make_key

    host = open_host(seats=3, auto_start=False)
    await host.start("127.0.0.1", 0)
    address = ("127.0.0.1", host.port)
    person = Session.connect(
        address, new_key(), name="Mina", store=Store.memory(), timeouts=FAST, backoff=QUICK_BACKOFF
    )
    bots_dir = tmp_path / "table.vtlog.bots"
    wrapped = wrap_session(person, host=host, address="192.168.1.5:7447", bots_dir=bots_dir)
    try:
        await wrapped.start()
        await eventually(lambda: wrapped.seat == 0, 10, "my seat")
        await wrapped.add_bot("heuristic")
        await wrapped.add_bot("random")
        seats = host.table.seats
        assert sorted(p.name for p in bots_dir.iterdir()) == ["0", "1"]
        for folder, level, seat in ((bots_dir / "0", "heuristic", seats[1]), (bots_dir / "1", "random", seats[2])):
            assert (folder / "level").read_text() == level + "\n"
            assert public_bytes(load_or_make_key(folder / "key")) == seat.key  # the same bot comes back
            assert (folder / "key").stat().st_mode & 0o077 == 0
        await wrapped.remove_bot(1)
        assert not (bots_dir / "0" / "level").exists()
        assert (bots_dir / "1" / "level").exists()
    finally:
        await wrapped.stop()
        await stop_all(host, [])


async def test_a_guest_sees_the_hosts_bots_as_bots_in_the_lobby() -> None:
    """A bot's `join` says a program plays it, so a guest's lobby shows it as a bot, not as a
    player, though the guest did not start it."""
    host = open_host(seats=3, auto_start=False)
    await host.start("127.0.0.1", 0)
    address = ("127.0.0.1", host.port)
    bot = bot_client(address, "random", name="Lisa", timeouts=FAST, backoff=QUICK_BACKOFF)
    await bot.start()
    await eventually(lambda: bot.seat is not None and bot.seat.index == 0, 10, "the bot seated")
    guest = wrap_session(
        Session.connect(address, new_key(), name="Ann", store=Store.memory(), timeouts=FAST, backoff=QUICK_BACKOFF)
    )
    app = VampireApp(Start("lobby", guest), name="Ann")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
            grid = app.screen.query_one(DataTable)
            await eventually(lambda: guest.seat == 1 and grid.row_count >= 2, 20, "both seats shown", pilot=pilot)

            def row_of(name: str) -> str:
                rows = [" ".join(str(c) for c in grid.get_row_at(i)) for i in range(grid.row_count)]
                return next((r for r in rows if name in r), "")

            await eventually(lambda: "bot" in row_of("Lisa"), 10, "Lisa shown as a bot", pilot=pilot)
            assert "bot" not in row_of("Ann") and host.table.seats[0].bot and not host.table.seats[1].bot
            await pilot.press("ctrl+q")
    finally:
        await guest.stop()
        await stop_all(host, [bot])


async def test_esc_in_a_hosts_lobby_with_others_asks_before_closing_the_table() -> None:
    from tui.screens.home import HomeScreen
    from tui.screens.quit import QuitScreen

    app = VampireApp(Start("host", HostSpec("Mina", 3, (), {"rounds": 1}, port=0)), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
        screen = app.screen
        session = screen.session
        await eventually(lambda: session.seat == 0, 20, "my seat", pilot=pilot)
        await eventually(lambda: screen.check_action("add_bot", ("expert",)), 10, "the add-bot key", pilot=pilot)
        await pilot.press("b")
        await eventually(lambda: len(session.table.seats) == 2 and not screen._busy, 30, "a bot seated", pilot=pilot)
        await pilot.press("escape")
        await eventually(lambda: isinstance(app.screen, QuitScreen), 10, "the question", pilot=pilot)
        question = app.screen
        assert question.question == "Close this table?" and "everyone in the lobby is sent home" in question.consequence
        await pilot.press("n")
        await eventually(lambda: app.screen is screen, 10, "back in the lobby", pilot=pilot)
        assert app.session is session and len(session.table.seats) == 2
        await pilot.press("escape")
        await eventually(lambda: isinstance(app.screen, QuitScreen), 10, "the question again", pilot=pilot)
        await pilot.press("y")
        await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "the home screen", pilot=pilot)
        await eventually(lambda: app.session is None, 10, "the table closed", pilot=pilot)
