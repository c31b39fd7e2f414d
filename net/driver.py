"""A seat's driver (PROTOCOL.md 3, 4, 6): protocol duties, the player's intents, bots and stall votes.

A :class:`SeatDriver` sends what its seat owes or was asked for, one entry in flight at a time,
through the connection the client gives it: the seat's `join` (with what the seat brings, when its
game asks for something), the protocol duties it performs by itself (rand-commit, key, deck,
shuffle, share, reveal, key-reveal, seed-reveal, complaint), the moves its player or bot chooses,
chat lines, `abandon` votes and `leave`. It re-signs **the same act** when the host answers ``stale``, and after a restart
sends the move it had committed to on disk, never another. It watches the table for a stall, names
the seats it waits on, and (when told to) votes to abandon them.

It never decides what a person may do: the front end's ``may_sit`` says whether a person can play
a game here, and a refusal is an event (:class:`~net.events.SeatRefused`) the front end words.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, cast

from engine.errors import VampireError
from engine.games import find_game
from engine.games.base import Act, IllegalMove
from engine.games.spec import Bot
from engine.protocol.log import Entry
from engine.seat import Seat, now_ms
from engine.table import EntryKind, TableRefusal
from engine.table.waits import WaitClock
from net.errors import ClientError, GiveUp, HostRefused
from net.events import Listeners, Refused, SeatRefusal, SeatRefused, Waiting
from net.messages import Submit, SubmitRejected
from net.replica import Replica, TraceHook

log = logging.getLogger("vampire.net.client")

IntentKind = Literal["move", "chat", "abandon", "leave"]
"""What a player may ask its seat to send."""

INTENT_KINDS: frozenset[str] = frozenset(("move", "chat", "abandon", "leave"))

BotFactory = Callable[[str], Bot]
"""Makes the bot for a game name (the game is known once the host names the table)."""

MaySit = Callable[[str], str | None]
"""The front end's answer to "may a person take a seat at a table of this game (its name)?":
None, or the sentence to show instead (the game cannot be played by hand here)."""

ReadBrought = Callable[[str], Any]
"""Reads what a seat brings (``--deck FILE``) with the kit of the table's game (its name), once the
host names it; raises VampireError with a sentence when the game's kit cannot read it."""


@dataclass(frozen=True)
class Seating:
    """Who plays a seat and what it brings.

    ``bot``: a :class:`~engine.games.spec.Bot`, or a :data:`BotFactory` (called with the table's
    game), that plays this seat's moves (None: a person's moves come through
    :meth:`SeatDriver.submit`); ``brought``: what this seat brings when its game asks each seat to
    bring something (the game's ``SeatKit``; a bot without one picks its own); ``may_sit``: see
    :data:`MaySit`, asked for a person only; ``facts``: what the player states at a table, by key,
    which its `join` records where the table's game takes them (the game's seat facts,
    :class:`~engine.games.base.SeatFact`; the others are left out); ``read_brought``: see
    :data:`ReadBrought`, asked when ``brought`` is None (a refusal: ``SeatRefusal.NEEDS_KIT`` with
    its sentence); ``auto``: a person's seat makes by itself the acts its game's
    ``auto_act`` gives (a pass with nothing to play); False: it asks the person every time.
    """

    bot: Bot | BotFactory | None = None
    brought: Any = None
    may_sit: MaySit | None = None
    facts: Mapping[str, str] = field(default_factory=dict)
    read_brought: ReadBrought | None = None
    auto: bool = True


@dataclass(frozen=True)
class Liveness:
    """When a stalled table is reported and voted on (PROTOCOL.md 6.5).

    The wait on a seat is the table's (:meth:`engine.table.Table.waited`): from the entry after
    which the table waits on it, restarted only when that seat answers, so every peer reads the
    same wait and a seat's own changes by hand, chat lines or claims do not restart it.
    ``stall_after``: seconds of a wait after which its seat is reported
    (:class:`~net.events.Waiting`); ``abandon_after``: seconds after which this seat votes
    ``abandon`` for it by itself (None: never); ``clock``: ms since the epoch, the clock entries
    are signed with (a test injects its own).
    """

    stall_after: float = 30.0
    abandon_after: float | None = None
    clock: Callable[[], float] = now_ms


