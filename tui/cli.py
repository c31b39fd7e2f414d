"""The ``vampire`` console script: the composition root of every command (DESIGN.md, "The command
line").

Each command imports only what it needs, when it runs: ``audit``, ``simulate``, ``result``,
``rules`` and ``replay --text`` load neither Textual nor the network layer, and auditing a log of
one game loads no other game. Errors the user can cause print as one sentence on stderr and exit 1
(a usage error exits 2, as argparse does); never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import VampireError
from engine.games import DEFAULT_GAME, find_game, game_names

if TYPE_CHECKING:
    from engine.games.spec import GameSpec
    from net.client import Client
    from net.events import Backoff, Connection, SeatRefused, Timeouts
    from net.host import Host
    from net.session import Session

CRASH_ENV = "VAMPIRE_TEST_CRASH_BEFORE"
"""Test hook: an entry kind; a ``join`` process kills itself (SIGKILL) once it has computed such a
duty (its secret on disk) and before it sends it."""


def crash_before(kind: str) -> Callable[[str], None]:
    """A ``Hooks.before_submit`` that kills this process (SIGKILL) before it sends an entry of
    ``kind`` (the :data:`CRASH_ENV` test hook)."""
    import os
    import signal

    def hook(about_to_send: str) -> None:
        if about_to_send == kind:
            os.kill(os.getpid(), signal.SIGKILL)

    return hook


BOT_ABANDON_AFTER = 180.0
"""Seconds a bot waits on a stalled seat before it votes `abandon` by itself."""


# --- bots and seats ----------------------------------------------------------------------------


def simulated_levels(text: str | None, seats: int | None, spec: GameSpec) -> list[str]:
    """Bot levels, one per seat, for a table of bots only (``vampire simulate``).

    No text: one bot of the game's default level and filler bots in the other seats. A number N:
    N bots of the default level, filler bots in the other seats. A list: one bot each. Raises
    BotSpecError or VampireError with a sentence.
    """
    from engine.bots import parse_bots
    from engine.games.spec import BotSpecError

    if text is not None and not text.strip().isdigit():
        levels = parse_bots(text, spec)
        if seats is not None and seats != len(levels):
            raise BotSpecError(f"--bots names {len(levels)} bots but --seats is {seats}")
        spec.check_seats(len(levels))
        return levels
    seats = spec.default_seats if seats is None else seats
    spec.check_seats(seats)
    strong = int(text) if text is not None else 1
    if strong > seats:
        raise BotSpecError(f"--bots {strong} is more bots than the {seats} seats")
    return [spec.default_bot] * strong + [spec.filler_bot] * (seats - strong)


# --- vampire simulate --------------------------------------------------------------------------


def simulate(
    game_name: str,
    levels: list[str],
    count: int,
    seed: int,
    rules: dict[str, str],
    verbose: bool,
    out: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Play ``count`` games between bots in simulation (:mod:`engine.sim`); players rotate seats
    each game. Returns ``{"wins": [...], "mean_scores": [...], "moves": int, "tallies": {...}}``:
    wins and scores per player, the moves, and what the game counts besides (VTES: actions and
    blocks), summed over the games."""
    import random

    from engine.opening import bot_names
    from engine.sim import play_game

    spec = find_game(game_name)
    game = spec.rules()
    n = len(levels)
    names = bot_names(n)
    wins = [0.0] * n
    score_sum = [0] * n
    moves = 0
    tallies: dict[str, int] = {}
    game.setup(n, rules)  # option errors before any output
    out(
        f"{spec.title}: {n} seats, {count} game{'s' if count != 1 else ''}, seed {seed}; players change seats every game."
    )
    for g in range(count):
        # Player p sits at seat (p + g) mod n.
        seat_of = [(p + g) % n for p in range(n)]
        player_at = {s: p for p, s in enumerate(seat_of)}
        private: dict[tuple[int, str], list[str]] = {}
        bots = []
        for s in range(n):
            rng = random.Random(f"{seed}/{g}/{s}")
            brought = None
            if spec.kit is not None:
                kit = spec.kit()
                brought = kit.for_bot(rng)
                # A private shuffle event's deck is "<part>/<owner seat>" (engine.games.spec.SeatKit).
                for part, cards in kit.deck_lists(brought).items():
                    private[(s, f"{part}/{s}")] = cards
            bots.append(spec.bot(levels[player_at[s]], rng, brought))
        printer = None
        if verbose and g == 0:
            out("")
            printer = _narrator([names[player_at[s]] for s in range(n)], out)
        record = play_game(game, bots, seed=seed * 1_000_003 + g, options=rules, private_decks=private, on_note=printer)
        moves += record.moves
        for word, k in record.result.tallies:
            tallies[word] = tallies.get(word, 0) + k
        for s in range(n):
            score_sum[player_at[s]] += record.result.scores[s]
        for s in record.result.winners:
            wins[player_at[s]] += 1 / len(record.result.winners)
    out("")
    width = max(len(x) for x in names)
    unit, scale = spec.score.label, spec.score.scale
    out(f"{'player':<{width}}  {'bot':<9}  {'wins':>7}  {'win %':>6}  {unit:>10}")
    for p in range(n):
        out(
            f"{names[p]:<{width}}  {levels[p]:<9}  {wins[p]:>7.1f}  {100 * wins[p] / count:>5.1f}%  "
            f"{score_sum[p] / count / scale:>10.2f}"
        )
    if spec.score.note:
        out(f"({spec.score.note})")
    if tallies:
        per_game = ", ".join(f"{k} {word} ({k / count:.1f} a game)" for word, k in tallies.items())
        out(f"In all: {per_game}.")
    return {"wins": wins, "mean_scores": [s / count for s in score_sum], "moves": moves, "tallies": tallies}


