"""A Vampire Queen bot that plays to win, from its seat's view only.

Strategy: shed low sets early while it has the lead; keep Queens for the tricks it needs;
lead hunters to get rid of their points; feed its lowest card into a hunter trick it does not want
to win.
"""

from __future__ import annotations

import random

from engine.games.base import Act
from engine.games.queen import QUEEN, Do, QueenView, is_queen, rank


def _cards(view: QueenView, act: Act) -> list[str]:
    """The identities an offered ``play`` act plays (every card of a legal act is known)."""
    idents = dict(view.hand)
    cards = []
    for event, index in act.get("cards", []):
        ident = idents[(event, index)]
        assert ident is not None, "a legal act plays only cards opened to the seat"
        cards.append(ident)
    return cards


class QueenHeuristic:
    """The heuristic Vampire Queen bot; ``rng`` is kept for the bot interface (it chooses
    deterministically)."""

    level = "heuristic"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: QueenView, legal: list[Act]) -> Act | None:
        """One of ``legal`` (None when it is empty)."""
        if not legal:
            return None
        state = view.state
        trick = state.trick
        hunters = [a for a in legal if a["do"] == Do.HUNTER]
        plays = [a for a in legal if a["do"] == Do.PLAY]
        if trick is None:
            if hunters:
                # Hunter 20 first: it is the heavier one to be caught holding.
                return max(hunters, key=lambda a: a["hunter"])
            return min(plays, key=lambda a: self._lead_cost(view, a))
        if trick.hunter:
            # The lowest card: winning a hunter trick means taking the hunter's points. A Queen
            # counts as the table rule says (14, or 1 in the predecessor's reading).
            queen = state.queen_in_hunter_trick

            def trick_value(act: Act) -> tuple[int, bool]:
                card = _cards(view, act)[0]
                return (queen if is_queen(card) else rank(card), is_queen(card))

            return min(plays, key=trick_value)
        return self._follow(view, plays) or {"do": Do.PASS}

    def _lead_cost(self, view: QueenView, act: Act) -> tuple[int, int, int, int]:
        cards = _cards(view, act)
        queens = sum(is_queen(c) for c in cards)
        numbers = [c for c in cards if not is_queen(c)]
        value = rank(numbers[0]) if numbers else QUEEN
        held = sum(1 for _, c in view.hand if c and not is_queen(c) and rank(c) == value)
        # Lead the lowest number, the whole group of it, without spending Queens.
        return (queens, value, -len(cards) if len(cards) == held else 0, -len(cards))

    def _follow(self, view: QueenView, plays: list[Act]) -> Act | None:
        if not plays:
            return None
        hand_left = len(view.hand)
        best: tuple[tuple[int, bool, int], Act, int, int, int] | None = None
        for act in plays:
            cards = _cards(view, act)
            queens = sum(is_queen(c) for c in cards)
            numbers = [c for c in cards if not is_queen(c)]
            value = rank(numbers[0]) if numbers else QUEEN
            held = sum(1 for _, c in view.hand if c and not is_queen(c) and rank(c) == value)
            breaks = held > len(numbers)
            key = (queens, breaks, value)
            if best is None or key < best[0]:
                best = (key, act, queens, value, len(cards))
        assert best is not None
        _, act, queens, value, size = best
        # Queens are kept for the tricks that matter: when few cards remain, or a big set.
        if queens and hand_left > 5 and size < 3:
            return None
        # Beating with a high card early wastes it, unless it gains the lead to shed more.
        if value >= 12 and not queens and hand_left > 8 and size == 1:
            return None
        return act
