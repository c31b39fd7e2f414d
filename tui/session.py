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
from typing import Any, Literal, Protocol, runtime_checkable

from engine.games import default_game
from engine.games.base import Act, Note
from engine.table import Table
from net.messages import DEFAULT_PORT

EventKind = Literal["entry", "connection", "presence", "error", "waiting", "closed", "other"]
"""What a :class:`SessionEvent` reports (see there)."""


@dataclass(frozen=True)
class SessionEvent:
    """Something the session wants the screen to know (``net.events`` become these in
    :func:`tui.events.as_session_event`).

    ``kind``:

    - ``"entry"``: entries were folded (``notes``: the narration they produced, in order; ``seq``:
      the seq of the last one);
    - ``"connection"``: the link changed (``text``: a sentence, e.g. "The connection to the table
      at 192.168.1.5:7447 was lost. … Trying again in 2 s (attempt 3)."; ``ok``: connected now or
      not). While the link is down each one replaces the last: a screen shows it in one place;
    - ``"presence"``: another player's connection went or came back (``text``: "Mina
      disconnected." or "Mina is back.");
    - ``"error"``: something went wrong that the player should read (``text``: a sentence), e.g. the
      host refused a move the client found legal, or a peer was caught cheating;
    - ``"waiting"``: the table has waited ``seconds`` for ``seats`` past the time-out (``seats``
      empty: it no longer does); the others may vote to abandon;
    - ``"closed"``: the session ended (the host closed the table, a cheat was proven, or
      :meth:`TableSession.stop`);
    - ``"other"``: nothing a screen shows (``text`` may say what, e.g. "Connecting…").
    """

    kind: EventKind
    text: str = ""
    notes: tuple[Note, ...] = field(default=())
    seq: int = -1
    ok: bool = True
    seats: tuple[int, ...] = ()
    seconds: float = 0.0
    detail: str = ""
    """For ``"connection"``: the cause alone (e.g. "Nothing answers at 127.0.0.1:1: …"), if known."""


Unsubscribe = Callable[[], None]


