"""``vampire host``: open or resume a table, listen, announce it on the LAN, seat the host and its
bots (DESIGN.md, "The command line"; PROTOCOL.md 9)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import VampireError
from engine.games import find_game
from tui.cli.narrate import _printer
from tui.cli.seats import _front_end, _may_sit, _timeouts
from tui.files import vampire_command
from tui.terminal import need_terminal

if TYPE_CHECKING:
    from net.client import Client
    from net.host import Host


def _bots_dir(save: Path) -> Path:
    from tui.connect import bots_dir_of

    return bots_dir_of(save)


async def run_host(args: argparse.Namespace) -> int:
    """``vampire host``: open (or ``--resume``) a table, listen, run its bots and the host's own
    seat, and serve until the table is over. Returns the exit status."""
    import asyncio

    from engine.bots import parse_bots
    from engine.games import all_rules, known_facts
    from engine.identities import load_identity
    from engine.kits import profile_facts
    from engine.opening import bot_names, new_log_path, open_sequencer, order_table, parse_rules
    from engine.paths import hosted_dir, login_name
    from engine.protocol.identity import public_bytes, short_fingerprint
    from engine.protocol.log import LogWriter
    from engine.seat import now_ms
    from engine.sequencer import Sequencer
    from net.client import Store
    from net.host import Host, lan_address, serve_table
    from net.local import bot_client, load_or_make_key, start_after_seat
    from net.messages import DEFAULT_PORT
    from net.session import Session
    from tui.farewell import host_resume_command

    say = _printer()
    if args.port is None:
        args.port = DEFAULT_PORT
    if not 0 <= args.port <= 65535:
        raise VampireError(f"The port {args.port} is not between 0 and 65535.")
    if not args.headless and (why := _may_sit(args.game)):
        raise VampireError(why)
    relays = _internet(args)
    timeouts, backoff = _timeouts(args)
    profile = args.name or login_name()
    host_key = load_identity(f"{profile}-host")
    given = {key: getattr(args, key, None) for key in known_facts()}
    if args.headless and (stated := next((known_facts()[k] for k, v in given.items() if v), None)):
        raise VampireError(
            f"--{stated.key} is the {stated.label} of the host's own seat, and a --headless host has no seat."
        )
    facts = {} if args.headless else profile_facts(profile, given)
    if args.exact and not args.deck:
        raise VampireError("--exact checks the names of the deck you bring: give it with --deck.")
    if args.headless and args.deck:
        raise VampireError("--deck is the deck of the host's own seat, and a --headless host has no seat.")
    brought = None
    bots: list[tuple[str, Path | None]] = []
    if args.resume:
        _need_screen(args)
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
        sequencer = Sequencer(host_key, all_rules(), writer, now_ms)
        try:
            sequencer.replay(list(loaded.entries), list(loaded.heads))
        except VampireError as err:
            writer.close()
            raise VampireError(f"The log file {save} cannot be replayed: {err}") from None
        if args.deck:
            try:
                brought = _host_deck(args.deck, sequencer.table.game_name, sequencer.table.options, say, args.exact)
            except VampireError:
                writer.close()
                raise
        torn = " (a torn last frame was dropped)" if loaded.torn else ""
        say(f"Resumed the table from {save}: {len(loaded.entries)} entries{torn}.")
        bdir = _bots_dir(save)
        if bdir.is_dir():
            for folder in sorted(bdir.iterdir(), key=lambda p: int(p.name) if p.name.isdigit() else 0):
                if (folder / "level").exists():
                    bots.append(((folder / "level").read_text().strip(), folder))
    else:
        spec = find_game(args.game)
        levels = parse_bots(args.bots, spec) if args.bots else []
        if args.deck:  # read before the table opens: a refused deck leaves no log file
            brought = _host_deck(args.deck, args.game, parse_rules(args.rule), say, args.exact)
        _need_screen(args)
        order = order_table(
            args.game,
            people=0 if args.headless else 1,
            bots=levels,
            seats=args.seats,
            rules=parse_rules(args.rule),
            title=f"{profile}'s table",
        )
        save = Path(args.save) if args.save else new_log_path(hosted_dir())
        sequencer = open_sequencer(order, host_key, save, now_ms)
        bdir = _bots_dir(save)
        for i, level in enumerate(levels):
            folder = bdir / str(i)
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            (folder / "level").write_text(level + "\n")
            bots.append((level, folder))
    # A host with a screen starts when its person presses Start; a headless one when the table is full.
    host = Host(sequencer, timeouts=timeouts, say=say, auto_start=args.headless)
    if not args.headless:
        host.own_seat = public_bytes(load_identity(profile))  # the host's person sits at seat 0
    await host.start(args.bind, args.port)
    shown = lan_address() if args.bind in ("0.0.0.0", "") else args.bind
    t = host.table
    say(f"Table open: {t.rules.title}, {t.nseats} seats, log file {save}")
    say(f"Give your friends this address: {shown}:{host.port}   (vampire join {shown}:{host.port})")
    say(f"Host key fingerprint {short_fingerprint(host.sequencer.public)}")
    listener = await _listen_internet(host, save, relays, args.bind, say) if relays is not None else None
    share = listener.ticket if listener is not None else f"{shown}:{host.port}"
    announcer = await _announce(host, shown, args.no_announce, say)
    address = ("127.0.0.1" if args.bind in ("0.0.0.0", "") else args.bind, host.port)
    clients: list[Client] = []
    taken: list[Any] = [brought] if brought is not None else []  # each bot brings a deck unlike the others'
    levels_of: list[tuple[Client, str, Path | None]] = []
    # The host's own seat sits first (seat 0), its bots after it (started below), under other names.
    names_taken = [] if args.headless else [profile[:32]]
    for name, (level, d) in zip(bot_names(len(bots), names_taken), bots, strict=True):
        bot = bot_client(
            address,
            level,
            name=name,
            key=load_or_make_key(d / "key") if d is not None else None,
            store=Store.in_dir(d) if d is not None else Store.memory(),
            timeouts=timeouts,
            backoff=backoff,
            games=all_rules(),
            taken=taken,
        )
        clients.append(bot)
        levels_of.append((bot, level, d))
        if args.headless:
            await bot.start()
    status = 0
    seating: asyncio.Task[None] | None = None
    watch = asyncio.get_running_loop().create_task(_stop_when_a_bot_fails(host, levels_of))
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
                games=all_rules(),
                facts=facts,
                brought=brought,
                lan=True,
            )
            seating = asyncio.get_running_loop().create_task(start_after_seat(session.client, clients, taken=taken))
            status = await _front_end(
                session,
                host=host,
                address=share,
                bots=[(c, lv) for c, lv, _ in levels_of],
                bots_dir=_bots_dir(save),  # bots the lobby adds come back with --resume too
            )
            for bot, _, d in levels_of:
                if bot.left and d is not None:
                    (d / "level").unlink(missing_ok=True)  # removed in the lobby: not back on --resume
            if host.finished.is_set():
                await serve_table(host, grace=5.0)
            else:
                back = host_resume_command(save, args.bind, host.port, profile) + _internet_flags(args)
                say(f"You left the table; it is saved in {save}. Bring it back: {back}")
    finally:
        watch.cancel()
        if seating is not None:
            seating.cancel()
        if announcer is not None:
            await announcer.close()
        for c in clients:
            await c.stop("The host is closing.")
        await host.close()
        if listener is not None:
            await listener.close()
    if args.headless and host.table.fault is None and not host.table.ended:
        return 1
    return status  # with a screen: 0 when the table ended or its host chose to quit


async def _stop_when_a_bot_fails(host: Host, bots: list[tuple[Client, str, Path | None]]) -> None:
    """Stop ``host``'s table when one of the bots this process runs gives up (its log cannot be
    written: the same full disk as the table's, say): its seat would wait forever for a peer that
    will not come back, so the host says why in one sentence and how to bring the table back
    (DESIGN.md, "Nothing lost"), as it does when its own log cannot be written. A bot that leaves
    (removed in the lobby, or the table over) stops nothing."""
    import asyncio

    waits = {asyncio.ensure_future(bot.finished.wait()): bot for bot, _, _ in bots}
    try:
        while waits and not host.finished.is_set():
            done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                bot = waits.pop(task)
                if bot.failure is not None and not host.table.ended:
                    host.stop(f"{bot.name}, a bot this computer runs for the table, stopped: {bot.failure}")
    finally:
        for task in waits:
            task.cancel()


def _need_screen(args: argparse.Namespace) -> None:
    """Raise VampireError when a host with a screen (not ``--headless``) has no terminal to show
    it on: said before the table opens, so no log is written and no port taken for nobody."""
    if not args.headless:
        need_terminal(f"{vampire_command()} host", "add --headless to run the table with no seat and no screen")


def _internet(args: argparse.Namespace) -> Any:
    """The relays of ``--internet`` (``--relay``, ``--forwarded``: a ``net.internet.Relays``), None
    without it. Raises VampireError with a sentence where play across the internet is not
    available, or for a relay or forward given without ``--internet``."""
    if not args.internet:
        if args.relay or args.forwarded:
            raise VampireError("--relay and --forwarded are for a table across the internet: add --internet.")
        return None
    from net.internet import Relays, unavailable

    why = unavailable()
    if why is not None:
        raise VampireError(why)
    return Relays.parse(args.relay, args.forwarded)


def _internet_flags(args: argparse.Namespace) -> str:
    """The options that open the table across the internet again, for the command that resumes it."""
    import shlex

    if not args.internet:
        return ""
    flags = " --internet"
    if args.relay:
        flags += f" --relay {shlex.quote(args.relay)}"
    if args.forwarded:
        flags += f" --forwarded {shlex.quote(args.forwarded)}"
    return flags


async def _listen_internet(host: Host, save: Path, relays: Any, bind: str, say: Callable[[str], None]) -> Any:
    """Take connections to ``host`` across the internet too, on UDP at the table's port, as the
    endpoint whose key is kept beside the log ``save`` (so ``--resume`` keeps the ticket); says the
    ticket. Returns the listener (close it)."""
    from net.internet import listen_for_table

    try:
        listener = await listen_for_table(host.serve_stream, save, relays, host.port, bind, host.timeouts.hello)
    except VampireError:
        await host.close()
        raise
    relay = "no relay" if relays.off else (relays.url or "n0's public relays")
    say(f"Friends across the internet join with this ticket (UDP port {host.port}, {relay}):")
    say(f"vampire join {listener.ticket}")
    return listener


def _host_deck(path: str, game: str, rules: Mapping[str, Any], say: Callable[[str], None], exact: bool = False) -> Any:
    """The deck the host's own seat brings to a table of ``game`` with the table rules ``rules``
    (``--deck FILE``), read and checked as the table reads it, its counts and notes said; a name
    read as a close match is asked about on a terminal (with ``exact``, refused). Raises VampireError
    with a sentence."""
    from engine.kits import bring_file

    spec = find_game(game)
    if spec.kit is None:
        raise VampireError(
            f"A {spec.title} table takes no deck: every seat plays the same cards. Host it without --deck."
        )
    ask = input if sys.stdin.isatty() else None
    return bring_file(spec, path, rules, say=say, ask=ask, exact=exact, command=vampire_command())


async def _announce(host: Host, shown: str, off: bool, say: Callable[[str], None]) -> Any:
    """Announce ``host``'s table on the LAN at ``shown`` (PROTOCOL.md 9) unless ``off``
    (``--no-announce``) or discovery is off; says which. Returns the announcer (close it), or None."""
    import ipaddress

    from net.discovery import announce_host
    from net.host import lan_address
    from net.lan import multicast_off

    if off:
        return None
    if multicast_off():
        say("The table is not announced on the LAN: VAMPIRE_NO_DISCOVERY is set.")
        return None
    try:
        ipv4 = ipaddress.IPv4Address(shown)
    except ValueError:
        ipv4 = ipaddress.IPv4Address(lan_address())  # an IPv6 or named bind: the LAN's IPv4 address
    if ipv4.is_loopback:
        say("The table listens on this computer only: it is not announced on the LAN.")
        return None
    announcer = await announce_host(host, str(ipv4))
    if announcer is None:
        say("The table could not be announced on the LAN; friends join with its address.")
    else:
        say(f"Announced on the LAN as {announcer.announcer.ad.name!r}: `vampire join` with no address finds it.")
    return announcer


def cmd_host(args: argparse.Namespace) -> int:
    import asyncio

    return asyncio.run(run_host(args))
