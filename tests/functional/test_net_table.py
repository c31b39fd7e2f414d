"""Tables over loopback TCP in one process: spectators, reconnection, stalls and abandon votes,
fork evidence, and the session the TUI talks to (PROTOCOL.md 3, 6, 7)."""

from __future__ import annotations

import asyncio
import random

import pytest

from engine.games.base import IllegalMove
from engine.protocol.identity import new_key
from engine.protocol.log import read_log, sign_entry, sign_head
from engine.seat import now_ms
from engine.sequencer import Sequencer
from engine.table import TableRefusal
from net.client import Client, Hooks, Liveness, Seating, Store
from net.events import Connection, Finished, Folded, SeatRefusal, SeatRefused, Waiting
from net.host import Host
from net.local import bot_factory, open_local_table
from net.session import Session, SessionError
from tests.support.net import FAST, QUICK_BACKOFF, eventually, free_port, open_host, start_bots, stop_all


async def test_a_spectator_sees_every_public_act_and_none_of_the_hidden_cards(tmp_path):
    host = open_host(seats=4, save=tmp_path / "host.vtlog")
    await host.start("127.0.0.1", 0)
    spectator = Client(
        ("127.0.0.1", host.port),
        new_key(),
        name="Watcher",
        role="spectator",
        store=Store.in_dir(tmp_path / "spectator"),
        timeouts=FAST,
    )
    seen: list[str] = []
    hidden_seen: list = []

    def watch(event):
        if isinstance(event, Folded):
            seen.extend(event.notes)
            view = spectator.seat.view()
            if spectator.seat.known or (view is not None and view.hand):
                hidden_seen.append(event.entry.seq)

    spectator.listeners.subscribe(watch)
    await spectator.start()
    bots = await start_bots(host, 4, timeouts=FAST)
    t = host.table
    await eventually(lambda: t.ended and spectator.finished.is_set(), 60, "the game to end")
    assert hidden_seen == []
    assert spectator.seat.index is None
    assert spectator.table.digest() == t.digest()
    assert seen == [n.render(t.names) for n in t.notes]
    assert any(" leads " in line for line in seen) and any(" plays " in line for line in seen)
    # While cards were in hands the spectator could name none of them: its known cards are only
    # what the table made public (every card once the round's seeds are revealed).
    assert (tmp_path / "spectator" / "table.vtlog").read_bytes() == (tmp_path / "host.vtlog").read_bytes()
    assert not (tmp_path / "spectator" / "seat.secrets").exists()
    await stop_all(host, bots + [spectator])


async def test_a_spectator_mid_deal_holds_no_hand():
    host = open_host(seats=3)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 3)
    t = host.table
    await eventually(lambda: t.gstate is not None and t.gstate.phase == "play", 30, "the first trick")
    spectator = Client(("127.0.0.1", host.port), new_key(), name="Late", role="spectator", timeouts=FAST)
    await spectator.start()
    await eventually(lambda: spectator.connected, 10, "the spectator caught up")
    view = spectator.seat.view()
    assert view.seat is None and view.hand == ()
    hidden = [c for hand in view.state.hands for c in hand if c.ident is None]
    assert hidden, "cards in hands are hidden to a spectator"
    assert all(pos not in spectator.seat.known_cards() for pos in (c.pos for c in hidden))
    # ... while each seat knows its own.
    for bot in bots:
        own = bot.seat.view().hand
        assert own and all(ident is not None for _, ident in own)
    await stop_all(host, bots + [spectator])


async def test_a_client_that_drops_its_connection_catches_up_and_plays_on(tmp_path):
    host = open_host(seats=4, save=tmp_path / "host.vtlog")
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 3)
    states: list[str] = []
    dropper = Client(
        ("127.0.0.1", host.port),
        new_key(),
        name="Flaky",
        store=Store.in_dir(tmp_path / "flaky"),
        seating=Seating(bot=bot_factory("heuristic", random.Random(5))),
        timeouts=FAST,
        backoff=QUICK_BACKOFF,
    )
    dropper.listeners.subscribe(lambda e: states.append(e.state) if isinstance(e, Connection) else None)
    await dropper.start()
    t = host.table
    missed = []
    # Marks well inside a one-round game of four (it can end at 67 entries: a mark past its end
    # would never be reached).
    for mark in (15, 30, 45):
        await eventually(lambda m=mark: dropper.table is not None and dropper.table.seq > m, 30, f"seq {mark}")
        # Keep it away (its reconnections fail) while the others play on without it.
        dropper.address = ("127.0.0.1", free_port())
        dropper.drop()
        await eventually(lambda: not dropper.connected, 5, "the drop")
        away = dropper.table.seq
        await eventually(
            lambda a=away: t.seq > a + 1 or dropper.seat.index in t.waiting_on(), 30, "the table to move on"
        )
        missed.append(t.seq - away)
        dropper.address = ("127.0.0.1", host.port)
        await eventually(lambda: dropper.connected, 10, "the reconnection")
        assert dropper.table.seq >= t.seq - 1
    await eventually(lambda: t.ended and dropper.finished.is_set(), 60, "the game to end")
    assert states.count("disconnected") >= 3
    assert any(n > 0 for n in missed), "it missed entries while away and caught up"
    assert dropper.failure is None
    assert dropper.table.digest() == t.digest()
    assert (tmp_path / "flaky" / "table.vtlog").read_bytes() == (tmp_path / "host.vtlog").read_bytes()
    await stop_all(host, bots + [dropper])