@runtime_checkable
class TableSession(Protocol):
    """One player's (or spectator's) connection to one table.

    Attributes (read-only for the TUI):

    - ``table``: the :class:`engine.table.Table` folded from every entry received so far;
    - ``seat``: this player's seat number, ``None`` before joining or for a spectator;
    - ``name``: this player's name;
    - ``fingerprint``: the short fingerprint of this player's identity key
      (:func:`engine.protocol.identity.short_fingerprint`, 64 bits);
    - ``log_path``: where this peer stores the table's log (``None``: not stored);
    - ``address``: what friends type to join (``"host:port"``, or a ticket of a table across the
      internet), ``None`` for a table nobody else can join;
    - ``is_host``: this session opened the table (it may add or remove bots and start the game);
    - ``bots``: seat number -> bot level, for the seats the host filled with bots (seats move down
      one when a seat before them is left, so read it again after every entry).

    Optional attributes (read with ``getattr``, defaults in brackets): ``auto_start`` (the host
    starts the game by itself once every seat is taken, so the lobby shows no start key [False];
    a host with a screen waits for :meth:`start_game`), ``can_remove_bots`` [True],
    ``connected_keys`` (the public keys the host says are connected, None while unknown [None]),
    ``routes`` (public key -> how that seat's connection reaches the host, where its transport
    says: "direct, 12 ms", "relayed, 80 ms" [{}]), ``connecting`` (what the link says while it
    opens: "Connecting through the internet…" [None]),
    ``auto_pass`` (the seat makes its game's automatic acts by itself, such as a pass with
    nothing to play; None: this session cannot [None]) with ``set_auto_pass(on: bool)`` to switch
    it ("ask me every time": False); the session does it on its own loop, never through the TUI.

    Every coroutine raises :class:`engine.errors.VampireError` with a sentence for a refusal or a
    failure the player can understand; the TUI shows that sentence and nothing else.
    """

    # Read-only for the TUI: a session may keep them as plain attributes or as properties.
    @property
    def table(self) -> Table: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def name(self) -> str: ...
    @property
    def fingerprint(self) -> str: ...
    @property
    def log_path(self) -> Path | None: ...
    @property
    def address(self) -> str | None: ...
    @property
    def is_host(self) -> bool: ...
    @property
    def bots(self) -> dict[int, str]: ...

    async def start(self) -> None:
        """Connect (and, for a host, open the table and listen). Returns once the session is
        running; later changes arrive through :meth:`subscribe`."""

    async def stop(self) -> None:
        """Disconnect and stop every task the session started. Safe to call twice. A guest
        seated in the lobby gives up its seat first (PROTOCOL.md 4, ``leave``)."""

    def subscribe(self, callback: Callable[[Any], None]) -> Unsubscribe:
        """Call ``callback`` for every event from now on: a :class:`SessionEvent`, or one of
        ``net.events`` (:func:`tui.events.as_session_event` reads both); returns a function that
        ends the subscription."""

    def view(self) -> Any:
        """This seat's view of the game (the game's ``view(seat)`` type), or None before the
        game starts."""

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

    def now_ms(self) -> float:
        """This computer's clock, ms since the epoch, as the session reads the table's waits on it
        (engine.table.waits.WaitClock; PROTOCOL.md 6.5): the clock the stall vote reads."""

    def opened_ms(self) -> float | None:
        """When the host opened the table in the run this session follows (ms since the epoch,
        from its welcome; None: not known), which no wait is counted from before
        (engine.table.waits.WaitClock; PROTOCOL.md 6.5)."""

    def caught_up(self) -> bool:
        """The table holds the host's head as of this session's last welcome: until then the
        waits it shows are of a table folded on the way, long over (PROTOCOL.md 6.5); the
        ``link`` event that says connected comes once it is."""

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

    ``levels``: one bot level per bot seat; ``options``: the game's table rules (typed or str);
    ``brought``: what your seat brings when the game's seats bring something (a deck, read by
    the game's ``SeatKit``); None: one the game ships for bots. ``resume``: the log of such a
    table that stopped before its end, to bring back (``vampire play --resume LOG``; see
    :func:`tui.local_play.resume_spec`): then the log says the rest.
    """

    name: str
    levels: Sequence[str]
    options: dict[str, Any] = field(default_factory=dict)
    game: str = field(default_factory=default_game)
    brought: Any = None
    resume: Path | None = None


@dataclass(frozen=True)
class HostSpec:
    """A table opened on the LAN: ``seats`` in all, ``levels`` bots among them, listening on
    ``bind`` at ``port``."""

    name: str
    seats: int
    levels: Sequence[str] = ()
    options: dict[str, Any] = field(default_factory=dict)
    port: int = DEFAULT_PORT
    game: str = field(default_factory=default_game)
    bind: str = "0.0.0.0"
    """The address to listen on: this machine's LAN address (the home screen's default; "" finds
    it), "127.0.0.1" for this computer only, "0.0.0.0" for every interface."""
    internet: bool = False
    """Also take friends across the internet: the lobby's address is then the table's ticket."""
    relay: str | None = None
    """With ``internet``: the relay as ``vampire host --relay`` takes it (an https URL, or "off":
    none, only the addresses in the ticket); None: n0's public relays."""


@dataclass(frozen=True)
class JoinSpec:
    """A seat at someone else's table: ``address`` is ``host[:port]`` or a ticket; ``pin``: the host key and
    table id (or None) its LAN announcement named, checked against the host (PROTOCOL.md 9)."""

    address: str
    name: str
    pin: tuple[bytes, bytes | None] | None = None


class SessionFactory(Protocol):
    """Makes sessions for the home screen. Each method may raise VampireError with a sentence."""

    def local(self, spec: LocalTableSpec) -> TableSession: ...

    def host(self, spec: HostSpec) -> TableSession: ...

    def join(self, spec: JoinSpec) -> TableSession: ...
