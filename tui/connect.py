"""The sessions the app opens: the network layer's (``net/``), behind :class:`tui.session.TableSession`.

This module is the only place in tui/ that knows how ``net`` builds tables, clients and bots; the
screens see only the protocol. Every session here runs on the app's asyncio loop (the Textual
loop), and the app starts it inside a worker.

- :class:`NetSession` adapts one ``net.session.Session`` (a client and its seat): what ``vampire
  join`` and ``vampire host`` hand to :func:`tui.run_session`;
- :class:`LocalPlay` is ``vampire play``: a host, bots and you in this process over loopback TCP
  (``net.local.open_local_table``);
- :class:`HostedTable` is "Host a table" on the home screen: a host listening on the LAN, your seat,
  and bots the lobby adds.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.errors import VampireError
from engine.games import find_game
from engine.games.base import Act, IllegalMove
from engine.protocol.identity import short_fingerprint
from engine.seat import now_ms
from engine.table import Table
from net.events import Connection, LinkCause, LinkState, Listeners, Presence, SeatRefusal, SeatRefused
from tui.events import LinkWatch, PresenceWatch
from tui.session import HostSpec, JoinSpec, LocalTableSpec, SessionEvent


class StartFailed(VampireError):
    """A guest's table cannot be reached at all: its address names no computer, or nothing
    listens there. The message is the network layer's sentence, the one ``vampire join`` prints."""


def _why_no_seat(game: str) -> str | None:
    """Why a person cannot take a seat at a ``game`` table from this app, or None."""
    from tui.games import find_front_end

    return find_front_end(game).may_sit


def _games() -> Any:
    from engine.games import all_rules

    return all_rules()


