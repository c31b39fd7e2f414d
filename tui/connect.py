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

import random
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from engine.errors import VampireError
from engine.games.base import Act, IllegalMove
from engine.identity import fingerprint
from engine.table import Table
from tui.files import logs_dir
from tui.session import HostSpec, JoinSpec, LocalTableSpec, SessionEvent


def _games() -> dict[str, Any]:
    from engine.cli import games

    return games()


class NetSession:
    """A :class:`tui.session.TableSession` over a ``net.session.Session`` (set by :meth:`attach`;
    subclasses create it in :meth:`start`).

    ``is_host``: this program runs the table's host (it may seat bots); ``address``: what friends
    type to join, None for a table nobody else can join."""

    def __init__(self, name: str, *, is_host: bool = False, address: str | None = None) -> None:
        self.name = name
        self.is_host = is_host
        self.address = address
        self.bots: dict[int, str] = {}
        self.connected_keys: frozenset[bytes] | None = None
        self.can_remove_bots = False
        self.auto_start = True
        self._net: Any = None
        self._subs: list[Callable[[Any], None]] = []
        self._unsub: Callable[[], None] | None = None
        self._empty = Table(_games())
        self._bot_clients: list[Any] = []
        self._log_path: Path | None = None

    def attach(self, session: Any) -> None:
        self._net = session
        self._unsub = session.subscribe(self._emit)

    def _emit(self, event: Any) -> None:
        if type(event).__name__ == "Presence":
            self.connected_keys = frozenset(getattr(event, "keys", ()))
        for callback in list(self._subs):
            callback(event)

    # -- reading ---------------------------------------------------------------------------------

    @property
    def table(self) -> Table:
        t = self._net.table if self._net is not None else None
        return t if t is not None else self._empty

    @property
    def seat(self) -> int | None:
        return self._net.seat if self._net is not None else None

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

    def check_move(self, act: Act) -> None:
        seat = self._net.client.seat if self._net is not None else None
        if seat is None or seat.index is None:
            raise IllegalMove("you hold no seat at this table")
        seat.check_move(act)

    def subscribe(self, callback: Callable[[Any], None]) -> Callable[[], None]:
        self._subs.append(callback)

        def unsubscribe() -> None:
            if callback in self._subs:
                self._subs.remove(callback)

        return unsubscribe

    # -- acting ----------------------------------------------------------------------------------

    async def start(self) -> None:
        if self._net is None:
            raise VampireError("this session has no connection to start")
        await self._net.start()

    async def stop(self) -> None:
        if self._net is not None:
            await self._net.stop()
        if self._unsub is not None:
            self._unsub()
            self._unsub = None
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

    async def add_bot(self, level: str) -> None:
        """Seat a bot client of ``level`` at this host (over loopback)."""
        from engine.cli import BOT_NAMES
        from net.local import bot_client, until

        if not self.is_host:
            raise VampireError("only the host seats bots")
        table = self.table
        if table.phase != "lobby" or len(table.seats) >= table.nseats:
            raise VampireError("every seat is taken")
        taken = set(table.names)
        name = next((n for n in BOT_NAMES if n not in taken), f"Bot {len(table.seats)}")
        bot = bot_client(self._net.client.address, level, name=name, games=_games())
        self._bot_clients.append(bot)
        await bot.start()
        await until(lambda: bot.seat is not None and bot.seat.index is not None, [bot], 30.0, f"{name} to sit down")
        self.bots[bot.seat.index] = level
        self._emit(SessionEvent("entry"))

    async def remove_bot(self, seat: int) -> None:
        raise VampireError("a seated bot cannot leave this table yet; open a new table instead")

    async def start_game(self) -> None:
        raise VampireError("the host starts the game by itself as soon as every seat is taken")


