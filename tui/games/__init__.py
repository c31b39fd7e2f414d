"""The registry of the games' front ends (DESIGN.md, "Layout": ``tui/games/<game>/``).

Like :mod:`engine.games`, this module names no game. A game's front end is found through an entry
point of the group :data:`GROUP`, named as the game and valued ``module:FRONT_END``, a
:class:`FrontEnd`: its table screen (None while the game has none), its help, its end-of-game
summary and its replay drawing. The games that ship declare theirs in this project's
``pyproject.toml`` (``[project.entry-points."vampire_table.frontends"]``). The shared screens (home,
lobby, replay, results, help) ask :func:`find_front_end` for what is game-specific.

A game the engine knows but no front end was declared or registered for (a test's game) gets a
plain front end made from its spec: no table screen, the result's summary at the end, the entries
alone in a replay.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any, Protocol

from engine.errors import VampireError
from engine.games import UnknownGame, find_game, game_names
from tui.files import vampire_command

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.app import ComposeResult
    from textual.screen import Screen

    from engine.games.base import Note
    from engine.replay import NoteRun
    from engine.table import Table
    from tui.replayer import Frame, Replay
    from tui.session import TableSession

GROUP = "vampire_table.frontends"
"""The entry-point group a game's front end is declared in: ``NAME = "package.module:FRONT_END"``."""


@dataclass(frozen=True)
class Marks:
    """Where a replay frame stands in the game, in the game's own units.

    ``where``: ``(unit, number)`` pairs, largest unit first (``(("round", 2), ("trick", 3))``;
    number 0: not in one now); ``starts``: the units this frame's entry began (the replay jumps to
    these)."""

    where: tuple[tuple[str, int], ...] = ()
    starts: frozenset[str] = frozenset()


class ReplayKit(Protocol):
    """How a game draws a replay frame, inside the shared replay screen.

    ``units``: the two units the replay jumps by, ``(small, big)`` (``("trick", "round")``)."""

    units: tuple[str, str]

    def marks(self, before: Marks, prev_state: Any, state: Any) -> Marks:
        """The marks of a frame whose entry turned ``prev_state`` into ``state`` (either may be
        None before the game starts); ``before``: the previous frame's marks."""
        ...

    def compose(self) -> ComposeResult:
        """The game's panels, placed between the replay's title and its entries."""
        ...

    def mounted(self, screen: Screen[Any]) -> None:
        """Set up the panels once mounted (border titles, what starts hidden)."""
        ...

    def show(self, screen: Screen[Any], replay: Replay, frame: Frame, spoil: bool) -> None:
        """Draw ``frame`` in the panels. ``spoil``: show every hidden card the log reveals later."""
        ...


class LobbyKit(Protocol):
    """What a seat brings to a game whose seats bring something (a VTES deck), in the lobby: a
    line saying what this seat brings (counts, problems), and a chooser. ``key_label``: the
    lobby footer's word for the chooser's key ("Choose deck")."""

    key_label: str

    def describe(self, brought: Any, needed: bool, table: Table) -> RenderableType:
        """The lobby's line: what ``brought`` holds (None: nothing yet) and any problem the table
        ``table`` would have with it; ``needed``: the table refused the seat for want of it."""
        ...

    def chooser(self, table: Table) -> Screen[Any]:
        """A modal screen that picks what to bring for ``table`` (its rules), dismissed with the
        game's ``SeatKit`` value, or None when the person cancels."""
        ...


@dataclass(frozen=True)
class GameEnd:
    """What the end-of-game screen says about the game: ``headline`` (a sentence, with the
    winners), and ``body`` (a table of scores, a result text; None: nothing more)."""

    headline: str
    body: RenderableType | None = None


