"""A peer coming back catches up whatever it missed, over loopback TCP (docs/protocol.md 7.1): the
rest of the log goes to it a frame at a time as it reads, never counted in its queue, so neither a
spectator (a stranger's small queue) nor a seat is dropped as a slow reader for catching up; and
the proofs of shuffle a catch-up carries are verified in worker threads, never on the peer's loop
(docs/protocol.md 6.9), so its pings go on while it checks a deal."""

from __future__ import annotations

import asyncio
import threading

import pytest

from engine.games import RulesByName, all_rules
from engine.protocol import group
from engine.protocol.identity import new_key
from engine.seat import now_ms
from engine.table.events import UnverifiedProof
from net.client import HEAVY_PAYLOAD, Client, Store
from net.driver import Liveness
from net.events import Connection, Waiting
from net.host import serve_table
from tests.support.net import FAST, QUICK_BACKOFF, open_host
from tests.support.poll import eventually
from tests.support.vtes_net import two_people

MIB = 1024 * 1024


def pad(host, size: int) -> None:
    """Grow the host's log by ``size`` bytes of its own chat (which has no limit and answers no wait)."""
    grown = 0
    while grown < size:
        entry = host.post("chat", {"text": "x" * 200})
        grown += len(entry.payload) + 160


def watcher(host, key, tmp_path, **options) -> Client:
    """A spectator client of ``host`` with ``key``, its log kept under ``tmp_path`` (the same
    files each time, as a spectator coming back holds them)."""
    return Client(
        ("127.0.0.1", host.port),
        key,
        name="Watcher",
        role="spectator",
        store=Store.in_dir(tmp_path / "watcher"),
        timeouts=FAST,
        backoff=QUICK_BACKOFF,
        **options,
    )