@dataclass(frozen=True)
class Hooks:
    """Callbacks a test, a benchmark or the CLI injects.

    ``before_submit(kind)``: called with an entry's kind once everything it commits to is on disk
    (a duty's seed in the secrets file, a move's act) and before the entry is signed and sent; a
    crash test kills the process here. ``trace(mark, entry)``: ``("send", entry)`` when a submit
    goes out and ``("fold", entry)`` once an entry is folded.
    """

    before_submit: Callable[[str], None] | None = None
    trace: TraceHook | None = None


class Channel(Protocol):
    """What a driver sends through: the client's connection."""

    @property
    def connected(self) -> bool:
        """Welcomed and caught up with the host's head."""
        ...

    def may_send(self) -> bool:
        """An entry may go out now: connected, following the host, a player that does not stop."""
        ...

    def transmit(self, msg: Submit) -> None:
        """Send ``msg`` to the host."""
        ...


@dataclass(eq=False)
class Intent:
    """Something the player asked for: a ``move`` (``value``: the act), a ``chat`` (the text), an
    ``abandon`` vote (the seat) or a ``leave`` (None). ``ids``: every entry signed for it
    (re-signed on ``stale``); ``future``: resolved with the entry once folded (None: nobody waits)."""

    kind: IntentKind
    value: Any
    future: asyncio.Future[Entry] | None
    ids: set[bytes] = field(default_factory=set)


@dataclass(eq=False)
class _Inflight:
    n: int
    entry: Entry
    intent: Intent | None


