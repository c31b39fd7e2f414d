"""A spectator (`vampire join --spectate HOST`) who quits with Ctrl+Q while the game goes on has
done what it chose: the command exits 0, as a seated player's chosen quit does; its footer lists
no key that acts (only Help and Quit), at a Vampire Queen and at a VTES table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Footer

from engine.games import all_rules
from engine.opening import open_sequencer, order_table
from engine.protocol.identity import new_key
from engine.seat import now_ms
from net.host import Host
from net.local import bot_client
from tests.support.net import FAST
from tests.support.poll import eventually
from tui.app import VampireApp
from tui.cli.join import run_join
from tui.cli.parser import build_parser
from tui.screens.quit import QuitScreen
from tui.screens.table import TableFrame

FRAME_KEYS = {"f1", "ctrl+q"}
"""What a watcher may do from the footer: read the help, quit."""


async def _table(game: str, seats: int, rules: dict[str, Any], save: Path) -> tuple[Host, list[Any]]:
    order = order_table(game, bots=["heuristic"] * seats, seats=seats, rules=rules, title="watched table")
    host = Host(open_sequencer(order, new_key(), save, now_ms), timeouts=FAST)
    await host.start("127.0.0.1", 0)
    address = ("127.0.0.1", host.port)
    bots = [bot_client(address, "heuristic", name=f"Bot {i}", games=all_rules(), timeouts=FAST) for i in range(seats)]
    for bot in bots:
        await bot.start()
    return host, bots


@pytest.mark.parametrize(("game", "seats", "rules"), [("queen", 3, {"rounds": 20}), ("vtes", 2, {})])
async def test_a_spectators_ctrl_q_mid_game_exits_0_and_its_footer_lists_no_act_key(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    seats: int,
    rules: dict[str, Any],
    at_a_terminal: None,
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    host, bots = await _table(game, seats, rules, tmp_path / "host.vtlog")
    seen: dict[str, Any] = {}

    async def run_async(app: VampireApp, **_: Any) -> None:
        """The app as `vampire join` runs it, a person at the keys: watch a while, then Ctrl+Q."""
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: isinstance(app.screen, TableFrame), 120, "the table screen", pilot=pilot)
            screen = app.screen
            await eventually(lambda: len(screen.session.table.entries) > 20, 120, "some play", pilot=pilot)
            await pilot.pause(0.3)
            seen["keys"] = {b.binding.key for b in screen.active_bindings.values() if b.binding.show and b.enabled}
            seen["footer"] = bool(screen.query(Footer))
            seen["running"] = screen.session.table.phase == "running" and not screen.session.table.ended
            await pilot.press("ctrl+q")
            asked = lambda: next((s for s in app.screen_stack if isinstance(s, QuitScreen)), None)  # noqa: E731
            question = await eventually(asked, 10, "the quit question", pilot=pilot)
            seen["consequence"] = question.consequence
            # A box the game pushed at that moment (its end, on a loaded machine) may cover the
            # question: the watcher closes it first, then answers.
            while app.screen is not question:
                app.pop_screen()
                await pilot.pause()
            await pilot.press("y")

    monkeypatch.setattr(VampireApp, "run_async", run_async)
    args = build_parser().parse_args(["join", f"127.0.0.1:{host.port}", "--spectate", "--name", "Watcher"])
    try:
        code = await run_join(args)
    finally:
        for bot in bots:
            await bot.stop()
        await host.close()
    assert seen["running"], "the game was still on when the spectator quit"
    assert seen["consequence"] == "You only watch this table: the others play on."
    assert code == 0
    assert seen["footer"] and seen["keys"] <= FRAME_KEYS, seen["keys"]
