"""The combat box: the combat under way at a glance (shared/rules/vtes-actions.md 5, P5–P6).

Two lines or more (each wrapped whole: the box is as tall as they are) above the command line,
shown only during a combat:
the combatants with their blood, the round, the range and the step; each side's chosen strike and
what its damage will do, whose strike or impulse the table waits for, and this seat's keys. The
words come from :mod:`tui.games.vtes.fight_text`; the styles are the stylesheet's
(``COMPONENT_CLASSES``).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from engine.games.base import Act
from engine.games.vtes.view import VtesView
from tui.games.vtes.action_text import by_itself_words
from tui.games.vtes.fight_text import combat_keys, combat_lines
from tui.games.vtes.widgets.redraw import show


class CombatBox(Static):
    """The combat under way, or nothing (hidden). :meth:`show_combat` redraws it; it posts
    :class:`CombatBox.YourMove` when the table starts waiting for this seat in the combat."""

    COMPONENT_CLASSES = {"combat-box--what", "combat-box--detail", "combat-box--key"}

    DEFAULT_CSS = """
    CombatBox { height: auto; padding: 0 1; background: $boost; display: none; }
    CombatBox.-open { display: block; }
    CombatBox.-yours { background: $error 20%; }
    CombatBox > .combat-box--what { text-style: bold; }
    CombatBox > .combat-box--detail { color: $text-muted; }
    CombatBox > .combat-box--key { color: $accent; text-style: bold; }
    """

    class YourMove(Message):
        """The combat waits for this seat: a strike to choose, or the impulse of a step."""

        def __init__(self, box: CombatBox) -> None:
            super().__init__()
            self.box = box

        @property
        def control(self) -> CombatBox:
            return self.box

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._was_mine = False

    def show_combat(
        self, view: VtesView | None, names: Sequence[str], by_itself: Act | None = None, held: str | None = None
    ) -> None:
        """Show ``view``'s combat (hide the box when there is none). ``by_itself``: the act this
        seat makes by itself now (its automatic pass or hand strike): the combat is not shown as
        waiting for this seat, and no :class:`YourMove` is posted for it; ``held``: why this
        seat's answer is not asked for now though the combat's would be its own (sent already, or
        a draw settles first), said instead of its keys."""
        combat = view.combat if view is not None else None
        self.set_class(combat is not None, "-open")
        mine = combat is not None and view is not None and view.seat is not None and combat.impulse == view.seat
        mine = mine and by_itself is None and held is None
        self.set_class(mine, "-yours")
        if mine and not self._was_mine:
            self.post_message(self.YourMove(self))
        self._was_mine = mine
        if combat is None or view is None:
            show(self, "")
            return
        style = self.get_component_rich_style
        head, detail = combat_lines(view, names, combat)
        text = Text(head, style("combat-box--what"))
        keys = combat_keys(view, combat) if by_itself is None else []
        aside = by_itself_words(by_itself) if by_itself is not None else held if keys else None
        if aside is not None:  # said instead of the keys
            text.append("\n" + aside, style("combat-box--detail"))
            keys = []
        for i, (key, words) in enumerate(keys):
            text.append("\n" if i == 0 else " · ")
            text.append(key, style("combat-box--key"))
            text.append(" " + words)
        text.append(
            "\n" + detail + (f" · {held}" if held is not None and by_itself is None else ""),
            style("combat-box--detail"),
        )
        show(self, text)


__all__ = ["CombatBox"]
