"""A VTES table of bots in a new process, its card cache warm (the second game on a computer),
loads no krcg at all (shared/rules/vtes.md, "Setup"; DESIGN.md dependencies): the bots' shipped
decks are kept readings and the cards' infos come from the cache file, so krcg's database, its
deck list parser and what they import (aiohttp, arrow) cost nothing before the first turn."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import sys
from engine.games.vtes.decks import bundled_deck_names
from engine.games.vtes.kept_decks import remembered_bundled_deck
from engine.local import new_local_game

for name in bundled_deck_names():
    remembered_bundled_deck(name).crypt_identities()
local = new_local_game("vtes", ["heuristic", "heuristic"], seed=3)
for _ in range(12):  # the seats join with their decks, the seating draw begins
    local.step()
assert local.table.entries
print("krcg loaded" if "krcg" in sys.modules else "no krcg")
"""


def _run(cache: Path) -> str:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache), VAMPIRE_NO_DISCOVERY="1")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, check=False, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_bots_at_a_vtes_table_load_no_krcg_once_the_card_cache_is_warm(tmp_path: Path) -> None:
    assert _run(tmp_path) == "krcg loaded"  # the first time: krcg reads the decks, the cache is written
    assert _run(tmp_path) == "no krcg"
