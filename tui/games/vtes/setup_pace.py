"""The pace of the VTES table screen's redraws during the set-up (decks declared, the seating
drawn, every crypt and library shuffled and dealt): about a hundred entries come in a few
seconds, and each redraw lays the screen out again, so the screen redraws at most once each
:data:`SETUP_REDRAW_S` seconds then; a redraw asked sooner is held and made once that time has
passed (one for a whole burst), so that the progress still moves on screen. Outside the set-up
(the first turn included) every redraw is made at once.

No drawing here: the screen (:mod:`tui.games.vtes.table`) asks :meth:`SetUpPace.now_or_later`
before it redraws, and gives the pace its timer and its redraw.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.timer import Timer

from engine.games.vtes.vocab import Step

SETUP_STEPS = frozenset({Step.JOINING, Step.SEATING, Step.DEALING})
"""The steps of the set-up, whose redraws are paced."""

SETUP_REDRAW_S = 0.25
"""Seconds between two redraws of the screen during the set-up (:data:`SETUP_STEPS`); the one
after the last entry of a burst comes at most that late, and the first turn is drawn at once."""


class SetUpPace:
    """When the screen redraws: ``set_timer(seconds, callback)`` holds a redraw (the screen's
    Textual timer), ``redraw()`` makes the one held once its time has come."""

    def __init__(self, set_timer: Callable[[float, Callable[[], None]], Timer], redraw: Callable[[], None]) -> None:
        self._set_timer = set_timer
        self._redraw = redraw
        #: The clock of the pace (seconds, monotonic; a test sets its own).
        self.clock: Callable[[], float] = time.monotonic
        #: Redraws made (counted for the tests of the pace).
        self.redraws = 0
        self._drawn_at: float | None = None  # when the screen last redrew (clock())
        self._held: Timer | None = None  # the redraw held back, due later

    @property
    def holding(self) -> bool:
        """A redraw is held back, due later."""
        return self._held is not None

    def now_or_later(self, step: object) -> bool:
        """Whether the screen redraws now, in the step ``step`` of the game (its state's
        ``step``, None before it has one); False: held, and made by itself once the pace has
        passed. A clock set back redraws at once."""
        now = self.clock()
        if step in SETUP_STEPS and self._drawn_at is not None:
            wait = self._drawn_at + SETUP_REDRAW_S - now
            if 0 < wait <= SETUP_REDRAW_S:
                if self._held is None:
                    self._held = self._set_timer(wait, self._held_due)
                return False
        if self._held is not None:
            self._held.stop()
            self._held = None
        self._drawn_at = now
        self.redraws += 1
        return True

    def _held_due(self) -> None:
        self._held = None
        self._redraw()


__all__ = ["SETUP_REDRAW_S", "SETUP_STEPS", "SetUpPace"]
