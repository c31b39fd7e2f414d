"""The Methuselahs panel: one line per Methuselah in seating order from this seat (pool, VP,
prey, torpor, ready minions; :func:`tui.games.vtes.present.methuselah_lines`), as wide as the
screen, redrawn when the screen's width changes (each one's predator shows from :data:`WIDE`
columns on).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from engine.games.vtes.view import VtesView
from tui.games.vtes.present import methuselah_lines
from tui.games.vtes.widgets.redraw import show

WIDE = 110
"""Columns from which the Methuselahs panel shows each one's predator too."""


class MethuselahsPanel(Static):
    """Every Methuselah at a glance; :meth:`show` draws a view (or says the table has not
    started), and the panel draws it again at its new width when the terminal is resized."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple[VtesView, list[str]] | None = None

    def show(self, view: VtesView | None, names: Sequence[str]) -> None:
        """Draw ``view``'s Methuselahs, ``names`` in seat order; None: the table has not started."""
        if view is None:
            show(self, Text("Waiting for the table to start.", style="dim"))
            return
        self._shown = (view, list(names))
        self._draw()

    def _draw(self) -> None:
        if self._shown is None:
            return
        view, names = self._shown
        # As wide as the screen (the ready minions' names fit its width), less the panel's padding.
        screen_width = self.screen.size.width
        width = max(screen_width - 2, 40)
        show(self, methuselah_lines(view, names, wide=screen_width >= WIDE, width=width))

    def on_resize(self) -> None:
        # Not at the next act: the predators appear or go as the terminal crosses WIDE columns.
        self._draw()


__all__ = ["WIDE", "MethuselahsPanel"]
