"""The ``vampire`` argument parser and :func:`main`, which runs the command it names (DESIGN.md,
"The command line")."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from engine.errors import VampireError
from engine.games import default_game, find_game, game_names, known_facts
from tui.cli.host import cmd_host
from tui.cli.join import cmd_join
from tui.cli.logs import cmd_audit, cmd_cards, cmd_deck, cmd_replay, cmd_result, cmd_rules, rules_text
from tui.cli.play import cmd_home, cmd_play
from tui.cli.simulate import cmd_simulate


def _hidden(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stall-after", type=float, default=30.0, help=argparse.SUPPRESS)
    parser.add_argument("--abandon-after", type=float, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--ping", type=float, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--backoff-max", type=float, default=None, help=argparse.SUPPRESS)


def deck_exact_option(parser: argparse.ArgumentParser) -> None:
    """``--exact`` beside a seat's ``--deck``: a name that is not a card's exact name refuses the
    deck, in a sentence, instead of being read as the closest card (nothing is asked)."""
    parser.add_argument(
        "--exact",
        action="store_true",
        help="with --deck: refuse a deck with a name that is not a card's exact name, instead of reading it as "
        "the closest card",
    )


def internet_options(parser: argparse.ArgumentParser) -> None:
    """``--relay``: the relay of a table across the internet (``vampire host --internet``, ``vampire
    join TICKET``)."""
    parser.add_argument(
        "--relay",
        metavar="URL|off",
        help="across the internet: the relay to use when no direct path is found (default: n0's public "
        "relays); off: none, and no lookup either (direct addresses only)",
    )


DISTRIBUTION = "vampire-table"
"""The installed distribution whose version ``vampire --version`` prints."""


def version_text() -> str:
    """What ``vampire --version`` prints: the installed distribution's version and the protocol
    version its log entries and its network messages carry (PROTOCOL.md 1.2, 7), e.g.
    ``vampire 0.1.0 (vampire-table), protocol version 2``."""
    from importlib.metadata import PackageNotFoundError, version

    from engine.protocol.log import VERSION as LOG_VERSION
    from net.messages import VERSION as WIRE_VERSION

    try:
        ours = version(DISTRIBUTION)
    except PackageNotFoundError:
        ours = "(not installed: run from its source)"
    if LOG_VERSION == WIRE_VERSION:
        protocol = f"protocol version {LOG_VERSION}"
    else:
        protocol = f"protocol version {LOG_VERSION} (log entries), {WIRE_VERSION} (network)"
    return f"vampire {ours} ({DISTRIBUTION}), {protocol}"


class _Version(argparse.Action):
    """``--version``: print :func:`version_text` and exit 0 (read only when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(version_text())
        parser.exit(0)


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
    first = default_game()
    games_help = ", ".join(f"{n} ({find_game(n).title})" for n in names)
    parser = argparse.ArgumentParser(
        prog="vampire",
        description="A peer-to-peer table for vampire card games. With no command: the home screen.",
        epilog=f"Games: {games_help}. Table rules: vampire rules [--game G].",
    )
    parser.add_argument("--version", action=_Version, help="print the program's and the protocol's version, and exit")
    parser.add_argument("--name", help="your profile name (default: the login name)")
    parser.add_argument(
        "--ascii",
        action="store_true",
        help="draw only with characters every console font has (on by itself under TERM=linux); also after a command",
    )
    parser.set_defaults(func=cmd_home)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_RulesParser)

    def game_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--game", default=first, choices=names, help=f"the game (default {first})")

    def rule_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="a table rule (list below)")
        # Every rule's name and values under --help too, as `vampire rules` prints them.
        p.formatter_class = argparse.RawDescriptionHelpFormatter
        if isinstance(p, _RulesParser):
            p.list_rules = names

    facts = known_facts()

    def fact_options(p: argparse.ArgumentParser) -> None:
        """An option per seat fact a game here takes (``--KEY ID``): what the person states at a table."""
        for fact in facts.values():
            p.add_argument(
                f"--{fact.key}",
                metavar="ID",
                help=f"your {fact.label} ({fact.form}): kept in your profile, recorded by your join at a "
                f"table whose game takes it; --{fact.key} none forgets it",
            )

    play = sub.add_parser("play", help="a local table: you against bots")
    game_option(play)
    play.add_argument("--bots", help="a number N of bots, or a comma list of levels")
    play.add_argument("--seats", type=int, help="seats at the table, yours included (the rest: bots)")
    rule_option(play)
    play.add_argument("--name", help="your name at the table (default: the login name)")
    fact_options(play)
    play.add_argument(
        "--deck",
        metavar="FILE|NAME",
        help="the deck you bring: a file, or a bundled deck's name (default: one the game ships)",
    )
    deck_exact_option(play)
    play.add_argument("--resume", metavar="FILE", help="bring back the game against bots whose log is FILE, and go on")
    play.set_defaults(func=cmd_play)

    host = sub.add_parser("host", help="open a table on the LAN and show its address")
    game_option(host)
    host.add_argument("--seats", type=int, help="number of seats (default: the game's usual number)")
    host.add_argument("--port", type=int, help="TCP port (default: the table's usual port; 0: any free port)")
    host.add_argument(
        "--bind",
        default="0.0.0.0",
        help="the address to listen on (default: 0.0.0.0, every interface; friends are given this "
        "computer's LAN address either way; 127.0.0.1: this computer only)",
    )
    host.add_argument("--bots", metavar="SPEC", help="bots taking seats: a number N, or a comma list of levels")
    host.add_argument("--save", metavar="FILE", help="the table's log file (default: one in the data directory)")
    host.add_argument("--resume", metavar="FILE", help="reopen the table saved in FILE and go on")
    host.add_argument(
        "--headless", action="store_true", help="no seat and no screen: a table server printing its progress"
    )
    host.add_argument("--name", help="your profile name (default: the login name)")
    host.add_argument(
        "--deck",
        metavar="FILE|NAME",
        help="the deck your seat brings (a file, or a bundled deck's name), for games whose players bring one",
    )
    deck_exact_option(host)
    host.add_argument(
        "--no-announce",
        action="store_true",
        help="do not announce the table on the LAN (also off when VAMPIRE_NO_DISCOVERY=1 is set)",
    )
    host.add_argument(
        "--internet",
        action="store_true",
        help="also take friends across the internet (through their routers, no set-up): the lobby shows a "
        "ticket they join with; --resume keeps it",
    )
    internet_options(host)
    host.add_argument(
        "--forwarded",
        metavar="IP:PORT",
        help="with --internet: the public address and UDP port your router forwards to this computer's "
        "--port, written into the ticket",
    )
    fact_options(host)
    rule_option(host)
    _hidden(host)
    host.set_defaults(func=cmd_host)

    join = sub.add_parser("join", help="take a seat at a table on the LAN")
    join.add_argument(
        "address",
        metavar="HOST[:PORT]|TICKET",
        nargs="?",
        help="the host's address, or the ticket of a table across the internet; without it, the tables announced on the LAN are listed to choose from "
        "(--bot and --spectate take the only one, and exit 2 when there are several)",
    )
    join.add_argument(
        "--list", action="store_true", help="print the tables heard on the LAN within a few seconds, and exit"
    )
    join.add_argument("--name", help="your profile name (default: the login name)")
    fact_options(join)
    join.add_argument("--spectate", action="store_true", help="watch without a seat, on the table screen")
    join.add_argument("--text", action="store_true", help="with --spectate: print the game as text instead")
    join.add_argument(
        "--bot",
        metavar="LEVEL",
        help=(
            "play as a bot of this level, without a screen; its key is kept under its name, and the"
            " same command with its --name seats it again (the command is printed)"
        ),
    )
    join.add_argument(
        "--deck",
        metavar="FILE|NAME",
        help="the deck you bring (a file, or a bundled deck's name), for games whose players bring one",
    )
    deck_exact_option(join)
    join.add_argument("--state", metavar="DIR", help="keep this peer's log, secrets (and a bot's key) in DIR")
    join.add_argument("--quiet", action="store_true", help="print connection changes and the end only")
    internet_options(join)
    join.add_argument("--trace", metavar="FILE", help=argparse.SUPPRESS)
    _hidden(join)
    join.set_defaults(func=cmd_join)

    sim = sub.add_parser("simulate", help="bots play whole games; prints wins and mean scores")
    game_option(sim)
    sim.add_argument(
        "--seats", type=int, help="seats at each table (default: the game's usual number, or one per --bots level)"
    )
    sim.add_argument(
        "--games", type=int, default=1, help="how many games to play (default: 1); the bots change seats every game"
    )
    sim.add_argument("--bots", help="a number N of bots of the default level (the rest filler), or a comma list")
    sim.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the seed of every deal and bot choice: the same seed plays the same games (default: 0)",
    )
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
        help='also re-derive every proof and share from the revealed seeds (docs/protocol.md 6.8, "Strict re-derivation")',
    )
    audit.set_defaults(func=cmd_audit)

    result = sub.add_parser(
        "result",
        help="a table's result for a tournament organiser (seats, points, wins)",
        description="Reads the result of a saved table (a game with an organiser's result): the log's signatures, chain and rules are "
        "checked, the shuffles, shares and seeds are not verified again (vampire audit FILE checks them). "
        "Exit 0: the result of a finished game; 1: no result (the file cannot be read, its game has no "
        "organiser's result, it never started or stopped on a proven cheat); 2: the game is not over: "
        "the VP so far are printed.",
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
        help="check a deck file (or a bundled deck, by name): what a table would read from it, and every problem",
        description="Exit 0: a table would take it; 1: a table would refuse it (every problem is named).",
    )
    deck.add_argument("file", metavar="FILE|NAME", help="a deck file; a bundled deck's name when no file has it")
    deck.add_argument("--game", choices=names, help="the game (default: the one whose players bring a deck)")
    rule_option(deck)
    deck.add_argument("--exact", action="store_true", help="a name that is no card's exact name is a problem")
    deck.set_defaults(func=cmd_deck)

    cards = sub.add_parser(
        "cards",
        help="what the table knows of a game's cards: requirements, printed numbers, effects, what is left by hand",
        description="Each named card's record; --coverage: the share of the tournament archive's card copies "
        "whose effects the table applies fully, partly or leaves by hand. Exit 1: a name is no card's.",
    )
    cards.add_argument("names", nargs="*", metavar="NAME", help="a card's name")
    cards.add_argument("--game", choices=names, help="the game (default: the one whose table reads card texts)")
    cards.add_argument("--coverage", action="store_true", help="the archive's coverage")
    cards.add_argument("--json", action="store_true", help="as one JSON object")
    cards.add_argument("--archive", metavar="FILE", help="the archive's card frequency table (default: the shared one)")
    cards.set_defaults(func=cmd_cards)
    return parser


_GAME_COMMANDS = ("play", "host", "simulate", "rules")
"""The commands that take ``--game`` and no word of their own after the command."""


def _game_word(args: list[str]) -> list[str]:
    """``vampire play GAME`` read as ``vampire play --game GAME``: a game's name right after a
    command that takes ``--game`` and no other word (a newcomer types it so)."""
    if len(args) >= 2 and args[0] in _GAME_COMMANDS and args[1] in game_names() and "--game" not in args:
        return [args[0], "--game", *args[1:]]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``vampire`` command line; returns the exit status."""
    args_in = list(sys.argv[1:] if argv is None else argv)
    if "--ascii" in args_in:  # accepted before or after the command, for every screen
        args_in.remove("--ascii")
        os.environ["VAMPIRE_ASCII"] = "1"  # tui.glyphs.ASCII_ENV, read by the app
    try:
        parser = build_parser()
        args = parser.parse_args(_game_word(args_in))
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
