"""Home: play against bots, host a table, join a table, replay a log, audit a log."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, ContentSwitcher, Footer, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from engine.errors import VampireError
from engine.games import default_game, find_game
from engine.games.base import OptionSpec
from engine.games.spec import GameSpec
from engine.paths import seat_name
from net.discovery import Browser, HeardTable
from net.lan import DISCOVERY_OFF, multicast_off
from net.messages import DEFAULT_PORT
from tui.files import log_label, recent_logs
from tui.games import FrontEnd, find_front_end, playable
from tui.session import HostSpec, JoinSpec, LocalTableSpec
from tui.widgets.common.too_small import TooSmallNotice

CHOICES = (
    ("play", "Play against bots"),
    ("host", "Host a table"),
    ("join", "Join a table"),
    ("replay", "Replay a log"),
    ("audit", "Audit a log"),
    ("quit", "Quit"),
)

LEVEL_WORDS = {"expert": "thinks ahead", "heuristic": "plays to win", "random": "any legal move"}
"""What a bot level does, in a player's words, for the levels that have one."""


def level_choices(spec: GameSpec) -> list[tuple[str, str]]:
    """The bot levels the forms offer for ``spec``'s game, as (label, value): each level, then
    "mixed" (one of each in turn) when the game has more than one."""
    choices = [(f"{lv} ({LEVEL_WORDS[lv]})" if lv in LEVEL_WORDS else lv, lv) for lv in spec.bot_levels]
    if len(spec.bot_levels) > 1:
        choices.append(("mixed (one of each)", "mixed"))
    return choices


def default_name() -> str:
    """The name the forms start with: the login name (:func:`engine.paths.seat_name`)."""
    return seat_name(None)


def bot_levels(count: int, level: str, levels: Sequence[str] = ("heuristic", "random")) -> list[str]:
    """``count`` bot levels; "mixed" takes each of ``levels`` (the game's, strongest first) in turn."""
    if level == "mixed":
        return [levels[i % len(levels)] for i in range(count)]
    return [level] * count


def option_values(option: OptionSpec) -> list[tuple[str, object]]:
    """Every value a form offers for a table option, as (label, value): its choices, the whole
    numbers between its bounds, or on and off."""
    if option.choices:
        return [(str(c), c) for c in option.choices]
    if option.kind is bool:
        return [("on", True), ("off", False)]
    if option.kind is int and option.low is not None and option.high is not None:
        return [(str(n), n) for n in range(option.low, option.high + 1)]
    return [(str(option.default), option.default)]


def listen_choices() -> list[tuple[str, str]]:
    """Where a hosted table may listen, as (label, bind address), the default first: this
    machine's LAN address (when it has one), this computer only, or every interface."""
    from net.host import lan_address

    lan = lan_address()
    choices = [(f"the LAN, {lan}", lan)] if lan != "127.0.0.1" else []
    choices += [("this computer only, 127.0.0.1", "127.0.0.1"), ("every interface, 0.0.0.0", "0.0.0.0")]
    return choices


def title_line(fronts: Sequence[FrontEnd], width: int = 78) -> str:
    """The home screen's first line in ``width`` cells: the games a person can play here, and
    how, as far as it fits."""
    titles = [f.title for f in fronts]
    games = " and ".join([", ".join(titles[:-1]), titles[-1]] if len(titles) > 1 else titles) or "Card games"
    for line in (
        f"VAMPIRE TABLE · {games} in the terminal, played peer to peer",
        f"VAMPIRE TABLE · {games}, peer to peer",
        f"VAMPIRE TABLE · {games}",
    ):
        if len(line) <= width:
            return line
    return "VAMPIRE TABLE"


def _row(label: str, widget: Widget) -> Horizontal:
    return Horizontal(Label(label, classes="field-label"), widget, classes="field")


def _select(choices: Sequence[tuple[str, object]], value: object, id: str) -> Select[object]:
    return Select(choices, value=value, allow_blank=False, id=id)