async def test_a_stalled_seat_is_named_and_the_others_end_the_game_with_abandon_votes():
    host = open_host(seats=4, rules={"stall_seconds": 4})
    await host.start("127.0.0.1", 0)
    # Seat 0 performs its duties by itself but never moves: its player walked away.
    idle = Session(
        Client(("127.0.0.1", host.port), new_key(), name="Gone", timeouts=FAST, liveness=Liveness(stall_after=0.3))
    )
    waits: list[Waiting] = []
    idle.subscribe(lambda e: waits.append(e) if isinstance(e, Waiting) else None)
    await idle.start()
    await eventually(lambda: idle.seat == 0, 10, "seat 0")
    # Past the longest wait an honest seat makes the others wait: a proven shuffle on a loaded
    # machine takes a second or more, and the others' loops, free while they verify, see it.
    bots = await start_bots(host, 3, stall_after=0.3, abandon_after=4.0)
    bot_waits: list[Waiting] = []
    bots[0].listeners.subscribe(lambda e: bot_waits.append(e) if isinstance(e, Waiting) else None)
    t = host.table
    await eventually(lambda: t.ended, 60, "the game to end")
    assert t.abandoned == [0]
    result = t.game.result(t.gstate)
    assert result.abandoned == (0,) and result.winners == ()
    votes = [e for e in t.entries if e.kind == "abandon"]
    # More than half of the three others carries it (PROTOCOL.md 6.5): two votes, a third in
    # flight may land first.
    voters = [t.seat_of(e.author) for e in votes]
    assert len(voters) in (2, 3) and len(set(voters)) == len(voters) and set(voters) <= {1, 2, 3}
    assert all(e.body == {"seat": 0} for e in votes)
    assert any(w.seats == (0,) and w.names == ("Gone",) for w in bot_waits)
    assert any(0 in w.seats for w in waits)
    await eventually(lambda: idle.table.ended, 10, "the idle seat sees the end")
    assert idle.table.digest() == t.digest()
    await stop_all(host, bots + [idle.client])


class EquivocatingHost(Host):
    """A host that shows one peer (``victim``) another `chat` at the same seq than everyone else."""

    victim: bytes | None = None
    alternative = None

    def broadcast(self, entry, head_sig):
        if entry.kind != "chat" or self.victim is None:
            return super().broadcast(entry, head_sig)
        key = self.sequencer.key
        alt = sign_entry(
            key,
            table=entry.table,
            seq=entry.seq,
            prev=entry.prev,
            kind="chat",
            body={"text": "something else"},
            time_ms=entry.time,
        )
        alt_head = sign_head(key, entry.table, entry.seq, alt.id)
        self.alternative = (alt, alt_head)
        from net.framing import frame_bytes
        from net.messages import Entries

        for peer in self.peers:
            if peer.key == self.victim:
                peer.outbox.send(frame_bytes(Entries(alt.seq, [[alt.wire_array(), alt_head]]).to_map()))
            elif peer.synced:
                peer.outbox.send(frame_bytes(Entries(entry.seq, [[entry.wire_array(), head_sig]]).to_map()))


