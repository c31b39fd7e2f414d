"""A table against bots that can be brought back: ``vampire play`` and ``vampire play --resume LOG``.

Beside the host's log ``LOG`` (``x.vtlog``) a private folder ``LOG.play/`` (mode 0700) keeps what
the table needs to go on after its player quit or its terminal died:

- ``table.json``: ``{"name": the player's seat name, "game": the game's name, "levels": [bot
  level, …] in seat order after the player}``;
- ``host.key``: the host's key (it signs the entries and the heads: PROTOCOL.md 4);
- ``you/``: the player's key (``key``) and its copy of the log and its seat's secrets
  (``table.vtlog``, ``seat.secrets``: :meth:`net.client.Store.in_dir`);
- ``bots/N/``: bot N's ``key``, its ``seed`` (the bot's random generator is seeded from it again,
  so that it brings the same deck) and its log and secrets.

The player's and the bots' logs are copies of the host's, which is fsynced at every entry before
any of them gets it: they are fsynced when they close (``Store.in_dir(…, sync_log=False)``), and a
client whose copy ends early after a crash catches up from the host.

The folder goes when the game ends (:func:`forget_play`): the log alone replays and audits it.

:func:`open_play` opens a new table so; :func:`resume_play` reopens the host from ``LOG``
(every entry folded again: :meth:`engine.sequencer.Sequencer.replay`) and starts the player and
the bots again from their folders: each client catches up from its own log and secrets and plays
on. Both run on the caller's asyncio loop (the app's).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import VampireError
from tui.files import shell_path, vampire_command


@dataclass(frozen=True)
class PlayFolder:
    """What ``LOG.play/table.json`` says: the player's seat ``name``, the ``game`` and the bots'
    ``levels`` in seat order after the player."""

    name: str
    game: str
    levels: tuple[str, ...]


def play_dir_of(log: Path) -> Path:
    """The folder beside ``log`` (a ``vampire play`` table's log) that brings the table back."""
    return log.with_name(log.name + ".play")


def read_play_folder(log: Path) -> PlayFolder:
    """What the play folder of ``log`` says. Raises VampireError (a sentence) when ``log`` is not
    a table against bots this program can bring back."""
    folder = play_dir_of(log)
    if not log.is_file():
        if log.exists():  # a folder, a named pipe, a device: said as what it is
            from engine.files import open_regular

            try:
                open_regular(log).close()
            except OSError as err:
                raise VampireError(f"Cannot read the log file {log}: {err.strerror or err}.") from None
        raise VampireError(f"There is no log file {log}.")
    try:
        data = json.loads((folder / "table.json").read_text(encoding="utf-8"))
        found = PlayFolder(str(data["name"]), str(data["game"]), tuple(str(lv) for lv in data["levels"]))
    except FileNotFoundError:
        if _ended(log):  # the folder goes when the game ends
            raise VampireError(
                f"The game in {log} is over: replay it with {vampire_command()} replay {shell_path(log)}."
            ) from None
        raise VampireError(
            f"{log} is not a game against bots this program can bring back (no {folder.name} beside it): "
            f"a hosted table comes back with {vampire_command()} host --resume."
        ) from None
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise VampireError(f"The folder {folder} that brings {log.name} back cannot be read: {err}.") from None
    return found


def _ended(log: Path) -> bool:
    """``log`` is a readable log whose last entry is `end`."""
    from engine.protocol.log import read_log

    try:
        entries = read_log(log).entries
    except Exception:  # unreadable, not a log: said elsewhere
        return False
    return bool(entries) and entries[-1].kind == "end"


def forget_play(log: Path) -> None:
    """Delete the play folder of ``log`` (its keys and secrets), once its game is over: the log
    alone replays and audits it. A folder that cannot be deleted is left as it is."""
    import shutil

    folder = play_dir_of(log)
    if folder.is_dir() and not folder.is_symlink():
        shutil.rmtree(folder, ignore_errors=True)


def resumable(log: Path) -> bool:
    """``log`` is a game against bots that stopped before its end and can be brought back."""
    from engine.protocol.log import read_log

    try:
        read_play_folder(log)
        entries = read_log(log).entries
    except Exception:  # unreadable, torn beyond repair, not ours: not offered
        return False
    return bool(entries) and entries[-1].kind != "end"


def resume_spec(log: Path) -> Any:
    """The :class:`tui.session.LocalTableSpec` that brings back the game against bots saved in
    ``log`` (``vampire play --resume LOG``, the home screen's list of games to go on with).
    Raises VampireError (a sentence) for a log that is not such a table, or whose game is over."""
    from engine.protocol.log import read_log
    from tui.session import LocalTableSpec

    found = read_play_folder(log)
    check_not_in_use(log)
    entries = read_log(log).entries
    if not entries:
        raise VampireError(f"The log file {log} holds no table.")
    if entries[-1].kind == "end":
        raise VampireError(f"The game in {log} is over: replay it with {vampire_command()} replay {shell_path(log)}.")
    return LocalTableSpec(found.name, found.levels, game=found.game, resume=log)


def check_not_in_use(log: Path) -> None:
    """Raise VampireError (one sentence) when another vampire process writes to ``log``: it holds
    the log writer's lock (:func:`engine.files.try_lock`; a log has one writer). Asked before any
    screen, so that a second ``vampire play --resume LOG`` says so and stops; the lock taken to ask
    goes at once. A file that cannot be opened is said elsewhere."""
    import os

    from engine.files import try_lock

    try:
        fd = os.open(log, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError:
        return
    try:
        free = try_lock(fd)
    except OSError:
        free = True  # a lock that cannot be asked: the writer says what it finds
    finally:
        os.close(fd)
    if not free:
        raise VampireError(
            f"The log file {log} is in use by another vampire process (a game open in another window): "
            "close that one first, or go on playing there."
        )


def _write_json(path: Path, data: Mapping[str, Any]) -> None:
    from engine.files import write_private

    write_private(path, json.dumps(data, ensure_ascii=False).encode("utf-8"), replace=True)


def _bot_rng(folder: Path) -> random.Random:
    """Bot ``folder``'s random generator, seeded from its ``seed`` file (made first if missing)."""
    from engine.files import write_private

    path = folder / "seed"
    if not path.exists():
        write_private(path, str(random.SystemRandom().getrandbits(64)).encode(), replace=False)
    return random.Random(int(path.read_text()))


async def open_play(
    game: str,
    levels: Sequence[str],
    *,
    name: str,
    save: Path,
    options: Mapping[str, Any],
    brought: Any,
    games: Mapping[str, Any],
    facts: Mapping[str, str] | None = None,
    player_bot: Any = None,
    connect_timeout: float = 30.0,
) -> Any:
    """Open a table of ``1 + len(levels)`` seats on 127.0.0.1 whose log is ``save`` and whose
    play folder (:func:`play_dir_of`) brings it back: the player takes seat 0 (bringing
    ``brought``; ``player_bot``: a bot factory that plays for it, None for a person), then one
    bot per level. Returns a ``net.local.LocalTable``. Raises OptionError,
    BotSpecError, VampireError (a file that cannot be written, a peer not seated in time)."""
    from engine.opening import bot_names, open_sequencer, order_table
    from engine.seat import now_ms
    from net.local import load_or_make_key

    order = order_table(game, people=1, bots=levels, seats=1 + len(levels), rules=dict(options), title="local table")
    folder = play_dir_of(save)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    names = bot_names(len(levels), [name])
    _write_json(folder / "table.json", {"name": name, "game": game, "levels": list(levels), "bots": names})
    sequencer = open_sequencer(order, load_or_make_key(folder / "host.key"), save, now_ms)
    return await _run(sequencer, folder, name, names, levels, games, brought, facts, player_bot, connect_timeout)


async def resume_play(
    save: Path, games: Mapping[str, Any], player_bot: Any = None, connect_timeout: float = 30.0
) -> tuple[Any, PlayFolder]:
    """Bring back the table against bots whose log is ``save``: its host from the log, the player
    (``player_bot``: as :func:`open_play`) and every bot from the play folder. Returns (the ``net.local.LocalTable``, what the folder
    says). Raises VampireError (a sentence) for a log that is not such a table, is over, or cannot
    be replayed."""
    from engine.opening import reopen_sequencer
    from net.local import load_or_make_key

    found = read_play_folder(save)
    folder = play_dir_of(save)
    sequencer = reopen_sequencer(save, load_or_make_key(folder / "host.key"))
    if sequencer.table.ended:
        if sequencer.log is not None:
            sequencer.log.close()
        raise VampireError(f"The game in {save} is over: replay it with {vampire_command()} replay {shell_path(save)}.")
    try:
        data = json.loads((folder / "table.json").read_text(encoding="utf-8"))
        names = [str(n) for n in data.get("bots", [])]
    except (OSError, ValueError):
        names = []
    table = sequencer.table
    if len(names) != len(found.levels):
        names = [s.name for s in table.seats[1:]][: len(found.levels)]
    local = await _run(
        sequencer, folder, found.name, names, found.levels, games, None, None, player_bot, connect_timeout
    )
    return local, found


async def _run(
    sequencer: Any,
    folder: Path,
    name: str,
    bot_names: Sequence[str],
    levels: Sequence[str],
    games: Mapping[str, Any],
    brought: Any,
    facts: Mapping[str, str] | None,
    player_bot: Any,
    connect_timeout: float,
) -> Any:
    """Serve ``sequencer`` on loopback and start the player's and the bots' clients from
    ``folder``, each waiting for the one before it to hold its seat (seat order: the player, then
    the bots)."""
    from net.client import Store
    from net.host import Host
    from net.local import LOOPBACK, LocalTable, bot_client, load_or_make_key, seat_in_turn
    from net.session import Session

    host = Host(sequencer)
    await host.start(LOOPBACK, 0)
    address = (LOOPBACK, host.port)
    you = folder / "you"
    session = Session.connect(
        address,
        load_or_make_key(you / "key"),
        name=name,
        store=Store.in_dir(you, sync_log=False),  # a copy of the host's log, fsynced first here
        bot=player_bot,
        brought=brought,
        games=games,
        facts=facts,
    )

    taken = [brought] if brought is not None else []  # each bot brings a deck unlike the seats before it

    def bot(i: int, bot_name: str, level: str) -> Callable[[], Any]:
        """Bot ``i``'s client, from its folder (made private on first use)."""

        def make() -> Any:
            bot_folder = folder / "bots" / str(i)
            bot_folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            return bot_client(
                address,
                level,
                name=bot_name,
                key=load_or_make_key(bot_folder / "key"),
                store=Store.in_dir(bot_folder, sync_log=False),
                rng=_bot_rng(bot_folder),
                games=games,
                taken=taken,
            )

        return make

    bots = [bot(i, n, lv) for i, (n, lv) in enumerate(zip(bot_names, levels, strict=True))]
    return await seat_in_turn(LocalTable(host, session), bots, connect_timeout)
