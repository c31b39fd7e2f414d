"""Replay a saved log: step forward and back through its entries, jump by trick and by round; the
public table at each step and, once a round's seeds are revealed, every hand."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Static

from engine.errors import VampireError
from tui.files import display_path
from tui.messages import ReplayLoaded
from tui.present import cards_text, points, seat_rows
from tui.replayer import Frame, Replay, fold_frames, hands_at, not_shown_sentence, open_replay
from tui.widgets.common.too_small import TooSmallNotice
from tui.widgets.table.seats import SeatList
from tui.widgets.table.trick import TrickView


class ReplayScreen(Screen):
    """Steps through the frames of :mod:`tui.replayer`; the log is folded in a thread and can be
    stepped through while it loads."""

    BINDINGS = [
        Binding("left", "step(-1)", "prev"),
        Binding("right", "step(1)", "next"),
        Binding("left_square_bracket", "trick(-1)", "trick", key_display="["),
        Binding("right_square_bracket", "trick(1)", "trick", key_display="]"),
        Binding("pageup", "round(-1)", "round", key_display="PgUp"),
        Binding("pagedown", "round(1)", "round", key_display="PgDn"),
        Binding("home", "jump(0)", "start", show=False),
        Binding("end", "jump(-1)", "end", show=False),
        Binding("h", "hands", "hands"),
        Binding("escape", "back", "close"),
    ]

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = Path(path)
        self.replay: Replay | None = None
        self.index = 0
        self.spoil = False

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        yield Static(id="title")
        with Horizontal(id="replay-top"):
            yield SeatList(id="seats")
            yield TrickView(id="trick")
        yield Static(id="replay-hands", classes="panel")
        yield Static(id="replay-entries", classes="panel")
        yield Static(id="replay-status")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#seats").border_title = "Seats"
        self.query_one("#trick").border_title = "Trick"
        self.query_one("#replay-entries").border_title = "Entries"
        self.query_one("#replay-hands").display = False
        self.query_one("#title", Static).update(f"Replay of {display_path(self.path)} · reading…")
        try:
            self.replay = open_replay(self.path)
        except VampireError as err:
            self.notify(str(err), title="Cannot replay", severity="error", timeout=10)
            self.query_one("#replay-status", Static).update(f"Cannot replay: {err}")
            return
        from engine.games import all_rules as games

        refusal = not_shown_sentence(self.replay, games())
        if refusal is not None:
            # Only Vampire Queen tables are drawn here: say so (and how to read any log) instead of
            # folding a game whose state this screen cannot show.
            self.query_one("#replay-top").display = False
            entries = self.query_one("#replay-entries", Static)
            entries.border_title = "Cannot show this log here"
            entries.update(refusal)
            self.query_one("#replay-status", Static).update("Esc goes back.")
            self.query_one("#title", Static).update(f"Replay of {display_path(self.path)}")
            self.replay = None
            self.refresh_bindings()
            return
        if self.replay.log.torn:
            self.notify("The log's last frame was torn (a crash mid-write) and is left out.", severity="warning")
        self._load()

    @work(thread=True, exclusive=True, group="replay")
    def _load(self) -> None:
        from engine.games import all_rules as games

        replay = self.replay
        assert replay is not None
        try:
            for count in fold_frames(replay, games()):
                if count == 1 or count % 25 == 0:
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
    def frames(self) -> list[Frame]:
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

    def _find(self, step: int, flag: str) -> int | None:
        frames = self.frames
        if step > 0:
            for i in range(self.index + 1, len(frames)):
                if getattr(frames[i], flag):
                    return i
            return None
        for i in range(self.index - 1, -1, -1):
            if getattr(frames[i], flag):
                return i
        return None

    def action_trick(self, step: int) -> None:
        found = self._find(step, "trick_start")
        if found is not None:
            self._go(found)

    def action_round(self, step: int) -> None:
        found = self._find(step, "round_start")
        if found is not None:
            self._go(found)
        elif step < 0:
            self._go(0)

    def action_hands(self) -> None:
        self.spoil = not self.spoil
        self.show()  # the status line says which hands are shown (no toast over the entries)

    def action_back(self) -> None:
        self.app.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        n = len(self.frames)
        if action == "step":
            step = parameters[0] if parameters else 1
            ok = self.index > 0 if step < 0 else self.index < n - 1
            return True if ok else None
        if action == "trick":
            return True if n and self._find(parameters[0], "trick_start") is not None else None
        if action == "round":
            if parameters[0] < 0:
                return True if self.index > 0 else None
            return True if n and self._find(1, "round_start") is not None else None
        return True

    # -- drawing ---------------------------------------------------------------------------------

    def show(self) -> None:
        replay = self.replay
        frames = self.frames
        if replay is None or not frames:
            return
        frame = frames[self.index]
        where = []
        if frame.round:
            where.append(f"round {frame.round}")
        if frame.trick:
            where.append(f"trick {frame.trick}")
        loading = "" if replay.done else f" (reading {len(frames)} of {replay.total})"
        self.query_one("#title", Static).update(
            f"Replay · entry {frame.seq} of {replay.total - 1}{loading}"
            + (" · " + " · ".join(where) if where else "")
            + f" · head {frame.head} · {self.path.name}"
        )
        state = frame.state
        if state is not None and not hasattr(state, "trick"):
            state = None  # not a Vampire Queen state: name the seats only, never crash
        seats = self.query_one(SeatList)
        if state is not None:
            seats.show(seat_rows(state, frame.names, None))
        else:
            seats.update("\n".join(f"  seat {i}: {n}" for i, n in enumerate(frame.names)) or "  (no seats yet)")
        self.query_one(TrickView).show(state, frame.names)
        self._show_hands(replay, frame)
        self._show_entries(frames)
        hands = (
            "h: every hand at every step of a round whose seeds the log reveals" if self.spoil else "h: show every hand"
        )
        self.query_one("#replay-status", Static).update(Text.assemble(frame.status, "  ", (f"({hands})", "dim")))
        self.refresh_bindings()

    def _show_hands(self, replay: Replay, frame: Frame) -> None:
        panel = self.query_one("#replay-hands", Static)
        rows = hands_at(replay, frame, self.spoil)
        if not rows:
            panel.display = False
            return
        text = Text(no_wrap=True, overflow="ellipsis")
        state = frame.state
        if rows[0][1] == "kept":
            panel.border_title = f"Round {len(state.round_scores)}: hands at the end (seeds revealed)"
        else:
            panel.border_title = "Every hand (from the seeds this log reveals later)"
        for s, label, cards in rows:
            name = frame.names[s] if s < len(frame.names) else f"seat {s}"
            line = f"{name[:12]:<12} {cards_text(cards) or '(no cards)'}"
            if label == "kept":
                line += f"  = {points(cards)} points"
            text.append(line + "\n")
        text.rstrip()
        panel.update(text)
        panel.display = True

    def _show_entries(self, frames: list[Frame]) -> None:
        panel = self.query_one("#replay-entries", Static)
        height = max(panel.size.height, 4) if panel.size.height else 8
        width = max(panel.size.width, 20) if panel.size.width else 76
        lines: list[Text] = []
        used = 0
        i = self.index
        while i >= 0 and used < height:
            frame = frames[i]
            block = [Text(line, style="bold reverse" if i == self.index else "") for line in frame.lines]
            if i == self.index:
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
            i -= 1
        # Drop whole lines from the top until the current entry (last) fits at the bottom.
        while len(lines) > 1 and sum(1 + (len(t) - 1) // width for t in lines) > height:
            lines.pop(0)
        text = Text()
        for j, line in enumerate(lines):
            text.append_text(line)
            if j < len(lines) - 1:
                text.append("\n")
        panel.update(text)
