"""Admission control for the host (PROTOCOL.md 7, "Caps"; docs/protocol.md, Part 7): who may
connect, and how much each connection may send and make the host decode.

The host (:class:`~net.host.Host`) holds one :class:`Admission` and asks it:

- whether a new connection is one too many (:meth:`Admission.over_cap`), before anything is read
  or written for it; those it closes, and those dropped before their hello verifies, are told once
  per burst (:class:`RefusalLog`);
- what a verified connection may make it decode, by what the connection is (a
  :data:`ConnectionKind`: seated, guest, spectator): its largest frame (:meth:`Admission.budget`)
  and its bytes a second (:meth:`Admission.admit`, paid from the connection's :class:`ByteBucket`).

Every connection is also held to a number of frames a second (:class:`FrameRate`). Everything
that holds no seat (guests and spectators) also shares one host-wide budget (:class:`Strangers`,
paid from :class:`StrangerBudget`): bytes decoded, signature checks and replies a second, however
many of them connect, and its own cap of connections (:attr:`Caps.unseated`), so that the seats
always find room. The host says what a connection is (it reads the table); nothing here reads the
table or the wire.
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import resource
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from net.framing import MAX_FRAME, MAX_HANDSHAKE_FRAME, WireError

BURST_QUIET = 5.0
"""Seconds without a refused connection that end a burst of refusals (:class:`RefusalLog`)."""

KIB = 1024

ConnectionKind = Literal["seated", "guest", "spectator"]
"""What a verified connection is, for its :class:`Budget`: a player whose key holds a seat, a
player whose key holds none (before its `join`, or one the table will never seat), a spectator."""


@dataclass(frozen=True)
class Caps:
    """How many connections the host holds at once (PROTOCOL.md 7, "Caps").

    ``total``: connections in all (before and after their hello), lowered by :meth:`limit` below
    the process's file-descriptor limit; ``per_address``: connections from one remote IP address
    other than loopback (every peer of ``vampire play`` and of a test is on loopback);
    ``unseated``: verified connections whose key holds no seat (guests and spectators) at once, a
    share of the total (:meth:`unseated_limit`) so that a seated key always finds a slot
    (docs/protocol.md 7.1, "Slots kept for the seated"); ``pre_hello``: connections yet to say
    hello at once, a share of the total too (:meth:`pre_hello_limit`): one more makes the oldest
    of them go, so a newcomer always has a slot for its hello; ``hello_pressed``: seconds a
    connection has to say hello while at least half of those slots are taken (else
    :attr:`~net.events.Timeouts.hello`) (docs/protocol.md 7.1, "Connections yet to say hello")."""

    total: int = 256
    per_address: int = 32
    unseated: int = 128
    pre_hello: int = 64
    hello_pressed: float = 2.0

    def pre_hello_limit(self, total: int) -> int:
        """The cap on connections yet to say hello when the total cap is ``total``: ``pre_hello``,
        and never more than a quarter of ``total`` (at least one)."""
        return max(1, min(self.pre_hello, total // 4))

    def unseated_limit(self, total: int) -> int:
        """The cap on unseated connections in force when the total cap is ``total``: ``unseated``,
        and never more than half of ``total`` (at least one)."""
        return max(1, min(self.unseated, total // 2))

    def limit(self, nofile: int | None = None) -> int:
        """The total cap in force: ``total``, or half the soft descriptor limit ``nofile`` (default:
        this process's ``RLIMIT_NOFILE``) when that is lower. Half, because every connection costs
        one descriptor and the rest of the process needs its own: the listening socket, the log
        file, and in ``vampire play`` the bots' sockets, logs and secrets files."""
        if nofile is None:
            nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if nofile == resource.RLIM_INFINITY or nofile <= 0:
            return self.total
        return max(1, min(self.total, nofile // 2))


@dataclass(frozen=True)
class Budget:
    """What one verified connection may make the host decode (docs/protocol.md, Part 7, "Budgets
    per connection"; beyond PROTOCOL.md 7): frames of at most ``max_frame`` bytes, and bytes at
    ``rate`` per second on average with at most ``burst`` at once. Decoding costs time linear in
    a frame's bytes (every msgpack object takes at least one byte), so a byte budget is also an
    object and CPU budget. A connection over it is not dropped: the host reads its next frame's
    body but decodes it only once the budget allows (:class:`ByteBucket`), and TCP holds the
    sender back meanwhile."""

    max_frame: int
    rate: float
    burst: float


@dataclass(frozen=True)
class Budgets:
    """The :class:`Budget` of each kind of connection (docs/protocol.md, Part 7).

    ``seated``: a player whose key holds a seat, the only one whose submissions the table takes:
    the largest frame the wire allows, a burst of two of them (so a large honest entry never
    waits), then 256 KiB a second (the largest entry of a 4-seat game is under 25 KiB).
    ``guest``: a player connection whose key holds no seat, which may submit its `join` (a few
    hundred bytes): 16 KiB frames, 8 KiB a second. ``spectator``: submits nothing and sends only
    pings, pongs and a bye of a few hundred bytes: held to the 4 KiB of a hello, 4 KiB a second.
    Decoding costs 0.4 to 4 µs an object on the shared 2-core development machine (idle to a load
    average of 13), at most one object a byte: a guest costs at most 3 to 33 ms of CPU a second,
    a spectator half that."""

    seated: Budget = Budget(MAX_FRAME, 256 * KIB, 2 * MAX_FRAME)
    guest: Budget = Budget(16 * KIB, 8 * KIB, 32 * KIB)
    spectator: Budget = Budget(MAX_HANDSHAKE_FRAME, 4 * KIB, 16 * KIB)


@dataclass(frozen=True)
class Strangers:
    """The host-wide budget of everything that holds no seat (docs/protocol.md 7.1, "The budget of
    strangers"), shared by every guest and spectator however many connect.

    ``rate``/``burst``: bytes a second (and at once) decoded for all of them together: each one's
    own :class:`Budget` is cut to its share of both (divided by the number of unseated
    connections; its burst never below the 4 KiB of a hello), so no queue forms behind the others
    and a newcomer's first frame (its `join`, a few hundred bytes) passes at once; ``checks``/``check_burst``: signature checks a second of the
    heads and seen signatures their pings carry (a ping over it is answered but its head is not
    checked, nor kept); ``replies``/``reply_burst``: pongs a second to all of them (over it, a
    ping is not answered: the host's own pings still come every ping interval); ``ping_gap``:
    seconds between two pings answered on one unseated connection (those between are decoded and
    dropped); ``queue``: bytes queued for one unseated peer, its catch-up aside, before it is
    dropped as a reader that does not read (``slow-reader``)."""

    rate: float = 16 * KIB
    burst: float = 64 * KIB
    checks: float = 10.0
    check_burst: float = 20.0
    replies: float = 20.0
    reply_burst: float = 40.0
    ping_gap: float = 1.0
    queue: int = 256 * KIB


class Tokens:
    """A token bucket of counted work that never waits: :meth:`take` says whether ``n`` more units
    fit now (``rate`` a second on average, ``burst`` at once). ``clock`` (seconds) is injectable."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self.tokens = float(burst)
        self.refilled = clock()
        self.taken = 0
        self.refused = 0

    def take(self, n: int = 1) -> bool:
        """Take ``n`` units if the bucket holds them (counted in ``taken``), else count a refusal
        (``refused``) and take nothing."""
        now = self._clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.refilled) * self.rate)
        self.refilled = now
        if self.tokens < n:
            self.refused += 1
            return False
        self.tokens -= n
        self.taken += n
        return True


class ByteBucket:
    """A token bucket of bytes for one connection (:class:`Budget`): :meth:`admit` returns at once
    while the budget holds, else after the wait that pays for the frame. ``waited`` sums the
    seconds it held the connection back. ``clock`` (seconds) and ``sleep`` are injectable for
    tests; by default the event loop's monotonic clock and ``asyncio.sleep``."""

    def __init__(
        self,
        budget: Budget,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._clock = clock
        self._sleep = sleep
        self.tokens = float(budget.burst)
        self.refilled = clock()
        self.waited = 0.0
        self._burst = float(budget.burst)

    async def admit(self, n: int, budget: Budget) -> None:
        """Pay for decoding ``n`` bytes under ``budget``, waiting first if the bucket is short. A
        larger budget than the last one (a guest whose `join` gave it a seat) starts full."""
        now = self._clock()
        if budget.burst > self._burst:
            self.tokens = float(budget.burst)
        self._burst = float(budget.burst)
        self.tokens = min(float(budget.burst), self.tokens + (now - self.refilled) * budget.rate)
        self.refilled = now
        if self.tokens >= n:
            self.tokens -= n
            return
        wait = (n - self.tokens) / budget.rate
        self.tokens = 0.0
        self.refilled = now + wait  # what accrues during the wait is spent on this frame
        self.waited += wait
        await self._sleep(wait)


class FrameRate:
    """A token bucket of frames for one connection (docs/protocol.md, Part 3, "Time-outs": ``rate``
    and ``burst`` of :class:`~net.events.Timeouts`): at most ``rate`` frames a second on average,
    ``burst`` at once. ``clock`` (seconds) is injectable for tests."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self.tokens = float(burst)
        self.refilled = clock()

    def charge(self) -> None:
        """Take one frame from the bucket. Raises WireError ``flood`` when it is empty: the host
        stops reading the connection."""
        now = self._clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.refilled) * self.rate)
        self.refilled = now
        self.tokens -= 1
        if self.tokens < 0:
            raise WireError("flood", f"More than {self.rate:g} frames a second: the host stops reading.")


def is_loopback(ip: str) -> bool:
    """Whether ``ip`` (as asyncio gives a peer's address) is a loopback address (IPv4-mapped
    IPv6 included). A transport's peer name (``scheme:id``, an internet endpoint's
    ``iroh:<endpoint id>``) is a remote peer, capped per name as an address is; anything else
    that is not an IP address (a Unix socket's name) counts as local."""
    try:
        address = ipaddress.ip_address(ip.split("%", 1)[0])
    except ValueError:
        return ":" not in ip
    mapped = getattr(address, "ipv4_mapped", None)
    return bool(address.is_loopback or (mapped is not None and mapped.is_loopback))


class RefusalLog:
    """Refused connections, told once per burst instead of once per attempt (PROTOCOL.md 7).

    :meth:`refused` is called for each connection closed over a cap; the first of a burst says so at
    once (``say(line)``), and the burst ends, with a line counting what it refused, once
    :data:`BURST_QUIET` seconds pass without a refusal. ``refusals`` counts every refusal since
    the host started; ``bursts`` the bursts begun.

    ``starting`` and ``ended`` word the two lines (``ended`` holds ``{count}`` and ``{s}``, the
    plural's s), so that connections dropped for another reason (those that never sent a hello that
    verifies, :attr:`Admission.unwelcome`) are told the same way. When :meth:`refused` is given
    codes, the count line breaks the burst down by code ("silent 248, bad-hello 2")."""

    def __init__(
        self,
        say: Callable[[str], None],
        quiet: float = BURST_QUIET,
        *,
        starting: str = "Refusing connections",
        ended: str = "Refused {count} connection{s}",
    ) -> None:
        self.say = say
        self.quiet = quiet
        self.starting = starting
        self.ended = ended
        self.refusals = 0
        self.bursts = 0
        self._count = 0
        self._first = 0.0
        self._last = 0.0
        self._addresses: set[str] = set()
        self._codes: collections.Counter[str] = collections.Counter()
        self._timer: asyncio.TimerHandle | None = None

    def refused(self, ip: str, why: str, code: str | None = None) -> None:
        """Note a connection from ``ip`` closed because of ``why`` (a sentence naming the cap, or
        the fault), ``code`` its wire code if any (a :data:`~net.framing.WireCode`: a bounded set)."""
        now = time.monotonic()
        self.refusals += 1
        self._last = now
        if self._count == 0:
            self.bursts += 1
            self._first = now
            self.say(f"{self.starting}: {why} (first from {ip}); a count follows when they stop.")
            self._timer = asyncio.get_running_loop().call_later(self.quiet, self._check)
        self._count += 1
        if code is not None:
            self._codes[code] += 1
        if len(self._addresses) < 64:  # enough to name the sources, bounded whatever the flood
            self._addresses.add(ip)

    def _check(self) -> None:
        now = time.monotonic()
        if now - self._last < self.quiet:
            self._timer = asyncio.get_running_loop().call_later(self.quiet - (now - self._last), self._check)
            return
        self.close()

    def close(self) -> None:
        """End the burst now, saying how many connections it refused."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._count:
            sources = ", ".join(sorted(self._addresses)[:8])
            more = "" if len(self._addresses) <= 8 else f" and {len(self._addresses) - 8} more"
            plural = "s" if self._count > 1 else ""
            seconds = max(self._last - self._first, 0.0)
            codes = ", ".join(f"{code} {n}" for code, n in self._codes.most_common())
            self.say(
                f"{self.ended.format(count=self._count, s=plural)} over {seconds:.0f} s from {sources}{more}"
                + (f" ({codes})." if codes else ".")
            )
        self._count = 0
        self._addresses.clear()
        self._codes.clear()


class StrangerBudget:
    """The host-wide budget of unseated connections in force (:class:`Strangers`): ``count``, the
    unseated connections now (the host keeps it), each one's share of the bytes a second
    (:meth:`share`), ``checks`` and ``replies`` (:class:`Tokens`); ``decoded`` counts the bytes
    decoded for them."""

    def __init__(self, strangers: Strangers, clock: Callable[[], float] = time.monotonic) -> None:
        self.strangers = strangers
        self.count = 0
        self.checks = Tokens(strangers.checks, strangers.check_burst, clock)
        self.replies = Tokens(strangers.replies, strangers.reply_burst, clock)
        self.decoded = 0

    def share(self, budget: Budget) -> Budget:
        """``budget`` (an unseated kind's) with its rate and burst cut to its share of the
        host-wide ones (its burst never below :data:`~net.framing.MAX_HANDSHAKE_FRAME`)."""
        n = max(1, self.count)
        rate = min(budget.rate, self.strangers.rate / n)
        burst = min(budget.burst, max(float(MAX_HANDSHAKE_FRAME), self.strangers.burst / n))
        return budget if (rate, burst) == (budget.rate, budget.burst) else replace(budget, rate=rate, burst=burst)


class Admission:
    """One host's admission control: its :class:`Caps` and :class:`Budgets`, and the two logs of
    connections turned away, whose lines go to ``say(line)``.

    ``max_connections``: the total cap in force (:meth:`Caps.limit`), fixed when made.
    ``refusals``: connections closed over a cap. ``unwelcome``: connections dropped before their
    hello verified (silent for the hello time-out, a bad hello, garbage, closed at once): anonymous,
    so a flood of them is told once per burst, like ``refusals``, not once per connection.
    ``strangers``: the host-wide budget of unseated connections (:class:`StrangerBudget`).
    ``clock`` (seconds) and ``sleep`` are given to every :class:`ByteBucket` made here."""

    def __init__(
        self,
        caps: Caps = Caps(),
        budgets: Budgets = Budgets(),
        strangers: Strangers = Strangers(),
        *,
        say: Callable[[str], None],
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.caps = caps
        self.budgets = budgets
        self.max_connections = caps.limit()
        self.max_unseated = caps.unseated_limit(self.max_connections)
        self.max_pre_hello = caps.pre_hello_limit(self.max_connections)
        self.strangers = StrangerBudget(strangers, clock)
        self.refusals = RefusalLog(say)
        self.unwelcome = RefusalLog(
            say,
            starting="Dropping connections that sent no valid hello",
            ended="Dropped {count} connection{s} that sent no valid hello",
        )
        self._clock = clock
        self._sleep = sleep

    def over_cap(self, ip: str, held: Sequence[str]) -> str | None:
        """Why a new connection from ``ip`` is one too many (a sentence), or None (PROTOCOL.md 7,
        "Caps"); ``held``: the remote address of each connection the host holds now."""
        if len(held) >= self.max_connections:
            return f"the host holds its cap of {self.max_connections} connections"
        if self.caps.per_address and not is_loopback(ip):
            same = sum(1 for other in held if other == ip)
            if same >= self.caps.per_address:
                return f"{ip} holds its cap of {self.caps.per_address} connections"
        return None

    def unseated_over_cap(self, unseated: int) -> str | None:
        """Why one more verified connection whose key holds no seat is one too many, when
        ``unseated`` such connections are held already (a sentence), or None: the host then
        drops the oldest of them to make room (docs/protocol.md 7.1)."""
        if unseated >= self.max_unseated:
            return f"the host holds its cap of {self.max_unseated} connections that hold no seat"
        return None

    def now(self) -> float:
        """The admission's clock (seconds)."""
        return self._clock()

    def hello_room(self, since: Sequence[float], now: float) -> list[tuple[int, str]]:
        """Which connections yet to say hello go to make room for one more (docs/protocol.md 7.1,
        "Connections yet to say hello"): ``since``, when each of those held now arrived (on
        :meth:`now`'s clock, oldest first). Under pressure (with the newcomer, at least half of
        :attr:`max_pre_hello` waiting) every one waiting for :attr:`Caps.hello_pressed` seconds
        or more goes; then the oldest go while the newcomer would be one too many. Returns
        (index in ``since``, why in a sentence) pairs, oldest first."""
        limit = self.max_pre_hello
        waiting = len(since)
        gone: list[tuple[int, str]] = []
        if 2 * (waiting + 1) >= limit:
            pressed = self.caps.hello_pressed
            for i, at in enumerate(since):
                if now - at >= pressed:
                    gone.append((i, f"No hello within {pressed:g} s while {waiting} connections waited for theirs."))
        taken = {i for i, _ in gone}
        for i in range(waiting):
            if waiting - len(gone) < limit:
                break
            if i not in taken:
                gone.append((i, f"No hello yet, and {limit} newer connections wait for theirs: the oldest goes."))
        return sorted(gone)

    def budget(self, kind: ConnectionKind) -> Budget:
        """The :class:`Budget` of a connection of ``kind``."""
        match kind:
            case "seated":
                return self.budgets.seated
            case "guest":
                return self.budgets.guest
            case "spectator":
                return self.budgets.spectator

    def bucket(self, kind: ConnectionKind) -> ByteBucket:
        """A full :class:`ByteBucket` for a connection whose hello just verified as ``kind``."""
        return ByteBucket(self.budget(kind), self._clock, self._sleep)

    async def admit(self, bucket: ByteBucket, kind: ConnectionKind, n: int) -> None:
        """Pay for decoding a frame body of ``n`` bytes from a connection of ``kind`` whose bucket is
        ``bucket``: at once while its budget holds, else after the wait that pays for it; a
        connection that holds no seat is held to its share of the host-wide rate of strangers
        (:meth:`StrangerBudget.share`)."""
        if kind == "seated":
            await bucket.admit(n, self.budgets.seated)
            return
        await bucket.admit(n, self.strangers.share(self.budget(kind)))
        self.strangers.decoded += n

    def close(self) -> None:
        """End both bursts now, each saying what it counted (the host is closing)."""
        self.refusals.close()
        self.unwelcome.close()