async def test_a_spectator_and_a_seat_coming_back_after_a_mib_of_entries_catch_up(tmp_path):
    host = open_host(seats=3)
    await host.start("127.0.0.1", 0)
    keys = {"seat": new_key(), "spectator": new_key()}

    def peer(who: str) -> Client:
        return Client(
            ("127.0.0.1", host.port),
            keys[who],
            name=who.title(),
            role="spectator" if who == "spectator" else "player",
            store=Store.in_dir(tmp_path / who),
            timeouts=FAST,
            backoff=QUICK_BACKOFF,
        )

    first = [peer("seat"), peer("spectator")]
    for client in first:
        await client.start()
    t = host.table
    await eventually(lambda: t.seat_of(keys["seat"].public_key().public_bytes_raw()) is not None, 10, "a seat")
    await eventually(lambda: all(c.table is not None and c.table.seq == t.seq for c in first), 10, "in step")
    for client in first:
        await client.stop()
    pad(host, MIB + MIB // 4)  # more than a MiB of entries while they are away
    back = [peer("seat"), peer("spectator")]
    drops: list[Connection] = []
    for client in back:
        client.listeners.subscribe(
            lambda e: drops.append(e) if isinstance(e, Connection) and e.state == "disconnected" else None
        )
        await client.start()
    await eventually(lambda: all(c.table is not None and c.table.seq == t.seq for c in back), 60, "caught up")
    assert not drops, (drops, list(host.disconnects))
    assert all(c.table.head == t.head for c in back)
    for client in back:
        await client.stop()
    await host.close()


async def test_a_table_that_is_over_stays_open_for_a_seat_still_catching_up(tmp_path):
    """A seat comes back 512 KiB behind, and the table ends as it catches up: the host closes only
    once it holds the last entry, not when the time it gives the players to leave is up (here
    none: before, it closed at once and the seat never saw the end, retrying for ever)."""
    host = open_host(seats=3)
    await host.start("127.0.0.1", 0)
    key = new_key()

    def seat() -> Client:
        return Client(
            ("127.0.0.1", host.port),
            key,
            name="Seat",
            store=Store.in_dir(tmp_path / "seat"),
            timeouts=FAST,
            backoff=QUICK_BACKOFF,
        )

    first = seat()
    await first.start()
    t = host.table
    await eventually(lambda: first.table is not None and first.table.seq == t.seq and t.seats, 10, "seated")
    await first.stop()
    pad(host, MIB // 2)
    back = seat()
    await back.start()
    await eventually(lambda: host.peers_behind(), 10, "the seat connected, behind")
    host.finished.set()  # the game is over (its `end` appended) while the seat catches up
    await serve_table(host, grace=0.0, catching_up=10.0)
    assert back.table is not None and back.table.seq == t.seq
    await back.stop()


async def test_a_table_that_is_over_stays_open_for_a_spectator_still_catching_up(tmp_path):
    """Every seat has left the table that is over, and a spectator is still 512 KiB behind (its
    screen folds slower than the bots play): the host closes once the spectator holds the last
    entry (before, it closed as the last player left, and the watcher's screen stopped mid-game,
    retrying for ever)."""
    host = open_host(seats=3)
    await host.start("127.0.0.1", 0)
    pad(host, MIB // 2)
    watching = watcher(host, new_key(), tmp_path)
    await watching.start()
    await eventually(lambda: watching.table is not None, 10, "the spectator welcomed")
    assert not host.players_connected() and watching.table.seq < host.table.seq
    host.finished.set()  # the game is over (its `end` appended) while the spectator catches up
    await serve_table(host, grace=0.0, catching_up=10.0)
    assert watching.table is not None and watching.table.seq == host.table.seq
    await watching.stop()


async def test_a_peer_catching_up_a_deal_verifies_every_proof_of_shuffle_off_its_loop(
    tmp_path, monkeypatch: pytest.MonkeyPatch
):
    async with two_people(tmp_path) as table:
        # As on a computer of its own: no proof of the deal is known to this process already.
        monkeypatch.setattr(group, "VERIFY_MEMO", group.VerifyMemo())
        monkeypatch.setattr(group, "OWN_PROOFS", group.OwnProofs())
        on_loop: list[bool] = []
        verify = UnverifiedProof.verify

        def watched(proof: UnverifiedProof) -> bool:
            if not proof.done:
                on_loop.append(threading.current_thread() is threading.main_thread())
            return verify(proof)

        monkeypatch.setattr(UnverifiedProof, "verify", watched)
        t = table.host.table
        watcher = Client(("127.0.0.1", table.host.port), new_key(), name="Watcher", role="spectator", timeouts=FAST)
        await watcher.start()
        await eventually(lambda: watcher.table is not None and watcher.table.seq == t.seq, 60, "caught up")
        await eventually(lambda: watcher.table.unverified is None, 30, "the last proof settled")
        shuffles = sum(1 for e in t.entries if e.kind == "shuffle")
        assert len(on_loop) >= shuffles > 1  # every proof of the deal (two threads may ask for one)
        assert not any(on_loop), f"{on_loop.count(True)} of {shuffles} proofs were verified on the loop"
        assert watcher.table.head == t.head
        await watcher.stop()


async def test_a_peer_catching_up_a_deal_checks_the_points_of_its_large_entries_off_its_loop(
    tmp_path, monkeypatch: pytest.MonkeyPatch
):
    """A `deck` entry carries hundreds of points, each checked to be valid: a peer checks an entry
    past :data:`net.client.HEAVY_PAYLOAD` bytes in a worker thread first, whose answer the fold
    on the loop finds (a `shuffle`'s points are left to its proof, verified in a thread too).
    Counted: the points checked on the loop's thread while it catches up a deal."""
    async with two_people(tmp_path) as table:
        # As on a computer of its own: nothing of the deal is known to this process already.
        monkeypatch.setattr(group, "VERIFY_MEMO", group.VerifyMemo())
        monkeypatch.setattr(group, "OWN_PROOFS", group.OwnProofs())
        checked = {"loop": 0, "threads": 0}
        is_point = group.is_point

        def counted(b):
            checked["loop" if threading.current_thread() is threading.main_thread() else "threads"] += 1
            return is_point(b)

        monkeypatch.setattr(group, "is_point", counted)
        t = table.host.table
        large = [e.kind for e in t.entries if len(e.payload) > HEAVY_PAYLOAD]
        watcher = Client(("127.0.0.1", table.host.port), new_key(), name="Watcher", role="spectator", timeouts=FAST)
        await watcher.start()
        await eventually(lambda: watcher.table is not None and watcher.table.seq == t.seq, 60, "caught up")
        await eventually(lambda: watcher.table.unverified is None, 30, "the last proof settled")
        assert {"deck", "shuffle"} <= set(large)
        decks = large.count("deck")
        # Every deck's points in threads; on the loop fewer than one deck holds, those of the
        # small entries (before: 416 on the loop, none in threads).
        assert checked["threads"] >= 100 * decks and checked["loop"] < checked["threads"] / decks, checked
        assert watcher.table.head == t.head
        await watcher.stop()


async def test_a_peer_back_after_a_long_catch_up_reports_only_the_waits_still_open(tmp_path):
    """The waits of the tables a peer folds on its way to the host's head are over: once caught up
    it reports the waits still open, counted on the table's wait clock (PROTOCOL.md 6.5), never
    one it met on the way ("The table has waited 45 s on ..." for a seat that has long moved)."""
    host = open_host(seats=3)
    await host.start("127.0.0.1", 0)
    t = host.table
    players = [
        Client(("127.0.0.1", host.port), new_key(), name=f"P{i}", timeouts=FAST, backoff=QUICK_BACKOFF)
        for i in range(3)
    ]  # people who move only when the test says
    for player in players:
        await player.start()
        await eventually(lambda p=player: p.seat is not None and p.seat.index is not None, 10, "seated")
    await eventually(lambda: t.phase == "running" and t.work is None and t.waiting_on(), 60, "the first move awaited")
    key, now = new_key(), [0.0]

    def spectator() -> Client:
        return watcher(host, key, tmp_path, liveness=Liveness(stall_after=30.0, clock=lambda: now[0]))

    first = spectator()
    await first.start()
    await eventually(lambda: first.table is not None and first.table.seq == t.seq, 10, "in step")
    await first.stop()
    [mover] = t.waiting_on()
    pad(host, 3 * 128 * 1024)  # frames of a catch-up end inside it, the table waiting on the mover
    by_seat = {p.seat.index: p for p in players}
    await by_seat[mover].submit("move", by_seat[mover].seat.legal_acts()[0])
    [waited] = t.waiting_on()
    assert waited != mover
    now[0] = now_ms() + 45_000.0  # the spectator comes back 45 s later

    back = spectator()
    waits: list[Waiting] = []
    back.listeners.subscribe(lambda e: waits.append(e) if isinstance(e, Waiting) else None)
    await back.start()
    await eventually(lambda: back.connected and back.table.seq == t.seq, 30, "caught up")
    wait = t.waited(waited)
    assert wait is not None
    assert [(e.names, e.seconds) for e in waits] == [((t.names[waited],), (now[0] - wait.time_ms) / 1000)]
    for client in [back, *players]:
        await client.stop()
    await host.close()


async def test_a_peer_catching_up_lets_its_loop_run_between_any_two_entries_it_folds(tmp_path):
    """A 128 KiB frame of a catch-up is seconds of folding under load (signatures, the table, the
    log): the peer folds it an entry at a time, its loop running between any two, so its pings go
    on and a host with quick pings does not drop it as silent. Counted, not timed: the most entries
    it folds between two turns of its loop is one (before: a whole frame, about 400)."""
    host = open_host(seats=3)
    await host.start("127.0.0.1", 0)
    t = host.table
    key = new_key()
    first = watcher(host, key, tmp_path)
    await first.start()
    await eventually(lambda: first.table is not None and first.table.seq == t.seq, 10, "in step")
    await first.stop()
    held = t.seq
    pad(host, 3 * 128 * 1024)
    back = watcher(host, key, tmp_path)
    folded_per_turn: list[int] = []

    async def each_turn_of_the_loop() -> None:
        last = None
        while True:
            seq = None if back.table is None else back.table.seq
            if last is not None and seq is not None:
                folded_per_turn.append(seq - last)
            last = seq
            await asyncio.sleep(0)

    turns = asyncio.get_running_loop().create_task(each_turn_of_the_loop())
    await back.start()
    await eventually(lambda: back.connected and back.table.seq == t.seq, 60, "caught up")
    await eventually(lambda: sum(folded_per_turn) == t.seq - held, 10, "the last fold seen by a turn of the loop")
    turns.cancel()
    assert t.seq - held > 700  # three frames of a paced catch-up
    assert max(folded_per_turn) == 1
    await back.stop()
    await host.close()


async def test_a_peer_coming_from_nothing_loads_the_games_rules_off_its_loop(tmp_path):
    """The genesis entry names the game, whose rules a peer loads the first time (most of a second
    of imports, several under load): loaded in a worker thread before the genesis is folded, so
    this peer's pings go on. Counted: the rules are first asked for off the loop's thread."""
    host = open_host(seats=3)
    await host.start("127.0.0.1", 0)
    asked: list[str] = []
    rules = all_rules()

    class Recorded(RulesByName):
        def __getitem__(self, name: str):
            asked.append(threading.current_thread().name)
            return rules[name]

    peer = watcher(host, new_key(), tmp_path, games=Recorded())
    await peer.start()
    await eventually(lambda: peer.connected and peer.table.seq == host.table.seq, 30, "caught up")
    assert asked and asked[0] != threading.current_thread().name
    await peer.stop()
    await host.close()


async def test_a_peer_reads_the_games_card_database_off_its_loop_before_it_folds(tmp_path, monkeypatch):
    """A VTES table's first view reads the card database (3 s quiet, 30 s under a heavy load: bot
    processes were dropped as silent right after they connected): a peer coming to a table of
    the game reads it in a worker thread before it folds, so its pings go on. Counted: the card
    database is first asked for off the loop's thread, and asked for."""
    from engine.games.base import parse_options
    from engine.games.vtes import cards
    from engine.sequencer import Sequencer
    from net.host import Host

    asked: list[str] = []
    base = cards.card_base

    def recorded():
        asked.append(threading.current_thread().name)
        return base()

    monkeypatch.setattr(cards, "card_base", recorded)
    games = all_rules()
    sequencer = Sequencer(new_key(), games, None, now_ms)
    sequencer.open_table("vtes", dict(parse_options(games["vtes"].option_schema, {})), 2, "a VTES table")
    host = Host(sequencer, timeouts=FAST)
    await host.start("127.0.0.1", 0)
    peer = watcher(host, new_key(), tmp_path)
    await peer.start()
    await eventually(lambda: peer.connected and peer.table.seq == host.table.seq, 30, "caught up")
    assert asked and asked[0] != threading.current_thread().name
    await peer.stop()
    await host.close()


async def test_a_peer_recomputes_an_event_from_its_revealed_seeds_off_its_loop(tmp_path, monkeypatch):
    """The last seed reveal of an event makes every peer recompute it (a thousand multiplications
    at VTES's end: 290 ms of one entry on a loop under a heavy load): a peer checks a `seed-reveal`
    in a worker thread before it folds it, and the recompute made there is the fold's. Counted:
    the recomputes of a spectator catching up an ended table, on its loop and off it."""
    from engine.table.hidden import closing
    from tests.support.net import start_bots

    host = open_host(seats=3)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 3)
    t = host.table
    await eventually(lambda: all(b.table.seq == t.seq for b in bots) and t.ended, 120, "the game's end")
    await asyncio.gather(*(b.stop() for b in bots))  # every seat has folded its last recompute
    # As on a computer of its own: no recompute of this table is known to this process already.
    monkeypatch.setattr(closing, "_RECOMPUTED", {})
    where: list[bool] = []
    recompute = closing.Closing.recompute

    def counted(self, ev, extra=None):
        where.append(threading.current_thread() is threading.main_thread())
        return recompute(self, ev, extra)

    monkeypatch.setattr(closing.Closing, "recompute", counted)
    peer = watcher(host, new_key(), tmp_path)
    await peer.start()
    await eventually(lambda: peer.table is not None and peer.table.ended, 60, "caught up to the end")
    events = sum(1 for ev in t.events if ev.cards is not None)
    assert len(where) >= events > 0 and not any(where), f"{where.count(True)} of {len(where)} on the loop"
    assert peer.table.digest() == t.digest()
    await peer.stop()
    await host.close()
