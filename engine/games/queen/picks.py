"""Which act a set of picked cards makes (shared/rules/vampire-queen.md, "Playing a trick",
"Hunters"): the rule a screen or a bot applies before it asks the rules whether the act is legal.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.games.base import Act, IllegalMove, Pos


def pick_to_act(cards: Sequence[Pos], hunters: Sequence[int] = ()) -> Act:
    """The act that plays the picked ``cards`` (hand positions ``(event, index)``) and ``hunters``
    (15 or 20): a hunter alone is a hunter lead (``{"do": "hunter", "hunter": 20}``), cards alone
    a play (``{"do": "play", "cards": [[event, index], ...]}``, positions sorted).

    Raises :class:`IllegalMove` when a hunter is picked with other cards (a hunter is led alone),
    or when nothing is picked. Whether the act is legal now is the rules' question
    (``GAME.check``)."""
    if hunters:
        if len(hunters) > 1 or cards:
            raise IllegalMove("a hunter is led alone, never with other cards")
        return {"do": "hunter", "hunter": hunters[0]}
    if not cards:
        raise IllegalMove("pick the cards to play first")
    return {"do": "play", "cards": [list(pos) for pos in sorted(cards)]}
