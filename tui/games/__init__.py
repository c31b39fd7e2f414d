"""Each game's screens, by game name (placeholder until the game front ends land)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class _FrontEnd:
    name: str

    def why_no_seat(self) -> str | None:
        from engine.games import find_game

        if self.name == "queen":
            return None
        return f"The {find_game(self.name).title} table screen is not built yet: a person cannot take a seat."


def front_end_of(name: str) -> _FrontEnd:
    return _FrontEnd(name)
