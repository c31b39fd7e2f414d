"""Quitting in the middle of a table asks first, and says what it does to the other players."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.games.base import table_option
from engine.table import Table
from tui.files import vampire_command
from tui.games import find_front_end
from tui.session import TableSession
from tui.widgets.common.too_small import TooSmallNotice


def quit_consequence(session: TableSession) -> str:
    """What quitting now does to the others at ``session``'s table, in a sentence or two: a host's
    quit closes the table for everyone; a guest leaves a seat it can come back to; a table against
    bots on this computer just stops (its log stays)."""
    table = session.table
    running = table.phase == "running"
    if session.is_host and not session.address:
        if running and getattr(session, "resumable", False):
            return (
                "This table is on this computer only: the game stops here until you bring it back "
                f"({vampire_command()} play --resume with its log: the shell prints it)."
            )
        return "This table is on this computer only: the game stops here. Its log stays, for a replay."
    if session.is_host:
        if running:
            return (
                "You host this table: quitting closes it for everyone, and the game stops for all "
                f"until you bring it back ({vampire_command()} host --resume with its log: the shell prints it)."
            )
        return "You host this table: quitting closes it, and everyone in the lobby is sent home."
    if session.seat is None:
        return "You only watch this table: the others play on."
    if running:
        return _seat_left_words(table)
    return "You leave the lobby; your seat opens for someone else."


def _seat_left_words(table: Table) -> str:
    """What becomes of a guest's seat that leaves a game under way: the others wait, then may vote
    to give it up (table rules ``stall_seconds``, ``abandon_by_all``; PROTOCOL.md 6.5), and the
    game says what giving it up does (its front end's ``seat_given_up``)."""
    options = getattr(table, "options", {})
    seconds = table_option(options, "stall_seconds")
    who = "all of them" if table_option(options, "abandon_by_all") else "a majority of them"
    then = find_front_end(table.game_name).seat_given_up if getattr(table, "game_name", "") else ""
    given_up = f"; then {then}" if then else ""
    return (
        f"The others wait for you: after {seconds} s, if {who} vote so, your seat is given up{given_up}. "
        "Join again with the same name before that to take your seat back."
    )


def must_ask(session: TableSession | None) -> bool:
    """Quitting asks first while ``session``'s game is being played (not once it is over), and in
    the lobby of a table this seat hosts for others while someone else sits there (leaving closes
    it and sends them home); a guest leaving a lobby costs nobody a game."""
    if session is None:
        return False
    table = session.table
    if table.phase != "running":
        return table.phase == "lobby" and session.is_host and bool(session.address) and len(table.seats) > 1
    state = table.gstate
    over = table.game is not None and state is not None and table.game.result(state) is not None
    return not over


class QuitScreen(ModalScreen[bool]):
    """Asks "Quit Vampire Table?" (or ``question``) with what quitting does to the others;
    dismisses True to quit (``y`` or Enter), False to stay (``n`` or Esc). ``yes`` and ``stay``
    are the words of the hint's two answers."""

    BINDINGS = [
        Binding("y", "answer(True)", "Quit"),
        Binding("enter", "answer(True)", "Quit", show=False),
        Binding("n", "answer(False)", "Stay"),
        Binding("escape", "answer(False)", "Stay", show=False),
        Binding("ctrl+q", "answer(True)", "Quit", show=False),
    ]

    def __init__(
        self,
        consequence: str,
        question: str = "Quit Vampire Table?",
        yes: str = "quit",
        stay: str = "stay at the table",
    ) -> None:
        super().__init__()
        self.consequence = consequence
        self.question, self.yes, self.stay = question, yes, stay

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        with Vertical(id="quit", classes="dialog"):
            yield Static(Text(self.question, style="bold"), classes="dialog-title")
            yield Static(Text(self.consequence))
            yield Static(Text(f"y or Enter: {self.yes}.   n or Esc: {self.stay}."), classes="hint")

    def action_answer(self, quit_now: bool) -> None:
        self.dismiss(quit_now)