class NetSession:
    """A :class:`tui.session.TableSession` over a ``net.session.Session`` (set by :meth:`attach`;
    subclasses create it in :meth:`start`).

    ``is_host``: this program runs the table's host (it may seat and remove bots); ``address``:
    what friends type to join, None for a table nobody else can join; ``host``: the
    ``net.host.Host`` running in this process on the app's loop (its lobby starts the game), None
    when the table is someone else's.

    What it reports (:meth:`subscribe`): the network layer's events, except that a
    :class:`~net.events.Connection` becomes the :class:`~tui.session.SessionEvent` of a
    :class:`~tui.events.LinkWatch` (one sentence, kept up to date, while the link is down), and
    each change of the players connected adds a ``"presence"`` event ("Mina disconnected.", "Mina
    is back."): told at once by the host when it runs here, else by the host's pings."""

    LEAVE_TIMEOUT = 5.0
    """Seconds a seat waits for its `leave` to be taken when it quits the lobby."""

    def __init__(self, name: str, *, is_host: bool = False, address: str | None = None, host: Any = None) -> None:
        self.name = name
        self.is_host = is_host
        self.address = address
        self.connected_keys: frozenset[bytes] | None = None
        self.connecting: str | None = None
        """What the link says while it opens, once it has tried (the network layer's sentence)."""
        self.can_remove_bots = True
        self._host = host
        self._net: Any = None
        self._listeners = Listeners()
        self._unsub: Callable[[], None] | None = None
        self._empty = Table(_games())
        self._bot_clients: list[Any] = []  # the bot clients this program started (stopped with it)
        self._adopted: list[Any] = []  # bot clients started elsewhere (vampire host --bots)
        self._bot_levels: dict[bytes, str] = {}  # a seated bot's public key -> its level
        self._bot_folders: dict[bytes, Path] = {}  # a bot the lobby added -> its folder in bots_dir
        self._decks_taken: list[Any] = []  # what this table's seats bring, which a bot added brings not
        self.bots_dir: Path | None = None
        """Where a bot the lobby adds keeps its level, key and files (one numbered folder each, as
        ``vampire host --bots`` does), so that ``vampire host --resume`` runs it again; None: bots
        live in memory only."""
        self._log_path: Path | None = None
        self._link = LinkWatch(address)
        self._presence = PresenceWatch()
        self._host_unsub: Callable[[], None] | None = None
        self._starting = False  # a guest waits for its first attempt's outcome (see start)
        self.needs_kit = False
        """The table refused this seat for want of what its game's seats bring (a deck): the lobby
        offers to choose one (:meth:`bring`)."""

    def attach(self, session: Any) -> None:
        self._net = session
        self._link.address = self.address
        self._presence.me = session.client.public
        self._unsub = session.subscribe(self._emit)
        if self._host is not None:
            # The host beside this seat knows first who comes and goes: it, not its pings, says so.
            self._players(tuple(self._host.players_connected()), self._host.table)  # the baseline: no news
            self._host_unsub = self._host.listeners.subscribe(self._from_host)

    @property
    def routes(self) -> dict[bytes, str]:
        """How seats' connections reach the host, by public key, where their transport says
        ("direct, 12 ms", "relayed, 80 ms": across the internet): the host's guests, for a host;
        a guest's own, for a guest."""
        if self._host is not None:
            routes: dict[bytes, str] = self._host.routes()
            return routes
        link = self._net.client.link if self._net is not None else None
        route = link.dialer.route() if link is not None and link.dialer is not None else None
        return {self._net.client.public: route} if route else {}

    def _emit(self, event: Any) -> None:
        if isinstance(event, SeatRefused) and event.reason is SeatRefusal.NEEDS_KIT:
            self.needs_kit = True  # the lobby offers the game's chooser (FrontEnd.lobby_kit)
        if isinstance(event, Presence):
            if self._host is None:
                self._players(event.keys, self.table)
            return
        if isinstance(event, Connection):
            if event.state == LinkState.CONNECTING:
                self.connecting = event.detail  # the transport's words ("Connecting through the internet…")
            if self._fails_start(event):
                return  # start() raises with this sentence: the screen that waits on it goes
            event = self._link.event(event)
        self._forward(event)

    def _forward(self, event: Any) -> None:
        """Hand ``event`` (a net event or a SessionEvent) to the screens."""
        self._listeners.emit(event)

    def _from_host(self, event: Any) -> None:
        if isinstance(event, Presence) and self._host is not None:
            self._players(event.keys, self._host.table)

    def _players(self, keys: tuple[bytes, ...], table: Table) -> None:
        """The players connected are ``keys`` now: remember them and say who went or came back."""
        self.connected_keys = frozenset(keys)
        self._listeners.emit(Presence(keys))  # the lobby redraws its "away" column
        for change in self._presence.update(keys, table):
            self._forward(SessionEvent("presence", text=change.text, ok=change.back))

    def _fails_start(self, event: Connection) -> bool:
        """``event`` ends a guest's start: the address names no computer (the link stopped before
        any welcome) or nothing listens there (refused, never connected)."""
        if not self._starting:
            return False
        if event.state == LinkState.STOPPED:
            return self._net is not None and self._net.client.failure is not None
        return event.state == LinkState.DISCONNECTED and event.cause == LinkCause.REFUSED

    # -- reading ---------------------------------------------------------------------------------

    @property
    def table(self) -> Table:
        t = self._net.table if self._net is not None else None
        return t if t is not None else self._empty

    @property
    def seat(self) -> int | None:
        return self._net.seat if self._net is not None else None

    @property
    def seat_held(self) -> bool:
        """The host holds the next seat for this person (its own seat), who has not sat down yet:
        it is choosing what its seat brings (a deck). Nobody else sits before it."""
        return self.seat is None and self.is_host and getattr(self._host, "own_seat", None) is not None

    @property
    def watching(self) -> bool:
        """This session is a spectator's (``vampire join --spectate``): it holds no seat and never will."""
        return self._net is not None and self._net.client.role == "spectator"

    @property
    def bots(self) -> dict[int, str]:
        """Seat number -> bot level for the seats this program's bots hold now (seats move down
        when someone before them leaves, so they are found by key)."""
        table = self.table
        found = {}
        for key, level in self._bot_levels.items():
            seat = table.seat_of(key)
            if seat is not None:
                found[seat] = level
        return found

    @property
    def auto_start(self) -> bool:
        """The game starts by itself once every seat is taken, so the lobby shows no Start key:
        this program's host was told so (``vampire play``), or the table is someone else's."""
        if self._host is not None:
            return bool(self._host.auto_start)
        return not self.is_host

    @property
    def fingerprint(self) -> str:
        """This player's key fingerprint."""
        return self._net.key_fingerprint if self._net is not None else "----"

    @property
    def log_path(self) -> Path | None:
        if self._log_path is not None:
            return self._log_path
        return self._net.log_path if self._net is not None else None

    def view(self) -> Any:
        return self._net.view() if self._net is not None else None

    @property
    def decks(self) -> dict[str, list[str]]:
        """The private deck lists this seat committed to when it joined (part name to card
        identities, e.g. ``{"crypt": [...], "library": [...]}``); empty when its game brings none or it has no seat."""
        seat = self._net.client.seat if self._net is not None else None
        return dict(getattr(seat, "decks", None) or {})

    @property
    def brought(self) -> Any:
        """What this seat brings (the game's ``SeatKit`` value: a deck), or None: nothing yet."""
        return self._net.client.driver.brought if self._net is not None else None

    def bring(self, brought: Any) -> None:
        """Take this seat with ``brought`` (chosen in the lobby) now that the table asked for it.
        Raises VampireError (a sentence) once the seat has joined: its join commits to its deck."""
        if self._net is None or self.watching:
            raise VampireError("only a seat brings a deck")
        self._net.client.driver.bring(brought)
        self.needs_kit = False
        self._forward(SessionEvent("entry"))

    @property
    def auto_pass(self) -> bool | None:
        """This seat passes by itself when it has nothing to play (its game's automatic acts);
        None before the session has a seat to drive (a spectator's never does)."""
        if self._net is None or self.watching:
            return None
        return bool(self._net.client.driver.auto)

    def set_auto_pass(self, on: bool) -> None:
        """Pass by itself with nothing to play (True), or ask the person every time (False)."""
        if self._net is None or self.watching:
            raise VampireError("only a seat passes")
        self._net.client.driver.set_auto(on)
        self._forward(SessionEvent("entry"))  # the screens redraw: the state shows where they say it

    def check_move(self, act: Act) -> None:
        seat = self._net.client.seat if self._net is not None else None
        if seat is None or seat.index is None:
            raise IllegalMove("you hold no seat at this table")
        seat.check_move(act)

    def subscribe(self, callback: Callable[[Any], None]) -> Callable[[], None]:
        return self._listeners.subscribe(callback)

    # -- acting ----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the session. A guest's returns once its first attempt to reach the host has an
        outcome (connected, or down for a reason worth trying again); raises StartFailed with the
        network layer's sentence when the address names no computer or nothing listens there, as
        ``vampire join --bot`` says and stops: a person is told at once, not left on "Connecting…"."""
        if self._net is None:
            raise VampireError("this session has no connection to start")
        if self.is_host:
            await self._net.start()
            return
        outcome: asyncio.Future[Connection] = asyncio.get_running_loop().create_future()

        def seen(event: Any) -> None:
            ends = isinstance(event, Connection) and event.state != LinkState.CONNECTING
            if ends and not outcome.done():
                outcome.set_result(event)

        self._starting = True
        unsubscribe = self._net.subscribe(seen)
        try:
            await self._net.start()
            first = await outcome
            if self._fails_start(first):
                raise StartFailed(self._net.client.failure or first.detail)
        finally:
            self._starting = False
            unsubscribe()

    async def stop(self) -> None:
        """Close the session. A guest seated in the lobby first gives up its seat (`leave`), so
        that someone else can take it; the table's host closes the table instead."""
        net = self._net
        if (
            net is not None
            and not self.is_host
            and net.seat is not None
            and self.table.phase == "lobby"
            and net.connection == "connected"
        ):
            try:
                await asyncio.wait_for(net.leave(), self.LEAVE_TIMEOUT)
            except Exception:  # leaving must never fail: the host frees the seat at the start or never
                pass
        if net is not None:
            await net.stop()
        if self._unsub is not None:
            self._unsub()
            self._unsub = None
        if self._host_unsub is not None:
            self._host_unsub()
            self._host_unsub = None
        for bot in self._bot_clients:
            try:
                await bot.stop("The player left the table.")
            except Exception:  # a bot that cannot stop cleanly is left to the host's time-outs
                pass
        self._emit(SessionEvent("closed"))

    async def submit_move(self, act: Act) -> None:
        await self._net.submit_move(act)

    async def chat(self, text: str) -> None:
        await self._net.chat(text)

    async def vote_abandon(self, seat: int) -> None:
        await self._net.vote_abandon(seat)

    def now_ms(self) -> float:
        return self._net.now_ms() if self._net is not None else float(now_ms())

    def opened_ms(self) -> float | None:
        return self._net.opened_ms() if self._net is not None else None

    def caught_up(self) -> bool:
        return self._net.caught_up() if self._net is not None else False

    async def add_bot(self, level: str) -> None:
        """Seat a bot client of ``level`` at this host (over loopback)."""
        from engine.opening import bot_names
        from net.client import Store
        from net.local import bot_client, load_or_make_key, until

        if not self.is_host:
            raise VampireError("only the host seats bots")
        if self.seat is None and getattr(self._host, "own_seat", None) is not None:
            raise VampireError("take your own seat first (choose your deck with d): bots sit after you")
        table = self.table
        if table.phase != "lobby" or len(table.seats) >= table.nseats:
            raise VampireError("every seat is taken")
        (name,) = bot_names(1, table.names)
        folder = self._new_bot_folder(level)
        own = self._net.client.driver.brought
        if own is not None and own not in self._decks_taken:
            self._decks_taken.insert(0, own)
        bot = bot_client(
            self._net.client.address,
            level,
            name=name,
            key=load_or_make_key(folder / "key") if folder is not None else None,
            store=Store.in_dir(folder) if folder is not None else Store.memory(),
            games=_games(),
            taken=self._decks_taken,
        )
        self._bot_clients.append(bot)
        self._bot_levels[bot.public] = level
        if folder is not None:
            self._bot_folders[bot.public] = folder
        await bot.start()
        await until(lambda: bot.seat is not None and bot.seat.index is not None, [bot], 30.0, f"{name} to sit down")
        self._emit(SessionEvent("entry"))

    def _new_bot_folder(self, level: str) -> Path | None:
        """A new numbered folder in :attr:`bots_dir` holding ``level`` (mode 0700), or None."""
        if self.bots_dir is None:
            return None
        self.bots_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        taken = {int(p.name) for p in self.bots_dir.iterdir() if p.name.isdigit()}
        folder = self.bots_dir / str(next(i for i in range(len(taken) + 1) if i not in taken))
        folder.mkdir(mode=0o700)
        (folder / "level").write_text(level + "\n")
        return folder

    def adopt_bots(self, bots: Any) -> None:
        """Count ``bots`` ((client, level) pairs, started elsewhere: ``vampire host --bots``) as
        this host's bots: shown as bots and removable in the lobby, stopped by their owner."""
        for client, level in bots:
            self._bot_levels[client.public] = level
            self._adopted.append(client)

    async def remove_bot(self, seat: int) -> None:
        """Take the bot in ``seat`` off the table before the game starts: its client sends
        `leave` (PROTOCOL.md 4) and stops; every peer's seat list loses it, and the seats after
        it move down one. Raises VampireError with a sentence."""
        if not self.is_host:
            raise VampireError("only the table's host removes bots")
        table = self.table
        if table.phase != "lobby":
            raise VampireError("the game has started: a bot can no longer leave its seat")
        key = table.seats[seat].key if 0 <= seat < len(table.seats) else None
        clients = self._bot_clients + self._adopted
        bot = next((b for b in clients if key is not None and b.public == key), None)
        if bot is None or key not in self._bot_levels:
            raise VampireError(f"seat {seat} holds no bot this table seated")
        name = table.seats[seat].name
        await bot.leave(f"The host removed {name} from the table.")
        self._bot_levels.pop(key, None)
        folder = self._bot_folders.pop(key, None)
        if folder is not None:
            (folder / "level").unlink(missing_ok=True)  # removed in the lobby: not back on --resume
        if bot in self._bot_clients:
            self._bot_clients.remove(bot)
        self._emit(SessionEvent("entry"))

    async def start_game(self) -> None:
        """Append `start` (the host's entry) once every seat is taken. Raises VampireError with
        the table's sentence (a seat is open, the game has started)."""
        if self._host is None:
            raise VampireError("only the table's host starts the game")
        if self._host.auto_start:
            raise VampireError("this table starts by itself as soon as every seat is taken")
        self._host.start_game()
        self._emit(SessionEvent("entry"))