class LocalPlay(NetSession):
    """``vampire play``: a host, bots and you in one process over loopback TCP; the host's log is
    saved in ``save`` (default: a new file in the logs directory)."""

    def __init__(self, spec: LocalTableSpec, save: Path | None = None) -> None:
        super().__init__(spec.name, is_host=True, address=None)
        self.spec = spec
        self.save = save
        self._local: Any = None

    async def start(self) -> None:
        from net.local import open_local_table

        save = self.save
        if save is None:
            directory = logs_dir()
            directory.mkdir(parents=True, exist_ok=True)
            save = directory / f"{datetime.now():%Y%m%d-%H%M%S}-{random.randrange(1 << 16):04x}.vtlog"
        self._log_path = save
        self._local = await open_local_table(
            self.spec.game, list(self.spec.levels), name=self.spec.name, options=dict(self.spec.options),
            save=save, games=_games(),
        )
        self.bots = {i + 1: level for i, level in enumerate(self.spec.levels)}
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
        self._emit(SessionEvent("closed"))


class HostedTable(NetSession):
    """"Host a table" from the home screen: a host listening on every interface at ``spec.port``,
    this player's seat, and bots the lobby adds."""

    def __init__(self, spec: HostSpec) -> None:
        super().__init__(spec.name, is_host=True)
        self.spec = spec
        self._host: Any = None

    async def start(self) -> None:
        from engine.games.base import parse_options
        from engine.identity import load_identity
        from engine.log import LogWriter
        from engine.seat import now_ms
        from engine.sequencer import Sequencer
        from net.client import Store
        from net.host import Host, lan_address
        from net.session import Session

        games = _games()
        module = games[self.spec.game]
        typed = dict(parse_options(module.option_schema, dict(self.spec.options)))
        directory = logs_dir()
        directory.mkdir(parents=True, exist_ok=True)
        save = directory / f"{datetime.now():%Y%m%d-%H%M%S}-hosted.vtlog"
        sequencer = Sequencer(load_identity(f"{self.spec.name}-host"), games, LogWriter(save), now_ms)
        sequencer.open_table(self.spec.game, typed, self.spec.seats, f"{self.spec.name}'s table"[:64])
        host = Host(sequencer)
        await host.start("0.0.0.0", self.spec.port)
        self._host = host
        self._log_path = save
        self.address = f"{lan_address()}:{host.port}"
        session = Session.connect(("127.0.0.1", host.port), load_identity(self.spec.name), name=self.spec.name,
                                  store=Store.per_table(), games=games)
        self.attach(session)
        await session.start()
        for level in self.spec.levels:
            await self.add_bot(level)

    async def stop(self) -> None:
        await super().stop()
        if self._host is not None:
            await self._host.close()
            self._host = None


def wrap_session(session: Any) -> NetSession:
    """A ``net.session.Session`` made by ``vampire host`` or ``vampire join`` as a TableSession.
    A session whose host is on this computer (loopback) belongs to the table's host: it may seat
    bots, and friends join at this machine's LAN address."""
    client = session.client
    host, port = client.address
    local = host in ("127.0.0.1", "localhost", "::1")
    address = None
    if local:
        from net.host import lan_address

        address = f"{lan_address()}:{port}"
    wrapped = NetSession(client.name, is_host=local, address=address if local else f"{host}:{port}")
    wrapped.attach(session)
    return wrapped


class NetFactory:
    """Sessions over TCP for the home screen."""

    def local(self, spec: LocalTableSpec) -> NetSession:
        return LocalPlay(spec)

    def host(self, spec: HostSpec) -> NetSession:
        return HostedTable(spec)

    def join(self, spec: JoinSpec) -> NetSession:
        from engine.identity import load_identity
        from net.client import parse_address
        from net.session import Session

        address = parse_address(spec.address)
        session = Session.connect(address, load_identity(spec.name), name=spec.name, games=_games())
        return wrap_session(session)


__all__ = ["HostedTable", "LocalPlay", "NetFactory", "NetSession", "fingerprint", "wrap_session"]
