"""What a seat brings to a table: a game's :class:`~engine.games.spec.SeatKit` (a deck list, where
players bring their own), read and checked as a table would before anyone sits (``vampire deck
FILE`` prints the check, and ``vampire play --deck FILE`` says what it read before the game;
DESIGN.md, "The command line"), and what a player states about themself at a table, a game's
:class:`~engine.games.base.SeatFact` kept in the profile and carried by the seat's `join`
(docs/protocol.md 4.1).

Every game is reached through its spec: nothing here names one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.errors import VampireError
from engine.games import find_game, game_names, known_facts
from engine.games.base import parse_options
from engine.games.spec import GameSpec, KitCheck
from engine.paths import FORGET, ProfileError, load_profile, profile_path, remember_facts

READINGS_HINT = (
    "A name read as a close match is played as that card: if it is not the card you meant, write "
    "the card's exact name on its line (--exact makes each such line a problem)."
)
"""What ``vampire deck`` says under the names it read as close matches."""


def kit_game(game: str | None) -> GameSpec:
    """The game whose seats bring what is checked: ``game``, or else the one game whose seats bring
    something. Raises VampireError (an unknown game, a game whose seats bring nothing, or several
    such games and none named)."""
    if game is not None:
        spec = find_game(game)
        if spec.kit is None:
            raise VampireError(f"{spec.title} players bring nothing to a table: there is no file to check.")
        return spec
    specs = [spec for spec in map(find_game, game_names()) if spec.kit is not None]
    if not specs:
        raise VampireError("no game here has players bring anything to a table.")
    if len(specs) > 1:
        raise VampireError(f"name the game with --game ({', '.join(s.name for s in specs)}).")
    return specs[0]


def check_file(
    path: str, game: str | None = None, rules: Mapping[str, Any] | None = None, exact: bool = False
) -> KitCheck:
    """:meth:`SeatKit.check` of ``path`` for ``game`` (:func:`kit_game`) at a table with the table
    rules ``rules`` (``--rule`` values, typed by the game's option schema; missing ones take their
    defaults). Raises VampireError for a bad game or rule; what the file holds raises nothing."""
    spec = kit_game(game)
    assert spec.kit is not None  # kit_game chose a game whose seats bring something
    options = dict(parse_options(spec.option_schema, rules or {}))
    return spec.kit().check(path, options, exact)


def check_lines(check: KitCheck, noun: str) -> list[str]:
    """``vampire deck``'s report: what was read and its counts, every name read as a close match (with
    :data:`READINGS_HINT`), every note, every problem, then whether a table takes it."""
    lines = [check.summary]
    if check.readings:
        lines += [f"  {reading}" for reading in check.readings]
        lines.append(READINGS_HINT)
    lines += [f"  note: {note}" for note in check.notes]
    lines += [f"  problem: {problem}" for problem in check.problems]
    lines.append(f"A table would {'refuse' if check.refused else 'take'} this {noun}.")
    return lines


def check_command(
    path: str,
    game: str | None = None,
    rules: Sequence[str] = (),
    exact: bool = False,
    out: Callable[[str], None] = print,
) -> int:
    """``vampire deck FILE [--game G] [--rule NAME=VALUE] [--exact]``: print what a table would read
    from the file (:func:`check_lines`). Returns 0 when a table would take it, 1 when it would
    refuse it. Raises VampireError for a bad game or rule."""
    from engine.opening import parse_rules  # only here: it loads the table's protocol

    spec = kit_game(game)
    assert spec.kit is not None
    check = check_file(path, spec.name, parse_rules(rules), exact)
    for line in check_lines(check, spec.kit().noun):
        out(line)
    return 1 if check.refused else 0


def bring_file(
    spec: GameSpec,
    path: str,
    rules: Mapping[str, Any],
    say: Callable[[str], None] = print,
    ask: Callable[[str], str] | None = None,
    exact: bool = False,
    command: str = "vampire",
) -> Any:
    """What a person brings to a table of ``spec`` with the table rules ``rules`` (``vampire play
    --deck FILE``): the file read and checked as that table would (:func:`check_file`), its
    counts and every note said, and, when a name was read as a close match and ``ask`` is given
    (a terminal: it takes the question, returns the answer), whether to play with it; with
    ``exact`` (``--exact``) such a name is a problem instead, and nothing is asked. Returns
    what was read. Raises VampireError naming the file with every problem, or when the person
    answers no, the sentence naming ``command`` (this program's command as the person types it)
    for checking the file."""
    if spec.kit is None:
        raise VampireError(f"{spec.title} players bring no deck: play without --deck.")
    check = check_file(path, spec.name, rules, exact)
    if check.refused:
        raise VampireError(f"{Path(path).name}: {'; '.join(check.problems)}")
    say(f"You bring {check.summary}.")
    for note in (*check.readings, *check.notes):
        say(f"  {note}")
    if check.readings and ask is not None:
        these = "this name" if len(check.readings) == 1 else "these names"
        try:
            answer = ask(f"Play with {these} read as shown? [Y/n] ")
        except EOFError:
            answer = ""
        if answer.strip().lower() in ("n", "no"):
            names = (
                "the card's exact name on that line"
                if len(check.readings) == 1
                else "the cards' exact names on those lines"
            )
            raise VampireError(f"Write {names} of {path} ({command} deck {path} checks the file).")
    return check.brought


def profile_facts(
    profile: str, given: Mapping[str, str | None] | None = None, game: str | None = None, base: Path | None = None
) -> dict[str, str]:
    """What ``profile``'s player states at a table, by key: each fact in ``given`` (a ``--KEY VALUE``
    option; None: not given; :data:`~engine.paths.FORGET` removes it) checked by its game's rule
    and remembered in the profile, then every fact the profile keeps that a game here takes;
    ``game``: only the facts that game takes. Raises ProfileError with a sentence, having changed
    nothing, for a value its rule refuses (given or kept), a key no game takes, or an unusable
    profile file."""
    known = known_facts()
    changes: dict[str, str | None] = {}
    for key, value in (given or {}).items():
        if value is None:
            continue
        fact = known.get(key)
        if fact is None:
            raise ProfileError(f"No game here takes a {key!r} from its players.")
        if value.strip().lower() == FORGET:
            changes[key] = None
            continue
        try:
            changes[key] = fact.check(value)
        except VampireError as err:
            raise ProfileError(str(err)) from None
    kept = dict(load_profile(profile, base).facts)
    for key, change in changes.items():
        if change is None:
            kept.pop(key, None)
        else:
            kept[key] = change
    wanted = {f.key: f for f in find_game(game).seat_facts} if game is not None else known
    facts: dict[str, str] = {}
    for key, value in kept.items():
        fact = wanted.get(key)
        if fact is None:
            continue
        if not fact.valid(value):
            path = profile_path(profile, base)
            raise ProfileError(
                f"The profile file {path} holds {value!r} as its {fact.label}, which is not {fact.form}."
            )
        facts[key] = value
    if changes:
        remember_facts(profile, changes, base)
    return facts
