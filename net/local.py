"""``vampire play``'s table: a host, bots and one local player in one process, over loopback TCP
(DESIGN.md, "Data flow": the same code path as a LAN game).

:func:`open_local_table` returns a :class:`LocalTable` whose :attr:`~LocalTable.session` the TUI
drives; :func:`bot_client` makes the bot peers that ``vampire host --bots`` also uses.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.errors import VampireError
from engine.games import all_rules, default_game, find_game
from engine.games.base import Game
from engine.opening import bot_names, open_sequencer, order_table
from engine.protocol.identity import load_key_file, new_key
from engine.seat import now_ms
from net.client import Client, Liveness, Seating, Store
from net.events import Backoff, Timeouts
from net.host import Host
from net.session import Session

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"


def bot_factory(
    level: str, rng: random.Random, deck: Any = None, taken: list[Any] | None = None
) -> Callable[[str], Any]:
    """A function ``game name -> bot`` of ``level`` (the game is known once the host names it).
    A bot whose game's seats bring something (a deck) brings ``deck``, or what the game ships
    for bots, chosen by ``rng`` unlike each of ``taken`` (what the table's other seats bring,
    ``SeatKit.for_bot``), to which what it brings is then added: bots sharing one list bring
    different decks while the game ships enough.
    Raises BotSpecError for an unknown level when called."""

    def make(game: str) -> Any:

        spec = find_game(game)
        chosen = deck
        if spec.kit is not None and chosen is None:
            chosen = spec.kit().for_bot(rng, taken or ())
        if spec.kit is not None and taken is not None:
            taken.append(chosen)
        return spec.bot(level, rng, chosen)

    return make


def bot_client(
    address: tuple[str, int],
    level: str,
    *,
    name: str,
    key: Ed25519PrivateKey | None = None,
    store: Store = Store(),
    timeouts: Timeouts = Timeouts(),
    backoff: Backoff = Backoff(),
    stall_after: float = 30.0,
    abandon_after: float | None = None,
    rng: random.Random | None = None,
    games: Mapping[str, Game] | None = None,
    taken: list[Any] | None = None,
) -> Client:
    """A bot player of ``level`` (``heuristic``, ``random``) as a client of the host at
    ``address``: a fresh key per table unless ``key`` is given, duties and moves by itself,
    leaves when the table has ended; ``taken``: what the table's other seats bring, which its
    own deck differs from (:func:`bot_factory`)."""
    return Client(
        address,
        key or new_key(),
        name=name,
        games=games,
        store=store,
        seating=Seating(bot=bot_factory(level, rng or random.Random(), taken=taken)),
        timeouts=timeouts,
        backoff=backoff,
        liveness=Liveness(stall_after=stall_after, abandon_after=abandon_after),
        stop_when_over=True,
    )


def load_or_make_key(path: Path) -> Ed25519PrivateKey:
    """The bot key stored at ``path`` (raw 32 bytes, mode 0600), made and written (fsync) first
    if missing: how a bot keeps its per-table key across a restart. A bot key follows the rule of
    identity keys (PROTOCOL.md 8): one that other users can read is refused. Raises IdentityError
    (a sentence) for such a key, a file that is not a key, or an I/O error."""
    return load_key_file(path, "bot key")


async def until(condition: Callable[[], bool], clients: Sequence[Client], timeout: float, what: str) -> None:
    """Wait until ``condition()`` holds, re-checking after every event of ``clients``. Raises
    VampireError (``what`` in the sentence) after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    event = asyncio.Event()
    undo = [c.listeners.subscribe(lambda _e: event.set()) for c in clients]
    try:
        while not condition():
            left = deadline - loop.time()
            if left <= 0:
                raise VampireError(f"Timed out after {timeout:g} s waiting for {what}.")
            event.clear()
            try:
                await asyncio.wait_for(event.wait(), min(left, 0.5))
            except TimeoutError:
                pass
    finally:
        for u in undo:
            u()


def _seated(client: Client) -> Callable[[], bool]:
    return lambda: client.seat is not None and client.seat.index is not None


