"""What a host reads when it leaves a table, and in its lobby (README, "Bringing a table back";
PROTOCOL.md 9): the whole command that brings the table back (with --bind, --port and --name),
and, with discovery off, that friends need the address (the table is in no list of tables)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.local_session import LocalGameSession, build_local
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.app import Start, VampireApp
from tui.farewell import host_resume_command
from tui.screens.lobby import LobbyScreen


def test_the_command_that_brings_a_hosted_table_back_is_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.farewell.vampire_command", lambda: "vampire")
    assert host_resume_command(Path("hosted/t 1.vtlog"), "0.0.0.0", 7447, "Mina Ro") == (
        "vampire host --resume 'hosted/t 1.vtlog' --bind 0.0.0.0 --port 7447 --name 'Mina Ro'"
    )


@pytest.mark.parametrize("discovery", [False, True])
async def test_the_lobby_says_how_friends_find_the_table(monkeypatch: pytest.MonkeyPatch, discovery: bool) -> None:
    if discovery:
        monkeypatch.delenv("VAMPIRE_NO_DISCOVERY", raising=False)
    else:
        monkeypatch.setenv("VAMPIRE_NO_DISCOVERY", "1")
    session = LocalGameSession(
        build_local(5, [None, "heuristic", "random"], start=False, seated=1), 0, auto=False, address="192.168.1.5:7447"
    )
    app = VampireApp(Start("lobby", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
        line = app.screen.query_one("#lobby-address")
        await eventually(lambda: "host key" in shown(line), 10, "the address line", pilot=pilot)
        text = shown(line)
        assert "vampire join 192.168.1.5:7447" in text
        assert ("pick it in their list of tables" in text) is discovery
        assert ("Discovery is off: give them this address" in text) is not discovery
        assert app.screen.check_action("remove_bot", ()) is False  # no bot: x is not offered
