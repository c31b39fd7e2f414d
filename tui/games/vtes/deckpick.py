"""The VTES lobby's deck chooser (shared/rules/vtes.md, "Setup"): before the game starts a
Methuselah picks a deck file or a deck the game ships, and sees its crypt and library counts and
every problem before taking it: a name krcg only guessed (``line 5: "Govern the Unalligned" read
as Govern the Unaligned``), a line naming no card, a crypt under 12 cards, a library outside
60–90 cards at a table with the ``library_size`` rule.

A deck with a problem that the table would refuse (an unknown card, an illegal count) cannot be
taken; a guessed name can, and the lobby keeps saying it. The deck is read through the game's
own parser (:mod:`engine.games.vtes.decks`, krcg's), with the table's ``library_size`` rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from engine.games.vtes.decks import (
    Deck,
    DeckFileError,
    bundled_deck,
    bundled_deck_names,
    check_sizes,
    load_deck,
    table_problems,
)
from engine.table import Table
from tui.errors import explain


def library_rule(table: Table) -> bool:
    """The table's ``library_size`` rule (libraries of 60 to 90 cards); on unless it says off."""
    return bool(table.options.get("library_size", True))


def deck_line(deck: Deck) -> str:
    """``"Atraco: crypt 12, library 90"`` (the deck's name, when it has one, first)."""
    label = f"{deck.name}: " if deck.name else ""
    return f"{label}crypt {deck.crypt_size}, library {deck.library_size}"


def deck_report(deck: Deck) -> Text:
    """A deck's counts, which was read when a bundled deck's name was given (plain news), then
    each name krcg guessed and each header that disagrees, one a line (warnings, not refusals)."""
    text = Text(deck_line(deck), style="bold")
    if deck.source:
        text.append(f"\n{deck.source}", style="dim")
    for note in deck.notes:
        text.append(f"\n⚠ {note}", style="yellow")
    return text


def count_problem(deck: Deck, library_size: bool, options: Mapping[str, object] | None = None) -> DeckFileError | None:
    """Why a table would refuse ``deck`` (a crypt under 12; with ``library_size``, a library
    outside 60–90; with the table ``options``, whatever their rules refuse, such as a crypt of
    more than two consecutive groups under ``crypt_groups``, naming the groups), or None."""
    if options is not None:
        problems = table_problems(deck, {**options, "library_size": library_size})
        return DeckFileError("; ".join(problems)) if problems else None
    try:
        check_sizes(deck, library_size=library_size)
    except DeckFileError as err:
        return err
    return None


class DeckChooser(ModalScreen[Deck | None]):
    """Pick a deck: type a file's path (Enter reads it) or highlight a shipped deck (Enter takes
    it). The panel below shows the counts and every problem; Esc cancels (dismissed with None).

    ``library_size``: the table's rule (a library of 60 to 90 cards); ``options``: the table's
    rules (None: only the sizes are checked)."""

    DEFAULT_CSS = """
    DeckChooser { align: center middle; background: $background 60%; }
    DeckChooser > Vertical { width: 76; height: auto; max-height: 22; border: thick $accent;
        background: $surface; padding: 0 1; }
    DeckChooser #dk-file { height: 3; }
    DeckChooser #dk-shipped { height: auto; max-height: 8; }
    DeckChooser #dk-report { height: auto; max-height: 6; }
    DeckChooser #dk-report.-problem { color: $warning; }
    DeckChooser .dk-help { color: $text-muted; height: 1; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, library_size: bool = True, options: Mapping[str, object] | None = None) -> None:
        super().__init__()
        self.library_size = library_size
        self.options = options
        self._shipped: dict[str, Deck | DeckFileError] = {}

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Choose your deck", classes="dialog-title")
            yield Input(
                placeholder="a deck file: TWD, VDB, JOL, Lackey, JSON or N Name lines",
                id="dk-file",
                select_on_focus=False,  # a character typed in the list moves here: keep it
            )
            yield Static("or a deck the game ships (↑ ↓, Enter takes it):", classes="dk-help")
            yield OptionList(*(Option(name, id=name) for name in bundled_deck_names()), id="dk-shipped")
            yield Static(id="dk-report")
            yield Static("Enter takes the deck · Tab: file ↔ list · Esc: cancel", classes="dk-help")

    def on_mount(self) -> None:
        self.query_one("#dk-shipped", OptionList).focus()

    def on_key(self, event: events.Key) -> None:
        """A character typed while the list has the focus starts a file name: it goes to the file
        box (which takes the focus), so Enter reads the file typed, not the deck highlighted."""
        box = self.query_one("#dk-file", Input)
        if event.is_printable and event.character and self.focused is not box:
            event.prevent_default()
            event.stop()
            box.focus()
            box.insert_text_at_cursor(event.character)

    def _shipped_deck(self, name: str) -> Deck | DeckFileError:
        if name not in self._shipped:
            try:
                deck = bundled_deck(name)
                self._shipped[name] = self._problem(deck) or deck
            except DeckFileError as err:
                self._shipped[name] = err
        return self._shipped[name]

    def _problem(self, deck: Deck) -> DeckFileError | None:
        return count_problem(deck, self.library_size, self.options)

    def _show(self, found: Deck | DeckFileError | None) -> None:
        report = self.query_one("#dk-report", Static)
        if found is None:
            report.update("")
        elif isinstance(found, DeckFileError):
            report.update(Text(f"✗ {explain(found)}"))
        else:
            report.update(deck_report(found))
        report.set_class(isinstance(found, DeckFileError), "-problem")

    @on(OptionList.OptionHighlighted, "#dk-shipped")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show(self._shipped_deck(str(event.option.id)))

    @on(OptionList.OptionSelected, "#dk-shipped")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self._take(self._shipped_deck(str(event.option.id)))

    def read_file(self, path: str) -> Deck | DeckFileError:
        """The deck in the file ``path`` (``~`` expanded), or the sentence why it cannot be taken."""
        try:
            deck = load_deck(Path(path).expanduser(), library_size=self.library_size)
        except DeckFileError as err:
            return err
        return self._problem(deck) or deck

    @on(Input.Submitted, "#dk-file")
    def _file(self, event: Input.Submitted) -> None:
        path = event.value.strip()
        if not path:
            self._show(DeckFileError("type the path of a deck file, or pick a shipped deck below"))
            return
        self._take(self.read_file(path))

    def _take(self, found: Deck | DeckFileError) -> None:
        self._show(found)
        if isinstance(found, Deck):
            self.dismiss(found)

    def action_cancel(self) -> None:
        self.dismiss(None)


class VtesLobbyKit:
    """The VTES :class:`tui.games.LobbyKit`: the lobby's deck line and its chooser."""

    key_label = "Choose deck"

    def describe(self, brought: Any, needed: bool, table: Table) -> Text:
        if isinstance(brought, Deck):
            text = Text("Your deck: ") + deck_report(brought)
            problem = count_problem(brought, library_rule(table), table.options)
            if problem is not None:
                text.append(f"\n✗ {explain(problem)}", style="bold red")
            return text
        if needed:
            return Text("This table needs your deck: press d to choose a deck file or a shipped deck.", style="bold")
        return Text("")

    def chooser(self, table: Table) -> Screen[Any]:
        return DeckChooser(library_rule(table), table.options)


__all__ = ["DeckChooser", "VtesLobbyKit", "count_problem", "deck_line", "deck_report", "library_rule"]