async def test_a_host_that_equivocates_is_caught_by_the_relayed_head_signatures():
    host = open_host(seats=4, host_cls=EquivocatingHost)
    await host.start("127.0.0.1", 0)
    honest, victim = await start_bots(host, 2)
    host.victim = victim.public
    await eventually(lambda: honest.connected and victim.connected, 5, "both connected")
    real = host.post("chat", {"text": "hello everyone"})
    real_head = host.sequencer.heads[-1]
    await eventually(lambda: honest.fork is not None and victim.fork is not None, 10, "both peers to see the fork")
    alt, alt_head = host.alternative
    for client in (honest, victim):
        evidence = client.fork
        assert evidence.check()
        assert evidence.host == host.sequencer.public
        assert evidence.first.seq == evidence.second.seq == real.seq
        assert {evidence.first.signature, evidence.second.signature} == {real_head, alt_head}
        assert {evidence.first.entry_id, evidence.second.entry_id} == {real.id, alt.id}
    # Each lingers a few pings (so its head reaches the others), then stops, naming the fork.
    await eventually(lambda: honest.finished.is_set() and victim.finished.is_set(), 10, "both to stop")
    assert "two different entries as seq" in honest.failure and "two different entries" in victim.failure
    await stop_all(host, [honest, victim])


async def test_the_session_checks_a_move_before_submitting_and_re_signs_the_same_act_on_stale():
    table = await open_local_table(
        levels=("heuristic", "heuristic", "heuristic"), options={"rounds": "1"}, timeouts=FAST
    )
    session = table.session
    try:
        assert session.seat == 0
        await eventually(lambda: session.view() is not None and session.view().state.phase == "play", 30, "the deal")
        t = table.host.table
        await eventually(lambda: session.legal_acts(), 30, "our turn")
        legal = session.legal_acts()
        with pytest.raises(IllegalMove):
            await session.submit_move({"do": "play", "cards": [[99, 99]]})
        # Slip a host entry in after the move is signed: the host answers stale, and the client
        # signs the same act again on the new head.
        act = legal[-1]
        task = asyncio.ensure_future(session.submit_move(act))
        await asyncio.sleep(0)
        head_before = session.table.seq
        table.host.post("chat", {"text": "a word from the host"})
        entry = await asyncio.wait_for(task, 10)
        assert entry.body["act"] == act
        assert entry.seq == head_before + 1
        assert t.entries[head_before].kind == "chat"
        assert session.client.resigned >= 1
        if (0, "move") not in session.table.owed():
            with pytest.raises(SessionError):
                await session.submit_move(act)
        assert len(session.head_fingerprint) == 19  # 64 bits in four groups (PROTOCOL.md 8)
        line = await session.chat("good game")
        assert line.kind == "chat"
    finally:
        await table.close()


async def test_a_local_table_is_a_host_bots_and_a_session_over_loopback():
    table = await open_local_table(
        levels=("random", "random"),
        options={"rounds": "1"},
        timeouts=FAST,
        player_bot=bot_factory("heuristic", random.Random(3)),
    )

    async def first_finished():
        async for event in table.session.events():
            if isinstance(event, Finished):
                return event

    try:
        assert table.host.table.nseats == 3
        assert table.session.connection == "connected"
        finished = await asyncio.wait_for(first_finished(), 60)
        assert finished.digest == table.host.table.digest().hex()
        await eventually(lambda: table.host.table.ended, 5, "the host's end")
        await eventually(lambda: table.session.table.ended, 5, "the end reaches the session")
        from engine.protocol.identity import short_fingerprint

        assert table.session.head_fingerprint == short_fingerprint(table.host.table.head)
    finally:
        await table.close()


async def test_a_restarted_client_resumes_its_seat_from_its_own_files(tmp_path):
    host = open_host(seats=3, save=tmp_path / "host.vtlog")
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 2)
    key = new_key()

    def make():
        return Client(
            ("127.0.0.1", host.port),
            key,
            name="Twice",
            store=Store.in_dir(tmp_path / "me"),
            seating=Seating(bot=bot_factory("heuristic", random.Random(1))),
            timeouts=FAST,
            backoff=QUICK_BACKOFF,
        )

    first = make()
    await first.start()
    await eventually(lambda: first.table is not None and first.table.seq > 40, 30, "some play")
    await first.stop()
    held = len(read_log(tmp_path / "me" / "table.vtlog").entries)
    second = make()
    await second.start()
    assert second.table.seq == held  # folded from its own file before connecting
    t = host.table
    await eventually(lambda: t.ended and second.finished.is_set(), 60, "the game to end")
    assert second.seat.index == first.seat.index
    assert (tmp_path / "me" / "table.vtlog").read_bytes() == (tmp_path / "host.vtlog").read_bytes()
    await stop_all(host, bots + [second])


