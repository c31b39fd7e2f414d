"""A saved log as a sequence of frames the replay screen can step through, forward and back, in
memory bounded whatever the log's size (docs/protocol.md 7.4, "Large logs").

Every entry is folded into one fresh :class:`engine.table.Table` (so a replay checks the log as it
goes, like ``vampire replay --text``); after each entry a :class:`Frame` says what the screen shows
at that step. The log is read as a stream (:class:`engine.protocol.log.LogStream`), never whole:
:class:`Frames` keeps the first and the last frames read, a copy of the folded table every so
many entries (a checkpoint, with the file offset of the next entry), and where each of the game's
units began; a frame outside those is made again when it is shown, by folding the entries read
back from the file from the checkpoint before it, and a window of frames around it is kept.
"""

from __future__ import annotations

import copy
import threading
from array import array
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from engine.games.base import Note
from engine.protocol.log import Entry, LogStream, stream_log
from engine.replay import NoteFold, NoteSieve, describe_entry
from engine.table import EntryKind, Keep, Table, TableRefusal
from tui.files import shell_path, vampire_command
from tui.games import FrontEnd, Marks, ReplayKit, find_front_end
from tui.table_text import head_text, waiting_text, work_progress

KEPT_FRAMES = 256
"""Frames kept at the start of the log, at its end, and around the one shown (each)."""

CHECKPOINTS = 16
"""At most this many copies of the folded table are kept; when more would be, every other one
is dropped and the distance between them doubles."""

FIRST_SPACING = 64
"""Entries between two checkpoints while the log is short."""


@dataclass(frozen=True)
class Frame:
    """The table just after entry ``seq``.

    ``lines``: the entry in words (and what it caused); ``state``: the game state (None before the
    game starts); ``names``: seat names; ``head``: the head as people compare it; ``status``: what
    the table does or waits for; ``marks``: where in the game, in the game's units (a round, a
    trick), and which of them this entry began (:class:`tui.games.Marks`); ``notes``: the notes
    of a move, each said by the line of the same index (a reader may fold them with its
    neighbours': :func:`fold_run`); () for another entry; ``repeats``: the entry only repeats
    what the narration said already (the game's :attr:`tui.games.FrontEnd.sieve`: a seat's "done
    voting" again), so a reader of the entries before the current one leaves it out.
    """

    seq: int
    kind: str
    lines: tuple[str, ...]
    state: Any
    names: tuple[str, ...]
    head: str
    status: str
    marks: Marks
    notes: tuple[Note, ...] = ()
    repeats: bool = False


Sieve = Callable[[], NoteSieve] | None
"""A game's fresh sieve for each reader of its narration (:attr:`tui.games.FrontEnd.sieve`)."""


class _Folder:
    """Turns entries into frames: the table and what a frame is made from (the previous state,
    the marks, the work totals of :func:`tui.table_text.work_progress`, the game's sieve of the
    notes said so far)."""

    def __init__(self, games: Mapping[str, Any], kit: ReplayKit | None, sieve: Sieve = None) -> None:
        self.games = games
        self.kit = kit
        self.shows = sieve() if sieve is not None else None
        self.table = Table(games, keep=Keep.LAST)
        self.prev_state: Any = None
        self.marks = Marks()
        self.totals: dict[Any, int] = {}
        self.stopped = False
        self.refusal = ""
        """The line of the entry the table refused, once it refused one."""

    def copy(self) -> _Folder:
        """A deep copy sharing the games' rules (and the kit), or raises what copying raises."""
        memo: dict[int, Any] = {id(self.games): self.games, id(self.kit): self.kit}
        if self.table.game is not None:  # only the log's game: the others are never loaded
            memo[id(self.table.game)] = self.table.game
        return copy.deepcopy(self, memo)

    def step(self, entry: Entry) -> tuple[Frame, list[int]]:
        """The frame of ``entry``, and the shuffle events whose cards it revealed. Sets
        :attr:`stopped` when nothing may follow (a refused entry or a proven cheat)."""
        table = self.table
        revealed_before = {ev.number for ev in table.events if ev.cards is not None}
        try:
            notes = table.apply(entry)
        except TableRefusal as err:
            line = f"[{entry.seq:>4}] REFUSED ({err.code}): {err.detail}"
            self.stopped = True
            self.refusal = line
            frame = Frame(
                entry.seq,
                "refused",
                (line,),
                self.prev_state,
                tuple(table.names),
                head_text(table),
                "The log stops being valid here.",
                Marks(self.marks.where),
            )
            return frame, []
        lines = describe_entry(table, entry, notes)
        revealed = [ev.number for ev in table.events if ev.cards is not None and ev.number not in revealed_before]
        if table.fault is not None:
            lines.append(f"[{entry.seq:>4}] " + table.fault.describe(table.names))
            self.stopped = True
        state = table.gstate
        marks = self.kit.marks(self.marks, self.prev_state, state) if self.kit is not None else self.marks
        progress = work_progress(table, self.totals)
        status = progress.text if progress is not None else waiting_text(table, None)
        if table.phase == "over" or table.ended:
            status = "The game is over." + (" The host closed the table." if table.ended else "")
        self.prev_state, self.marks = state, marks
        said = tuple(notes) if entry.kind == EntryKind.MOVE and len(notes) == len(lines) else ()
        shown = [self.shows(n) for n in notes] if self.shows is not None else []
        frame = Frame(
            entry.seq,
            entry.kind,
            tuple(lines),
            state,
            tuple(table.names),
            head_text(table),
            status,
            marks,
            said,
            repeats=bool(said) and not any(shown),
        )
        return frame, revealed


