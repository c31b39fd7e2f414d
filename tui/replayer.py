"""A saved log as a list of frames the replay screen can step through, forward and back.

Every entry is folded into one fresh :class:`engine.table.Table` (so a replay checks the log as it
goes, like ``vampire replay --text``); after each entry a :class:`Frame` keeps what the screen shows
at that step. Game states are immutable values, so a frame keeps the state itself, not a copy, and
stepping back costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.protocol.log import LogFile, read_log
from engine.replay import describe_entry
from engine.table import Table, TableRefusal
from tui.files import shell_path
from tui.present import head_text, waiting_text, work_progress


@dataclass(frozen=True)
class Frame:
    """The table just after entry ``seq``.

    ``lines``: the entry in words (and what it caused); ``state``: the game state (None before the
    game starts); ``names``: seat names; ``head``: the head as people compare it; ``status``: what
    the table does or waits for; ``round``/``trick``: where in the game (trick 0: between tricks or
    before the first); ``trick_start``/``round_start``: this entry began a trick / a round.
    """

    seq: int
    kind: str
    lines: tuple[str, ...]
    state: Any
    names: tuple[str, ...]
    head: str
    status: str
    round: int
    trick: int
    trick_start: bool
    round_start: bool


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


SHOWN_GAME = "queen"
"""The one game the replay screen draws (seats, trick, hands); ``vampire replay FILE --text`` prints any."""


def game_of(replay: Replay) -> str | None:
    """The game the log's table plays (its first entry's ``game``), None when the log does not say."""
    entries = replay.log.entries
    if not entries:
        return None
    body = entries[0].body
    game = body.get("game") if isinstance(body, dict) else None
    return game if isinstance(game, str) else None


def not_shown_sentence(replay: Replay, games: dict[str, Any]) -> str | None:
    """Why the replay screen cannot draw this log's game, in a sentence (None: it can)."""
    game = game_of(replay)
    if game is None or game == SHOWN_GAME:
        return None
    module = games.get(game)
    title = getattr(module, "title", None) or game
    return (
        f"This log is a game of {title}, and the replay screen shows Vampire Queen tables only: "
        f"vampire replay {shell_path(replay.path)} --text prints any table, entry by entry."
    )


def fold_frames(replay: Replay, games: dict[str, Any]) -> Iterator[int]:
    """Fold every entry of ``replay.log`` into ``replay.frames``; yields the frame count as it goes.
    Stops at the first entry the table refuses (``replay.error`` says why)."""
    table = Table(games)
    prev_state: Any = None
    trick = 0
    totals: dict[int, int] = {}
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
                    getattr(prev_state, "round", 0),
                    trick,
                    False,
                    False,
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
        trick_start = False
        round_start = False
        if state is not None and hasattr(state, "trick"):
            before_round = getattr(prev_state, "round", 0)
            if state.round != before_round:
                round_start = True
                trick = 0
            before_trick = getattr(prev_state, "trick", None)
            if state.trick is not None and before_trick is None:
                trick += 1
                trick_start = True
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
                getattr(state, "round", 0),
                trick,
                trick_start,
                round_start,
            )
        )
        prev_state = state
        yield len(replay.frames)
        if table.fault is not None:
            break
    replay.done = True


def hands_at(replay: Replay, frame: Frame, spoil: bool) -> list[tuple[int, str, tuple[str, ...]]]:
    """Every seat's hand at ``frame``, when the log lets it be known.

    Once a round's seeds are revealed (at its end) the hands are public: right after the reveal the
    frame shows the hands left at the end and the hands dealt. With ``spoil``, every hand is shown at
    every step of a round whose seeds the log reveals later. Returns (seat, label, cards) rows."""
    state = frame.state
    if state is None or not hasattr(state, "hands"):
        return []
    rows: list[tuple[int, str, tuple[str, ...]]] = []
    if state.phase == "play" or state.phase == "score":
        if not spoil or state.event < 0:
            return []
        cards = replay.cards.get(state.event)
        if cards is None:
            return []
        for s in range(state.seats):
            held = tuple(c.ident if c.ident is not None else (cards[c.pos[1]] or "?") for c in state.hands[s])
            held += tuple(f"H{h}" for h in state.hunters_of(s))
            rows.append((s, "holds", held))
        return rows
    if state.round_hands:
        for s, hand in enumerate(state.round_hands[-1]):
            rows.append((s, "kept", tuple(hand)))
    return rows
