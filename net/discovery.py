"""Finding tables on a LAN (PROTOCOL.md 9): DNS-SD over multicast DNS, with python-zeroconf.

A host announces its table as a service of type ``_vampire-table._tcp``: the instance name is
the table name (at most 63 bytes; mDNS may rename it on a clash), and its TXT entries are ``v``
(the protocol version), ``game``, ``seats`` (taken/total, ``2/4``), ``table`` (the table id, 64
hex), ``host`` (the host's public key, 64 hex) and ``name`` (the table name, UTF-8).

- :class:`TableAd` is what a host announces; :class:`Announcer` keeps it on the LAN, updated as
  seats fill, and withdraws it when the table closes; :func:`announce_host` ties one to a
  :class:`~net.host.Host`.
- :class:`HeardTable` is an announcement heard (every text from the network cleaned of control
  and bidirectional-override characters); :class:`Browser` keeps the tables heard, live;
  :func:`listen` gathers them for a few seconds.

Discovery is a convenience, never trusted: a client that joins a table heard pins its ``host``
and ``table`` (:meth:`HeardTable.pin`) against the challenge and the genesis, and the connection
still checks everything. With ``VAMPIRE_NO_DISCOVERY=1`` (:func:`net.lan.multicast_off`) nothing
here sends or listens: :meth:`Announcer.start` and :meth:`Browser.start` do nothing.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from zeroconf import IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from engine.protocol.identity import short_fingerprint
from net.events import Folded
from net.host import Host
from net.lan import clean_text, interface_addresses, multicast_off, nearest
from net.messages import VERSION

log = logging.getLogger("vampire.net.discovery")

SERVICE_TYPE = "_vampire-table._tcp.local."
"""The DNS-SD service type of a table (PROTOCOL.md 9)."""

WILDCARDS = ("", "0.0.0.0", "::")
"""Bind addresses that listen on every interface."""

MAX_INSTANCE = 63
"""The most bytes of an instance name (a DNS label)."""

RESOLVE_MS = 3000
"""Milliseconds to wait for a table's records once its name is heard."""

LISTEN_SECONDS = 3.0
"""How long ``vampire join`` listens for tables before it lists them."""


def instance_name(name: str) -> str:
    """The instance name for a table called ``name``: cleaned, its dots made middle dots (a dot
    would read as a DNS label separator to some browsers), cut to 63 UTF-8 bytes on a character
    boundary; "table" when nothing is left."""
    text = clean_text(name, 200).replace(".", "\u00b7") or "table"
    data = text.encode()[:MAX_INSTANCE]
    return data.decode("utf-8", errors="ignore") or "table"


@dataclass(frozen=True)
class TableAd:
    """What a host announces: the table ``name``, its ``game``, seats ``taken`` of ``total``,
    ``table`` (the table id, None before it is known), ``host`` (the host's 32-byte public key),
    and where to connect (``address``, an IPv4 address as text, and ``port``; ``more``: the
    host's addresses on its other interfaces, announced after ``address``, for friends on
    another of its LANs)."""

    name: str
    game: str
    taken: int
    total: int
    table: bytes | None
    host: bytes
    address: str
    port: int
    more: tuple[str, ...] = ()

    def properties(self) -> dict[str, str]:
        """The TXT entries (PROTOCOL.md 9)."""
        props = {
            "v": str(VERSION),
            "game": self.game,
            "seats": f"{self.taken}/{self.total}",
            "host": self.host.hex(),
            "name": self.name,
        }
        if self.table is not None:
            props["table"] = self.table.hex()
        return props

    def info(self, instance: str | None = None, server: str | None = None) -> AsyncServiceInfo:
        """The service record for zeroconf (``instance``: the full service name once registered,
        which mDNS may have renamed; ``server``: the host name the registration chose)."""
        return AsyncServiceInfo(
            SERVICE_TYPE,
            instance or f"{instance_name(self.name)}.{SERVICE_TYPE}",
            addresses=[socket.inet_aton(a) for a in (self.address, *self.more)],
            port=self.port,
            properties=self.properties(),
            server=server,
        )


@dataclass(frozen=True)
class HeardTable:
    """A table announced on the LAN, as heard: ``instance`` (the service name), ``name`` and
    ``game`` (cleaned for the screen), seats ``taken`` of ``total``, ``table`` (32 bytes, or
    None before the host named it), ``host`` (the host's 32-byte key), ``addresses`` (IPv4, as
    text) and ``port``, and the protocol ``version`` it speaks."""

    instance: str
    name: str
    game: str
    taken: int
    total: int
    table: bytes | None
    host: bytes
    addresses: tuple[str, ...]
    port: int
    version: int

    @property
    def open(self) -> bool:
        """Whether a seat is still free."""
        return self.taken < self.total

    @property
    def fingerprint(self) -> str:
        """The host key's fingerprint, as the host's own screen shows it."""
        return short_fingerprint(self.host)

    @property
    def address(self) -> tuple[str, int]:
        """Where to connect: (the address on a LAN this machine shares with the host, else the
        first announced (:func:`net.lan.nearest`), port)."""
        return nearest(self.addresses), self.port

    @property
    def pin(self) -> tuple[bytes, bytes | None]:
        """The host key and table id a client checks against the challenge (PROTOCOL.md 9)."""
        return self.host, self.table

    def line(self) -> str:
        """The table in one line: name, game, seats taken, host fingerprint, address."""
        address, port = self.address
        where = f"{address}:{port}"
        return f"{self.name}  {self.game}  {self.taken}/{self.total} seats  host {self.fingerprint}  {where}"


