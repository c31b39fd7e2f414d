"""The current trick: who led, each set played in order, the highest so far, who is still to play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Static

from tui.games.queen.present import beat_words, last_trick_line, trick_rows, trick_title
from tui.widgets.common.title import show_in_place


class TrickView(Static):
    """Shows a Vampire Queen state's trick (or the last trick between tricks): one line per turn
    with the cards played, ``★`` (and the word ``highest``, or ``winning`` in a hunter trick, where
    it fits) on the best so far, ``▶ to play`` on the seat whose turn it is. A hunter trick is titled HUNTER TRICK."""

    DEFAULT_CLASSES = "panel"

    def show(self, state: Any, names: Sequence[str], me: int | None = None) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        if state is None:
            show_in_place(self, text)
            return
        trick = state.trick
        self.set_class(bool(trick is not None and trick.hunter), "-hunter")
        if trick is None:
            if state.phase == "play":
                last = last_trick_line(state, names)
                if last:
                    text.append(last + "\n", style="dim")
                text.append(trick_title(state, names, me), style="bold")
            elif state.phase in ("shuffle", "deal", "dealer"):
                text.append("No trick yet: the cards are\nbeing shuffled and dealt.", style="dim")
            elif state.phase == "score":
                text.append("The round is over: its hands\nare being revealed.", style="dim")
            elif state.phase == "over":
                text.append("The game is over.", style="bold")
            show_in_place(self, text)
            return
        if trick.hunter:
            text.append(f"HUNTER TRICK: Hunter {trick.hunter}\n", style="bold reverse")
        else:
            title = f"{beat_words(trick)}, or pass"
            text.append(title[:1].upper() + title[1:] + "\n", style="bold")
        tie = dict(state.options).get("hunter_tie", "last")
        width = self.content_size.width or 30
        for row in trick_rows(trick, names, tie):
            # One line per turn, never wrapped: the mark first, so a long set cannot push it out;
            # the word after it only where it fits.
            line = Text(no_wrap=True, overflow="ellipsis")
            line.append("★ " if row.best else "  ", style="bold")
            line.append(_name(row.name, row.seat == me))
            if not row.cards:
                line.append(row.what, style="dim")
            elif trick.hunter and row.lead:
                line.append(f"led H{trick.hunter}", style="bold red")
            else:
                line.append(row.cards, style="bold" if row.best else "")
                if row.lead:
                    line.append(" led", style="dim")
            word = ("  winning" if trick.hunter else "  highest") if row.best else ""
            if word and line.cell_len + len(word) <= width:
                line.append(word, style="bold")
            text.append_text(line)
            text.append("\n")
        for i, seat in enumerate(trick.waiting):
            text.append("▶ " if i == 0 else "  ", style="bold")
            text.append(_name(names[seat], seat == me))
            text.append("to play" if i == 0 else "waiting", style="bold" if i == 0 else "dim")
            text.append("\n")
        text.rstrip()
        show_in_place(self, text)


def _name(name: str, me: bool) -> str:
    label = "you" if me else name
    return f"{label[:9]:<10}"
