"""High Card: the rules, behind the game interface of :mod:`engine.games.base`.

The rules, in full:

- 3 to 6 players. The deck is 20 cards: the numbers 1 to 10 in two suits, spades (``s``) below
  hearts (``h``), so that every card has its own value (``"7s"`` < ``"7h"`` < ``"8s"``).
- A joint draw picks the first leader. The deck is shuffled once; each player is dealt ``tricks``
  cards (option, 1 to 3), face down.
- A trick: the leader plays any card face up, then every other player in turn clockwise plays any
  card. The highest card wins the trick; its player leads the next.
- After ``tricks`` tricks the deck's seeds are revealed (the audit checks the shuffle) and the
  players with the most tricks share the win. A player who abandons ends the game with no winner.

Acts (canonical maps): ``{"do": "play", "card": [event, index]}``, the position of a card in the
player's hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from engine.games.base import (
    Act,
    Draw,
    EndEvent,
    GameError,
    IllegalMove,
    Note,
    Op,
    Open,
    OptionSpec,
    Pending,
    Pos,
    Result,
    Shuffle,
    parse_options,
    seat_ref,
)
from tests.seamgame.spec import SPEC

NAME = SPEC.name
TITLE = SPEC.title
MIN_SEATS = SPEC.min_seats
MAX_SEATS = SPEC.max_seats
DECK_NAME = "highcard"
SUITS = ("s", "h")
#: The 20 cards, in the canonical order the deck protocol's card points follow (lowest first).
DECK: tuple[str, ...] = tuple(f"{number}{suit}" for number in range(1, 11) for suit in SUITS)
VALUE: dict[str, int] = {card: value for value, card in enumerate(DECK)}

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("tricks", int, 3, "cards dealt to each player, one trick each", low=1, high=3),
)

Phase = Literal["leader", "shuffle", "deal", "play", "reveal", "over"]
"""``leader``: the first leader is drawn; ``shuffle``: the deck is shuffled; ``deal``: each hand is
opened to its player; ``play``: tricks; ``reveal``: the shuffle's seeds are revealed; ``over``."""


def card_words(card: str) -> str:
    """A card in a player's words: ``"the 7 of hearts"``."""
    return f"the {card[:-1]} of {'hearts' if card.endswith('h') else 'spades'}"


@dataclass(frozen=True)
class Played:
    """One card played into a trick: who played it, from which position, and what it is."""

    seat: int
    pos: Pos
    card: str


@dataclass(frozen=True)
class HighCardState:
    """The public state of a High Card table.

    ``hands[s]``: the positions seat ``s`` still holds (identities are private until played);
    ``trick``: the cards played into the current trick, in order; ``won[s]``: tricks seat ``s`` has
    taken; ``played``: tricks finished; ``dealt``: hands opened so far in the deal.
    """

    seats: int
    options: tuple[tuple[str, Any], ...]
    phase: Phase = "leader"
    event: int = -1
    dealt: int = 0
    hands: tuple[tuple[Pos, ...], ...] = ()
    leader: int = -1
    trick: tuple[Played, ...] = ()
    last_trick: tuple[Played, ...] = ()
    played: int = 0
    won: tuple[int, ...] = ()
    abandoned: tuple[int, ...] = ()

    @property
    def tricks(self) -> int:
        """Tricks in the game (the ``tricks`` option)."""
        return int(dict(self.options)["tricks"])

    @property
    def turn(self) -> int:
        """The seat to play now, or -1 outside play."""
        if self.phase != "play":
            return -1
        return (self.leader + len(self.trick)) % self.seats


@dataclass(frozen=True)
class HighCardView:
    """What one seat may know (``seat`` None: a spectator): the public state, and this seat's hand
    as ``(position, identity)`` pairs, lowest first (identity None until opened to it)."""

    seat: int | None
    state: HighCardState
    hand: tuple[tuple[Pos, str | None], ...]

    @property
    def best(self) -> str | None:
        """The highest card in the current trick, or None before the lead."""
        return max((p.card for p in self.state.trick), key=VALUE.__getitem__, default=None)


