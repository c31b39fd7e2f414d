"""The host's own seat is seat 0 (README), even at a VTES table whose host picks a deck in the lobby
after a guest has joined: the guest's `join` waits until the host's person sits, then is signed
again and takes seat 1. A bot the lobby adds before the host sits is refused in a sentence."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.errors import VampireError
from engine.games.vtes.decks import bundled_deck, bundled_deck_names
from net.local import bot_client, until
from tests.support.net import FAST
from tests.support.poll import eventually
from tui.connect import HostedTable
from tui.session import HostSpec


async def test_a_host_who_picks_a_deck_after_a_guest_joined_sits_at_seat_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    hosted = HostedTable(HostSpec("Mina", 2, (), {}, 0, "vtes", "127.0.0.1"))
    guest = None
    try:
        await hosted.start()
        await eventually(lambda: hosted.needs_kit, 30, "the lobby asking the host for a deck")
        with pytest.raises(VampireError, match="take your own seat first"):
            await hosted.add_bot("heuristic")
        host = hosted._host
        port = int(str(hosted.address).rsplit(":", 1)[1])
        guest = bot_client(("127.0.0.1", port), "heuristic", name="Guest", timeouts=FAST, rng=random.Random(4))
        await guest.start()
        await eventually(lambda: len(host.players_connected()) == 2, 30, "the guest connected")
        await eventually(lambda: guest.driver._inflight is not None, 30, "the guest's join sent")
        assert hosted.table.seats == [] or all(s.name != "Guest" for s in hosted.table.seats)
        hosted.bring(bundled_deck(bundled_deck_names()[0]))
        await until(lambda: len(host.table.seats) == 2, [guest], 30, "both seats taken")
        names = [s.name for s in host.table.seats]
        assert names == ["Mina", "Guest"], names
        assert hosted.seat == 0 and guest.seat is not None and guest.seat.index == 1
    finally:
        if guest is not None:
            await guest.stop()
        await hosted.stop()
