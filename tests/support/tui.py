"""Helpers for the TUI tests: read what a widget shows, and turn a legal act into the keys a person
would press (waiting on a condition with a pilot: :mod:`tests.support.poll`)."""

from __future__ import annotations

from typing import Any


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


def burst(app: Any, keys: str) -> None:
    """Send ``keys`` (characters; ``\r`` is Enter) as a terminal delivers a fast burst: every key
    event is queued through the app's driver at once, none waiting for the one before it to be
    handled (Pilot's ``press`` waits after each key, which hides the keys a burst loses)."""
    from textual import events
    from textual.keys import _character_to_key

    for c in keys:
        key = "enter" if c == "\r" else (c if c.isalnum() else _character_to_key(c))
        event = events.Key(key, None if c == "\r" else c)
        event.set_sender(app)
        app._driver.send_message(event)


async def screen_words(app: Any, pilot: Any, marker: str, timeout: float = 10) -> str:
    """Every Static's text on ``app``'s screen, once ``marker`` is among them: a screen is pushed
    before its texts are filled in, so this waits for them instead of pausing."""
    from tests.support.poll import eventually

    def words() -> str:
        return " ".join(shown(w) for w in app.screen.query("Static"))

    await eventually(lambda: marker in words(), timeout, f"{marker!r} on the screen", pilot=pilot)
    return words()


async def settled(app: Any, pilot: Any, timeout: float = 10) -> None:
    """Wait until ``app``'s screen stops changing: two screenshots 50 ms apart are the same (a
    panel whose height follows its content is laid out on a later refresh than the content).
    Raises AssertionError after ``timeout`` seconds."""
    last = app.export_screenshot()
    for _ in range(max(1, int(timeout / 0.05))):
        await pilot.pause(0.05)
        now = app.export_screenshot()
        if now == last:
            return
        last = now
    raise AssertionError(f"the screen still changed after {timeout:g} s")
