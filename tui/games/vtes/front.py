"""Vampire: The Eternal Struggle's front end, as :mod:`tui.games` finds it (``FRONT_END``).

The table screen is not built yet: a person cannot take a seat in the TUI (``may_sit`` says why
and what to do instead); bots play, and the shared screens show the lobby, the narration, the
audit and the result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.games import find_game
from tui.games import FrontEnd, GameEnd, result_summary

if TYPE_CHECKING:
    from engine.table import Table

TITLE = "Vampire: The Eternal Struggle"

HELP = """\
[b]Vampire: The Eternal Struggle in short[/b]
  Each Methuselah brings a deck (a crypt of vampires, a library) and
  a pool of 30 blood. Bleed your prey (the player to your left) to
  empty its pool: ousting it gives you a victory point (VP) and 6
  pool. The last one standing gets a VP more; most VP wins.
  This program has no VTES table screen yet: bots play it
  (vampire host --game vtes --headless, then vampire join HOST --bot
  heuristic --deck FILE); here you can watch, replay and audit."""

NO_SCREEN = (
    f"The screen cannot play {TITLE} yet: open the table with --headless, and seat players with "
    "vampire join HOST --bot heuristic --deck FILE."
)


def game_end(table: Table, me: int | None) -> GameEnd:
    """The result's summary, then the table's result as an organiser enters it in the Archon
    (the game's ``organiser_result``: seating order, VP, GW and the Archon's checks)."""
    from rich.text import Text

    plain = result_summary(table, me)
    state = table.gstate
    organiser = find_game("vtes").organiser_result
    if state is None or organiser is None or table.game is None or table.game.result(state) is None:
        return plain
    return GameEnd(plain.headline, Text(organiser(state, list(table.names))))


FRONT_END = FrontEnd(name="vtes", title=TITLE, no_screen=NO_SCREEN, help=HELP, game_end=game_end)