def _narrator(names: list[str], out: Callable[[str], None]) -> Callable[[Any], None]:
    def show(note: Any) -> None:
        out(note.render(names))

    return show


def cmd_simulate(args: argparse.Namespace) -> int:
    from engine.opening import parse_rules

    spec = find_game(args.game)
    levels = simulated_levels(args.bots, args.seats, spec)
    if args.games < 1:
        raise VampireError("--games must be at least 1")
    if args.protocol:
        return simulate_protocol(
            args.game, levels, args.games, args.seed, parse_rules(args.rule), args.save, args.verbose
        )
    if args.save:
        raise VampireError("--save needs --protocol: only games played through the signed log leave a log")
    simulate(args.game, levels, args.games, args.seed, parse_rules(args.rule), args.verbose)
    return 0


def simulate_protocol(
    game_name: str, levels: list[str], count: int, seed: int, rules: dict[str, str], save: str | None, verbose: bool
) -> int:
    """Play ``count`` bot games through the signed log and the deck protocol (:mod:`engine.local`);
    save each log in ``save`` (a directory) as ``game-<k>.vtlog`` with each seat's secrets file in
    ``game-<k>-secrets/`` (0700)."""
    import time

    from engine.local import new_local_game
    from engine.opening import order_table

    out_dir = Path(save) if save else None
    order = order_table(game_name, bots=levels, seats=len(levels), rules=rules)  # errors before any output
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    print(
        f"{order.game.title}: {len(levels)} seats, {count} game{'s' if count != 1 else ''} "
        "through the signed log and the deck protocol."
    )
    for g in range(count):
        log_path = secrets_dir = None
        if out_dir is not None:
            log_path = out_dir / f"game-{g}.vtlog"
            if log_path.exists():
                raise VampireError(f"{log_path} exists already; choose another --save directory")
            secrets_dir = out_dir / f"game-{g}-secrets"
            secrets_dir.mkdir(mode=0o700, exist_ok=True)
            secrets_dir.chmod(0o700)
        start = time.perf_counter()
        local = new_local_game(
            game_name, levels, rules, save=log_path, secrets_dir=secrets_dir, seed=seed * 1_000_003 + g
        )
        local.run()
        table = local.table
        result = table.result()
        names = table.names
        if verbose and g == 0:
            for note in local.notes:
                print(note.render(names))
        took = time.perf_counter() - start
        summary = (
            result.summary.format(**{f"s{i}": n for i, n in enumerate(names)}) if result else f"stopped: {table.fault}"
        )
        where = f"; log {log_path}" if log_path else ""
        print(f"game {g}: {summary} ({len(table.entries)} entries, {took:.1f} s{where})")
    return 0


# --- audit, result, rules, replay ---------------------------------------------------------------


def cmd_audit(args: argparse.Namespace) -> int:
    import json
    import time

    from engine.audit import USAGE_EXIT, AuditUsageError, audit_file
    from engine.forks import audit_fork_file, is_fork_file
    from engine.games import all_rules

    if is_fork_file(args.file):
        verdict = audit_fork_file(args.file)  # a fork evidence file, checked on its own (PROTOCOL.md 7)
        print(json.dumps(verdict.as_json(), indent=2) if args.json else verdict.text())
        return int(verdict.code)
    started = time.monotonic()
    shown = False

    def progress(done: int, total: int) -> None:
        # Only for an audit that takes more than a second, on a terminal: a line that rewrites itself.
        nonlocal shown
        if sys.stderr.isatty() and time.monotonic() - started > 1.0:
            print(f"\rauditing: entry {done} of {total}", end="", file=sys.stderr, flush=True)
            shown = True

    try:
        report = audit_file(args.file, all_rules(), progress=progress, strict=args.strict)
    except AuditUsageError as err:
        # Not a verdict on a log: nothing was checked, so no FAULT and not exit 1.
        if args.json:
            print(json.dumps(err.as_json(), indent=2))
        else:
            print(f"vampire: {err}", file=sys.stderr)
        return USAGE_EXIT
    if shown:
        print("\r\x1b[K", end="", file=sys.stderr, flush=True)
    print(json.dumps(report.as_json(), indent=2) if args.json else report.text())
    return int(report.code)


RESULT_UNVERIFIED = "(read without verifying the shuffles, shares and seeds again; `vampire audit {file}` checks them)"
"""What ``vampire result`` says of the checks it skips."""


