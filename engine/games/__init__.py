"""The registry of games (DESIGN.md, "Games behind one interface"; after python-chess's
``VARIANTS``/``find_variant``, OpenSpiel's ``register_game`` and harlequin's adapters).

A game is a plugin: a package holding a ``SPEC`` (a :class:`~engine.games.spec.GameSpec`),
found through an entry point of the group :data:`GROUP` whose name is the game's name and whose
value is ``module:SPEC``. The games that ship declare theirs in this project's ``pyproject.toml``
(``[project.entry-points."vampire_table.games"]``); another distribution installed beside it
declares its own, and every process of a table (host and clients alike) finds it without a line
changing here. Nothing in this module names a game: the game opened when none is named is the
one whose spec says so (:func:`default_game`).

A test adds a game to one process without installing anything with :func:`register_game`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

from engine.errors import VampireError
from engine.games.base import SeatFact
from engine.games.spec import GameSpec

if TYPE_CHECKING:
    from engine.games.base import Game

GROUP = "vampire_table.games"
"""The entry-point group a game is declared in: ``NAME = "package.module:SPEC"``."""


class UnknownGame(VampireError):
    """A game name that no installed or registered game has, or an entry point that gives no
    game (its module fails to import, or its value is not a GameSpec of that name)."""


_registered: dict[str, GameSpec] = {}


def register_game(spec: GameSpec) -> None:
    """Make ``spec`` findable by its name in this process (replacing one of the same name, an
    installed one included). Tests add a game this way without installing it."""
    _registered[spec.name] = spec


def unregister_game(name: str) -> None:
    """Forget a game registered with :func:`register_game` (tests)."""
    _registered.pop(name, None)


@functools.cache
def installed() -> dict[str, EntryPoint]:
    """The entry point of every installed game, by name (read once per process; a name declared
    twice keeps its first declaration). Loads no game."""
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=GROUP):
        found.setdefault(point.name, point)
    return found


def _load(point: EntryPoint) -> GameSpec:
    """The spec an entry point gives. Raises UnknownGame with a sentence when it gives none."""
    try:
        spec = point.load()
    except (ImportError, AttributeError) as err:
        raise UnknownGame(
            f"the game {point.name!r} is declared as {point.value!r}, which fails to load ({err})"
        ) from None
    if not isinstance(spec, GameSpec):
        raise UnknownGame(f"the game {point.name!r} is declared as {point.value!r}, which is not a GameSpec")
    if spec.name != point.name:
        raise UnknownGame(f"the game {point.name!r} is declared as {point.value!r}, the spec of {spec.name!r}")
    return spec


@functools.cache
def _installed_spec(name: str) -> GameSpec:
    return _load(installed()[name])


def game_names() -> list[str]:
    """Every game's name: the installed ones, then any registered only, sorted within each."""
    have = installed()
    return sorted(have) + sorted(n for n in _registered if n not in have)


def find_game(name: str) -> GameSpec:
    """The spec of the game called ``name`` (a registered one first, else the installed one; its
    module is imported only now). Raises :class:`UnknownGame` with the names there are, or saying
    why an installed game's entry point gives no game."""
    if name in _registered:
        return _registered[name]
    if name in installed():
        return _installed_spec(name)
    raise UnknownGame(f"no game is called {name!r}: choose {', '.join(game_names())}")


def default_game() -> str:
    """The name of the game ``vampire play`` and the home screen open when none is named: the
    first game (in :func:`game_names` order) whose spec has ``opens_first``, else the first game.
    Loads every game's spec (not its rules). Raises :class:`UnknownGame` when no game is there."""
    names = game_names()
    if not names:
        raise UnknownGame("no game is installed: reinstall vampire-table")
    return next((n for n in names if find_game(n).opens_first), names[0])


def known_facts() -> dict[str, SeatFact]:
    """Every seat fact a game here takes (:class:`~engine.games.base.SeatFact`), by key: what a
    player may state at some table, kept in a profile and given as ``--KEY`` (a key two games
    declare keeps the first's rule, in :func:`game_names` order). Loads every game's spec."""
    facts: dict[str, SeatFact] = {}
    for name in game_names():
        for fact in find_game(name).seat_facts:
            facts.setdefault(fact.key, fact)
    return facts


class RulesByName(Mapping[str, "Game"]):
    """Every game's rules object by name, loaded on first use (what the table, the seat and the
    audit look a genesis entry's game up in)."""

    def __getitem__(self, name: str) -> Game:
        try:
            return find_game(name).rules()
        except UnknownGame:
            raise KeyError(name) from None

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in game_names()

    def __iter__(self) -> Iterator[str]:
        return iter(game_names())

    def __len__(self) -> int:
        return len(game_names())


def all_rules() -> RulesByName:
    """Every registered game's rules, by name (see :class:`RulesByName`)."""
    return RulesByName()


__all__ = [
    "GROUP",
    "GameSpec",
    "RulesByName",
    "UnknownGame",
    "all_rules",
    "default_game",
    "find_game",
    "game_names",
    "installed",
    "known_facts",
    "register_game",
    "unregister_game",
]
