"""What a client tells the program above it (the TUI, the CLI, tests): events, and the time-outs
and back-off every peer uses (docs/protocol.md, part 3, "Time-outs").

Events are immutable values delivered in order to each subscriber of a :class:`Listeners`, on the
event loop's thread. They form a closed union, :data:`Event`; each is a :class:`NetEvent`, so a
front end can ``match`` on them. No event carries a secret: a seat's own cards are in its view, not
here, and no event carries a sentence of the network layer's own making for a person to read about
a game: the front end words them (a :class:`SeatRefused` says why, as a :class:`SeatRefusal`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from engine.games.base import Note
from engine.protocol.log import Entry, ForkEvidence

log = logging.getLogger("vampire.net")


@dataclass(frozen=True)
class Timeouts:
    """Time-outs in seconds, sizes in bytes, rates in frames per second.

    ``hello``: a new connection must say hello within it; ``idle``: a connection that carries no
    frame for this long is dead (each side pings every ``ping``); ``body``: a frame's bytes must
    arrive within it once its length is read; ``write``: a peer must read what it is sent within
    it; ``connect``: to open a TCP connection; ``max_queued``: bytes waiting for one slow reader
    before it is dropped; ``rate``/``burst``: frames a peer may send per second, and at once.
    """

    hello: float = 10.0
    idle: float = 30.0
    body: float = 30.0
    write: float = 30.0
    ping: float = 5.0
    connect: float = 10.0
    max_queued: int = 64 * 1024 * 1024
    rate: float = 200.0
    burst: int = 400


@dataclass(frozen=True)
class Backoff:
    """Reconnection delays: ``first`` seconds, doubled after each failed attempt up to ``most``,
    each drawn within +-``jitter`` (a fraction) of its value."""

    first: float = 0.25
    most: float = 5.0
    jitter: float = 0.2


class LinkState(StrEnum):
    """Where a client's connection to its host stands (a str, so ``state == "connected"`` holds)."""

    IDLE = "idle"
    """Not started."""
    CONNECTING = "connecting"
    """Opening the TCP connection and saying hello."""
    CONNECTED = "connected"
    """Welcomed and caught up with the host's head."""
    DISCONNECTED = "disconnected"
    """The connection dropped; the client tries again after a back-off."""
    STOPPED = "stopped"
    """For good: the table is over, the client stopped, or reconnecting cannot help."""


class LinkCause(StrEnum):
    """Why a client's connection went down (a :class:`Connection` in ``disconnected``), so that a
    front end can tell what calls for a word from what only calls for patience."""

    REFUSED = "refused"
    """Nothing listens at the address: the TCP connection was refused (no table open there, or not
    any more)."""
    HOST_CLOSED = "host-closed"
    """The host said ``bye`` with the code ``done`` (PROTOCOL.md 7): it closed the table on
    purpose; the :class:`Connection`'s ``detail`` is the host's own reason, a sentence from the
    wire (show it as plain text)."""
    LOST = "lost"
    """Anything else: the connection dropped, went silent, timed out or broke the framing."""


class SeatRefusal(StrEnum):
    """Why a client took no seat at a table by itself, before sending a `join`."""

    NOT_BY_HAND = "not-by-hand"
    """The front end's ``may_sit`` refused this game for a person (it cannot be played by hand
    here): a person would take a seat and stall the table."""
    NEEDS_KIT = "needs-kit"
    """The game asks each seat to bring something (the game's ``SeatKit``: a deck) and this seat
    brings nothing."""
    GAME_STARTED = "game-started"
    """The game started without this seat: every seat is taken."""
    NO_BOT = "no-bot"
    """The bot asked to play this seat has no level of that name in this table's game (the
    detail is the game's sentence): it would take a seat and stall at its first turn."""


class NetEvent:
    """The base of every event a client or host emits (see :data:`Event` for the closed union)."""

    __slots__ = ()


@dataclass(frozen=True)
class Folded(NetEvent):
    """An entry was checked, written to this peer's log and folded. ``notes``: its narration,
    rendered with the seat names; ``seat``: the author's seat (None: the host or a stranger);
    ``raw_notes``: the same narration as the game's notes."""

    entry: Entry
    notes: tuple[str, ...]
    seat: int | None
    raw_notes: tuple[Note, ...] = ()