class HighCard:
    """The High Card rules. Stateless; states are values."""

    name = NAME
    title = TITLE
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    seat_facts = SPEC.seat_facts
    option_schema = OPTIONS

    def setup(self, seats: int, options: Mapping[str, Any]) -> HighCardState:
        """Raises GameError outside 3–6 seats, OptionError for a bad option."""
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise GameError(f"{TITLE} is played by {MIN_SEATS} to {MAX_SEATS} players, not {seats}")
        return HighCardState(seats, parse_options(OPTIONS, options), won=(0,) * seats)

    # -- the table's work ----------------------------------------------------------------------

    def pending(self, state: HighCardState) -> Pending:
        match state.phase:
            case "leader":
                return Pending(ops=(Draw("leader", (state.seats,)),), waiting="drawing the first leader")
            case "shuffle":
                everyone = tuple(range(state.seats))
                return Pending(
                    ops=(Shuffle(DECK_NAME, len(DECK), state.leader, everyone, cards=DECK),), waiting="shuffling"
                )
            case "deal":
                ops = tuple(Open(state.hands[s], s) for s in range(state.dealt, state.seats))
                return Pending(ops=ops, waiting="dealing")
            case "play":
                return Pending(actors=(state.turn,), waiting=f"{seat_ref(state.turn)} to play")
            case "reveal":
                return Pending(ops=(EndEvent(state.event),), waiting="revealing the deck")
        return Pending()

    def resolve(self, state: HighCardState, op: Op, outcome: Any) -> tuple[HighCardState, tuple[Note, ...]]:
        """Fold a table operation's outcome. Raises GameError for one this state did not ask for."""
        if isinstance(op, Draw) and state.phase == "leader":
            leader = outcome[0]
            note = Note(f"{seat_ref(leader)} is drawn to lead.", (leader,))
            return replace(state, leader=leader, phase="shuffle"), (note,)
        if isinstance(op, Shuffle) and state.phase == "shuffle":
            event, size = outcome, state.tricks
            hands = tuple(tuple((event, s * size + i) for i in range(size)) for s in range(state.seats))
            note = Note(f"The {len(DECK)} cards are shuffled; each player is dealt {size}.")
            return replace(state, event=event, hands=hands, phase="deal"), (note,)
        if isinstance(op, Open) and state.phase == "deal" and op.to == state.dealt:
            dealt = state.dealt + 1
            return replace(state, dealt=dealt, phase="play" if dealt == state.seats else "deal"), ()
        if isinstance(op, EndEvent) and state.phase == "reveal" and op.event == state.event:
            state = replace(state, phase="over")
            result = self.result(state)
            assert result is not None
            return state, (Note(result.summary, result.winners),)
        raise GameError(f"the table ran {op!r}, which this state did not ask for")

    # -- acts ----------------------------------------------------------------------------------

    def _position(self, state: HighCardState, seat: int, act: Act) -> Pos:
        """The position an act plays. Raises IllegalMove when malformed or not in the seat's hand."""
        if not isinstance(act, dict) or act.get("do") != "play" or set(act) != {"do", "card"}:
            raise IllegalMove('High Card has one act: {"do": "play", "card": [event, index]}')
        raw = act["card"]
        if not isinstance(raw, list) or len(raw) != 2 or any(type(x) is not int or x < 0 for x in raw):
            raise IllegalMove("the card must be an [event, index] pair")
        pos = (raw[0], raw[1])
        if not 0 <= seat < state.seats or pos not in (state.hands[seat] if state.hands else ()):
            raise IllegalMove("you played a card that is not in your hand")
        return pos

    def to_open(self, state: HighCardState, seat: int, act: Act) -> tuple[Pos, ...]:
        return (self._position(state, seat, act),)

    def check(self, state: HighCardState, seat: int, act: Act, revealed: Mapping[Pos, str], at: int = 0) -> None:
        self._checked(state, seat, act, revealed)

    def _checked(self, state: HighCardState, seat: int, act: Act, revealed: Mapping[Pos, str]) -> Played:
        """The card an act plays. Raises IllegalMove when the seat may not play it now."""
        if state.phase != "play":
            raise IllegalMove("the game is over" if state.phase == "over" else "nobody may play yet")
        if seat in state.abandoned:
            raise IllegalMove("you have left this game")
        pos = self._position(state, seat, act)
        if seat != state.turn:
            raise IllegalMove(f"it is not your turn: seat {state.turn} is to play")
        card = revealed.get(pos)
        if card not in VALUE:
            raise IllegalMove("the card you played was not opened")
        return Played(seat, pos, card)

    def apply(
        self, state: HighCardState, seat: int, act: Act, revealed: Mapping[Pos, str], at: int = 0
    ) -> tuple[HighCardState, tuple[Note, ...]]:
        play = self._checked(state, seat, act, revealed)
        hand = tuple(p for p in state.hands[seat] if p != play.pos)
        hands = state.hands[:seat] + (hand,) + state.hands[seat + 1 :]
        trick = state.trick + (play,)
        state = replace(state, hands=hands, trick=trick)
        if len(trick) < state.seats:
            return state, ()
        best = max(trick, key=lambda p: VALUE[p.card])
        won = tuple(n + (s == best.seat) for s, n in enumerate(state.won))
        played = state.played + 1
        state = replace(
            state,
            trick=(),
            last_trick=trick,
            leader=best.seat,
            won=won,
            played=played,
            phase="reveal" if played == state.tricks else "play",
        )
        return state, (Note(f"{seat_ref(best.seat)} wins the trick with {card_words(best.card)}.", (best.seat,)),)

    def describe(self, state: HighCardState, seat: int, act: Act, revealed: Mapping[Pos, str]) -> Note:
        play = self._checked(state, seat, act, revealed)
        verb = "leads" if not state.trick else "plays"
        return Note(f"{seat_ref(seat)} {verb} {card_words(play.card)}.", (seat,))

    # -- views, the end ------------------------------------------------------------------------

    def view(self, state: HighCardState, seat: int | None, known: Mapping[Pos, str]) -> HighCardView:
        if seat is None or not state.hands:
            return HighCardView(seat, state, ())
        hand = tuple((pos, known.get(pos)) for pos in state.hands[seat])
        return HighCardView(seat, state, tuple(sorted(hand, key=lambda pc: (VALUE.get(pc[1] or "", 99), pc[0]))))

    def legal_acts(self, view: HighCardView) -> list[Act]:
        """One act per card of the hand whose identity the seat knows, lowest card first."""
        if view.seat is None or view.state.turn != view.seat:
            return []
        return [{"do": "play", "card": list(pos)} for pos, card in view.hand if card is not None]

    def result(self, state: HighCardState) -> Result | None:
        if state.phase != "over":
            return None
        if state.abandoned:
            names = ", ".join(seat_ref(s) for s in state.abandoned)
            return Result(state.won, (), f"The game was abandoned by {names}; there is no winner.", state.abandoned)
        most = max(state.won)
        winners = tuple(s for s, n in enumerate(state.won) if n == most)
        names = " and ".join(seat_ref(s) for s in winners)
        verb = "wins" if len(winners) == 1 else "share the win"
        return Result(state.won, winners, f"{names} {verb} with {most} trick{'s' if most != 1 else ''}.")

    def abandon(self, state: HighCardState, seat: int) -> tuple[HighCardState, tuple[Note, ...]]:
        """A seat removed by abandon votes ends the game with no winner (PROTOCOL.md 6)."""
        abandoned = tuple(sorted({*state.abandoned, seat}))
        state = replace(state, phase="over", abandoned=abandoned, trick=())
        result = self.result(state)
        assert result is not None
        return state, (Note(result.summary, abandoned),)


GAME = HighCard()
