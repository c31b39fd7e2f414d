"""A window's passes read as one line: the narration keeps one note per act ("Ana passes", "Ben
passes"…), and what a player reads (the game log, ``vampire replay --text``) folds a run of them
into "Ana, Ben and Cy pass". Read from the notes' typed news (:class:`engine.games.vtes.vocab.News`),
never from their English; loads neither Textual nor the card data."""

from __future__ import annotations

from collections.abc import Sequence

from engine.games.base import Note, seat_ref
from engine.games.vtes.vocab import News

PASSES = frozenset({News.PASSED, News.PASSED_NO_BLOCK})
"""The news of a pass: plain, or declining to block an action (6.2)."""


def fold_passes(notes: Sequence[Note]) -> Note | None:
    """The one note a run of consecutive ``notes`` is shown as, or None when the run does not fold.

    A run folds when it holds two notes or more, each a pass of one seat, all with the same news,
    no seat twice: a seat passes once in a window's loop, so a seat passing again, or a pass of
    another kind (declining to block, then passing in the window that follows), starts another
    window's run. The folded note names the seats in the order they passed: "{s2}, {s0} and {s1}
    pass" ("… pass and decline to block")."""
    if len(notes) < 2:
        return None
    news = notes[0].news
    if news not in PASSES or any(n.news != news or len(n.seats) != 1 for n in notes):
        return None
    seats = tuple(n.seats[0] for n in notes)
    if len(set(seats)) != len(seats):
        return None
    refs = [seat_ref(s) for s in seats]
    who = ", ".join(refs[:-1]) + " and " + refs[-1]
    text = f"{who} pass" + (" and decline to block" if news == News.PASSED_NO_BLOCK else "")
    return Note(text, seats, news)


class PassRun:
    """The run of passes a stream of notes is in, for a reader that shows the notes one by one:
    :meth:`add` says whether a note joins the run shown last (its line then reads as
    :attr:`line`) or starts anew."""

    def __init__(self) -> None:
        self.notes: list[Note] = []
        self.line: Note | None = None

    def add(self, note: Note) -> bool:
        """Take ``note``; True when it joins the run the last line shows (that line now reads
        :attr:`line`), False when it is shown as a line of its own (a run may start with it)."""
        folded = fold_passes([*self.notes, note]) if self.notes else None
        if folded is not None:
            self.notes.append(note)
            self.line = folded
            return True
        self.notes = [note] if note.news in PASSES and len(note.seats) == 1 else []
        self.line = note
        return False

    def reset(self) -> None:
        """Another line was shown: the next pass starts a run."""
        self.notes = []
        self.line = None