def cmd_result(args: argparse.Namespace) -> int:
    """A table's result for a tournament organiser, for games that have one (the spec's
    ``organiser_result``): ``--round``/``--table`` number it, ``--format`` writes it as text, CSV
    or JSON; each player's VEKN id comes from its `join`. The log's signatures and chain are
    checked as it is read, and the table's rules as it is folded, but not the deck protocol's
    proofs, shares and seed recomputes (engine.table.vocab.Checks.CHEAP): it says so (on stdout
    under the text, on stderr for CSV and JSON), pointing to ``vampire audit``, which checks them."""
    from engine.games import all_rules
    from engine.games.spec import ResultFormat, TablePlace
    from engine.protocol.log import read_log
    from engine.table import Checks, Table, TableRefusal

    for option, value in (("--round", args.round), ("--table", args.table)):
        if value is not None and value < 1:
            raise VampireError(f"{option} numbers from 1, and {value} is not a {option[2:]} number.")
    log = read_log(args.file)
    table = Table(all_rules(), Checks.CHEAP)
    for entry in log.entries:
        try:
            table.apply(entry)
        except TableRefusal as err:
            raise VampireError(
                f"entry {entry.seq} of {args.file} is refused ({err.detail}); run vampire audit"
            ) from None
        except VampireError as err:  # a value the skipped checks would have refused
            raise VampireError(f"entry {entry.seq} of {args.file} cannot be read ({err}); run vampire audit") from None
    spec = find_game(table.game_name) if table.game_name else None
    if spec is None or spec.organiser_result is None:
        what = spec.title if spec is not None else "nothing"
        raise VampireError(f"{args.file} is a game of {what}, which has no result for an organiser")
    if table.fault is not None:
        raise VampireError(
            f"the table stopped on a proven cheat ({table.fault.describe(table.names)}); run vampire audit"
        )
    if table.gstate is None:
        raise VampireError(f"the game of {args.file} never started: there is no result yet")
    place = TablePlace(args.round, args.table, tuple(seat.vekn for seat in table.seats))
    fmt = ResultFormat(args.format)
    print(spec.organiser_result(table.gstate, list(table.names), place, fmt))
    if table.result() is None and fmt == ResultFormat.TEXT:
        print("(the game is not over: these are the VP so far)")
    note = RESULT_UNVERIFIED.format(file=args.file)
    print(note, file=sys.stdout if fmt == ResultFormat.TEXT else sys.stderr)
    return 0


def rules_text(names: Sequence[str]) -> str:
    """Every table rule of the games ``names``: name, default, allowed values and meaning, as
    ``vampire rules`` prints them."""
    lines: list[str] = []
    for name in names:
        spec = find_game(name)
        lines.append(f"{spec.title} (--game {spec.name}): {spec.min_seats} to {spec.max_seats} seats")
        for option in spec.option_schema:
            if option.choices:
                allowed = " | ".join(_value(c) for c in option.choices)
            elif option.kind is bool:
                allowed = "on | off"
            elif option.kind is int:
                low = option.low if option.low is not None else "…"
                high = option.high if option.high is not None else "…"
                allowed = f"{low} to {high}"
            else:
                allowed = "a word"
            lines.append(f"  --rule {option.name}=VALUE   {option.doc}")
            lines.append(f"      default {_value(option.default)}; allowed: {allowed}")
        lines.append(f"  bots: {', '.join(spec.bot_levels)}")
        lines.append("")
    return "\n".join(lines).rstrip()


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def cmd_rules(args: argparse.Namespace) -> int:
    print(rules_text([args.game] if args.game else game_names()))
    return 0


def cmd_deck(args: argparse.Namespace) -> int:
    """``vampire deck FILE``: what a table would read from the file (engine.kits.check_command)."""
    from engine.kits import check_command

    return check_command(args.file, args.game, args.rule, args.exact)


def cmd_replay(args: argparse.Namespace) -> int:
    from engine.games import all_rules
    from engine.protocol.log import read_log
    from engine.replay import replay_lines

    log = read_log(args.file)  # a missing or broken file is a sentence here, before any screen
    if not args.text:
        from tui.app import Start, VampireApp

        app = VampireApp(Start("replay", Path(args.file)))
        app.run()
        return int(app.return_code or 0)
    for line in replay_lines(log, all_rules(), show_hands=not args.no_hands):
        print(line)
    if log.torn:
        print("(a torn last frame, left by a crash mid-write, was dropped)")
    return 0


# --- vampire (no command) and vampire play --------------------------------------------------------


def cmd_home(args: argparse.Namespace) -> int:
    from engine.paths import seat_name
    from tui.app import VampireApp

    app = VampireApp(name=seat_name(getattr(args, "name", None)))
    app.run()
    _farewell(app)
    return int(app.return_code or 0)


