"""What the shared screens say about a table, whatever its game: the head fingerprint people
compare, the protocol work under way, and who the table waits for.

Pure functions of a read-only :class:`engine.table.Table`; no widgets, so the table screens and
the replay share them and tests can check them without a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.protocol.identity import hex_groups
from engine.table import Table
from engine.table.work import DrawWork, RevealWork, SeedsWork, ShareWork, ShuffleWork

# --- the fingerprint players compare ------------------------------------------------------------


def short_hex(data: bytes) -> str:
    """The first 64 bits of ``data`` in four hex groups, like key fingerprints (PROTOCOL.md 8):
    ``"1a2b-3c4d-5e6f-7a8b"``."""
    return hex_groups(data)


def head_text(table: Table) -> str:
    """The table's head for people in one room to compare: ``"#74 1a2b-3c4d-5e6f-7a8b"``."""
    if not table.entries:
        return "no entries yet"
    return f"#{table.seq - 1} {short_hex(table.head)}"


# --- table work and waiting ---------------------------------------------------------------------


@dataclass(frozen=True)
class Progress:
    """Table work under way: ``text`` in words, ``done`` of ``total`` steps."""

    text: str
    done: int
    total: int


_WORK_WORDS = {
    "rand-commit": "commits to a random value",
    "rand-reveal": "reveals a random value",
    "key": "publishes a key share",
    "deck": "encrypts a deck",
    "shuffle": "shuffles",
    "share": "shares cards",
    "reveal": "reveals cards",
    "key-reveal": "reveals a key share",
    "seed-reveal": "reveals a shuffle seed",
    "move": "plays",
}


def work_progress(table: Table, totals: dict[int, int] | None = None) -> Progress | None:
    """The protocol work the table is doing now (drawing the dealer, shuffling, dealing, revealing
    the round's hands), or None while it waits for a move. ``totals`` remembers, per work object,
    how many share entries it started with (they are consumed as they arrive, in parallel)."""
    w = table.work
    if w is None or table.phase != "running":
        return None
    names = table.names
    state = table.gstate
    rnd = getattr(state, "round", 0)
    match w:
        case DrawWork():
            n = len(table.active_seats())
            done = len(w.commits) + len(w.reveals)
            purpose = w.purpose.split("/", 1)[0]
            what = "Drawing the first dealer" if purpose == "dealer" else f"Drawing at random ({purpose})"
            return Progress(f"{what}: {done} of {2 * n} steps", done, 2 * n)
        case ShuffleWork():
            ev = table.events[w.event]
            keys = len(ev.order) if ev.own_keys else 0
            deck = 1 if ev.needs_deck else 0
            total = keys + deck + len(ev.shufflers)
            done = len(ev.keys) + (1 if ev.needs_deck and ev.deck_seq is not None else 0) + len(ev.shuffles)
            owed = table.owed()
            if not owed:
                return Progress(f"Shuffling round {rnd}" if rnd else "Shuffling", total, total)
            seat, kind = owed[0]
            step = {"key": "key share", "deck": "deck", "shuffle": "proven shuffle"}.get(kind, kind)
            shuffling = f"Shuffling round {rnd}" if rnd else "Shuffling"  # a game without rounds has 0
            return Progress(f"{shuffling}: {names[seat]}'s {step} ({done + 1} of {total})", done, total)
        case ShareWork() | RevealWork():
            left = len(table.owed())
            key = id(w)
            if totals is not None:
                totals[key] = max(totals.get(key, 0), left)
                total = totals[key]
            else:
                total = left
            done = total - left
            who = ", ".join(names[s] for s in table.waiting_on())
            if isinstance(w, ShareWork):
                dealing = f"Dealing round {rnd}" if rnd else "Dealing cards"  # a game without rounds has 0
                return Progress(f"{dealing}: waiting for {who} ({done} of {total} shared)", done, total)
            return Progress(f"Opening cards: waiting for {who} ({done} of {total})", done, total)
        case SeedsWork():
            ev = table.events[w.event]
            total = len(ev.order)
            done = total - len(w.waiting)
            if w.purpose == "complaint":
                return Progress(f"A complaint: every seed is revealed ({done} of {total})", done, total)
            hands = f"the hands of round {rnd}" if rnd else "the hidden cards"
            return Progress(f"Revealing {hands}: seeds {done} of {total}", done, total)
    return None


def waiting_text(table: Table, me: int | None) -> str:
    """Who the table waits for, by name: "Waiting for Scott to play." / "Your turn." / ""."""
    if table.phase == "new":
        return "Opening the table…"
    if table.phase == "lobby":
        return f"Waiting for players: {len(table.seats)} of {table.nseats} seats taken."
    if table.phase == "stopped":
        return "The table has stopped."
    if table.phase != "running":
        return ""
    owed = table.owed()
    if not owed:
        return ""
    names = table.names
    kinds: dict[int, str] = {}  # seat -> the first kind it owes
    for seat, owed_kind in owed:
        kinds.setdefault(seat, owed_kind)
    if me in kinds and kinds[me] == "move":
        return "Your turn."
    parts = []
    for seat, what in kinds.items():
        who = "you" if seat == me else names[seat]
        parts.append(f"{who} ({_WORK_WORDS.get(what, what)})" if what != "move" else who)
    if len(kinds) == 1:
        ((s, kind),) = kinds.items()
        who = "you" if s == me else names[s]
        if kind == "move":
            return f"Waiting for {who} to play."
        return f"Waiting for {who}: {who} {_WORK_WORDS.get(kind, kind)}."
    return "Waiting for " + ", ".join(parts) + "."
