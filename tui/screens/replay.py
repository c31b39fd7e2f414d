"""Replay a saved log: step forward and back through its entries, jump by the game's units (a trick,
a round); the game's own panels (:class:`tui.games.ReplayKit`) draw the table at each step."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Static

from engine.errors import VampireError
from engine.replay import NoteFold
from tui.files import display_path
from tui.games import FrontEnd, ReplayKit
from tui.messages import ReplayLoaded
from tui.replayer import (
    Frame,
    Frames,
    Replay,
    fold_frames,
    fold_run,
    front_end_for,
    not_shown_sentence,
    open_replay,
)
from tui.widgets.common.title import TitleBar
from tui.widgets.common.too_small import TooSmallNotice


def replay_bindings(units: tuple[str, str]) -> list[BindingType]:
    """The replay's keys, the jumps named by the game's ``units`` (small, big)."""
    small, big = units
    # Each pair shows once in the footer: "[ ] trick" reads as "back or on by a trick".
    entry = Binding.Group("entry")
    small_group = Binding.Group(f"{small} back/on" if small else "")
    big_group = Binding.Group(f"{big} back/on" if big else "")
    return [
        Binding("left", "step(-1)", "prev entry", group=entry),
        Binding("right", "step(1)", "next entry", group=entry),
        Binding("left_square_bracket", "unit(0, -1)", f"previous {small}", key_display="[", group=small_group),
        Binding("right_square_bracket", "unit(0, 1)", f"next {small}", key_display="]", group=small_group),
        Binding("pageup", "unit(1, -1)", f"previous {big}", key_display="PgUp", group=big_group),
        Binding("pagedown", "unit(1, 1)", f"next {big}", key_display="PgDn", group=big_group),
        Binding("home", "jump(0)", "start", show=False),
        Binding("end", "jump(-1)", "end", show=False),
        Binding("h", "hands", "hands"),
        Binding("escape", "back", "close"),
    ]


def middle_cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, its middle replaced by ``…`` when too long (a file
    name keeps its start and its end, where the date and the table id are)."""
    if len(text) <= width:
        return text
    if width <= 1:
        return text[:width]
    head = (width - 1) // 2
    return text[:head] + "…" + text[len(text) - (width - 1 - head) :]


def replay_title(name: str, parts: list[str], width: int) -> str:
    """The replay's title line in ``width`` cells: "Replay NAME · part · part". The later parts
    are dropped first while there is no room, then the file name is cut in its middle (never
    below 16 cells)."""
    parts = list(parts)
    while True:
        rest = "".join(f" · {p}" for p in parts)
        room = width - len("Replay ") - len(rest)
        if room >= min(len(name), 16) or not parts:
            return f"Replay {middle_cut(name, max(room, 1))}{rest}"
        parts.pop()


