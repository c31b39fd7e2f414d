"""``vampire`` (the home screen) and ``vampire play`` (you against bots, on this computer)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from engine.errors import VampireError
from engine.games import find_game
from tui.cli.seats import _may_sit
from tui.files import vampire_command
from tui.terminal import need_terminal

_PLAY_INSTEAD = "watch bots play with no screen with {command} simulate --game {game} --verbose"
"""What ``vampire play`` says runs without a terminal."""


def cmd_home(args: argparse.Namespace) -> int:
    from engine.paths import seat_name
    from tui.app import VampireApp

    need_terminal(f"{vampire_command()}", f"name a command ({vampire_command()} --help lists them)")
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
    from engine.games import known_facts
    from engine.kits import profile_facts
    from engine.opening import order_table, parse_rules
    from engine.paths import seat_name
    from tui.app import Start, VampireApp
    from tui.session import LocalTableSpec

    if getattr(args, "resume", None):
        return _resume_play(args)
    spec = find_game(args.game)
    if why := _may_sit(args.game):
        raise VampireError(f"{why} Watch bots play it with {vampire_command()} simulate --game {spec.name} --verbose.")
    levels = parse_bots(args.bots, spec) if args.bots else [spec.default_bot] * 3
    if args.seats is not None:
        if args.bots and len(levels) + 1 != args.seats:
            raise VampireError(
                f"--seats {args.seats} is you and {args.seats - 1} bots, but --bots names {len(levels)}."
            )
        if not args.bots:
            levels = [spec.default_bot] * max(args.seats - 1, 0)
    if args.exact and not args.deck:
        raise VampireError("--exact checks the names of the deck you bring: give it with --deck.")
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

        ask = input if sys.stdin.isatty() else None
        brought = bring_file(spec, args.deck, rules, ask=ask, exact=args.exact, command=vampire_command())
    name = seat_name(args.name)
    given = {key: getattr(args, key, None) for key in known_facts()}
    profile_facts(name, given, args.game)  # checked and remembered: the table's session reads them from the profile
    need_terminal(f"{vampire_command()} play", _PLAY_INSTEAD.format(command=vampire_command(), game=spec.name))
    app = VampireApp(Start("play", LocalTableSpec(name, levels, rules, args.game, brought)), name=name)
    app.run()
    _farewell(app)
    return int(app.return_code or 0)


def _resume_play(args: argparse.Namespace) -> int:
    """``vampire play --resume FILE``: the game against bots saved in FILE, brought back as it was
    (its host from the log, you and its bots from the folder beside it: :mod:`tui.local_play`)."""
    from pathlib import Path

    from tui.app import Start, VampireApp
    from tui.local_play import resume_spec

    given = [flag for flag, value in (("--bots", args.bots), ("--seats", args.seats), ("--rule", args.rule)) if value]
    given += ["--deck"] if getattr(args, "deck", None) else []
    given += ["--exact"] if getattr(args, "exact", False) else []
    if given:
        raise VampireError(f"--resume brings the game back as it was: it takes no {' or '.join(given)}.")
    spec = resume_spec(Path(args.resume))
    need_terminal(f"{vampire_command()} play", _PLAY_INSTEAD.format(command=vampire_command(), game=spec.game))
    app = VampireApp(Start("play", spec), name=spec.name)
    app.run()
    _farewell(app)
    return int(app.return_code or 0)


def _farewell(app: Any) -> None:
    """Once the app closed: where its table's log is, and a guest's way back to its seat."""
    from tui.farewell import farewell_lines

    for line in farewell_lines(app.last_session):
        print(line)
