"""The lobby: the address to share, the seats (names and short key fingerprints, who is ready),
bots for the host to add or remove, the table's options, and start.

The host adds bots with ``b`` (the game's default level) or ``r`` (a random one, for a game that
has that level), removes the highlighted one with ``x``, and starts with ``s`` once every seat
is taken (pressed before, it says what is missing), unless its host starts by itself (``vampire
play``); a sentence under the seats says what the table waits for. Each player's own seat is
listed first. A seat whose game brings something (a deck) and that joined with none chooses it
with ``d`` (the game's ``FrontEnd.lobby_kit``)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.css.scalar import Scalar
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from engine.games import UnknownGame, find_game
from engine.protocol.identity import short_fingerprint
from tui.errors import explain
from tui.errors import sentence as _sentence
from tui.events import as_session_event
from tui.games import choose_kit, lobby_kit_line, lobby_kit_of
from tui.messages import SessionUpdate
from tui.screens.help import table_rules_words
from tui.session import TableSession
from tui.widgets.common.title import TitleBar
from tui.widgets.common.too_small import TooSmallNotice

ROUTE_EVERY_S = 2.0
"""Seconds between two looks at the seats' routes (how each reaches the host across the internet:
direct or relayed, and its round-trip time), which change with no news from the table."""


def lobby_order(nseats: int, me: int | None) -> list[int]:
    """The seats in the order the lobby lists them: this player's own seat first (a host's, or a
    guest's), then the others by number. ``me`` None (not seated yet): by number."""
    seats = list(range(nseats))
    if me is not None and 0 <= me < nseats:
        seats.remove(me)
        seats.insert(0, me)
    return seats


def _announced(session: TableSession) -> bool:
    """The hosted table is announced on the LAN (PROTOCOL.md 9), so friends find it in their list
    of tables: the session says so when it knows (``announced``), else discovery is on
    (``VAMPIRE_NO_DISCOVERY`` unset)."""
    from net.lan import multicast_off

    announced = getattr(session, "announced", None)
    return announced if isinstance(announced, bool) else not multicast_off()