def result_summary(table: Table, me: int | None = None) -> GameEnd:
    """The plain end of a game: its result's summary with the seat names filled in (the game
    ended without a result: "The game ended")."""
    state = table.gstate
    result = table.game.result(state) if table.game is not None and state is not None else None
    if result is None:
        return GameEnd("The game ended")
    names = {f"s{i}": name for i, name in enumerate(table.names)}
    return GameEnd("Game over. " + result.summary.format(**names))


@dataclass(frozen=True)
class FrontEnd:
    """One game's front end.

    - ``name``: the game's registry name (:func:`engine.games.find_game`); ``title``: for players;
    - ``table_screen(session)``: the screen a seat (or a spectator) plays at; None: the game has no
      table screen yet, and ``no_screen`` says so (and what to do instead) in a sentence;
    - ``help``: the game's sections of the help screen (Textual markup): its keys and its rules in
      short;
    - ``game_end(table, me)``: the end-of-game summary (``me``: this player's seat, or None);
    - ``replay()``: how a replay draws the game's frames (None: the entries alone);
    - ``home_options``: the table options the home screen's forms offer (names in the game's
      option schema), in order;
    - ``lobby_kit()``: what a seat brings, shown and chosen in the lobby (None: its seats bring
      nothing).
    - ``option_words(options)``: a table's options (every one, defaults filled in) as sentences for
      the help; None: the help lists each option's description and value.
    - ``fold(notes)``: the one note a run of consecutive narration notes reads as in the game log
      and ``vampire replay --text`` (e.g. a window's passes), or None when they do not fold; None:
      one line per note. The narration itself keeps one note per act.
    - ``sieve()``: a fresh :data:`engine.replay.NoteSieve` for one reader of the narration, which
      leaves out a note that only repeats what that reader said already (a seat's "done voting"
      again after every later vote); None: every note is shown.
    - ``seat_given_up``: what the game does with a seat the others vote to give up after it left
      (PROTOCOL.md 6.5; the game's ``abandon``), as the end of a sentence to its player.
    """

    name: str
    title: str
    table_screen: Callable[[TableSession], Screen[Any]] | None = None
    no_screen: str = ""
    help: str = ""
    game_end: Callable[[Table, int | None], GameEnd] = result_summary
    replay: Callable[[], ReplayKit] | None = None
    home_options: tuple[str, ...] = field(default=())
    lobby_kit: Callable[[], LobbyKit] | None = None
    option_words: Callable[[Mapping[str, Any]], list[str]] | None = None
    fold: Callable[[Sequence[Note]], Note | None] | None = None
    sieve: Callable[[], Callable[[Note], bool]] | None = None
    seat_given_up: str = "the game goes on without you"

    def note_run[T](self) -> NoteRun[T] | None:
        """A fresh :class:`engine.replay.NoteRun` for a reader of this game's narration that
        prints line by line (``fold`` and ``sieve``), or None when every note is a line."""
        from engine.replay import NoteRun

        if self.fold is None and self.sieve is None:
            return None
        return NoteRun(self.fold or _no_fold, self.sieve() if self.sieve is not None else None)

    @property
    def may_sit(self) -> str | None:
        """None when a person can take a seat at this game's table in the TUI, else the sentence
        that says why not and what to do instead."""
        return None if self.table_screen is not None else self.no_screen


def _no_fold(notes: Sequence[Note]) -> None:
    """A game's notes never fold: one line each."""
    return None


def plain_front_end(name: str) -> FrontEnd:
    """The front end of a game that registered none: no table screen, the plain result."""
    try:
        spec = find_game(name)
    except UnknownGame:
        return FrontEnd(name, name, no_screen=f"This program has no game called {name!r}.")
    return FrontEnd(
        name,
        spec.title,
        no_screen=(
            f"The screen cannot play {spec.title} yet: open the table with --headless, and seat players "
            f"with {vampire_command()} join HOST --bot {spec.default_bot}."
        ),
    )


_registered: dict[str, FrontEnd] = {}


def register_front_end(front: FrontEnd) -> None:
    """Make ``front`` the front end of its game in this process (replacing any other)."""
    _registered[front.name] = front


