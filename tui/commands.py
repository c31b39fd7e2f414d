"""Command palette entries (Ctrl+P): the home screen's choices and help, from anywhere."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider


class VampireCommands(Provider):
    """Go home, open the help, quit."""

    def _commands(self) -> list[tuple[str, str, Callable[[], Any]]]:
        app = self.app
        return [
            ("Home", "Leave the table and go back to the home screen", app.go_home),  # type: ignore[attr-defined]
            ("Help: keys and rules", "The keys of every screen and each game in short", app.action_help),  # type: ignore[attr-defined]
        ]

    async def discover(self) -> Hits:
        for name, help_text, callback in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), partial(callback), help=help_text)
