"""Vampire Queen: the rules (shared/rules/vampire-queen.md) behind the game interface of
:mod:`engine.games.base`.

No cryptography here. The 108 shuffled cards live at positions of one shuffle event per round; a
card's identity enters the state only when it becomes public (played, or taken in a hunter trick)
or at the round's end, when the event's seeds are revealed and every hand is scored. The two
hunters are never shuffled: who holds them is public, so they are tracked by seat.

Acts (canonical maps; their names are :class:`Do`):

- ``{"do": "play", "cards": [[event, index], ...]}``: lead or follow with a set; one card in a
  hunter trick;
- ``{"do": "pass"}``: pass in a normal trick;
- ``{"do": "hunter", "hunter": 15 | 20}``: lead a hunter.

An act of the wrong shape raises :class:`~engine.games.base.MalformedAct`; a well-formed act the
rules refuse now raises :class:`~engine.games.base.IllegalMove`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from engine.games.base import (
    Act,
    Draw,
    EndEvent,
    GameError,
    IllegalMove,
    MalformedAct,
    Note,
    Op,
    Open,
    OptionSpec,
    OptionValue,
    Pending,
    Pos,
    Result,
    Shuffle,
    parse_options,
    seat_ref,
    sorted_act_positions,
)
from engine.games.queen.spec import SPEC

DECK_NAME = "queen"
NUMBERS = range(1, 14)
COPIES = 8
QUEENS = 4
QUEEN = 14  # the value of a Queen-only set, and a Queen's points in hand
HUNTERS = (15, 20)
#: The 108 shuffled cards, in the canonical order the deck protocol's card points follow.
DECK: tuple[str, ...] = tuple(f"{n}-{c}" for n in NUMBERS for c in range(COPIES)) + tuple(
    f"Q-{c}" for c in range(QUEENS)
)
ALL_CARDS: tuple[str, ...] = DECK + ("H15", "H20")
_DECK_SET = frozenset(DECK)


class Phase(StrEnum):
    """Where a round stands (rule page, "A round"); the value is the state's ``phase`` string."""

    DEALER = "dealer"
    """The first dealer is drawn (a joint draw)."""
    SHUFFLE = "shuffle"
    """The round's 108 cards are shuffled."""
    DEAL = "deal"
    """Each hand is opened to its seat, one seat after another."""
    PLAY = "play"
    """Tricks are played."""
    SCORE = "score"
    """The round's seeds are revealed and every hand is scored."""
    OVER = "over"
    """The last round is scored, or a seat abandoned."""


class Do(StrEnum):
    """The name (``"do"``) of each Vampire Queen act; the value goes on the wire."""

    PLAY = "play"
    PASS = "pass"
    HUNTER = "hunter"


# The act names as plain strs, for the acts legal_acts builds: cheaper to compare, copy and
# print than the members, and read without the Enum's ``value`` descriptor.
_PLAY, _PASS, _HUNTER = Do.PLAY.value, Do.PASS.value, Do.HUNTER.value

ACT_FIELDS: dict[Do, frozenset[str]] = {
    Do.PLAY: frozenset({"do", "cards"}),
    Do.PASS: frozenset({"do"}),
    Do.HUNTER: frozenset({"do", "hunter"}),
}
"""The exact fields of each act."""


class HunterTie(StrEnum):
    """Table option ``hunter_tie``: who wins a hunter trick when the highest cards tie."""

    LAST = "last"
    FIRST = "first"


class Tie(StrEnum):
    """Table option ``tie``: whether tied lowest totals share the win or nobody wins."""

    SHARED = "shared"
    NONE = "none"


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("rounds", int, 5, "number of rounds in a game", low=1, high=20),
    OptionSpec("queen_in_hunter_trick", int, 14, "value of a Queen played into a hunter trick", choices=(14, 1)),
    OptionSpec(
        "hunter_tie",
        str,
        HunterTie.LAST.value,
        "who wins a tied hunter trick",
        choices=tuple(t.value for t in HunterTie),
    ),
    OptionSpec(
        "tie",
        str,
        Tie.SHARED.value,
        "tied lowest totals share the win, or nobody wins",
        choices=tuple(t.value for t in Tie),
    ),
)


def hand_size(seats: int) -> int:
    """Cards dealt to each player (rule page, "Seats and hand size"). Raises GameError outside 3–12."""
    if not 3 <= seats <= 12:
        raise GameError(f"Vampire Queen is played by 3 to 12 players, not {seats}")
    if seats <= 8:
        return 13
    return {9: 12, 10: 10, 11: 9, 12: 9}[seats]


#: Every card's rank, looked up on the hot path instead of parsed (see :func:`rank`).
_RANKS: dict[str, int] = {}


def rank(card: str) -> int:
    """A card's number, 14 for a Queen, 15/20 for a hunter (its points in hand)."""
    known = _RANKS.get(card)
    if known is not None:
        return known
    head = card.split("-", 1)[0]
    if head == "Q":
        return QUEEN
    if head in ("H15", "H20"):
        return int(head[1:])
    return int(head)


