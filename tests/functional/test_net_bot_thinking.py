"""A bot decides in a worker thread (net/driver.py): while it thinks, its peer keeps answering the
host and folding what the host relays, and a decision made on a table that has moved on since is
dropped, never sent (PROTOCOL.md 3: a seat sends one act per turn, chosen on the table it sees)."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

from engine.bots.queen import QueenHeuristic
from engine.protocol.identity import new_key
from net.client import Client, Hooks, Seating
from net.events import Connection, Folded, LinkState, Timeouts
from tests.support.net import QUICK_BACKOFF, eventually, open_host, start_bots, stop_all

#: A peer silent this long is dropped (both ways): the bot below thinks for longer than that.
SHORT_IDLE = Timeouts(hello=2.0, idle=1.5, body=2.0, write=5.0, ping=0.2, connect=2.0)
THINKS_FOR = 2.5


class SlowBot:
    """A heuristic bot whose first decision blocks until the test releases it; ``log`` records
    each decision and each move its peer sends, in order."""

    def __init__(self, log: list[tuple[str, Any]]) -> None:
        self.inner = QueenHeuristic(random.Random(1))
        self.log = log
        self.thinking = threading.Event()
        self.release = threading.Event()
        self.decisions = 0

    def choose(self, view: Any, legal: list[Any]) -> Any:
        self.decisions += 1
        if self.decisions == 1:
            self.thinking.set()
            self.release.wait(20)
        act = self.inner.choose(view, legal)
        self.log.append(("decided", self.decisions))
        return act


async def test_a_thinking_bot_does_not_hold_its_peer_and_a_stale_decision_is_not_sent(tmp_path):
    host = open_host(seats=3, timeouts=SHORT_IDLE)
    await host.start("127.0.0.1", 0)
    log: list[tuple[str, Any]] = []
    slow = SlowBot(log)

    def trace(mark: str, entry: Any) -> None:
        if mark == "send" and entry.kind == "move":
            log.append(("sent", entry.kind))

    thinker = Client(
        ("127.0.0.1", host.port),
        new_key(),
        name="Thinker",
        seating=Seating(bot=slow),
        timeouts=SHORT_IDLE,
        backoff=QUICK_BACKOFF,
        hooks=Hooks(trace=trace),
    )
    chats: list[str] = []
    dropped: list[Connection] = []

    def heard(event: Any) -> None:
        if isinstance(event, Folded) and event.entry.kind == "chat":
            chats.append(event.entry.body["text"])
        if isinstance(event, Connection) and event.state == LinkState.DISCONNECTED:
            dropped.append(event)

    thinker.listeners.subscribe(heard)
    await thinker.start()
    others = await start_bots(host, 2)
    await eventually(slow.thinking.is_set, 30, "the slow bot's first decision")

    # The bot is blocked in its thread for longer than the host lets a silent peer live; this
    # event loop (the peer's) runs on: it sleeps on time, pings, and folds a chat sent now.
    loop = asyncio.get_running_loop()
    others[0].submit("chat", "are you there?")
    start = worst = 0.0
    start = loop.time()
    while loop.time() - start < THINKS_FOR:
        before = loop.time()
        await asyncio.sleep(0.02)
        worst = max(worst, loop.time() - before)
    assert "are you there?" in chats
    assert worst < 0.5
    assert dropped == [] and thinker.state == LinkState.CONNECTED

    # The decision was made on the table before the chat: dropped, the bot decides again, and
    # only that decision's move goes out.
    slow.release.set()
    await eventually(lambda: any(mark == "sent" for mark, _ in log), 30, "the bot's move")
    first_sent = next(i for i, (mark, _) in enumerate(log) if mark == "sent")
    assert log[:first_sent] == [("decided", 1), ("decided", 2)]
    await eventually(lambda: host.table.ended, 60, "the game to end")
    await stop_all(host, [thinker, *others])
