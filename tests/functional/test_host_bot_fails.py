"""A bot that the host's own process runs and that gives up (its log file cannot be written: the
same full disk as the table's) stops the table in one sentence with the way back, instead of
leaving its seat unanswered forever (DESIGN.md, "Nothing lost")."""

from __future__ import annotations

import asyncio

import pytest

from net.host import HostError
from tests.support.net import eventually, open_host, start_bots, stop_all
from tui.cli.host import _stop_when_a_bot_fails


async def test_a_bot_of_the_host_that_cannot_write_its_log_stops_the_table_with_the_way_back(tmp_path):
    save = tmp_path / "t.vtlog"
    host = open_host(seats=4, rounds=3, save=save)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 4)
    watch = asyncio.get_running_loop().create_task(_stop_when_a_bot_fails(host, [(b, "heuristic", None) for b in bots]))
    try:
        await eventually(lambda: host.table.phase != "lobby", 10, "the game to start")
        bots[1].give_up("This peer's log file cannot be written: [Errno 28] No space left on device.")
        await eventually(host.finished.is_set, 10, "the host to stop the table")
        assert host.failure is not None
        assert host.failure.startswith("Bot1, a bot this computer runs for the table, stopped: This peer's log")
        assert "nothing accepted before is lost" in host.failure
        assert host.failure.endswith(f"bring it back with --resume {save}.")
        with pytest.raises(HostError, match="stops the table"):
            host.post("chat", {"text": "after the stop"})
    finally:
        watch.cancel()
        await stop_all(host, bots)


async def test_a_bot_that_leaves_stops_nothing(tmp_path):
    host = open_host(seats=4, save=tmp_path / "t.vtlog", auto_start=False)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 2)
    watch = asyncio.get_running_loop().create_task(_stop_when_a_bot_fails(host, [(b, "heuristic", None) for b in bots]))
    try:
        await bots[0].leave("The host removed Bot0 from the table.")
        await eventually(lambda: len(host.table.seats) == 1, 10, "the seat to be freed")
        assert host.failure is None and not host.finished.is_set()
    finally:
        watch.cancel()
        await stop_all(host, bots)
