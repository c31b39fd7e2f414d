"""The interface every game module implements (DESIGN.md, "Games behind one interface").

A game module knows the rules and nothing about cryptography or networking. The table (or the
simulation stand-in, :mod:`engine.sim`) drives it:

1. ``state = game.setup(seats, options)``;
2. loop on ``p = game.pending(state)``:

   - if ``p.ops`` is not empty, the table runs every operation in it (hidden-card operations and
     joint draws, :class:`Shuffle`, :class:`Open`, :class:`EndEvent`, :class:`Draw`) and folds each
     outcome with ``game.resolve(state, op, outcome)``, in the order given;
   - else if ``p.actors`` is not empty, one of those seats submits an act; the table verifies the
     cards the act opens and calls ``game.check`` then ``game.apply``, with the entry's signed
     time;
   - else the game is over and ``game.result(state)`` says how it ended.

Cards in hidden zones are **positions** ``(event, index)``: the ``index``-th position of the table's
``event``-th shuffle event. A position's identity is known to a seat only once opened to it; the
game state carries an identity only for cards that are public. Identities reach the game through
``resolve`` (an :class:`Open` to everyone, an :class:`EndEvent`) and through the ``revealed``
mapping the table passes with an act (the cards that act opens, already verified).

Acts are canonical maps (``dict`` with ``str`` keys whose values are ints, strs, bools, bytes, lists
and maps) with a ``"do"`` key naming the act: they go on the wire unchanged.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.errors import VampireError

Pos = tuple[int, int]
"""A hidden-card position: (shuffle event number, index in that event's row), both ints >= 0."""

Act = dict[str, Any]
"""A game act: a canonical map with a ``"do"`` key. Its values come from the wire untrusted, so
they stay ``Any`` until a game's checks have read them."""

OptionValue = int | str | bool
"""The value of a table option (an :class:`OptionSpec`'s ``kind``)."""


class GameError(VampireError):
    """Base of the errors a game raises; the message is a sentence for a player."""


class IllegalMove(GameError):
    """A well-formed act that the rules refuse now; ``str(err)`` says which rule, in a player's
    words."""


class MalformedAct(GameError):
    """An act whose shape is wrong: a missing field, a wrong type, an unknown ``"do"``, a value
    outside the act's vocabulary. No state of the game could accept it (unlike
    :class:`IllegalMove`); ``str(err)`` says what is wrong, in a player's words."""


class OptionError(GameError):
    """An unknown table option, or a value of the wrong type or out of range."""


# --- table options -------------------------------------------------------------------------


@dataclass(frozen=True)
class OptionSpec:
    """One table option of a game's option schema.

    ``kind`` is ``int``, ``str`` or ``bool``; ``choices`` (if not empty) lists every allowed value;
    ``low``/``high`` bound an int option (inclusive).
    """

    name: str
    kind: type[int] | type[str] | type[bool]
    default: OptionValue
    doc: str
    choices: tuple[OptionValue, ...] = ()
    low: int | None = None
    high: int | None = None
    added: bool = False
    """A rule added after tables were first recorded: left at its default it is not recorded
    (:func:`parse_options` leaves it out), so a table that does not set it reads as before."""

    def parse(self, raw: object) -> OptionValue:
        """Return the typed value for ``raw`` (a str from the command line, or a typed value).

        Raises :class:`OptionError` with a sentence naming the option and what it accepts.
        """
        value: object = raw
        if isinstance(raw, str) and self.kind is not str:
            text = raw.strip().lower()
            if self.kind is bool:
                if text in ("1", "on", "true", "yes"):
                    value = True
                elif text in ("0", "off", "false", "no"):
                    value = False
                else:
                    raise OptionError(f"option {self.name} takes on or off, not {raw!r}")
            elif self.kind is int:
                try:
                    value = int(text)
                except ValueError:
                    raise OptionError(f"option {self.name} takes a whole number, not {raw!r}") from None
        # bool is a subclass of int: never accept one for the other.
        if type(value) is not self.kind or not isinstance(value, (int, str)):
            noun = {int: "a whole number", str: "a word", bool: "on or off"}.get(self.kind, self.kind.__name__)
            raise OptionError(f"option {self.name} takes {noun}, not {raw!r}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name} takes one of {allowed}, not {raw!r}")
        if isinstance(value, int):
            if self.low is not None and value < self.low:
                raise OptionError(f"option {self.name} must be at least {self.low}, not {value}")
            if self.high is not None and value > self.high:
                raise OptionError(f"option {self.name} must be at most {self.high}, not {value}")
        return value


TABLE_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "abandon_by_all",
        bool,
        False,
        "all others must vote out a stalled seat (else a majority)",
        added=True,
    ),
    OptionSpec(
        "stall_seconds",
        int,
        30,
        "seconds a seat keeps the table waiting before the others may vote it out",
        low=0,
        high=3600,
        added=True,
    ),
)
"""Table rules of every game, read by the table and not by the game (PROTOCOL.md 6.5); a game's
:class:`~engine.games.spec.GameSpec` lists them with its own."""


