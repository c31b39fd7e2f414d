"""Vampire Queen's front end, as :mod:`tui.games` finds it (``FRONT_END``). Its screens are
imported when first shown, so that asking the registry about a game loads no screen."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tui.games import FrontEnd, GameEnd, ReplayKit

if TYPE_CHECKING:
    from textual.screen import Screen

    from engine.table import Table
    from tui.session import TableSession

HELP = """\
[b]At the table[/b]
  ← →       move along your hand      Space  pick or unpick a card
  Home End  to the first / last card  Esc    unpick everything
  Enter     play the picked cards     p      pass (in a normal trick)
  c         chat (Enter sends)        E      vote to end a long wait
  l         read the game log (↑ ↓; Esc goes back to your hand)
  A         automatic pass on/off: when nothing of yours beats the
            lead, your seat passes without p (on at first)
  The line under your hand says what Enter would play, or why not.
  Picked cards show as [7]; ▲ marks the cursor; ▶ marks whose turn.

[b]Vampire Queen in short[/b]
  Cards: 1 to 13 (eight of each), four Queens, Hunters 15 and 20.
  A set is one or more cards of one number; a Queen stands in for
  any number, and Queens alone count 14.
  [b]A normal trick.[/b] The leader plays any set. Then each player in
  turn plays once: a set of as many cards, higher than the highest
  so far, or passes. Nobody plays twice in a trick. The highest set
  wins the trick (its cards are discarded) and leads the next.
  [b]A hunter trick.[/b] A hunter is led alone. Everyone else must play
  exactly one card (no passing); the highest card takes every card
  played, the hunter included, into their hand. A tie goes to the
  card played later, unless this table's rules (below) say earlier.
  You may not lead the hunter you have just taken, on the very next
  lead.
  [b]A round[/b] ends after a trick when someone has no cards left.
  Cards left in hand score their number (a Queen 14, a hunter 15 or
  20). Hunters stay with their holder into the next round, and the
  holder of Hunter 20 leads the first trick of that round. After the
  last round the lowest total wins.

[b]Replay[/b]
  ← → one entry   \\[ ] one trick   PgUp PgDn one round   h hands"""


def option_words(options: Mapping[str, Any]) -> list[str]:
    """A Vampire Queen table's rules (its options, defaults filled in) as sentences for the help:
    ``{"rounds": 5, "hunter_tie": "last", ...}`` -> ``["The game lasts 5 rounds.", ...]``
    (shared/rules/vampire-queen.md, the table rules). Unknown options are left out."""
    words = []
    rounds = options.get("rounds")
    if rounds is not None:
        words.append(f"The game lasts {rounds} round{'s' if rounds != 1 else ''}.")
    queen = options.get("queen_in_hunter_trick")
    if queen is not None:
        words.append(f"A Queen played into a hunter trick counts {queen}.")
    tie = options.get("hunter_tie")
    if tie is not None:
        which = "played later" if tie == "last" else "played first"
        words.append(f"A tie in a hunter trick goes to the card {which}.")
    share = options.get("tie")
    if share is not None:
        words.append("Tied lowest totals share the win." if share == "shared" else "Tied lowest totals: nobody wins.")
    return words


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
    option_words=option_words,
    seat_given_up="the game ends with no winner",
)