def cmd_play(args: argparse.Namespace) -> int:
    """``vampire play``: you against bots in the TUI (a host and bot clients in this process over
    loopback TCP). ``--bots``: a number N of bots of the game's default level, or a comma list of
    levels (default: 3 of the default level); ``--seats N``: you and N-1 bots. ``--deck FILE``: the deck your seat brings, for a game
    whose seats bring one (default: one the game ships for bots)."""
    from engine.bots import parse_bots
    from engine.opening import order_table, parse_rules
    from engine.paths import profile_vekn, seat_name
    from tui.app import Start, VampireApp
    from tui.session import LocalTableSpec

    spec = find_game(args.game)
    if why := _may_sit(args.game):
        raise VampireError(f"{why} Watch bots play it with vampire simulate --game {spec.name} --verbose.")
    levels = parse_bots(args.bots, spec) if args.bots else [spec.default_bot] * 3
    if args.seats is not None:
        if args.bots and len(levels) + 1 != args.seats:
            raise VampireError(
                f"--seats {args.seats} is you and {args.seats - 1} bots, but --bots names {len(levels)}."
            )
        if not args.bots:
            levels = [spec.default_bot] * max(args.seats - 1, 0)
    rules = parse_rules(args.rule)
    try:
        spec.check_seats(len(levels) + 1)
    except VampireError as err:
        raise VampireError(f"{err} (you and {len(levels)} bot{'s' if len(levels) != 1 else ''})") from None
    order_table(args.game, people=1, bots=levels, seats=len(levels) + 1, rules=rules)
    brought = None
    if getattr(args, "deck", None):
        if spec.kit is None:
            raise VampireError(f"{spec.title} players bring no deck: play without --deck.")
        from engine.kits import bring_file  # says what it read, asks about a name read as a close match

        brought = bring_file(spec, args.deck, rules, ask=input if sys.stdin.isatty() else None)
    name = seat_name(args.name)
    profile_vekn(name, args.vekn)  # checked and remembered: the table's session reads it from the profile
    app = VampireApp(Start("play", LocalTableSpec(name, levels, rules, args.game, brought)), name=name)
    app.run()
    _farewell(app)
    return int(app.return_code or 0)


def _farewell(app: Any) -> None:
    """Once the app closed: where its table's log is, and a guest's way back to its seat."""
    from tui.farewell import farewell_lines

    for line in farewell_lines(app.last_session):
        print(line)


# --- vampire host and vampire join ----------------------------------------------------------------


def _printer() -> Callable[[str], None]:
    """A function printing a line with the time (``[HH:MM:SS] line``), flushed at once."""
    from datetime import datetime

    def say(line: str) -> None:
        print(f"[{datetime.now():%H:%M:%S}] {line}", flush=True)

    return say


def _timeouts(args: argparse.Namespace) -> tuple[Timeouts, Backoff]:
    """The time-outs and back-off of the hidden test options (``--ping``, ``--backoff-max``)."""
    from net.events import Backoff, Timeouts

    t = Timeouts()
    if getattr(args, "ping", None):
        t = Timeouts(ping=args.ping, idle=max(args.ping * 6, 1.0), hello=t.hello, body=t.body, write=t.write)
    b = Backoff(most=args.backoff_max) if getattr(args, "backoff_max", None) else Backoff()
    return t, b


def _narrate(client: Client, say: Callable[[str], None], verbose: bool = True) -> None:
    """Print a client's events as lines (the table's notes, connection changes, refusals, stalls,
    fork evidence, the end): the front end of a bot, a spectator's text feed and a headless host."""
    from engine.forks import describe_fork
    from engine.table.lobby import renamed_sentence
    from net.events import Connection, Finished, Folded, Fork, HostFault, Refused, SeatRefused, Silent, Waiting

    link = LinkLines(say)
    told: list[bool] = []  # the seat's name, once it sits: said once

    def tell_name() -> None:
        t = client.table
        seat = t.seat_of(client.public) if t is not None and not told else None
        if t is None or seat is None:
            return
        told.append(True)
        if sentence := renamed_sentence(client.name, t.seats[seat].name):
            say(sentence)

    def show(event: Any) -> None:
        if isinstance(event, Folded):
            tell_name()
        match event:
            case Folded() if verbose:
                for line in event.notes:
                    say(line)
            case Connection():
                link.show(event)
            case Refused():
                say(f"The host refused this seat's {event.kind} ({event.code}): {event.detail}")
            case SeatRefused():
                say(seat_refusal_sentence(event))
            case Waiting() if event.seats:
                say(f"The table has waited {event.seconds:.0f} s on {', '.join(event.names)}.")
            case Fork():
                ev = event.evidence
                say(
                    f"FORK: {describe_fork(ev)} Head signatures: {ev.first.signature.hex()} and "
                    f"{ev.second.signature.hex()}. This peer stops."
                )
                if event.path is not None:
                    say(f"The evidence is in {event.path}: anyone can check it with `vampire audit {event.path}`.")
            case Silent():
                for name, seq in zip(event.names, event.seqs, strict=True):
                    held = f"seq {seq}" if seq >= 0 else "nothing"
                    say(
                        f"{name} has signed no new seen report for a while: the last one holds {held}, "
                        f"the table is at seq {event.head}. Gone, or shown another log by the host."
                    )
            case HostFault():
                say(f"The host misbehaved: {event.detail}")
            case Finished():
                say(event.summary)
                say(f"state digest {event.digest}")

    client.listeners.subscribe(show)