async def test_a_player_arriving_after_the_start_is_told_there_is_no_seat():
    host = open_host(seats=3)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 3)
    await eventually(lambda: host.table.phase == "running", 10, "the start")
    late = Client(("127.0.0.1", host.port), new_key(), name="Late", timeouts=FAST)
    refused = []
    late.listeners.subscribe(lambda e: refused.append(e) if isinstance(e, SeatRefused) else None)
    await late.start()
    await eventually(lambda: refused, 10, "the refusal")
    assert refused[0] == SeatRefused(SeatRefusal.GAME_STARTED, "queen")
    assert late.seat.index is None and len(host.table.seats) == 3
    await stop_all(host, bots + [late])


async def test_a_client_leaving_in_the_lobby_frees_its_seat_and_another_takes_it(tmp_path):
    host = open_host(seats=3, save=tmp_path / "host.vtlog", auto_start=False)
    await host.start("127.0.0.1", 0)
    (first,) = await start_bots(host, 1)
    ann = Session(Client(("127.0.0.1", host.port), new_key(), name="Ann", timeouts=FAST, backoff=QUICK_BACKOFF))
    await ann.start()
    await eventually(lambda: ann.seat == 1, 10, "Ann seated")
    (last,) = await start_bots(host, 1, seed=1)
    t = host.table
    await eventually(lambda: last.seat.index == 2 and ann.table.seq == t.seq, 10, "a full table everywhere")
    assert t.phase == "lobby", "a host without auto_start waits for start_game() on a full table"

    entry = await ann.leave()
    assert entry.kind == "leave" and entry.author == ann.client.public
    assert ann.client.left and ann.client.finished.is_set() and ann.connection == "stopped"
    assert [s.key for s in t.seats] == [first.public, last.public] and t.seat_of(ann.client.public) is None
    # The seat after Ann's moves down one, at the host and at every peer.
    await eventually(lambda: last.seat.index == 1 and first.table.seq == t.seq, 10, "the leave reaches the bots")
    assert [e.kind for e in read_log(tmp_path / "host.vtlog").entries].count("leave") == 1
    assert ann.table.entries[-1].id == entry.id  # Ann folded her leave, and sent no new join after it

    # The host cannot start with a seat open; someone else takes the freed seat; then it can.
    with pytest.raises(TableRefusal, match="the table has 2 of its 3 players"):
        host.start_game()
    ben = Session(Client(("127.0.0.1", host.port), new_key(), name="Ben", timeouts=FAST, backoff=QUICK_BACKOFF))
    await ben.start()
    await eventually(lambda: ben.seat == 2, 10, "Ben takes the freed seat")
    assert t.names[2] == "Ben" and t.phase == "lobby"
    host.start_game()
    await eventually(
        lambda: ben.table.phase == "running" and first.table.phase == "running", 10, "the start everywhere"
    )
    await stop_all(host, [first, last, ben.client])


async def test_leave_after_the_start_is_refused_with_a_sentence_and_nothing_is_sent():
    host = open_host(seats=3)  # headless: it starts by itself once every seat is taken
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 2)
    me = Session(Client(("127.0.0.1", host.port), new_key(), name="Late", timeouts=FAST, backoff=QUICK_BACKOFF))
    await me.start()
    t = host.table
    await eventually(lambda: me.seat == 2 and me.table.phase == "running", 10, "the start")
    assert t.entries[4].kind == "start" and t.entries[4].author == t.host
    with pytest.raises(
        SessionError, match="You cannot leave this seat: a seat can be left only before the game starts"
    ):
        await me.leave()
    assert not me.client.left and me.connection == "connected"
    assert "leave" not in [e.kind for e in t.entries]
    # The host's table refuses it too, whoever sends it: same sentence, nothing appended.
    forged = sign_entry(me.client.key, table=t.table_id, seq=t.seq, prev=t.head, kind="leave", body={}, time_ms=0)
    with pytest.raises(TableRefusal, match="a seat can be left only before the game starts") as refused:
        t.check(forged)
    assert refused.value.code == "illegal"
    await stop_all(host, bots + [me.client])


async def _vtes_host() -> Host:
    from engine.games import all_rules
    from engine.games.base import parse_options

    games = all_rules()
    sequencer = Sequencer(new_key(), games, None, now_ms)
    sequencer.open_table("vtes", dict(parse_options(games["vtes"].option_schema, {})), 2, "vtes table")
    host = Host(sequencer, timeouts=FAST)
    await host.start("127.0.0.1", 0)
    return host


