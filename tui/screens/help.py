"""The keys, in one place (F1 or the command palette)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.widgets.common.too_small import TooSmallNotice

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
  ← → one entry   \\[ ] one trick   PgUp PgDn one round   h hands

Ctrl+P: command palette (Home leaves the table). Ctrl+Q: quit. Esc closes this."""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape", "dismiss", "Close"), Binding("f1", "dismiss", "Close", show=False)]

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        with VerticalScroll(id="help", classes="dialog"):
            yield Static(HELP)
