"""High Card's bot: wins a trick as cheaply as it can, else throws its lowest card."""

from __future__ import annotations

from engine.games.base import Act
from tests.seamgame.rules import VALUE, HighCardView


class CheapWinner:
    """Plays the lowest card that beats the trick so far (any card when leading: the lowest),
    else the lowest card. Sees only its own view; ``None`` when it has no legal act."""

    level = "greedy"

    def choose(self, view: HighCardView, legal: list[Act]) -> Act | None:
        if not legal:
            return None
        card_at = {tuple(pos): card for pos, card in view.hand if card is not None}
        # legal_acts lists the hand lowest first.
        best = view.best
        if best is None:
            return legal[0]
        for act in legal:
            if VALUE[card_at[tuple(act["card"])]] > VALUE[best]:
                return act
        return legal[0]