class LocalPlay(NetSession):
    """``vampire play``: a host, bots and you in one process over loopback TCP; the host's log is
    saved in ``save`` (default: a new file in the logs directory), and what brings the table back
    beside it (:mod:`tui.local_play`); ``spec.resume``: bring such a table back instead."""

    resumable = True
    """Quitting before the end leaves a table ``vampire play --resume LOG`` brings back."""

    def __init__(self, spec: LocalTableSpec, save: Path | None = None) -> None:
        super().__init__(spec.name, is_host=True, address=None)
        self.spec = spec
        self.save = save
        self._local: Any = None

    async def start(self) -> None:
        from engine.kits import profile_facts
        from engine.opening import new_log_path
        from engine.paths import logs_dir
        from tui.local_play import open_play, resume_play

        if self.spec.resume is not None:  # vampire play --resume: the log and its play folder say the rest
            self._log_path = self.spec.resume
            self._local, _ = await resume_play(self.spec.resume, _games())
        else:
            save = self.save or new_log_path(logs_dir())
            self._log_path = save
            brought = self.spec.brought
            kit = find_game(self.spec.game).kit
            if brought is None and kit is not None:
                brought = kit().for_bot(random.Random())  # a deck the game ships, when you chose none
            self._local = await open_play(
                self.spec.game,
                list(self.spec.levels),
                name=self.spec.name,
                save=save,
                options=dict(self.spec.options),
                brought=brought,
                games=_games(),
                facts=profile_facts(self.spec.name, game=self.spec.game),  # the profile's facts go in its join
            )
        self._host = self._local.host
        self._bot_levels = {bot.public: level for bot, level in zip(self._local.bots, self.spec.levels, strict=True)}
        self.attach(self._local.session)
        # Entries folded before we subscribed (the joins, the start) are in the table already.
        self._emit(SessionEvent("entry"))

    async def stop(self) -> None:
        local, self._local = self._local, None
        if self._unsub is not None:
            self._unsub()
            self._unsub = None
        if local is not None:
            await local.close()
            if local.host.table.ended and self._log_path is not None:
                from tui.local_play import forget_play

                forget_play(self._log_path)  # over: the log alone tells the game; its keys go
        self._emit(SessionEvent("closed"))


