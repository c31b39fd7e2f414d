"""Vampire Queen engine and expert benchmarks (printed by ``scripts/bench`` under ``queen``).

- ``rollout``: complete 4-seat games per second, and moves per second, through the rollout engine
  (:mod:`engine.games.queen.rollout`) between uniformly random players;
- ``rules``: the same through the rules engine and the simulation table (:func:`engine.sim.play_game`
  with random bots), as ``queen_engine`` measures it, with ``before``: that figure measured on this
  machine before the rules engine was tuned (kept here, as the tuned code replaced it);
- ``expert``: one 4-seat game of the expert at its default budget against three heuristic bots:
  its decisions (moves with more than one choice), simulations per second and mean seconds per
  decision.
"""

from __future__ import annotations

import random
import time
from typing import Any

#: The rules figures before the tuning: 4-seat games between random bots through the rules engine,
#: measured on the 2-core development machine (100 and 200 games) at the commit before it. Wall
#: figures depend on what else the machine runs; CPU figures (this process's CPU seconds) less so.
RULES_BEFORE = {"games_per_s": 36.6, "moves_per_s": 12546, "games_per_cpu_s": 37.2, "moves_per_cpu_s": 12760}


def _rates(games: int, moves: int, wall: float, cpu: float) -> dict[str, Any]:
    return {
        "games": games,
        "games_per_s": round(games / wall, 1),
        "moves_per_s": round(moves / wall),
        "games_per_cpu_s": round(games / cpu, 1),
        "moves_per_cpu_s": round(moves / cpu),
    }


def bench_rollout(games: int) -> dict[str, Any]:
    """Whole 4-seat games with uniformly random moves through the rollout engine."""
    from engine.games.queen.rollout import Rollout

    moves = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for g in range(games):
        rng = random.Random(g)
        moves += Rollout.new_game(4, None, rng).play_out(rng)
    return _rates(games, moves, time.perf_counter() - wall, time.process_time() - cpu)


def bench_rules(games: int) -> dict[str, Any]:
    """Whole 4-seat games between random bots through the rules engine (as ``queen_engine``)."""
    from engine.bots import RandomBot
    from engine.games.queen import GAME
    from engine.sim import play_game

    moves = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for g in range(games):
        bots = [RandomBot(random.Random(g * 10 + s)) for s in range(4)]
        moves += play_game(GAME, bots, seed=g).moves
    return _rates(games, moves, time.perf_counter() - wall, time.process_time() - cpu)


def bench_expert(games: int) -> dict[str, Any]:
    """The expert (default budget) against three heuristic bots, its seat rotating."""
    from engine.games.queen import GAME
    from engine.games.queen.bots import QueenHeuristic
    from engine.games.queen.expert import DEFAULT_PLAYOUTS, QueenExpert
    from engine.sim import play_game

    decisions = playouts = 0
    seconds = slowest = 0.0
    cpu = time.process_time()
    for g in range(games):
        expert = QueenExpert(random.Random(g))
        bots: list[Any] = [QueenHeuristic(random.Random(s)) for s in range(4)]
        bots[g % 4] = expert
        choose = expert.choose

        def timed(view: Any, legal: list[Any], choose: Any = choose) -> Any:
            nonlocal slowest
            start = time.perf_counter()
            act = choose(view, legal)
            slowest = max(slowest, time.perf_counter() - start)
            return act

        expert.choose = timed  # type: ignore[method-assign]
        play_game(GAME, bots, seed=g)
        decisions += expert.thinking.decisions
        playouts += expert.thinking.playouts
        seconds += expert.thinking.seconds
    return {
        "games": games,
        "playouts_per_decision": DEFAULT_PLAYOUTS,
        "decisions": decisions,
        "cpu_s": round(time.process_time() - cpu, 2),
        "playouts_per_s": round(playouts / seconds),
        "mean_s_per_decision": round(seconds / decisions, 4),
        "slowest_decision_s": round(slowest, 3),
    }


def run(quick: bool = False) -> dict[str, Any]:
    """Every Vampire Queen figure above, with smaller samples when ``quick``."""
    return {
        "rollout": bench_rollout(100 if quick else 1000),
        "rules": {**bench_rules(20 if quick else 200), "before": RULES_BEFORE},
        "expert": bench_expert(1 if quick else 2),
    }
