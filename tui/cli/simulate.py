"""``vampire simulate``: bots play whole games, in simulation or through the signed log and the
deck protocol (DESIGN.md, "The command line")."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import VampireError
from engine.games import find_game

if TYPE_CHECKING:
    from engine.games.spec import GameSpec


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
    wins and scores per player, the moves, and what the game counts besides (its own tallies,
    such as actions and blocks), summed over the games."""
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
        taken: list[Any] = []  # each seat brings a deck unlike the others' while the game ships enough
        for s in range(n):
            rng = random.Random(f"{seed}/{g}/{s}")
            brought = None
            if spec.kit is not None:
                kit = spec.kit()
                brought = kit.for_bot(rng, taken)
                taken.append(brought)
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
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            what = "it is a file, not a folder" if isinstance(e, FileExistsError) else e.strerror or str(e)
            raise VampireError(f"Cannot save the logs in {out_dir}: {what}.") from e
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
