"""A fast Vampire Queen engine for simulation (shared/rules/vampire-queen.md), with every card known.

:class:`Rollout` is a mutable, compact copy of a game: per seat, how many cards of each value it
holds (copies of a number play alike, so identities do not matter once every hand is known), the
hunters' holders, the trick being played and the totals. A move is one int (:func:`move_code`), its
legal moves come in the order :meth:`engine.games.queen.rules.VampireQueen.legal_acts` lists its
acts, and applying a move follows the rules engine exactly: the same forced passes, trick winners,
hunter bans, round ends, scores and results, for 3–12 seats and every table option. The property
tests hold the two engines together.

It is made for search: a bot copies it (:meth:`Rollout.copy`) and plays many continuations. The
rules engine stays the referee of every real game.

Moves (ints):

- ``PASS`` (0): pass in a normal trick;
- ``-15``/``-20``: lead that hunter;
- otherwise ``value | queens << 4 | numbers << 7``: a set of ``numbers`` cards of ``value`` (1–13)
  and ``queens`` Queens, or ``queens`` Queens alone (``value`` 14, ``numbers`` 0). In a hunter
  trick, the one card played: ``value | 1 << 7`` for a number, ``14 | 1 << 4`` for a Queen.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engine.games.base import Act, Pos, Result
from engine.games.queen.rules import (
    GAME,
    HUNTERS,
    QUEEN,
    HunterTie,
    Phase,
    QueenState,
    QueenView,
    Tie,
    hand_size,
    is_queen,
    rank,
)

PASS = 0
QUEEN_INDEX = QUEEN  # counts[seat][14]: Queens held
#: The 108 shuffled cards as values (1–13 eight times, 14 for each Queen), in the order of DECK.
DECK_VALUES: tuple[int, ...] = tuple(v for v in range(1, 14) for _ in range(8)) + (QUEEN,) * 4
_POINTS = tuple(range(15))  # a card's points in hand by value index (a Queen: 14)


def move_code(value: int, numbers: int, queens: int) -> int:
    """The move that plays ``numbers`` cards of ``value`` and ``queens`` Queens (``value`` 14 and
    ``numbers`` 0 for Queens alone)."""
    return value | queens << 4 | numbers << 7


def move_parts(move: int) -> tuple[int, int, int]:
    """``(value, numbers, queens)`` of a play move (see :func:`move_code`)."""
    return move & 15, move >> 7, (move >> 4) & 7


def _clockwise(seats: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple((s + i) % seats for i in range(1, seats)) for s in range(seats))


class Rollout:
    """One Vampire Queen game with every hand known, in play (or over).

    Fields (public for readers; change them only through :meth:`apply` and :meth:`deal`):
    ``counts[seat][v]``: cards of value ``v`` held (1–13 numbers, 14 Queens; index 0 unused);
    ``sizes[seat]``: cards held, hunters apart; ``hunters``: holders of Hunter 15 and Hunter 20
    (-1 while led); ``leader``; ``banned``: the hunter the leader may not lead (0: none);
    ``hunter``: the hunter led in the trick being played (0: a normal trick, or no trick);
    ``in_trick``; ``size``/``best``/``best_seat``: the normal trick's set size, highest value and
    its player; ``order``/``turn_index``: the seats after the leader and whose turn it is;
    ``taken``: a hunter trick's plays as ``(seat, trick value, card value)``; ``totals``;
    ``round``/``rounds``; ``over``; ``deal_due``: the round ended and the next round's cards wait
    for :meth:`deal` (only with ``auto_deal`` off).
    """

    __slots__ = (
        "auto_deal",
        "banned",
        "best",
        "best_seat",
        "clockwise",
        "counts",
        "deal_due",
        "hand",
        "hunter",
        "hunters",
        "in_trick",
        "leader",
        "order",
        "over",
        "queen_value",
        "rng",
        "round",
        "round_scores",
        "rounds",
        "seats",
        "size",
        "sizes",
        "taken",
        "tie_last",
        "tie_shared",
        "totals",
        "turn_index",
    )

    def __init__(self, seats: int, options: Mapping[str, object] | None = None, rng: random.Random | None = None):
        """A game of ``seats`` (3–12) under ``options`` (the rules' table options, checked by the
        rules: raises GameError / OptionError as ``GAME.setup``), before its first deal.
        ``rng`` deals later rounds (:meth:`deal` with no cards)."""
        state = GAME.setup(seats, dict(options or {}))
        self.seats = seats
        self.hand = hand_size(seats)
        self.rounds = state.rounds
        self.queen_value = state.queen_in_hunter_trick
        self.tie_last = state.hunter_tie == HunterTie.LAST
        self.tie_shared = state.tie == Tie.SHARED
        self.rng = rng or random.Random()
        self.auto_deal = True
        self.clockwise = _clockwise(seats)
        self.round = 0
        self.counts: list[list[int]] = [[0] * 15 for _ in range(seats)]
        self.sizes = [0] * seats
        self.hunters = [-1, -1]
        self.leader = -1
        self.banned = 0
        self.in_trick = False
        self.hunter = 0
        self.size = 0
        self.best = 0
        self.best_seat = -1
        self.order: tuple[int, ...] = ()
        self.turn_index = 0
        self.taken: list[tuple[int, int, int]] = []
        self.totals = [0] * seats
        self.round_scores: list[list[int]] = []
        self.over = False
        self.deal_due = False

    # -- building ----------------------------------------------------------------------------

    @classmethod
    def new_game(
        cls, seats: int, options: Mapping[str, object] | None = None, rng: random.Random | None = None
    ) -> Rollout:
        """A whole game from its start: a random dealer (who takes Hunter 15; the next seat takes
        Hunter 20 and leads) and round 1 dealt from ``rng``."""
        game = cls(seats, options, rng)
        dealer = game.rng.randrange(seats)
        game.hunters = [dealer, (dealer + 1) % seats]
        game.round = 1
        game.deal()
        return game

    @classmethod
    def from_state(
        cls,
        state: QueenState,
        identities: Mapping[Pos, str],
        rng: random.Random | None = None,
        partial: bool = False,
    ) -> Rollout:
        """The game at ``state`` (phase ``play``, nobody abandoned), every hidden card read from
        ``identities`` (position to identity: the truth, or a sample of it). With ``partial``, a
        hidden card ``identities`` does not name is left out of ``counts`` (``sizes`` still count
        it) for the caller to fill. Raises ValueError for another phase, an abandoned game, or
        (without ``partial``) a hidden card ``identities`` does not name."""
        if state.phase != Phase.PLAY or state.abandoned:
            raise ValueError("a rollout starts from a state in play")
        opts = dict(state.options)
        game = cls(state.seats, opts, rng)
        game.round = state.round
        game.totals = list(state.totals)
        game.round_scores = [list(r) for r in state.round_scores]
        for s, hand in enumerate(state.hands):
            counts = game.counts[s]
            for card in hand:
                ident = card.ident if card.ident is not None else identities.get(card.pos)
                if ident is not None:
                    counts[rank(ident)] += 1
                elif not partial:
                    raise ValueError(f"the card at {card.pos} is not known")
            game.sizes[s] = len(hand)
        game.hunters = list(state.hunters)
        game.leader = state.leader
        game.banned = state.banned
        trick = state.trick
        if trick is not None:
            game.in_trick = True
            game.leader = trick.leader
            game.hunter = trick.hunter
            game.order = game.clockwise[trick.leader]
            game.turn_index = len(game.order) - len(trick.waiting)
            if trick.hunter:
                game.taken = [(p.seat, p.value, rank(p.cards[0])) for p in trick.plays[1:] if p.cards]
            else:
                game.size = trick.size
                best = trick.best
                game.best, game.best_seat = best.value, best.seat
        return game

    def copy(self) -> Rollout:
        """An independent copy (hands and lists copied; the rng shared)."""
        other = Rollout.__new__(Rollout)
        for name in Rollout.__slots__:
            setattr(other, name, getattr(self, name))
        other.counts = [c[:] for c in self.counts]
        other.sizes = self.sizes[:]
        other.hunters = self.hunters[:]
        other.taken = self.taken[:]
        other.totals = self.totals[:]
        other.round_scores = [r[:] for r in self.round_scores]
        return other

    def deal(self, cards: Sequence[int] | None = None) -> None:
        """Deal a round: ``cards`` are the 108 shuffled cards as values, in position order (seat
        ``s`` gets positions ``s*h`` to ``s*h + h - 1``, as the rules deal); None shuffles with
        ``rng``. Hunters stay with their holders; Hunter 20's holder leads."""
        if cards is None:
            deck = list(DECK_VALUES)
            self.rng.shuffle(deck)
            cards = deck
        h = self.hand
        for s in range(self.seats):
            counts = [0] * 15
            for v in cards[s * h : s * h + h]:
                counts[v] += 1
            self.counts[s] = counts
            self.sizes[s] = h
        self.leader = self.hunters[1]
        self.banned = 0
        self.in_trick = False
        self.hunter = 0
        self.deal_due = False

    # -- play --------------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """The seat to move (-1 once the game is over or a deal is due)."""
        if self.over or self.deal_due:
            return -1
        return self.order[self.turn_index] if self.in_trick else self.leader

    def legal(self) -> list[int]:
        """The moves of the seat to move, in the order of the rules' ``legal_acts``."""
        if self.over or self.deal_due:
            return []
        moves: list[int] = []
        if not self.in_trick:
            seat = self.leader
            counts = self.counts[seat]
            nq = counts[14]
            groups = [(r, g) for r, g in enumerate(counts[1:14], 1) if g]
            top = max((g for _, g in groups), default=0) + nq
            for size in range(1, min(self.sizes[seat], top) + 1):
                low = size - nq if size > nq else 1
                for r, g in groups:
                    high = size if size < g else g
                    for n in range(low, high + 1):
                        moves.append(r | (size - n) << 4 | n << 7)
                if size <= nq:
                    moves.append(14 | size << 4)
            h15, h20 = self.hunters
            if h15 == seat and self.banned != 15:
                moves.append(-15)
            if h20 == seat and self.banned != 20:
                moves.append(-20)
            return moves
        seat = self.order[self.turn_index]
        counts = self.counts[seat]
        if self.hunter:
            for r in range(1, 14):
                if counts[r]:
                    moves.append(r | 128)
            if counts[14]:
                moves.append(14 | 16)
            return moves
        size = self.size
        nq = counts[14]
        low = size - nq if size > nq else 1
        floor = self.best
        for r in range(floor + 1, 14):
            g = counts[r]
            if g + nq < size or not g:
                continue
            high = size if size < g else g
            for n in range(low, high + 1):
                moves.append(r | (size - n) << 4 | n << 7)
        if floor < 14 and size <= nq:
            moves.append(14 | size << 4)
        moves.append(PASS)
        return moves

    def apply(self, move: int) -> None:
        """Play ``move`` (one of :meth:`legal`; not checked) for the seat to move, then the
        forced passes, the trick's end, the round's end and, with ``auto_deal``, the next deal."""
        if not self.in_trick:
            seat = self.leader
            self.in_trick = True
            self.order = self.clockwise[seat]
            self.turn_index = 0
            self.banned = 0
            if move < 0:
                hunter = -move
                self.hunter = hunter
                self.hunters[0 if hunter == 15 else 1] = -1
                self.taken = []
            else:
                value, queens, size = self._take(seat, move)
                self.hunter = 0
                self.size = size
                self.best = value
                self.best_seat = seat
        else:
            seat = self.order[self.turn_index]
            self.turn_index += 1
            if move:
                value, queens, _ = self._take(seat, move)
                if self.hunter:
                    self.taken.append((seat, self.queen_value if queens else value, value))
                else:
                    self.best = value
                    self.best_seat = seat
        self._advance()

    def _take(self, seat: int, move: int) -> tuple[int, int, int]:
        """Take a played set ``move`` (a set's int: value, Queens, numbers) out of ``seat``'s
        hand; returns (value, Queens, cards)."""
        value = move & 15
        queens = (move >> 4) & 7
        numbers = move >> 7
        counts = self.counts[seat]
        counts[value] -= numbers
        counts[14] -= queens
        self.sizes[seat] -= numbers + queens
        return value, queens, numbers + queens

    def _advance(self) -> None:
        order = self.order
        index = self.turn_index
        sizes = self.sizes
        if self.hunter:
            while index < len(order) and sizes[order[index]] == 0:
                index += 1
        else:
            size = self.size
            while index < len(order) and sizes[order[index]] < size:
                index += 1
        self.turn_index = index
        if index == len(order):
            self._end_trick()

    def _end_trick(self) -> None:
        self.in_trick = False
        hunter = self.hunter
        self.hunter = 0
        if not hunter:
            self.leader = self.best_seat
        else:
            taken = self.taken
            which = 0 if hunter == 15 else 1
            if not taken:
                self.hunters[which] = self.leader
            else:
                top = max(t[1] for t in taken)
                if self.tie_last:
                    winner = [t[0] for t in taken if t[1] == top][-1]
                else:
                    winner = next(t[0] for t in taken if t[1] == top)
                counts = self.counts[winner]
                for _, _, card in taken:
                    counts[card] += 1
                self.sizes[winner] += len(taken)
                self.hunters[which] = winner
                self.banned = hunter
                self.leader = winner
        sizes = self.sizes
        h15, h20 = self.hunters
        for s in range(self.seats):
            if sizes[s] == 0 and h15 != s and h20 != s:
                self._end_round()
                return

    def round_points(self) -> list[int]:
        """Each seat's points in hand now (cards and hunters; rule page, "End of a round")."""
        h15, h20 = self.hunters
        points = []
        for s, counts in enumerate(self.counts):
            p = sum(v * c for v, c in enumerate(counts))
            if h15 == s:
                p += 15
            if h20 == s:
                p += 20
            points.append(p)
        return points

    def _end_round(self) -> None:
        scores = self.round_points()
        self.round_scores.append(scores)
        self.totals = [t + p for t, p in zip(self.totals, scores, strict=True)]
        self.banned = 0
        if self.round >= self.rounds:
            self.over = True
            return
        self.round += 1
        self.deal_due = True
        if self.auto_deal:
            self.deal()

    # -- results -----------------------------------------------------------------------------

    def winners(self) -> tuple[int, ...]:
        """The seats that win (share the win) once over: the lowest totals, none when tied under
        table rule ``tie`` = ``none`` (rule page, "End of the game")."""
        low = min(self.totals)
        tied = tuple(s for s in range(self.seats) if self.totals[s] == low)
        if len(tied) > 1 and not self.tie_shared:
            return ()
        return tied

    def result(self) -> Result | None:
        """The scores and winners as the rules' :class:`Result` gives them (summary left out),
        or None before the game is over."""
        if not self.over:
            return None
        return Result(tuple(self.totals), self.winners(), "")

    def play_out(self, rng: random.Random, until_round_end: bool = False) -> int:
        """Random moves (uniformly among the legal ones) until the game is over, or with
        ``until_round_end`` until the round being played has been scored; the number of moves."""
        start = len(self.round_scores)
        randbelow = rng.randrange
        made = 0
        while not self.over:
            if until_round_end and len(self.round_scores) > start:
                break
            if self.deal_due:
                self.deal()
            moves = self.legal()
            self.apply(moves[randbelow(len(moves))])
            made += 1
        return made


