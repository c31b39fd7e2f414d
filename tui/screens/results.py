"""The end of a game: the game's own summary (its front end's, :mod:`tui.games`), or the proof
of a cheat; where the log was saved and the command that audits it."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from tui.files import display_path, shell_path, vampire_command
from tui.games import front_end_of
from tui.session import TableSession
from tui.widgets.common.too_small import TooSmallNotice


class GameEndScreen(Screen[None]):
    """The game is over: final totals, the winners, where the log is, and how to audit it."""

    BINDINGS = [
        Binding("a", "audit", "Audit the log"),
        Binding("r", "replay", "Replay it"),
        Binding("h", "home", "Home"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, session: TableSession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        table = self.session.table
        end = front_end_of(table).game_end(table, self.session.seat)
        with VerticalScroll(id="game-end"):
            if table.fault is not None:
                yield Static(Text("The table stopped: a cheat was proven", style="bold"), classes="dialog-title")
                yield Static(table.fault.describe(table.names))
            else:
                yield Static(Text(end.headline, style="bold"), classes="dialog-title")
            if end.body is not None:
                yield Static(end.body, id="totals")
            path = self.session.log_path
            if path is not None:
                yield Static(f"The log is saved in {display_path(Path(path))}")
                yield Static("Anyone can check it, here (press a) or from a shell:")
                yield Static(Text(f"  {vampire_command()} audit {shell_path(Path(path))}", style="bold"))
                yield Static("Press r to replay it move by move.", classes="dim")
            else:
                yield Static("This table kept no log file.", classes="dim")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("audit", "replay"):
            return True if self.session.log_path is not None else None
        return True

    def action_audit(self) -> None:
        from tui.screens.audit import AuditScreen

        if self.session.log_path is not None:
            self.app.push_screen(AuditScreen(self.session.log_path))

    def action_replay(self) -> None:
        from tui.screens.replay import ReplayScreen

        if self.session.log_path is not None:
            self.app.push_screen(ReplayScreen(self.session.log_path))

    def action_home(self) -> None:
        self.app.go_home()  # type: ignore[attr-defined]
