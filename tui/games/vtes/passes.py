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

    A run folds when it holds two notes or more, each a pass of one seat, no seat twice: a seat
    passes once in a window's loop, so a seat passing again starts another window's run. The
    folded note names the seats in the order they passed: "{s2}, {s0} and {s1} pass" ("… pass and
    decline to block" when each declined to block; "{s2}, {s0} and {s1} pass; {s0} declines to
    block" when some did)."""
    if len(notes) < 2:
        return None
    if any(n.news not in PASSES or len(n.seats) != 1 for n in notes):
        return None
    seats = tuple(n.seats[0] for n in notes)
    if len(set(seats)) != len(seats):
        return None
    declined = [n.seats[0] for n in notes if n.news == News.PASSED_NO_BLOCK]
    text = f"{_listed(seats)} pass"
    if len(declined) == len(seats):
        text += " and decline to block"
    elif declined:
        text += f"; {_listed(declined)} decline{'s' if len(declined) == 1 else ''} to block"
    return Note(text, seats, News.PASSED_NO_BLOCK if len(declined) == len(seats) else News.PASSED)


def _listed(seats: Sequence[int]) -> str:
    """``"{s2}"``, ``"{s2} and {s0}"``, ``"{s2}, {s0} and {s1}"``."""
    refs = [seat_ref(s) for s in seats]
    return refs[0] if len(refs) == 1 else ", ".join(refs[:-1]) + " and " + refs[-1]


class DoneOnce:
    """A seat says it is done voting again after every later vote (7.1: polling closes when all
    are done since the last vote); a reader shows it once per seat and referendum. :meth:`shows`
    says whether a note is shown; a polling that opens starts anew."""

    def __init__(self) -> None:
        self.said: set[int] = set()

    def shows(self, note: Note) -> bool:
        """Whether ``note`` is shown: False for a seat's "done voting" said already since
        polling opened."""
        if note.news in (News.POLLING_OPENED, News.REFERENDUM_RESOLVED):
            self.said.clear()
        if note.news != News.DONE_VOTING or len(note.seats) != 1:
            return True
        if note.seats[0] in self.said:
            return False
        self.said.add(note.seats[0])
        return True


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
