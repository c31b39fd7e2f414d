"""The expert Vampire Queen bot: it thinks ahead by simulation, from its seat's view only.

Each decision (shared/rules/vampire-queen.md) is a determinized Monte Carlo search: the bot reads
what its seat may know (:class:`~engine.games.queen.belief.Belief`: its hand and everything
public), and for every simulation deals the hidden cards anew, consistently with the public record,
tries one of its legal moves chosen by UCB1 (the bandit rule that balances trying each move and
favouring the good ones), and plays the round out with a fast greedy policy for every seat on the
:class:`~engine.games.queen.rollout.Rollout` engine. A simulation scores the round as the seat
would: its points in hand against the other seats' mean, plus the win itself when the round ends
the game. The move simulated most often is played.

The thinking budget is counted, not timed, so a seeded bot decides the same every time: a number
of simulations (``playouts``) and of simulated moves (``max_moves``, which bounds a decision's time
early in a round, when simulations are long). ``max_seconds`` optionally caps a decision's time
too, for a caller that prefers a bound in seconds to replayable decisions.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.games.base import Act
from engine.games.queen.belief import Belief
from engine.games.queen.bots import QueenHeuristic
from engine.games.queen.rollout import PASS, Rollout, act_move
from engine.games.queen.rules import QueenView

DEFAULT_PLAYOUTS = 800
"""Simulations per decision: about a tenth of a second on a 2-core machine (5,000–8,000 a
second), so three experts at a table keep a person waiting well under a second."""
DEFAULT_MAX_MOVES = 60_000
"""Simulated moves per decision at most (checked between simulations): about 0.2 s of simulation
on a 2-core machine, whatever ``playouts`` asks."""
EXPLORATION = 0.6
"""UCB1's exploration constant, for rewards of a few tenths per simulation."""
POLICY_NOISE = 0.1
"""How often the simulated players make a uniformly random legal move instead of the greedy one,
so that simulations cover plays the greedy policy would never make."""
POINTS_SCALE = 40.0
"""Round points worth one unit of reward (a round's margins are a few tens of points)."""


def greedy_move(game: Rollout, rng: random.Random, noise: float = POLICY_NOISE) -> int:
    """A fast, sensible move for the seat to move in ``game``: lead a hunter when one may be led,
    else the whole lowest group; follow with the lowest higher group of the right size without
    Queens, else pass; feed the lowest card into a hunter trick (a Queen first where it counts 1).
    With probability ``noise``, a uniformly random legal move instead."""
    if rng.random() < noise:
        moves = game.legal()
        return moves[rng.randrange(len(moves))]
    if not game.in_trick:
        seat = game.leader
        counts = game.counts[seat]
        h15, h20 = game.hunters
        if h20 == seat and game.banned != 20:
            return -20
        if h15 == seat and game.banned != 15:
            return -15
        for r in range(1, 14):
            if counts[r]:
                return r | counts[r] << 7
        if counts[14]:
            return 14 | counts[14] << 4
        return game.legal()[0]
    counts = game.counts[game.order[game.turn_index]]
    if game.hunter:
        if game.queen_value == 1 and counts[14]:
            return 14 | 16
        for r in range(1, 14):
            if counts[r]:
                return r | 128
        return 14 | 16
    size = game.size
    for r in range(game.best + 1, 14):
        if counts[r] >= size:
            return r | size << 7
    return PASS


@dataclass
class Thinking:
    """What the bot did in its decisions so far: ``decisions``, ``playouts`` simulated and
    ``seconds`` spent (for benchmarks and for a player who asks how hard it thinks)."""

    decisions: int = 0
    playouts: int = 0
    seconds: float = 0.0


class QueenExpert:
    """The expert bot (see the module). ``rng``: its only source of randomness (deals sampled,
    moves explored); ``playouts``: simulations per decision; ``max_moves``: simulated moves per
    decision at most; ``max_seconds``: a cap on one decision's time (None: none, and decisions
    replay from the seed), read on ``clock`` (seconds; ``time.perf_counter`` unless a test
    injects one). Raises ValueError for a budget below one simulation."""

    level = "expert"

    def __init__(
        self,
        rng: random.Random,
        playouts: int = DEFAULT_PLAYOUTS,
        max_seconds: float | None = None,
        max_moves: int = DEFAULT_MAX_MOVES,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if playouts < 1:
            raise ValueError("the expert needs at least one simulation per decision")
        self.rng = rng
        self.playouts = playouts
        self.max_seconds = max_seconds
        self.max_moves = max_moves
        self.clock = clock
        self.thinking = Thinking()

    def choose(self, view: QueenView, legal: list[Act]) -> Act | None:
        """One of ``legal`` (None when it is empty), from ``view`` alone."""
        if not legal:
            return None
        if len(legal) == 1:
            return legal[0]
        start = self.clock()
        try:
            belief = Belief.of(view)
        except ValueError:
            # A hand not fully opened to its seat (a table still opening it): no deal can be
            # simulated, so the rules of thumb decide.
            return QueenHeuristic(self.rng).choose(view, legal)
        moves = [act_move(view, act) for act in legal]
        visits, totals = self._search(belief, moves, start)
        self.thinking.decisions += 1
        self.thinking.playouts += sum(visits)
        self.thinking.seconds += self.clock() - start
        best = max(range(len(moves)), key=lambda i: (visits[i], totals[i]))
        return legal[best]

    def _search(self, belief: Belief, moves: list[int], start: float) -> tuple[list[int], list[float]]:
        """UCB1 over the root moves, one fresh deal per simulation: (visits, summed rewards)."""
        rng = self.rng
        count = len(moves)
        visits = [0] * count
        totals = [0.0] * count
        deadline = None if self.max_seconds is None else start + self.max_seconds
        simulated = 0
        for done in range(self.playouts):
            if done < count:
                i = done
            else:
                log_n = math.log(done)
                i = max(
                    range(count),
                    key=lambda k: totals[k] / visits[k] + EXPLORATION * math.sqrt(log_n / visits[k]),
                )
            reward, length = self._playout(belief.sample(rng), moves[i], belief.seat, rng)
            visits[i] += 1
            totals[i] += reward
            simulated += length
            if simulated >= self.max_moves and done >= count:
                break
            if deadline is not None and done % 8 == 7 and self.clock() > deadline:
                break
        return visits, totals

    @staticmethod
    def _playout(game: Rollout, move: int, seat: int, rng: random.Random) -> tuple[float, int]:
        """Play ``move``, then the round out greedily: the reward of its end for ``seat``, and
        the moves simulated."""
        rounds = len(game.round_scores)
        game.auto_deal = False
        game.apply(move)
        length = 1
        while len(game.round_scores) == rounds:
            game.apply(greedy_move(game, rng))
            length += 1
        points = game.round_scores[-1]
        others = (sum(points) - points[seat]) / (len(points) - 1)
        reward = (others - points[seat]) / POINTS_SCALE
        if game.over:
            winners = game.winners()
            if seat in winners:
                reward += 1.0 / len(winners)
        return reward, length
