"""Home: play against bots, host a table, join a table, replay a log, audit a log."""

from __future__ import annotations

import getpass
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, ContentSwitcher, Footer, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from engine.errors import VampireError
from tui.files import log_label, recent_logs
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

LEVEL_CHOICES = (
    ("heuristic (plays to win)", "heuristic"),
    ("random (any legal move)", "random"),
    ("mixed (one of each)", "mixed"),
)


def default_name() -> str:
    try:
        name = getpass.getuser()
    except Exception:  # no login name in this environment
        name = ""
    return (name or "player")[:32]


def bot_levels(count: int, level: str) -> list[str]:
    """``count`` bot levels; "mixed" alternates heuristic and random, heuristic first."""
    if level == "mixed":
        return ["heuristic" if i % 2 == 0 else "random" for i in range(count)]
    return [level] * count


def _row(label: str, widget) -> Horizontal:
    return Horizontal(Label(label, classes="field-label"), widget, classes="field")


class HomeScreen(Screen):
    """The first screen. The menu on the left picks a form on the right; Enter goes into the form
    and Enter in any field (or the button) goes."""

    BINDINGS = [
        Binding("escape", "menu", "Menu", show=False),
        Binding("q", "app.quit", "Quit"),
        Binding("f1", "app.help", "Help"),
    ]

    def __init__(self, name: str | None = None) -> None:
        super().__init__()
        self.player_name = name or default_name()

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        yield Static("VAMPIRE TABLE · Vampire Queen in the terminal, played peer to peer", id="home-title")
        with Horizontal(id="home"):
            yield OptionList(*[Option(f"  {text}", id=key) for key, text in CHOICES], id="menu")
            with ContentSwitcher(initial="play", id="forms"):
                with Vertical(id="play", classes="form"):
                    yield Static("You against bots on this computer. Enter in a field starts.", classes="form-help")
                    yield _row("Your name", Input(self.player_name, id="play-name", max_length=32))
                    yield _row(
                        "Bots", Select([(str(n), n) for n in range(2, 12)], value=3, allow_blank=False, id="play-bots")
                    )
                    yield _row(
                        "Bot level", Select(LEVEL_CHOICES, value="heuristic", allow_blank=False, id="play-level")
                    )
                    yield _row(
                        "Rounds",
                        Select([(str(n), n) for n in range(1, 21)], value=5, allow_blank=False, id="play-rounds"),
                    )
                    yield Button("Play", id="play-go", variant="primary")
                with Vertical(id="host", classes="form"):
                    yield Static("Open a table on the LAN; friends join at its address.", classes="form-help")
                    yield _row("Your name", Input(self.player_name, id="host-name", max_length=32))
                    yield _row(
                        "Seats",
                        Select([(str(n), n) for n in range(3, 13)], value=4, allow_blank=False, id="host-seats"),
                    )
                    yield _row(
                        "Rounds",
                        Select([(str(n), n) for n in range(1, 21)], value=5, allow_blank=False, id="host-rounds"),
                    )
                    yield _row("Port", Input("7447", id="host-port", type="integer", max_length=5))
                    yield Button("Open the table", id="host-go", variant="primary")
                with Vertical(id="join", classes="form"):
                    yield Static("Take a seat at a friend's table.", classes="form-help")
                    yield _row("Address", Input(placeholder="192.168.1.5:7447", id="join-address"))
                    yield _row("Your name", Input(self.player_name, id="join-name", max_length=32))
                    yield Button("Join", id="join-go", variant="primary")
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
        self.query_one("#menu", OptionList).border_title = "Vampire Table"
        self.query_one("#menu", OptionList).highlighted = 0
        self.query_one("#menu", OptionList).focus()
        self._fill_recent()

    def on_screen_resume(self) -> None:
        self._fill_recent()

    def _fill_recent(self) -> None:
        logs = recent_logs()
        for which in ("replay", "audit"):
            recent = self.query_one(f"#{which}-recent", OptionList)
            recent.clear_options()
            if logs:
                recent.add_options([Option(log_label(p), id=str(p)) for p in logs])
                recent.border_title = "Recent logs"
            recent.display = bool(logs)

    # -- menu ------------------------------------------------------------------------------------

    @on(OptionList.OptionHighlighted, "#menu")
    def _menu_moved(self, event: OptionList.OptionHighlighted) -> None:
        # The highlighted choice is marked by ▸ as well as by colour.
        menu = event.option_list
        for key, text in CHOICES:
            menu.replace_option_prompt(key, f"▸ {text}" if key == event.option.id else f"  {text}")
        self.query_one(ContentSwitcher).current = event.option.id

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
        which = event.option_list.id.split("-")[0]
        self.query_one(f"#{which}-path", Input).value = event.option.id
        self._go(which)

    # -- going -----------------------------------------------------------------------------------

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self._go(event.button.id.split("-")[0])

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self._go(event.input.id.split("-")[0])

    def _field_value(self, selector: str):
        return self.query_one(selector).value

    def _go(self, which: str) -> None:
        app = self.app
        try:
            if which == "play":
                name = self._field_name("#play-name")
                levels = bot_levels(self._field_value("#play-bots"), self._field_value("#play-level"))
                spec = LocalTableSpec(name, levels, {"rounds": self._field_value("#play-rounds")})
                app.open_local(spec)  # type: ignore[attr-defined]
            elif which == "host":
                name = self._field_name("#host-name")
                port_text = self._field_value("#host-port").strip() or "7447"
                port = int(port_text)
                if not 1 <= port <= 65535:
                    raise VampireError(f"a port is a number from 1 to 65535, not {port_text}")
                spec = HostSpec(
                    name, self._field_value("#host-seats"), (), {"rounds": self._field_value("#host-rounds")}, port
                )
                app.open_host(spec)  # type: ignore[attr-defined]
            elif which == "join":
                address = self._field_value("#join-address").strip()
                if not address:
                    raise VampireError(
                        "type the table's address, as the host's screen shows it (for example 192.168.1.5:7447)"
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

    def _field_name(self, selector: str) -> str:
        name = self._field_value(selector).strip()
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


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
