"""The network layer's events (:mod:`net.events`) as the :class:`tui.session.SessionEvent`
the screens read, dispatched on their types; :class:`LinkWatch` and :class:`PresenceWatch` keep
what a session needs to say one sentence about its own link, kept up to date, and "Mina
disconnected" / "Mina is back" about the others.

Kept apart from :mod:`tui.session` so that the commands that only describe sessions (``vampire
play`` building a :class:`tui.session.LocalTableSpec`) do not load the network layer.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from engine.forks import describe_fork
from engine.table import Table
from net.events import (
    Connection,
    Event,
    Finished,
    Folded,
    Fork,
    HostFault,
    LinkCause,
    Refused,
    SeatRefusal,
    SeatRefused,
    Silent,
    Waiting,
)
from tui.errors import sentence
from tui.files import vampire_command
from tui.session import SessionEvent

HOST_CLOSED = "The host closed the table."
"""What a guest reads once its host said ``bye`` with the code ``done``."""

_CONNECTION_WORDS = {
    "connecting": "Connecting to the table…",
    "connected": "Connected to the table.",
    "stopped": "The connection to the table is closed.",
}


def _connection(event: Connection) -> SessionEvent:
    state, detail = event.state, event.detail or ""
    if state == "disconnected":
        words = "The connection to the table was lost" + (
            f"; trying again in {event.retry:.0f} s." if event.retry else "."
        )
    else:
        words = _CONNECTION_WORDS.get(state, state)
    text = detail if detail and state in ("connecting", "connected") else (f"{words} {detail}" if detail else words)
    if state == "stopped":
        return SessionEvent("closed", text=text, ok=False)
    if state == "connecting":
        return SessionEvent("other", text=text)
    return SessionEvent("connection", text=text, ok=state == "connected", detail=detail)


def as_session_event(event: SessionEvent | Event) -> SessionEvent:
    """A :class:`SessionEvent` for whatever a session reports: a SessionEvent itself, or one of
    :mod:`net.events` (a Presence, and anything else no screen shows, becomes ``"other"``)."""
    match event:
        case SessionEvent():
            return event
        case Folded(entry=entry, raw_notes=notes):
            return SessionEvent("entry", notes=tuple(notes), seq=entry.seq)
        case Connection():
            return _connection(event)
        case Refused(kind=kind, code=code, detail=detail, legal=legal):
            if legal and kind == "move":
                return SessionEvent("error", text=f"The host refused a move your table found legal ({code}): {detail}")
            return SessionEvent("error", text=f"The host refused it: {detail}")
        case Waiting(seats=seats, seconds=seconds):
            return SessionEvent("waiting", seats=tuple(seats), seconds=float(seconds))
        case Fork(evidence=evidence, path=path):
            kept = f" The proof is in {path} ({vampire_command()} audit checks it)." if path is not None else ""
            return SessionEvent("error", text=f"The host cheated. {describe_fork(evidence)} This table stops.{kept}")
        case Silent(names=names) if names:
            return SessionEvent(
                "error",
                text=f"No new signed report from {', '.join(names)} for a while: gone, or shown another log by the host.",
            )
        case HostFault(detail=detail):
            return SessionEvent("error", text=f"The host sent something no honest host sends: {detail}")
        case SeatRefused(reason=SeatRefusal.NEEDS_KIT, detail=detail) if detail:
            # What the seat brought, read as this table's rules read it, is refused: say why.
            return SessionEvent("error", text=f"{detail}: choose another deck with d.")
        case Finished(summary=summary):
            return SessionEvent("closed", text=summary)
    return SessionEvent("other")


class LinkWatch:
    """One guest's link, as the one sentence its screens show while it is down.

    Fed every :class:`~net.events.Connection` of the session (:meth:`event`), it gives the
    :class:`SessionEvent` to forward: while the link is down, a ``"connection"`` event whose
    ``text`` replaces the last one (the screens show it in one place; they do not pile up a
    notice per attempt). ``address``: ``"host:port"``, for the sentences.

    The host closing the table (:attr:`net.events.LinkCause.HOST_CLOSED`) is said once and then
    kept: the attempts after it (refused while the host is gone) do not change the sentence, and
    the link keeps trying quietly, so that a table the host opens again (``vampire host --resume``)
    takes its guests back.
    """

    def __init__(self, address: str | None) -> None:
        self.address = address
        self.ever_connected = False
        self.attempts = 0
        """Attempts that failed since the link was last up."""
        self.host_closed: str | None = None
        """The host's reason, once it closed the table (None: it has not)."""

    def event(self, event: Connection) -> SessionEvent:
        """The SessionEvent to forward for ``event`` (``"other"`` for the routine states)."""
        if event.state == "connected":
            back = self.attempts > 0 or self.host_closed is not None
            self.ever_connected, self.attempts, self.host_closed = True, 0, None
            where = f" at {self.address}" if self.address else ""
            return SessionEvent(
                "connection", text=f"Connected to the table{where} again." if back else "Connected to the table."
            )
        if event.state != "disconnected":
            return as_session_event(event)
        self.attempts += 1
        if event.cause == LinkCause.HOST_CLOSED:
            self.host_closed = event.detail
        if self.host_closed is not None:
            return SessionEvent("connection", text=self.closed_text(), ok=False, detail=self.host_closed)
        where = f" at {self.address}" if self.address else ""
        lead = "The connection to the table{} was lost." if self.ever_connected else "Could not connect to the table{}."
        lead = lead.format(where)
        cause = f" {sentence(event.detail)}" if event.detail else ""
        retry = f" Trying again in {max(event.retry, 1.0):.0f} s" if event.retry is not None else " Trying again"
        text = f"{lead}{cause}{retry} (attempt {self.attempts + 1})."
        return SessionEvent("connection", text=text, ok=False, detail=event.detail)

    def closed_text(self) -> str:
        """The sentence for a table its host closed: the host's reason when it gives another."""
        reason = sentence(self.host_closed or "")
        said = f" It said: {reason}" if reason and reason != HOST_CLOSED else ""
        return f"{HOST_CLOSED}{said} You are back at it if the host opens it again."


