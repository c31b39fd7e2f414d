"""How the replay screen draws a VTES table: every Methuselah, and every card in play as a
spectator sees it at that step; a replay jumps by phase and by turn.

Hidden cards (hands, uncontrolled regions) stay hidden, as at the table for a spectator, unless
the viewer asks for them (``h``, "spoil"): then every card whose shuffle seeds the log reveals
later (at the game's end, or when a Methuselah leaves) is shown face up, and each hand is listed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from engine.games.vtes.state import VtesState
from engine.games.vtes.view import build_view
from engine.games.vtes.vocab import PHASES, Zone
from tui.games import Marks
from tui.games.vtes.present import board_rows, methuselah_lines, seat_name
from tui.replayer import Frame, Replay


def spoiled(state: VtesState, replay: Replay) -> VtesState:
    """``state`` with every hidden card the log reveals later given its identity (face down
    cards stay face down in their zone; only their names become known to the replay)."""
    cards = []
    for c in state.cards:
        ident = c.card
        if not ident:
            known = replay.cards.get(c.pos[0])
            if known is not None and 0 <= c.pos[1] < len(known):
                ident = known[c.pos[1]] or ""
        cards.append(replace(c, card=ident) if ident != c.card else c)
    return replace(state, cards=tuple(cards))


class ReplayPanel(Static):
    """A replay panel of the VTES table: the Methuselahs take the room they need, the table
    shares what is left with the replay's entries."""

    DEFAULT_CSS = """
    ReplayPanel { height: auto; }
    ReplayPanel#vt-replay-board { height: 1fr; min-height: 4; }
    """


class VtesReplay:
    """The Methuselahs above the table (:class:`tui.games.ReplayKit`)."""

    units = ("phase", "turn")

    def marks(self, before: Marks, prev_state: Any, state: Any) -> Marks:
        """The turn, and the phase within it (1 to 5; 0 before play); a turn starts when the
        turn number changes, a phase when the phase does."""
        if not isinstance(state, VtesState):
            return Marks(before.where)
        starts: set[str] = set()
        prev_turn = prev_state.turn if isinstance(prev_state, VtesState) else 0
        prev_phase = prev_state.phase if isinstance(prev_state, VtesState) else None
        if state.turn != prev_turn:
            starts.add("turn")
        if state.phase != prev_phase and state.phase in PHASES:
            starts.add("phase")
        phase = PHASES.index(state.phase) + 1 if state.phase in PHASES else 0
        return Marks((("turn", state.turn), ("phase", phase)), frozenset(starts))

    def compose(self) -> ComposeResult:
        yield ReplayPanel(id="vt-replay-players", classes="panel")
        yield ReplayPanel(id="vt-replay-board", classes="panel")

    def mounted(self, screen: Screen[Any]) -> None:
        screen.query_one("#vt-replay-players").border_title = "Methuselahs"
        screen.query_one("#vt-replay-board").border_title = "Table"

    def show(self, screen: Screen[Any], replay: Replay, frame: Frame, spoil: bool) -> None:
        players = screen.query_one("#vt-replay-players", Static)
        board = screen.query_one("#vt-replay-board", Static)
        state = frame.state
        names = list(frame.names)
        if not isinstance(state, VtesState) or not state.seating:
            players.update("\n".join(f"  seat {i + 1}: {n}" for i, n in enumerate(names)) or "  (no seats yet)")
            board.update(Text("The game has not started yet.", style="dim"))
            return
        shown_state = spoiled(state, replay) if spoil else state
        view = build_view(shown_state, None, {})
        # The panel's own width (its border and padding off), else the screen's less those.
        width = players.content_size.width or screen.size.width - 4
        players.update(methuselah_lines(view, names, wide=screen.size.width >= 110, width=max(width, 40)))
        text = Text(no_wrap=True, overflow="ellipsis")
        for row in board_rows(view, names):
            text.append_text(row.text)
            text.append("\n")
        if spoil:
            for seat in view.seating:
                hand = [c for c in shown_state.cards if c.owner == seat and c.zone == Zone.HAND]
                known = [_name(c.card) for c in hand]
                text.append(f"{seat_name(names, seat)}'s hand: ", style="bold")
                text.append(", ".join(known) if known else "(empty)")
                text.append("\n")
        text.rstrip()
        board.update(text)


def _name(ident: str) -> str:
    from engine.games.vtes.cards import card_base

    info = card_base().info(ident) if ident else None
    return info.name if info is not None else "a hidden card"


__all__ = ["VtesReplay", "spoiled"]
