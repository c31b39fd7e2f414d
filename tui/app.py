"""The Textual app: which screen opens first, the one active session, and the terminal-size guard.

``VampireApp(start=...)`` opens at home, at a table against bots, at a lobby (host or join), at a
replay or at an audit. Sessions come from a :class:`tui.session.SessionFactory` (the network layer
by default); the app starts one in a worker, shows its lobby or table, and stops it when the player
leaves the table or quits.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual import events, work
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from tui.commands import VampireCommands
from tui.errors import explain
from tui.file_warnings import FileWarnings
from tui.glyphs import ConsoleGlyphs, console_mode, use_console_scrollbars
from tui.messages import SessionUpdate
from tui.session import HostSpec, JoinSpec, LocalTableSpec, SessionEvent, SessionFactory, TableSession
from tui.widgets.common.too_small import MIN_HEIGHT, MIN_WIDTH


@dataclass(frozen=True)
class Start:
    """Where the app opens. ``screen``: "home", "play", "host", "join", "replay", "audit",
    "table" or "lobby"; ``spec``: the LocalTableSpec / HostSpec / JoinSpec, the log path, or a
    ready-made session (for "table" and "lobby")."""

    screen: str = "home"
    spec: Any = None


class VampireApp(App[None]):
    """Vampire Table."""

    CSS_PATH = "vampire.tcss"
    TITLE = "Vampire Table"
    COMMANDS = App.COMMANDS | {VampireCommands}
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", show=False),
        Binding("f1", "help", "Help", show=False),
    ]

    def __init__(
        self,
        start: Start | None = None,
        factory: SessionFactory | None = None,
        name: str | None = None,
        console: bool | None = None,
    ) -> None:
        super().__init__()
        # The Linux console's fonts lack most of what Textual draws: swap those characters
        # (None: detect it, from TERM=linux or --ascii).
        self.console_glyphs = console_mode() if console is None else console
        if self.console_glyphs:
            self._filters.append(ConsoleGlyphs())
        use_console_scrollbars(self.console_glyphs)  # thumbs in whole cells on the console
        self.start_at = start or Start()
        self._factory = factory
        self.player_name = name
        self.session: TableSession | None = None
        self.last_session: TableSession | None = None  # the table last opened: the shell's farewell reads it
        self.quit_chosen = False  # the player quit (Ctrl+Q, answered): the command exits 0
        # The table the command line asked for (vampire play: "play"; vampire host/join: "lobby"):
        # if it cannot start, the command ends with its sentence and exit 1, with no home screen.
        self._command_table = (start or Start()).screen in ("play", "lobby")
        self._focus_before_small: dict[int, Any] = {}
        #: The key whose bindings the app runs now, else None (:meth:`on_event`).
        self.key_in_hand: events.Key | None = None
        self.file_warnings = FileWarnings(self)
        """Warnings about the player's files (a secrets file others could read), shown as
        notifications: the screen hides stderr, where the command line prints them."""

    async def on_event(self, event: events.Event) -> None:
        """Every event, as Textual handles it; a key is :attr:`key_in_hand` while the app runs its
        bindings (the priority ones as it arrives, the others once it came back up from the focused
        widget), so that a screen's ``check_action`` can ask how long it waited (:mod:`tui.key_wait`)."""
        if not isinstance(event, events.Key):
            await super().on_event(event)
            return
        self.key_in_hand = event
        try:
            await super().on_event(event)
        finally:
            self.key_in_hand = None

    def get_key_display(self, binding: Binding) -> str:
        """A key as the footer shows it; in console mode Enter is a word (its symbol is not in
        the console's fonts)."""
        if self.console_glyphs and binding.key == "enter":
            return "Enter"
        return super().get_key_display(binding)

    @property
    def factory(self) -> SessionFactory:
        if self._factory is None:
            from tui.connect import NetFactory

            self._factory = NetFactory()
        return self._factory

    # -- start-up --------------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.file_warnings.attach()  # first: opening a table may open a secrets file
        s = self.start_at
        # ``vampire play``'s table opens alone: the person waits for it, not for the home screen,
        # which is built when the table is left (go_home; a table that cannot start ends the
        # command). Replay and audit close back to the shell, never to home.
        if s.screen not in ("play", "replay", "audit"):
            from tui.screens.home import HomeScreen

            self.push_screen(HomeScreen(self.player_name))
        if s.screen == "play":
            self.open_local(s.spec)
        elif s.screen == "host":
            self.open_host(s.spec)
        elif s.screen == "join":
            self.open_join(s.spec)
        elif s.screen == "replay":
            self.open_replay(Path(s.spec), closes_app=True)
        elif s.screen == "audit":
            self.open_audit(Path(s.spec), closes_app=True)
        elif s.screen in ("table", "lobby"):
            self._run_session(s.spec, lobby=s.screen == "lobby")
        self._check_size(self.size.width, self.size.height)

    # -- opening things --------------------------------------------------------------------------

    def open_local(self, spec: LocalTableSpec) -> None:
        """A table against bots on this computer: straight to the table."""
        self._make_and_run(
            lambda: self.factory.local(spec), lobby=False, what="open a table against bots", game=spec.game
        )

    def open_host(self, spec: HostSpec) -> None:
        self._make_and_run(lambda: self.factory.host(spec), lobby=True, what="open the table", game=spec.game)

    def open_join(self, spec: JoinSpec) -> None:
        self._make_and_run(lambda: self.factory.join(spec), lobby=True, what=f"join {spec.address}")

    def open_replay(self, path: Path, closes_app: bool = False) -> None:
        """Show the replay of the log at ``path``; ``closes_app``: the command opened it
        (``vampire replay FILE``), so closing it goes back to the shell, not to the home screen."""
        from tui.screens.replay import ReplayScreen

        screen = ReplayScreen(path)
        screen.closes_app = closes_app
        self.push_screen(screen)

    def open_audit(self, path: Path, closes_app: bool = False) -> None:
        """Show the audit of the log at ``path``; ``closes_app``: the command opened it
        (``vampire audit FILE``), so closing it goes back to the shell, not to the home screen."""
        from tui.screens.audit import AuditScreen

        screen = AuditScreen(path)
        screen.closes_app = closes_app
        self.push_screen(screen)

    def _make_and_run(self, make: Any, lobby: bool, what: str, game: str | None = None) -> None:
        try:
            session = make()
        except Exception as err:  # a bad address, a bad profile name: a sentence, not a traceback
            self._could_not_start(f"Could not {what}: {explain(err)}")
            return
        self._run_session(session, lobby, game)

    def _could_not_start(self, text: str) -> None:
        """A table did not open: the command that asked for it ends with ``text`` and exit 1; a
        table asked for from the home screen says it there."""
        if self._command_table:
            self.exit(return_code=1, message=f"vampire: {text}")
            return
        self.notify(text, title="Could not start", severity="error", timeout=10)

    @work(exclusive=True, group="session")
    async def _run_session(self, session: TableSession, lobby: bool, game: str | None = None) -> None:
        """Show ``session``'s lobby or table at once, then start it (network I/O: in a worker);
        the screen fills in as the session reports. ``game``: the table's game, when it is opened
        here (its table says it only once started)."""
        if self.session is not None and self.session is not session:
            await self._stop_session()
        self.session = session
        self.last_session = session
        if lobby:
            from tui.screens.lobby import LobbyScreen

            screen: Screen[Any] = LobbyScreen(session)
        else:
            from tui.screens.table import table_screen

            screen = table_screen(session, game)
        await self.push_screen(screen)
        try:
            await session.start()
        except Exception as err:  # whatever stops a table from opening is a sentence for the player
            self.session = None
            text = explain(err)
            if screen in self.screen_stack:
                while self.screen is not screen:
                    self.pop_screen()
                self.pop_screen()
            try:
                await session.stop()
            except Exception:  # the session never ran: nothing more to say
                pass
            self._could_not_start(text)
            return
        self._command_table = False  # it opened: a later table is asked for from the home screen
        if getattr(self.screen, "session", None) is session:  # its lobby or table: read it again
            self.screen.post_message(SessionUpdate(SessionEvent("entry")))

    async def _stop_session(self) -> None:
        session, self.session = self.session, None
        if session is not None:
            try:
                await session.stop()
            except Exception as err:  # leaving must never fail: say it and go on
                self.notify(f"The table did not close cleanly: {explain(err)}", severity="warning")

    def go_home(self) -> None:
        """Leave the table (stopping its session) and go back to the home screen."""
        from tui.screens.home import HomeScreen

        self._leave()
        while len(self.screen_stack) > 1 and not isinstance(self.screen, HomeScreen):
            self.pop_screen()
        if not isinstance(self.screen, HomeScreen):  # the command line opened a table: no home yet
            self.push_screen(HomeScreen(self.player_name))

    @work(group="leave")
    async def _leave(self) -> None:
        await self._stop_session()

    def on_unmount(self) -> None:
        self.file_warnings.detach()

    async def action_quit(self) -> None:
        """Quit; at a table whose game is on, first ask, saying what quitting does to the others."""
        from tui.screens.quit import QuitScreen, must_ask, quit_consequence

        if isinstance(self.screen, QuitScreen):
            return
        if self.session is not None and must_ask(self.session):
            self.push_screen(QuitScreen(quit_consequence(self.session)), self._quit_answered)
            return
        await self._quit_now()

    async def _quit_answered(self, quit_now: bool | None) -> None:
        if quit_now:
            await self._quit_now()

    async def _quit_now(self) -> None:
        self.quit_chosen = True
        await self._stop_session()
        self.exit(return_code=0)  # a quit the player chose is a success

    def action_help(self) -> None:
        """The help: of the game at the table, or of every game away from one."""
        from tui.screens.help import HelpScreen

        table = self.session.table if self.session is not None else None
        if table is not None and table.game is not None:
            self.push_screen(HelpScreen([table.game_name], table.options))
        else:
            self.push_screen(HelpScreen())

    # -- the terminal-size guard -----------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _restore_focus(self, before: dict[int, Any]) -> None:
        """Give focus back, once the notice is gone, to whatever had it on each screen (else to
        the screen's first focusable widget), so the keys work again without Esc."""
        for screen in self.screen_stack:
            if screen.focused is not None:
                continue
            widget = before.get(id(screen))
            if widget is not None and widget.is_attached and widget.screen is screen and widget.focusable:
                screen.set_focus(widget)
            elif screen is self.screen:
                screen.focus_next()

    def _check_size(self, width: int, height: int) -> None:
        """Every screen carries a TooSmallNotice; the ``-too-small`` class shows it instead of the
        screen (vampire.tcss), whatever screen is on top."""
        from tui.widgets.common.too_small import TooSmallNotice

        small = width < MIN_WIDTH or height < MIN_HEIGHT
        was_small = self.has_class("-too-small")
        if small and not was_small:
            # Hiding a screen's widgets takes their focus away: remember who had it, per screen.
            self._focus_before_small = {id(screen): screen.focused for screen in self.screen_stack}
        self.set_class(small, "-too-small")
        if was_small and not small:
            self.call_after_refresh(self._restore_focus, self._focus_before_small)
            self._focus_before_small = {}
        for screen in self.screen_stack:
            for notice in screen.query(TooSmallNotice):
                notice.refresh()
