"""The commands that read a saved log or the games' facts, with no screen and no network:
``vampire audit``, ``result``, ``rules``, ``deck`` and ``replay`` (DESIGN.md, "The command line")."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.errors import VampireError
from engine.games import find_game, game_names
from tui.files import shell_path, vampire_command


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


RESULT_UNVERIFIED = (
    "(read without verifying the shuffles, shares and seeds again; `{command} audit {file}` checks them)"
)
"""What ``vampire result`` says of the checks it skips."""


RESULT_NOT_OVER = 2
"""``vampire result``'s exit status for a game that is not over (its VP so far are printed), as
``vampire audit`` exits 2 for an unfinished log."""


def cmd_result(args: argparse.Namespace) -> int:
    """A table's result for a tournament organiser, for games that have one (the spec's
    ``organiser_result``): ``--round``/``--table`` number it, ``--format`` writes it as text, CSV
    or JSON; what each player stated comes from its `join` (its seat facts). The log's chain is
    checked as it is read, its signatures by another process while this one folds it
    (engine.protocol.signatures.SignaturesElsewhere: the first frame at fault is named, as
    read_log names it, before anything the fold found), and the table's rules as it is folded,
    but not the deck protocol's proofs, shares and seed recomputes
    (engine.table.vocab.Checks.CHEAP): it says so (on stdout
    under the text, on stderr for CSV and JSON), pointing to ``vampire audit``, which checks them.
    Returns 0 for a finished game, :data:`RESULT_NOT_OVER` for one that is not over; raises
    VampireError (exit 1) for a log it cannot read a result from."""
    for option, value in (("--round", args.round), ("--table", args.table)):
        if value is not None and value < 1:
            raise VampireError(f"{option} numbers from 1, and {value} is not a {option[2:]} number.")
    from engine.protocol.signatures import SignaturesElsewhere

    # The signatures are verified by another process, on another core, while this one folds.
    with SignaturesElsewhere(args.file) as elsewhere:
        from engine.games import all_rules
        from engine.games.spec import ResultFormat, TablePlace
        from engine.protocol.log import read_log_unverified
        from engine.table import Checks, Table, TableRefusal

        log = read_log_unverified(args.file)
        if not log.complete:
            log.verify()  # raises, naming the first frame at fault, as read_log does
        table = Table(all_rules(), Checks.CHEAP)
        try:
            for entry in log.entries:
                try:
                    table.apply(entry)
                except TableRefusal as err:
                    raise VampireError(
                        f"entry {entry.seq} of {args.file} is refused ({err.detail}); run {vampire_command()} audit {shell_path(Path(args.file))}"
                    ) from None
                except VampireError as err:  # a value the skipped checks would have refused
                    raise VampireError(
                        f"entry {entry.seq} of {args.file} cannot be read ({err}); run {vampire_command()} audit {shell_path(Path(args.file))}"
                    ) from None
        except Exception:
            elsewhere.collect()
            log.verify()  # a bad signature is named before what the fold found, as read_log names it
            raise
        elsewhere.collect()
        log.verify()  # every signature verifies before anything is printed
    spec = find_game(table.game_name) if table.game_name else None
    if spec is None or spec.organiser_result is None:
        what = spec.title if spec is not None else "nothing"
        raise VampireError(f"{args.file} is a game of {what}, which has no result for an organiser")
    if table.fault is not None:
        raise VampireError(
            f"the table stopped on a proven cheat ({table.fault.describe(table.names)}); run {vampire_command()} audit {shell_path(Path(args.file))}"
        )
    if table.gstate is None:
        raise VampireError(f"the game of {args.file} never started: there is no result yet")
    place = TablePlace(args.round, args.table, tuple(seat.facts for seat in table.seats))
    fmt = ResultFormat(args.format)
    print(spec.organiser_result(table.gstate, list(table.names), place, fmt))
    over = table.result() is not None
    if not over and fmt == ResultFormat.TEXT:
        print("(the game is not over: these are the VP so far)")
    note = RESULT_UNVERIFIED.format(command=vampire_command(), file=shell_path(Path(args.file)))
    print(note, file=sys.stdout if fmt == ResultFormat.TEXT else sys.stderr)
    return 0 if over else RESULT_NOT_OVER


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


def cmd_cards(args: argparse.Namespace) -> int:
    """``vampire cards [NAME…] [--coverage] [--json]``: what the table of the game that reads card
    texts (``--game``, or the one game whose spec has ``cards``) knows of its cards."""
    from engine.games import find_game, game_names

    if args.game is not None:
        spec = find_game(args.game)
        if spec.cards is None:
            raise VampireError(f"{spec.title}'s table reads no card text: there is nothing to show.")
    else:
        specs = [s for s in map(find_game, game_names()) if s.cards is not None]
        if len(specs) != 1:
            raise VampireError("name the game with --game." if specs else "no game here reads card texts.")
        spec = specs[0]
    assert spec.cards is not None
    return spec.cards(args.names, args.coverage, args.json, args.archive, print)


def _reader(game: str) -> Any:
    """How ``game``'s front end reads its narration line by line (:meth:`tui.games.FrontEnd.note_run`:
    runs of notes folded into one line, repeats left out; None: one line per note)."""
    from tui.games import find_front_end

    return find_front_end(game).note_run()


def cmd_replay(args: argparse.Namespace) -> int:
    from engine.games import all_rules
    from engine.protocol.log import read_log, stream_log
    from engine.replay import replay_lines

    if not args.text:
        read_log(args.file)  # a missing or broken file is a sentence here, before any screen
        from tui.app import Start, VampireApp
        from tui.terminal import need_terminal

        need_terminal(f"{vampire_command()} replay", "add --text to print it")

        app = VampireApp(Start("replay", Path(args.file)))
        app.run()
        return int(app.return_code or 0)
    log = stream_log(args.file)  # read as it is told, in bounded memory (docs/protocol.md 7.4, "Large logs")
    for line in replay_lines(log, all_rules(), show_hands=not args.no_hands, reader=_reader):
        print(line)
    if log.torn:
        print("(a torn last frame, left by a crash mid-write, was dropped)")
    return 0
