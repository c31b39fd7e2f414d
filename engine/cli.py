"""The ``vampire`` command line (DESIGN.md, "The command line").

Errors the user can cause print as one sentence on stderr and exit 2 (usage) or 1; never a traceback.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

from engine.errors import VampireError

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


def games() -> Any:
    """The game rules by command-line name."""
    from engine.games import all_rules

    return all_rules()


def parse_rules(pairs: Sequence[str]) -> dict[str, str]:
    """``--rule name=value`` pairs into a mapping (the game's option schema types them)."""
    rules: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise VampireError(f"--rule takes name=value, not {pair!r}")
        rules[name.strip()] = value.strip()
    return rules


def seat_levels(spec: str | None, seats: int | None, game: Any) -> list[str]:
    """Bot levels, one per seat, for a table of bots only.

    No spec: one heuristic bot and random bots in the other seats. A number N: N heuristic bots,
    random bots in the other seats. A list: one bot each.
    """
    from engine.bots import BotSpecError, parse_bots
    from engine.games import find_game

    gspec = find_game(game.name)
    if spec is not None and not spec.strip().isdigit():
        levels = parse_bots(spec, gspec)
        if seats is not None and seats != len(levels):
            raise BotSpecError(f"--bots names {len(levels)} bots but --seats is {seats}")
        seats = len(levels)
    else:
        if seats is None:
            seats = gspec.default_seats
        if not game.min_seats <= seats <= game.max_seats:
            raise VampireError(f"{game.title} is played by {game.min_seats} to {game.max_seats} players, not {seats}")
        heuristic = int(spec) if spec is not None else 1
        if heuristic > seats:
            raise BotSpecError(f"--bots {heuristic} is more bots than the {seats} seats")
        levels = [gspec.default_bot] * heuristic + [gspec.filler_bot] * (seats - heuristic)
    if not game.min_seats <= seats <= game.max_seats:
        raise VampireError(f"{game.title} is played by {game.min_seats} to {game.max_seats} players, not {seats}")
    return levels


def simulate(
    game_name: str,
    levels: list[str],
    count: int,
    seed: int,
    rules: dict[str, str],
    verbose: bool,
    out: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Play ``count`` games between bots; players rotate seats each game. Returns the tallies."""
    from engine.games import find_game
    from engine.sim import play_game

    spec = find_game(game_name)
    game = games()[game_name]
    n = len(levels)
    names = [f"{BOT_NAMES[p % len(BOT_NAMES)]}" for p in range(n)]
    wins = [0.0] * n
    score_sum = [0] * n
    moves = 0
    game.setup(n, rules)  # option errors before any output
    out(
        f"{game.title}: {n} seats, {count} game{'s' if count != 1 else ''}, seed {seed}; players change seats every game."
    )
    for g in range(count):
        # Player p sits at seat (p + g) mod n.
        seat_of = [(p + g) % n for p in range(n)]
        player_at = {s: p for p, s in enumerate(seat_of)}
        game_seed = seed * 1_000_003 + g
        private: dict[tuple[int, str], list[str]] = {}
        bots = []
        for s in range(n):
            rng = random.Random(f"{seed}/{g}/{s}")
            brought = spec.kit().for_bot(rng) if spec.kit is not None else None
            if spec.kit is not None:
                for part, cards in spec.kit().deck_lists(brought).items():
                    private[(s, f"{part}/{s}")] = cards
            bots.append(spec.bot(levels[player_at[s]], rng, brought))
        seat_names = [names[player_at[s]] for s in range(n)]
        printer = None
        if verbose and g == 0:
            out("")
            printer = _narrator(seat_names, out)
        record = play_game(game, bots, seed=game_seed, options=rules, private_decks=private, on_note=printer)
        moves += record.moves
        for s in range(n):
            score_sum[player_at[s]] += record.result.scores[s]
        for s in record.result.winners:
            wins[player_at[s]] += 1 / len(record.result.winners)
    out("")
    width = max(len(x) for x in names)
    # VTES scores are victory points kept in half-points.
    unit, scale = spec.score.label, spec.score.scale
    out(f"{'player':<{width}}  {'bot':<9}  {'wins':>7}  {'win %':>6}  {unit:>10}")
    for p in range(n):
        out(
            f"{names[p]:<{width}}  {levels[p]:<9}  {wins[p]:>7.1f}  {100 * wins[p] / count:>5.1f}%  "
            f"{score_sum[p] / count / scale:>10.2f}"
        )
    if spec.score.note:
        out(f"({spec.score.note})")
    return {"wins": wins, "mean_scores": [s / count for s in score_sum], "moves": moves}


def _narrator(names: list[str], out: Callable[[str], None]) -> Callable[[Any], None]:
    def show(note: Any) -> None:
        text = note.render(names)
        out(text)
        if " wins the trick." in text or " takes " in text or (text.startswith("Round") and "ends" in text):
            out("")

    return show


def cmd_simulate(args: argparse.Namespace) -> int:
    game = games()[args.game]
    levels = seat_levels(args.bots, args.seats, game)
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
    """Play ``count`` bot games through the signed log and the deck protocol; save each log in
    ``save`` (a directory) as game-<k>.vtlog with each seat's secrets file beside it."""
    import time
    from pathlib import Path

    from engine.local import new_local_game

    out_dir = Path(save) if save else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    game = games()[game_name]
    print(
        f"{game.title}: {len(levels)} seats, {count} game{'s' if count != 1 else ''} through the signed log and the deck protocol."
    )
    for g in range(count):
        log_path = secrets_dir = None
        if out_dir is not None:
            log_path = out_dir / f"game-{g}.vtlog"
            if log_path.exists():
                raise VampireError(f"{log_path} exists already; choose another --save directory")
            secrets_dir = out_dir / f"game-{g}-secrets"
            secrets_dir.mkdir(exist_ok=True)
        start = time.perf_counter()
        local = new_local_game(
            game_name, levels, rules, save=log_path, secrets_dir=secrets_dir, seed=seed * 1_000_003 + g
        )
        local.run()
        table = local.table
        result = table.game.result(table.gstate)
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


def cmd_audit(args: argparse.Namespace) -> int:
    import json

    from engine.audit import audit_file

    report = audit_file(args.file, games())
    print(json.dumps(report.as_json(), indent=2) if args.json else report.text())
    return report.code


def cmd_result(args: argparse.Namespace) -> int:
    """A VTES table's result (seat, VP, GW) for a tournament organiser."""
    from engine.protocol.log import read_log
    from engine.table import Table, TableRefusal

    log = read_log(args.file)
    table = Table(games())
    for entry in log.entries:
        try:
            table.apply(entry)
        except TableRefusal as err:
            raise VampireError(
                f"entry {entry.seq} of {args.file} is refused ({err.detail}); run vampire audit"
            ) from None
    from engine.games import find_game

    spec = find_game(table.game_name) if table.game_name else None
    if spec is None or spec.organiser_result is None:
        raise VampireError(
            f"{args.file} is a game of {table.game.title if table.game else 'nothing'}, which has no result for an organiser"
        )
    if table.fault is not None:
        raise VampireError(
            f"the table stopped on a proven cheat ({table.fault.describe(table.names)}); run vampire audit"
        )
    print(spec.organiser_result(table.gstate, table.names))
    if table.game.result(table.gstate) is None:
        print("(the game is not over: these are the VP so far)")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from engine.protocol.log import read_log
    from engine.replay import replay_lines

    log = read_log(args.file)  # a missing or broken file is a sentence here, before any screen
    if not args.text:
        from pathlib import Path

        from tui.app import Start, VampireApp

        app = VampireApp(Start("replay", Path(args.file)))
        app.run()
        return int(app.return_code or 0)
    for line in replay_lines(log, games(), show_hands=not args.no_hands):
        print(line)
    if log.torn:
        print("(a torn last frame, left by a crash mid-write, was dropped)")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """``vampire play``: you against bots in the TUI (a host and bot clients in this process over
    loopback TCP, net.local). ``--bots``: a number N of heuristic bots or a comma list of levels
    (default 3 heuristic bots)."""
    from engine.bots import parse_bots
    from engine.games import find_game
    from engine.games.base import parse_options
    from tui.app import Start, VampireApp
    from tui.session import LocalTableSpec

    game = games()[args.game]
    levels = parse_bots(args.bots, find_game(args.game)) if args.bots else [find_game(args.game).default_bot] * 3
    seats = len(levels) + 1
    if not game.min_seats <= seats <= game.max_seats:
        raise VampireError(
            f"{game.title} is played by {game.min_seats} to {game.max_seats} players: "
            f"you and {len(levels)} bot{'s' if len(levels) != 1 else ''} make {seats}"
        )
    rules = parse_rules(args.rule)
    parse_options(game.option_schema, rules)  # a bad rule is a sentence here, before any screen
    name = (args.name or "").strip() or None
    if name is None:
        import getpass

        try:
            name = getpass.getuser().strip() or "player"
        except Exception:  # no login name in this environment
            name = "player"
    app = VampireApp(Start("play", LocalTableSpec(name[:32], levels, rules, args.game)), name=name[:32])
    app.run()
    return int(app.return_code or 0)


def cmd_host(args: argparse.Namespace) -> int:
    """``vampire host``: open a table on the LAN (net.commands.run_host)."""
    import asyncio

    from net.commands import run_host

    return asyncio.run(run_host(args, games()))


def cmd_join(args: argparse.Namespace) -> int:
    """``vampire join HOST[:PORT]``: take a seat, watch, or run a bot (net.commands.run_join)."""
    import asyncio

    from net.commands import run_join

    return asyncio.run(run_join(args, games()))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="vampire", description="A peer-to-peer table for vampire card games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="a local table: you against bots")
    play.add_argument("--game", default="queen", choices=["queen"])
    play.add_argument("--bots", help="a number N of heuristic bots, or a comma list of levels")
    play.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="a table rule")
    play.add_argument("--name", help="your name at the table (default: the login name)")
    play.set_defaults(func=cmd_play)

    sim = sub.add_parser("simulate", help="bots play whole games; prints wins and mean scores")
    sim.add_argument("--game", default="queen", choices=sorted(games()))
    sim.add_argument("--seats", type=int)
    sim.add_argument("--games", type=int, default=1)
    sim.add_argument("--bots", help="a number N of heuristic bots (the rest random), or a comma list of levels")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="a table rule")
    sim.add_argument("--verbose", action="store_true", help="print the first game trick by trick")
    sim.add_argument("--protocol", action="store_true", help="play through the signed log and the deck protocol")
    sim.add_argument("--save", metavar="DIR", help="with --protocol: save each game's log (and secrets) in DIR")
    sim.set_defaults(func=cmd_simulate)

    from net.commands import add_parsers

    add_parsers(sub, sorted(games()))

    audit = sub.add_parser("audit", help="check a saved log: signatures, chain, rules, every shuffle")
    audit.add_argument("file")
    audit.add_argument("--json", action="store_true", help="print the report as JSON")
    audit.set_defaults(func=cmd_audit)

    result = sub.add_parser("result", help="a VTES table's result (seat, VP, GW) for a tournament organiser")
    result.add_argument("file")
    result.set_defaults(func=cmd_result)

    replay = sub.add_parser("replay", help="step through a saved log")
    replay.add_argument("file")
    replay.add_argument("--text", action="store_true", help="print the game entry by entry")
    replay.add_argument("--no-hands", action="store_true", help="do not show the hands after each seed reveal")
    replay.set_defaults(func=cmd_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
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