# --- between the two engines ------------------------------------------------------------------


def act_move(view: QueenView, act: Act) -> int:
    """The rollout move of a rules act offered to ``view``'s seat (every card it plays is known
    to the seat)."""
    do = act["do"]
    if do == "pass":
        return PASS
    if do == "hunter":
        return -int(act["hunter"])
    idents = dict(view.hand)
    numbers = queens = 0
    value = QUEEN
    for event, index in act["cards"]:
        ident = idents[(event, index)]
        assert ident is not None, "a legal act plays only cards opened to the seat"
        if is_queen(ident):
            queens += 1
        else:
            numbers += 1
            value = rank(ident)
    return move_code(value, numbers, queens)


def move_act(view: QueenView, move: int) -> Act:
    """The rules act for rollout ``move`` by ``view``'s seat: the first cards of each value in
    the view's hand order, as ``legal_acts`` chooses them."""
    if move == PASS:
        return {"do": "pass"}
    if move < 0:
        return {"do": "hunter", "hunter": -move}
    value, numbers, queens = move_parts(move)
    picked: list[Pos] = []
    for pos, ident in view.hand:
        if ident is None:
            continue
        if is_queen(ident):
            if queens:
                picked.append(pos)
                queens -= 1
        elif numbers and rank(ident) == value:
            picked.append(pos)
            numbers -= 1
    return {"do": "play", "cards": [list(p) for p in sorted(picked)]}


__all__ = [
    "DECK_VALUES",
    "HUNTERS",
    "PASS",
    "Rollout",
    "act_move",
    "move_act",
    "move_code",
    "move_parts",
]
