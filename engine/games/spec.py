"""A game's spec: the facts the table, the command line and the shared screens need about a game,
so that none of them has to test a game's name (DESIGN.md, "Games behind one interface").

Each game package defines one :class:`GameSpec` (``engine/games/<game>/spec.py``, ``SPEC``) and
the registry (:mod:`engine.games`) finds it by name.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from engine.errors import VampireError
from engine.games.base import TABLE_OPTIONS, SeatFact

if TYPE_CHECKING:
    from engine.games.base import Act, Game, OptionSpec


class BotSpecError(VampireError):
    """A ``--bots`` value, or a bot level, that names no bot of this game."""


class Bot(Protocol):
    """A player that chooses acts from a seat's view, never from other hands.

    ``legal`` is the game's ``legal_acts(view)``; ``None`` means the bot makes no act now.
    """

    def choose(self, view: Any, legal: list[Act]) -> Act | None: ...


class SeatKit(Protocol):
    """What a seat brings to a table before the game starts (VTES: a deck of crypt and library).

    ``Brought`` values are the game's own (a VTES ``Deck``); the table sees only the private deck
    lists they give.
    """

    noun: str
    """What the player brings, in a player's words ("deck")."""

    def load(self, path: str) -> Any:
        """Read what a player brings from a file. Raises a VampireError with a sentence."""
        ...

    def for_bot(self, rng: random.Random, taken: Sequence[Any] = ()) -> Any:
        """Something a bot may bring when nobody chose for it (a shipped deck, chosen by ``rng``),
        unlike each of ``taken`` (what the table's other seats bring) while the game ships enough:
        a seeded ``rng`` and the same ``taken`` give the same choice."""
        ...

    def deck_lists(self, brought: Any) -> dict[str, list[str]]:
        """The private deck lists a seat commits to at its join (PROTOCOL.md 6, private decks):
        part name (``"crypt"``) to card identities. A private shuffle event's deck is named
        ``"<part>/<owner seat>"``."""
        ...

    def summary(self, brought: Any) -> str:
        """One line for a lobby: what was brought, with counts."""
        ...

    def check(self, path: str, options: Mapping[str, Any], exact: bool = False) -> KitCheck:
        """What a table with the typed table ``options`` would read from the file ``path``, and
        why it would refuse it (:class:`KitCheck`); what the file holds raises nothing.
        ``exact``: a name that is no card's exact name is a problem, not a note."""
        ...


@dataclass(frozen=True)
class KitCheck:
    """What a table would read from a file of what a seat brings (``vampire deck FILE``).

    ``brought``: what was read (as :meth:`SeatKit.load` returns it; partial when there are
    problems); ``summary``: one line with its counts (``"atraco: crypt 12, library 90"``);
    ``readings``: a sentence for each line whose name was read as a close match, naming the line
    and what it was read as; ``notes``: anything else worth knowing (a header whose count
    disagrees with the lines); ``problems``: every reason a table with those rules would refuse it
    (none: a table takes it).
    """

    brought: Any
    summary: str
    readings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()

    @property
    def refused(self) -> bool:
        """True when a table would refuse what was read."""
        return bool(self.problems)


@dataclass(frozen=True)
class ScoreUnit:
    """How a game's result scores read: ``label`` for a column ("mean VP"), ``scale`` to divide the
    stored score by (VTES keeps VP in half-points: 2), and ``note``, a sentence on how to win."""

    label: str = "mean score"
    scale: int = 1
    note: str = ""


class ResultFormat(StrEnum):
    """How ``vampire result`` writes a table's result: ``text`` for a person, ``csv`` (one row per
    player, a header row first) for a spreadsheet, ``json`` for a program."""

    TEXT = "text"
    CSV = "csv"
    JSON = "json"


@dataclass(frozen=True)
class TablePlace:
    """Where a table sits in a tournament, as an organiser numbers it: ``round`` and ``table``
    (from 1; None when not given), and what each player stated at the table in seat order: the
    :class:`~engine.games.base.SeatFact` values of its `join`, by key (empty: none given)."""

    round: int | None = None
    table: int | None = None
    facts: tuple[Mapping[str, str], ...] = ()


class OrganiserResult(Protocol):
    """A game's result for a tournament organiser: ``state`` (the game's), ``names`` in seat
    order, ``place`` (round, table, the players' seat facts), written as ``fmt``."""

    def __call__(self, state: Any, names: list[str], place: TablePlace = ..., fmt: ResultFormat = ...) -> str: ...


