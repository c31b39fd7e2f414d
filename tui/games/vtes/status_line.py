"""Where the game stands, drawn at a VTES table from the seat's view: the frame's status line
(whom the table waits for, in a VTES table's words: :func:`tui.games.vtes.status_text.vtes_status`),
the turn line under the table (whose turn and phase: :func:`tui.games.vtes.present.turn_line`)
and the title's turn. The screen (:mod:`tui.games.vtes.table`) calls these on each redraw.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Label

from engine.games.base import Act
from engine.games.vtes.view import VtesView
from engine.games.vtes.vocab import Status, Step
from engine.table import Table
from tui.games.vtes.present import turn_line
from tui.games.vtes.status_text import vtes_status
from tui.games.vtes.widgets.redraw import show
from tui.games.vtes.widgets.say import Turn

AUTO_OFF = " Auto-pass off (A)."
"""What the turn line adds while this seat asks every time (its automatic pass switched off)."""


def draw_status(label: Label, view: VtesView | None, table: Table, me: int | None, by_itself: Act | None) -> None:
    """Say the frame's status line (``label``, as the frame has just drawn it) as a VTES table
    says it, and mark it when it is this seat's turn; ``by_itself``: the act this seat makes by
    itself now (the line says so, never that the table waits for it)."""
    content = label.content
    said = content.plain if isinstance(content, Text) else str(content)
    status = vtes_status(said, view, table, me, by_itself)
    if status is None:
        return
    if status.text is not None:
        show(label, status.text)
    label.set_class(status.your_turn, "-your-turn")


def turn_now(view: VtesView | None, names: Sequence[str], auto: bool | None) -> Turn:
    """The turn line, with that this seat asks every time when it does (``auto`` False; not once
    it is out of the game), and
    whether no box (action, combat, referendum) says it all; None before the table starts."""
    if view is None:
        return None
    turn = turn_line(view, names)
    quiet = view.action is None and view.combat is None and view.referendum is None
    playing = view.me is not None and view.me.status == Status.IN  # out of the game: nothing to pass
    return (turn + AUTO_OFF if auto is False and playing else turn), quiet


def title_parts(view: VtesView | None) -> list[str]:
    """What the title adds in play: the turn's number."""
    if view is None or view.step != Step.PLAY:
        return []
    return [f"turn {view.turn}"]


__all__ = ["AUTO_OFF", "draw_status", "title_parts", "turn_now"]