class HomeScreen(Screen[None]):
    """The first screen. The menu on the left picks a form on the right; Enter goes into the form
    and Enter in any field (or the button) goes."""

    BINDINGS = [
        Binding("escape", "menu", "Menu", show=False),
        Binding("q", "app.quit", "Quit"),
        Binding("f1", "app.help", "Help"),
    ]

    SHORT_BELOW = 32
    """Below 32 rows the forms' fields lose their borders (one row each, the stylesheet's
    ``HomeScreen.-short``), so that the longest form and its button fit a 24-row terminal."""
    # Not Textual's VERTICAL_BREAKPOINTS: Textual (8.2.8) posts each terminal resize to the screen
    # under the top one too (App._background_screens always holds it), and a breakpoint class
    # that changes there restyles this screen's whole tree (126 nodes, about a second on a loaded
    # machine) under a table laid out in the same turn: the stacks of a Pilot test that resized a
    # table and ran for minutes under load were there (Screen._on_resize -> update_classes ->
    # Stylesheet.update_nodes). The class follows the height while this screen is on top, and is
    # set once as it comes back (tests/unit/tui/test_home_short.py counts the nodes restyled).
    VERTICAL_BREAKPOINTS = []

    BROWSER: Callable[[Callable[[list[HeardTable]], None]], Browser] = Browser
    """What listens for tables on the LAN (:class:`net.discovery.Browser`), made when the join
    form is first shown and closed with the screen."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__()
        self.player_name = name or default_name()
        self.fronts = playable() or [find_front_end(default_game())]
        self._browser: Browser | None = None
        self._heard: dict[str, HeardTable] = {}

    # -- the forms' game fields --------------------------------------------------------------------

    def _game_choice(self, form: str) -> list[Horizontal]:
        """A choice of game, when more than one game can be played here."""
        if len(self.fronts) < 2:
            return []
        games = [(f.title, f.name) for f in self.fronts]
        return [_row("Game", Select(games, value=self.fronts[0].name, allow_blank=False, id=f"{form}-game"))]

    def _game_rows(self, form: str, front: FrontEnd) -> list[Horizontal]:
        """The fields of ``form`` ("play" or "host") that depend on the game: seats or bots, the
        bot level, and the table options the game's front end offers here."""
        spec = find_game(front.name)
        rows = []
        if form == "play":
            bots = range(max(spec.min_seats - 1, 1), spec.max_seats)
            rows.append(_row("Bots", _select([(str(n), n) for n in bots], spec.default_seats - 1, "play-bots")))
            rows.append(_row("Bot level", _select(level_choices(spec), spec.default_bot, "play-level")))
            if spec.kit is not None:  # what your seat brings: a file, or one the game ships, by name
                hint = "a file or bundled name (empty: any)"
                rows.append(_row(spec.kit().noun.capitalize(), Input(placeholder=hint, id="play-deck")))
        else:
            seats = range(spec.min_seats, spec.max_seats + 1)
            rows.append(_row("Seats", _select([(str(n), n) for n in seats], spec.default_seats, "host-seats")))
        schema = {option.name: option for option in spec.option_schema}
        for name in front.home_options:
            option = schema[name]
            label = name.replace("_", " ").capitalize()
            rows.append(_row(label, _select(option_values(option), option.default, f"{form}-rule-{name}")))
        for row in rows:
            row.add_class("-game-field")
        return rows

    def _front(self, form: str) -> FrontEnd:
        """The game chosen in ``form``."""
        if len(self.fronts) < 2:
            return self.fronts[0]
        name = self._field_value(f"#{form}-game")
        return next(f for f in self.fronts if f.name == name)

    @on(Select.Changed, "#host-internet")
    def _reach_changed(self, event: Select.Changed) -> None:
        """The relay row shows only for a table friends may join across the internet."""
        self.query_one("#host-relay-row").display = bool(event.value)

    @on(Select.Changed, "#play-game, #host-game")
    async def _game_changed(self, event: Select.Changed) -> None:
        form = (event.select.id or "").split("-")[0]
        container = self.query_one(f"#{form}")
        if not container.is_mounted or not container.is_attached:
            return  # the app is leaving (a replay or a table opened by the command was closed at once)
        await container.query(".-game-field").remove()
        row = event.select.parent  # the game's row: the game's fields follow it
        assert isinstance(row, Widget)
        if not container.is_attached or not row.is_attached:
            return  # the app left while the old fields went
        await container.mount(*self._game_rows(form, self._front(form)), after=row)

    def _options(self, form: str) -> dict[str, object]:
        """The table options chosen in ``form``."""
        return {name: self._field_value(f"#{form}-rule-{name}") for name in self._front(form).home_options}

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        yield Static(title_line(self.fronts, self.app.size.width - 2), id="home-title")
        with Horizontal(id="home"):
            yield OptionList(*[Option(f"  {text}", id=key) for key, text in CHOICES], id="menu")
            with ContentSwitcher(initial="play", id="forms"):
                with Vertical(id="play", classes="form"):
                    yield Static("You against bots on this computer. Enter in a field starts.", classes="form-help")
                    yield _row("Your name", Input(self.player_name, id="play-name", max_length=32))
                    yield from self._game_choice("play")
                    yield from self._game_rows("play", self.fronts[0])
                    yield Button("Play", id="play-go", variant="primary")
                    yield OptionList(id="play-recent", classes="recent")  # games quit before their end
                with Vertical(id="host", classes="form"):
                    yield Static(
                        "Open a table; friends join at its address (on the LAN) or with its ticket.",
                        classes="form-help",
                    )
                    yield _row("Your name", Input(self.player_name, id="host-name", max_length=32))
                    yield from self._game_choice("host")
                    yield from self._game_rows("host", self.fronts[0])
                    places = listen_choices()
                    yield _row("Listen on", _select(places, places[0][1], "host-bind"))
                    yield _row("Port", Input(str(DEFAULT_PORT), id="host-port", type="integer", max_length=5))
                    reach = [("join on the LAN", False), ("join on the LAN or across the internet", True)]
                    yield _row("Friends", _select(reach, False, "host-internet"))
                    relay = _row("Relay", Input(placeholder="n0's public relays, off, or https://…", id="host-relay"))
                    relay.id = "host-relay-row"
                    relay.display = False  # shown once friends may join across the internet
                    yield relay
                    yield Button("Open the table", id="host-go", variant="primary")
                with Vertical(id="join", classes="form"):
                    yield Static(
                        "Take a seat at a friend's table: type its address (or paste its ticket), or pick it below.",
                        classes="form-help",
                    )
                    yield _row(
                        "Address", Input(placeholder=f"192.168.1.5:{DEFAULT_PORT} or a ticket", id="join-address")
                    )
                    yield _row("Your name", Input(self.player_name, id="join-name", max_length=32))
                    yield Button("Join", id="join-go", variant="primary")
                    yield OptionList(id="join-heard")
                    yield Static("", id="join-lan", classes="form-help")
                with Vertical(id="replay", classes="form"):
                    yield Static("Step through a saved log, move by move.", classes="form-help")
                    yield _row("Log file", Input(placeholder="path/to/game.vtlog", id="replay-path"))
                    yield OptionList(id="replay-recent", classes="recent")
                    yield Button("Replay", id="replay-go", variant="primary")
                with Vertical(id="audit", classes="form"):
                    yield Static("Check a saved log: signatures, chain, rules, every shuffle.", classes="form-help")
                    yield _row("Log file", Input(placeholder="path/to/game.vtlog", id="audit-path"))
                    yield OptionList(id="audit-recent", classes="recent")
                    yield Button("Audit", id="audit-go", variant="primary")
                with Vertical(id="quit", classes="form"):
                    yield Static("Enter leaves Vampire Table.", classes="form-help")
                    yield Button("Quit", id="quit-go", variant="error")
        yield Footer()

    def on_mount(self) -> None:
        heard = self.query_one("#join-heard", OptionList)
        heard.border_title = "Tables on the LAN"
        heard.display = False
        self.query_one("#menu", OptionList).border_title = "Vampire Table"
        self.query_one("#menu", OptionList).highlighted = 0
        self.query_one("#menu", OptionList).focus()
        self._fill_recent()

    def on_screen_resume(self) -> None:
        self._fit_height(self.app.size.height)
        self._fill_recent()

    def on_resize(self, event: events.Resize) -> None:
        if (
            self.is_active
        ):  # under another screen (Textual counts the one under the top as current): set as it comes back
            self._fit_height(event.size.height)

    def _fit_height(self, rows: int) -> None:
        short = rows < self.SHORT_BELOW
        self.update_classes({"-short": short, "-tall": not short})

    def _fill_recent(self) -> None:
        from tui.local_play import resumable

        logs = recent_logs()
        for which in ("replay", "audit"):
            recent = self.query_one(f"#{which}-recent", OptionList)
            recent.clear_options()
            if logs:
                recent.add_options([Option(log_label(p), id=str(p)) for p in logs])
                recent.border_title = "Recent logs"
            recent.display = bool(logs)
        # Games against bots quit before their end, which Enter brings back (vampire play --resume).
        unfinished = [p for p in logs if resumable(p)]
        games = self.query_one("#play-recent", OptionList)
        games.clear_options()
        if unfinished:
            games.add_options([Option(log_label(p), id=str(p)) for p in unfinished])
            games.border_title = "Go on with a game"
        games.display = bool(unfinished)

    # -- menu ------------------------------------------------------------------------------------

    @on(OptionList.OptionHighlighted, "#menu")
    def _menu_moved(self, event: OptionList.OptionHighlighted) -> None:
        # The highlighted choice is marked by ▸ as well as by colour.
        menu = event.option_list
        for key, text in CHOICES:
            menu.replace_option_prompt(key, f"▸ {text}" if key == event.option.id else f"  {text}")
        self.query_one(ContentSwitcher).current = event.option.id
        if event.option.id == "join":
            self.run_worker(self._listen(), group="lan", exclusive=True)

    # -- tables heard on the LAN (PROTOCOL.md 9) ---------------------------------------------------

    async def _listen(self) -> None:
        """Start listening for tables on the LAN, once; say so, or why not."""
        if self._browser is not None:
            return
        status = self.query_one("#join-lan", Static)
        if multicast_off():
            status.update(f"{DISCOVERY_OFF}: type it in the Address field above.")
            return
        browser = self.BROWSER(self.tables_heard)
        self._browser = browser
        try:
            await browser.start()
        except OSError as err:
            status.update(f"Cannot listen for tables on the LAN: {err.strerror or err}.")
            return
        status.update("Listening for tables on the LAN…")

    def tables_heard(self, tables: list[HeardTable]) -> None:
        """Show ``tables`` (every table heard now) in the join form, keeping the highlight on the
        same table (else on the first open one); a full table is listed, greyed out."""
        heard = self.query_one("#join-heard", OptionList)
        highlighted = heard.highlighted_option.id if heard.highlighted_option is not None else None
        self._heard = {t.instance: t for t in tables}
        heard.clear_options()
        heard.add_options([Option(heard_prompt(t), id=t.instance, disabled=not t.open) for t in tables])
        heard.display = bool(tables)
        if highlighted in self._heard:
            heard.highlighted = heard.get_option_index(highlighted)
        elif open_tables := [t for t in tables if t.open]:
            # Tab reaches the list with a table highlighted, so that Enter joins it at once.
            heard.highlighted = heard.get_option_index(open_tables[0].instance)
        status = self.query_one("#join-lan", Static)
        status.display = not tables
        if self._browser is not None and not tables:
            status.update("Listening for tables on the LAN… none heard yet.")

    @on(OptionList.OptionSelected, "#join-heard")
    def _heard_chosen(self, event: OptionList.OptionSelected) -> None:
        table = self._heard.get(event.option.id or "")
        if table is None:
            return
        host, port = table.address
        self.query_one("#join-address", Input).value = f"{host}:{port}"
        try:
            name = self._field_name("#join-name")
        except VampireError as err:
            self.notify(_sentence(str(err)), severity="error")
            return
        self.app.open_join(JoinSpec(f"{host}:{port}", name, table.pin))  # type: ignore[attr-defined]

    async def on_unmount(self) -> None:
        if self._browser is not None:
            await self._browser.close()
            self._browser = None

    @on(OptionList.OptionSelected, "#menu")
    def _menu_chosen(self, event: OptionList.OptionSelected) -> None:
        key = event.option.id
        if key == "quit":
            self.app.exit()
            return
        self.query_one(ContentSwitcher).current = key
        form = self.query_one(f"#{key}")
        first = form.query("Input, Select").first()
        first.focus()

    def action_menu(self) -> None:
        self.query_one("#menu", OptionList).focus()

    @on(OptionList.OptionSelected, ".recent")
    def _recent_chosen(self, event: OptionList.OptionSelected) -> None:
        which = (event.option_list.id or "").split("-")[0]
        if which == "play":
            self._resume(Path(event.option.id or ""))
            return
        self.query_one(f"#{which}-path", Input).value = event.option.id or ""
        self._go(which)

    def _resume(self, log: Path) -> None:
        """Bring back the game against bots saved in ``log`` (as ``vampire play --resume`` does)."""
        from tui.local_play import resume_spec

        try:
            spec = resume_spec(log)
        except VampireError as err:
            self.notify(_sentence(str(err)), severity="error")
            self._fill_recent()
            return
        self.app.open_local(spec)  # type: ignore[attr-defined]

    # -- going -----------------------------------------------------------------------------------

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self._go((event.button.id or "").split("-")[0])

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self._go((event.input.id or "").split("-")[0])

    def _field_value(self, selector: str) -> Any:
        """The value of the Input or Select at ``selector``."""
        widget = self.query_one(selector)
        assert isinstance(widget, (Input, Select))
        return widget.value

    def _go(self, which: str) -> None:
        app = self.app
        try:
            if which == "play":
                name = self._field_name("#play-name")
                front = self._front("play")
                levels = bot_levels(
                    self._field_value("#play-bots"),
                    self._field_value("#play-level"),
                    find_game(front.name).bot_levels,
                )
                options = self._options("play")
                brought = self._brought(front.name, options)
                spec = LocalTableSpec(name, levels, options, front.name, brought)
                app.open_local(spec)  # type: ignore[attr-defined]
            elif which == "host":
                name = self._field_name("#host-name")
                port_text = self._field_value("#host-port").strip() or str(DEFAULT_PORT)
                port = int(port_text)
                if not 1 <= port <= 65535:
                    raise VampireError(f"a port is a number from 1 to 65535, not {port_text}")
                front = self._front("host")
                seats = self._field_value("#host-seats")
                bind = str(self._field_value("#host-bind"))
                internet = bool(self._field_value("#host-internet"))
                relay = str(self._field_value("#host-relay")).strip() or None
                if relay is not None:
                    if not internet:
                        raise VampireError("a relay is for a table across the internet: choose it under Friends")
                    from net.internet import Relays

                    Relays.parse(relay)  # the sentence of a relay that is not one, before the table opens
                hosting = HostSpec(name, seats, (), self._options("host"), port, front.name, bind, internet, relay)
                app.open_host(hosting)  # type: ignore[attr-defined]
            elif which == "join":
                address = self._field_value("#join-address").strip()
                if not address:
                    raise VampireError(
                        f"type the table's address, as the host's screen shows it (for example 192.168.1.5:{DEFAULT_PORT})"
                    )
                app.open_join(JoinSpec(address, self._field_name("#join-name")))  # type: ignore[attr-defined]
            elif which in ("replay", "audit"):
                path = self._field_path(f"#{which}-path")
                (app.open_replay if which == "replay" else app.open_audit)(path)  # type: ignore[attr-defined]
            elif which == "quit":
                app.exit()
        except VampireError as err:
            self.notify(_sentence(str(err)), severity="error")
        except ValueError:
            self.notify("The port must be a whole number.", severity="error")

    def _brought(self, game: str, options: dict[str, object]) -> Any:
        """What your seat brings to the play form's table of ``game`` (with the table rules
        ``options``), from its deck field: None when the field is empty or the game's seats bring
        nothing (the table gives one the game ships), else the file or bundled deck it names, read
        and checked as the table would read it (``vampire play --deck``), what was read said in a
        notice. Raises VampireError naming every problem."""
        from engine.kits import check_file

        spec = find_game(game)
        text = str(self._field_value("#play-deck")).strip() if self.query("#play-deck") else ""
        if spec.kit is None or not text:
            return None
        check = check_file(os.path.expanduser(text), game, options)
        if check.refused:
            raise VampireError(f"{Path(text).name}: {'; '.join(check.problems)}")
        said = [f"You bring {check.summary}.", *check.readings, *check.notes]
        self.notify("\n".join(said), severity="warning" if check.readings else "information")
        return check.brought

    def _field_name(self, selector: str) -> str:
        name = str(self._field_value(selector)).strip()
        if not name:
            raise VampireError("type a name for the other players to see")
        if not name.isprintable():
            raise VampireError("a name is printable characters only")
        return name

    def _field_path(self, selector: str) -> Path:
        text = self._field_value(selector).strip()
        if not text:
            raise VampireError("type the path of a log file (a .vtlog file), or pick a recent one below")
        path = Path(text).expanduser()
        if not path.is_file():
            raise VampireError(f"there is no file {text}")
        return path


def heard_prompt(table: HeardTable) -> str:
    """A table heard on the LAN as two short lines of the join form (it fits 80 columns): its name
    and seats taken, then its game and the host's fingerprint (which the host's own screen shows,
    to tell two tables apart)."""
    seats = f"{table.taken}/{table.total} seats" + ("" if table.open else ", full")
    return f"{table.name[:28]}  {seats}\n  {table.game} · host {table.fingerprint}"


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
