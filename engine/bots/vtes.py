"""A structural VTES bot: it plays the table's structure without reading card texts
(shared/rules/vtes.md, "Turn sequence"; DESIGN.md: bots choose moves from a seat's view).

Each turn it takes the Edge's pool, bleeds its prey for 1 with every ready unlocked vampire,
transfers pool to the uncontrolled vampire closest to its capacity (or brings out a new crypt card),
influences out vampires at capacity, discards one card and draws, and ends the turn. It never plays
card texts, so its games end by bleeds: whole games finish in a few thousand acts.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from engine.games.base import Act, OptionError

if TYPE_CHECKING:  # the game package imports this module for its simulations
    from engine.games.vtes.view import VtesView


class VtesBot:
    """A bot for one seat: ``choose(view, legal)`` returns one of ``legal`` (or the seat's
    ``deck`` act in the joining step), or None when it is not this seat's turn.

    ``deck``: the :class:`engine.games.vtes.decks.Deck` it brings (its sizes are declared; None
    declares the shape ``legal`` offers). ``seed``: an int or a ``random.Random`` for its own
    random choices (which card to discard, ties). ``reserve``: pool it keeps out of transfers.
    ``max_vampires``: vampires it aims to control. ``randomness``: chance (0–1) of a random legal act instead of the structural one
    (0 for the heuristic level; the random level keeps a small value so games still end).
    """

    def __init__(
        self,
        deck: Any = None,
        seed: int | random.Random = 0,
        reserve: int = 5,
        max_vampires: int = 4,
        randomness: float = 0.0,
    ) -> None:
        self.deck = deck
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.reserve = reserve
        self.max_vampires = max_vampires
        self.randomness = randomness

    def choose(self, view: VtesView, legal: list[Act]) -> Act | None:
        """The act this bot makes now, or None to let another seat act."""
        if not legal or view.seat is None:
            return None
        if view.step == "joining":
            return self.deck.deck_act() if self.deck is not None else legal[0]
        if view.acting != view.seat:
            return None
        if self.randomness and self.rng.random() < self.randomness:
            safe = [a for a in legal if a["do"] not in ("end_turn", "time", "play")]
            if safe:
                return self.rng.choice(safe)
        by_do: dict[str, list[Act]] = {}
        for act in legal:
            by_do.setdefault(act["do"], []).append(act)
        phase = view.phase
        if view.time_called and phase == "minion" and "action_end" in by_do:
            return by_do["action_end"][0]
        if phase == "unlock":
            for do in ("edge", "withdraw"):
                if do in by_do:
                    return by_do[do][0]
        elif phase == "minion":
            if "bleed" in by_do:
                return self.rng.choice(by_do["bleed"])
        elif phase == "influence":
            act = self._influence(view, by_do)
            if act is not None:
                return act
        elif phase == "discard":
            if view.discard_actions == 0 and "discard" in by_do:
                return self.rng.choice(by_do["discard"])
        return by_do["phase"][0]

    def _influence(self, view: VtesView, by_do: dict[str, list[Act]]) -> Act | None:
        if "influence" in by_do:
            return by_do["influence"][0]
        me = view.players[view.seat]
        if me.pool <= self.reserve:
            return None
        controlled = [c for c in view.controlled(view.seat) if c.crypt]
        waiting = [c for c in view.uncontrolled(view.seat) if c.capacity]
        if len(controlled) >= self.max_vampires:
            return None
        pool_moves = {tuple(a["card"]): a for a in by_do.get("transfer", []) if a["kind"] == "pool"}
        candidates = [c for c in waiting if tuple(c.as_list()) in pool_moves]
        if candidates:
            # the vampire closest to capacity, if it can be reached with the pool above the reserve
            best = min(candidates, key=lambda c: (c.capacity - c.counters, c.pos))
            if best.capacity - best.counters <= me.pool - self.reserve:
                return pool_moves[tuple(best.as_list())]
            affordable = [c for c in candidates if c.capacity - c.counters <= me.pool - self.reserve]
            if affordable:
                return pool_moves[tuple(min(affordable, key=lambda c: c.pos).as_list())]
            return None
        crypt = [a for a in by_do.get("transfer", []) if a["kind"] == "crypt"]
        if crypt and not waiting:
            return crypt[0]
        return None


def make_bot(level: str = "heuristic", deck: Any = None, seed: int | random.Random = 0) -> VtesBot:
    """A VTES bot of ``level`` ("heuristic" or "random") bringing ``deck``. Both levels are
    structural bots (a uniformly random VTES player would never finish a game); "random" makes a
    random legal act one time in five. Raises OptionError for another level."""
    if level in ("heuristic", "structural"):
        return VtesBot(deck, seed)
    if level == "random":
        return VtesBot(deck, seed, randomness=0.2)
    raise OptionError(f"there is no VTES bot level {level!r} (the levels are heuristic and random)")


def make_vtes_bot(rng: random.Random, deck: Any = None, level: str = "heuristic") -> VtesBot:
    """:func:`make_bot` with the argument order of :func:`engine.bots.make_bot` (``rng`` first)."""
    return make_bot(level, deck, rng)


LEVELS = ("heuristic", "random")
"""The VTES bot levels :func:`make_bot` knows."""