@dataclass(frozen=True)
class _Checkpoint:
    """Frame ``index`` is made by folding the entry at byte ``offset`` into ``folder`` (a copy
    of it: a checkpoint is never changed); ``folder`` None: a fresh one (the log's start)."""

    index: int
    offset: int
    folder: _Folder | None


class Frames(Sequence[Frame]):
    """The frames of one log, as a read-only sequence (``len()``, ``[i]``, negative ``i`` from the
    end) that grows while the log is folded (:func:`fold_frames`). What it holds is bounded: the
    first and the last :data:`KEPT_FRAMES` frames, a window of as many around the last one read,
    at most :data:`CHECKPOINTS` copies of the table, and an index of where the game's units
    began (8 bytes per unit). Reading a frame outside those folds the log again from the
    checkpoint before it (from the file, in a stream). Safe to read from one thread while another
    folds."""

    def __init__(
        self, path: Path, games: Mapping[str, Any], kit: ReplayKit | None, host: bytes | None, sieve: Sieve = None
    ) -> None:
        self._path = path
        self._games = games
        self._kit = kit
        self._sieve = sieve
        self._host = host
        self._lock = threading.RLock()
        self._count = 0
        self._first: list[Frame] = []
        self._last: deque[Frame] = deque(maxlen=KEPT_FRAMES)
        self._window: dict[int, Frame] = {}
        self._checkpoints: list[_Checkpoint] = []
        self._spacing = FIRST_SPACING
        self._copyable = True
        self._starts: dict[str, array[int]] = {}
        self.refolds = 0
        """How many times frames were made again from a checkpoint (work, for tests)."""

    # -- building (the folding thread) --------------------------------------------------------

    def _checkpoint(self, folder: _Folder, offset: int) -> None:
        index = self._count
        if index == 0:
            self._checkpoints.append(_Checkpoint(0, offset, None))
            return
        if not self._copyable or index % self._spacing:
            return
        try:
            kept = folder.copy()
        except Exception:  # a table that cannot be copied: frames are made again from the start
            self._copyable = False
            return
        with self._lock:
            self._checkpoints.append(_Checkpoint(index, offset, kept))
            if len(self._checkpoints) > CHECKPOINTS:
                self._spacing *= 2
                self._checkpoints = [c for c in self._checkpoints if c.index % self._spacing == 0]

    def _add(self, frame: Frame) -> None:
        with self._lock:
            if self._count < KEPT_FRAMES:
                self._first.append(frame)
            self._last.append(frame)
            for unit in frame.marks.starts:
                self._starts.setdefault(unit, array("q")).append(self._count)
            self._count += 1

    # -- reading ------------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Frame: ...

    @overload
    def __getitem__(self, index: slice) -> list[Frame]: ...

    def __getitem__(self, index: int | slice) -> Frame | list[Frame]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        with self._lock:
            count = self._count
            i = index + count if index < 0 else index
            if not 0 <= i < count:
                raise IndexError(f"No frame {index}: {count} are read.")
            if i < len(self._first):
                return self._first[i]
            if i >= count - len(self._last):
                return self._last[i - (count - len(self._last))]
            found = self._window.get(i)
            if found is None:
                self._refold(i)
                found = self._window[i]
            return found

    def __iter__(self) -> Iterator[Frame]:
        for i in range(self._count):
            yield self[i]

    def starting(self, unit: str, index: int, step: int) -> int | None:
        """The nearest frame after ``index`` (``step`` > 0) or before it whose entry began ``unit``,
        or None."""
        with self._lock:
            starts = self._starts.get(unit)
            if not starts:
                return None
            if step > 0:
                at = bisect_right(starts, index)
                return starts[at] if at < len(starts) else None
            at = bisect_left(starts, index)
            return starts[at - 1] if at > 0 else None

    def _refold(self, i: int) -> None:
        """Make the frames around ``i`` again, from the nearest checkpoint before them."""
        low = max(0, i - KEPT_FRAMES // 2)
        high = min(self._count, low + KEPT_FRAMES)
        marks = [c.index for c in self._checkpoints]
        start = self._checkpoints[max(bisect_right(marks, low) - 1, 0)]
        folder = start.folder.copy() if start.folder is not None else _Folder(self._games, self._kit, self._sieve)
        prev = folder.table.entries.last
        stream: LogStream
        if prev is None:
            stream = stream_log(self._path)
        else:
            stream = LogStream(self._path, resume=(start.offset, prev), host=self._host)
        window: dict[int, Frame] = {}
        index = start.index
        for entry, _ in stream:
            if index >= high:
                break
            frame, _revealed = folder.step(entry)
            if index >= low:
                window[index] = frame
            index += 1
            if folder.stopped:
                break
        self.refolds += 1
        self._window = window


@dataclass
class Replay:
    """One log, read as its frames are needed. ``total``: entries in the file; ``torn``: its last
    frame was torn (and is left out); ``first``: its genesis entry (None for a log with none);
    ``frames``: the frames folded so far (:class:`Frames`, set by :func:`fold_frames`);
    ``cards``: for every shuffle event whose seeds were revealed, the identity at each position;
    ``revealed_at``: the seq of that reveal; ``error``: why folding stopped early (a refused
    entry), if it did."""

    path: Path
    total: int
    torn: bool
    first: Entry | None
    frames: Frames | list[Frame] = field(default_factory=list)
    cards: dict[int, tuple[str | None, ...]] = field(default_factory=dict)
    revealed_at: dict[int, int] = field(default_factory=dict)
    error: str = ""
    done: bool = False


def open_replay(path: Path) -> Replay:
    """Read the log at ``path`` through once, as a stream, checking every frame as
    :func:`engine.protocol.log.read_log` does, in bounded memory. Raises VampireError
    (LogFileError) for a file that is not a log, or a log with a corrupt frame."""
    stream = stream_log(path)
    first: Entry | None = None
    for entry, _ in stream:
        first = first or entry
    return Replay(Path(path), stream.count, stream.torn, first)


def game_of(replay: Replay) -> str | None:
    """The game the log's table plays (its first entry's ``game``), None when the log does not say."""
    if replay.first is None:
        return None
    body = replay.first.body
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


FOLD_REACH = 16
"""At most this many frames are read back from one to find the run it ends (a window's passes:
one per seat)."""


def fold_run(frames: Sequence[Frame], last: int, fold: NoteFold | None) -> tuple[int, str] | None:
    """The run of frames whose notes read as one line with the first note of ``frames[last]``
    (``fold``: the game's, e.g. a window's passes; each frame before it in the run says one note
    and nothing else): (the index of the run's first frame, the line: that frame's seq and the
    folded note), or None when that note folds with no frame's before it. The rest of
    ``frames[last]``'s lines follow the run's line."""
    if fold is None or not frames[last].notes:
        return None
    notes, found = [frames[last].notes[0]], None
    first = last
    while first > 0 and last - first < FOLD_REACH:
        before = frames[first - 1].notes
        joined = fold([before[0], *notes]) if len(before) == 1 else None
        if joined is None:
            break
        first -= 1
        notes.insert(0, before[0])
        found = joined
    if found is None:
        return None
    return first, f"[{frames[first].seq:>4}] {found.render(frames[last].names)}"


def fold_frames(replay: Replay, games: Mapping[str, Any], kit: ReplayKit | None = None) -> Iterator[int]:
    """Fold every entry of the log of ``replay`` (read again as a stream) into ``replay.frames``;
    yields the frame count as it goes. ``kit`` marks where each frame is in the game (None:
    nowhere). Stops at the first entry the table refuses (``replay.error`` says why)."""
    host = replay.first.author if replay.first is not None else None
    sieve = front_end_for(replay).sieve
    frames = Frames(replay.path, games, kit, host, sieve)
    replay.frames = frames
    folder = _Folder(games, kit, sieve)
    stream = stream_log(replay.path)
    for entry, _ in stream:
        frames._checkpoint(folder, stream.offset)
        frame, revealed = folder.step(entry)
        if folder.refusal:
            replay.error = folder.refusal
        for number in revealed:
            cards = folder.table.events[number].cards
            assert cards is not None
            replay.cards[number] = tuple(cards)
            replay.revealed_at[number] = entry.seq
        frames._add(frame)
        yield len(frames)
        if folder.stopped:
            break
    replay.done = True