@dataclass(frozen=True)
class Connection(NetEvent):
    """The connection changed: ``state`` (see :class:`LinkState`; ``disconnected`` will retry in
    ``retry`` seconds); ``detail``: why, as a sentence about the connection; ``cause``: for
    ``disconnected``, why in a word (:class:`LinkCause`), None for the other states."""

    state: LinkState
    detail: str = ""
    retry: float | None = None
    cause: LinkCause | None = None


@dataclass(frozen=True)
class Refused(NetEvent):
    """The host refused an entry of this seat with a code other than ``stale``. ``kind``: the
    entry's kind; ``code``: the host's rejection code (PROTOCOL.md 3); ``detail``: the host's
    sentence; ``legal``: whether this peer's own table found it legal (then the host refuses a
    legal move: PROTOCOL.md 3)."""

    kind: str
    code: str
    detail: str
    legal: bool = True


@dataclass(frozen=True)
class SeatRefused(NetEvent):
    """This client sent no `join` and takes no seat at this table: ``reason`` says why, ``game``
    names the table's game (for the front end to ask the registry what the game is called, and
    what a seat brings), ``detail``: the front end's own sentence for ``NOT_BY_HAND`` (what its
    ``may_sit`` answered), else empty."""

    reason: SeatRefusal
    game: str
    detail: str = ""


@dataclass(frozen=True)
class Waiting(NetEvent):
    """The table has waited ``seconds`` for ``seats`` (seat numbers; ``names`` theirs) without a new
    entry (``seats`` empty: it no longer waits on anyone past the time-out)."""

    seats: tuple[int, ...]
    names: tuple[str, ...]
    seconds: float


@dataclass(frozen=True)
class Fork(NetEvent):
    """The host signed two different entries for one seq: ``evidence`` holds both head
    signatures (PROTOCOL.md 3); ``path`` is the evidence file written beside this peer's log
    (``*.vtfork``, None when it keeps no files). This peer stops."""

    evidence: ForkEvidence
    path: Path | None = None


@dataclass(frozen=True)
class HostFault(NetEvent):
    """The host sent what no honest host sends (an entry that does not verify, a bad head
    signature, a log shorter than ours); this peer stops. ``detail``: a sentence."""

    detail: str


@dataclass(frozen=True)
class Finished(NetEvent):
    """The table is over for this peer: ``ended`` (the host's `end` entry) or stopped by a proven
    cheat; ``summary`` says how (the game's result or the table's fault), ``digest`` is the state
    digest (hex) peers compare."""

    summary: str
    digest: str


@dataclass(frozen=True)
class Presence(NetEvent):
    """Players connected to the host now (public keys; a player not seated yet may be among them).

    A client emits it when the players the host relays in its pings change (PROTOCOL.md 7; the
    host pings every peer at once when one connects or goes); a :class:`net.host.Host` emits it on
    its own listeners the moment a player's connection is welcomed or lost, so a front end beside
    the host says "Mina disconnected" without waiting for a ping."""

    keys: tuple[bytes, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Silent(NetEvent):
    """Seated players whose signed seen reports stopped advancing (PROTOCOL.md 3, 7): their
    latest report, relayed by the host or heard on the LAN, has stayed behind this peer's head
    for a while. Either they are gone, or the host is showing them another log and hiding their
    reports. ``seats``, ``names``: who (empty: nobody any more); ``seqs``: the last seq each
    signed (-1: none heard); ``head``: this peer's head seq."""

    seats: tuple[int, ...]
    names: tuple[str, ...]
    seqs: tuple[int, ...]
    head: int


Event = Folded | Connection | Refused | SeatRefused | Waiting | Fork | HostFault | Finished | Presence | Silent
"""Every event a :class:`Listeners` of the network layer delivers."""

Subscriber = Callable[[Event], None]


class Listeners:
    """Subscribers to a stream of events; a subscriber that raises is logged and kept."""

    def __init__(self) -> None:
        self._subs: list[Subscriber] = []

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback(event)`` for every later event; returns the function that unsubscribes."""
        self._subs.append(callback)

        def unsubscribe() -> None:
            if callback in self._subs:
                self._subs.remove(callback)

        return unsubscribe

    def emit(self, event: Event) -> None:
        """Give ``event`` to every subscriber, in subscription order."""
        for callback in list(self._subs):
            try:
                callback(event)
            except Exception:
                log.exception("an event subscriber failed on %r", type(event).__name__)
