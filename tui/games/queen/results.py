"""Vampire Queen's results: the end of a round (every hand with its points, running totals) and
the game's summary for the shared end-of-game screen (final totals by round, the winners)."""

from __future__ import annotations

from typing import Any

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.table import Table
from tui.games import GameEnd
from tui.games.queen.present import round_rows, winners_text
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

    HOLDS_NOTIFICATIONS = True  # the table's toasts wait until this box closes (they would cover it)

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


def game_end(table: Table, me: int | None) -> GameEnd:
    """The winners, and every seat's points per round and total, lowest total first."""
    state = table.gstate
    names = table.names
    result = table.game.result(state) if table.game is not None and state is not None else None
    headline = "Game over. " + winners_text(state, names, result) if result is not None else "The game ended"
    body = totals_table(state, names, result, me) if state is not None and state.totals else None
    return GameEnd(headline, body)


def totals_table(state: Any, names: list[str], result: Any, me: int | None) -> RichTable:
    """Every seat's points per round and its total, lowest first, the winners marked."""
    grid = RichTable(box=None, show_edge=False, pad_edge=False)
    grid.add_column("player", no_wrap=True)
    for i in range(len(state.round_scores)):
        grid.add_column(f"r{i + 1}", justify="right")
    grid.add_column("total", justify="right")
    grid.add_column("")
    winners = set(result.winners) if result is not None else set()
    order = sorted(range(state.seats), key=lambda s: (state.totals[s], s))
    for s in order:
        mine = " (you)" if s == me else ""
        cells = [str(r[s]) for r in state.round_scores]
        won = "★ winner" if s in winners else ""
        grid.add_row(names[s] + mine, *cells, Text(str(state.totals[s]), style="bold"), Text(won, style="bold"))
    return grid
