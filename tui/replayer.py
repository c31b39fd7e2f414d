"""A saved log as a list of frames the replay screen can step through, forward and back.

Every entry is folded into one fresh :class:`engine.table.Table` (so a replay checks the log as it
goes, like ``vampire replay --text``); after each entry a :class:`Frame` keeps what the screen shows
at that step. Game states are immutable values, so a frame keeps the state itself, not a copy, and
stepping back costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.protocol.log import LogFile, read_log
from engine.replay import describe_entry
from engine.table import Table, TableRefusal
from tui.files import shell_path, vampire_command
from tui.games import FrontEnd, Marks, ReplayKit, find_front_end
from tui.table_text import head_text, waiting_text, work_progress


@dataclass(frozen=True)
class Frame:
    """The table just after entry ``seq``.

    ``lines``: the entry in words (and what it caused); ``state``: the game state (None before the
    game starts); ``names``: seat names; ``head``: the head as people compare it; ``status``: what
    the table does or waits for; ``marks``: where in the game, in the game's units (a round, a
    trick), and which of them this entry began (:class:`tui.games.Marks`).
    """

    seq: int
    kind: str
    lines: tuple[str, ...]
    state: Any
    names: tuple[str, ...]
    head: str
    status: str
    marks: Marks


@dataclass
class Replay:
    """Frames of one log. ``total``: entries in the file; ``cards``: for every shuffle event whose
    seeds were revealed, the identity at each position; ``revealed_at``: the seq of that reveal;
    ``error``: why folding stopped early (a refused entry), if it did."""

    path: Path
    log: LogFile
    frames: list[Frame] = field(default_factory=list)
    cards: dict[int, tuple[str | None, ...]] = field(default_factory=dict)
    revealed_at: dict[int, int] = field(default_factory=dict)
    error: str = ""
    done: bool = False

    @property
    def total(self) -> int:
        return len(self.log.entries)


def open_replay(path: Path) -> Replay:
    """Read the log at ``path``. Raises VampireError (LogFileError) for a file that is not a log."""
    return Replay(Path(path), read_log(path))


def game_of(replay: Replay) -> str | None:
    """The game the log's table plays (its first entry's ``game``), None when the log does not say."""
    entries = replay.log.entries
    if not entries:
        return None
    body = entries[0].body
    game = body.get("game") if isinstance(body, dict) else None
    return game if isinstance(game, str) else None


def front_end_for(replay: Replay) -> FrontEnd:
    """The front end of the log's game (:func:`tui.games.find_front_end`)."""
    return find_front_end(game_of(replay))


def not_shown_sentence(replay: Replay, front: FrontEnd) -> str | None:
    """Why the replay screen cannot draw this log's game, in a sentence (None: it can)."""
    if front.replay is not None or game_of(replay) is None:
        return None
    return (
        f"This log is a game of {front.title}, which the replay screen cannot draw yet: "
        f"{vampire_command()} replay {shell_path(replay.path)} --text prints any table, entry by entry."
    )


def fold_frames(replay: Replay, games: Mapping[str, Any], kit: ReplayKit | None = None) -> Iterator[int]:
    """Fold every entry of ``replay.log`` into ``replay.frames``; yields the frame count as it goes.
    ``kit`` marks where each frame is in the game (None: nowhere). Stops at the first entry the
    table refuses (``replay.error`` says why)."""
    table = Table(games)
    prev_state: Any = None
    marks = Marks()
    totals: dict[Any, int] = {}
    for entry in replay.log.entries:
        revealed_before = {ev.number for ev in table.events if ev.cards is not None}
        try:
            notes = table.apply(entry)
        except TableRefusal as err:
            line = f"[{entry.seq:>4}] REFUSED ({err.code}): {err.detail}"
            replay.error = line
            replay.frames.append(
                Frame(
                    entry.seq,
                    "refused",
                    (line,),
                    prev_state,
                    tuple(table.names),
                    head_text(table),
                    "The log stops being valid here.",
                    Marks(marks.where),
                )
            )
            break
        lines = describe_entry(table, entry, notes)
        for ev in table.events:
            if ev.cards is not None and ev.number not in revealed_before:
                replay.cards[ev.number] = tuple(ev.cards)
                replay.revealed_at[ev.number] = entry.seq
        if table.fault is not None:
            lines.append(f"[{entry.seq:>4}] " + table.fault.describe(table.names))
        state = table.gstate
        marks = kit.marks(marks, prev_state, state) if kit is not None else marks
        progress = work_progress(table, totals)
        status = progress.text if progress is not None else waiting_text(table, None)
        if table.phase == "over" or table.ended:
            status = "The game is over." + (" The host closed the table." if table.ended else "")
        replay.frames.append(
            Frame(
                entry.seq,
                entry.kind,
                tuple(lines),
                state,
                tuple(table.names),
                head_text(table),
                status,
                marks,
            )
        )
        prev_state = state
        yield len(replay.frames)
        if table.fault is not None:
            break
    replay.done = True
