"""Shared helpers for the protocol tests (test_protocol_*.py, test_audit_cli.py).

A whole game through the signed log costs seconds of CPU (every seat folds and verifies every
entry), so each distinct game is played once per test session and cached here (a plain cache,
not a pytest fixture, so that several test modules share it). Also: log-file surgery (frames,
re-signing), and a tamper hook that can see the game it runs in.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.audit import AuditReport, audit_bytes, audit_file
from engine.games import all_rules
from engine.local import LocalGame, new_local_game
from engine.protocol.log import FRAME_HEADER, LOG_MAGIC, Entry, encode_frame, parse_log, sign_entry, sign_head
from tests.support.positions import once_per_run, run_folder

GAMES = all_rules()

#: Every entry kind a Vampire Queen game through the protocol writes.
QUEEN_KINDS = (
    "table",
    "join",
    "start",
    "rand-commit",
    "rand-reveal",
    "key",
    "shuffle",
    "share",
    "move",
    "seed-reveal",
    "end",
)

# On a RAM disk when there is one: every entry and every secret is fsynced.
_ROOT = Path(tempfile.mkdtemp(prefix="vt-protocol-tests-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
atexit.register(shutil.rmtree, _ROOT, True)
_counter = 0


def scratch_dir(name: str, root: Path | None = None) -> Path:
    """A fresh directory for one game's log and secrets, in ``root`` (default: this process's
    scratch folder, removed when the process ends)."""
    global _counter
    _counter += 1
    path = (root or _ROOT) / f"{os.getpid()}-{_counter:03d}-{name}"
    path.mkdir()
    return path


@dataclass
class Played:
    """A finished (or stopped) game: the live objects and what was recorded while it ran.

    ``views[seq][seat]``: (QueenView, dict of the seat's decoded cards, known_cards()) right after
    every seat folded entry ``seq``; ``host_digests[seq]``: the host's digest after entry ``seq``;
    ``seat_digests[seq]``: every seat's digest then.
    """

    game: LocalGame
    dir: Path
    log: Path
    host_key: Ed25519PrivateKey
    seat_keys: list[Ed25519PrivateKey]
    names: list[str]
    secrets: list[Path]
    views: dict[int, list[tuple[Any, dict, dict]]] = field(default_factory=dict)
    host_digests: dict[int, bytes] = field(default_factory=dict)
    seat_digests: dict[int, list[bytes]] = field(default_factory=dict)

    @property
    def data(self) -> bytes:
        return self.log.read_bytes()

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(self.game.host.table.entries)


def play(
    seats: int,
    seed: int,
    rounds: int = 1,
    *,
    record: bool = False,
    tamper: Callable[[int, str, dict], dict] | None = None,
    name: str = "game",
    levels: list[str | None] | None = None,
    root: Path | None = None,
) -> Played:
    """Play a whole Vampire Queen game of random bots through the protocol, saving its log and
    every seat's secrets file (in a fresh folder of ``root``: :func:`scratch_dir`); with
    ``record``, keep every seat's live view and every digest after each entry."""
    d = scratch_dir(name, root)
    g = new_local_game(
        "queen",
        levels or ["random"] * seats,
        {"rounds": rounds},
        save=d / "game.vtlog",
        secrets_dir=d,
        seed=seed,
        tamper=tamper,
    )
    if isinstance(tamper, Cheat):
        tamper.g = g
    played = Played(
        g,
        d,
        d / "game.vtlog",
        g.host.key,
        [s.key for s in g.seats],
        [s.name for s in g.seats],
        [d / f"seat{i}.secrets" for i in range(seats)],
    )

    def snapshot() -> None:
        seq = len(g.host.table.entries) - 1
        played.host_digests[seq] = g.host.table.digest()
        played.seat_digests[seq] = [s.table.digest() for s in g.seats]
        played.views[seq] = [(s.view(), dict(s.known), s.known_cards()) for s in g.seats]

    if record:
        snapshot()
    for _ in range(100_000):
        if not g.step():
            break
        if record:
            snapshot()
    return played


@functools.cache
def saved_game() -> Played:
    """THE session game: 4 seats, one round, fixed seed, with live views and digests recorded;
    played once per test run (:func:`tests.support.positions.once_per_run`, its files in the run's
    folder), one copy per process."""
    return once_per_run(
        "queen-session4", lambda: play(4, seed=20240601, record=True, name="session4", root=run_folder())
    )


@functools.cache
def other_game() -> Played:
    """A second, independent table: the 8-seat game (longer than the session game, so any of its
    entries can be spliced at the same seq into it); played once per test run, like
    :func:`saved_game`."""
    return once_per_run("queen-eight", lambda: play(8, seed=8080, name="eight", root=run_folder()))


# --- log surgery ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """One frame of a log file: ``start`` (offset of its 4-byte length), ``end`` (one past its last
    byte), and the entry and head signature it holds."""

    start: int
    end: int
    entry: Entry
    head: bytes | None

    @property
    def body_start(self) -> int:
        return self.start + FRAME_HEADER


def frames_of(data: bytes) -> list[Frame]:
    """The frames of a clean log file, in order (frame i holds the entry of seq i)."""
    log = parse_log(data)
    out, pos = [], len(LOG_MAGIC)
    for entry, head in zip(log.entries, log.heads, strict=False):
        n = int.from_bytes(data[pos : pos + FRAME_HEADER], "big")
        out.append(Frame(pos, pos + FRAME_HEADER + n, entry, head))
        pos += FRAME_HEADER + n
    assert pos == len(data), "the saved log has bytes after its last frame"
    return out


def log_bytes(frames: list[bytes]) -> bytes:
    """A log file from encoded frames."""
    return LOG_MAGIC + b"".join(frames)


def raw_frames(data: bytes) -> list[bytes]:
    """The frames of a clean log, as their exact bytes."""
    return [data[f.start : f.end] for f in frames_of(data)]


def resign(
    entry: Entry,
    key: Ed25519PrivateKey,
    *,
    prev: bytes | None = None,
    body: dict | None = None,
    table: bytes | None = None,
) -> Entry:
    """``entry`` signed again by ``key``, with optional changes (same seq, kind and time)."""
    return sign_entry(
        key,
        table=entry.table if table is None else table,
        seq=entry.seq,
        prev=entry.prev if prev is None else prev,
        kind=entry.kind,
        body=entry.body if body is None else body,
        time_ms=entry.time,
    )


def rechain(
    entries: list[Entry], keys_by_author: dict[bytes, Ed25519PrivateKey], host_key: Ed25519PrivateKey, start: int
) -> list[bytes]:
    """Encoded frames for ``entries`` where every entry from index ``start`` on is re-signed by its
    own author on the new previous id, each with a fresh head signature by the host: the log a
    coalition of every key holder could forge. ``entries[start]`` must already be the altered
    entry (it is kept as given, only re-chained onto its predecessor)."""
    frames: list[bytes] = []
    out: list[Entry] = []
    for i, e in enumerate(entries):
        if i > start:
            e = resign(e, keys_by_author[e.author], prev=out[-1].id)
        out.append(e)
        frames.append(encode_frame(e, sign_head(host_key, out[0].id, e.seq, e.id)))
    return frames


def audit(data: bytes, name: str = "tampered.vtlog") -> AuditReport:
    return audit_bytes(data, name, GAMES)


def audit_path(path: Path) -> AuditReport:
    return audit_file(path, GAMES)


# --- cheating seats -----------------------------------------------------------------------------


class Cheat:
    """A tamper hook that sees the game: ``fn(game, seat, kind, body)`` returns the body to sign
    instead, or None to leave the entry alone. ``fired`` lists (seat, kind, seq) of each entry it
    changed (seq: where the entry goes in the log)."""

    def __init__(self, fn: Callable[[LocalGame, int, str, dict], dict | None]) -> None:
        self.fn = fn
        self.g: LocalGame | None = None
        self.fired: list[tuple[int, str, int]] = []

    def __call__(self, seat: int, kind: str, body: dict) -> dict:
        if self.g is None:
            return body
        out = self.fn(self.g, seat, kind, body)
        if out is None:
            return body
        self.fired.append((seat, kind, len(self.g.host.table.entries)))
        return out


def step_until(g: LocalGame, done: Callable[[LocalGame], bool], limit: int = 5000) -> None:
    """Step the game until ``done(g)``; fail if it ends first."""
    for _ in range(limit):
        if done(g):
            return
        if not g.step():
            break
    assert done(g), "the game ended before the awaited point"