def unregister_front_end(name: str) -> None:
    """Forget a front end registered with :func:`register_front_end` (tests)."""
    _registered.pop(name, None)


@functools.cache
def installed() -> dict[str, EntryPoint]:
    """The entry point of every installed front end, by game name (read once per process; a name
    declared twice keeps its first declaration). Loads no front end."""
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=GROUP):
        found.setdefault(point.name, point)
    return found


@functools.cache
def _load(point: EntryPoint) -> FrontEnd:
    """The front end an entry point gives (imported on first use). Raises VampireError with a
    sentence when it gives none."""
    try:
        front = point.load()
    except (ImportError, AttributeError) as err:
        raise VampireError(
            f"the front end of {point.name!r} is declared as {point.value!r}, which fails to load ({err})"
        ) from None
    if not isinstance(front, FrontEnd) or front.name != point.name:
        raise VampireError(f"the front end of {point.name!r} is declared as {point.value!r}, which is not its FrontEnd")
    return front


def find_front_end(name: str | None) -> FrontEnd:
    """The front end of the game called ``name``: a registered one, else the one that ships,
    else :func:`plain_front_end`. ``name`` None (a table whose game is not known yet) gives a
    plain front end with no title."""
    if name is None:
        return FrontEnd("", "A table", no_screen="The table has not said yet which game it plays.")
    if name in _registered:
        return _registered[name]
    point = installed().get(name)
    if point is not None:
        return _load(point)
    return plain_front_end(name)


def front_end_of(table: Table) -> FrontEnd:
    """The front end of the game ``table`` plays (its genesis entry's game)."""
    return find_front_end(table.game_name if table.game is not None else None)


def lobby_kit_of(table: Table) -> LobbyKit | None:
    """The lobby kit of ``table``'s game (None: its seats bring nothing, or no game yet)."""
    front = front_end_of(table)
    return front.lobby_kit() if front.lobby_kit is not None else None


def lobby_kit_line(session: TableSession) -> RenderableType:
    """The lobby's line on what this seat brings (empty for a game whose seats bring nothing,
    and for a spectator)."""
    kit = lobby_kit_of(session.table)
    if kit is None or getattr(session, "watching", False):
        return ""
    return kit.describe(getattr(session, "brought", None), bool(getattr(session, "needs_kit", False)), session.table)


def choose_kit(screen: Screen[Any], session: TableSession) -> None:
    """Open the game's chooser over ``screen``; what the person picks, the seat brings now
    (``session.bring``); a refusal is a notification's sentence."""
    kit = lobby_kit_of(session.table)
    if kit is None:
        return

    def chosen(brought: Any) -> None:
        if brought is None:
            return
        try:
            session.bring(brought)  # type: ignore[attr-defined]
        except VampireError as err:
            screen.notify(str(err), severity="error")

    screen.app.push_screen(kit.chooser(session.table), chosen)


def every_front_end() -> list[FrontEnd]:
    """The front end of every game the engine knows, in the registry's order."""
    return [find_front_end(name) for name in game_names()]


def playable() -> list[FrontEnd]:
    """The front ends a person can sit at (those with a table screen), in the registry's order."""
    return [front for front in every_front_end() if front.table_screen is not None]


def help_text(names: Sequence[str]) -> str:
    """The help sections of the games called ``names``, one after another (Textual markup)."""
    return "\n\n".join(text for text in (find_front_end(n).help.strip("\n") for n in names) if text)


__all__ = [
    "GROUP",
    "FrontEnd",
    "GameEnd",
    "LobbyKit",
    "Marks",
    "ReplayKit",
    "choose_kit",
    "every_front_end",
    "find_front_end",
    "front_end_of",
    "help_text",
    "installed",
    "lobby_kit_line",
    "lobby_kit_of",
    "plain_front_end",
    "playable",
    "register_front_end",
    "result_summary",
    "unregister_front_end",
]
