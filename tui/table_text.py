"""What the shared screens say about a table, whatever its game: the head fingerprint people
compare, the protocol work under way, and who the table waits for.

Pure functions of a read-only :class:`engine.table.Table`; no widgets, so the table screens and
the replay share them and tests can check them without a terminal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.protocol.identity import hex_groups
from engine.table import Table

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
    """Table work under way: ``text`` in words, ``done`` of ``total`` steps; ``known``: whether
    ``total`` comes from an earlier run of the same work (else it is only what is owed so far,
    and grows as the work goes on)."""

    text: str
    done: int
    total: int
    known: bool = True
    brief: str = ""
    """The work named in short, without who does it: "Opening cards (1 of 3)"."""


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

#: What a seat does for each protocol entry it owes, for one seat and for several (PROTOCOL.md 4).
_DUTY_WORDS: dict[str, tuple[str, str]] = {
    "rand-commit": ("commits to a random value", "commit to random values"),
    "rand-reveal": ("reveals a random value", "reveal their random values"),
    "shuffle": ("shuffles the cards and proves it", "shuffle the cards and prove it"),
    "key": ("publishes a key share and proves it", "publish their key shares and prove them"),
    "deck": ("encrypts a private deck", "encrypt their private decks"),
    "share": ("sends decryption shares of cards for the others", "send decryption shares of cards for the others"),
    "reveal": ("opens a private card", "open private cards"),
    "key-reveal": ("publishes its key shares as it leaves", "publish their key shares as they leave"),
    "seed-reveal": ("reveals a shuffle seed, checked by all", "reveal their shuffle seeds, checked by all"),
}


def _who(seats: list[int], names: Sequence[str], me: int | None) -> str:
    """``[2, 0]`` -> ``"Scott and you"``: seat names in a sentence; more than three seats are
    counted against the table's (``"4 of 5 players"``, ``"all 6 players"``)."""
    if len(seats) > 3:  # a 12-seat table's commit round: a count reads better than a roll call
        counted = f"{len(seats)} of {len(names)}" if len(names) > len(seats) else f"all {len(seats)}"
        return f"{counted} players" + (", you among them," if me in seats else "")
    words = ["you" if s == me else (names[s] if 0 <= s < len(names) else f"seat {s}") for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def work_progress(table: Table, memory: dict[Any, int] | None = None, me: int | None = None) -> Progress | None:
    """The protocol work the table is doing now, in words, or None while it waits for a move (or
    does nothing). Built from what any table exposes, whatever its deck protocol: the duties it is
    owed (:meth:`Table.owed`, (seat, entry kind) pairs) and what its game waits for
    (:meth:`Table.pending`'s phrase): "Dealing round 2: Scott shuffles the cards and proves it
    (7 of 24)", the count from the table (:meth:`Table.work_steps`: the entries its work took and
    still needs). ``memory`` (kept by the caller across calls) remembers where each piece of work
    began and how many entries the same work took before (the next deal takes as many), for a
    table that does not count its work: the total is then an estimate that never falls below
    what is left."""
    if table.phase != "running":
        return None
    duties = [(s, str(k)) for s, k in table.owed() if str(k) != "move"]
    if not duties:
        return None
    memory = memory if memory is not None else {}
    pending = table.pending()
    phrase = pending.waiting if pending is not None and pending.waiting else "the table's own work"
    shape = re.sub(r"\d+", "#", phrase)  # "dealing round 3" takes as long as "dealing round 2"
    if ("start", phrase) not in memory:
        memory[("runs", shape)] = memory.get(("runs", shape), 0) + 1
    known = memory.get(("runs", shape), 0) > 1  # an earlier run of this work gave its length
    start = memory.setdefault(("start", phrase), table.seq)
    done = max(table.seq - start, 0)
    total = max(memory.get(("size", shape), 0), done + len(duties))
    if (steps := table.work_steps()) is not None:
        done, total = steps  # the table counts its work: the total is known from the start
        known = True
    memory[("size", shape)] = total
    kind = duties[0][1]
    seats = sorted({s for s, k in duties if k == kind})
    one, many = _DUTY_WORDS.get(kind, (f"sends {kind}", f"send {kind}"))
    if len(seats) == 1 and seats[0] != me:
        doing = f"{_who(seats, table.names, me)} {one}"
    elif seats == [me]:
        doing = f"you {many.replace('their ', 'your ')}"
    else:
        doing = f"{_who(seats, table.names, me)} {many}"
    # A total is shown once it is known: the first time, what is owed grows as each entry makes
    # the next one owed, and "(3 of 4)", "(4 of 5)"… would promise an end that keeps moving.
    count = f"{done} of {total}" if known else f"step {done + 1}"
    what = f"{phrase[:1].upper()}{phrase[1:]}"
    return Progress(f"{what}: {doing} ({count})", done, total, known, f"{what} ({count})")


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
