"""A client's events told as lines of text: the front end of a bot, a spectator's text feed and a
headless host (DESIGN.md, "The command line")."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.games import find_game
from engine.games.base import Note
from engine.replay import NoteRun
from tui.files import shell_path, vampire_command

if TYPE_CHECKING:
    from net.client import Client
    from net.events import Connection, Folded, SeatRefused


def _printer() -> Callable[[str], None]:
    """A function printing a line with the time (``[HH:MM:SS] line``), flushed at once."""
    from datetime import datetime

    def say(line: str) -> None:
        print(f"[{datetime.now():%H:%M:%S}] {line}", flush=True)

    return say


def _narrate(client: Client, say: Callable[[str], None], verbose: bool = True) -> None:
    """Print a client's events as lines (the table's notes, connection changes, refusals, stalls,
    fork evidence, the end): the front end of a bot, a spectator's text feed and a headless host."""
    from engine.forks import describe_fork
    from engine.table.lobby import renamed_sentence
    from net.events import Connection, Finished, Folded, Fork, HostFault, Refused, SeatRefused, Silent, Waiting

    link = LinkLines(say)
    told: list[bool] = []  # the seat's name, once it sits: said once
    notes = FeedNotes(client, say)

    def tell_name() -> None:
        t = client.table
        seat = t.seat_of(client.public) if t is not None and not told else None
        if t is None or seat is None:
            return
        told.append(True)
        if sentence := renamed_sentence(client.name, t.seats[seat].name):
            say(sentence)

    def show(event: Any) -> None:
        if isinstance(event, Folded):
            tell_name()
        else:
            notes.flush()  # news of another kind: the passes held come first
        match event:
            case Folded() if verbose:
                notes.show(event)
            case Connection():
                link.show(event)
            case Refused():
                say(f"The host refused this seat's {event.kind} ({event.code}): {event.detail}")
            case SeatRefused():
                say(seat_refusal_sentence(event))
            case Waiting() if event.seats:
                say(f"The table has waited {event.seconds:.0f} s on {', '.join(event.names)}.")
            case Fork():
                ev = event.evidence
                say(
                    f"FORK: {describe_fork(ev)} Head signatures: {ev.first.signature.hex()} and "
                    f"{ev.second.signature.hex()}. This peer stops."
                )
                if event.path is not None:
                    say(
                        f"The evidence is in {event.path}: anyone can check it with `{vampire_command()} audit {shell_path(event.path)}`."
                    )
            case Silent():
                for name, seq in zip(event.names, event.seqs, strict=True):
                    held = f"seq {seq}" if seq >= 0 else "nothing"
                    say(
                        f"{name} has signed no new seen report for a while: the last one holds {held}, "
                        f"the table is at seq {event.head}. Gone, or shown another log by the host."
                    )
            case HostFault():
                say(f"The host misbehaved: {event.detail}")
            case Finished():
                say(event.summary)
                say(f"state digest {event.digest}")

    client.listeners.subscribe(show)


FEED_FOLD_S = 2.0
"""Seconds a text feed holds a run of notes that may still fold (a window's passes) when no other
news comes: then it prints them as they stand, so a table waiting on a person shows them."""


class FeedNotes:
    """The table's notes told in a text feed (``say(line)``), one line per note, but a run that
    the game's front end folds (:attr:`tui.games.FrontEnd.fold`: a window's passes) as one line,
    printed once the next note does not join it, other news comes (:meth:`flush`), or
    :data:`FEED_FOLD_S` seconds pass without any; a note that only repeats what the feed said
    (:attr:`tui.games.FrontEnd.sieve`) is left out."""

    def __init__(self, client: Client, say: Callable[[str], None]) -> None:
        self.client = client
        self.say = say
        self.run: NoteRun[None] | None = None
        self._timer: asyncio.TimerHandle | None = None

    def show(self, event: Folded) -> None:
        """Tell ``event``'s notes (its rendered lines when it brings no game notes)."""
        run = self._run()
        if run is None or len(event.raw_notes) != len(event.notes):
            self.flush()
            for line in event.notes:
                self.say(line)
            return
        for note in event.raw_notes:
            self._say(run.add(None, note))
        if run.held:
            self._later()

    def flush(self) -> None:
        """Tell the notes held now."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.run is not None:
            self._say(self.run.flush())

    def _say(self, held: list[tuple[None, Note]]) -> None:
        t = self.client.table
        names = list(t.names) if t is not None else []
        for _, note in held:
            self.say(note.render(names))

    def _run(self) -> NoteRun[None] | None:
        t = self.client.table
        if self.run is None and t is not None and t.game_name:
            from tui.games import find_front_end

            self.run = find_front_end(t.game_name).note_run()
        return self.run

    def _later(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop to wait in (events fed by hand): held until the next news
            return
        self._timer = loop.call_later(FEED_FOLD_S, self.flush)


class LinkLines:
    """A client's connection, told in lines for a text feed (``say(line)``): one line when it goes
    down, with the first retry's delay; nothing for each failed attempt after it, unless the host
    says it closed the table (news: the host's own reason); one line when it is back or stops,
    counting the attempts and the time down. The TUI keeps one line up to date instead."""

    def __init__(self, say: Callable[[str], None], clock: Callable[[], float] | None = None) -> None:
        import time

        self.say = say
        self.clock = clock or time.monotonic
        self.down_since: float | None = None
        self.attempts = 0
        self.cause: str | None = None

    def show(self, event: Connection) -> None:
        """Tell ``event`` if it is news."""
        if event.state == "disconnected":
            if self.down_since is None or (event.cause == "host-closed" and self.cause != event.cause):
                if self.down_since is None:
                    self.down_since = self.clock()
                    self.attempts = 0
                retry = f"retrying in {event.retry:.1f} s, quietly until it is back" if event.retry else "retrying"
                self.say(f"{event.detail} ({retry})")
                self.cause = event.cause
            else:
                self.attempts += 1
        elif event.state in ("connected", "stopped"):
            self.say(event.detail + self._downtime())
            self.down_since = None
            self.cause = None

    def _downtime(self) -> str:
        if self.down_since is None:
            return ""
        n = self.attempts
        return f" (down {self.clock() - self.down_since:.0f} s; {n} more attempt{'s' if n != 1 else ''})"


def seat_refusal_sentence(event: SeatRefused) -> str:
    """Why a client took no seat (``net.events.SeatRefused``), in a player's words."""
    from net.events import SeatRefusal

    if event.reason in (SeatRefusal.NOT_BY_HAND, SeatRefusal.NO_BOT):
        return str(event.detail)
    if event.reason is SeatRefusal.NEEDS_KIT:
        spec = find_game(event.game)
        if event.detail:  # what was brought could not be read as this game's
            return f"{event.detail}: join with another --deck FILE."
        noun = spec.kit().noun if spec.kit is not None else "deck"
        return f"A {spec.title} table needs a {noun}: join with --deck FILE."
    return "The game has started without this seat: every seat is taken."