def game_options(options: Mapping[str, object]) -> dict[str, object]:
    """``options`` without the table rules every game shares (:data:`TABLE_OPTIONS`): what the
    game's own ``setup`` reads."""
    names = {o.name for o in TABLE_OPTIONS}
    return {k: v for k, v in options.items() if k not in names}


def table_option(options: Mapping[str, object], name: str) -> OptionValue:
    """The value of table rule ``name`` (:data:`TABLE_OPTIONS`) in ``options``, typed, or its
    default. Raises OptionError for a bad value, KeyError for a name that is not a table rule."""
    spec = {o.name: o for o in TABLE_OPTIONS}[name]
    return spec.parse(options[name]) if name in options else spec.default


def parse_options(schema: Sequence[OptionSpec], given: Mapping[str, object]) -> tuple[tuple[str, OptionValue], ...]:
    """Validate ``given`` against ``schema``; return every option as sorted ``(name, value)`` pairs.

    Missing options take their defaults. Raises :class:`OptionError` on an unknown name or a bad value.
    """
    by_name = {spec.name: spec for spec in schema}
    for name in given:
        if name not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise OptionError(f"unknown table option {name!r} (this game has: {known})")
    return tuple(
        sorted(
            (name, spec.parse(given[name]) if name in given else spec.default)
            for name, spec in by_name.items()
            if name in given or not spec.added
        )
    )


# --- the work a game asks the table for ---------------------------------------------------------


@dataclass(frozen=True)
class Shuffle:
    """Start a new shuffle event over a deck (PROTOCOL.md 6.2, 6.3).

    ``deck``: the deck name used in card points. ``cards``: the identities, in the game's canonical
    order, of a public deck list; empty for a private deck, whose ``owner`` supplies ``count`` cards
    in its `deck` entry. ``source``: for a reshuffle of a zone, the positions whose cards it takes,
    in order; it inherits the keys of the event those cards are under (the table works it out), or,
    when a key holder of that event abandoned, is rebuilt with new keys from the owner's cards not
    known to be elsewhere. ``first``: the event's first participant (a private deck's owner).
    ``participants``: seats that hold keys of (or shuffle) the event, in seat order. Outcome given
    to ``resolve``: the event number (int).
    """

    deck: str
    count: int
    first: int
    participants: tuple[int, ...]
    cards: tuple[str, ...] = ()
    owner: int | None = None
    source: tuple[Pos, ...] = ()


@dataclass(frozen=True)
class Open:
    """Open positions to one seat (``to`` a seat: every other key holder publishes its decryption
    share) or to everyone (``to`` None: every key holder's share is published, a private deck's
    owner last). Outcome: ``None`` for a seat, else the identities of ``positions`` in order (tuple
    of str)."""

    positions: tuple[Pos, ...]
    to: int | None


@dataclass(frozen=True)
class EndEvent:
    """End a shuffle event: every participant reveals its seed. Outcome: the identity of every
    position of the event, as a tuple indexed by position index.

    A game ends each of its events once it no longer needs them hidden (the audit checks an event
    fully only after its seeds are revealed), but never an event a seat that abandoned takes part
    in: that seat's seed left with it, and the table would wait for it for good. After an abandon,
    a game either ends (Vampire Queen) or rebuilds its hidden zones as new events without the seat
    (VTES); the events the seat took part in stay unchecked, and the audit says so."""

    event: int


@dataclass(frozen=True)
class Draw:
    """Joint randomness (PROTOCOL.md 5): one unbiased draw in ``range(n)`` for each ``n`` of
    ``bounds``. Outcome: a tuple of ints, one per bound."""

    purpose: str
    bounds: tuple[int, ...]


@dataclass(frozen=True)
class Release:
    """A seat leaves the game's events (PROTOCOL.md 6.3, item 6; VTES: ousted or withdrawn): it
    reveals its key share of every open event of other decks (`key-reveal`) and the seed of its own
    open decks; from then on the table computes its shares itself, and it owes no further protocol
    duty. Outcome: None."""

    seat: int


Op = Shuffle | Open | EndEvent | Draw | Release


