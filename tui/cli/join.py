"""``vampire join``: take a seat, play as a bot or watch at a host's table, found by its address or
on the LAN (DESIGN.md, "The command line"; PROTOCOL.md 9)."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import VampireError
from engine.games import find_game, game_names
from tui.cli.narrate import _narrate, _printer
from tui.cli.seats import DeckFile, _front_end, _may_sit_bringing, _timeouts
from tui.files import vampire_command
from tui.terminal import need_terminal

if TYPE_CHECKING:
    import random

    from net.client import Client


CRASH_ENV = "VAMPIRE_TEST_CRASH_BEFORE"
"""Test hook: an entry kind; a ``join`` process kills itself (SIGKILL) once it has computed such a
duty (its secret on disk) and before it sends it."""


def crash_before(kind: str) -> Callable[[str], None]:
    """A ``Hooks.before_submit`` that kills this process (SIGKILL) before it sends an entry of
    ``kind`` (the :data:`CRASH_ENV` test hook)."""
    import signal

    def hook(about_to_send: str) -> None:
        if about_to_send == kind:
            os.kill(os.getpid(), signal.SIGKILL)

    return hook


BOT_ABANDON_AFTER = 180.0
"""Seconds a bot waits on a stalled seat before it votes `abandon` by itself."""


async def _choose_table(args: argparse.Namespace, say: Callable[[str], None]) -> tuple[Any, int | None]:
    """``vampire join`` without an address (PROTOCOL.md 9): listen for the tables on the LAN and
    pick one. Returns (the table heard, None) to join it, or (None, exit status) to stop: ``--list``
    prints them (0); ``--bot``/``--spectate`` take the only one (several: listed, 2); a person
    chooses from a numbered list on standard input."""
    import asyncio

    from net.discovery import LISTEN_SECONDS, listen
    from net.lan import DISCOVERY_OFF, multicast_off

    if multicast_off():
        print(f"vampire: {DISCOVERY_OFF} ({vampire_command()} join HOST[:PORT]).", file=sys.stderr)
        return None, 1
    if not (args.list or args.bot or args.spectate) and sys.stdin.isatty():
        say(f"Listening for tables on the LAN for {LISTEN_SECONDS:g} s...")  # else a silent wait
    try:
        heard = await listen(LISTEN_SECONDS)
    except OSError as err:
        raise VampireError(f"Cannot listen for tables on the LAN: {err.strerror or err}.") from None
    if args.list:
        for table in heard:
            print(table.line(), flush=True)
        if not heard:
            print(f"No table heard on the LAN within {LISTEN_SECONDS:g} s.", file=sys.stderr)
        return None, 0
    choices = heard if args.spectate else [h for h in heard if h.open]
    if not choices:
        what = "table" if args.spectate else "table with a free seat"
        print(f"vampire: no {what} heard on the LAN within {LISTEN_SECONDS:g} s.", file=sys.stderr)
        return None, 1
    if args.bot or args.spectate or not sys.stdin.isatty():
        if len(choices) == 1:
            return choices[0], None
        print("Several tables are open on the LAN; name one with its address:", file=sys.stderr)
        for table in choices:
            print(table.line(), flush=True)
        return None, 2
    for i, table in enumerate(choices, 1):
        print(f"{i:2}. {table.line()}")
    answer = await asyncio.to_thread(_ask, f"Which table (1-{len(choices)})? ")
    if answer is None or not answer.isdigit() or not 1 <= int(answer) <= len(choices):
        print("vampire: no table chosen.", file=sys.stderr)
        return None, 1
    say(f"Joining {choices[int(answer) - 1].name} (host {choices[int(answer) - 1].fingerprint}).")
    return choices[int(answer) - 1], None


def _ask(prompt: str) -> str | None:
    try:
        return input(prompt).strip()
    except EOFError:
        return None


async def run_join(args: argparse.Namespace) -> int:
    """``vampire join``: take a seat (or watch with ``--spectate``) at the host ``args.address``
    and stay until the table is over. Returns 0 when the table ended, 1 otherwise."""
    import asyncio
    import random
    import time

    from engine.games import all_rules, known_facts
    from engine.identities import bot_profile, load_identity, save_identity
    from engine.kits import profile_facts
    from engine.opening import bot_names
    from engine.paths import login_name
    from engine.protocol.identity import new_key, public_bytes, short_fingerprint
    from net.client import Client, Hooks, Liveness, Seating, Store, parse_address
    from net.local import load_or_make_key
    from net.session import Session

    say = _printer()
    if args.spectate and (args.bot or args.deck):
        raise VampireError("--spectate watches a table without a seat: it takes no --bot and no --deck.")
    if args.text and not args.spectate:
        raise VampireError("--text is a spectator's text feed: use it with --spectate.")
    given = {key: getattr(args, key, None) for key in known_facts()}
    if args.bot and (stated := next((known_facts()[k] for k, v in given.items() if v), None)):
        raise VampireError(f"--{stated.key} is a person's {stated.label}: a --bot seat has none.")
    if args.list and args.address:
        raise VampireError("--list lists the tables heard on the LAN: give it no address.")
    pin = None
    dialer = None
    if args.address and _is_ticket(args.address):
        dialer = _dialer(args)
        address = (dialer.ticket, 0)
    elif args.relay:
        raise VampireError("--relay is for a table across the internet: join it with its ticket.")
    elif args.address:
        address = parse_address(args.address)
    else:
        heard, status = await _choose_table(args, say)
        if heard is None:
            return status or 0
        address, pin = heard.address, heard.pin
    timeouts, backoff = _timeouts(args)
    state = Path(args.state) if args.state else None
    if state is not None and state.exists() and not state.is_dir():
        raise VampireError(f"Cannot keep this peer's files in {state}: it is a file, not a folder.")
    store = Store.in_dir(state) if state else Store.per_table()
    facts: dict[str, str] = {}
    if args.bot:
        levels = {level for game in game_names() for level in find_game(game).bot_levels}
        if args.bot not in levels:
            raise VampireError(f"unknown bot level {args.bot!r}: choose {' or '.join(sorted(levels))}")
        if state:
            key = load_or_make_key(state / "bot.key")
        elif args.name:
            key = load_identity(bot_profile(args.name))
        else:
            key = new_key()
        # A short key fingerprint tells two bots of the same name apart.
        name = args.name or f"{random.choice(bot_names(12))} {short_fingerprint(public_bytes(key))[:4]}"
        if not state:
            # Kept as a person's key is, under the bot's name, its log and secrets in the table's
            # folder (Store.per_table): the same command with --name NAME takes the seat again.
            key = save_identity(bot_profile(name), key)
    else:
        profile = args.name or login_name()
        key = load_identity(profile)
        name = profile[:32]
        facts = profile_facts(profile, given)  # a spectator's are remembered, and unused
    # A file no game reads is a sentence before connecting; the table's game takes what its kit read.
    if args.exact and not args.deck:
        raise VampireError("--exact checks the names of the deck you bring: give it with --deck.")
    deck = DeckFile(args.deck, say, args.exact) if args.deck else None
    if not (args.bot or (args.spectate and args.text)):  # before any connection: no seat taken for nobody
        need_terminal(
            f"{vampire_command()} join",
            "add --bot LEVEL to seat a bot" + (" or --spectate --text to watch as text" if not args.deck else ""),
        )
    crash = os.environ.get(CRASH_ENV) or None
    trace = None
    if args.trace:
        trace_file = open(args.trace, "a", buffering=1)  # noqa: SIM115 - open for the whole run

        def trace(event: str, entry: Any) -> None:
            trace_file.write(f"{event} {entry.kind} {entry.id.hex()} {time.time_ns()}\n")

    client = Client(
        address,
        key,
        name=name,
        role="spectator" if args.spectate else "player",
        games=all_rules(),
        store=store,
        seating=Seating(
            bot=_bot_bringing(args.bot, random.Random(), deck) if args.bot else None,
            read_brought=deck,
            may_sit=None if args.bot or args.spectate else _may_sit_bringing(args.deck),
            facts=facts,
        ),
        timeouts=timeouts,
        backoff=backoff,
        liveness=Liveness(
            stall_after=args.stall_after,
            # A bot votes to end the wait for a stalled seat by itself after a while; a person decides.
            abandon_after=args.abandon_after
            if args.abandon_after is not None
            else (BOT_ABANDON_AFTER if args.bot else None),
        ),
        stop_when_over=True,
        hooks=Hooks(before_submit=crash_before(crash) if crash else None, trace=trace),
        lan=dialer is None,
        pin=pin,
        dialer=dialer,
    )
    if deck is not None:  # checked as the table's rules read it, once the host has named them
        deck.options = lambda: client.table.options if client.table is not None else None
    where = "a table through the internet" if dialer is not None else f"{address[0]}:{address[1]}"
    say(
        f"Joining {where} as {name} ({short_fingerprint(client.public)})"
        f"{''.join(f', {known_facts()[k].label} {v}' for k, v in facts.items()) if not args.spectate else ''}"
        f"{', watching' if args.spectate else ''}."
    )
    if args.bot:
        again = args.address or f"{address[0]}:{address[1]}"
        kept = f" --state {shlex.quote(args.state)}" if args.state else ""
        say(
            f"Should this bot stop, it takes its seat again with: {vampire_command()} join {shlex.quote(again)} "
            f"--bot {args.bot} --name {shlex.quote(name)}{kept}"
        )
    # A spectator watches on its game's table screen (the lobby first); --text prints the feed instead.
    if args.bot or (args.spectate and args.text):
        _narrate(client, say, verbose=not args.quiet)
        await client.start()
        stopper = asyncio.get_running_loop().create_task(_stop_on_refused_join(client))
        await client.finished.wait()
        stopper.cancel()
        await client.stop()
        status = 0
    else:
        status = await _front_end(Session(client), address=dialer.ticket if dialer is not None else None)
    t = client.table
    if args.bot and not state and t is not None and t.ended:
        # Its table is over: the next table this name sits at gets a fresh key (DESIGN.md, "Bots
        # get a fresh key per table"); the key was kept only to take this table's seat again.
        from engine.paths import key_path

        key_path(bot_profile(name)).unlink(missing_ok=True)
    if client.log_path is not None:
        say(f"This peer's log: {client.log_path}")
    if client.failure is not None or t is None:
        return 1
    if (args.bot or (args.spectate and args.text)) and not (t.ended or t.phase == "stopped"):
        return 1  # a feed without a screen ends with the table; a spectator's screen, as its person chose
    return status  # a person's screen: 0 when the table ended or the player chose to quit


def _is_ticket(text: str) -> bool:
    from net.internet import is_ticket

    return is_ticket(text)


def _dialer(args: argparse.Namespace) -> Any:
    """The ``net.internet.Dialer`` of ``vampire join TICKET`` (``--relay``). Raises VampireError
    with a sentence where play across the internet is not available, or for a ticket that cannot
    be read."""
    from net.internet import Dialer, Relays, check_ticket, unavailable

    why = unavailable()
    if why is not None:
        raise VampireError(why)
    return Dialer(check_ticket(args.address), Relays.parse(args.relay))


def _bot_bringing(level: str, rng: random.Random, deck: DeckFile | None) -> Callable[[str], Any]:
    """A bot factory (``net.driver.BotFactory``) of ``level`` whose bot brings what ``deck`` read
    for the table's game (None: a deck the game ships for bots)."""
    from net.local import bot_factory

    def make(game: str) -> Any:
        return bot_factory(level, rng, deck.for_bot(game) if deck is not None else None)(game)

    return make


async def _stop_on_refused_join(client: Client) -> None:
    import asyncio

    from net.events import Refused, SeatRefused

    refused = asyncio.Event()
    client.listeners.subscribe(
        lambda e: refused.set() if isinstance(e, SeatRefused) or (isinstance(e, Refused) and e.kind == "join") else None
    )
    await refused.wait()
    client.failure = "The host refused this seat."
    await client.stop("No seat for this peer.")


def cmd_join(args: argparse.Namespace) -> int:
    import asyncio

    return asyncio.run(run_join(args))
