"""A Vampire Queen bot that plays to win, from its seat's view only.

Strategy (issue 2): shed low sets early while it has the lead; keep Queens for the tricks it needs;
lead hunters to get rid of their points; feed its lowest card into a hunter trick it does not want
to win.
"""

from __future__ import annotations

import random

from engine.games.queen import QUEEN, QueenView, is_queen, rank


def _cards(view: QueenView, act: dict) -> list[str]:
    idents = dict(view.hand)
    return [idents[tuple(p)] for p in act.get("cards", [])]


class QueenHeuristic:
    level = "heuristic"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: QueenView, legal: list[dict]) -> dict | None:
        if not legal:
            return None
        state = view.state
        trick = state.trick
        hunters = [a for a in legal if a["do"] == "hunter"]
        plays = [a for a in legal if a["do"] == "play"]
        if trick is None:
            if hunters:
                # Hunter 20 first: it is the heavier one to be caught holding.
                return max(hunters, key=lambda a: a["hunter"])
            return min(plays, key=lambda a: self._lead_cost(view, a))
        if trick.hunter:
            # The lowest card: winning a hunter trick means taking the hunter's points. A Queen
            # counts as the table rule says (14, or 1 in the predecessor's reading).
            queen = state.option("queen_in_hunter_trick")

            def trick_value(act: dict) -> tuple:
                card = _cards(view, act)[0]
                return (queen if is_queen(card) else rank(card), is_queen(card))

            return min(plays, key=trick_value)
        return self._follow(view, plays) or {"do": "pass"}

    def _lead_cost(self, view: QueenView, act: dict) -> tuple:
        cards = _cards(view, act)
        queens = sum(is_queen(c) for c in cards)
        numbers = [c for c in cards if not is_queen(c)]
        value = rank(numbers[0]) if numbers else QUEEN
        held = sum(1 for _, c in view.hand if c and not is_queen(c) and rank(c) == value)
        # Lead the lowest number, the whole group of it, without spending Queens.
        return (queens, value, -len(cards) if len(cards) == held else 0, -len(cards))

    def _follow(self, view: QueenView, plays: list[dict]) -> dict | None:
        if not plays:
            return None
        hand_left = len(view.hand)
        best = None
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
        _, act, queens, value, size = best
        # Queens are kept for the tricks that matter: when few cards remain, or a big set.
        if queens and hand_left > 5 and size < 3:
            return None
        # Beating with a high card early wastes it, unless it gains the lead to shed more.
        if value >= 12 and not queens and hand_left > 8 and size == 1:
            return None
        return act
