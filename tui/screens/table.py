"""The table screen's frame, shared by every game, and the choice of a session's table screen.

:class:`TableFrame` does what every table does: it reads the session's table after every
:class:`tui.messages.SessionUpdate`, shows the title (who I am, the head fingerprint), the
narration, what the table does or waits for (with a progress bar for protocol work), chat, the
vote to end a long wait, and the end-of-game screen. A game's table screen (its front end's,
:mod:`tui.games`) subclasses it and adds its board above the log and below the status line.
:class:`NoTableScreen` is the frame alone, for a game that has no table screen yet.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Label, ProgressBar, Static

from engine.games.base import Act
from engine.table import Table
from engine.table.waits import WaitClock
from tui.errors import explain, with_seat_names
from tui.errors import sentence as _sentence
from tui.events import as_session_event
from tui.games import find_front_end, front_end_of
from tui.messages import SessionUpdate
from tui.session import TableSession
from tui.table_text import head_text, waiting_text, work_progress
from tui.widgets.common.chat import ChatLine
from tui.widgets.common.keys_footer import KeysFooter
from tui.widgets.common.notes import NoteLog
from tui.widgets.common.title import TitleBar, show_in_place
from tui.widgets.common.too_small import TooSmallNotice

#: Seconds of a wait after which every screen, a spectator's too, counts it in the status line.
SHOW_WAIT_AFTER = 10


def sent_line(words: str, host_away: bool, taking: str = "") -> str:
    """What the person reads once a move has gone from this screen: ``words``, the move as the
    log says it (a sentence); ``host_away``: the link to the host is lost, so the move waits on
    this computer and goes out once the table is back (never a plain "Sent"); ``taking``: what
    follows a move on its way ("The table takes it…")."""
    if host_away:
        return f"Sent; the host is away: it goes out when the table is back ({words.rstrip('.')})."
    return f"✓ Sent: {words}" + (f" {taking}" if taking else "")


def table_screen(session: TableSession, game: str | None = None) -> Screen[Any]:
    """The screen for ``session``'s table: its game's table screen, else a :class:`NoTableScreen`
    that says why there is none. ``game``: the game's name when the table has not said it yet
    (a table opened here, before its first entry is folded)."""
    front = find_front_end(game) if game is not None else front_end_of(session.table)
    if front.table_screen is not None:
        return front.table_screen(session)
    return NoTableScreen(session, front.no_screen)


class TableFrame(Screen[None]):
    """One seat (or a spectator) at a table, whatever its game.

    A game's screen overrides :meth:`compose_top` and :meth:`compose_bottom` (its widgets),
    :meth:`title_parts` (where the game is), :meth:`show_board` (draw them), :meth:`check_end`
    (its own end-of-round screens), :meth:`home_widget` (what has the focus when chat closes) and
    :meth:`moved` (after a move was taken). Its ``BINDINGS`` list :data:`FRAME_BINDINGS` after its
    own keys (declare the class with ``inherit_bindings=False``, so the footer lists its keys first).
    """

    FRAME_BINDINGS: list[BindingType] = [
        # A priority binding: it opens the chat line as the key arrives, before the app hands on
        # the next key of a burst, so that the words typed right after reach the line.
        Binding("c", "chat", "Chat", priority=True),
        # E, its own key in every game (a game's letters are its moves, and a game may give any of
        # them a meaning), so that ending a wait never depends on what else the table is doing.
        Binding("E", "abandon", "End the wait"),
        Binding("E", "why_not_abandon", "End the wait", show=False),  # E when there is no wait to end
        Binding("l", "focus_log", "Log", show=False),
        Binding("escape", "back", "Back", show=False),
        Binding("f1", "app.help", "Help"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]
    BINDINGS = FRAME_BINDINGS
    #: True when the game's screen yields the log (:meth:`note_log`) itself, inside its own
    #: widgets (:meth:`compose_top`), to lay it out beside them; else it spans the screen's width
    #: under them.
    LOG_IN_TOP: ClassVar[bool] = False

    def __init__(self, session: TableSession) -> None:
        super().__init__()
        self.session = session
        self._unsubscribe: Any = None
        self._notes_seen = 0
        self._ended_shown = False
        self._work_totals: dict[Any, int] = {}  # work_progress's memory
        self._submitting = False
        self._sending: Act | None = None  # the move on its way to the host, while _submitting
        self._fault_shown = False
        self._stalled: dict[int, int] = {}  # seats the session reported stalled, by the seq their wait began at
        self.wait_clock = WaitClock()
        self._link_lost = False
        self._held: list[tuple[str, dict[str, Any]]] = []  # toasts held while a box is read
        self._voted: set[int] = set()  # seats this seat voted to end the wait for
        self._keys_shown: tuple[Any, ...] | None = None  # what the footer showed at the last refresh

    # -- what a game's screen adds ---------------------------------------------------------------

    def compose_top(self) -> ComposeResult:
        """The game's widgets between the title and the log."""
        yield from ()

    def compose_bottom(self) -> ComposeResult:
        """The game's widgets between the status line and the chat line."""
        yield from ()

    def note_log(self) -> NoteLog:
        """The log widget (``id="log"``): a game's own, to mark its milestones."""
        return NoteLog(id="log")

    def title_parts(self, table: Table) -> list[str]:
        """Where the game is, for the title ("round 2 of 5"); none by default."""
        return []

    def show_board(self, table: Table) -> None:
        """Draw the game's widgets from ``table`` and the session's view."""

    def check_end(self, table: Table) -> None:
        """Show what the end of a part of the game, or of the game, calls for: by default the
        end-of-game screen once the game has a result, or a cheat was proven."""
        state = table.gstate
        over = table.game is not None and state is not None and table.game.result(state) is not None
        if over or table.fault is not None:
            self.show_game_end()

    def abandon_outcome(self, name: str) -> str:
        """What happens to the game if the vote to end the wait for ``name`` passes (every other
        seated player votes so: PROTOCOL.md 6.5), as the end of a sentence; a game's screen says
        what its rules do then."""
        return f"if every other player votes so too, {name}'s seat is given up"

    def home_widget(self) -> Widget:
        """The widget that has the focus when nothing else does (and after chat): the log."""
        return self.query_one(NoteLog)

    def moved(self) -> None:
        """The host took this seat's move (a game's screen clears what was picked)."""

    # -- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        yield TitleBar()
        yield from self.compose_top()
        if not self.LOG_IN_TOP:
            yield self.note_log()
        yield Static(id="link")  # why this seat's link is down, kept up to date (hidden while it is up)
        with Horizontal(id="status"):
            yield Label(id="waiting")
            yield ProgressBar(id="work", show_eta=False, show_percentage=False)
        yield from self.compose_bottom()
        yield ChatLine(id="chat", placeholder="Say something to the table (Enter sends, Esc closes)", max_length=500)
        # Its keys fill 80 columns (F1 names Ctrl+P), and change in the redraw that changes the status line.
        yield KeysFooter(show_command_palette=False)

    def on_mount(self) -> None:
        if not self.is_attached:
            # The app closed (or the screen was replaced) before this screen's widgets were
            # mounted: there is nothing to fill in, and no session to follow.
            return
        self.query_one("#log").border_title = "Game log"
        self.query_one("#chat").display = False
        self.query_one("#link").display = False
        self._unsubscribe = self.session.subscribe(self._on_session_event)
        self.home_widget().focus()
        self.set_interval(1.0, self._tick)
        self.refresh_table()

    def notify(self, message: str, **kwargs: Any) -> None:
        """A toast; held while a box that asks to be read whole (a modal whose class sets
        ``HOLDS_NOTIFICATIONS``, e.g. the end of a round) is on top, and shown once it closes."""
        if self.app.screen is not self and getattr(self.app.screen, "HOLDS_NOTIFICATIONS", False):
            self._held.append((message, kwargs))
            return
        self.app.notify(message, **kwargs)

    def on_screen_resume(self) -> None:
        held, self._held = self._held, []
        for message, kwargs in held:
            self.app.notify(message, **kwargs)

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _on_session_event(self, event: Any) -> None:
        # Called by the session, possibly from another thread: post_message is thread-safe.
        self.post_message(SessionUpdate(as_session_event(event)))

    # -- session events ----------------------------------------------------------------------------

    @on(SessionUpdate)
    def _session_update(self, message: SessionUpdate) -> None:
        event = message.event
        if event.kind == "error" and event.text:
            self.notify(event.text, title="Table", severity="error", timeout=10)
        elif event.kind == "connection" and event.text:
            # Connecting and connected are routine; a lost link, and getting it back, are news:
            # told once each, while the line above the status says how it stands, attempt after
            # attempt (never a notice per attempt).
            link = self.query_one("#link", Static)
            if not event.ok:
                if not self._link_lost:
                    self.notify(_sentence(event.text), title="Connection", severity="warning", timeout=8, markup=False)
                self._link_lost = True
                link.update(Text(_sentence(event.text)))  # plain text: a host's reason is no markup
                link.display = True
            elif self._link_lost:
                self._link_lost = False
                link.display = False
                self.notify(event.text, title="Connection", markup=False)
        elif event.kind == "presence" and event.text:
            self.notify(event.text, title="Players", severity="information" if event.ok else "warning", markup=False)
            self.query_one(NoteLog).add_news(event.text)  # kept in the log: a notice goes in seconds
        elif event.kind == "closed" and event.text:
            # A game that simply ended says so on its end screen (a notice would cover the log's
            # path there); a table that closed otherwise is news.
            if not (event.ok and self._game_over()):
                self.notify(_sentence(event.text), title="Table closed")
            if not event.ok:  # the link stopped for good (not the game's end): say so until the player leaves
                link = self.query_one("#link", Static)
                link.update(Text(f"{_sentence(event.text)} This window is no longer at the table."))
                link.display = True
                self._link_lost = True
        elif event.kind == "waiting":
            table = self.session.table
            self._stalled = {
                s: wait.seq for s in event.seats if s != self.session.seat and (wait := table.waited(s)) is not None
            }
        elif event.kind == "other":
            return
        self.refresh_table()

    def refresh_table(self) -> None:
        """Re-read everything from the session and redraw."""
        session = self.session
        table = session.table
        names = table.names
        me = session.seat
        # Title: who I am, where the game is, and the head fingerprint everyone can compare.
        parts = [table.game.title if table.game else "Vampire Table"]
        if me is not None and me < len(names):
            parts.append(f"{names[me]} (you, key {session.fingerprint})")
        elif me is None:
            parts.append("watching")
        parts += self.title_parts(table)
        parts.append(f"head {head_text(table)}")
        # The game's name goes first when the line is short: the key and head stay whole.
        self.query_one(TitleBar).show(parts, optional={0})
        # The log: every note not shown yet.
        if len(table.notes) > self._notes_seen:
            self.query_one(NoteLog).add_notes(table.notes[self._notes_seen :], names)
            self._notes_seen = len(table.notes)
        self.show_status(table, me)
        self.show_board(table)
        self.check_end(table)
        self._refresh_keys()

    def _refresh_keys(self) -> None:
        """Redraw the footer's keys when what it would show changed: a footer's redraw costs a
        layout of the whole screen, and most entries (a key share, a shuffle) change no key."""
        if self._keys() != self._keys_shown:
            self.refresh_bindings()

    def _keys(self) -> tuple[Any, ...]:
        return tuple(
            (key, b.binding.action, b.binding.description, b.enabled)
            for key, b in self.active_bindings.items()
            if b.binding.show
        )

    def refresh_bindings(self) -> None:
        if self not in self.app.screen_stack or not self.is_attached:  # left, or closed: its widgets go
            return
        self._keys_shown = self._keys()
        super().refresh_bindings()

    def sent_words(self, act: Act) -> str:
        """The status line while ``act``, this seat's move, is on its way to the host: from the
        key that sent it until the table has taken it, never that the table waits for this seat
        (a game's screen says the act in its own words)."""
        return sent_line("your move.", self.host_away, "The table takes it…")

    @property
    def host_away(self) -> bool:
        """The link to the host is lost (a connection event said so, and none said it is back):
        a move sent now waits until the table is back."""
        return self._link_lost

    def turn_passes_by_itself(self) -> str | None:
        """The status line's sentence when this seat's turn is one its automatic pass takes (the
        game's screen says; None: it is the person's to take)."""
        return None

    def answer_line(self, table: Table, me: int | None) -> str | None:
        """What the status line says first of this seat's own move, before the protocol work
        under way (its progress follows): while a move of this seat is on its way, that it is
        sent (:meth:`sent_words`); a game's screen may add whether the table waits for it. None:
        nothing to say of it."""
        if self._submitting and self._sending is not None:
            return self.sent_words(self._sending)
        return None

    def show_status(self, table: Table, me: int | None) -> None:
        """The status line: a proven cheat, the protocol work under way (with its progress), or
        who the table waits for (and for how long, past the abandon time)."""
        label = self.query_one("#waiting", Label)
        bar = self.query_one("#work", ProgressBar)
        progress = work_progress(table, self._work_totals, me)
        waiting = waiting_text(table, me)
        if table.fault is not None and not self._fault_shown:
            self._fault_shown = True
            self.notify(
                _sentence(table.fault.describe(table.names)), title="Cheat proven", severity="error", timeout=30
            )
        if table.fault is not None:
            show_in_place(label, "The table stopped: " + table.fault.describe(table.names))
            bar.display = False
            return
        if progress is not None:
            # Where this seat's answer stands comes first: the work under way never hides it, and
            # follows it named in short ("Opening cards (1 of 3)"), the bar beside.
            lead = self.answer_line(table, me)
            show_in_place(label, f"{lead} {progress.brief}." if lead else f"{progress.text}.")
            label.set_class(False, "-your-turn")
            bar.display = True
            # An unknown length is an indeterminate bar, not one that fills and refills.
            bar.update(total=max(progress.total, 1) if progress.known else None, progress=progress.done)
            return
        bar.display = False
        if self._submitting and self._sending is not None:
            show_in_place(label, self.sent_words(self._sending))
            label.set_class(False, "-your-turn")
            return
        if waiting == "Your turn." and (by_itself := self.turn_passes_by_itself()):
            waiting = by_itself  # never "Your turn." for a turn the seat's automatic pass takes
        yours = waiting == "Your turn."
        self._voted &= set(table.waiting_on())  # a vote is news while its seat still keeps us waiting
        if self._voted:
            name = table.names[min(self._voted)]
            waiting += f" You voted to end the wait for {name}: {self.abandon_outcome(name)}."
        else:
            waiting += self.wait_words(table, me)
        show_in_place(label, waiting)  # an entry that changes no word of it lays nothing out
        label.set_class(yours, "-your-turn")  # with the wait clock after it, still your turn

    def waits(self) -> dict[int, float]:
        """Seconds the table has waited on each seat it waits on for a move, on the table's wait
        clock (engine.table.waits: the same for every peer, restarted only by the seat's answer);
        empty while protocol work runs, the table is not in play, or the session catches up (the
        waits of a table folded on the way are over)."""
        table = self.session.table
        if (
            not self.session.caught_up()
            or table.phase != "running"
            or table.fault is not None
            or table.work is not None
        ):
            return {}
        return self.wait_clock.read(table.waits, self.session.now_ms(), self.session.opened_ms())

    def wait_words(self, table: Table, me: int | None) -> str:
        """What the status line adds about the longest wait, for every peer (a spectator too), once
        it has run :data:`SHOW_WAIT_AFTER` s: who, how long, and when or how the others may vote
        to end it (PROTOCOL.md 6.5); "" before."""
        waits = self.waits()
        if not waits:
            return ""
        stalled = self._stalled_seat()
        if stalled is not None:
            votes = self._at_work_words(table, stalled) + self._votes_words(table, stalled)
            return f" {table.names[stalled]} has kept the table waiting {int(waits.get(stalled, 0))} s{votes}: E votes to end the wait."
        seat = max(waits, key=lambda s: (waits[s], -s))
        secs = int(waits[seat])
        if secs < SHOW_WAIT_AFTER:
            return ""
        own_bots = set(getattr(self.session, "bots", None) or {})
        if seat == me and all(s == me or s in own_bots for s in range(table.nseats)):
            return ""  # only this program's own bots wait for you, and they never vote to end a wait
        who = "You have" if seat == me else f"{table.names[seat]} has"
        at_work = self._at_work_words(table, seat)
        if secs >= table.stall_seconds:
            others = "the others" if me is not None else "the players"
            votes = self._votes_words(table, seat)
            return f" {who} kept the table waiting {secs} s{at_work}{votes}: {others} may vote to end the wait."
        return f" {who} kept the table waiting {secs} s{at_work}; from {table.stall_seconds} s the others may vote to end the wait."

    def _at_work_words(self, table: Table, seat: int) -> str:
        """What a seat the table waits on did by hand during its wait, for the others deciding on a
        vote: its changes and claims answer nothing and move no clock (PROTOCOL.md 6.5), but a
        person applying a card's text is not one who has gone away. "" when it did nothing."""
        wait = table.waited(seat)
        if wait is None or not wait.at_work_ms:
            return ""
        ago = max(0, int((self.session.now_ms() - wait.at_work_ms) // 1000))
        return f", a change by hand {ago} s ago"

    @staticmethod
    def _votes_words(table: Table, seat: int) -> str:
        votes, needed = table.abandon_count(seat)
        return f" ({votes} of {needed} vote{'s' if needed != 1 else ''} to end it)" if votes else ""

    def _game_over(self) -> bool:
        """The table's game has its result (it ended by its rules)."""
        table = self.session.table
        return table.game is not None and table.gstate is not None and table.game.result(table.gstate) is not None

    # -- moves -----------------------------------------------------------------------------------

    def my_turn(self) -> bool:
        """The table waits for this seat's move."""
        me = self.session.seat
        return me is not None and (me, "move") in self.session.table.owed()

    @property
    def submitting(self) -> bool:
        """A move of this seat is on its way to the host."""
        return self._submitting

    def submit(self, act: Act) -> None:
        """Send ``act`` as this seat's move (in a worker); a refusal is a notification."""
        self._submitting = True
        self._sending = act
        # Said at once, the status line and the footer from the same moment: the table no longer
        # waits for this seat, though its view says so until the move is folded.
        self.show_status(self.session.table, self.session.seat)
        self.refresh_bindings()
        self._send_move(act)

    @work(exclusive=True, group="move")
    async def _send_move(self, act: Act) -> None:
        try:
            await self.session.submit_move(act)
        except Exception as err:  # every failure is a sentence for the player
            # the table's sentence names seats as placeholders ({s3}): every refusal shown names them
            text = with_seat_names(explain(err), self.session.table.names)
            self.notify(text, title="Move refused", severity="error", timeout=10)
        else:
            self.moved()
        finally:
            self._submitting = False
            self._sending = None
            self.refresh_table()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "abandon":
            return self._stalled_seat() is not None
        if action == "why_not_abandon":
            return self._stalled_seat() is None
        if action == "chat":
            return self.session.seat is not None or self.session.is_host
        return True

    # -- chat, log, abandon ----------------------------------------------------------------------

    def action_chat(self) -> None:
        self.query_one("#chat", ChatLine).open()

    def action_focus_log(self) -> None:
        self.query_one(NoteLog).focus()

    def action_back(self) -> None:
        chat = self.query_one("#chat", Input)
        if chat.display:
            self.chat_closed()
        chat.display = False
        self.home_widget().focus()

    def chat_closed(self) -> None:
        """The chat line closes (sent or left): a game's screen may keep the letters typed next
        from acting as its keys."""

    @on(Input.Submitted, "#chat")
    def _chat_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        event.input.display = False
        self.chat_closed()
        self.home_widget().focus()
        if text:
            self._send_chat(text)

    @work(group="chat")
    async def _send_chat(self, text: str) -> None:
        try:
            await self.session.chat(text)
        except Exception as err:  # every failure is a sentence for the player
            self.notify(explain(err), title="Chat", severity="error")

    def _stalled_seat(self) -> int | None:
        """A seat other than mine that this seat may vote out: the session reported it stalled
        during the wait it is in now, or the table has waited on it for its rule's
        ``stall_seconds`` on the table's wait clock. None for a spectator."""
        table = self.session.table
        me = self.session.seat
        if me is None or me in table.abandoned:
            return None
        waits = self.waits()
        for seat, seq in self._stalled.items():
            wait = table.waited(seat)
            if seat in waits and wait is not None and wait.seq == seq:
                return seat
        due = [s for s, secs in waits.items() if s != me and secs >= table.stall_seconds]
        return min(due, key=lambda s: (-waits[s], s)) if due else None

    def _tick(self) -> None:
        """Each second: the wait's count on the status line, and the vote's key once it opens."""
        waits = self.waits()
        if waits and (max(waits.values()) >= SHOW_WAIT_AFTER or self._stalled):
            self.show_status(self.session.table, self.session.seat)
            self._refresh_keys()

    def action_abandon(self) -> None:
        seat = self._stalled_seat()
        if seat is None:
            return
        name = self.session.table.names[seat]
        self._vote(seat, name)

    def action_why_not_abandon(self) -> None:
        """``E`` with no wait to end: say when it does something (PROTOCOL.md 6.5)."""
        self.notify(
            f"E ends a long wait: once a player has kept the table waiting {self.session.table.stall_seconds} s, every "
            "other player may vote with E to give that seat up. Nobody keeps the table waiting now.",
            title="End the wait",
        )

    @work(group="abandon")
    async def _vote(self, seat: int, name: str) -> None:
        try:
            await self.session.vote_abandon(seat)
        except Exception as err:  # every failure is a sentence for the player
            self.notify(explain(err), title="Abandon vote", severity="error")
        else:
            self._voted.add(seat)
            self.notify(f"You voted to end the wait for {name}: {self.abandon_outcome(name)}.")
            self.show_status(self.session.table, self.session.seat)

    # -- the end ---------------------------------------------------------------------------------

    def show_game_end(self) -> None:
        """Push the end-of-game screen (once)."""
        from tui.screens.results import GameEndScreen

        if self._ended_shown:
            return
        self._ended_shown = True
        self.app.push_screen(GameEndScreen(self.session))

    @property
    def game_end_shown(self) -> bool:
        return self._ended_shown


class NoTableScreen(TableFrame, inherit_bindings=False):
    """A table whose game has no table screen: ``reason`` (a sentence) above the narration, what
    the table waits for, and the end-of-game summary once it is over."""

    BINDINGS = [Binding("h", "home", "Home"), *TableFrame.FRAME_BINDINGS]

    def __init__(self, session: TableSession, reason: str) -> None:
        super().__init__(session)
        self.reason = reason

    def compose_top(self) -> ComposeResult:
        yield Static(self.reason, id="no-screen", classes="panel")

    def action_home(self) -> None:
        self.app.go_home()  # type: ignore[attr-defined]
