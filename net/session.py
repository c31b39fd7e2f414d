"""A session: one client and its seat, the one object the TUI talks to (DESIGN.md, "tui/").

The TUI never opens sockets and never touches the table directly: it starts a :class:`Session`,
subscribes to its events (:mod:`net.events`), reads :meth:`Session.view`, and calls
:meth:`Session.submit_move`, :meth:`Session.chat`, :meth:`Session.vote_abandon` and, in the lobby,
:meth:`Session.leave`. Everything runs on the asyncio loop of the caller (a Textual worker, say);
no Textual import here.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.errors import VampireError
from engine.games.base import Act
from engine.games.spec import Bot
from engine.protocol.identity import short_fingerprint
from engine.protocol.log import Entry
from engine.table import Table
from net.client import Client
from net.driver import BotFactory, Liveness, MaySit, Seating
from net.errors import ClientError
from net.events import Backoff, Event, LinkState, Timeouts
from net.link import Dialer
from net.store import Store


class SessionError(VampireError):
    """Something the player asked for that cannot be done now (a sentence to show)."""


class Session:
    """One seat (or a spectator's place) at a table over the network.

    Build it with :meth:`connect`, or around an existing :class:`~net.client.Client`. Events:
    :meth:`subscribe` (a callback per event) or :meth:`events` (an async iterator). Events are the
    closed union :data:`net.events.Event`: :class:`~net.events.Folded` (an entry was verified,
    stored and folded; its rendered notes), :class:`~net.events.Connection`,
    :class:`~net.events.Refused` (the host refused an entry), :class:`~net.events.SeatRefused` (this
    peer took no seat, and why), :class:`~net.events.Waiting` ("the table waits on seat X"),
    :class:`~net.events.Fork`, :class:`~net.events.HostFault`, :class:`~net.events.Finished` and
    :class:`~net.events.Presence`.
    """

    def __init__(self, client: Client) -> None:
        self.client = client

    @classmethod
    def connect(
        cls,
        address: tuple[str, int],
        key: Ed25519PrivateKey,
        *,
        name: str,
        spectate: bool = False,
        store: Store | None = None,
        bot: Bot | BotFactory | None = None,
        brought: Any = None,
        may_sit: MaySit | None = None,
        timeouts: Timeouts = Timeouts(),
        backoff: Backoff = Backoff(),
        stall_after: float = 30.0,
        abandon_after: float | None = None,
        games: Mapping[str, Any] | None = None,
        facts: Mapping[str, str] | None = None,
        lan: bool = False,
        pin: tuple[bytes, bytes | None] | None = None,
        dialer: Dialer | None = None,
    ) -> Session:
        """A session for ``key`` at the host ``address`` (host, port); call :meth:`start` next.
        ``store`` defaults to one log and secrets file per table in the user's data directory;
        ``bot``, ``brought``, ``may_sit``, ``facts``: see :class:`~net.driver.Seating`; ``stall_after``,
        ``abandon_after``: see :class:`~net.driver.Liveness`; ``lan``: also exchange seen reports
        directly on the LAN; ``pin``: the host key and table id a LAN announcement named (see
        :class:`~net.client.Client`); ``dialer``: how to reach the host other than by TCP
        (:class:`~net.link.Dialer`)."""
        client = Client(
            address,
            key,
            name=name,
            role="spectator" if spectate else "player",
            games=games,
            store=store if store is not None else Store.per_table(),
            seating=Seating(bot=bot, brought=brought, may_sit=may_sit, facts=facts or {}),
            timeouts=timeouts,
            backoff=backoff,
            liveness=Liveness(stall_after=stall_after, abandon_after=abandon_after),
            stop_when_over=False,
            lan=lan,
            pin=pin,
            dialer=dialer,
        )
        return cls(client)

    # -- lifecycle ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start connecting (in the background). Raises ClientError/LogError for unusable files."""
        await self.client.start()

    async def stop(self) -> None:
        """Leave: say bye, close the connection and the files."""
        await self.client.stop()

    async def wait_connected(self, timeout: float) -> None:
        """Wait until welcomed and caught up. Raises SessionError after ``timeout`` seconds or when
        the client stopped for good."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        event = asyncio.Event()
        unsubscribe = self.subscribe(lambda _e: event.set())
        try:
            while not self.client.connected:
                if self.client.finished.is_set():
                    raise SessionError(self.client.failure or "The session is over.")
                left = deadline - loop.time()
                if left <= 0:
                    raise SessionError(f"Could not reach the table within {timeout:g} s.")
                event.clear()
                try:
                    await asyncio.wait_for(event.wait(), left)
                except TimeoutError:
                    pass
        finally:
            unsubscribe()

    # -- events ---------------------------------------------------------------------------------

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        """Call ``callback(event)`` for every later event, on the loop's thread. Returns the
        function that unsubscribes."""
        return self.client.listeners.subscribe(callback)

    async def events(self) -> AsyncIterator[Event]:
        """Every later event, in order, until the session stops."""
        queue: asyncio.Queue[Event] = asyncio.Queue()
        unsubscribe = self.subscribe(queue.put_nowait)
        try:
            while True:
                getter = asyncio.ensure_future(queue.get())
                done_waiter = asyncio.ensure_future(self.client.finished.wait())
                done, _ = await asyncio.wait({getter, done_waiter}, return_when=asyncio.FIRST_COMPLETED)
                if getter in done:
                    done_waiter.cancel()
                    yield getter.result()
                    continue
                getter.cancel()
                while not queue.empty():
                    yield queue.get_nowait()
                return
        finally:
            unsubscribe()

    # -- reading --------------------------------------------------------------------------------

    @property
    def seat(self) -> int | None:
        """This session's seat number, or None (a spectator, or not seated yet)."""
        return self.client.seat.index if self.client.seat is not None else None

    @property
    def table(self) -> Table | None:
        """The session's own table state (read only), or None before the host named the table."""
        return self.client.table

    @property
    def names(self) -> list[str]:
        """The seated players' names, in seat order."""
        t = self.table
        return t.names if t is not None else []

    @property
    def connection(self) -> LinkState:
        """``idle``, ``connecting``, ``connected``, ``disconnected`` or ``stopped`` (a str enum)."""
        return self.client.state

    @property
    def log_path(self) -> Path | None:
        """Where this peer's copy of the log is kept (None: memory only, or not yet known)."""
        return self.client.log_path

    @property
    def head_fingerprint(self) -> str:
        """The fingerprint of the table's head (``"ab12-cd34-ef56-7890"``): peers in sync show the
        same one."""
        t = self.table
        return short_fingerprint(t.head) if t is not None else "----"

    @property
    def key_fingerprint(self) -> str:
        """The short fingerprint of this session's identity key."""
        return short_fingerprint(self.client.public)

    def view(self) -> Any:
        """What this seat may know (the game's view; a spectator's has no hidden card), or None
        before the game started."""
        return self.client.seat.view() if self.client.seat is not None else None

    def legal_acts(self) -> list[Act]:
        """The acts this seat may make now (empty when it is not its turn)."""
        seat = self.client.seat
        if seat is None or seat.index is None or (seat.index, "move") not in seat.table.owed():
            return []
        return seat.legal_acts()

    def waiting_on(self) -> list[int]:
        """The seats the table waits for now."""
        t = self.table
        return t.waiting_on() if t is not None else []

    # -- acting ---------------------------------------------------------------------------------

    async def submit_move(self, act: Act) -> Entry:
        """Play ``act`` (a game act map). Checked against this seat's own table first
        (PROTOCOL.md 3): raises IllegalMove with the rule's sentence, SessionError when it is not
        this seat's turn, HostRefused when the host refuses a legal move. Returns the entry once
        folded."""
        seat = self.client.seat
        if seat is None or seat.index is None:
            raise SessionError("You hold no seat at this table.")
        if (seat.index, "move") not in seat.table.owed():
            raise SessionError("It is not your turn.")
        seat.check_move(act)
        return await self.client.submit("move", act)

    async def chat(self, text: str) -> Entry:
        """Say ``text`` (1 to 500 printable characters) to the table. Raises SessionError,
        HostRefused."""
        text = text.strip()
        if not 0 < len(text) <= 500 or not text.isprintable():
            raise SessionError("A chat line is 1 to 500 printable characters.")
        if self.seat is None:
            raise SessionError("Only seated players can chat.")
        return await self.client.submit("chat", text)

    async def leave(self) -> Entry:
        """Give up this seat before the game starts (PROTOCOL.md 4, `leave`): the seat is freed for
        someone else, the seats after it move down one, and this session stops. Raises
        SessionError when this session holds no seat or the table refuses (the game has started:
        the sentence says so), HostRefused. Returns the `leave` entry."""
        if self.seat is None:
            raise SessionError("You hold no seat at this table.")
        try:
            return await self.client.leave()
        except ClientError as err:
            raise SessionError(str(err)) from None

    def now_ms(self) -> float:
        """This computer's clock (ms since the epoch) the table's waits are read on: the clock
        the seat's stall votes read (``Liveness.clock``)."""
        return self.client.driver.liveness.clock()

    def opened_ms(self) -> float | None:
        """When the host opened the table in the run this session follows (ms since the epoch,
        its welcome's; None: not yet welcomed): no wait is counted from before it."""
        return self.client.replica.opened

    def caught_up(self) -> bool:
        """This peer holds the host's head as of its last welcome (False while it catches up, and
        from a lost connection until it has caught up again): the waits of the tables it folds on
        the way are over (PROTOCOL.md 6.5). The ``connected`` link state is emitted the moment it
        becomes True (:meth:`wait_connected` waits for it)."""
        return self.client.replica.caught_up

    async def vote_abandon(self, seat: int) -> Entry:
        """Vote to stop waiting for ``seat`` (PROTOCOL.md 6, "When a seat stalls"); when every
        other seat voted, it is recorded as having abandoned. Raises SessionError, HostRefused."""
        t = self.table
        if self.seat is None or t is None:
            raise SessionError("You hold no seat at this table.")
        if seat == self.seat or seat not in t.waiting_on():
            raise SessionError(f"Seat {seat} does not owe the table anything now.")
        return await self.client.submit("abandon", seat)
