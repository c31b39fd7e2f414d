"""The network layer's events (:mod:`net.events`) as the :class:`tui.session.SessionEvent`
the screens read, dispatched on their types.

Kept apart from :mod:`tui.session` so that the commands that only describe sessions (``vampire
play`` building a :class:`tui.session.LocalTableSpec`) do not load the network layer.
"""

from __future__ import annotations

from net.events import Connection, Event, Finished, Folded, Fork, HostFault, Refused, Waiting
from tui.session import SessionEvent

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
        case Fork(evidence=evidence):
            return SessionEvent("error", text=f"The host cheated: it signed {evidence.describe()}. This table stops.")
        case HostFault(detail=detail):
            return SessionEvent("error", text=f"The host sent something no honest host sends: {detail}")
        case Finished(summary=summary):
            return SessionEvent("closed", text=summary)
    return SessionEvent("other")
