"""How long a key waited between reaching the program and being handled.

A terminal's keys are stamped as they arrive (``events.Key.time``, on Textual's clock: the
performance counter on Windows, the monotonic clock elsewhere). While the program is busy (a play
signed, written and drawn on a loaded computer), the keys typed meanwhile wait in the queue; a
screen that times keys (a table's key guard) asks how long each waited, so that it judges a
key by when it was typed, not by when its turn came.
"""

from __future__ import annotations

import sys
import time

from textual import events

#: The clock Textual stamps its events with (``Message.time``).
EVENT_CLOCK = time.perf_counter if sys.platform == "win32" else time.monotonic


def key_waited(key: events.Key) -> float:
    """Seconds (0 or more) since ``key`` reached the program."""
    return max(0.0, EVENT_CLOCK() - key.time)


__all__ = ["EVENT_CLOCK", "key_waited"]
