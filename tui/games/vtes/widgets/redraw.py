"""Redraw a text widget only when what it shows changes.

Textual's ``Static.update`` lays the whole screen out again, whatever it is given: the VTES screen
redraws every area after every entry of the log, and during the set-up (keys, shuffles, shares:
about a hundred entries) nearly every area shows the same text as before. :func:`show` keeps the
widget as it is when the new content equals the one shown.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.visual import VisualType
from textual.widgets import Static


def _same_key(content: Any) -> tuple[Any, ...] | None:
    """What decides how ``content`` looks, comparable with ``==``: a string's text, a Rich Text's
    text, spans and settings; None for any other content (never taken as unchanged)."""
    if isinstance(content, str):
        return ("str", content)
    if isinstance(content, Text):
        spans = tuple((s.start, s.end, str(s.style)) for s in content.spans)
        return (
            "text",
            content.plain,
            spans,
            str(content.style),
            content.justify,
            content.overflow,
            content.no_wrap,
            content.end,
            content.tab_size,
        )
    return None


def same(shown: Any, content: Any) -> bool:
    """True when ``content`` looks exactly as ``shown`` does (both strings or Rich Texts, equal in
    text, styles and settings); False for anything else."""
    key = _same_key(content)
    return key is not None and key == _same_key(shown)


def show(widget: Static, content: VisualType) -> bool:
    """``widget.update(content)`` unless the widget shows the same already (:func:`same`).
    Returns True when it redrew."""
    if same(widget.content, content):
        return False
    widget.update(content)
    return True


__all__ = ["same", "show"]
