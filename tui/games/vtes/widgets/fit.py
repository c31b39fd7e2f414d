"""A box's lines fitted to its rows: every line wraps whole, and one line, the box's least
needed (a referendum's terms, which the game log holds whole), gives up its last words for the
others, ending in ``…``. The boxes above the command line (action, combat, referendum) use it so
that nothing they must say (the tally, whose impulse, the keys) is ever cut by the box's height.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

ELLIPSIS = "…"


def rows(console: Console, text: Text, width: int) -> int:
    """The rows ``text`` takes wrapped at ``width`` cells (a line break starts a row)."""
    return len(text.wrap(console, max(width, 1)))


def fit_lines(console: Console, lines: Sequence[Text], width: int, height: int, cut: int | None = None) -> Text:
    """``lines`` joined, one a row or more, in ``width`` cells: when they take more than ``height``
    rows, the line at index ``cut`` (None: none) loses words from its end, then ``…`` ends it, until
    it takes the rows the others leave (one at least); the others are never shortened (a box whose
    lines still take more rows shows them all: its height grows)."""
    joined = Text("\n").join(lines)
    if cut is None or rows(console, joined, width) <= height:
        return joined
    others = sum(rows(console, line, width) for i, line in enumerate(lines) if i != cut)
    room = max(height - others, 1)
    line = lines[cut]
    words = line.plain.rstrip().split(" ")
    short = line
    for keep in range(len(words) - 1, 0, -1):
        end = len(" ".join(words[:keep]).rstrip(" ,;:·-"))
        short = line[:end] + Text(ELLIPSIS, style=line.style)
        if rows(console, short, width) <= room:
            break
    return Text("\n").join([*lines[:cut], short, *lines[cut + 1 :]])


def box_width(widget_width: int, screen_width: int, padding: int = 2) -> int:
    """The cells a full-width box's text has: its own width less its padding once laid out, else
    the screen's (a box drawn before its first layout)."""
    return (widget_width or screen_width) - padding


@dataclass(frozen=True)
class NameFirst:
    """One row (``text``, not wrapped) that, wider than the room it is given, cuts the characters
    ``name`` spans (start, end) first, ending them in ``…``, so that what follows a card's name
    (its blood, capacity, locked) stays whole; only a row too narrow even for a 1-character name
    is cut at its end. ``name`` None: the row is cut at its end."""

    text: Text
    name: tuple[int, int] | None = None

    def __str__(self) -> str:
        return self.text.plain

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, cell_len(self.text.plain))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.fitted(options.max_width)

    def fitted(self, width: int) -> Text:
        """The row in ``width`` cells."""
        text = self.text.copy()
        text.no_wrap, text.overflow = True, "ellipsis"
        excess = cell_len(text.plain) - width
        if excess <= 0 or self.name is None:
            return text
        start, end = self.name
        keep = end - start - excess - 1  # the name's characters kept, before its "…"
        if keep < 1:
            return text
        cut = text[: start + keep]
        cut.rstrip()
        cut.append(ELLIPSIS, style=text.style)
        return Text.assemble(cut, text[end:], style=text.style, no_wrap=True, overflow="ellipsis")


__all__ = ["NameFirst", "box_width", "fit_lines", "rows"]
