"""At a table against bots (``vampire play``), each bot brings a bundled deck unlike the
person's and each other's: few vampires are contested (tui/local_play.py shares what is taken
between the bots' factories)."""

from __future__ import annotations

import random
from pathlib import Path

from engine.games import all_rules
from engine.games.vtes.kept_decks import remembered_bundled_deck
from net.local import bot_factory, until
from tui.local_play import open_play


async def test_bots_at_your_vtes_table_bring_decks_unlike_yours_and_each_others(tmp_path: Path) -> None:
    yours = remembered_bundled_deck("atraco")
    local = await open_play(
        "vtes",
        ["heuristic"] * 4,
        name="Mina",
        save=tmp_path / "game.vtlog",
        options={},
        brought=yours,
        games=all_rules(),
        player_bot=bot_factory("heuristic", random.Random(5), yours),
    )
    try:
        await until(lambda: len(local.host.table.seats) == 5, [local.session.client], 60, "every seat")
        names = [bot.driver.bot.deck.name for bot in local.bots]
    finally:
        await local.close()
    assert len(set(names)) == 4 and "atraco" not in names
