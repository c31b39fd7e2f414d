"""The base of the parts of the VTES table screen kept in modules of their own (the keys for what
a player applies by hand, the menus, the reading keys, the automatic pass): each is a mixin of
:class:`~tui.games.vtes.table.VtesTableScreen`, whose bindings name its ``action_*`` methods, so
that the screen reads as what it draws. To the type checker a part is the table frame with what
the screen provides; at run time it is a plain class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.games.vtes.view import CardView, VtesView
from tui.screens.table import TableFrame

if TYPE_CHECKING:
    from tui.games.vtes.acting import ActSender

    _Frame = TableFrame
else:
    _Frame = object


class ScreenPart(_Frame):
    """A part of the VTES table screen: the screen provides ``_acts`` (its act sender), ``_view``
    (the view last drawn), :meth:`say` (the line under the board) and :meth:`selected_card` (the
    card highlighted on the board)."""

    _acts: ActSender
    _view: VtesView | None

    if TYPE_CHECKING:

        def say(
            self, text: str, illegal: bool, todo: bool = False, guarding: bool = True, again: str | None = None
        ) -> None: ...

        def selected_card(self) -> CardView | None: ...


__all__ = ["ScreenPart"]