class CardsReport(Protocol):
    """``vampire cards``: what a game's table knows of its cards (each named card, and with
    ``coverage`` the share of a card archive it applies; ``archive``: that archive's file, None
    for the game's default), printed through ``out``. Returns the exit status; raises VampireError
    for a file that cannot be read."""

    def __call__(
        self, names: Sequence[str], coverage: bool, as_json: bool, archive: str | None, out: Callable[[str], None]
    ) -> int: ...


@dataclass(frozen=True)
class GameSpec:
    """One game as the registry knows it.

    - ``name``: the command-line name (``--game NAME``), ``title``: the game's name for players;
    - ``min_seats``/``max_seats``/``default_seats``: seat counts (inclusive);
    - ``rules``: a callable returning the rules object (:class:`engine.games.base.Game`), so that
      listing games imports no game's rules;
    - ``bot_levels``: every bot level, strongest first; ``default_bot``: the level a bot gets when
      none is named; ``filler_bot``: the level that fills the other seats of ``simulate --bots N``;
    - ``make_bot(level, rng, brought)``: a bot (``brought``: what the seat brings, or None);
    - ``kit``: what a seat brings before the game starts, or None when it brings nothing;
    - ``seat_facts``: what a player may state about themself at its tables, each carried by the
      player's `join` and checked by the table (:class:`~engine.games.base.SeatFact`);
    - ``score``: how scores read; ``organiser_result(state, names, place, fmt)``: a result for a
      tournament organiser (:class:`OrganiserResult`), or None when the game has none;
    - ``hand_words(cards)``: card identities (a hand as dealt) in a player's words, for a replay;
      None: the identities as they are, in order;
    - ``auto_act(view)``: the act a person's seat makes by itself now, when the player could do
      nothing else (a pass with nothing to play), or None; None: the game has no such act;
    - ``timed_act(view, options)``: under a table rule that times a seat (an impulse clock;
      ``options``: the table's), the act the seat makes by itself once the table has waited on it
      that long, the seconds and the line that says so, as ``(seconds, act, line)``; None: no
      clock runs for it now;
    - ``carddb()``: the version of the card database the game reads its cards from, which the
      genesis `table` entry records (``carddb``: docs/protocol.md 4.1); None: the game has none;
    - ``load()``: read what the game's rules read lazily and at length, once per process (a
      card database), so that the first view or move does not; a peer calls it in a worker
      thread before it folds a table of the game; None: nothing to read;
    - ``cards``: what the table knows of the game's cards (:class:`CardsReport`), or None when it
      reads no card text;
    - ``opens_first``: the game ``vampire play`` and the home screen open when none is named
      (:func:`engine.games.default_game`; when several games say so, the first by name).
    """

    name: str
    title: str
    min_seats: int
    max_seats: int
    default_seats: int
    rules: Callable[[], Game]
    bot_levels: tuple[str, ...]
    default_bot: str
    filler_bot: str
    make_bot: Callable[[str, random.Random, Any], Bot]
    kit: Callable[[], SeatKit] | None = None
    seat_facts: tuple[SeatFact, ...] = ()
    score: ScoreUnit = ScoreUnit()
    organiser_result: OrganiserResult | None = None
    hand_words: Callable[[Sequence[str]], str] | None = None
    auto_act: Callable[[Any], Act | None] | None = None
    timed_act: Callable[[Any, Mapping[str, Any]], tuple[float, Act, str] | None] | None = None
    carddb: Callable[[], str] | None = None
    load: Callable[[], object] | None = None
    cards: CardsReport | None = None
    opens_first: bool = False

    @property
    def option_schema(self) -> tuple[OptionSpec, ...]:
        """The table options (``--rule NAME=VALUE``) of this game: its own, then the table rules
        every game shares (:data:`~engine.games.base.TABLE_OPTIONS`)."""
        return self.rules().option_schema + TABLE_OPTIONS

    def bot(self, level: str, rng: random.Random, brought: Any = None) -> Bot:
        """A bot of ``level``. Raises :class:`BotSpecError` for a level this game has not."""
        if level not in self.bot_levels:
            raise BotSpecError(f"unknown bot level {level!r}: {self.title} has {' or '.join(self.bot_levels)}")
        return self.make_bot(level, rng, brought)

    def check_seats(self, seats: int) -> None:
        """Raise VampireError unless ``seats`` is in this game's seat range."""
        if not self.min_seats <= seats <= self.max_seats:
            raise VampireError(f"{self.title} is played by {self.min_seats} to {self.max_seats} players, not {seats}")
