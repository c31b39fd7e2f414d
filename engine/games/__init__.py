"""The registry of games (DESIGN.md, "Games behind one interface"; after python-chess's
``VARIANTS``/``find_variant`` and OpenSpiel's ``register_game``).

Every game is one package under ``engine/games/`` with a ``spec`` module holding ``SPEC``, a
:class:`~engine.games.spec.GameSpec`. This module is the only place outside the games' own
packages that names them. Other games register themselves with :func:`register_game`, or are
loaded from the modules listed in the environment variable ``VAMPIRE_GAMES`` (``module:ATTR``
items separated by commas; a game added this way is found by every process of a table, host and
clients alike, without changing this file).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from engine.errors import VampireError
from engine.games.spec import GameSpec

if TYPE_CHECKING:
    from engine.games.base import Game

#: The games that ship, by command-line name: the module holding each one's ``SPEC``. A game's
#: spec is imported only when asked for, so that auditing one game loads nothing of another.
BUILTIN: dict[str, str] = {
    "queen": "engine.games.queen.spec",
    "vtes": "engine.games.vtes.spec",
}

#: The game ``vampire play`` and the home screen open when none is named.
DEFAULT_GAME = "queen"

ENV_GAMES = "VAMPIRE_GAMES"


class UnknownGame(VampireError):
    """A game name that no registered game has."""


_registered: dict[str, GameSpec] = {}


def register_game(spec: GameSpec) -> None:
    """Make ``spec`` findable by its name in this process (replacing one of the same name)."""
    _registered[spec.name] = spec


def unregister_game(name: str) -> None:
    """Forget a game registered with :func:`register_game` (tests)."""
    _registered.pop(name, None)


def _from_env() -> None:
    for item in filter(None, (part.strip() for part in os.environ.get(ENV_GAMES, "").split(","))):
        module, _, attr = item.partition(":")
        try:
            spec = getattr(importlib.import_module(module), attr or "SPEC")
        except (ImportError, AttributeError) as err:
            raise UnknownGame(f"{ENV_GAMES} names {item!r}, which gives no game ({err})") from None
        if not isinstance(spec, GameSpec):
            raise UnknownGame(f"{ENV_GAMES} names {item!r}, which is not a GameSpec")
        _registered.setdefault(spec.name, spec)


def game_names() -> list[str]:
    """Every game's name: those that ship, then any registered, sorted within each."""
    _from_env()
    return sorted(BUILTIN) + sorted(n for n in _registered if n not in BUILTIN)


def find_game(name: str) -> GameSpec:
    """The spec of the game called ``name``. Raises :class:`UnknownGame` with the names there are."""
    if name in _registered:
        return _registered[name]
    if name in BUILTIN:
        spec = importlib.import_module(BUILTIN[name]).SPEC
        assert isinstance(spec, GameSpec)
        return spec
    _from_env()
    if name in _registered:
        return _registered[name]
    raise UnknownGame(f"no game is called {name!r}: choose {', '.join(game_names())}")


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
    "BUILTIN",
    "DEFAULT_GAME",
    "ENV_GAMES",
    "GameSpec",
    "RulesByName",
    "UnknownGame",
    "all_rules",
    "find_game",
    "game_names",
    "register_game",
]