class PresenceChange(NamedTuple):
    """A seated player whose connection went (``back`` False) or came back (``back`` True)."""

    name: str
    back: bool

    @property
    def text(self) -> str:
        """The sentence: "Mina left the table (and can come back)." or "Mina is back."."""
        return f"{self.name} is back." if self.back else f"{self.name} left the table (and can come back)."


class PresenceWatch:
    """The players connected to the host, as sentences: "Mina left the table (and can come
    back)." the moment her
    connection goes, "Mina is back." when it returns.

    Fed every :class:`~net.events.Presence` (:meth:`update`). Only seated players other than
    ``me`` (a public key) are named, only while the game is in its lobby or running, and "is back"
    only after "disconnected": players who have not joined yet, a seat that left, and everyone
    going at the end are not news. The first set seen is the baseline.
    """

    def __init__(self, me: bytes | None = None) -> None:
        self.me = me
        self._known: frozenset[bytes] | None = None
        self._away: set[bytes] = set()

    def update(self, keys: Collection[bytes], table: Table) -> list[PresenceChange]:
        """Who went or came back, now that the players connected are ``keys`` (named from
        ``table``, in seat order)."""
        now = frozenset(keys)
        before, self._known = self._known, now
        if before is None or table.phase not in ("lobby", "running"):
            return []
        out = []
        for index, seat in enumerate(table.seats):
            if seat.key == self.me or index in table.abandoned:
                continue
            if seat.key in before and seat.key not in now:
                self._away.add(seat.key)
                out.append(PresenceChange(seat.name, back=False))
            elif seat.key in self._away and seat.key in now:
                self._away.discard(seat.key)
                out.append(PresenceChange(seat.name, back=True))
        return out