_RANKS.update((card, rank(card)) for card in ALL_CARDS)


def is_queen(card: str) -> bool:
    return card.startswith("Q-")


def set_value(cards: tuple[str, ...]) -> int | None:
    """The value of a set (its number, 14 if only Queens), or None if it is not a set."""
    if not cards:
        return None
    value: int | None = None
    for c in cards:
        r = _RANKS.get(c)
        if r is None:
            r = rank(c)
        if r > QUEEN:
            return None
        if r == QUEEN and c.startswith("Q-"):
            continue
        if value is not None and r != value:
            return None
        value = r
    return QUEEN if value is None else value


_COUNT_WORDS = {1: "a", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def card_word(card_or_value: str | int) -> str:
    """One card in words: "a 7", "an 8", "a Queen", "Hunter 15"."""
    value = rank(card_or_value) if isinstance(card_or_value, str) else card_or_value
    if isinstance(card_or_value, str) and is_queen(card_or_value):
        return "a Queen"
    if value in HUNTERS:
        return f"Hunter {value}"
    return f"an {value}" if value in (8, 11) else f"a {value}"


#: The words of every card of the game (see :func:`card_word`), looked up by :func:`_card_words`.
_CARD_WORDS: dict[str, str] = {card: card_word(card) for card in ALL_CARDS}


def _card_words(card: str) -> str:
    """:func:`card_word` of ``card``."""
    words = _CARD_WORDS.get(card)
    return card_word(card) if words is None else words


def set_words(cards: tuple[str, ...]) -> str:
    """A set in a player's words: "a 7", "a pair of 9s (9, Queen)", "three 7s", "two Queens"."""
    return _set_words(cards, set_value(cards))


def _set_words(cards: tuple[str, ...], value: int | None) -> str:
    """:func:`set_words` of ``cards``, whose :func:`set_value` is ``value``."""
    n = len(cards)
    if value == QUEEN and all(is_queen(c) for c in cards):
        return "a Queen" if n == 1 else f"{_COUNT_WORDS.get(n, n)} Queens"
    if n == 1:
        return _card_words(cards[0])
    base = f"a pair of {value}s" if n == 2 else f"{_COUNT_WORDS.get(n, n)} {value}s"
    if any(is_queen(c) for c in cards):
        shown = ", ".join("Queen" if is_queen(c) else str(rank(c)) for c in sorted(cards, key=rank))
        base += f" ({shown})"
    return base


def list_words(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# --- state -----------------------------------------------------------------------------------


def replace[Frozen](obj: Frozen, **changes: Any) -> Frozen:
    """``obj`` (a frozen dataclass of this module, without ``__post_init__`` or slots) with the
    fields ``changes`` names set: what :func:`dataclasses.replace` does, without its per-field
    ``getattr`` and ``__init__``, which made most of the rules' time in whole games. Raises
    TypeError for a name that is not a field."""
    fields = type(obj).__dataclass_fields__  # type: ignore[attr-defined]
    for name in changes:
        if name not in fields:
            raise TypeError(f"{type(obj).__name__} has no field {name!r}")
    new = object.__new__(type(obj))
    slots = new.__dict__
    slots.update(obj.__dict__)
    slots.update(changes)
    return new


def build[Frozen](cls: type[Frozen], **fields: Any) -> Frozen:
    """A new ``cls`` (a frozen dataclass of this module, without ``__post_init__`` or slots)
    holding ``fields``: what ``cls(**fields)`` makes, without one ``object.__setattr__`` per field
    in its ``__init__``. Every field must be named, defaults included (the tests compare what it
    builds with the class's own constructor)."""
    new = object.__new__(cls)
    new.__dict__.update(fields)
    return new


@lru_cache(maxsize=64)
def _options_map(options: tuple[tuple[str, OptionValue], ...]) -> dict[str, OptionValue]:
    """A table's options as a map, built once per distinct options tuple (read on every move)."""
    return dict(options)


@dataclass(frozen=True)
class Card:
    """A card in a hand: its position, and its identity if it is public (None while hidden)."""

    pos: Pos
    ident: str | None = None


@dataclass(frozen=True)
class Play:
    """One turn in a trick. ``cards``: identities played (empty for a pass); a hunter lead is
    ``("H15",)``. ``value``: the set's value (0 for a hunter, the card's value in a hunter trick).
    ``forced``: the table applied it because the seat could not act (no entry). ``positions``: where
    the cards were (a card won in a hunter trick keeps its position in the winner's hand)."""

    seat: int
    cards: tuple[str, ...]
    value: int
    forced: bool = False
    positions: tuple[Pos, ...] = ()

    @property
    def passed(self) -> bool:
        return not self.cards


@dataclass(frozen=True)
class Trick:
    """The trick being played. ``hunter``: 0 for a normal trick, else the hunter led.
    ``waiting``: the seats still to take their turn, in clockwise order."""

    leader: int
    hunter: int
    plays: tuple[Play, ...]
    waiting: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.plays[0].cards)

    @property
    def best(self) -> Play:
        """The highest set so far (normal trick); the leader's play if nobody beat it. The first
        of equal values wins, as with :func:`max`. Raises ValueError if nobody played a card."""
        best: Play | None = None
        for play in self.plays:
            if play.cards and (best is None or play.value > best.value):
                best = play
        if best is None:
            raise ValueError("no play in this trick has cards")
        return best


@dataclass(frozen=True)
class QueenState:
    """The public state of a Vampire Queen table.

    ``phase``: a :class:`Phase`. ``options``: every table option as sorted ``(name, value)`` pairs
    (read them through the typed properties, :attr:`rounds`...). ``hunters``: the seats holding Hunter 15 and
    Hunter 20 (-1 while not held: before the first round, or while led in a trick). ``banned``: the
    hunter the leader may not lead now (0: none). ``stock``: cards shuffled but not dealt this round.
    """

    seats: int
    options: tuple[tuple[str, OptionValue], ...]
    phase: Phase = Phase.DEALER
    round: int = 0
    dealer: int = -1
    event: int = -1
    dealt: int = 0
    stock: int = 0
    hands: tuple[tuple[Card, ...], ...] = ()
    hunters: tuple[int, int] = (-1, -1)
    leader: int = -1
    trick: Trick | None = None
    banned: int = 0
    discard: tuple[str, ...] = ()
    totals: tuple[int, ...] = ()
    round_scores: tuple[tuple[int, ...], ...] = ()
    round_hands: tuple[tuple[tuple[str, ...], ...], ...] = ()
    last_trick: Trick | None = None
    abandoned: tuple[int, ...] = ()

    def option(self, name: str) -> OptionValue:
        """The value of table option ``name``. Raises KeyError for a name the game has not."""
        return _options_map(self.options)[name]

    def _int_option(self, name: str) -> int:
        value = self.option(name)
        assert type(value) is int, f"option {name} holds {value!r}"  # parse_options typed it
        return value

    def _str_option(self, name: str) -> str:
        value = self.option(name)
        assert type(value) is str, f"option {name} holds {value!r}"  # parse_options typed it
        return value

    @property
    def rounds(self) -> int:
        """Table option ``rounds``: rounds in the game."""
        return self._int_option("rounds")

    @property
    def queen_in_hunter_trick(self) -> int:
        """Table option ``queen_in_hunter_trick``: a Queen's value in a hunter trick (14 or 1)."""
        return self._int_option("queen_in_hunter_trick")

    @property
    def hunter_tie(self) -> HunterTie:
        """Table option ``hunter_tie``."""
        return HunterTie(self._str_option("hunter_tie"))

    @property
    def tie(self) -> Tie:
        """Table option ``tie``."""
        return Tie(self._str_option("tie"))

    @property
    def turn(self) -> int:
        """The seat to act now in play, or -1."""
        if self.phase != Phase.PLAY:
            return -1
        return self.trick.waiting[0] if self.trick else self.leader

    def hunters_of(self, seat: int) -> tuple[int, ...]:
        """The hunters ``seat`` holds (15, 20), in that order."""
        h15, h20 = self.hunters
        if h15 == seat:
            return HUNTERS if h20 == seat else HUNTERS[:1]
        return HUNTERS[1:] if h20 == seat else ()

    def hand_count(self, seat: int) -> int:
        """Public hand size: cards plus hunters held."""
        return len(self.hands[seat]) + len(self.hunters_of(seat))


@dataclass(frozen=True)
class QueenView:
    """What one seat may know (``seat`` None: a spectator). ``hand``: this seat's cards as
    ``(position, identity)`` sorted by value (identity None only if not yet opened to it);
    ``hunters_held``: its hunters. Everything else is public."""

    seat: int | None
    state: QueenState
    hand: tuple[tuple[Pos, str | None], ...]
    hunters_held: tuple[int, ...]

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def trick(self) -> Trick | None:
        return self.state.trick


# --- the game --------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _pass_of(seat: int, forced: bool) -> Play:
    """``seat``'s pass (``forced``: the table passed for it), built once per seat (a value)."""
    return Play(seat, (), 0, forced=forced)


@lru_cache(maxsize=256)
def _clockwise_after(seat: int, seats: int) -> tuple[int, ...]:
    return tuple((seat + i) % seats for i in range(1, seats))


def _hunter_held_by(hunters: tuple[int, int], hunter: int, seat: int) -> tuple[int, int]:
    """``hunters`` (holders of Hunter 15 and Hunter 20) with ``hunter`` now held by ``seat`` (-1:
    nobody, while it is led)."""
    return (seat, hunters[1]) if hunter == HUNTERS[0] else (hunters[0], seat)


@dataclass(frozen=True)
class Checked:
    """An act that passed :meth:`VampireQueen.check`: its name, the identities it plays (``play``)
    at ``positions`` (sorted) and their value in the trick (:attr:`Play.value`), and the hunter it
    leads (``hunter``: 15 or 20, else 0)."""

    do: Do
    cards: tuple[str, ...] = ()
    hunter: int = 0
    positions: tuple[Pos, ...] = ()
    value: int = 0


_CHECKED_PASS = Checked(Do.PASS)


#: Act names to their members: a dict look-up is much cheaper than ``Do(raw)`` on the hot path.
_DO_BY_NAME: dict[str, Do] = {d.value: d for d in Do}


def _parse_act(act: Act) -> tuple[Do, tuple[Pos, ...]]:
    """The act's name and, for ``play``, its positions (sorted). Raises MalformedAct for a
    non-map, an unknown name, wrong fields, or a card list that is not distinct positions."""
    if not isinstance(act, dict):
        raise MalformedAct("an act must be a map")
    raw = act.get("do")
    do = _DO_BY_NAME.get(raw) if isinstance(raw, str) else None
    if do is None:
        raise MalformedAct(f"Vampire Queen has no act {raw!r}: play, pass or hunter")
    if act.keys() != ACT_FIELDS[do]:
        raise MalformedAct(f"a {do} act takes exactly the fields {', '.join(sorted(ACT_FIELDS[do]))}")
    if do is Do.HUNTER and (type(act["hunter"]) is not int or act["hunter"] not in HUNTERS):
        raise MalformedAct("the hunters are Hunter 15 and Hunter 20")
    if do is Do.PLAY:
        return do, _positions(act["cards"])
    return do, ()


def _positions(raw: object) -> tuple[Pos, ...]:
    """:func:`sorted_act_positions` with a fast path for the common well-formed list (the
    general function gives the error for anything else)."""
    if type(raw) is list:
        out = []
        for item in raw:
            if type(item) is not list or len(item) != 2:
                break
            event, index = item
            if type(event) is not int or type(index) is not int or event < 0 or index < 0:
                break
            out.append((event, index))
        else:
            if out and len(set(out)) == len(out):
                out.sort()
                return tuple(out)
    return sorted_act_positions(raw)


@lru_cache(maxsize=16)
def _to_play(seat: int) -> Pending:
    """What a state in play waits for while ``seat`` is to play: built once per seat (a Pending
    is an immutable value, and this one depends on the seat alone)."""
    return Pending(actors=(seat,), waiting=f"{seat_ref(seat)} to play")


class VampireQueen:
    """The Vampire Queen rules (shared/rules/vampire-queen.md). States are values; the only state
    kept here is a one-act memo of the last check (see :meth:`_checked`)."""

    name = SPEC.name
    title = SPEC.title
    min_seats = SPEC.min_seats
    max_seats = SPEC.max_seats
    seat_facts = SPEC.seat_facts
    option_schema = OPTIONS

    def __init__(self) -> None:
        #: The last act that passed :meth:`_checked`: (state, seat, repr of the act, revealed, Checked).
        self._memo: tuple[QueenState, int, str, dict[Pos, str], Checked] | None = None

    # -- setup and table work ----------------------------------------------------------------

    def setup(self, seats: int, options: Mapping[str, object]) -> QueenState:
        """The state before the dealer draw. Raises GameError outside 3–12 seats, OptionError for
        a bad table option."""
        hand_size(seats)
        opts = parse_options(OPTIONS, options)
        return QueenState(
            seats=seats,
            options=opts,
            hands=tuple(() for _ in range(seats)),
            totals=(0,) * seats,
        )

    def pending(self, state: QueenState) -> Pending:
        match state.phase:
            case Phase.PLAY:  # first: asked before every move
                return _to_play(state.turn)
            case Phase.DEALER:
                return Pending(ops=(Draw("dealer", (state.seats,)),), waiting="drawing the first dealer")
            case Phase.SHUFFLE:
                first = state.hunters[0]
                op = Shuffle(DECK_NAME, len(DECK), first, tuple(range(state.seats)), cards=DECK)
                return Pending(ops=(op,), waiting=f"shuffling for round {state.round}")
            case Phase.DEAL:
                ops = tuple(Open(tuple(c.pos for c in state.hands[s]), s) for s in range(state.dealt, state.seats))
                return Pending(ops=ops, waiting=f"dealing round {state.round}")
            case Phase.SCORE:
                return Pending(ops=(EndEvent(state.event),), waiting=f"revealing the hands of round {state.round}")
            case Phase.OVER:
                return Pending()

    def resolve(self, state: QueenState, op: Op, outcome: object) -> tuple[QueenState, tuple[Note, ...]]:
        """Fold the outcome of the operation :meth:`pending` asked for: the dealer draw (a tuple
        of one int), the round's shuffle (the event number), an opening to a seat (None), the
        round's end (every identity of the event, by index). Raises GameError for an operation
        the state did not ask for or an outcome of the wrong shape."""
        if isinstance(op, Draw) and state.phase == Phase.DEALER:
            if not isinstance(outcome, tuple) or len(outcome) != 1 or type(outcome[0]) is not int:
                raise GameError("the dealer draw must give one number")
            dealer = outcome[0]
            left = (dealer + 1) % state.seats
            state = replace(state, dealer=dealer, hunters=(dealer, left), leader=left, round=1, phase=Phase.SHUFFLE)
            return state, (
                Note(
                    f"{seat_ref(dealer)} is drawn as dealer and takes Hunter 15; "
                    f"{seat_ref(left)} takes Hunter 20 and leads.",
                    (dealer, left),
                ),
            )
        if isinstance(op, Shuffle) and state.phase == Phase.SHUFFLE:
            if type(outcome) is not int:
                raise GameError("a shuffle must give its event number")
            event = outcome
            h = hand_size(state.seats)
            hands = tuple(
                tuple([build(Card, pos=(event, s * h + i), ident=None) for i in range(h)]) for s in range(state.seats)
            )
            state = replace(
                state,
                event=event,
                hands=hands,
                stock=len(DECK) - h * state.seats,
                phase=Phase.DEAL,
                dealt=0,
                discard=(),
                trick=None,
                last_trick=None,
            )
            return state, (Note(f"Round {state.round}: the {len(DECK)} cards are shuffled."),)
        if isinstance(op, Open) and state.phase == Phase.DEAL and op.to == state.dealt:
            dealt = state.dealt + 1
            if dealt < state.seats:
                return replace(state, dealt=dealt), ()
            h = hand_size(state.seats)
            return replace(state, dealt=dealt, phase=Phase.PLAY), (
                Note(f"Each player is dealt {h} cards; {seat_ref(state.leader)} leads.", (state.leader,)),
            )
        if isinstance(op, EndEvent) and state.phase == Phase.SCORE and op.event == state.event:
            if not isinstance(outcome, tuple) or not all(isinstance(x, str) for x in outcome):
                raise GameError("the end of a round must give the identity of each position")
            return self._score_round(state, outcome)
        raise GameError(f"the table ran {op!r}, which this state did not ask for")

    def _score_round(self, state: QueenState, row: tuple[str, ...]) -> tuple[QueenState, tuple[Note, ...]]:
        hands: list[tuple[str, ...]] = []
        scores: list[int] = []
        for s in range(state.seats):
            cards = tuple(c.ident if c.ident is not None else row[c.pos[1]] for c in state.hands[s])
            cards += tuple(f"H{h}" for h in state.hunters_of(s))
            hands.append(cards)
            scores.append(sum(rank(c) for c in cards))
        totals = tuple(t + s for t, s in zip(state.totals, scores, strict=True))
        text = ", ".join(f"{seat_ref(s)} {scores[s]}" for s in range(state.seats))
        notes = [Note(f"Round {state.round} ends. Points in hand: {text}.")]
        state = replace(
            state,
            totals=totals,
            round_scores=state.round_scores + (tuple(scores),),
            round_hands=state.round_hands + (tuple(hands),),
            hands=tuple(() for _ in range(state.seats)),
            trick=None,
            banned=0,
        )
        if state.round >= state.rounds:
            state = replace(state, phase=Phase.OVER)
            result = self.result(state)
            assert result is not None
            notes.append(Note(result.summary, result.winners))
        else:
            state = replace(state, round=state.round + 1, phase=Phase.SHUFFLE, leader=state.hunters[1])
        return state, tuple(notes)

    # -- moves -------------------------------------------------------------------------------

    def to_open(self, state: QueenState, seat: int, act: Act) -> tuple[Pos, ...]:
        """The hidden cards a ``play`` act plays (none for the other acts). Raises MalformedAct
        for a malformed act, IllegalMove for a card the seat does not hold."""
        do, positions = _parse_act(act)
        if do is not Do.PLAY:
            return ()
        held = {c.pos: c for c in state.hands[seat]} if 0 <= seat < state.seats and state.hands else {}
        for p in positions:
            if p not in held:
                raise IllegalMove("you played a card that is not in your hand")
        return tuple(p for p in positions if held[p].ident is None)

    def _cards_of(
        self, state: QueenState, seat: int, positions: tuple[Pos, ...], revealed: Mapping[Pos, str]
    ) -> tuple[str, ...]:
        held = {c.pos: c for c in state.hands[seat]}
        cards = []
        for p in positions:
            if p not in held:
                raise IllegalMove("you played a card that is not in your hand")
            ident = held[p].ident if held[p].ident is not None else revealed.get(p)
            if ident is None or ident not in _DECK_SET:
                raise IllegalMove("a card you played was not opened")
            cards.append(ident)
        return tuple(cards)

    def check(self, state: QueenState, seat: int, act: Act, revealed: Mapping[Pos, str], at: int = 0) -> None:
        """Raise MalformedAct or IllegalMove (rule page, "Tricks", "Hunters") unless ``seat`` may
        make ``act`` now."""
        self._checked(state, seat, act, revealed)

    def _checked(self, state: QueenState, seat: int, act: Act, revealed: Mapping[Pos, str]) -> Checked:
        """Check an act; return what it does. Raises MalformedAct, then IllegalMove.

        A table checks, describes and applies each act: the last act that passed is remembered
        (by the state's identity, the seat, the act's ``repr``, which tells 15 from 15.0 and
        True, and the revealed identities), so the three calls parse and check it once."""
        key = repr(act)
        memo = self._memo
        if memo is not None and memo[0] is state and memo[1] == seat and memo[2] == key and memo[3] == revealed:
            return memo[4]
        checked = self._check_fully(state, seat, act, revealed)
        self._memo = (state, seat, key, dict(revealed), checked)
        return checked

    def _check_fully(self, state: QueenState, seat: int, act: Act, revealed: Mapping[Pos, str]) -> Checked:
        do, positions = _parse_act(act)
        if state.phase != Phase.PLAY:
            raise IllegalMove(
                {
                    Phase.OVER: "the game is over",
                    Phase.SCORE: "the round is being scored",
                }.get(state.phase, "the cards are being dealt; nobody may play yet")
            )
        if not 0 <= seat < state.seats or seat in state.abandoned:
            raise IllegalMove("you have no seat in this game")
        if seat != state.turn:
            raise IllegalMove(f"it is not your turn: seat {state.turn} is to play")
        trick = state.trick
        if do == Do.HUNTER:
            hunter: int = act["hunter"]
            if trick is not None:
                raise IllegalMove("a hunter can only be led, never played into a trick")
            if hunter not in state.hunters_of(seat):
                raise IllegalMove(f"you do not hold Hunter {hunter}")
            if hunter == state.banned:
                raise IllegalMove(f"you may not lead Hunter {hunter}: you took it in the hunter trick that just ended")
            return Checked(Do.HUNTER, hunter=hunter)
        if do == Do.PASS:
            if trick is None:
                raise IllegalMove("the leader cannot pass: lead a set or a hunter")
            if trick.hunter:
                raise IllegalMove("nobody may pass in a hunter trick: play one card")
            return _CHECKED_PASS
        cards = self._cards_of(state, seat, positions, revealed)
        if trick is not None and trick.hunter:
            if len(cards) != 1:
                raise IllegalMove("in a hunter trick you play exactly one card")
            in_hunter_trick = self._hunter_value(state, cards[0])
            return build(Checked, do=Do.PLAY, cards=cards, hunter=0, positions=positions, value=in_hunter_trick)
        value = set_value(cards)
        if value is None:
            raise IllegalMove("a set is cards of one number, with Queens standing for that number")
        if trick is not None:
            if len(cards) != trick.size:
                raise IllegalMove(
                    f"you must play {trick.size} card{'s' if trick.size > 1 else ''}, the size of the lead"
                )
            best = trick.best.value
            if value <= best:
                raise IllegalMove(f"your set must be higher than {best}")
        return build(Checked, do=Do.PLAY, cards=cards, hunter=0, positions=positions, value=value)

    def apply(
        self, state: QueenState, seat: int, act: Act, revealed: Mapping[Pos, str], at: int = 0
    ) -> tuple[QueenState, tuple[Note, ...]]:
        """The state after ``act`` (checked again here), the forced passes after it and the end
        of the trick, and the narration."""
        checked = self._checked(state, seat, act, revealed)
        trick = state.trick
        what = checked.cards
        if checked.do == Do.HUNTER:
            hunter = checked.hunter
            hunters = _hunter_held_by(state.hunters, hunter, -1)
            trick = Trick(seat, hunter, (Play(seat, (f"H{hunter}",), 0),), _clockwise_after(seat, state.seats))
            state = replace(state, hunters=hunters, trick=trick, banned=0)
        elif checked.do == Do.PASS:
            assert trick is not None
            trick = _next_turn(trick, _pass_of(seat, False))
            state = replace(state, trick=trick)
        else:
            positions = checked.positions
            hand = tuple([c for c in state.hands[seat] if c.pos not in positions])
            hands = _with(state.hands, seat, hand)
            play = build(Play, seat=seat, cards=what, value=checked.value, forced=False, positions=positions)
            if trick is None:
                trick = build(Trick, leader=seat, hunter=0, plays=(play,), waiting=_clockwise_after(seat, state.seats))
                state = replace(state, hands=hands, trick=trick, banned=0)
            else:
                state = replace(state, hands=hands, trick=_next_turn(trick, play))
        return self._advance(state)

    def _hunter_value(self, state: QueenState, card: str) -> int:
        return state.queen_in_hunter_trick if is_queen(card) else rank(card)

    def _advance(self, state: QueenState) -> tuple[QueenState, tuple[Note, ...]]:
        """Apply the turns the rules force (seats that cannot play), then end the trick if every
        seat has had its turn."""
        trick = state.trick
        assert trick is not None
        notes: list[Note] = []
        while trick.waiting:
            s = trick.waiting[0]
            cards_held = len(state.hands[s])
            if trick.hunter and cards_held == 0:
                notes.append(Note(f"{seat_ref(s)} holds only hunters and plays nothing.", (s,)))
            elif not trick.hunter and cards_held < trick.size:
                notes.append(
                    Note(
                        f"{seat_ref(s)} cannot play {trick.size} card{'s' if trick.size != 1 else ''} and passes.", (s,)
                    )
                )
            else:
                break
            trick = _next_turn(trick, _pass_of(s, True))
        if not notes:  # the common case: the next seat can play, or the trick is over
            return (state, ()) if trick.waiting else self._end_trick(state, trick)
        state = replace(state, trick=trick)
        if trick.waiting:
            return state, tuple(notes)
        state, end_notes = self._end_trick(state, trick)
        return state, tuple(notes) + end_notes

    def _end_trick(self, state: QueenState, trick: Trick) -> tuple[QueenState, tuple[Note, ...]]:
        notes: list[Note] = []
        banned = 0
        if not trick.hunter:
            winner = trick.best.seat
            played = tuple(c for p in trick.plays for c in p.cards)
            state = replace(state, discard=state.discard + played)
            notes.append(Note(f"{seat_ref(winner)} wins the trick.", (winner,)))
        else:
            followers = [p for p in trick.plays[1:] if p.cards]
            if not followers:
                winner = trick.leader
                notes.append(
                    Note(f"Nobody could play: {seat_ref(winner)} takes Hunter {trick.hunter} back.", (winner,))
                )
            else:
                top = max(p.value for p in followers)
                tied = [p for p in followers if p.value == top]
                best = tied[-1] if state.hunter_tie == HunterTie.LAST else tied[0]
                winner = best.seat
                banned = trick.hunter
                taken = tuple(Card(p.positions[0], p.cards[0]) for p in followers)
                taken_words = [f"Hunter {trick.hunter}"] + [card_word(p.cards[0]) for p in followers]
                state = replace(state, hands=_with(state.hands, winner, state.hands[winner] + taken))
                notes.append(Note(f"{seat_ref(winner)} takes {list_words(taken_words)}.", (winner,)))
            state = replace(state, hunters=_hunter_held_by(state.hunters, trick.hunter, winner))
        state = replace(state, trick=None, last_trick=trick, leader=winner, banned=banned)
        # No cards left: no card in hand and neither hunter (hand_count 0).
        hands, hunters, abandoned = state.hands, state.hunters, state.abandoned
        out = [s for s in range(state.seats) if not hands[s] and s not in hunters and s not in abandoned]
        if out:
            names = list_words([seat_ref(s) for s in out])
            notes.append(Note(f"{names} {'has' if len(out) == 1 else 'have'} no cards left.", tuple(out)))
            state = replace(state, phase=Phase.SCORE, banned=0)
        return state, tuple(notes)

    # -- views and choices -------------------------------------------------------------------

    def view(self, state: QueenState, seat: int | None, known: Mapping[Pos, str]) -> QueenView:
        """What ``seat`` may know: the public state and its own hand (see :class:`QueenView`)."""
        if seat is None or not state.hands:
            return QueenView(seat, state, (), ())
        ranked: list[tuple[int, Pos, str | None]] = []
        get = known.get
        for c in state.hands[seat]:
            ident = c.ident
            if ident is None:
                ident = get(c.pos)
            if not ident:
                ranked.append((99, c.pos, ident))
            else:
                r = _RANKS.get(ident)
                ranked.append((rank(ident) if r is None else r, c.pos, ident))
        ranked.sort()  # by value, then position (positions differ, so identities are never compared)
        hand = tuple([(pos, ident) for _, pos, ident in ranked])
        return build(QueenView, seat=seat, state=state, hand=hand, hunters_held=state.hunters_of(seat))

    def legal_acts(self, view: QueenView) -> list[Act]:
        """Every distinct act the seat may make now: one act per distinct play (number, how many
        number cards, how many Queens), on the first positions of the hand in sorted order; any
        act that plays equivalent cards is equally legal."""
        state = view.state
        if view.seat is None or state.phase != Phase.PLAY or state.turn != view.seat:
            return []
        trick = state.trick
        groups, queens = _groups(view.hand)
        play = _PLAY
        if trick is not None and trick.hunter:
            acts: list[Act] = [{"do": play, "cards": [list(group[0])]} for _, group in groups]
            if queens:
                acts.append({"do": play, "cards": [list(queens[0])]})
            return acts
        acts = []
        sizes = range(1, len(view.hand) + 1) if trick is None else (trick.size,)
        floor = 0 if trick is None else trick.best.value
        if floor:
            groups = [(r, group) for r, group in groups if r > floor]
        nq = len(queens)
        # No set is larger than a group plus every Queen: larger sizes offer nothing.
        top = max([len(group) for _, group in groups], default=0) + nq
        for size in sizes:
            if size > top:
                break
            if size == 1:  # the first card of each number: what the loop below makes for size 1
                acts.extend([{"do": play, "cards": [list(group[0])]} for _, group in groups])
            else:
                low = size - nq if size > nq else 1
                for _, group in groups:
                    g = len(group)
                    for n in range(low, (size if size < g else g) + 1):
                        cards = [list(p) for p in group[:n]]
                        if n < size:
                            cards += [list(p) for p in queens[: size - n]]
                        cards.sort()
                        acts.append({"do": play, "cards": cards})
            if floor < QUEEN and size <= nq:
                acts.append({"do": play, "cards": sorted([list(p) for p in queens[:size]])})
        if trick is None:
            acts.extend({"do": _HUNTER, "hunter": h} for h in view.hunters_held if h != state.banned)
        else:
            acts.append({"do": _PASS})
        return acts

    def describe(self, state: QueenState, seat: int, act: Act, revealed: Mapping[Pos, str]) -> Note:
        """The act in a player's words ("{s1} leads three 7s."). Raises as :meth:`check`."""
        checked = self._checked(state, seat, act, revealed)
        what = checked.cards
        who = seat_ref(seat)
        if checked.do == Do.HUNTER:
            return Note(f"{who} leads Hunter {checked.hunter}.", (seat,))
        if checked.do == Do.PASS:
            return Note(f"{who} passes.", (seat,))
        if state.trick is None:
            return Note(f"{who} leads {_set_words(what, checked.value)}.", (seat,))
        if state.trick.hunter:
            return Note(f"{who} plays {_card_words(what[0])}.", (seat,))
        return Note(f"{who} plays {_set_words(what, checked.value)}.", (seat,))

    def result(self, state: QueenState) -> Result | None:
        """The result once the game is over (rule page, "Winning"; scores: totals, lower is
        better), else None."""
        if state.phase != Phase.OVER:
            return None
        totals = state.totals
        if state.abandoned:
            names = list_words([seat_ref(s) for s in state.abandoned])
            return Result(totals, (), f"The game was abandoned by {names}; there is no winner.", state.abandoned)
        low = min(totals)
        winners = tuple(s for s in range(state.seats) if totals[s] == low)
        if len(winners) > 1 and state.tie == Tie.NONE:
            return Result(totals, (), f"Tied lowest totals of {low}: nobody wins.")
        names = list_words([seat_ref(s) for s in winners])
        return Result(totals, winners, f"{names} {'wins' if len(winners) == 1 else 'share the win'} with {low}.")

    def abandon(self, state: QueenState, seat: int) -> tuple[QueenState, tuple[Note, ...]]:
        """A seat removed by abandon votes ends the game with no winner (rule page, "Abandon")."""
        state = replace(state, phase=Phase.OVER, abandoned=tuple(sorted(set(state.abandoned) | {seat})), trick=None)
        result = self.result(state)
        assert result is not None
        return state, (Note(result.summary, state.abandoned),)


def _with(hands: tuple[tuple[Card, ...], ...], seat: int, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    return hands[:seat] + (hand,) + hands[seat + 1 :]


def _groups(hand: tuple[tuple[Pos, str | None], ...]) -> tuple[list[tuple[int, list[Pos]]], list[Pos]]:
    """A view's hand (:attr:`QueenView.hand`) sorted out for :meth:`VampireQueen.legal_acts`:
    ``(number, positions)`` for each number held, by number, and the Queens' positions, each in
    hand order. Unopened cards are left out. A hand sorted by value (as views make it) is read
    in runs; any other in a map."""
    groups: list[tuple[int, list[Pos]]] = []
    queens: list[Pos] = []
    last = 0
    run: list[Pos] = []
    for pos, ident in hand:
        if ident is None:
            continue
        r = _RANKS.get(ident)
        if r is None:  # not a card of the deck: read it as rank() reads it
            if ident.startswith("Q-"):
                queens.append(pos)
                continue
            r = rank(ident)
        elif r == QUEEN:  # the deck's only cards of rank 14 are its Queens
            queens.append(pos)
            continue
        if r == last:
            run.append(pos)
        elif r > last:
            run = [pos]
            groups.append((r, run))
            last = r
        else:
            return _groups_unsorted(hand)
    return groups, queens


def _groups_unsorted(hand: tuple[tuple[Pos, str | None], ...]) -> tuple[list[tuple[int, list[Pos]]], list[Pos]]:
    """:func:`_groups` of a hand in any order."""
    by_rank: dict[int, list[Pos]] = {}
    queens: list[Pos] = []
    for pos, ident in hand:
        if ident is None:
            continue
        if ident.startswith("Q-"):
            queens.append(pos)
        else:
            by_rank.setdefault(rank(ident), []).append(pos)
    return sorted(by_rank.items()), queens


def _next_turn(trick: Trick, play: Play) -> Trick:
    """``trick`` after the turn of the first waiting seat, which made ``play``."""
    return build(
        Trick, leader=trick.leader, hunter=trick.hunter, plays=trick.plays + (play,), waiting=trick.waiting[1:]
    )


GAME = VampireQueen()