class HostedTable(NetSession):
    """ "Host a table" from the home screen: a host listening on ``spec.bind`` (default: the LAN
    address) at ``spec.port``, announced on the LAN (unless discovery is off), this player's seat,
    and bots the lobby adds and removes; the lobby's Start key starts the game."""

    def __init__(self, spec: HostSpec) -> None:
        super().__init__(spec.name, is_host=True)
        self.spec = spec
        self._announcer: Any = None  # the table's LAN announcement (net.discovery), while open
        self._listener: Any = None  # its listener across the internet (net.internet), while open

    async def start(self) -> None:
        from engine.identities import load_identity
        from engine.kits import profile_facts
        from engine.opening import new_log_path, open_sequencer, order_table
        from engine.paths import hosted_dir
        from engine.protocol.identity import public_bytes
        from engine.seat import now_ms
        from net.client import Store
        from net.discovery import announce_host
        from net.host import Host
        from net.session import Session

        games = _games()
        order = order_table(
            self.spec.game,
            people=1,
            bots=self.spec.levels,
            seats=self.spec.seats,
            rules=dict(self.spec.options),
            title=f"{self.spec.name}'s table",
        )
        save = new_log_path(hosted_dir(), "hosted")
        sequencer = open_sequencer(order, load_identity(f"{self.spec.name}-host"), save, now_ms)
        host = Host(sequencer, auto_start=False)  # the lobby's Start key starts the game
        host.own_seat = public_bytes(load_identity(self.spec.name))  # seat 0, even after a deck is picked
        from net.host import lan_address

        bind = self.spec.bind or lan_address()  # "": this machine's LAN address
        await host.start(bind, self.spec.port)
        self._host = host
        self._log_path = save
        self.bots_dir = bots_dir_of(save)
        self.address = share_address(host)
        self._announcer = await announce_host(host, self.address.rsplit(":", 1)[0])  # None: discovery is off
        if self.spec.internet:
            from net.internet import Relays, listen_for_table

            relays = Relays.parse(self.spec.relay)
            self._listener = await listen_for_table(host.serve_stream, save, relays, host.port, bind)
            self.address = self._listener.ticket  # what friends across the internet type
        self.announced = self._announcer is not None  # the lobby says how friends find the table
        session = Session.connect(
            ("127.0.0.1" if bind in WILDCARDS else bind, host.port),
            load_identity(self.spec.name),
            name=self.spec.name,
            store=Store.per_table(),
            games=games,
            facts=profile_facts(self.spec.name, game=self.spec.game),
            lan=True,
        )
        self.attach(session)
        await session.start()
        if self.spec.levels:
            from net.local import start_after_seat

            # The host's own seat first (seat 0), then its bots.
            await start_after_seat(session.client, [], own_timeout=30.0)
        for level in self.spec.levels:
            await self.add_bot(level)

    async def stop(self) -> None:
        if self._announcer is not None:
            await self._announcer.close()
            self._announcer = None
        await super().stop()
        if self._host is not None:
            await self._host.close()
            self._host = None
        if self._listener is not None:
            await self._listener.close()
            self._listener = None


