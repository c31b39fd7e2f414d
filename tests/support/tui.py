"""Helpers for the TUI tests: wait on a condition (never a fixed sleep), read what a widget shows,
and turn a legal act into the keys a person would press."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot


async def wait_for(
    pilot: Pilot, condition: Callable[[], Any], timeout: float = 30.0, what: str = "the condition"
) -> Any:
    """Let the app run until ``condition()`` is truthy; return its value. Fails the test after
    ``timeout`` seconds, naming ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        await pilot.pause(0.02)


def shown(widget: Any) -> str:
    """The plain text a Static (or Label) shows now."""
    content = widget.content
    return content.plain if hasattr(content, "plain") else str(content)


def keys_for_act(hand_cards: list[Any], act: dict) -> list[str]:
    """The keys that pick ``act``'s cards in the hand widget (cursor to the first card with
    Home, then Right and Space per card) and play them with Enter; ``p`` for a pass."""
    if act["do"] == "pass":
        return ["p"]
    if act["do"] == "hunter":
        wanted = [("H", act["hunter"])]
    else:
        wanted = [tuple(p) for p in act["cards"]]
    index = {card.key: i for i, card in enumerate(hand_cards)}
    keys = ["escape", "home"]
    at = 0
    for i in sorted(index[w] for w in wanted):
        keys += ["right"] * (i - at) + ["space"]
        at = i
    return keys + ["enter"]