@dataclass(frozen=True)
class Pending:
    """What a state waits for: table operations to run first (``ops``), else a move by one of
    ``actors`` (seat numbers), of which ``awaited`` keep the table waiting. Both empty: the game
    is over."""

    ops: tuple[Op, ...] = ()
    actors: tuple[int, ...] = ()
    waiting: str = ""  # a short phrase for players: "dealing round 2", "Lisa to play"
    awaited: tuple[int, ...] | None = None
    """The seats whose move the table waits for, when only some of ``actors`` keep it waiting
    (a game where anyone may act but one seat must answer); None: every actor."""
    playing: tuple[int, ...] | None = None
    """The seats still playing (a seat ousted or withdrawn is not), who vote on a stalled seat
    (PROTOCOL.md 6.5); None: every seat not recorded as having abandoned."""
    position: Hashable = None
    """Where play stands, in the game's terms: it changes when an awaited seat answers what the
    table waits for (a pass, a play, a new phase), and a move that leaves it as it was (a change
    by hand) does not answer, so it restarts no wait (PROTOCOL.md 6.5). None: every move answers."""
    clock_until: int = 0
    """A time of the game's own for the ``awaited`` seats' answer runs until this signed time (ms
    since the epoch; a claim's time to be answered before it lapses by itself), so their wait is no
    stall before it: the stall vote counts their wait from then (PROTOCOL.md 6.5). 0: none."""


@dataclass(frozen=True)
class Result:
    """How a game ended. ``scores``: per seat (the game's own unit; lower is better in Vampire
    Queen, VP in half-points in VTES). ``winners``: seats that share the win (empty: no winner)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    summary: str
    abandoned: tuple[int, ...] = ()
    tallies: tuple[tuple[str, int], ...] = ()
    """What the game counts besides scores, in a player's words (``("actions", 42)``), for a
    simulation's summary; empty when the game counts nothing more."""


@dataclass(frozen=True)
class Note:
    """A line of narration a move produced. ``text`` holds ``{s0}``, ``{s1}``… for seat names;
    :meth:`render` fills them in. ``news``: what happened, for a reader that acts on it rather
    than on the words: a game's own word (VTES: :class:`engine.games.vtes.vocab.News`) or the
    table's (:data:`CHAT`); empty for a line only to be read. Notes are narration only: no log,
    digest or message holds them."""

    text: str
    seats: tuple[int, ...] = field(default=())
    news: str = ""

    def render(self, names: Sequence[str]) -> str:
        return self.text.format(**{f"s{i}": name for i, name in enumerate(names)})


CHAT = "chat"
"""The :attr:`Note.news` of a chat line (``"{s1}: text"`` or ``"The host: text"``)."""


def seat_ref(seat: int) -> str:
    """The placeholder for a seat's name in a :class:`Note`."""
    return f"{{s{seat}}}"


# --- what a player states at a table ---------------------------------------------------------

JOIN_FIELDS = frozenset({"name", "deck", "bot"})
"""The fields of a `join` the table itself reads (docs/protocol.md 4.1): no seat fact is called so."""


@dataclass(frozen=True)
class SeatFact:
    """A fact a player may state about themself at a table of a game, which the player's `join`
    carries as an optional field (docs/protocol.md 4.1) and the table checks with the game's rule:
    VTES has a player's member number with its organising body. What the fact means is the game's;
    the table, the network and the profiles carry it as an opaque string under ``key``.

    ``key``: the `join` field, the profile's key and the command-line option (``--KEY``), lower-case
    letters; ``label``: the fact in a player's words (``"member number"``); ``form``: what a valid value
    looks like, to finish the sentence "a LABEL is ..." (``"1 to 10 digits"``); ``example``: a valid
    value; ``max_digits``: a valid value is 1 to this many ASCII digits (the only form of fact a
    game has needed so far).
    """

    key: str
    label: str
    max_digits: int
    example: str

    def __post_init__(self) -> None:
        """Raises ValueError for a key that is not lower-case ASCII letters, or is a field every
        `join` has (``name``, ``deck``, ``bot``), or an example the rule refuses."""
        if not (self.key.isascii() and self.key.isalpha() and self.key.islower()) or self.key in JOIN_FIELDS:
            raise ValueError(f"a seat fact's key is lower-case letters and no join field, not {self.key!r}")
        if not self.valid(self.example):
            raise ValueError(f"the example {self.example!r} is no {self.label}")

    @property
    def form(self) -> str:
        """What a valid value is, in words: ``"1 to 10 digits"``."""
        return f"1 to {self.max_digits} digits"

    def valid(self, value: object) -> bool:
        """True if ``value`` is this fact as a `join` may carry it: a str of 1 to ``max_digits``
        ASCII digits."""
        return isinstance(value, str) and 0 < len(value) <= self.max_digits and value.isascii() and value.isdigit()

    def check(self, value: str) -> str:
        """``value`` with the spaces around it dropped, if valid. Raises GameError with a sentence
        (``"A member number is 1 to 10 digits (like 1003456), not 'x'."``)."""
        text = value.strip()
        if not self.valid(text):
            raise GameError(f"A {self.label} is {self.form} (like {self.example}), not {value!r}.")
        return text


