"""``vampire host`` and ``vampire join`` (DESIGN.md, "The command line"): argument handling lives
in :mod:`engine.cli`; this module runs them.

Until the TUI exists, a seat that belongs to a person (a non-headless host's own seat, ``join``
without ``--bot``) is played by a heuristic bot and the table's progress is printed; the TUI plugs
in by providing ``tui.run_session(session) -> int`` (an awaitable), which :func:`front_end` uses
when it exists.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from engine.errors import VampireError
from engine.protocol.identity import load_identity, new_key, public_bytes, short_fingerprint
from engine.protocol.log import LogWriter
from engine.seat import now_ms
from engine.sequencer import Sequencer
from net.client import Client, Store, data_dir, parse_address
from net.events import Backoff, Connection, Finished, Folded, Fork, HostFault, Refused, Timeouts, Waiting
from net.host import Host, lan_address, serve_table
from net.local import bot_client, bot_factory, load_or_make_key
from net.session import Session

CRASH_ENV = "VAMPIRE_TEST_CRASH_BEFORE"
"""Test hook: an entry kind; the client process kills itself (SIGKILL) when it has computed such
a duty (its secret on disk) and before it sends it."""


def login_name() -> str:
    """The profile used when ``--name`` is not given: the login name, or "player"."""
    try:
        name = getpass.getuser().strip()
    except Exception:
        name = ""
    return name or "player"


def printer(out: Callable[[str], None] = print) -> Callable[[str], None]:
    """A function printing a line with the time (``[HH:MM:SS] line``), flushed at once."""

    def say(line: str) -> None:
        out(f"[{datetime.now():%H:%M:%S}] {line}")
        sys.stdout.flush()

    return say


def timeouts_from(args: argparse.Namespace) -> tuple[Timeouts, Backoff]:
    """The time-outs and back-off of the hidden test options (``--ping``, ``--idle``,
    ``--backoff-max``)."""
    t = Timeouts()
    if getattr(args, "ping", None):
        t = Timeouts(ping=args.ping, idle=max(args.ping * 6, 1.0), hello=t.hello, body=t.body, write=t.write)
    b = Backoff(most=args.backoff_max) if getattr(args, "backoff_max", None) else Backoff()
    return t, b


def narrate(client: Client, say: Callable[[str], None], verbose: bool = True) -> None:
    """Print a client's events as lines (the table's notes, connection changes, refusals, stalls,
    fork evidence, the end)."""
    last = {"state": ""}

    def show(event: Any) -> None:
        if isinstance(event, Folded):
            if verbose:
                for line in event.notes:
                    say(line)
        elif isinstance(event, Connection):
            if event.state != last["state"] and event.state in ("connected", "disconnected", "stopped"):
                retry = f" (retrying in {event.retry:.1f} s)" if event.retry else ""
                say(f"{event.detail}{retry}")
            last["state"] = event.state
        elif isinstance(event, Refused):
            say(f"The host refused this seat's {event.kind} ({event.code}): {event.detail}")
        elif isinstance(event, Waiting):
            if event.seats:
                say(f"The table has waited {event.seconds:.0f} s on {', '.join(event.names)}.")
        elif isinstance(event, Fork):
            ev = event.evidence
            say(f"FORK: {ev.describe()} Head signatures: {ev.first.signature.hex()} and {ev.second.signature.hex()}")
        elif isinstance(event, HostFault):
            say(f"The host misbehaved: {event.detail}")
        elif isinstance(event, Finished):
            say(event.summary)
            say(f"state digest {event.digest}")

    client.listeners.subscribe(show)


async def front_end(
    session: Session,
    say: Callable[[str], None],
    host: Host | None = None,
    address: str | None = None,
    bots: Sequence[tuple[Client, str]] = (),
) -> int:
    """Run the person's side of ``session``: the TUI when it exists, else a heuristic bot with
    the table printed. For ``vampire host``: ``host`` is the table's host in this process (its
    lobby starts the game, adds and removes bots), ``address`` what friends type to join, and
    ``bots`` the bot clients already started with their levels. Returns an exit status."""
    try:
        from tui import run_session  # type: ignore[attr-defined]
    except ImportError:
        run_session = None
    if run_session is not None:
        if host is None:
            return int(await run_session(session) or 0)
        return int(await run_session(session, host=host, address=address, bots=list(bots)) or 0)
    if host is not None:
        host.auto_start = True  # nobody can press Start: the table starts once every seat is taken
    say("The table's screen is not built yet: a heuristic bot plays your seat.")
    session.client.bot = bot_factory("heuristic", random.Random())
    session.client.stop_when_over = True
    narrate(session.client, say)
    await session.start()
    await session.client.finished.wait()
    return 0 if session.client.failure is None else 1


# --- vampire host ------------------------------------------------------------------------------


def _bot_levels(spec: str | None, game: str) -> list[str]:
    from engine.bots import parse_bots
    from engine.games import find_game

    if spec is None:
        return []
    return parse_bots(spec, find_game(game))


def _bots_dir(save: Path) -> Path:
    return save.with_name(save.name + ".bots")


async def run_host(args: argparse.Namespace, games: dict[str, Any]) -> int:
    """``vampire host``: open (or ``--resume``) a table, listen, run its bots and the host's own
    seat, and serve until the table is over. Returns the exit status."""
    from engine.cli import BOT_NAMES, parse_rules
    from engine.games.base import parse_options

    say = printer()
    if not 0 <= args.port <= 65535:
        raise VampireError(f"The port {args.port} is not between 0 and 65535.")
    from engine.games import find_game

    if find_game(args.game).kit is not None and not args.headless:
        raise VampireError(
            f"The screen cannot play {find_game(args.game).title} yet: open the table with --headless, and seat "
            "players with vampire join HOST --bot heuristic --deck FILE."
        )
    timeouts, backoff = timeouts_from(args)
    profile = args.name or login_name()
    host_key = load_identity(f"{profile}-host")
    bots: list[tuple[str, Path | None]] = []
    if args.resume:
        save = Path(args.resume)
        if args.save and Path(args.save) != save:
            raise VampireError("--resume continues the log it reads; --save cannot name another file.")
        writer = LogWriter.open_existing(save)
        loaded = writer.loaded
        if not loaded.entries:
            writer.close()
            raise VampireError(f"The log file {save} holds no table.")
        if loaded.entries[0].author != public_bytes(host_key):
            writer.close()
            raise VampireError(
                f"The table in {save} was opened by the host key {short_fingerprint(loaded.entries[0].author)}, "
                f"not by {profile}'s ({short_fingerprint(public_bytes(host_key))}): run it with the --name that opened it."
            )
        sequencer = Sequencer(host_key, games, writer, now_ms)
        try:
            sequencer.replay(list(loaded.entries), list(loaded.heads))
        except VampireError as err:
            writer.close()
            raise VampireError(f"The log file {save} cannot be replayed: {err}") from None
        say(
            f"Resumed the table from {save}: {len(loaded.entries)} entries{' (a torn last frame was dropped)' if loaded.torn else ''}."
        )
        bdir = _bots_dir(save)
        if bdir.is_dir():
            for d in sorted(bdir.iterdir(), key=lambda p: int(p.name) if p.name.isdigit() else 0):
                if (d / "level").exists():
                    bots.append(((d / "level").read_text().strip(), d))
    else:
        module = games[args.game]
        levels = _bot_levels(args.bots, args.game)
        own = 0 if args.headless else 1
        seats = args.seats or max(len(levels) + own, find_game(args.game).default_seats)
        if len(levels) + own > seats:
            raise VampireError(f"{len(levels)} bots{' and your seat' if own else ''} do not fit in {seats} seats.")
        if not module.min_seats <= seats <= module.max_seats:
            raise VampireError(
                f"{module.title} is played by {module.min_seats} to {module.max_seats} players, not {seats}."
            )
        typed = dict(parse_options(module.option_schema, parse_rules(args.rule)))
        save = (
            Path(args.save)
            if args.save
            else data_dir() / "hosted" / f"{datetime.now():%Y%m%d-%H%M%S}-{os.getpid()}.vtlog"
        )
        if save.exists() and save.stat().st_size > 0:
            raise VampireError(f"{save} already holds a table: use --resume {save} to continue it.")
        save.parent.mkdir(parents=True, exist_ok=True)
        sequencer = Sequencer(host_key, games, LogWriter(save), now_ms)
        sequencer.open_table(args.game, typed, seats, f"{profile}'s table"[:64])
        bdir = _bots_dir(save)
        for i, level in enumerate(levels):
            d = bdir / str(i)
            d.mkdir(mode=0o700, parents=True, exist_ok=True)
            (d / "level").write_text(level + "\n")
            bots.append((level, d))
    # A host with a screen starts when its person presses Start; a headless one when the table is full.
    host = Host(sequencer, timeouts=timeouts, say=say, auto_start=args.headless)
    await host.start(args.bind, args.port)
    shown = lan_address() if args.bind in ("0.0.0.0", "") else args.bind
    t = host.table
    say(f"Table open: {t.game.title}, {t.nseats} seats, log file {save}")
    say(f"Give your friends this address: {shown}:{host.port}   (vampire join {shown}:{host.port})")
    say(f"Host key fingerprint {short_fingerprint(host.sequencer.public)}")
    address = ("127.0.0.1" if args.bind in ("0.0.0.0", "") else args.bind, host.port)
    clients: list[Client] = []
    levels_of: list[tuple[Client, str, Path | None]] = []
    for i, (level, d) in enumerate(bots):
        key = load_or_make_key(d / "key")
        bot = bot_client(
            address,
            level,
            name=BOT_NAMES[i % len(BOT_NAMES)],
            key=key,
            store=Store.in_dir(d),
            timeouts=timeouts,
            backoff=backoff,
            games=games,
        )
        clients.append(bot)
        levels_of.append((bot, level, d))
        await bot.start()
    status = 0
    try:
        if args.headless:
            await serve_table(host)
        else:
            session = Session.connect(
                address,
                load_identity(profile),
                name=profile[:32],
                store=Store.per_table(),
                timeouts=timeouts,
                backoff=backoff,
                games=games,
            )
            status = await front_end(
                session, say, host=host, address=f"{shown}:{host.port}", bots=[(c, lv) for c, lv, _ in levels_of]
            )
            for bot, _, d in levels_of:
                if bot.left and d is not None:
                    (d / "level").unlink(missing_ok=True)  # removed in the lobby: not back on --resume
            if host.finished.is_set():
                await serve_table(host, grace=5.0)
            else:
                say(f"You left the table; it is saved in {save} (vampire host --resume {save}).")
    finally:
        for c in clients:
            await c.stop("The host is closing.")
        await host.close()
    if host.table.fault is None and not host.table.ended:
        return 1
    return status


BOT_ABANDON_AFTER = 180.0
"""Seconds a bot waits on a stalled seat before it votes `abandon` by itself."""


# --- vampire join ------------------------------------------------------------------------------


async def run_join(args: argparse.Namespace, games: dict[str, Any]) -> int:
    """``vampire join``: take a seat (or watch with ``--spectate``) at the host ``args.address``
    and stay until the table is over. Returns 0 when the table ended, 1 otherwise."""
    from engine.cli import BOT_NAMES
    from engine.games import find_game, game_names

    say = printer()
    if args.spectate and (args.bot or args.deck):
        raise VampireError("--spectate watches a table without a seat: it takes no --bot and no --deck.")
    address = parse_address(args.address)
    timeouts, backoff = timeouts_from(args)
    state = Path(args.state) if args.state else None
    store = Store.in_dir(state) if state else Store.per_table()
    if args.bot:
        levels = {level for name in game_names() for level in find_game(name).bot_levels}
        if args.bot not in levels:
            raise VampireError(f"unknown bot level {args.bot!r}: choose {' or '.join(sorted(levels))}")
        key = load_or_make_key(state / "bot.key") if state else new_key()
        if not state:
            store = Store.memory()
        # A short key fingerprint tells two bots of the same name apart.
        name = args.name or f"{random.choice(BOT_NAMES)} {short_fingerprint(public_bytes(key))[:4]}"
    else:
        profile = args.name or login_name()
        key = load_identity(profile)
        name = profile[:32]
    deck = None
    if args.deck:
        kits = [find_game(name).kit for name in game_names()]
        kit = next(k() for k in kits if k is not None)
        deck = kit.load(args.deck)  # a bad file or a misspelt card is a sentence, before connecting
    crash = os.environ.get(CRASH_ENV) or None
    trace = None
    if args.trace:
        trace_file = open(args.trace, "a", buffering=1)

        def trace(event: str, entry: Any) -> None:
            trace_file.write(f"{event} {entry.kind} {entry.id.hex()} {time.time_ns()}\n")

    client = Client(
        address,
        key,
        name=name,
        role="spectator" if args.spectate else "player",
        games=games,
        store=store,
        bot=bot_factory(args.bot, random.Random(), deck) if args.bot else None,
        timeouts=timeouts,
        backoff=backoff,
        stall_after=args.stall_after,
        stop_when_over=True,
        # A bot votes to end the wait for a stalled seat by itself after a while; a person decides.
        abandon_after=args.abandon_after
        if args.abandon_after is not None
        else (BOT_ABANDON_AFTER if args.bot else None),
        crash_before_submit=crash,
        trace=trace,
        deck=deck,
    )
    say(
        f"Joining {address[0]}:{address[1]} as {name} ({short_fingerprint(client.public)})"
        f"{', watching' if args.spectate else ''}."
    )
    if args.bot or args.spectate:
        narrate(client, say, verbose=not args.quiet)
        await client.start()
        stopper = asyncio.get_running_loop().create_task(_stop_on_refused_join(client))
        await client.finished.wait()
        stopper.cancel()
        await client.stop()
        status = 0
    else:
        status = await front_end(Session(client), say)
    t = client.table
    if client.log_path is not None:
        say(f"This peer's log: {client.log_path}")
    if client.failure is not None or t is None or not (t.ended or t.phase == "stopped"):
        return 1
    return status


async def _stop_on_refused_join(client: Client) -> None:
    refused = asyncio.Event()
    client.listeners.subscribe(lambda e: refused.set() if isinstance(e, Refused) and e.kind == "join" else None)
    await refused.wait()
    client.failure = "The host refused this seat."
    await client.stop("No seat for this peer.")


def add_parsers(sub: Any, game_names: list[str]) -> None:
    """Add the ``host`` and ``join`` subcommands to the ``vampire`` parser."""
    from engine.cli import cmd_host, cmd_join

    host = sub.add_parser("host", help="open a table on the LAN and show its address")
    host.add_argument("--game", default="queen", choices=game_names)
    host.add_argument("--seats", type=int, help="number of seats (default: 4 for Vampire Queen)")
    host.add_argument("--port", type=int, default=7447, help="TCP port (default 7447; 0: any free port)")
    host.add_argument("--bind", default="0.0.0.0", help="address to listen on (default: every interface)")
    host.add_argument(
        "--bots", metavar="SPEC", help="bots taking seats: a number N of heuristic bots, or a comma list of levels"
    )
    host.add_argument("--save", metavar="FILE", help="the table's log file (default: one in the data directory)")
    host.add_argument("--resume", metavar="FILE", help="reopen the table saved in FILE and go on")
    host.add_argument(
        "--headless", action="store_true", help="no seat and no screen: a table server printing its progress"
    )
    host.add_argument("--name", help="your profile name (default: the login name)")
    host.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="a table rule")
    _hidden(host)
    host.set_defaults(func=cmd_host)

    join = sub.add_parser("join", help="take a seat at a table on the LAN")
    join.add_argument("address", metavar="HOST[:PORT]")
    join.add_argument("--name", help="your profile name (default: the login name)")
    join.add_argument("--spectate", action="store_true", help="watch without a seat")
    join.add_argument(
        "--bot", metavar="LEVEL", help="play as a bot of this level (heuristic, random), without a screen"
    )
    join.add_argument(
        "--deck", metavar="FILE", help="the VTES deck you bring (TWD, VDB, JOL, Lackey or 'N Name' lines)"
    )
    join.add_argument("--state", metavar="DIR", help="keep this peer's log, secrets (and a bot's key) in DIR")
    join.add_argument("--quiet", action="store_true", help="print connection changes and the end only")
    join.add_argument("--trace", metavar="FILE", help=argparse.SUPPRESS)
    _hidden(join)
    join.set_defaults(func=cmd_join)


def _hidden(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stall-after", type=float, default=30.0, help=argparse.SUPPRESS)
    parser.add_argument("--abandon-after", type=float, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--ping", type=float, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--backoff-max", type=float, default=None, help=argparse.SUPPRESS)
