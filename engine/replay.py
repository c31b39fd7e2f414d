"""``vampire replay FILE --text``: a saved log, entry by entry, in words.

Every entry is folded into a fresh table (so a replay checks the log as it goes); after a shuffle
event's seeds are revealed, the cards each seat was dealt in that event are shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from engine.games import find_game
from engine.games.base import Game, Note
from engine.protocol.identity import short_fingerprint
from engine.protocol.log import Entry, LogFile, LogStream
from engine.table import EntryKind, Keep, Table, TableRefusal

_DUTY_WORDS: dict[str, str] = {
    EntryKind.RAND_COMMIT: "commits to a random value",
    EntryKind.RAND_REVEAL: "reveals the random value",
    EntryKind.KEY: "publishes its key share",
    EntryKind.DECK: "encrypts its deck",
    EntryKind.REVEAL: "reveals its cards",
    EntryKind.KEY_REVEAL: "reveals its key share on leaving",
    EntryKind.SEED_REVEAL: "reveals a shuffle seed",
}


def describe_entry(table: Table, entry: Entry, notes: list[Note]) -> list[str]:
    """Lines for one folded entry: the protocol step, then the narration it produced."""
    names = table.names
    seat = table.seat_of(entry.author)
    who = names[seat] if seat is not None else ("the host" if entry.author == table.host else "someone")
    body = entry.body
    lines: list[str] = []
    kind = entry.kind
    if kind == EntryKind.TABLE:
        lines.append(
            f"Table {body['name']!r} opened for {body['seats']} players of {table.rules.title} "
            f"(host key {short_fingerprint(entry.author)}; options: "
            + ", ".join(f"{k}={v}" for k, v in sorted(body["options"].items()))
            + ")"
        )
    elif kind == EntryKind.SHUFFLE:
        lines.append(f"{who} shuffles event {body['event']} (proven)")
    elif kind == EntryKind.SHARE:
        n = len(body["positions"])
        lines.append(f"{who} shares {n} card{'s' if n != 1 else ''} of event {body['event']}")
    elif kind in _DUTY_WORDS:
        extra = f" ({body['purpose']})" if "purpose" in body else f" (event {body['event']})" if "event" in body else ""
        lines.append(f"{who} {_DUTY_WORDS[kind]}{extra}")
    elif kind in (EntryKind.JOIN, EntryKind.START, EntryKind.MOVE, EntryKind.CHAT):
        pass  # the narration says it
    elif kind == EntryKind.END:
        lines.append("The host closes the table.")
    else:
        lines.append(f"{who}: {kind}")
    lines.extend(n.render(names) for n in notes)
    return [f"[{entry.seq:>4}] {line}" for line in lines]


def dealt_hands(table: Table, event: int) -> list[str]:
    """After ``event``'s seed reveal: the cards opened to each seat in that event (the hands as
    dealt, cards since played included)."""
    ev = table.events[event]
    if ev.cards is None:
        return []
    by_seat: dict[int, list[str]] = {}
    for k, to in sorted(ev.dealt.items()):
        card = ev.cards[k]
        if card is not None:
            by_seat.setdefault(to, []).append(card)
    words = find_game(table.game_name).hand_words if table.game_name else None
    lines = []
    for seat in sorted(by_seat):
        cards = by_seat[seat]
        shown = words(cards) if words is not None else " ".join(cards)
        lines.append(f"         {table.names[seat]} was dealt: {shown}")
    return lines


NoteFold = Callable[[Sequence[Note]], "Note | None"]
"""How a reader folds a run of consecutive notes into one line: the note standing for all of
them, or None when they do not fold (a game's front end gives it, e.g. a window's passes)."""

NoteSieve = Callable[[Note], bool]
"""Whether a reader shows a note, fed every note of the narration in order (it keeps what it has
seen): False for one that only repeats what the reader said already (a game's front end gives
each reader a fresh one, e.g. a seat's "done voting" said once a referendum)."""


class NoteRun[T]:
    """The consecutive notes a reader that prints line by line holds while they may still fold
    into one (``fold``: :data:`NoteFold`), each with a ``T`` of the reader's (the seq of its
    entry). :meth:`add` returns what to print before the note it takes, :meth:`flush` the rest;
    a note that ``sieve`` (:data:`NoteSieve`) does not show is left out."""

    def __init__(self, fold: NoteFold, sieve: NoteSieve | None = None) -> None:
        self.fold = fold
        self.sieve = sieve
        self.held: list[tuple[T, Note]] = []

    def add(self, tag: T, note: Note) -> list[tuple[T, Note]]:
        """Hold ``note``; returns the notes held before it (folded, as one) when it cannot join
        them, else nothing (nor holds ``note`` when the sieve leaves it out)."""
        if self.sieve is not None and not self.sieve(note):
            return []
        out = self.flush() if self.held and self.fold([n for _, n in self.held] + [note]) is None else []
        self.held.append((tag, note))
        return out

    def flush(self) -> list[tuple[T, Note]]:
        """The notes held, as one note tagged with the first one's tag when they fold, else each
        as it is; nothing is held after."""
        held, self.held = self.held, []
        joined = self.fold([n for _, n in held]) if len(held) > 1 else None
        return [(held[0][0], joined)] if joined is not None else held


def replay_lines(
    log: LogFile | LogStream,
    games: Mapping[str, Game],
    show_hands: bool = True,
    reader: Callable[[str], NoteRun[int] | None] | None = None,
) -> Iterator[str]:
    """Lines describing ``log``, a log read whole or a stream (:func:`~engine.protocol.log.stream_log`:
    read as the lines are made, in bounded memory, raising its LogFileError when it reaches a
    corrupt frame); stops with a line naming the first entry the table refuses. ``reader(game)``:
    a fresh :class:`NoteRun` for the game's notes: which it shows, and which runs of consecutive
    notes read as one line (shown with the seq of the run's first entry); None, or a game it gives
    None for: one line per note."""
    table = Table(games, keep=Keep.LAST)
    entries = log.entries if isinstance(log, LogFile) else (entry for entry, _ in log)
    run: NoteRun[int] | None = None  # the notes that may still fold with the next one

    def flush(notes: list[tuple[int, Note]] | None = None) -> Iterator[str]:
        held = notes if notes is not None else run.flush() if run is not None else []
        yield from (f"[{seq:>4}] {n.render(table.names)}" for seq, n in held)

    for entry in entries:
        revealed_before = {ev.number for ev in table.events if ev.cards is not None}
        try:
            notes = table.apply(entry)
        except TableRefusal as err:
            yield from flush()
            yield f"[{entry.seq:>4}] REFUSED ({err.code}): {err.detail}"
            return
        if run is None and reader is not None and table.game_name:
            run = reader(table.game_name)
        steps = describe_entry(table, entry, [] if run is not None else notes)
        if steps:
            yield from flush()
            yield from steps
        if run is not None:
            for note in notes:
                yield from flush(run.add(entry.seq, note))
        revealed = show_hands and any(ev.cards is not None and ev.number not in revealed_before for ev in table.events)
        if revealed or table.fault is not None:
            yield from flush()
        if revealed:
            for ev in table.events:
                if ev.cards is not None and ev.number not in revealed_before:
                    yield from dealt_hands(table, ev.number)
        if table.fault is not None:
            yield f"[{entry.seq:>4}] " + table.fault.describe(table.names)
            return
    yield from flush()
