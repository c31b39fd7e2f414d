"""Drawing for terminals whose font lacks most of Unicode: the Linux console (``TERM=linux``),
or any terminal with ``--ascii``.

The console's fonts hold the 256 glyphs of code page 437 (ASCII, accented letters, the single and
double box lines, ``█ ▀ ▄ ▌ ▐ ░ ▒ ▓``, ``► ◄ ▲ ▼ ↑ ↓ → ← √ · ♦``), and none of Textual's rounded
corners, eighth blocks (scrollbars, input borders) or symbols such as ``★ ✓ ⏎ ◌``. In console mode a
line filter swaps each such character, as the screen is drawn, for one of the same width the font
has; :data:`CONSOLE_CHARS` is that font's character set. Scrollbars are drawn in whole cells of
colour (:class:`ConsoleScrollBarRender`), never with the partial blocks Textual draws at a thumb's
ends, which the console could only show as misplaced half blocks.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import ClassVar

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter
from textual.scrollbar import ScrollBar, ScrollBarRender

ASCII_ENV = "VAMPIRE_ASCII"
"""Set (to anything but "" or "0") by ``--ascii``: draw in console mode whatever the terminal."""

#: Code page 437 as the Linux console's fonts draw it: its 256 glyphs, the low 32 as pictures.
CONSOLE_CHARS: frozenset[str] = frozenset(
    "\u263a\u263b\u2665\u2666\u2663\u2660\u2022\u25d8\u25cb\u25d9\u2642\u2640\u266a\u266b\u263c"
    "\u25ba\u25c4\u2195\u203c\u00b6\u00a7\u25ac\u21a8\u2191\u2193\u2192\u2190\u221f\u2194\u25b2\u25bc"
    "\u2302" + "".join(chr(c) for c in range(0x20, 0x7F)) + bytes(range(0x80, 0x100)).decode("cp437")
)

#: Each character Textual or these screens draw that the console lacks, and its stand-in (one
#: cell wide, as the original).
# fmt: off
CONSOLE_SWAPS: Mapping[str, str] = {
    # Rounded and heavy box lines: the console's single and double lines.
    "╭": "┌", "╮": "┐", "╰": "└", "╯": "┘",
    "━": "═", "┃": "║", "┏": "╔", "┓": "╗", "┗": "╚", "┛": "╝", "┣": "╠", "┫": "╣", "┳": "╦", "┻": "╩",
    "╍": "─", "╏": "│", "┄": "─", "┆": "│",
    # Eighth blocks (scrollbars, the tall borders of inputs): the console's half blocks, or blank.
    "▁": "▄", "▂": "▄", "▃": "▄", "▅": "▄", "▆": "▄", "▇": "█",
    "▉": "█", "▊": "▌", "▋": "▌", "▍": "▌", "▎": "▐", "▏": "│", "▔": "▀", "▕": "│",
    "▖": "▄", "▗": "▄", "▘": "▀", "▝": "▀", "▚": "▓", "▞": "▓",
    # Marks and symbols.
    "★": "*", "☆": "*", "✓": "√", "✔": "√", "✗": "x", "✘": "x", "⏎": "◄", "▶": "►", "◀": "◄",
    "▸": "►", "◂": "◄", "◆": "♦", "●": "•", "…": "~", "—": "-", "–": "-", "‘": "'", "’": "'",
    "“": '"', "”": '"', "×": "x", "⚠": "!", "↵": "┘", "⌫": "<", "⇥": ">", "⇤": "<",
    "◌": "o", "↳": "└", "⋯": "~",
}
# fmt: on


def console_mode(environ: Mapping[str, str] | None = None) -> bool:
    """Draw with the console's characters: under ``TERM=linux`` (the Linux console), or when
    ``--ascii`` set :data:`ASCII_ENV`."""
    env = os.environ if environ is None else environ
    return env.get("TERM", "") == "linux" or env.get(ASCII_ENV, "") not in ("", "0")


_TABLE = str.maketrans(dict(CONSOLE_SWAPS))


def console_text(text: str) -> str:
    """``text`` with every character the console lacks (among :data:`CONSOLE_SWAPS`) swapped."""
    return text.translate(_TABLE)


class ConsoleGlyphs(LineFilter):
    """A line filter (Textual draws every line through it) that swaps the characters the console
    lacks for its own, keeping every cell where it was."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            Segment(console_text(text), style, control) if not control else Segment(text, style, control)
            for text, style, control in segments
        ]


class ConsoleScrollBarRender(ScrollBarRender):
    """Textual's scrollbar with its thumb in whole cells (blank cells of the thumb's colour): no
    eighth block at either end, so nothing the console's font lacks or draws half-way."""

    VERTICAL_BARS: ClassVar[list[str]] = [" "] * 8
    HORIZONTAL_BARS: ClassVar[list[str]] = [" "] * 8


def use_console_scrollbars(on: bool) -> None:
    """Draw every scrollbar of this process in whole cells (``on``), or as Textual does. Textual
    picks the scrollbar's renderer per class (``ScrollBar.renderer``), and a process runs one app."""
    ScrollBar.renderer = ConsoleScrollBarRender if on else ScrollBarRender
