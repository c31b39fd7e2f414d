"""Vampire Queen's front end, as :mod:`tui.games` finds it (``FRONT_END``). Its screens are
imported when first shown, so that asking the registry about a game loads no screen."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tui.games import FrontEnd, GameEnd, ReplayKit

if TYPE_CHECKING:
    from textual.screen import Screen

    from engine.table import Table
    from tui.session import TableSession

HELP = """\
[b]At the table[/b]
  ← →     move along your hand      Space  pick or unpick a card
  Enter   play the picked cards     p      pass (normal tricks only)
  Esc     unpick everything         c      chat (Enter sends)
  l       read the game log (↑ ↓)   a      vote to end a long wait
  The line under your hand says what Enter would play, or why not.
  Picked cards show as [7]; ▲ marks the cursor; ▶ marks whose turn.

[b]Vampire Queen in short[/b]
  Play a set (cards of one number; Queens stand in for any number)
  higher than the highest so far, with as many cards as the lead,
  or pass. The highest set wins the trick and leads the next.
  A hunter is led alone: everyone must play one card, and the
  highest takes all of them, hunter included, into their hand.
  When someone runs out of cards the round ends. Cards left in hand
  score points (a Queen 14, a hunter 15 or 20): lowest total wins.

[b]Replay[/b]
  ← → one entry   \\[ ] one trick   PgUp PgDn one round   h hands"""


def _table_screen(session: TableSession) -> Screen[Any]:
    from tui.games.queen.table import TableScreen

    return TableScreen(session)


def _game_end(table: Table, me: int | None) -> GameEnd:
    from tui.games.queen.results import game_end

    return game_end(table, me)


def _replay() -> ReplayKit:
    from tui.games.queen.replay import QueenReplay

    return QueenReplay()


FRONT_END = FrontEnd(
    name="queen",
    title="Vampire Queen",
    table_screen=_table_screen,
    help=HELP,
    game_end=_game_end,
    replay=_replay,
    home_options=("rounds",),
)
