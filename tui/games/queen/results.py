"""Vampire Queen's results: the end of a round (every hand with its points, running totals) and
the game's summary for the shared end-of-game screen (final totals by round, the winners)."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.table import Table
from tui.games import GameEnd
from tui.games.queen.present import round_rows, winners_text
from tui.widgets.common.too_small import TooSmallNotice


def round_table(state: Any, names: list[str], round_index: int = -1, final: bool = False) -> RichTable:
    """Every hand of a finished round, its points and the running totals (lowest total first wins),
    the lowest total marked "◆ lowest total" (``final``: after the last round, the winning one)."""
    rows = round_rows(state, names, round_index)
    low = min(r.total for r in rows)
    grid = RichTable(box=None, pad_edge=False, show_edge=False, expand=False)
    grid.add_column("player", no_wrap=True, max_width=16, overflow="ellipsis")
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
            Text("◆ lowest total" if lowest else "", style="bold"),
        )
    return grid


class RoundEndScreen(ModalScreen[None]):
    """A round is over: every hand shown with its points and the running totals. The next round's
    shuffle goes on behind it; Enter closes it. ``watching``: the box of a spectator, who has no
    move to make: the table screen closes it by itself once the next round is dealt
    (:meth:`tui.games.queen.table.TableScreen.check_end`), and it says so."""

    HOLDS_NOTIFICATIONS = True  # the table's toasts wait until this box closes (they would cover it)

    BINDINGS = [
        Binding("enter", "close", "Continue"),
        Binding("ctrl+q", "app.quit", "Quit", show=False),  # a modal hides the app's own keys
        Binding("escape", "close", "Continue", show=False),
        Binding("space", "close", "Continue", show=False),
    ]

    def __init__(self, state: Any, names: list[str], final: bool = False, watching: bool = False) -> None:
        super().__init__()
        self.state = state
        self.names = names
        self.final = final
        self.watching = watching
        self.number = len(state.round_scores)  # the round this box is about

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        state = self.state
        number = len(state.round_scores)
        rounds = state.option("rounds")
        if self.final:
            hint = "Enter: see the final result."
        elif self.watching:
            hint = "This box closes by itself when the next round is dealt (Enter: back to the table now)."
        else:
            hint = "Enter: back to the table, where the next round goes on."
        with Vertical(id="round-end", classes="dialog"):
            # The way on comes before the table: with 12 seats the table scrolls, the key stays.
            yield Static(Text.assemble((f"Round {number} of {rounds} is over. ", "bold"), hint), classes="dialog-title")
            yield Static(
                "Points are the cards left in hand (a Queen 14, a hunter its number); the lowest total wins"
                + (": ◆ marks it." if self.final else ": ◆ marks the lowest total so far."),
                classes="dim",
            )
            with VerticalScroll(id="round-scroll"):
                yield Static(round_table(state, self.names, final=self.final), id="round-table")

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
    body = None
    if state is not None and state.totals:
        body = Group(totals_table(state, names, result, me), Text(""), running_chart(state, names, me))
    return GameEnd(headline, body)


#: The shades of a running-total bar, one per round in turn (both in every console font).
SHADES = ("█", "▒")


def running_chart(state: Any, names: list[str], me: int | None = None, width: int = 40) -> Text:
    """Each player's running total by round as a bar, rounds in alternating shades, in the
    order of the seats; ``width``: cells of the longest bar (the highest total). Lower is better,
    so the shortest bar wins::

        Mina (you)  ████▒▒▒▒▒▒       35
        Lisa        ██████████▒▒▒▒▒  61
    """
    rounds = state.round_scores
    top = max(state.totals) or 1
    label = max(len(n) for n in names) + 6
    label = min(label, 18)
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("Running totals by round (one shade per round; the shortest bar wins)\n", style="bold")
    for s in range(state.seats):
        name = names[s] + (" (you)" if s == me else "")
        text.append(f"{name[: label - 1]:<{label}}")
        running = 0
        drawn = 0
        for i, row in enumerate(rounds):
            running += row[s]
            upto = round(running * width / top)
            text.append(SHADES[i % 2] * (upto - drawn), style="bold" if i % 2 == 0 else "")
            drawn = upto
        text.append(" " * (width - drawn) + f" {state.totals[s]:>4}")
        if s < state.seats - 1:
            text.append("\n")
    return text


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