def _text(props: dict[bytes, bytes | None], key: str) -> str | None:
    value = props.get(key.encode())
    if value is None:
        return None
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _hex32(text: str | None) -> bytes | None:
    if text is None or len(text) != 64:
        return None
    try:
        return bytes.fromhex(text)
    except ValueError:
        return None


def parse_heard(instance: str, props: dict[bytes, bytes | None], addresses: list[str], port: int) -> HeardTable | None:
    """The :class:`HeardTable` a service record describes, or None when it is not a table this
    program can join (missing or malformed TXT entries, another protocol version, no address)."""
    version, game, seats = _text(props, "v"), _text(props, "game"), _text(props, "seats")
    host = _hex32(_text(props, "host"))
    if version is None or not version.isdigit() or game is None or seats is None or host is None:
        return None
    taken_text, _, total_text = seats.partition("/")
    if not (taken_text.isdigit() and total_text.isdigit()) or not addresses or not 0 < port < 65536:
        return None
    table_text = _text(props, "table")
    table = _hex32(table_text)
    if table_text is not None and table is None:
        return None
    label = instance.removesuffix("." + SERVICE_TYPE)
    name = clean_text(_text(props, "name") or label) or clean_text(label) or "table"
    return HeardTable(
        instance,
        name,
        clean_text(game, 32),
        int(taken_text[:4]),
        int(total_text[:4]),
        table,
        host,
        tuple(addresses),
        port,
        int(version[:4]),
    )


class Announcer:
    """Keeps one :class:`TableAd` on the LAN (PROTOCOL.md 9) while the table is open.

    :meth:`start` registers it (a clash of names is resolved by mDNS renaming it), :meth:`update`
    replaces its TXT entries (seats taken, the table id), :meth:`close` withdraws it. Nothing
    happens when discovery is off (:func:`net.lan.multicast_off`): :attr:`running` stays False.
    """

    def __init__(self, ad: TableAd) -> None:
        self.ad = ad
        self.running = False
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None

    async def start(self) -> None:
        """Announce the table. Raises OSError when no multicast socket can be opened."""
        if multicast_off() or self.running:
            return
        zc = AsyncZeroconf(ip_version=IPVersion.V4Only)
        info = self.ad.info()
        try:
            # zeroconf answers with a task that sends the announcements: wait for it too.
            await (await zc.async_register_service(info, allow_name_change=True))
        except Exception:
            await zc.async_close()
            raise
        self._zc, self._info, self.running = zc, info, True

    async def update(self, **changes: Any) -> None:
        """Announce the ad with ``changes`` (fields of :class:`TableAd`: ``taken``, ``table``)."""
        ad = replace(self.ad, **changes)
        if ad == self.ad:
            return
        self.ad = ad
        if self._zc is None or self._info is None:
            return
        info = ad.info(self._info.name, self._info.server)
        await (await self._zc.async_update_service(info))
        self._info = info

    async def close(self) -> None:
        """Withdraw the announcement (a goodbye, so browsers drop it at once) and close."""
        zc, info = self._zc, self._info
        self._zc, self._info, self.running = None, None, False
        if zc is None:
            return
        try:
            if info is not None:
                await (await zc.async_unregister_service(info))  # the goodbye, sent before closing
        finally:
            await zc.async_close()

    @property
    def instance(self) -> str | None:
        """The service name registered (mDNS may have renamed it), or None."""
        return self._info.name if self._info is not None else None


