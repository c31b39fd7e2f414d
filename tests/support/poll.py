"""Waiting on a condition up to a deadline, never for a fixed time: the one polling helper of the
tests, for the network tests (plain asyncio) and the TUI tests (a Textual pilot) alike."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.pilot import Pilot


async def eventually(
    condition: Callable[[], Any], timeout: float = 30.0, what: str = "the condition", *, pilot: Pilot[Any] | None = None
) -> Any:
    """Poll ``condition()`` until it is truthy and return its value. Raises AssertionError naming
    ``what`` (the test fails) after ``timeout`` seconds.

    Between two checks the event loop runs for 10 ms; with a ``pilot``, the app runs for 20 ms
    (``pilot.pause``: it handles its messages and refreshes the screen the condition reads), and
    the value is returned only once the app's current screen is mounted: a screen is on top from
    the moment it is pushed or switched to, its widgets a moment later. A pause whose messages
    take Textual's own 30 s to handle (a machine loaded by other suites) is one more check, not a
    failure: only ``timeout`` is.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value and (pilot is None or _screen_mounted(pilot)):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        if pilot is not None:
            from textual.pilot import WaitForScreenTimeout

            try:
                await pilot.pause(0.02)
            except WaitForScreenTimeout:
                pass
        else:
            await asyncio.sleep(0.01)


def _screen_mounted(pilot: Pilot[Any]) -> bool:
    """The app's current screen is mounted (its widgets are there), or the app has no screen left
    (it exited): nothing more to wait for."""
    try:
        return pilot.app.screen.is_mounted
    except Exception:  # textual's ScreenStackError: the app has exited
        return True