async def start_after_seat(
    own: Client,
    bots: Sequence[Client],
    own_timeout: float = math.inf,
    bot_timeout: float = 30.0,
    taken: list[Any] | None = None,
) -> None:
    """Start ``bots`` once ``own`` (the host's own seat) has sat down, or its table has left the
    lobby, each bot once the one before it sat: seats are numbered in the order of their `join`
    (PROTOCOL.md 4), so the host's own seat takes seat 0 and its bots follow in order. A bot that
    does not sit within ``bot_timeout`` seconds is left to sit when it can (the next one starts).
    Raises VampireError when ``own`` has not sat within ``own_timeout`` seconds (by default it
    waits as long as it takes: cancel the task to stop waiting). ``taken``: the list of what the
    table's seats bring that ``bots`` share (:func:`bot_client`), to which what ``own`` brought
    (chosen in the lobby, perhaps) is added before they start."""

    def own_seated() -> bool:
        t = own.table
        return _seated(own)() or (t is not None and t.phase not in ("new", "lobby")) or own.finished.is_set()

    await until(own_seated, [own], own_timeout, "your own seat")
    brought = own.driver.brought
    if taken is not None and brought is not None and brought not in taken:
        taken.insert(0, brought)
    for bot in bots:
        await bot.start()
        try:
            await until(_seated(bot), [bot], bot_timeout, "a bot's seat")
        except VampireError as err:
            log.warning("%s", err)


@dataclass
class LocalTable:
    """A running local table: the ``host``, the player's ``session`` (seat 0) and the ``bots``."""

    host: Host
    session: Session
    bots: list[Client] = field(default_factory=list)

    async def close(self) -> None:
        """Stop the player's session, the bots and the host."""
        await self.session.stop()
        await asyncio.gather(*(b.stop() for b in self.bots), return_exceptions=True)
        await self.host.close()


async def open_local_table(
    game: str | None = None,
    levels: Sequence[str] = ("heuristic", "heuristic", "heuristic"),
    *,
    name: str = "You",
    key: Ed25519PrivateKey | None = None,
    options: dict[str, Any] | None = None,
    save: Path | None = None,
    store: Store | None = None,
    player_bot: Any = None,
    brought: Any = None,
    timeouts: Timeouts = Timeouts(),
    stall_after: float = 30.0,
    games: Mapping[str, Game] | None = None,
    connect_timeout: float = 30.0,
    facts: Mapping[str, str] | None = None,
) -> LocalTable:
    """Open a table of ``1 + len(levels)`` seats on 127.0.0.1 (a free port): the local player takes
    seat 0 (``key``: its identity, a fresh key by default; ``player_bot``: a bot factory that plays
    for it, None for a person; ``brought``: what it brings when the game's seats bring something, a
    deck), then one bot client per level joins, and the host starts the game.
    ``game``: the game's name (None: :func:`engine.games.default_game`); ``options``: table rules
    (str values are parsed by the game's schema); ``save``: the host's
    log file (None: memory only); ``store``: the player's files (default: memory only); ``facts``:
    what the local player states at the table (the game's seat facts), which its `join` records. Raises
    OptionError, BotSpecError, VampireError when a peer does not get seated in time."""
    if games is None:
        games = all_rules()
    game = game or default_game()
    order = order_table(game, people=1, bots=levels, seats=1 + len(levels), rules=options, title="local table")
    sequencer = open_sequencer(order, new_key(), save, now_ms)
    host = Host(sequencer, timeouts=timeouts)
    await host.start(LOOPBACK, 0)
    address = (LOOPBACK, host.port)
    session = Session.connect(
        address,
        key or new_key(),
        name=name,
        store=store or Store.memory(),
        bot=player_bot,
        brought=brought,
        timeouts=timeouts,
        stall_after=stall_after,
        games=games,
        facts=facts,
    )
    bots = [
        functools.partial(
            bot_client, address, level, name=bot_name, timeouts=timeouts, stall_after=stall_after, games=games
        )
        for bot_name, level in zip(bot_names(len(levels), [name]), levels, strict=True)
    ]
    return await seat_in_turn(LocalTable(host, session), bots, connect_timeout)


async def seat_in_turn(table: LocalTable, bots: Sequence[Callable[[], Client]], connect_timeout: float) -> LocalTable:
    """Start ``table``'s player session, wait for its seat, then make, start and seat each bot of
    ``bots`` (each a function returning its unstarted client) in turn, so the seats follow that
    order. Returns ``table``; on any failure (VampireError when a seat is not taken within
    ``connect_timeout`` seconds) closes it and raises."""
    session = table.session
    try:
        await session.start()
        await until(lambda: session.seat is not None, [session.client], connect_timeout, "your seat")
        for make in bots:
            bot = make()
            table.bots.append(bot)
            await bot.start()
            await until(_seated(bot), [bot], connect_timeout, "a bot's seat")
    except BaseException:
        await table.close()
        raise
    return table