class ReplayScreen(Screen[None]):
    """Steps through the frames of :mod:`tui.replayer`; the log is folded in a thread and can be
    stepped through while it loads."""

    BINDINGS = replay_bindings(("", ""))

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = Path(path)
        self.replay: Replay | None = None
        self.index = 0
        self.spoil = False
        self._problem = ""
        self._keys_shown: tuple[bool | None, ...] = ()
        self.front: FrontEnd | None = None
        self.kit: ReplayKit | None = None
        # The log is read here, before compose, because its game decides the panels and the keys.
        try:
            self.replay = open_replay(self.path)
        except VampireError as err:
            self._problem = str(err)
            return
        self.front = front_end_for(self.replay)
        self.kit = self.front.replay() if self.front.replay is not None else None
        if self.kit is not None:
            # The jump keys say the game's units ("trick", "round"): this screen's own copy of the
            # class bindings, rebuilt in the same order.
            self._bindings = BindingsMap(replay_bindings(self.kit.units))

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        yield TitleBar()
        if self.kit is not None:
            yield from self.kit.compose()
        yield RecentEntries(id="replay-entries", classes="panel")
        yield Static(id="replay-status")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#replay-entries").border_title = "Entries"
        if self.kit is not None:
            self.kit.mounted(self)
        self.query_one(TitleBar).show([replay_title(self.path.name, ["reading…"], self.app.size.width - 2)])
        if self.replay is None or self.front is None:
            self.notify(self._problem, title="Cannot replay", severity="error", timeout=10)
            self.query_one("#replay-status", Static).update(f"Cannot replay: {self._problem}")
            return
        refusal = not_shown_sentence(self.replay, self.front)
        if refusal is not None:
            # A game with no replay panels: say so (and how to read any log) instead of folding a
            # game whose state this screen cannot show.
            entries = self.query_one(RecentEntries)
            entries.border_title = "Cannot show this log here"
            entries.say(refusal)
            self.query_one("#replay-status", Static).update("Esc goes back.")
            self.query_one(TitleBar).show([replay_title(display_path(self.path), [], self.app.size.width - 2)])
            self.replay = None
            self.refresh_bindings()
            return
        if self.replay.torn:
            self.notify("The log's last frame was torn (a crash mid-write) and is left out.", severity="warning")
        self._load()

    @work(thread=True, exclusive=True, group="replay")
    def _load(self) -> None:
        from engine.games import all_rules as games

        replay = self.replay
        assert replay is not None
        # Told every 25 entries, and at most about 100 times a log: each telling redraws the
        # screen and its footer, whose cost must not grow with the log's length.
        every = max(25, replay.total // 100 // 25 * 25)
        try:
            for count in fold_frames(replay, games(), self.kit):
                if count == 1 or count % every == 0:
                    self.post_message(ReplayLoaded(count, replay.total, False))
        except Exception as err:  # a broken log must end in a sentence, not a traceback
            replay.error = replay.error or f"The log cannot be folded past entry {len(replay.frames)}: {err}"
        self.post_message(ReplayLoaded(len(replay.frames), replay.total, True))

    @on(ReplayLoaded)
    def _loaded(self, message: ReplayLoaded) -> None:
        if message.finished and self.replay is not None and self.replay.error:
            self.notify(self.replay.error, title="The log stops here", severity="error", timeout=10)
        self.show()

    # -- moving ----------------------------------------------------------------------------------

    @property
    def frames(self) -> Sequence[Frame]:
        return self.replay.frames if self.replay is not None else []

    def _go(self, index: int) -> None:
        if not self.frames:
            return
        self.index = max(0, min(index, len(self.frames) - 1))
        self.show()

    def action_step(self, step: int) -> None:
        self._go(self.index + step)

    def action_jump(self, where: int) -> None:
        self._go(where if where >= 0 else len(self.frames) - 1)

    def _find(self, step: int, unit: str) -> int | None:
        """The nearest frame before (``step`` < 0) or after the current one that began ``unit``."""
        frames = self.frames
        if isinstance(frames, Frames):
            return frames.starting(unit, self.index, step)  # from its index: no frame is made again
        order = range(self.index + 1, len(frames)) if step > 0 else range(self.index - 1, -1, -1)
        return next((i for i in order if unit in frames[i].marks.starts), None)

    def _unit(self, which: int) -> str | None:
        return self.kit.units[which] if self.kit is not None else None

    def action_unit(self, which: int, step: int) -> None:
        unit = self._unit(which)
        if unit is None:
            return
        found = self._find(step, unit)
        if found is not None:
            self._go(found)
        elif which == 1 and step < 0:
            self._go(0)  # before the first big unit: the start

    def action_hands(self) -> None:
        self.spoil = not self.spoil
        self.show()  # the status line says which hands are shown (no toast over the entries)

    closes_app = False
    """This screen is what the command opened (``vampire replay FILE``): closing it exits the
    program (status 0) instead of showing the home screen it was never asked for."""

    def action_back(self) -> None:
        if self.closes_app:
            self.app.exit()
            return
        self.app.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        n = len(self.frames)
        if action == "step":
            step = int(parameters[0]) if parameters else 1  # type: ignore[call-overload]
            ok = self.index > 0 if step < 0 else self.index < n - 1
            return True if ok else None
        if action == "unit":
            which, step = int(parameters[0]), int(parameters[1])  # type: ignore[call-overload]
            unit = self._unit(which)
            if unit is None:
                return False  # a game with no units to jump by: no such keys
            if which == 1 and step < 0:
                return True if self.index > 0 else None
            return True if n and self._find(step, unit) is not None else None
        return True

    # -- drawing ---------------------------------------------------------------------------------

    def show(self) -> None:
        replay = self.replay
        frames = self.frames
        if replay is None or not frames or not self.is_attached:
            return
        frame = frames[self.index]
        where = [f"{unit} {number}" for unit, number in frame.marks.where if number]
        loading = "" if replay.done else f" (reading {len(frames)} of {replay.total})"
        parts = [f"entry {frame.seq} of {replay.total - 1}{loading}", *where, f"head {frame.head}"]
        # One part, fitted here: the file name is kept (cut in its middle), later parts go first.
        self.query_one(TitleBar).show([replay_title(self.path.name, parts, self.size.width - 2)])
        if self.kit is not None:
            self.kit.show(self, replay, frame, self.spoil)
        self.query_one(RecentEntries).show(frames, self.index, self.front.fold if self.front is not None else None)
        # With h: every hand at every step of a round whose seeds the log reveals later (the
        # footer's "h hands" says how to show them).
        shown = ("Every hand shown (h hides them). ", "dim") if self.spoil else ""
        self.query_one("#replay-status", Static).update(Text.assemble(shown, frame.status))
        # The footer is redrawn only when a key comes or goes: redrawing it makes new widgets, and
        # a long log is drawn many times while it is read.
        keys = tuple(self.check_action(action, params) for action, params in _MOVES)
        if keys != self._keys_shown:
            self._keys_shown = keys
            self.refresh_bindings()


_MOVES: tuple[tuple[str, tuple[object, ...]], ...] = (
    ("step", (-1,)),
    ("step", (1,)),
    ("unit", (0, -1)),
    ("unit", (0, 1)),
    ("unit", (1, -1)),
    ("unit", (1, 1)),
)
"""The moves whose keys the footer shows or hides as the replay goes (:meth:`ReplayScreen.check_action`)."""


class RecentEntries(Widget):
    """The entries up to the current one, the current one marked and last, fitted to the room the
    panel has *when it is drawn* (so a layout that changes after a step can never leave the current
    entry below the panel's edge)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._frames: Sequence[Frame] = []
        self._index = 0
        self._message: str | None = None
        self._fold: NoteFold | None = None

    def show(self, frames: Sequence[Frame], index: int, fold: NoteFold | None = None) -> None:
        """Show ``frames`` up to ``index`` (the current entry); ``fold``: the game's way of reading
        a run of entries as one line (:func:`fit_entries`)."""
        self._frames, self._index, self._message, self._fold = frames, index, None, fold
        self.refresh()

    def say(self, message: str) -> None:
        """Show ``message`` instead of entries."""
        self._message = message
        self.refresh()

    @property
    def content(self) -> Text:
        """What the panel shows at its present size."""
        if self._message is not None:
            return Text(self._message)
        size = self.content_size
        return fit_entries(self._frames, self._index, size.height or 8, size.width or 76, self._fold)

    def render(self) -> Text:
        return self.content


REPEATS_REACH = 64
"""At most this many entries that only repeat what was said are skipped over, besides the
entries read, to fill the panel (a referendum's "done voting" again after every vote)."""


def fit_entries(frames: Sequence[Frame], index: int, height: int, width: int, fold: NoteFold | None = None) -> Text:
    """Entries ``frames[..index]`` in ``height`` rows of ``width`` cells: whole lines are dropped
    from the top until the current entry, marked ``▶`` and shown last, fits at the bottom (at most
    ``height`` entries before it are read: each one shown takes a row or more). A run of entries
    that ``fold`` (the game's) reads as one line is one line (:func:`tui.replayer.fold_run`: a
    window's passes), the current entry's run too: its line grows as the run is stepped through.
    An entry that only repeats what was said (:attr:`tui.replayer.Frame.repeats`) is left out
    unless it is the current one."""
    if not frames or index >= len(frames):
        return Text()
    height, width = max(height, 1), max(width, 20)
    lines: list[Text] = []
    used = skipped = 0
    i = index
    while i >= 0 and used < height and index - i - skipped <= height:
        frame = frames[i]
        if frame.repeats and i != index and skipped < REPEATS_REACH:
            i, skipped = i - 1, skipped + 1  # said already: the current entry alone says it again
            continue
        run = fold_run(frames, i, fold)
        said = (run[1], *frame.lines[1:]) if run is not None else frame.lines
        block = [Text(line, style="bold reverse" if i == index else "") for line in said]
        if i == index:
            # One marker for the entry, on its first line; the lines it caused are indented.
            block = (
                ([Text("▶ ") + block[0]] + [Text("  ") + t for t in block[1:]])
                if block
                else [Text("▶ " + frame.kind, style="bold reverse")]
            )
        else:
            block = [Text("  ") + t for t in block]
        lines[:0] = block
        used += sum(1 + (len(t) - 1) // width for t in block)
        i = run[0] - 1 if run is not None else i - 1
    while len(lines) > 1 and sum(1 + (len(t) - 1) // width for t in lines) > height:
        lines.pop(0)
    return Text("\n").join(lines)