class LobbyScreen(Screen[None]):
    """Before the game: everyone sees who sits where; the host fills seats with bots, removes
    them, and starts."""

    BINDINGS = [
        Binding("b", "add_bot('')", "Bot"),
        Binding("r", "add_bot('random')", "Random bot"),
        Binding("x", "remove_bot", "Remove bot"),
        Binding("s", "start", "Start"),
        Binding("d", "choose_kit", "Choose deck"),
        Binding("escape", "leave", "Leave"),
        Binding("f1", "app.help", "Help"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def __init__(self, session: TableSession) -> None:
        super().__init__()
        self.session = session
        self._unsubscribe: Callable[[], None] | None = None
        self._busy = False
        self._open_seats_told = False  # "N seats still open" was told, and not cleared yet
        self._seen: dict[bytes, float] = {}
        self._link_problem = ""  # the session's sentence while this guest is not connected ("" while it is)
        self._gone_because = ""  # why the session ended, once it has: the lobby says it until the player leaves
        self._row_seats: list[int] = []  # the seat shown on each row
        self._name_told = False  # the seat's name, once it sits, if another seat had the one asked for
        self._copied = False  # the command friends type was put on the clipboard
        self._routes: dict[bytes, str] = {}  # the seats' routes as last shown ("direct, 12 ms")

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        yield TitleBar()
        with Vertical(id="lobby"):
            yield Static(id="lobby-address")
            # The host picks the bot to remove with the row cursor; a guest has nothing to pick.
            yield DataTable(
                id="lobby-seats", cursor_type="row" if self.session.is_host else "none", zebra_stripes=False
            )
            yield Static(id="lobby-kit")  # what this seat brings (a deck), from its game's front end
            yield Static(id="lobby-options")
            yield Static(id="lobby-hint", classes="hint")
        yield Footer(show_command_palette=False)  # its keys fill 80 columns; F1 names Ctrl+P

    def on_mount(self) -> None:
        if not self.is_attached:  # the app closed before this screen's widgets were mounted
            return
        seats = self.query_one(DataTable)
        seats.add_columns("seat", "name", "key", "who", "ready")
        self._unsubscribe = self.session.subscribe(self._on_session_event)
        seats.focus()
        self.refresh_lobby()
        self.set_interval(ROUTE_EVERY_S, self._routes_moved)

    def _routes_moved(self) -> None:
        """Redraw the seats when a seat's route changed with no entry or presence news (a path
        found direct after a start through a relay, a round-trip time that moved)."""
        if self.is_attached and self._current_routes() != self._routes:
            self.refresh_lobby()

    def _current_routes(self) -> dict[bytes, str]:
        routes = getattr(self.session, "routes", None)
        return dict(routes) if routes else {}

    def on_screen_resume(self) -> None:
        self.refresh_lobby()

    def _on_session_event(self, event: Any) -> None:
        # Called by the session, possibly from another thread: post_message is thread-safe.
        self.post_message(SessionUpdate(as_session_event(event)))

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    @on(SessionUpdate)
    def _update(self, message: SessionUpdate) -> None:
        event = message.event
        if event.kind == "closed":
            self._gone_because = event.text or "The connection to the table is closed."
        if event.kind in ("error", "closed") and event.text:
            self.notify(_sentence(event.text), severity="error" if event.kind == "error" else "warning")
        elif event.kind == "presence" and event.text:
            self.notify(event.text, title="Players", severity="information" if event.ok else "warning", markup=False)
        elif event.kind == "connection":
            if event.ok:
                self._link_problem = ""
            elif event.text:
                first = not self._link_problem
                self._link_problem = event.text  # each attempt's sentence replaces the last one
                if first:  # the lobby's hint says it while it lasts: one notification is enough
                    self.notify(_sentence(event.text), severity="warning", markup=False)
        self.refresh_lobby()

    def refresh_lobby(self) -> None:
        from tui.screens.table import table_screen

        session = self.session
        table = session.table
        if table.phase not in ("new", "lobby"):
            if self.app.screen is self:  # else once this screen is on top again (on_screen_resume)
                self.app.switch_screen(table_screen(session))
            return
        title = table.game.title if table.game else "A table"
        where = f"lobby of {table.name!r}" if table.name else "lobby"
        self.query_one(TitleBar).show([title, where, f"you: {session.name}, key {session.fingerprint}"], optional={0})
        address = session.address
        if not session.is_host:
            # A guest's address is the table it joins: nothing for it to share as if it hosted.
            self.query_one("#lobby-address", Static).update(
                f"You are joining the table at {address}." if address else "You are joining a table."
            )
        elif address:
            if not self._copied:
                # Also on the clipboard, where the terminal lets a program put it there (OSC 52):
                # a ticket is long to copy by hand from a wrapped line.
                self._copied = True
                self.app.copy_to_clipboard(f"vampire join {address}")
            self.query_one("#lobby-address", Static).update(
                Text.assemble(
                    "Friends join with:  ",
                    (f"vampire join {address}", "bold reverse"),
                    # What a friend's list of tables names this table by (PROTOCOL.md 9): read
                    # it out, so that an impostor announcing the same table is caught by ear.
                    f"\nor pick it in their list of tables: host key {short_fingerprint(table.host)}."
                    if any(table.host) and _announced(session)
                    else f"\nDiscovery is off: give them this address; host key {short_fingerprint(table.host)}."
                    if any(table.host)
                    else "",
                )
            )
        else:
            self.query_one("#lobby-address", Static).update("This table is on this computer only: fill it with bots.")
        grid = self.query_one(DataTable)
        cursor_row = grid.cursor_row
        grid.clear()
        counts = Counter(rec.name for rec in table.seats)
        routes = self._routes = self._current_routes()
        self._row_seats = lobby_order(table.nseats, session.seat)
        for i in self._row_seats:
            if i < len(table.seats):
                rec = table.seats[i]
                who = []
                if i == session.seat:
                    who.append("you")
                if i in session.bots:
                    who.append(f"bot ({session.bots[i]})")
                elif rec.bot:
                    who.append("bot")  # another's bot: its join says so, its level is its owner's
                elif i != session.seat:
                    who.append("player")
                # The host relays who is connected with its pings (every few seconds): a seat
                # is "away" only once it has been missing from them for a while.
                first = self._seen.setdefault(rec.key, time.monotonic())
                present = getattr(session, "connected_keys", None)
                missing = present is not None and rec.key not in present and i != session.seat
                ready = "away" if missing and time.monotonic() - first > 12 else "✓ ready"
                # How the seat reaches the host, where its transport says ("direct, 12 ms").
                if ready != "away" and (route := routes.get(rec.key)):
                    ready = f"✓ {route}"
                # Two seats of one name (a guest who took a bot's name) read apart by their seat.
                name = rec.name if counts[rec.name] < 2 else f"{rec.name} (seat {i})"
                grid.add_row(str(i), name, short_fingerprint(rec.key), ", ".join(who), ready)
            elif i == len(table.seats) and getattr(session, "seat_held", False):
                # The host's own seat, held while it chooses its deck: not open to anyone.
                brings = lobby_kit_of(table)
                needs = brings is not None and getattr(session, "needs_kit", False)
                choosing = f"{brings.key_label} (d)" if brings is not None and needs else "sitting down"
                grid.add_row(str(i), session.name, session.fingerprint, "you", choosing)
            else:
                grid.add_row(str(i), "— open seat —", "", "", "waiting")
        if grid.row_count:
            grid.move_cursor(row=min(max(cursor_row, 0), grid.row_count - 1), animate=False)
        self._tell_name()
        words = table_rules_words(table.game_name, table.options) if table.game is not None else []
        self.query_one("#lobby-options", Static).update(
            Text("Table rules: " + " ".join(words) + " (F1: the rules)") if words else ""
        )
        kit = self.query_one("#lobby-kit", Static)
        kit.update(kit_line := lobby_kit_line(session))
        kit.display = bool(str(kit_line))
        self.query_one("#lobby-hint", Static).update(Text(self._waits_for()))  # a host's reason is no markup
        if self._open_seats_told and len(table.seats) >= table.nseats > 0:
            self._open_seats_told = False
            self.app.clear_notifications()  # "1 seat is still open" is wrong now: it goes at once
        self.refresh_bindings()
        self.call_after_refresh(self._fit_seats)

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_seats)

    def _fit_seats(self) -> None:
        """Give the seats list the rows the rest of the screen leaves (at most 15): with 12 seats
        at 80×24 it scrolls rather than push what the table waits for off the screen. Nothing once
        the screen has gone (a join refused before its lobby was composed)."""
        grids = self.query(DataTable)
        if not self.is_attached or not grids:
            return
        grid = grids.first()
        # Each part queried as a list: during a switch of screens one may be gone or not there yet.
        parts = [
            *(c for lobby in self.query("#lobby") for c in lobby.children),
            *self.query(TitleBar),
            *self.query(Footer),
        ]
        others = sum(
            w.outer_size.height + w.styles.margin.top + w.styles.margin.bottom
            for w in parts
            if w is not grid and w.display
        )
        rows = max(4, min(15, self.size.height - others))
        if self.size.height and grid.styles.max_height != Scalar.from_number(rows):
            grid.styles.max_height = rows

    def _tell_name(self) -> None:
        """Once this seat sits: say so in one line when it sits under another name than the one
        asked for (a seat of the table held it: :func:`engine.table.lobby.free_name`)."""
        from engine.table.lobby import renamed_sentence

        session, table = self.session, self.session.table
        seat = session.seat
        if self._name_told or seat is None or not 0 <= seat < len(table.seats):
            return
        self._name_told = True
        sentence = renamed_sentence(session.name, table.seats[seat].name)
        if sentence:
            self.notify(sentence, title="Your name", markup=False, timeout=10)

    def _waits_for(self) -> str:
        """What the table waits for, in a sentence, and the keys that help."""
        session = self.session
        table = session.table
        if self._gone_because:
            return f"{_sentence(self._gone_because)} This window is no longer at the table: Esc goes back to the home screen."
        if not session.is_host and self._link_problem:
            return self._link_text()
        if table.nseats == 0:
            if not session.is_host and (connecting := getattr(session, "connecting", None)):
                return str(connecting)
            return (
                f"Connecting to the table at {session.address}…"
                if not session.is_host and session.address
                else "Opening the table…"
            )
        taken, seats = len(table.seats), table.nseats
        auto = getattr(session, "auto_start", False)
        bots = bool(session.bots) and getattr(session, "can_remove_bots", True)
        if not session.is_host:
            # A guest not yet seated reads how its own connection reaches the host (across the
            # internet: "direct, 3 ms"), as its seat's row says once it sits down.
            seated = session.seat is not None and session.seat < taken
            own = {} if seated else self._current_routes()
            told = f"Your connection: {next(iter(own.values()))}. " if len(own) == 1 else ""
            if getattr(session, "watching", False):
                return (
                    told
                    + f"{taken} of {seats} seats taken. You are watching: the table opens here when the game starts."
                )
            if taken == seats:
                return told + "Every seat is taken: waiting for the host to start the game."
            return told + f"{taken} of {seats} seats taken: waiting for more players to join."
        if taken == seats:
            if auto:
                return "Every seat is taken: the game starts now."
            return "Every seat is taken: press s to start the game" + (", or x to remove a bot." if bots else ".")
        ways = "press b to add a bot" + (", or wait for friends to join" if session.address else "")
        then = "The game starts once every seat is taken" if auto else "s starts the game once every seat is taken"
        then += "; x removes the highlighted bot." if bots else "."
        return f"{taken} of {seats} seats taken: {ways}.\n{then}"

    def _link_text(self) -> str:
        """Why a guest is not connected and what happens now (the session's sentence, kept up to
        date at every attempt), and the way out."""
        return f"{_sentence(self._link_problem)} Esc goes back to the home screen."

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        session = self.session
        table = session.table
        full = len(table.seats) >= table.nseats
        if action == "add_bot":
            if not session.is_host or self._bot_level(str(parameters[0])) is None:
                return False
            if full:
                return False  # no seat for a bot: the keys leave the footer until one opens
            return True if not self._busy else None
        if action == "remove_bot":
            if not session.is_host or not getattr(session, "can_remove_bots", True):
                return False
            if not session.bots:
                return False  # no bot to remove: the key leaves the footer until one is seated
            return True if table.phase == "lobby" and not self._busy else None
        if action == "choose_kit":
            return bool(getattr(session, "needs_kit", False)) and lobby_kit_of(table) is not None
        if action == "start":
            # Shown while the table is not full too: pressed then, it says what is missing.
            if not session.is_host or getattr(session, "auto_start", False):
                return False
            return True if not self._busy else None
        return True

    def _highlighted_seat(self) -> int | None:
        """The seat on the highlighted row (rows show the host's own seat first)."""
        row = self.query_one(DataTable).cursor_row
        return self._row_seats[row] if 0 <= row < len(self._row_seats) else None

    def _selected_bot(self) -> int | None:
        """The bot on the highlighted row, or None: x never removes a bot that is not highlighted."""
        seat = self._highlighted_seat()
        return seat if seat is not None and seat in self.session.bots else None

    def _bot_level(self, level: str) -> str | None:
        """The bot level a key adds: ``level`` if the table's game has it ("": the game's default
        level), else None (the key is hidden, as it is until the table says its game)."""
        table = self.session.table
        try:
            spec = find_game(table.game_name)
        except UnknownGame:
            return None
        if not level:
            return spec.default_bot
        return level if level in spec.bot_levels else None

    def action_add_bot(self, level: str) -> None:
        chosen = self._bot_level(level)
        if chosen is not None:
            self._do("add_bot", chosen)

    def action_remove_bot(self) -> None:
        seat = self._selected_bot()
        if seat is not None:
            self._do("remove_bot", seat)
            return
        highlighted = self._highlighted_seat()
        table = self.session.table
        if highlighted is not None and highlighted < len(table.seats):
            who = "your own seat" if highlighted == self.session.seat else f"{table.names[highlighted]}, a player"
            self.notify(f"The highlighted row is {who}: highlight a bot (↑ ↓), then x.", severity="warning")
        else:
            self.notify("Highlight a bot's row (↑ ↓), then x removes it.", severity="warning")

    def action_choose_kit(self) -> None:
        choose_kit(self, self.session)

    def action_start(self) -> None:
        table = self.session.table
        missing = table.nseats - len(table.seats)
        if missing > 0:
            seats = "1 seat is" if missing == 1 else f"{missing} seats are"
            ways = "press b to add a bot" + (", or wait for friends to join" if self.session.address else "")
            self.notify(
                f"{seats} still open: {ways}. The game starts with every seat taken.", severity="warning", timeout=5
            )
            self._open_seats_told = True
            return
        self._do("start_game")

    @work(exclusive=True, group="lobby")
    async def _do(self, what: str, *args: object) -> None:
        self._busy = True
        self.refresh_bindings()
        try:
            await getattr(self.session, what)(*args)
        except Exception as err:  # every failure is a sentence for the player
            self.notify(explain(err), severity="error")
        finally:
            self._busy = False
            self.refresh_lobby()

    def action_leave(self) -> None:
        """Esc: back to the home screen; a host with others in its lobby is asked first, since
        leaving closes the table and sends them home (as every other quit asks)."""
        from tui.screens.quit import QuitScreen, must_ask, quit_consequence

        if not must_ask(self.session):
            self.app.go_home()  # type: ignore[attr-defined]
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.app.go_home()  # type: ignore[attr-defined]

        question = QuitScreen(quit_consequence(self.session), "Close this table?", "close it", "stay in the lobby")
        self.app.push_screen(question, answered)