class LinkLines:
    """A client's connection, told in lines for a text feed (``say(line)``): one line when it goes
    down, with the first retry's delay; nothing for each failed attempt after it, unless the host
    says it closed the table (news: the host's own reason); one line when it is back or stops,
    counting the attempts and the time down. The TUI keeps one line up to date instead."""

    def __init__(self, say: Callable[[str], None], clock: Callable[[], float] | None = None) -> None:
        import time

        self.say = say
        self.clock = clock or time.monotonic
        self.down_since: float | None = None
        self.attempts = 0
        self.cause: str | None = None

    def show(self, event: Connection) -> None:
        """Tell ``event`` if it is news."""
        if event.state == "disconnected":
            if self.down_since is None or (event.cause == "host-closed" and self.cause != event.cause):
                if self.down_since is None:
                    self.down_since = self.clock()
                    self.attempts = 0
                retry = f"retrying in {event.retry:.1f} s, quietly until it is back" if event.retry else "retrying"
                self.say(f"{event.detail} ({retry})")
                self.cause = event.cause
            else:
                self.attempts += 1
        elif event.state in ("connected", "stopped"):
            self.say(event.detail + self._downtime())
            self.down_since = None
            self.cause = None

    def _downtime(self) -> str:
        if self.down_since is None:
            return ""
        n = self.attempts
        return f" (down {self.clock() - self.down_since:.0f} s; {n} more attempt{'s' if n != 1 else ''})"


def seat_refusal_sentence(event: SeatRefused) -> str:
    """Why a client took no seat (``net.events.SeatRefused``), in a player's words."""
    from net.events import SeatRefusal

    if event.reason in (SeatRefusal.NOT_BY_HAND, SeatRefusal.NO_BOT):
        return str(event.detail)
    if event.reason is SeatRefusal.NEEDS_KIT:
        spec = find_game(event.game)
        noun = spec.kit().noun if spec.kit is not None else "deck"
        return f"A {spec.title} table needs a {noun}: join with --deck FILE."
    return "The game has started without this seat: every seat is taken."


def _may_sit(game: str) -> str | None:
    """Why a person cannot take a seat at a ``game`` table from this screen, or None."""
    from tui.games import find_front_end

    return find_front_end(game).may_sit


def _may_sit_bringing(deck: str | None) -> Callable[[str], str | None]:
    """:func:`_may_sit`, and a refusal in a sentence when ``--deck`` was given for a game whose
    seats bring nothing (the deck would be silently left at home)."""

    def may_sit(game: str) -> str | None:
        spec = find_game(game)
        if deck and spec.kit is None:
            return f"A {spec.title} table takes no deck: every seat plays the same cards. Join again without --deck."
        return _may_sit(game)

    return may_sit


async def _front_end(
    session: Session,
    host: Host | None = None,
    address: str | None = None,
    bots: Sequence[tuple[Client, str]] = (),
    bots_dir: Path | None = None,
) -> int:
    import tui

    if host is None:
        return int(await tui.run_session(session) or 0)
    return int(await tui.run_session(session, host=host, address=address, bots=list(bots), bots_dir=bots_dir) or 0)


def _bots_dir(save: Path) -> Path:
    from tui.connect import bots_dir_of

    return bots_dir_of(save)


async def run_host(args: argparse.Namespace) -> int:
    """``vampire host``: open (or ``--resume``) a table, listen, run its bots and the host's own
    seat, and serve until the table is over. Returns the exit status."""
    import asyncio

    from engine.bots import parse_bots
    from engine.games import all_rules
    from engine.identities import load_identity
    from engine.opening import bot_names, new_log_path, open_sequencer, order_table, parse_rules
    from engine.paths import hosted_dir, login_name, profile_vekn
    from engine.protocol.identity import public_bytes, short_fingerprint
    from engine.protocol.log import LogWriter
    from engine.seat import now_ms
    from engine.sequencer import Sequencer
    from net.client import Store
    from net.host import Host, lan_address, serve_table
    from net.local import bot_client, load_or_make_key, start_after_seat
    from net.messages import DEFAULT_PORT
    from net.session import Session

    say = _printer()
    if args.port is None:
        args.port = DEFAULT_PORT
    if not 0 <= args.port <= 65535:
        raise VampireError(f"The port {args.port} is not between 0 and 65535.")
    if not args.headless and (why := _may_sit(args.game)):
        raise VampireError(why)
    timeouts, backoff = _timeouts(args)
    profile = args.name or login_name()
    host_key = load_identity(f"{profile}-host")
    if args.headless and args.vekn:
        raise VampireError("--vekn is the VEKN id of the host's own seat, and a --headless host has no seat.")
    vekn = None if args.headless else profile_vekn(profile, args.vekn)
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
        sequencer = Sequencer(host_key, all_rules(), writer, now_ms)
        try:
            sequencer.replay(list(loaded.entries), list(loaded.heads))
        except VampireError as err:
            writer.close()
            raise VampireError(f"The log file {save} cannot be replayed: {err}") from None
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
    await host.start(args.bind, args.port)
    shown = lan_address() if args.bind in ("0.0.0.0", "") else args.bind
    t = host.table
    say(f"Table open: {t.rules.title}, {t.nseats} seats, log file {save}")
    say(f"Give your friends this address: {shown}:{host.port}   (vampire join {shown}:{host.port})")
    say(f"Host key fingerprint {short_fingerprint(host.sequencer.public)}")
    announcer = await _announce(host, shown, args.no_announce, say)
    address = ("127.0.0.1" if args.bind in ("0.0.0.0", "") else args.bind, host.port)
    clients: list[Client] = []
    levels_of: list[tuple[Client, str, Path | None]] = []
    # The host's own seat sits first (seat 0), its bots after it (started below), under other names.
    taken = [] if args.headless else [profile[:32]]
    for name, (level, d) in zip(bot_names(len(bots), taken), bots, strict=True):
        bot = bot_client(
            address,
            level,
            name=name,
            key=load_or_make_key(d / "key") if d is not None else None,
            store=Store.in_dir(d) if d is not None else Store.memory(),
            timeouts=timeouts,
            backoff=backoff,
            games=all_rules(),
        )
        clients.append(bot)
        levels_of.append((bot, level, d))
        if args.headless:
            await bot.start()
    status = 0
    seating: asyncio.Task[None] | None = None
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
                vekn=vekn,
                lan=True,
            )
            seating = asyncio.get_running_loop().create_task(start_after_seat(session.client, clients))
            status = await _front_end(
                session,
                host=host,
                address=f"{shown}:{host.port}",
                bots=[(c, lv) for c, lv, _ in levels_of],
                bots_dir=_bots_dir(save),  # bots the lobby adds come back with --resume too
            )
            for bot, _, d in levels_of:
                if bot.left and d is not None:
                    (d / "level").unlink(missing_ok=True)  # removed in the lobby: not back on --resume
            if host.finished.is_set():
                await serve_table(host, grace=5.0)
            else:
                say(f"You left the table; it is saved in {save} (vampire host --resume {save}).")
    finally:
        if seating is not None:
            seating.cancel()
        if announcer is not None:
            await announcer.close()
        for c in clients:
            await c.stop("The host is closing.")
        await host.close()
    if args.headless and host.table.fault is None and not host.table.ended:
        return 1
    return status  # with a screen: 0 when the table ended or its host chose to quit


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


