"""The keys and each game's rules in short, in one place (F1 or the command palette); at a table,
that table's own rules (its options and their values) in words."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.games import UnknownGame, find_game, game_names
from engine.games.base import TABLE_OPTIONS
from tui.files import vampire_command
from tui.games import find_front_end, help_text
from tui.widgets.common.too_small import TooSmallNotice

FOOTER = (
    "[b]Every screen[/b]\n"
    "  Ctrl+P  command palette (Home there leaves the table)\n"
    "  Ctrl+Q  quit (asks first at a table)     Esc  close this help\n"
    "  [i]head #N 1a2b-…[/i] (title): the log's fingerprint, the same for everyone\n"
    "  Every table rule and its values: [i]{command} rules[/i] in a shell."
)
"""The help's last section; ``{command}`` is this program's command as the person types it
(:func:`tui.files.vampire_command`)."""


HELP_WIDTH = 72
"""Columns of the help's text at 80 columns (its box's border, padding and scroll bar off): a
sentence of this table's rules wraps under its own indent within them."""


def table_rules_words(game: str, options: Mapping[str, Any]) -> list[str]:
    """A table's rules in sentences: ``options`` (the table's, possibly partial) over the game's
    defaults, in the front end's words, else each option's description and value. An unknown
    game: no sentences."""
    try:
        spec = find_game(game)
    except UnknownGame:
        return []
    full = {o.name: o.default for o in spec.option_schema} | dict(options)
    words = find_front_end(game).option_words
    out = []
    if words is not None:
        out = words(full)
    for option in spec.option_schema if words is None else TABLE_OPTIONS:
        value = full[option.name]
        sentence = _TABLE_RULE_WORDS.get(option.name)
        if sentence is not None:
            out.append(sentence(value))
            continue
        shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
        out.append(f"{option.doc[:1].upper()}{option.doc[1:]}: {shown}.")
    return out


_TABLE_RULE_WORDS: dict[str, Callable[[Any], str]] = {
    "abandon_by_all": lambda v: (
        "A stalled seat is voted out by all the others."
        if v
        else "A stalled seat is voted out by a majority of the others."
    ),
    "stall_seconds": lambda v: f"The others may vote out a seat that has kept the table waiting {v} s.",
}
"""The table rules every game shares (engine.games.base.TABLE_OPTIONS) as plain sentences."""


def table_rules_section(game: str, options: Mapping[str, Any]) -> str:
    """The help's "This table's rules" section (Textual markup), or "" when there is nothing to say."""
    words = table_rules_words(game, options)
    if not words:
        return ""
    lines = (
        escape(line)
        for w in words
        for line in textwrap.wrap(w, HELP_WIDTH, initial_indent="  ", subsequent_indent="    ")
    )
    return "[b]This table's rules[/b]\n" + "\n".join(lines)


class HelpScreen(ModalScreen[None]):
    """The help of the games called ``games`` (default: every game), then, at a table, that table's
    rules (``options``: its option values, for the one game in ``games``), then the keys every
    screen shares."""

    BINDINGS = [
        Binding("escape", "dismiss", "Close"),
        Binding("f1", "dismiss", "Close", show=False),
        Binding("ctrl+q", "app.quit", "Quit", show=False),  # a modal hides the app's own keys
    ]

    def __init__(self, games: Sequence[str] | None = None, options: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.games = list(games) if games is not None else game_names()
        self.options = dict(options) if options is not None else None

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        sections = [help_text(self.games)]
        if self.options is not None and len(self.games) == 1:
            sections.append(table_rules_section(self.games[0], self.options))
        sections.append(FOOTER.format(command=escape(vampire_command())))
        with VerticalScroll(id="help", classes="dialog"):
            yield Static("\n\n".join(s for s in sections if s))