WILDCARDS = ("", "0.0.0.0", "::", "::0")


def bots_dir_of(log: Path) -> Path:
    """The folder beside a hosted table's log where its bots keep their level, key and files,
    one numbered folder each (``LOG.vtlog.bots/0/``): ``vampire host --resume LOG`` runs them again."""
    return log.with_name(log.name + ".bots")


def share_address(host: Any) -> str:
    """``"address:port"`` friends type to join ``host`` (a listening ``net.host.Host``): the
    address it really listens on, or this machine's LAN address when it listens on every
    interface (a host bound to 127.0.0.1 is reachable from this computer only, and says so by
    its address)."""
    from net.host import lan_address

    bound = host.bind_address
    if bound in WILDCARDS:
        bound = lan_address()
    elif ":" in bound:
        bound = f"[{bound}]"  # an IPv6 address, as `vampire join` reads it
    return f"{bound}:{host.port}"


def wrap_session(
    session: Any, host: Any = None, address: str | None = None, bots: Any = (), bots_dir: Path | None = None
) -> NetSession:
    """A ``net.session.Session`` made by ``vampire host`` or ``vampire join`` as a TableSession.

    ``vampire host`` hands over its ``host`` (a ``net.host.Host`` on this loop): the session then
    belongs to the table's host, which seats and removes bots and, unless the host starts by
    itself, starts the game; friends join at ``address`` (default: this machine's LAN address
    and the host's port). ``bots``: (client, level) pairs of the bots it started; ``bots_dir``:
    where bots the lobby adds keep their files (:attr:`NetSession.bots_dir`). Without a host, the
    session is a guest's, and ``address`` is the one it joined."""
    client = session.client
    where, port = client.address
    if host is not None:
        if address is None:
            address = share_address(host)
        wrapped = NetSession(client.name, is_host=True, address=address, host=host)
        wrapped.adopt_bots(bots)
        wrapped.bots_dir = bots_dir
    else:
        wrapped = NetSession(client.name, is_host=False, address=address or f"{where}:{port}")
    wrapped.attach(session)
    return wrapped


class NetFactory:
    """Sessions over TCP for the home screen."""

    def local(self, spec: LocalTableSpec) -> NetSession:
        return LocalPlay(spec)

    def host(self, spec: HostSpec) -> NetSession:
        return HostedTable(spec)

    def join(self, spec: JoinSpec) -> NetSession:
        from engine.identities import load_identity
        from engine.kits import profile_facts
        from net.client import parse_address
        from net.internet import Dialer, check_ticket, is_ticket
        from net.session import Session

        dialer = Dialer(check_ticket(spec.address)) if is_ticket(spec.address) else None
        address = (dialer.ticket, 0) if dialer is not None else parse_address(spec.address)
        session = Session.connect(
            address,
            load_identity(spec.name),
            name=spec.name,
            games=_games(),
            may_sit=_why_no_seat,
            facts=profile_facts(spec.name),  # the table's game takes those it knows
            lan=dialer is None,
            pin=spec.pin,
            dialer=dialer,
        )
        return wrap_session(session, address=dialer.ticket if dialer is not None else None)


__all__ = [
    "HostedTable",
    "LocalPlay",
    "NetFactory",
    "NetSession",
    "bots_dir_of",
    "share_address",
    "short_fingerprint",
    "wrap_session",
]
