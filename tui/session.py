"""What the TUI needs from a table session (DESIGN.md, "tui/ talks to one session object").

A session is one network client plus one seat (or a spectator). The TUI never opens sockets and
never changes game state: it reads the session's :attr:`~TableSession.table` (a read-only
:class:`engine.table.Table`) and :meth:`~TableSession.view`, and acts only through the coroutine
methods below, which it awaits inside Textual workers. ``net.session.Session`` (one client) and
``net.local`` (a host, bots and one local player in one process over loopback) satisfy this
protocol; the tests use the same shape.

Threading: :meth:`subscribe` callbacks may be called from any thread or task; the TUI only turns
them into Textual messages (``post_message`` is thread-safe) and reads the table on its own loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from engine.games.base import Act, Note
from engine.table import Table


@dataclass(frozen=True)
class SessionEvent:
    """Something the session wants the screen to know.

    ``kind``:

    - ``"entry"``: entries were folded (``notes``: the narration they produced, in order; ``seq``:
      the seq of the last one);
    - ``"connection"``: the link changed (``text``: a sentence, e.g. "Reconnecting to
      192.168.1.5:7447 (attempt 2)"; ``ok``: connected now or not);
    - ``"error"``: something went wrong that the player should read (``text``: a sentence), e.g. the
      host refused a move the client found legal, or a peer was caught cheating;
    - ``"waiting"``: the table has waited ``seconds`` for ``seats`` past the time-out (``seats``
      empty: it no longer does); the others may vote to abandon;
    - ``"closed"``: the session ended (the host closed the table, a cheat was proven, or
      :meth:`TableSession.stop`).
    """

    kind: str
    text: str = ""
    notes: tuple[Note, ...] = field(default=())
    seq: int = -1
    ok: bool = True
    seats: tuple[int, ...] = ()
    seconds: float = 0.0
    detail: str = ""
    """For ``"connection"``: the cause alone (e.g. "Nothing answers at 127.0.0.1:1: …"), if known."""


def as_session_event(event: Any) -> SessionEvent:
    """A :class:`SessionEvent` for whatever a session reports: a SessionEvent itself, or one of
    ``net.events`` (Folded, Connection, Refused, Waiting, Fork, HostFault, Finished, Presence),
    read by their fields so that tui/ does not import net/."""
    if isinstance(event, SessionEvent):
        return event
    kind = type(event).__name__
    if kind == "Folded":
        entry = getattr(event, "entry", None)
        return SessionEvent("entry", notes=tuple(getattr(event, "raw_notes", ())), seq=getattr(entry, "seq", -1))
    if kind == "Connection":
        state = getattr(event, "state", "")
        detail = getattr(event, "detail", "") or ""
        retry = getattr(event, "retry", None)
        words = {
            "connecting": "Connecting to the table…",
            "connected": "Connected to the table.",
            "disconnected": "The connection to the table was lost"
            + (f"; trying again in {retry:.0f} s." if retry else "."),
            "stopped": "The connection to the table is closed.",
        }.get(state, state)
        text = detail if detail and state in ("connecting", "connected") else (f"{words} {detail}" if detail else words)
        if state == "stopped":
            return SessionEvent("closed", text=text, ok=False)
        if state == "connecting":
            return SessionEvent("other", text=text)
        return SessionEvent("connection", text=text, ok=state in ("connected", "connecting"), detail=detail)
    if kind == "Refused":
        detail = getattr(event, "detail", "")
        if getattr(event, "legal", True) and getattr(event, "kind", "") == "move":
            text = f"The host refused a move your table found legal ({getattr(event, 'code', '')}): {detail}"
        else:
            text = f"The host refused it: {detail}"
        return SessionEvent("error", text=text)
    if kind == "Waiting":
        return SessionEvent(
            "waiting", seats=tuple(getattr(event, "seats", ())), seconds=float(getattr(event, "seconds", 0.0))
        )
    if kind == "Fork":
        evidence = getattr(event, "evidence", None)
        text = (
            evidence.describe()
            if evidence is not None and hasattr(evidence, "describe")
            else "two different entries for one seq"
        )
        return SessionEvent("error", text=f"The host cheated: it signed {text}. This table stops.")
    if kind == "HostFault":
        return SessionEvent(
            "error", text=f"The host sent something no honest host sends: {getattr(event, 'detail', '')}"
        )
    if kind == "Finished":
        return SessionEvent("closed", text=getattr(event, "summary", ""))
    return SessionEvent("other")


Unsubscribe = Callable[[], None]


@runtime_checkable
class TableSession(Protocol):
    """One player's (or spectator's) connection to one table.

    Attributes (read-only for the TUI):

    - ``table``: the :class:`engine.table.Table` folded from every entry received so far;
    - ``seat``: this player's seat number, ``None`` before joining or for a spectator;
    - ``name``: this player's name;
    - ``fingerprint``: the short fingerprint of this player's identity key
      (:func:`engine.protocol.identity.fingerprint`);
    - ``log_path``: where this peer stores the table's log (``None``: not stored);
    - ``address``: ``"host:port"`` for friends to join, ``None`` for a table nobody else can join;
    - ``is_host``: this session opened the table (it may add or remove bots and start the game);
    - ``bots``: seat number -> bot level, for the seats the host filled with bots (seats move down
      one when a seat before them is left, so read it again after every entry).

    Optional attributes (read with ``getattr``, defaults in brackets): ``auto_start`` (the host
    starts the game by itself once every seat is taken, so the lobby shows no start key [False];
    a host with a screen waits for :meth:`start_game`), ``can_remove_bots`` [True],
    ``connected_keys`` (the public keys the host says are connected, None while unknown [None]).

    Every coroutine raises :class:`engine.errors.VampireError` with a sentence for a refusal or a
    failure the player can understand; the TUI shows that sentence and nothing else.
    """

    table: Table
    seat: int | None
    name: str
    fingerprint: str
    log_path: Path | None
    address: str | None
    is_host: bool
    bots: dict[int, str]

    async def start(self) -> None:
        """Connect (and, for a host, open the table and listen). Returns once the session is
        running; later changes arrive through :meth:`subscribe`."""

    async def stop(self) -> None:
        """Disconnect and stop every task the session started. Safe to call twice. A guest
        seated in the lobby gives up its seat first (PROTOCOL.md 4, ``leave``)."""

    def subscribe(self, callback: Callable[[SessionEvent], None]) -> Unsubscribe:
        """Call ``callback`` for every :class:`SessionEvent` from now on; returns a function that
        ends the subscription."""

    def view(self) -> Any:
        """This seat's view of the game (``engine.games.queen.QueenView`` for Vampire Queen), or
        None before the game starts."""

    def check_move(self, act: Act) -> None:
        """Check ``act`` against this seat's own copy of the table without sending anything.
        Raises ``engine.games.base.IllegalMove`` with the rule's sentence."""

    async def submit_move(self, act: Act) -> None:
        """Sign and submit ``act`` as this seat's move; returns once the host accepted it.
        Raises VampireError (IllegalMove with the rule's sentence when the act is illegal)."""

    async def chat(self, text: str) -> None:
        """Append a chat line to the table's log."""

    async def vote_abandon(self, seat: int) -> None:
        """Vote to end the wait for ``seat`` (PROTOCOL.md 4, ``abandon``)."""

    # -- host only, in the lobby -----------------------------------------------------------------

    async def add_bot(self, level: str) -> None:
        """Seat a bot of ``level`` ("heuristic" or "random") in the next free seat."""

    async def remove_bot(self, seat: int) -> None:
        """Take the bot in ``seat`` off the table before the game starts: it sends ``leave`` and
        stops, and the seats after it move down one. Only the host's own bots; never a person."""

    async def start_game(self) -> None:
        """Start the game once every seat is taken (the host appends ``start``)."""


@dataclass(frozen=True)
class LocalTableSpec:
    """A table against bots, as chosen on the home screen or by ``vampire play``.

    ``levels``: one bot level per bot seat; ``options``: the game's table rules (typed or str).
    """

    name: str
    levels: Sequence[str]
    options: dict[str, Any] = field(default_factory=dict)
    game: str = "queen"


@dataclass(frozen=True)
class HostSpec:
    """A table opened on the LAN: ``seats`` in all, ``levels`` bots among them."""

    name: str
    seats: int
    levels: Sequence[str] = ()
    options: dict[str, Any] = field(default_factory=dict)
    port: int = 7447
    game: str = "queen"


@dataclass(frozen=True)
class JoinSpec:
    """A seat at someone else's table: ``address`` is ``host[:port]``."""

    address: str
    name: str


class SessionFactory(Protocol):
    """Makes sessions for the home screen. Each method may raise VampireError with a sentence."""

    def local(self, spec: LocalTableSpec) -> TableSession: ...

    def host(self, spec: HostSpec) -> TableSession: ...

    def join(self, spec: JoinSpec) -> TableSession: ...
