"""`vampire join HOST --deck FILE` at a tournament VTES table (table rule ``crypt_groups``): a crypt
of vampires of groups 2 and 6 takes no seat, and the lobby says why, naming the groups, as
`vampire play` and the lobby's deck chooser do; at a standard table the same file sits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.opening import open_sequencer, order_table
from engine.protocol.identity import new_key
from engine.seat import now_ms
from net.host import Host
from tests.support.net import FAST
from tests.support.poll import eventually
from tui.app import VampireApp
from tui.cli.join import run_join
from tui.cli.parser import build_parser
from tui.screens.lobby import LobbyScreen

LIBRARY = ["10x Govern the Unaligned", "10x Dreams of the Sphinx", "2x The Rack", "8x Blood Doll", "50x Deflection"]
GROUPS = "the crypt holds vampires of groups 2 (6 cards) and 6 (6 cards)"


@pytest.mark.parametrize("ruleset", ["tournament", "standard"])
async def test_a_joiners_crypt_of_groups_2_and_6_is_refused_at_a_tournament_table_naming_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str, at_a_terminal: None
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    deck = tmp_path / "mixed.txt"
    deck.write_text("\n".join(["6x Alexandra", "6x Abraham Mellon", *LIBRARY]) + "\n")
    order = order_table("vtes", seats=4, rules={"ruleset": ruleset}, title="a VTES table")
    host = Host(open_sequencer(order, new_key(), tmp_path / "host.vtlog", now_ms), timeouts=FAST)
    await host.start("127.0.0.1", 0)
    seen: dict[str, Any] = {}

    async def run_async(app: VampireApp, **_: Any) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: isinstance(app.screen, LobbyScreen), 30, "the lobby", pilot=pilot)
            session = app.screen.session
            if ruleset == "tournament":
                said = lambda: " ".join(n.message for n in app._notifications)  # noqa: E731
                await eventually(lambda: GROUPS in said(), 30, "the refusal", pilot=pilot)
                seen["said"] = said()
            else:
                await eventually(lambda: session.seat is not None, 30, "the seat", pilot=pilot)
            seen["seat"] = session.seat
            await pilot.press("ctrl+q")

    monkeypatch.setattr(VampireApp, "run_async", run_async)
    args = build_parser().parse_args(["join", f"127.0.0.1:{host.port}", "--name", "Mina", "--deck", str(deck)])
    try:
        await run_join(args)
    finally:
        await host.close()
    if ruleset == "tournament":
        assert seen["seat"] is None and not host.table.seats
        assert "table rule crypt_groups" in seen["said"] and "choose another deck with d" in seen["said"]
    else:
        assert seen["seat"] == 0
