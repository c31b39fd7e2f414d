"""How the replay screen draws a Vampire Queen table: the seats, the trick, and every hand once
the log lets them be known; a replay jumps by trick and by round."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static

from tui.games import Marks
from tui.games.queen.present import cards_text, points, seat_rows
from tui.games.queen.widgets.seats import SeatList
from tui.games.queen.widgets.trick import TrickView
from tui.replayer import Frame, Replay


def hands_at(replay: Replay, frame: Frame, spoil: bool) -> list[tuple[int, str, tuple[str, ...]]]:
    """Every seat's hand at ``frame``, when the log lets it be known.

    Once a round's seeds are revealed (at its end) the hands are public: right after the reveal the
    frame shows the hands left at the end and the hands dealt. With ``spoil``, every hand is shown at
    every step of a round whose seeds the log reveals later. Returns (seat, label, cards) rows."""
    state = frame.state
    if state is None or not hasattr(state, "hands"):
        return []
    rows: list[tuple[int, str, tuple[str, ...]]] = []
    if state.phase == "play" or state.phase == "score":
        if not spoil or state.event < 0:
            return []
        cards = replay.cards.get(state.event)
        if cards is None:
            return []
        for s in range(state.seats):
            held = tuple(c.ident if c.ident is not None else (cards[c.pos[1]] or "?") for c in state.hands[s])
            held += tuple(f"H{h}" for h in state.hunters_of(s))
            rows.append((s, "holds", held))
        return rows
    if state.round_hands:
        for s, hand in enumerate(state.round_hands[-1]):
            rows.append((s, "kept", tuple(hand)))
    return rows


class QueenReplay:
    """The seat list and the trick side by side, the hands under them (:class:`tui.games.ReplayKit`)."""

    units = ("trick", "round")

    def marks(self, before: Marks, prev_state: Any, state: Any) -> Marks:
        """The round and the trick within it (0: between tricks, or before the first); a trick
        starts when its lead is played, a round when the state's round number changes."""
        trick = dict(before.where).get("trick", 0)
        starts: set[str] = set()
        if state is not None and hasattr(state, "trick"):
            if state.round != getattr(prev_state, "round", 0):
                starts.add("round")
                trick = 0
            if state.trick is not None and getattr(prev_state, "trick", None) is None:
                trick += 1
                starts.add("trick")
        return Marks((("round", getattr(state, "round", 0)), ("trick", trick)), frozenset(starts))

    def compose(self) -> ComposeResult:
        with Horizontal(id="replay-top"):
            yield SeatList(id="seats")
            yield TrickView(id="trick")
        yield Static(id="replay-hands", classes="panel")

    def mounted(self, screen: Screen[Any]) -> None:
        screen.query_one("#seats").border_title = "Seats"
        screen.query_one("#trick").border_title = "Trick"
        screen.query_one("#replay-hands").display = False

    def show(self, screen: Screen[Any], replay: Replay, frame: Frame, spoil: bool) -> None:
        state = frame.state
        if state is not None and not hasattr(state, "trick"):
            state = None  # not a Vampire Queen state (a log that lies about its game): never crash
        seats = screen.query_one(SeatList)
        if state is not None:
            seats.show(seat_rows(state, frame.names, None))
        else:
            seats.update("\n".join(f"  seat {i}: {n}" for i, n in enumerate(frame.names)) or "  (no seats yet)")
        trick = screen.query_one(TrickView)
        trick.show(state, frame.names)
        # The top row as tall as its taller panel (borders included, at most 15 rows), set here:
        # left to "height: auto", a step's panels sometimes kept an earlier step's height.
        tallest = max(_line_count(seats), _line_count(trick))
        screen.query_one("#replay-top").styles.height = min(15, max(tallest, 3) + 2)
        self._show_hands(screen, replay, frame, spoil)

    def _show_hands(self, screen: Screen[Any], replay: Replay, frame: Frame, spoil: bool) -> None:
        panel = screen.query_one("#replay-hands", Static)
        rows = hands_at(replay, frame, spoil)
        if not rows:
            panel.display = False
            return
        text = Text(no_wrap=True, overflow="ellipsis")
        if rows[0][1] == "kept":
            panel.border_title = f"Round {len(frame.state.round_scores)}: hands at the end (seeds revealed)"
        else:
            panel.border_title = "Every hand (from the seeds this log reveals later)"
        for s, label, cards in rows:
            name = frame.names[s] if s < len(frame.names) else f"seat {s}"
            line = f"{name[:12]:<12} {cards_text(cards) or '(no cards)'}"
            if label == "kept":
                kept = points(cards)
                line += f"  = {kept} point{'s' if kept != 1 else ''}"
            text.append(line + "\n")
        text.rstrip()
        panel.update(text)
        panel.display = True


def _line_count(panel: Static) -> int:
    """How many lines ``panel``'s text has."""
    content = panel.content
    return len((content.plain if hasattr(content, "plain") else str(content)).splitlines())
