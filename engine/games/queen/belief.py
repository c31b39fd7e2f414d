"""What one seat can infer about the hidden cards of a Vampire Queen round, and deals consistent
with it (shared/rules/vampire-queen.md, "Things everyone can check during play").

From a seat's :class:`~engine.games.queen.rules.QueenView` only: the unseen cards are the 108
shuffled ones minus the seat's own hand, the cards played this round (the discard and the trick
being played) and the cards other seats hold in the open (taken in a hunter trick). Every other
seat hides a known number of them (its public hand size minus its open cards); the rest are the
undealt stock. Passing is always allowed in a normal trick and playing is compulsory in a hunter
trick, so who passed on what rules out no hand: every split of the unseen cards into hands of those
sizes is consistent with the public record, and :meth:`Belief.sample` draws one uniformly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.games.base import Pos
from engine.games.queen.rollout import Rollout
from engine.games.queen.rules import COPIES, NUMBERS, QUEEN, QUEENS, QueenView, rank


@dataclass(frozen=True)
class Belief:
    """``seat``'s knowledge at ``view``: ``unseen`` (card values, 1–13 and 14 for a Queen, one
    entry per card not seen this round, in value order); ``hidden[s]``: how many of them seat
    ``s`` holds (0 for ``seat``); ``base``: the game as a :class:`Rollout` with every open card
    counted and the hidden ones left out of ``counts`` (``sizes`` count them)."""

    seat: int
    unseen: tuple[int, ...]
    hidden: tuple[int, ...]
    base: Rollout

    @classmethod
    def of(cls, view: QueenView) -> Belief:
        """The belief of ``view``'s seat. Raises ValueError for a spectator's view, a view out of
        play, or a view whose own hand is not fully opened to it."""
        state = view.state
        seat = view.seat
        if seat is None:
            raise ValueError("a spectator holds no hand to reason from")
        mine: dict[Pos, str] = {}
        for pos, ident in view.hand:
            if ident is None:
                raise ValueError("the seat's hand is not fully opened to it")
            mine[pos] = ident
        left = [0] + [COPIES] * len(NUMBERS) + [QUEENS]
        seen = list(mine.values())
        seen.extend(state.discard)
        if state.trick is not None:
            seen.extend(c for p in state.trick.plays for c in p.cards if not c.startswith("H"))
        hidden = [0] * state.seats
        for s, hand in enumerate(state.hands):
            if s == seat:
                continue
            for card in hand:
                if card.ident is None:
                    hidden[s] += 1
                else:
                    seen.append(card.ident)
        for ident in seen:
            left[rank(ident)] -= 1
        if min(left) < 0:
            raise ValueError("the public record shows a card more often than the deck holds it")
        unseen = tuple(v for v in range(1, QUEEN + 1) for _ in range(left[v]))
        base = Rollout.from_state(state, mine, partial=True)
        return cls(seat, unseen, tuple(hidden), base)

    def sample(self, rng: random.Random) -> Rollout:
        """A copy of the game with every hidden hand dealt from the unseen cards, uniformly at
        random among the deals consistent with the public record."""
        cards = list(self.unseen)
        rng.shuffle(cards)
        game = self.base.copy()
        at = 0
        for s, n in enumerate(self.hidden):
            if n:
                counts = game.counts[s]
                for v in cards[at : at + n]:
                    counts[v] += 1
                at += n
        return game