class HostAnnouncer:
    """A :class:`~net.host.Host`'s announcement, kept up to date: seats taken as they fill (every
    `join` and `leave` the host folds), withdrawn when the host's table is over or :meth:`close`
    is called. ``name``: the table's name; ``address``: the IPv4 address friends connect to,
    announced first (a host listening on every interface also announces its other interfaces'
    addresses)."""

    def __init__(self, host: Host, address: str, name: str | None = None) -> None:
        t = host.table
        self.host = host
        self.announcer = Announcer(
            TableAd(
                name or t.name or "table",
                t.game_name,
                len(t.seats),
                t.nseats,
                t.table_id,
                host.sequencer.public,
                address,
                host.port,
                # Listening on every interface: reachable from each of its LANs, at its address there.
                tuple(a for a in interface_addresses() if a != address) if host.bind_address in WILDCARDS else (),
            )
        )
        self._unsubscribe: Callable[[], None] | None = None
        self._pending: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        """Whether the table is announced now."""
        return self.announcer.running

    async def start(self) -> None:
        """Announce the table and follow its seats. Raises OSError (no multicast socket)."""
        await self.announcer.start()
        if self.announcer.running:
            self._unsubscribe = self.host.listeners.subscribe(self._on_event)

    def _on_event(self, event: Any) -> None:
        if isinstance(event, Folded) and event.entry.kind in ("join", "leave", "start", "end"):
            previous = self._pending
            self._pending = asyncio.get_running_loop().create_task(self._refresh(previous))

    async def _refresh(self, previous: asyncio.Task[None] | None) -> None:
        if previous is not None:
            await asyncio.gather(previous, return_exceptions=True)  # in order, one at a time
        t = self.host.table
        try:
            if t.ended or t.phase == "stopped":
                await self.announcer.close()
            else:
                await self.announcer.update(taken=len(t.seats))
        except Exception as err:  # best effort: the table goes on without its announcement
            log.info("the table's announcement could not be updated: %s", err)

    async def close(self) -> None:
        """Stop following the host and withdraw the announcement."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._pending is not None:
            await asyncio.gather(self._pending, return_exceptions=True)
        await self.announcer.close()


async def announce_host(host: Host, address: str, name: str | None = None) -> HostAnnouncer | None:
    """Announce ``host``'s table at ``address`` (IPv4, as text) and keep it up to date; None when
    discovery is off (:func:`net.lan.multicast_off`) or no multicast socket can be opened (logged:
    the table is still open at its address)."""
    if multicast_off():
        return None
    announcer = HostAnnouncer(host, address, name)
    try:
        await announcer.start()
    except OSError as err:
        log.warning("the table is not announced on the LAN: %s", err)
        return None
    return announcer


class Browser:
    """The tables heard on the LAN, kept live (PROTOCOL.md 9).

    ``on_change(tables)`` is called on the loop with every table heard, in name order, whenever
    one is added, changes (seats fill) or goes (closed, or renamed). Nothing listens when
    discovery is off (:func:`net.lan.multicast_off`): :attr:`running` stays False.
    """

    def __init__(self, on_change: Callable[[list[HeardTable]], None] | None = None) -> None:
        self.on_change = on_change
        self.running = False
        self._heard: dict[str, HeardTable] = {}
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._resolving: dict[str, asyncio.Task[None]] = {}  # a service name -> the lookup of its records

    @property
    def tables(self) -> list[HeardTable]:
        """Every table heard now, by name then host fingerprint."""
        return sorted(self._heard.values(), key=lambda h: (h.name.casefold(), h.fingerprint, h.instance))

    async def start(self) -> None:
        """Start listening. Raises OSError when no multicast socket can be opened."""
        if multicast_off() or self.running:
            return
        self._zc = AsyncZeroconf(ip_version=IPVersion.V4Only)
        self._browser = AsyncServiceBrowser(self._zc.zeroconf, [SERVICE_TYPE], handlers=[self._handler])
        self.running = True

    async def close(self) -> None:
        """Stop listening."""
        self.running = False
        tasks = list(self._resolving.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        if self._zc is not None:
            await self._zc.async_close()
            self._zc = None

    def _handler(self, zeroconf: Any, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        # One lookup per name at a time, the latest: a lookup still running when the table goes
        # (or changes again) must not bring back what it read before.
        running = self._resolving.pop(name, None)
        if running is not None:
            running.cancel()
        if state_change is ServiceStateChange.Removed:
            if self._heard.pop(name, None) is not None:
                self._changed()
            return
        task = asyncio.get_running_loop().create_task(self._resolve(name))
        self._resolving[name] = task
        task.add_done_callback(lambda t: self._resolving.pop(name, None) if self._resolving.get(name) is t else None)

    async def _resolve(self, name: str) -> None:
        if self._zc is None:
            return
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        try:
            found = await info.async_request(self._zc.zeroconf, RESOLVE_MS)
        except Exception as err:  # a record that cannot be read is a table not heard
            log.debug("could not resolve %s: %s", name, err)
            return
        if not found:
            return
        heard = parse_heard(name, dict(info.properties), info.parsed_addresses(IPVersion.V4Only), info.port or 0)
        if heard is None:
            self._heard.pop(name, None)
        elif self._heard.get(name) == heard:
            return
        else:
            self._heard[name] = heard
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self.tables)


async def listen(seconds: float = LISTEN_SECONDS) -> list[HeardTable]:
    """The tables heard within ``seconds`` (empty when discovery is off). Raises OSError when no
    multicast socket can be opened."""
    browser = Browser()
    await browser.start()
    try:
        if browser.running:
            await asyncio.sleep(seconds)
        return browser.tables
    finally:
        await browser.close()
