"""The random bot: any legal act, uniformly (every game)."""

from __future__ import annotations

import random
from typing import Any

from engine.games.base import Act


class RandomBot:
    """Any legal act, uniformly; ``None`` when there is none."""

    level = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: Any, legal: list[Act]) -> Act | None:
        return self.rng.choice(legal) if legal else None
