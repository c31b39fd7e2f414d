"""The VTES table screen's menus: where to move a card (the ``move`` act's targets, shared/rules/
vtes.md "Zones")."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.games.vtes.vocab import Target

#: The move menu's choices, in the order a player most often needs them, with their words.
MOVE_CHOICES: tuple[tuple[Target, str], ...] = (
    (Target.TORPOR, "to torpor"),
    (Target.READY, "to the ready region"),
    (Target.ASH, "to the ash heap"),
    (Target.HAND, "to its owner's hand"),
    (Target.UNCONTROLLED, "to the uncontrolled region"),
    (Target.REMOVED, "out of the game"),
    (Target.LIBRARY, "on top of the library"),
    (Target.LIBRARY_BOTTOM, "to the bottom of the library"),
    (Target.CRYPT, "on top of the crypt"),
    (Target.CRYPT_BOTTOM, "to the bottom of the crypt"),
)


class MoveMenu(ModalScreen[Target | None]):
    """Where to move ``card_name``: Enter picks, Esc cancels (dismissed with None)."""

    DEFAULT_CSS = """
    MoveMenu { align: center middle; background: $background 60%; }
    MoveMenu > Vertical { width: 48; height: auto; max-height: 16; border: thick $accent;
        background: $surface; padding: 0 1; }
    MoveMenu OptionList { height: auto; max-height: 11; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, card_name: str) -> None:
        super().__init__()
        self.card_name = card_name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Move {self.card_name}", classes="dialog-title")
            yield OptionList(*(Option(words, id=str(target)) for target, words in MOVE_CHOICES), id="vt-move")

    def on_mount(self) -> None:
        self.query_one("#vt-move").focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(Target(str(event.option.id)))

    def action_cancel(self) -> None:
        self.dismiss(None)


__all__ = ["MOVE_CHOICES", "MoveMenu"]
