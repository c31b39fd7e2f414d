"""Vampire: The Eternal Struggle's front end, as :mod:`tui.games` finds it (``FRONT_END``).

The table screen (:mod:`tui.games.vtes.table`) is imported when first shown, so that asking the
registry about a game loads neither the screen nor krcg's card data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.games import find_game
from tui.games import FrontEnd, GameEnd, LobbyKit, ReplayKit, result_summary
from tui.games.vtes.passes import DoneOnce, fold_passes

if TYPE_CHECKING:
    from textual.screen import Screen

    from engine.table import Table
    from tui.session import TableSession

TITLE = "Vampire: The Eternal Struggle"

HELP = """\
[b]At the VTES table[/b]
  Tab     hand → table → log (▸ marks it; the Card panel shows the
          card highlighted in the hand or on the table)   ↑ ↓ move
  n       next phase                N      end the turn
  d       draw a card               p      play the hand card (the
          first p names it, p again plays it)
  D       discard it
  Basic or superior: where your minion may play both and they differ,
  p asks (a menu); a command names it: :play CARD sup · :strike with
          CARD sup (basic, or none named: basic, and it says so)
  t       1 pool to a vampire of your uncontrolled region (a transfer)
  Y       your contests, in your unlock phase (a menu): pay 1 pool a
          contested card (1 blood a contested title) or yield it;
          :contest CARD · :yield CARD (rulebook, "Contested Cards")
  Actions (your minion phase; the selected minion, else your first):
  b       announce a bleed          h      announce a hunt
  a       announce an action (a menu: bleed, hunt, an action card of
          your hand, rescue, leave torpor…); p on an action card too
  In an open action (the box above the command line says who acts,
  stealth vs intercept, the window and who holds the impulse):
  b       block (when you may)      .      pass the impulse
  p       play a modifier (your action) or a reaction (another's)
  A       auto-pass on/off: with nothing to play your impulse passes
          by itself, or ask me every time
  A card another plays waits for the others' answers (a master card,
  a modifier, reaction or combat card; but at cancels=master only a
  master card):
  p       cancel it (Sudden Reversal, Wash, Direct Intervention;
          :cancel CARD)                     .      let it be
  In a combat (the box shows round, range, step, each strike and
  what it will do; the acting minion's side first):
  .       pass the step             s      the hand strike
  m       maneuver (range step)     P      press (press step)
  :strike 2 agg · :strike 1 ranged first · :strike dodge · :strike
          ends · :strike steal 1 · :strike +1 with CARD · :prevent 1
  In a referendum (the box shows the terms and the votes):
  :terms TEXT (the caller)          .      pass, then: done voting
  V       the caller: the terms the table applies (a menu; :terms N)
          vote: :vote for|against calling · title VAMPIRE · edge ·
          ballot PRISCUS · card CARD · other CARD N
  :diablerise [leave equipment] after blocking one leaving torpor
  Any command + lift RULE by CARD: a card sets a rule aside (P9)
  f       combat by hand: two minions a card sends into combat
  By hand (another's things need a cause, and wait for their answer
  or 30 s: y accepts what waits for you, :dispute N holds it; a bot
  takes on your word no pool, no card burned or moved, and 1 a turn
  of the rest: name the card you apply, played first):
  i       influence it out          k      lock / unlock a card
  x       burn it                   > <    its blood or life ±1
  v       move it (a menu)          + -    your pool ±1
  g       1 pool from the Edge
  C       top crypt card to your uncontrolled region (4 transfers);
          free when a card says so: :move top crypt to uncontrolled
  w       announce withdrawal       T      call time (tournament)
  r       the card's rulings        H      show the ash heaps
  e       the card's whole text     L      the whole game log
  :       the command line (→ completes, Enter sends, Esc leaves):
          next · end · draw \\[N] · play CARD \\[to ready|torpor]
          \\[on CARD] \\[pool N] \\[blood N \\[from MINION]] · discard CARD
          · bleed \\[N] \\[with MINION] \\[NAME] · hunt · action KIND
          \\[MINION] \\[with CARD] \\[at NAME] · block \\[MINION] · pass
          · stealth/intercept/amount ±N \\[for CAUSE|by CARD]
          · end-action CARD · dispute/accept/retract N
          · transfer ±N VAMPIRE · transfer crypt · influence VAMPIRE
          · pool ±N \\[NAME] \\[for CAUSE] · blood/life ±N CARD \\[for CAUSE]
          · lock/unlock/burn CARD \\[for CAUSE] · move CARD to ZONE
          · burn edge for CARD (the Edge you hold, as your CARD says)
          · move top crypt|library to ZONE (your own: at once)
          · combat A, B · handsize ±N \\[NAME] · shuffle library
          · contest/yield CARD · withdraw · time · deck CRYPT LIBRARY
  c       chat (Enter sends)        E      vote to end a long wait
  An act the rules refuse shows the engine's reason and is not sent.
  A key missing from the footer cannot act now: pressed, it says why.
  The table applies what a card says where it can read it (stealth,
  intercept, bleed, votes, strikes, prevention, blood and pool, …):
  `vampire cards NAME` says how much of a card it applies. After a
  play, the line under the table says what is left to do by hand.
  Methuselahs, in seating order from you (the next is your prey, the
  last your predator): pool, VP, cards, minions in torpor, then the
  ready minions (how many, their names cut to fit); Tab to the table
  lists every one's cards (↑ ↓ scroll it).
  Marks: ▶ whose turn   ◆ holds the Edge   ○ your uncontrolled
  region (face down to the others)   dim: locked   └ on the card above
  ⚠ on your pool: your predator's ready minions could oust you with
  their bleeds (a vampire bleeds 1, an ally its printed bleed).

[b]Replay[/b]
  ← → one entry   \\[ ] one phase   PgUp PgDn one turn   h hidden cards

[b]Vampire: The Eternal Struggle in short[/b]
  Each Methuselah brings a deck (a crypt of vampires, a library) and
  a pool of 30 blood. Bleed your prey (the player to your left) to
  empty its pool: ousting it gives you a victory point (VP) and 6
  pool. The last one standing gets a VP more; most VP wins."""


def _table_screen(session: TableSession) -> Screen[Any]:
    from tui.games.vtes.table import VtesTableScreen

    return VtesTableScreen(session)


def _replay() -> ReplayKit:
    from tui.games.vtes.replay import VtesReplay

    return VtesReplay()


def _lobby_kit() -> LobbyKit:
    from tui.games.vtes.deckpick import VtesLobbyKit

    return VtesLobbyKit()


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


def option_words(options: Mapping[str, Any]) -> list[str]:
    """A VTES table's rules (its options, defaults filled in) as plain sentences for the lobby and
    the help: ``{"polling": "15s", ...}`` -> ``[..., "Polling closes when every Methuselah is done
    voting, or 15 s after the last vote.", ...]`` (engine.games.vtes.game option schema). Unknown
    options are left out."""
    words = []
    if "ruleset" in options:
        tournament = options["ruleset"] == "tournament"
        words.append(
            "Tournament rules: 4 or 5 seats, withdrawal earns 0.5 VP, a time limit, Game wins."
            if tournament
            else "Standard rules."
        )
    if "library_size" in options:
        words.append(
            "Every library holds 60 to 90 cards."
            if options["library_size"]
            else "A library may hold any number of cards."
        )
    groups = options.get("crypt_groups")
    if groups is not None:
        check = "A crypt holds vampires of one group or two consecutive groups"
        words.append(
            {"on": f"{check}.", "off": "A crypt may hold vampires of any groups."}.get(
                str(groups), f"{check} at tournament tables."
            )
        )
    polling = options.get("polling")
    if polling is not None:
        also = ", or 15 s after the last vote" if polling == "15s" else ""
        words.append(f"Polling closes when every Methuselah is done voting{also}.")
    seconds = options.get("impulse_seconds")
    if seconds is not None:
        words.append(
            f"The Methuselah holding the impulse passes by itself after {seconds} s."
            if seconds
            else "The impulse has no clock."
        )
    return words


FRONT_END = FrontEnd(
    name="vtes",
    title=TITLE,
    table_screen=_table_screen,
    help=HELP,
    game_end=game_end,
    replay=_replay,
    home_options=("ruleset",),
    lobby_kit=_lobby_kit,
    fold=fold_passes,
    sieve=lambda: DoneOnce().shows,
    option_words=option_words,
    seat_given_up="you leave the game without VP, and your predator gains nothing",
)