async def test_a_person_is_not_seated_at_a_vtes_table_the_screen_cannot_play():
    """A front end that cannot play VTES by hand says so through ``may_sit``: the person's client
    sends no `join` and reports the front end's own sentence (a seat nobody can play would stall
    every other Methuselah)."""
    host = await _vtes_host()
    sentence = "This screen plays only Vampire Queen: join with --bot, or watch with --spectate."
    person = Client(
        ("127.0.0.1", host.port),
        new_key(),
        name="Mina",
        seating=Seating(may_sit=lambda game: None if game == "queen" else sentence),
        timeouts=FAST,
        backoff=QUICK_BACKOFF,
    )
    refusals = []
    person.listeners.subscribe(lambda e: refusals.append(e) if isinstance(e, SeatRefused) else None)
    await person.start()
    await eventually(lambda: refusals, 10, "a refusal")
    assert refusals[0] == SeatRefused(SeatRefusal.NOT_BY_HAND, "vtes", sentence)
    assert host.table.seats == []
    await stop_all(host, [person])


async def test_a_seat_that_brings_no_deck_to_a_vtes_table_is_not_seated():
    host = await _vtes_host()
    person = Client(("127.0.0.1", host.port), new_key(), name="Mina", timeouts=FAST, backoff=QUICK_BACKOFF)
    refusals = []
    person.listeners.subscribe(lambda e: refusals.append(e) if isinstance(e, SeatRefused) else None)
    await person.start()
    await eventually(lambda: refusals, 10, "a refusal")
    assert refusals[0] == SeatRefused(SeatRefusal.NEEDS_KIT, "vtes")
    assert host.table.seats == []
    await stop_all(host, [person])


async def test_before_submit_sees_each_entry_once_what_it_commits_to_is_on_disk(tmp_path):
    """The hook a crash test kills the process in: called with the entry's kind after the seat's
    secret (a shuffle's seed, a move's act) is in its secrets file, and before the entry is sent."""
    from engine.protocol.secrets import SecretsFile

    host = open_host(seats=3)
    await host.start("127.0.0.1", 0)
    seen: list[tuple[str, bool]] = []

    def before_submit(kind: str) -> None:
        stored = SecretsFile(tmp_path / "me" / "seat.secrets")
        t = me.table
        if kind == "shuffle":
            seen.append((kind, stored.get("seed", t.work.event) is not None))
        elif kind == "move":
            moves = sum(1 for e in t.entries if e.kind == "move")
            seen.append((kind, stored.get("intent", moves) is not None))
        else:
            seen.append((kind, True))

    me = Client(
        ("127.0.0.1", host.port),
        new_key(),
        name="Hooked",
        store=Store.in_dir(tmp_path / "me"),
        seating=Seating(bot=bot_factory("heuristic", random.Random(2))),
        timeouts=FAST,
        hooks=Hooks(before_submit=before_submit),
    )
    await me.start()
    bots = await start_bots(host, 2)
    await eventually(lambda: any(kind == "move" for kind, _ in seen), 30, "a first move")
    kinds = [kind for kind, _ in seen]
    assert kinds[0] == "join" and "shuffle" in kinds
    assert all(on_disk for _, on_disk in seen)
    sent = [e.kind for e in host.table.entries if e.author == me.public]

    def runs(ks: list[str]) -> list[str]:
        """The kinds, one per run: an entry the host refused as stale is signed again on the new
        head (PROTOCOL.md 3) and the hook sees it again, so one entry may be seen twice in a row."""
        return [k for i, k in enumerate(ks) if i == 0 or ks[i - 1] != k]

    assert runs(sent) == runs(kinds)[: len(runs(sent))]
    await stop_all(host, bots + [me])


async def test_a_bot_of_a_level_the_tables_game_has_not_takes_no_seat():
    """A bot client is checked against the table's own game as soon as the table says which it
    is: a level that game has not is refused before `join`, never at the bot's first turn."""
    host = open_host(3)
    await host.start("127.0.0.1", 0)
    bot = Client(
        ("127.0.0.1", host.port),
        new_key(),
        name="Genius",
        seating=Seating(bot=bot_factory("genius", random.Random(1))),
        timeouts=FAST,
        backoff=QUICK_BACKOFF,
    )
    refusals = []
    bot.listeners.subscribe(lambda e: refusals.append(e) if isinstance(e, SeatRefused) else None)
    await bot.start()
    await eventually(lambda: refusals, 10, "a refusal")
    assert refusals[0].reason is SeatRefusal.NO_BOT
    assert "unknown bot level 'genius'" in refusals[0].detail and "Vampire Queen" in refusals[0].detail
    assert host.table.seats == []
    await stop_all(host, [bot])