async def _choose_table(args: argparse.Namespace, say: Callable[[str], None]) -> tuple[Any, int | None]:
    """``vampire join`` without an address (PROTOCOL.md 9): listen for the tables on the LAN and
    pick one. Returns (the table heard, None) to join it, or (None, exit status) to stop: ``--list``
    prints them (0); ``--bot``/``--spectate`` take the only one (several: listed, 2); a person
    chooses from a numbered list on standard input."""
    import asyncio

    from net.discovery import LISTEN_SECONDS, listen
    from net.lan import DISCOVERY_OFF, multicast_off

    if multicast_off():
        print(f"vampire: {DISCOVERY_OFF}", file=sys.stderr)
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
    import os
    import random
    import time

    from engine.games import all_rules
    from engine.identities import load_identity
    from engine.opening import bot_names
    from engine.paths import login_name, profile_vekn
    from engine.protocol.identity import new_key, public_bytes, short_fingerprint
    from net.client import Client, Hooks, Liveness, Seating, Store, parse_address
    from net.local import bot_factory, load_or_make_key
    from net.session import Session

    say = _printer()
    if args.spectate and (args.bot or args.deck):
        raise VampireError("--spectate watches a table without a seat: it takes no --bot and no --deck.")
    if args.text and not args.spectate:
        raise VampireError("--text is a spectator's text feed: use it with --spectate.")
    if args.bot and args.vekn:
        raise VampireError("--vekn is a person's VEKN id: a --bot seat has none.")
    if args.list and args.address:
        raise VampireError("--list lists the tables heard on the LAN: give it no address.")
    pin = None
    if args.address:
        address = parse_address(args.address)
    else:
        heard, status = await _choose_table(args, say)
        if heard is None:
            return status or 0
        address, pin = heard.address, heard.pin
    timeouts, backoff = _timeouts(args)
    state = Path(args.state) if args.state else None
    store = Store.in_dir(state) if state else Store.per_table()
    vekn = None
    if args.bot:
        levels = {level for game in game_names() for level in find_game(game).bot_levels}
        if args.bot not in levels:
            raise VampireError(f"unknown bot level {args.bot!r}: choose {' or '.join(sorted(levels))}")
        key = load_or_make_key(state / "bot.key") if state else new_key()
        if not state:
            store = Store.memory()
        # A short key fingerprint tells two bots of the same name apart.
        name = args.name or f"{random.choice(bot_names(12))} {short_fingerprint(public_bytes(key))[:4]}"
    else:
        profile = args.name or login_name()
        key = load_identity(profile)
        name = profile[:32]
        vekn = profile_vekn(profile, args.vekn)  # a spectator's is remembered, and unused
    deck = None
    if args.deck:
        deck = _load_brought(args.deck, say)  # a bad file or an unknown card is a sentence, before connecting
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
            bot=bot_factory(args.bot, random.Random(), deck) if args.bot else None,
            brought=deck,
            may_sit=None if args.bot or args.spectate else _may_sit_bringing(args.deck),
            vekn=vekn,
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
        lan=True,
        pin=pin,
    )
    say(
        f"Joining {address[0]}:{address[1]} as {name} ({short_fingerprint(client.public)})"
        f"{', VEKN ' + vekn if vekn and not args.spectate else ''}{', watching' if args.spectate else ''}."
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
        status = await _front_end(Session(client))
    t = client.table
    if client.log_path is not None:
        say(f"This peer's log: {client.log_path}")
    if client.failure is not None or t is None:
        return 1
    if (args.bot or args.spectate) and not (t.ended or t.phase == "stopped"):
        return 1
    return status  # a person's screen: 0 when the table ended or the player chose to quit


def _load_brought(path: str, say: Callable[[str], None]) -> Any:
    """Read what a seat brings (``--deck FILE``) with the kit of the one game whose seats bring
    something, and say what was read (counts, and any card name read as a close match). Raises
    VampireError with the kit's sentence."""
    kits = [spec.kit for spec in map(find_game, game_names()) if spec.kit is not None]
    if not kits:
        raise VampireError("--deck is for games whose players bring a deck; no game here has one.")
    kit = kits[0]()
    brought = kit.load(path)
    say(f"You bring {kit.summary(brought)}.")
    return brought


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


def cmd_host(args: argparse.Namespace) -> int:
    import asyncio

    return asyncio.run(run_host(args))


def cmd_join(args: argparse.Namespace) -> int:
    import asyncio

    return asyncio.run(run_join(args))


# --- the parser ------------------------------------------------------------------------------------


def _hidden(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stall-after", type=float, default=30.0, help=argparse.SUPPRESS)
    parser.add_argument("--abandon-after", type=float, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--ping", type=float, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--backoff-max", type=float, default=None, help=argparse.SUPPRESS)


class _RulesParser(argparse.ArgumentParser):
    """A command's parser whose help ends with every table rule of the games ``list_rules``
    (:func:`rules_text`), listed only when the help is shown: it reads every game's rules."""

    list_rules: Sequence[str] = ()

    def format_help(self) -> str:
        if self.list_rules and not self.epilog:
            self.epilog = "table rules (--rule NAME=VALUE; also: vampire rules):\n" + rules_text(self.list_rules)
        return super().format_help()


def build_parser() -> argparse.ArgumentParser:
    """The ``vampire`` argument parser (DESIGN.md, "The command line")."""
    names = game_names()
    games_help = ", ".join(f"{n} ({find_game(n).title})" for n in names)
    parser = argparse.ArgumentParser(
        prog="vampire",
        description="A peer-to-peer table for vampire card games. With no command: the home screen.",
        epilog=f"Games: {games_help}. Table rules: vampire rules [--game G].",
    )
    parser.add_argument("--name", help="your profile name (default: the login name)")
    parser.add_argument(
        "--ascii",
        action="store_true",
        help="draw only with characters every console font has (on by itself under TERM=linux); also after a command",
    )
    parser.set_defaults(func=cmd_home)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_RulesParser)

    def game_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--game", default=DEFAULT_GAME, choices=names, help=f"the game (default {DEFAULT_GAME})")

    def rule_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="a table rule (list below)")
        # Every rule's name and values under --help too, as `vampire rules` prints them.
        p.formatter_class = argparse.RawDescriptionHelpFormatter
        if isinstance(p, _RulesParser):
            p.list_rules = names

    def vekn_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--vekn",
            metavar="ID",
            help="your VEKN id (digits): kept in your profile, recorded by your join; --vekn none forgets it",
        )

    play = sub.add_parser("play", help="a local table: you against bots")
    game_option(play)
    play.add_argument("--bots", help="a number N of bots, or a comma list of levels")
    play.add_argument("--seats", type=int, help="seats at the table, yours included (the rest: bots)")
    rule_option(play)
    play.add_argument("--name", help="your name at the table (default: the login name)")
    vekn_option(play)
    play.add_argument("--deck", metavar="FILE", help="the deck you bring (default: one the game ships)")
    play.set_defaults(func=cmd_play)

    host = sub.add_parser("host", help="open a table on the LAN and show its address")
    game_option(host)
    host.add_argument("--seats", type=int, help="number of seats (default: the game's usual number)")
    host.add_argument("--port", type=int, help="TCP port (default: the table's usual port; 0: any free port)")
    host.add_argument("--bind", default="0.0.0.0", help="address to listen on (default: every interface)")
    host.add_argument("--bots", metavar="SPEC", help="bots taking seats: a number N, or a comma list of levels")
    host.add_argument("--save", metavar="FILE", help="the table's log file (default: one in the data directory)")
    host.add_argument("--resume", metavar="FILE", help="reopen the table saved in FILE and go on")
    host.add_argument(
        "--headless", action="store_true", help="no seat and no screen: a table server printing its progress"
    )
    host.add_argument("--name", help="your profile name (default: the login name)")
    host.add_argument(
        "--no-announce",
        action="store_true",
        help="do not announce the table on the LAN (also off when VAMPIRE_NO_DISCOVERY=1 is set)",
    )
    vekn_option(host)
    rule_option(host)
    _hidden(host)
    host.set_defaults(func=cmd_host)

    join = sub.add_parser("join", help="take a seat at a table on the LAN")
    join.add_argument(
        "address",
        metavar="HOST[:PORT]",
        nargs="?",
        help="the host's address; without it, the tables announced on the LAN are listed to choose from "
        "(--bot and --spectate take the only one, and exit 2 when there are several)",
    )
    join.add_argument(
        "--list", action="store_true", help="print the tables heard on the LAN within a few seconds, and exit"
    )
    join.add_argument("--name", help="your profile name (default: the login name)")
    vekn_option(join)
    join.add_argument("--spectate", action="store_true", help="watch without a seat, on the table screen")
    join.add_argument("--text", action="store_true", help="with --spectate: print the game as text instead")
    join.add_argument("--bot", metavar="LEVEL", help="play as a bot of this level, without a screen")
    join.add_argument("--deck", metavar="FILE", help="the deck you bring, for games whose players bring one")
    join.add_argument("--state", metavar="DIR", help="keep this peer's log, secrets (and a bot's key) in DIR")
    join.add_argument("--quiet", action="store_true", help="print connection changes and the end only")
    join.add_argument("--trace", metavar="FILE", help=argparse.SUPPRESS)
    _hidden(join)
    join.set_defaults(func=cmd_join)

    sim = sub.add_parser("simulate", help="bots play whole games; prints wins and mean scores")
    game_option(sim)
    sim.add_argument("--seats", type=int)
    sim.add_argument("--games", type=int, default=1)
    sim.add_argument("--bots", help="a number N of bots of the default level (the rest filler), or a comma list")
    sim.add_argument("--seed", type=int, default=0)
    rule_option(sim)
    sim.add_argument("--verbose", action="store_true", help="print the first game move by move")
    sim.add_argument("--protocol", action="store_true", help="play through the signed log and the deck protocol")
    sim.add_argument("--save", metavar="DIR", help="with --protocol: save each game's log (and secrets) in DIR")
    sim.set_defaults(func=cmd_simulate)

    replay = sub.add_parser("replay", help="step through a saved log")
    replay.add_argument("file")
    replay.add_argument("--text", action="store_true", help="print the game entry by entry")
    replay.add_argument("--no-hands", action="store_true", help="do not show the hands after each seed reveal")
    replay.set_defaults(func=cmd_replay)

    audit = sub.add_parser(
        "audit",
        help="check a saved log: signatures, chain, rules, every shuffle",
        description="Exit 0: complete and every check passed; 1: a fault, named: either of the file "
        "(changed after it was signed, or damaged: no player is blamed) or a player's proven cheat "
        "(a validly signed entry that breaks a rule or a proof); 2: no fault, but unfinished or with "
        "events whose seeds were never revealed; 3: nothing checked: the file is missing or unreadable, "
        "is not a log file, or is a log of a game this program does not know. "
        "A fork evidence file (FILE.vtfork, written by a peer that caught its host signing two "
        "entries for one seq) is checked on its own: exit 1: it proves the fork; 2: it proves "
        "nothing (forged or changed); 3: it cannot be read as one. "
        "At each seed reveal the audit recomputes every key and every shuffle's cards from the seeds "
        "and checks every card; proofs and shares are verified as they arrive. --strict also "
        "re-derives every proof and share from its author's seed and names a seat whose proof or "
        "share was not made from its seed (slower: about the time it took to make them).",
    )
    audit.add_argument("file")
    audit.add_argument("--json", action="store_true", help="print the report as JSON")
    audit.add_argument(
        "--strict",
        action="store_true",
        help="also re-derive every proof and share from the revealed seeds (PROTOCOL.md 6.3, item 7)",
    )
    audit.set_defaults(func=cmd_audit)

    result = sub.add_parser(
        "result",
        help="a table's result for a tournament organiser (seats, points, wins)",
        description="Reads the result of a saved table (a game with an organiser's result): the log's signatures, chain and rules are "
        "checked, the shuffles, shares and seeds are not verified again (vampire audit FILE checks them).",
    )
    result.add_argument("file")
    result.add_argument("--round", type=int, metavar="R", help="the tournament round this table played (from 1)")
    result.add_argument("--table", type=int, metavar="T", help="the table's number in its round (from 1)")
    result.add_argument("--format", choices=("text", "csv", "json"), default="text", help="text (default), csv or json")
    result.set_defaults(func=cmd_result)

    rules = sub.add_parser("rules", help="list each game's table rules, defaults and allowed values")
    rules.add_argument("--game", choices=names, help="one game only")
    rules.set_defaults(func=cmd_rules)

    deck = sub.add_parser(
        "deck",
        help="check a deck file: what a table would read from it, and every problem",
        description="Exit 0: a table would take it; 1: a table would refuse it (every problem is named).",
    )
    deck.add_argument("file")
    deck.add_argument("--game", choices=names, help="the game (default: the one whose players bring a deck)")
    rule_option(deck)
    deck.add_argument("--exact", action="store_true", help="a name that is no card's exact name is a problem")
    deck.set_defaults(func=cmd_deck)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``vampire`` command line; returns the exit status."""
    args_in = list(sys.argv[1:] if argv is None else argv)
    if "--ascii" in args_in:  # accepted before or after the command, for every screen
        args_in.remove("--ascii")
        os.environ["VAMPIRE_ASCII"] = "1"  # tui.glyphs.ASCII_ENV, read by the app
    try:
        parser = build_parser()
        args = parser.parse_args(args_in)
        return int(args.func(args) or 0)
    except VampireError as err:
        print(f"vampire: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``vampire simulate --verbose | head``): nothing left to say.
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
