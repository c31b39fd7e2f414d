"""End of a round (every hand with its points, running totals) and end of the game (final totals,
the winners, where the log was saved and the command that audits it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static

from tui.files import display_path, shell_path
from tui.present import cards_text, round_rows, winners_text
from tui.session import TableSession
from tui.widgets.common.too_small import TooSmallNotice


def round_table(state: Any, names: list[str], round_index: int = -1) -> RichTable:
    """Every hand of a finished round, its points and the running totals (lowest total first wins)."""
    rows = round_rows(state, names, round_index)
    low = min(r.total for r in rows)
    grid = RichTable(box=None, pad_edge=False, show_edge=False, expand=False)
    grid.add_column("player", no_wrap=True)
    grid.add_column("hand left at the end", overflow="fold")
    grid.add_column("points", justify="right")
    grid.add_column("total", justify="right")
    grid.add_column("")
    for r in rows:
        lowest = r.total == low
        grid.add_row(
            r.name,
            r.hand,
            str(r.points),
            Text(str(r.total), style="bold" if lowest else ""),
            Text("◆ lowest" if lowest else "", style="bold"),
        )
    return grid


class RoundEndScreen(ModalScreen[None]):
    """A round is over: every hand shown with its points and the running totals. The next round's
    shuffle goes on behind it; Enter closes it."""

    BINDINGS = [
        Binding("enter", "close", "Continue"),
        Binding("escape", "close", "Continue", show=False),
        Binding("space", "close", "Continue", show=False),
    ]

    def __init__(self, state: Any, names: list[str], final: bool = False) -> None:
        super().__init__()
        self.state = state
        self.names = names
        self.final = final

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        state = self.state
        number = len(state.round_scores)
        rounds = state.option("rounds")
        with Vertical(id="round-end", classes="dialog"):
            yield Static(Text(f"Round {number} of {rounds} is over", style="bold"), classes="dialog-title")
            yield Static(
                "Points are the cards left in hand (a Queen 14, a hunter its number); the lowest total wins.",
                classes="dim",
            )
            yield Static(round_table(state, self.names), id="round-table")
            hint = (
                "Enter: see the final result."
                if self.final
                else "Enter: back to the table, where the next round goes on."
            )
            yield Static(hint, classes="hint")

    def on_mount(self) -> None:
        # Toasts from the table would sit on the box's lower rows: the box says what matters now.
        self.app.clear_notifications()

    def action_close(self) -> None:
        self.dismiss(None)


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
        state = table.gstate
        names = table.names
        result = table.game.result(state) if state is not None else None
        with VerticalScroll(id="game-end"):
            if table.fault is not None:
                yield Static(Text("The table stopped: a cheat was proven", style="bold"), classes="dialog-title")
                yield Static(table.fault.describe(names))
            elif result is not None:
                yield Static(
                    Text("Game over. " + winners_text(state, names, result), style="bold"), classes="dialog-title"
                )
            else:
                yield Static(Text("The game ended", style="bold"), classes="dialog-title")
            if state is not None and state.totals:
                yield Static(self._totals(state, names, result), id="totals")
            path = self.session.log_path
            if path is not None:
                yield Static(f"The log is saved in {display_path(Path(path))}")
                yield Static("Anyone can check it, here (press a) or from a shell:")
                yield Static(Text("  vampire audit " + shell_path(Path(path)), style="bold"))
                yield Static("Press r to replay it move by move.", classes="dim")
            else:
                yield Static("This table kept no log file.", classes="dim")
        yield Footer()

    def _totals(self, state: Any, names: list[str], result: Any) -> RichTable:
        grid = RichTable(box=None, show_edge=False, pad_edge=False)
        grid.add_column("player", no_wrap=True)
        for i in range(len(state.round_scores)):
            grid.add_column(f"r{i + 1}", justify="right")
        grid.add_column("total", justify="right")
        grid.add_column("")
        winners = set(result.winners) if result is not None else set()
        order = sorted(range(state.seats), key=lambda s: (state.totals[s], s))
        for s in order:
            me = " (you)" if s == self.session.seat else ""
            cells = [str(r[s]) for r in state.round_scores]
            won = "★ winner" if s in winners else ""
            grid.add_row(names[s] + me, *cells, Text(str(state.totals[s]), style="bold"), Text(won, style="bold"))
        return grid

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


__all__ = ["GameEndScreen", "RoundEndScreen", "cards_text"]
