"""The table screen of a session, chosen by its game's front end (:mod:`tui.games`), and the
screen shown instead for a game that has no table screen yet: its sentence, the narration, and
what the table waits for."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Label, Static

from tui.errors import sentence
from tui.events import as_session_event
from tui.games import find_front_end, front_end_of
from tui.messages import SessionUpdate
from tui.session import TableSession
from tui.table_text import head_text, waiting_text
from tui.widgets.common.notes import NoteLog
from tui.widgets.common.too_small import TooSmallNotice


def table_screen(session: TableSession, game: str | None = None) -> Screen[Any]:
    """The screen for ``session``'s table: its game's table screen, else a :class:`NoTableScreen`
    that says why there is none. ``game``: the game's name when the table has not said it yet
    (a table opened here, before its first entry is folded)."""
    front = find_front_end(game) if game is not None else front_end_of(session.table)
    if front.table_screen is not None:
        return front.table_screen(session)
    return NoTableScreen(session, front.no_screen)


class NoTableScreen(Screen[None]):
    """A table whose game has no table screen: ``reason`` (a sentence), the game's narration as
    it comes, who the table waits for, and the end-of-game summary once it is over."""

    BINDINGS = [
        Binding("escape", "home", "Home"),
        Binding("f1", "app.help", "Help"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def __init__(self, session: TableSession, reason: str) -> None:
        super().__init__()
        self.session = session
        self.reason = reason
        self._unsubscribe: Any = None
        self._notes_seen = 0
        self._ended_shown = False

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        yield Static(id="title")
        yield Static(self.reason, id="no-screen", classes="panel")
        yield NoteLog(id="log")
        yield Label(id="waiting")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#log").border_title = "Game log"
        self._unsubscribe = self.session.subscribe(self._on_session_event)
        self.refresh_table()

    def _on_session_event(self, event: Any) -> None:
        # Called by the session, possibly from another thread: post_message is thread-safe.
        self.post_message(SessionUpdate(as_session_event(event)))

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def action_home(self) -> None:
        self.app.go_home()  # type: ignore[attr-defined]

    @on(SessionUpdate)
    def _session_update(self, message: SessionUpdate) -> None:
        event = message.event
        if event.kind in ("error", "closed") and event.text:
            self.notify(sentence(event.text), severity="error" if event.kind == "error" else "information")
        self.refresh_table()

    def refresh_table(self) -> None:
        """Re-read the table: the title, new narration, who the table waits for."""
        table = self.session.table
        me = self.session.seat
        names = table.names
        who = f"{names[me]} (you, key {self.session.fingerprint})" if me is not None and me < len(names) else "watching"
        title = table.game.title if table.game is not None else "A table"
        self.query_one("#title", Static).update(f"{title} · {who} · head {head_text(table)}")
        if len(table.notes) > self._notes_seen:
            self.query_one(NoteLog).add_notes(table.notes[self._notes_seen :], names)
            self._notes_seen = len(table.notes)
        if table.fault is not None:
            self.query_one("#waiting", Label).update("The table stopped: " + table.fault.describe(names))
        else:
            self.query_one("#waiting", Label).update(waiting_text(table, me))
        state = table.gstate
        over = table.game is not None and state is not None and table.game.result(state) is not None
        if (over or table.fault is not None) and not self._ended_shown:
            from tui.screens.results import GameEndScreen

            self._ended_shown = True
            self.app.push_screen(GameEndScreen(self.session))
