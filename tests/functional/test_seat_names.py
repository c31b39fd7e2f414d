"""No two seats of a table share a name, over loopback TCP: a person who joins under a seated bot's
name (in another case) sits as "Name 2" and is told so in one line, by `vampire join` and by the
lobby screen; two bots asking for one name get two; a seat that comes back with its own key keeps
its name. And the host's own seat sits first (seat 0), its bots after it, as `vampire host
--bots N` seats them."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.protocol.identity import new_key
from net.client import Store
from net.events import Connection, LinkState
from net.local import bot_client, start_after_seat
from net.session import Session
from tests.support.cli import child_env
from tests.support.net import FAST, QUICK_BACKOFF, open_host, stop_all
from tests.support.poll import eventually
from tui.app import Start, VampireApp
from tui.connect import wrap_session
from tui.screens.lobby import LobbyScreen

ROOT = Path(__file__).resolve().parents[2]


def _names(host: Any) -> list[str]:
    return list(host.table.names)


async def test_a_person_joining_as_a_seated_bots_name_sits_as_name_2_and_the_lobby_says_so() -> None:
    host = open_host(seats=3, auto_start=False)
    await host.start("127.0.0.1", 0)
    address = ("127.0.0.1", host.port)
    bot = bot_client(address, "random", name="Lisa", timeouts=FAST, backoff=QUICK_BACKOFF)
    await bot.start()
    await eventually(lambda: _names(host) == ["Lisa"], 10, "the bot seated")
    person = Session.connect(
        address, new_key(), name="lisa", store=Store.memory(), timeouts=FAST, backoff=QUICK_BACKOFF
    )
    app = VampireApp(Start("lobby", wrap_session(person)), name="lisa")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
            await eventually(lambda: _names(host) == ["Lisa", "lisa 2"], 10, "my seat", pilot=pilot)
            said = "The name lisa is taken at this table: you sit as lisa 2."
            await eventually(
                lambda: any(n.message == said for n in app._notifications), 10, "the lobby's line", pilot=pilot
            )
            await pilot.press("ctrl+q")
    finally:
        await person.stop()
        await stop_all(host, [bot])


async def test_two_bots_asking_for_one_name_never_share_it_and_a_returning_seat_keeps_its_own() -> None:
    host = open_host(seats=3, auto_start=False)
    await host.start("127.0.0.1", 0)
    address = ("127.0.0.1", host.port)
    first = bot_client(address, "random", name="Vlad", timeouts=FAST, backoff=QUICK_BACKOFF)
    second = bot_client(address, "random", name="VLAD ", timeouts=FAST, backoff=QUICK_BACKOFF)
    try:
        await first.start()
        await eventually(lambda: _names(host) == ["Vlad"], 10, "the first bot")
        await second.start()
        await eventually(lambda: _names(host) == ["Vlad", "VLAD 2"], 10, "the second bot, renamed")
        # The first comes back on a new connection with its own key: no new join, same name.
        seq = len(host.table.entries)
        states: list[LinkState] = []
        first.listeners.subscribe(lambda e: states.append(e.state) if isinstance(e, Connection) else None)

        def back() -> bool:
            return (
                LinkState.DISCONNECTED in states
                and LinkState.CONNECTED in states[states.index(LinkState.DISCONNECTED) :]
            )

        first.drop()
        await eventually(back, 10, "back on a new connection")
        await eventually(lambda: first.seat is not None and first.seat.index == 0, 10, "its seat again")
        assert _names(host) == ["Vlad", "VLAD 2"]
        assert [e.kind for e in host.table.entries[seq:]].count("join") == 0
    finally:
        await stop_all(host, [first, second])


async def test_the_hosts_own_seat_sits_first_then_its_bots_in_order() -> None:
    host = open_host(seats=3, auto_start=False)
    await host.start("127.0.0.1", 0)
    address = ("127.0.0.1", host.port)
    bots = [bot_client(address, "random", name=n, timeouts=FAST, backoff=QUICK_BACKOFF) for n in ("Lisa", "Scott")]
    own = Session.connect(address, new_key(), name="Mina", store=Store.memory(), timeouts=FAST, backoff=QUICK_BACKOFF)
    # As `vampire host` does: the bots wait for the host's seat, which connects only afterwards.
    seating = asyncio.get_running_loop().create_task(start_after_seat(own.client, bots))
    try:
        await asyncio.sleep(0.2)
        assert _names(host) == []  # no bot sat before the host
        await own.start()
        await asyncio.wait_for(seating, 30)
        assert _names(host) == ["Mina", "Lisa", "Scott"]
    finally:
        seating.cancel()
        await own.stop()
        await stop_all(host, bots)


def test_vampire_host_with_bots_seats_its_host_first(monkeypatch: pytest.MonkeyPatch, at_a_terminal: None) -> None:
    """`vampire host --bots 2` with a screen: the host's own seat is seat 0 (the screen is replaced
    by a stand-in that connects the host's session and waits for the table to fill)."""
    import tui.cli.host as cli  # the module whose run_host calls the screen
    from tui.cli import main

    seen: dict[str, Any] = {}

    async def front_end(session: Any, host: Any = None, **_: Any) -> int:
        await session.start()
        await eventually(lambda: len(host.table.seats) == 3, 30, "three seats")
        seen["names"] = list(host.table.names)
        seen["me"] = host.table.seat_of(session.client.public)
        await session.stop()
        return 0

    monkeypatch.setattr(cli, "_front_end", front_end)
    argv = ["host", "--seats", "3", "--bots", "2", "--name", "Lisa", "--bind", "127.0.0.1", "--port", "0"]
    assert main([*argv, "--no-announce", "--rule", "rounds=1"]) == 0
    assert seen["me"] == 0 and seen["names"][0] == "Lisa"
    assert len({n.casefold() for n in seen["names"]}) == 3  # no bot took the host's name


def test_vampire_join_says_in_one_line_that_its_name_was_taken(tmp_path: Path) -> None:
    async def run() -> str:
        host = open_host(seats=3, auto_start=False)
        await host.start("127.0.0.1", 0)
        bot = bot_client(("127.0.0.1", host.port), "random", name="Lisa", timeouts=FAST, backoff=QUICK_BACKOFF)
        await bot.start()
        env = child_env(tmp_path)
        args = ["join", f"127.0.0.1:{host.port}", "--bot", "random", "--name", "Lisa"]
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui.cli", *args, cwd=ROOT, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        lines: list[str] = []
        try:
            assert proc.stdout is not None
            while not any("is taken" in line for line in lines):
                line = await asyncio.wait_for(proc.stdout.readline(), 30)
                if not line:
                    break
                lines.append(line.decode())
        finally:
            proc.terminate()
            await proc.wait()
            assert _names(host) == ["Lisa", "Lisa 2"]
            await stop_all(host, [bot])
        return "".join(lines)

    out = asyncio.run(run())
    assert "The name Lisa is taken at this table: you sit as Lisa 2." in out, out


async def test_vampire_play_seats_you_first_and_no_bot_takes_your_name() -> None:
    from net.local import open_local_table

    table = await open_local_table(levels=("random", "random"), name="lisa", options={"rounds": "1"}, timeouts=FAST)
    try:
        names = _names(table.host)
        assert names[0] == "lisa" and table.session.seat == 0
        assert len({n.casefold() for n in names}) == 3
    finally:
        await table.close()
