"""Opening a table (DESIGN.md, "The command line"): the one place that turns what a person asked
for (a game, seats, bots, table rules, a title, a log file) into a checked order, and the order into
a host's :class:`~engine.sequencer.Sequencer` with the genesis `table` entry (PROTOCOL.md 4).

``vampire play``, ``vampire host``, ``vampire simulate --protocol``, the home screen and the tests
all open tables through :func:`order_table` and :func:`open_sequencer`; the network layer then
listens for the order's seats, and seats its bots with :func:`bot_names`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.errors import VampireError
from engine.files import open_regular
from engine.games import find_game
from engine.games.base import parse_options
from engine.games.spec import BotSpecError, GameSpec
from engine.protocol.log import LOG_MAGIC, LogWriter
from engine.sequencer import Sequencer

BOT_NAMES = (
    "Lisa",
    "Scott",
    "Justine",
    "Richard",
    "Steve",
    "Mina",
    "Lucian",
    "Carmilla",
    "Vlad",
    "Ilona",
    "Anatole",
    "Beckett",
)
"""Names bots take at a table, in order, skipping names already seated."""

MAX_TITLE = 64
"""The longest table title (characters) the genesis entry carries."""


@dataclass(frozen=True)
class TableOrder:
    """A checked request for a table.

    ``game``: the game's spec; ``seats``: seats at the table; ``people``: seats kept for persons
    (0 for a headless host or a table of bots); ``bots``: the bot level of each bot seat, in the
    order they sit down; ``options``: every table rule, typed, as sorted ``(name, value)`` pairs;
    ``title``: the table's name (at most :data:`MAX_TITLE` characters).
    """

    game: GameSpec
    seats: int
    people: int
    bots: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    title: str


def parse_rules(pairs: Sequence[str]) -> dict[str, str]:
    """``--rule name=value`` pairs into a mapping (the game's option schema types them).

    Raises VampireError for a pair without ``=`` or without a name."""
    rules: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise VampireError(f"--rule takes name=value, not {pair!r}")
        rules[name.strip()] = value.strip()
    return rules


def order_table(
    game: str,
    *,
    people: int = 0,
    bots: Sequence[str] = (),
    seats: int | None = None,
    rules: Mapping[str, Any] | None = None,
    title: str = "",
) -> TableOrder:
    """Check a table request and return its order.

    ``seats`` defaults to the game's default seat count, or more when people and bots need more.
    Raises UnknownGame, BotSpecError (a level the game has not; more bots than seats), OptionError
    (a rule the game has not, or a bad value), VampireError (a seat count the game is not played by).
    """
    spec = find_game(game)
    for level in bots:
        if level not in spec.bot_levels:
            raise BotSpecError(f"unknown bot level {level!r}: {spec.title} has {' or '.join(spec.bot_levels)}")
    wanted = people + len(bots)
    if seats is None:
        seats = max(wanted, spec.default_seats)
    elif wanted > seats:
        who = f"{len(bots)} bot{'s' if len(bots) != 1 else ''}"
        if people:
            who += " and your seat" if people == 1 else f" and {people} people"
        raise BotSpecError(f"{who} do not fit in {seats} seat{'s' if seats != 1 else ''}")
    spec.check_seats(seats)
    options = parse_options(spec.option_schema, dict(rules or {}))
    return TableOrder(spec, seats, people, tuple(bots), options, (title or spec.title)[:MAX_TITLE])


def open_sequencer(order: TableOrder, key: Ed25519PrivateKey, save: Path | None, clock: Callable[[], int]) -> Sequencer:
    """A host's sequencer for ``order`` with its genesis `table` entry appended (and written to
    ``save``, a new log file, when given); the entry records the card database the game reads
    (``carddb``: :attr:`~engine.games.spec.GameSpec.carddb`), if it has one. Raises VampireError when ``save`` already holds a table,
    and the table's refusal when the game refuses the order (nothing is left on disk then)."""
    from engine.games import all_rules

    if save is not None and (save.exists() or save.is_symlink()):
        if not save.is_file():
            raise VampireError(f"Cannot save the table in {save}: it is not a regular file.")
        if save.stat().st_size > 0:
            with open_regular(save) as f:
                log = f.read(len(LOG_MAGIC)) == LOG_MAGIC
            if not log:
                raise VampireError(f"{save} is not a vampire-table log file: choose another file to save the table in.")
            raise VampireError(f"{save} already holds a table: use --resume {save} to continue it.")
    writer = None
    if save is not None:
        save.parent.mkdir(parents=True, exist_ok=True)
        writer = LogWriter(save)
    sequencer = Sequencer(key, all_rules(), writer, clock)
    try:
        # The card database the game reads (its version, from the game's spec) goes in the genesis `table`.
        carddb = order.game.carddb() if order.game.carddb is not None else None
        sequencer.open_table(order.game.name, dict(order.options), order.seats, order.title, carddb)
    except BaseException:
        if writer is not None:
            writer.close()
            save.unlink(missing_ok=True)  # type: ignore[union-attr]
        raise
    return sequencer


def reopen_sequencer(save: Path, key: Ed25519PrivateKey, clock: Callable[[], int] | None = None) -> Sequencer:
    """A host's sequencer for the table saved in ``save``, every entry folded again
    (:meth:`~engine.sequencer.Sequencer.replay`), appending to the same file (a torn last frame is
    cut off). Raises VampireError with a sentence for a file that holds no table, a table opened
    by another host key than ``key``, or a log the table refuses; the file is closed then."""
    from engine.games import all_rules
    from engine.protocol.identity import public_bytes, short_fingerprint
    from engine.seat import now_ms

    writer = LogWriter.open_existing(save)
    loaded = writer.loaded
    try:
        if not loaded.entries:
            raise VampireError(f"The log file {save} holds no table.")
        if loaded.entries[0].author != public_bytes(key):
            raise VampireError(
                f"The table in {save} was opened by the host key {short_fingerprint(loaded.entries[0].author)}, "
                f"not by this one ({short_fingerprint(public_bytes(key))})."
            )
        sequencer = Sequencer(key, all_rules(), writer, clock or now_ms)
        try:
            sequencer.replay(list(loaded.entries), list(loaded.heads))
        except VampireError as err:
            raise VampireError(f"The log file {save} cannot be replayed: {err}") from None
    except BaseException:
        writer.close()
        raise
    return sequencer


def bot_names(count: int, taken: Sequence[str] = ()) -> list[str]:
    """``count`` bot names, none equal to a name in ``taken`` nor to each other, ignoring case
    (the seats compare names so: :func:`engine.table.lobby.free_name`)."""
    used = {t.strip().casefold() for t in taken}
    names: list[str] = []
    for candidate in BOT_NAMES:
        if len(names) == count:
            break
        if candidate.casefold() not in used:
            names.append(candidate)
            used.add(candidate.casefold())
    n = 2
    while len(names) < count:
        candidate = f"{BOT_NAMES[len(names) % len(BOT_NAMES)]} {n}"
        if candidate.casefold() not in used:
            names.append(candidate)
            used.add(candidate.casefold())
        n += 1
    return names


def new_log_path(directory: Path, label: str = "") -> Path:
    """A fresh log file name in ``directory`` (made if missing): the time, this process, ``label``."""
    directory.mkdir(parents=True, exist_ok=True)
    suffix = f"-{label}" if label else ""
    return directory / f"{datetime.now():%Y%m%d-%H%M%S}-{os.getpid()}{suffix}.vtlog"