class SeatDriver:
    """Drives the seat of ``replica`` over ``channel``; events go to ``listeners``."""

    def __init__(
        self,
        replica: Replica,
        channel: Channel,
        listeners: Listeners,
        *,
        seating: Seating = Seating(),
        liveness: Liveness = Liveness(),
        hooks: Hooks = Hooks(),
    ) -> None:
        self.replica = replica
        self.channel = channel
        self.listeners = listeners
        self.brought = seating.brought
        self.may_sit = seating.may_sit
        self.read_brought = seating.read_brought
        self.facts = dict(seating.facts)
        self.auto = seating.auto
        self.liveness = liveness
        self.hooks = hooks
        self.bot: Bot | None = None
        self.bot_factory: BotFactory | None = None
        self.set_bot(seating.bot)
        self.left = False
        """This seat's own `leave` has been folded: it holds no seat and will not join again."""
        self.resigned = 0
        """How many times an entry of this seat was signed again after a ``stale`` answer."""
        self._inflight: _Inflight | None = None
        self._intents: collections.deque[Intent] = collections.deque()
        self._n = 0
        self._stale_until = -1
        self._refused: tuple[str, int] | None = None
        self._join_refused = False
        self._moves = 0
        self._stalled: tuple[int, ...] = ()
        self._wait_clock = WaitClock()
        self._timed: tuple[int, int] | None = None
        self._clock_read: tuple[tuple[int, int, int], tuple[float, Act, str] | None] | None = None

    def set_bot(self, bot: Bot | BotFactory | None) -> None:
        """Let ``bot`` (a bot, a factory of one per game name, or None: a person) play this seat."""
        if bot is not None and not hasattr(bot, "choose"):
            self.bot, self.bot_factory = None, bot
        else:
            self.bot, self.bot_factory = cast("Bot | None", bot), None

    def _the_bot(self, game: str) -> Bot | None:
        if self.bot is None and self.bot_factory is not None:
            self.bot, self.bot_factory = self.bot_factory(game), None  # the game is known now
        return self.bot

    @property
    def plays_by_itself(self) -> bool:
        """A bot (or a bot factory) plays this seat."""
        return self.bot is not None or self.bot_factory is not None

    def _seat(self) -> Seat:
        seat = self.replica.seat
        if seat is None:
            raise ClientError("This peer holds no seat.")
        return seat

    # -- the player's intents -------------------------------------------------------------------

    def submit(self, kind: IntentKind, value: Any) -> asyncio.Future[Entry]:
        """Ask for a ``move`` (value: the act), ``chat`` (the text), ``abandon`` (the seat) or
        ``leave`` (None). Returns a future resolved with the entry once this peer has folded it,
        or failed with IllegalMove, HostRefused or ClientError. Raises ValueError for another kind."""
        if kind not in INTENT_KINDS:
            raise ValueError(f"cannot submit a {kind}")
        future: asyncio.Future[Entry] = asyncio.get_running_loop().create_future()
        self._intents.append(Intent(kind, value, future))
        self.pump()
        return future

    def bring(self, brought: Any) -> None:
        """Bring ``brought`` (what the game's ``SeatKit`` reads: a deck) to this seat, which has not
        joined yet: a seat refused for want of it (``SeatRefusal.NEEDS_KIT``) sits now with it.
        Raises ClientError once this seat's `join` is out, since it commits to what it brought
        (PROTOCOL.md 4)."""
        seat = self._seat()
        if seat.index is not None or self._inflight is not None or seat.leaves or self.left:
            raise ClientError("This seat has joined with its deck already: leave the table to bring another.")
        self.brought = brought
        self._join_refused = False
        self.pump()

    def check_leave(self) -> None:
        """Raise ClientError with the table's sentence when it would refuse this seat's `leave` now
        (after the start, say); nothing is sent."""
        seat = self._seat()
        try:
            seat.table.check(seat.sign("leave", {}))
        except TableRefusal as err:
            raise ClientError(f"You cannot leave this seat: {err.detail}.") from None

    def fail_all(self, err: Exception) -> None:
        """Fail every intent still waiting with ``err``."""
        for intent in self._intents:
            if intent.future is not None and not intent.future.done():
                intent.future.set_exception(err)
        self._intents.clear()

    def _intent_body(self, intent: Intent) -> dict[str, Any]:
        seat = self._seat()
        t = seat.table
        me = seat.index
        if intent.kind == "chat":
            return {"text": intent.value}
        if me is None:
            raise ClientError("This peer holds no seat.")
        if intent.kind == "leave":
            self.check_leave()
            return {}
        if intent.kind == "abandon":
            if intent.value not in t.waiting_on() or intent.value == me:
                raise ClientError(f"Seat {intent.value} does not owe the table anything now.")
            return {"seat": intent.value}
        if (me, "move") not in t.owed():
            raise IllegalMove("it is not your turn")
        stored = seat.secrets.get("intent", self._moves)
        if stored is not None and stored != intent.value:
            raise ClientError("This seat already sent another move for this turn; it sends that one again.")
        seat.check_move(intent.value)
        return seat.move_body(intent.value)

    def _fail_intent(self, intent: Intent, err: Exception) -> None:
        if intent in self._intents:
            self._intents.remove(intent)
        if intent.future is not None and not intent.future.done():
            intent.future.set_exception(err)

    # -- sending --------------------------------------------------------------------------------

    def pump(self) -> None:
        """Send the next entry this seat owes or was asked for, if nothing is in flight."""
        if self._inflight is not None or self.left or not self.channel.may_send():
            return
        seat = self._seat()
        t = seat.table
        if t.seq <= self._stale_until:
            return  # the entries that made us stale are still on their way
        if seat.index is None:
            self._sit(seat)
            return
        if t.unverified is not None and (seat.index, EntryKind.SHUFFLE) not in t.owed():
            return  # the proof of the last shuffle is being verified; the client pumps again then
        if (waiting := seat.preparing()) is not None:
            # This seat's shuffle is still being computed in the pool: pump again once it is.
            loop = asyncio.get_running_loop()

            def pump_again(_: object) -> None:
                if not loop.is_closed():  # the work may end after its table (a test, a quit)
                    with contextlib.suppress(RuntimeError):  # closed between the check and the call
                        loop.call_soon_threadsafe(self.pump)

            waiting.add_done_callback(pump_again)
            return
        duty = seat.duty()
        if duty is not None and (duty[0], t.seq) != self._refused:
            self._send(duty[0], duty[1], None)
            return
        if (seat.index, "move") in t.owed():
            stored = seat.secrets.get("intent", self._moves)
            if stored is not None and not any(i.kind == "move" and i.value == stored for i in self._intents):
                # A move this seat sent before a restart: the same act again (PROTOCOL.md 3).
                self._intents.appendleft(Intent("move", stored, None))
        while self._intents:
            intent = self._intents[0]
            try:
                body = self._intent_body(intent)
            except VampireError as err:
                self._fail_intent(intent, err)
                continue
            self._send(intent.kind, body, intent)
            return
        if t.owes_move(seat.index):
            if self.plays_by_itself:
                self._bot_move(seat)
            elif self.auto:
                self._auto_move(seat)

    def _sit(self, seat: Seat) -> None:
        """Send this seat's `join` while the lobby is open, or say why it takes no seat."""
        t = seat.table
        if self._join_refused:
            return
        if t.phase == "lobby":
            if not self.plays_by_itself and self.may_sit is not None:
                refusal = self.may_sit(t.game_name)
                if refusal:
                    # A person would take a seat the front end cannot play, and stall the table.
                    self._refuse_seat(SeatRefusal.NOT_BY_HAND, t.game_name, refusal)
                    return
            if self.plays_by_itself:
                try:
                    self._the_bot(t.game_name)  # a level this game has not fails now, not at the first turn
                except VampireError as err:
                    self._refuse_seat(SeatRefusal.NO_BOT, t.game_name, str(err))
                    return
            spec = find_game(t.game_name)
            if spec.kit is not None and not seat.leaves:
                brought = self.brought
                if brought is None and self.read_brought is not None:
                    try:
                        brought = self.brought = self.read_brought(t.game_name)
                    except VampireError as err:
                        self._refuse_seat(SeatRefusal.NEEDS_KIT, t.game_name, str(err))
                        return
                if brought is None:
                    bot = self._the_bot(t.game_name)  # a bot picks what it brings
                    brought = getattr(bot, "deck", None)
                if brought is None:
                    self._refuse_seat(SeatRefusal.NEEDS_KIT, t.game_name)
                    return
                seat.bring_decks(spec.kit().deck_lists(brought))
            seat.facts = {f.key: self.facts[f.key] for f in spec.seat_facts if f.key in self.facts}
            seat.bot = self.bot is not None or self.bot_factory is not None
            self._send("join", seat.join_body(), None)
        elif t.phase != "new":
            self._refuse_seat(SeatRefusal.GAME_STARTED, t.game_name)

    def _refuse_seat(self, reason: SeatRefusal, game: str, detail: str = "") -> None:
        self._join_refused = True
        self.listeners.emit(SeatRefused(reason, game, detail))

    def _bot_move(self, seat: Seat) -> None:
        bot = self._the_bot(seat.table.game_name)
        if bot is None:
            return
        act: Act | None = bot.choose(seat.view(), seat.legal_acts())
        if act is None:
            return
        intent = Intent("move", act, None)
        self._intents.append(intent)
        try:
            body = self._intent_body(intent)
        except VampireError as err:
            log.error("the bot chose an act its own table refuses: %s", err)
            self._fail_intent(intent, err)
            return
        self._send("move", body, intent)

    def set_auto(self, auto: bool) -> None:
        """Let a person's seat make its game's automatic acts by itself (True), or ask every time."""
        self.auto = auto
        self.pump()

    def _auto_move(self, seat: Seat) -> None:
        """The act the game makes by itself for a person with nothing else to do (a pass)."""
        auto_act = find_game(seat.table.game_name).auto_act
        act = auto_act(seat.view()) if auto_act is not None else None
        if act is None:
            return
        intent = Intent("move", act, None)
        self._intents.append(intent)
        try:
            body = self._intent_body(intent)
        except VampireError as err:
            self._fail_intent(intent, err)
            return
        self._send("move", body, intent)

    def _send(self, kind: str, body: dict[str, Any], intent: Intent | None) -> None:
        seat = self._seat()
        if kind == "move" and intent is not None:
            # On disk before the host sees any card key it opens: after a crash this seat sends
            # the same act again, never another one (PROTOCOL.md 3).
            seat.secrets.put("intent", self._moves, intent.value)
        if self.hooks.before_submit is not None:
            self.hooks.before_submit(kind)
        entry = seat.sign(kind, body)
        self._n += 1
        self._inflight = _Inflight(self._n, entry, intent)
        if intent is not None:
            intent.ids.add(entry.id)
        self.channel.transmit(Submit(self._n, entry.wire_array()))
        if self.hooks.trace is not None:
            self.hooks.trace("send", entry)

    # -- answers --------------------------------------------------------------------------------

    def folded(self, entry: Entry, live: bool) -> None:
        """Count ``entry`` (folded; ``live``: received now, not read from this peer's file) and
        resolve what waited for it."""
        if entry.kind == "move":
            self._moves += 1
        if live and entry.kind == "leave" and entry.author == self.replica.public:
            # This seat is gone: send nothing more (above all, no new `join`).
            self.left = True
        if self._inflight is not None and self._inflight.entry.id == entry.id:
            self._inflight = None
        for intent in list(self._intents):
            if entry.id in intent.ids:
                self._intents.remove(intent)
                if intent.future is not None and not intent.future.done():
                    intent.future.set_result(entry)

    def rejected(self, msg: SubmitRejected) -> None:
        """The host refused submission ``msg.n``: sign it again on the new head after ``stale``,
        else report it and fail what asked for it."""
        inflight = self._inflight
        if inflight is None or inflight.n != msg.n:
            return
        self._inflight = None
        kind = inflight.entry.kind
        if msg.code == "stale":
            self._stale_until = msg.head[0] if msg.head else -1
            self.resigned += 1
        else:
            self.listeners.emit(Refused(kind, msg.code, msg.detail))
            log.warning("the host refused this seat's %s: %s (%s)", kind, msg.detail, msg.code)
            if inflight.intent is not None:
                self._fail_intent(inflight.intent, HostRefused(msg.code, msg.detail))
            elif kind == "join":
                self._join_refused = True
            else:
                t = self.replica.table
                self._refused = (kind, t.seq if t is not None else 0)
        self.pump()

    def lost(self) -> None:
        """The connection dropped: what was in flight is sent again (or found folded) later."""
        self._inflight = None

    # -- liveness (PROTOCOL.md 6.5) ----------------------------------------------------------------

    async def watch(self, finished: asyncio.Event) -> None:
        """Check for a stall a few times per ``stall_after`` until ``finished`` is set."""
        tick = max(0.05, min(1.0, self.liveness.stall_after / 4))
        while not finished.is_set():
            await asyncio.sleep(tick)
            if self.replica.table is not None:
                try:
                    self.check_waiting()
                except GiveUp:
                    pass

    def check_waiting(self) -> None:
        """Report the seats the table has waited on past ``stall_after`` (:class:`Waiting`, with
        the longest of their waits), and vote to abandon those waited on past ``abandon_after``
        once the table's rule lets the vote be cast (:meth:`Table.stall_vote_refusal`).
        Nothing while this peer catches up: the waits of a table it folds on the way to the host's
        head are over, and what it reports once caught up is the waits still open, on the
        table's wait clock (PROTOCOL.md 6.5)."""
        t = self.replica.table
        if t is None or not self.replica.caught_up:
            return
        now = self.liveness.clock()
        waits = self._wait_clock.read(t.waits, now, self.replica.opened) if t.phase == "running" else {}
        self._run_clock(waits)
        seats = tuple(s for s, waited in waits.items() if waited >= self.liveness.stall_after)
        if seats != self._stalled:
            self._stalled = seats
            longest = max((waits[s] for s in seats), default=0.0)
            self.listeners.emit(Waiting(seats, tuple(t.names[s] for s in seats), longest))
        abandon_after = self.liveness.abandon_after
        if abandon_after is not None and self.channel.connected:
            opened = self.replica.opened
            due = tuple(s for s in seats if waits[s] >= abandon_after and t.stall_vote_refusal(s, now, opened) is None)
            if due:
                self._vote_stalled(due)

    def _run_clock(self, waits: dict[int, float]) -> None:
        """The game's clock on this seat (its ``timed_act``, under a table rule): once the table
        has waited on this seat that long (``waits``: seconds by seat, the table's wait clock), it
        says so in a chat line and makes the act."""
        seat = self.replica.seat
        if seat is None or seat.index is None or self.left or self._inflight is not None or self._intents:
            return
        t = seat.table
        wait = t.waited(seat.index) if seat.index in waits else None
        timed = find_game(t.game_name).timed_act if wait is not None else None
        if wait is None or timed is None:
            return
        # A view is built only when the table moved: the clock is read a few times a second, and
        # a seat's view (milliseconds of work for a card game, more under load) changes only by a fold.
        at = (id(t), t.seq, seat.index)
        if self._clock_read is None or self._clock_read[0] != at:
            self._clock_read = (at, timed(seat.view(), t.options))
        clock = self._clock_read[1]
        if clock is None:
            return
        seconds, act, line = clock
        if waits[seat.index] < seconds or self._timed == (seat.index, wait.seq):
            return
        self._timed = (seat.index, wait.seq)
        self._intents.append(Intent("chat", line, None))
        self._intents.append(Intent("move", act, None))
        self.pump()

    def _vote_stalled(self, seats: tuple[int, ...]) -> None:
        seat = self._seat()
        t = seat.table
        me = seat.index
        if me is None or me in t.abandoned or me not in t.playing():
            return
        queued = {i.value for i in self._intents if i.kind == "abandon"}
        for s in seats:
            if s != me and me not in t.abandon_votes.get(s, set()) and s not in queued:
                self._intents.append(Intent("abandon", s, None))
        self.pump()
