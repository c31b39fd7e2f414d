"""The keys and each game's rules in short, in one place (F1 or the command palette)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.games import game_names
from tui.games import help_text
from tui.widgets.common.too_small import TooSmallNotice

FOOTER = "Ctrl+P: command palette (Home leaves the table). Ctrl+Q: quit. Esc closes this."


class HelpScreen(ModalScreen[None]):
    """The help of the games called ``games`` (default: every game), then the keys every screen
    shares."""

    BINDINGS = [Binding("escape", "dismiss", "Close"), Binding("f1", "dismiss", "Close", show=False)]

    def __init__(self, games: Sequence[str] | None = None) -> None:
        super().__init__()
        self.games = list(games) if games is not None else game_names()

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        sections = help_text(self.games)
        with VerticalScroll(id="help", classes="dialog"):
            yield Static(f"{sections}\n\n{FOOTER}" if sections else FOOTER)