class Game(Protocol):
    """One game's rules. Every method is pure: states are immutable values.

    ``name``, ``title``, ``min_seats``, ``max_seats`` and ``seat_facts`` are the game's spec's
    (:class:`~engine.games.spec.GameSpec`), read from it; ``seat_facts``: what a player may state
    at its tables (:class:`SeatFact`), each an optional field of a `join`.
    """

    name: str
    title: str
    min_seats: int
    max_seats: int
    seat_facts: tuple[SeatFact, ...]
    option_schema: tuple[OptionSpec, ...]

    def setup(self, seats: int, options: Mapping[str, Any]) -> Any:
        """The state before anything happened. Raises OptionError, GameError (seat count)."""

    def pending(self, state: Any) -> Pending:
        """The work the state waits for."""

    def resolve(self, state: Any, op: Op, outcome: Any) -> tuple[Any, tuple[Note, ...]]:
        """Fold the outcome of a table operation that ``pending`` asked for."""

    def to_open(self, state: Any, seat: int, act: Act) -> tuple[Pos, ...]:
        """The hidden positions this act plays, which the table must open to everyone with it.
        Raises MalformedAct when the act's shape is wrong, IllegalMove when it names positions
        the seat does not hold."""

    def check(self, state: Any, seat: int, act: Act, revealed: Mapping[Pos, str], at: int = 0) -> None:
        """Raise MalformedAct (the act's shape is wrong) or IllegalMove (the rules refuse it now),
        with a sentence saying why, unless ``seat`` may make ``act`` now. ``revealed`` maps every
        position of ``to_open`` to its verified identity. ``at``: the act's time, the `move`
        entry's own signed ``time`` (milliseconds; PROTOCOL.md 2), for a game whose rules count
        time (a wait, a rate): every peer folds the same number; a game may ignore it."""

    def apply(
        self, state: Any, seat: int, act: Act, revealed: Mapping[Pos, str], at: int = 0
    ) -> tuple[Any, tuple[Note, ...]]:
        """The state after a checked act (``at`` as in :meth:`check`), and the narration of what
        followed from it (a trick won, a round over). The act itself is narrated by
        :meth:`describe`, which the table shows before these notes: do not say it twice."""

    def view(self, state: Any, seat: int | None, known: Mapping[Pos, str]) -> Any:
        """What ``seat`` may know (None: a spectator): the public state plus ``known``, the
        identities of positions opened to that seat."""

    def legal_acts(self, view: Any) -> list[Act]:
        """Every act the view's seat may make now (empty when it may not act)."""

    def describe(self, state: Any, seat: int, act: Act, revealed: Mapping[Pos, str]) -> Note:
        """The act in a player's words, e.g. "{s1} leads three 7s"."""

    def result(self, state: Any) -> Result | None:
        """The result once the game is over, else None."""

    def abandon(self, state: Any, seat: int) -> tuple[Any, tuple[Note, ...]]:
        """The state after ``seat`` is recorded as having abandoned (PROTOCOL.md 6); see
        :class:`EndEvent` for what a game may no longer ask of the table then."""


def act_position(raw: object, what: str = "card") -> Pos:
    """Parse one ``[event, index]`` pair of non-negative ints from an untrusted act.

    Raises MalformedAct (naming ``what``) for anything else.
    """
    if not isinstance(raw, (list, tuple)) or len(raw) != 2 or any(type(x) is not int or x < 0 for x in raw):
        raise MalformedAct(f"the {what} must be given as an [event, index] pair")
    return (raw[0], raw[1])


def sorted_act_positions(raw: object, what: str = "cards") -> tuple[Pos, ...]:
    """Parse a list of ``[event, index]`` pairs from an untrusted act into sorted positions.

    Raises MalformedAct when it is not a non-empty list of distinct pairs of non-negative ints.
    """
    if not isinstance(raw, list) or not raw:
        raise MalformedAct(f"the act must list its {what} as [event, index] pairs")
    out = []
    for item in raw:
        if not isinstance(item, (list, tuple)) or len(item) != 2 or any(type(x) is not int or x < 0 for x in item):
            raise MalformedAct(f"the act must list its {what} as [event, index] pairs")
        out.append((item[0], item[1]))
    if len(set(out)) != len(out):
        raise MalformedAct(f"the act names one of its {what} twice")
    return tuple(sorted(out))
