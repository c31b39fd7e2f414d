"""Many strangers at once (docs/protocol.md 7.1): the host-wide budget of connections that hold no
seat, the pings answered and checked, the direct seen reports per source address with a ceiling
for all, and the ``ask`` a peer deceived by a fork sends the group. No sockets, an injected clock:
work is counted, never timed."""

from __future__ import annotations

from engine.protocol.identity import new_key, public_bytes
from engine.protocol.log import Head, sign_head
from net.admission import Admission, Budgets, Caps, Strangers, Tokens
from net.messages import Ping, Pong
from net.peers import Peer, Pongs
from net.seen import ALL_SOURCES, PORT, SeenMulticast, SeenReport, ask_bytes, datagram_bytes, parse_datagram, sign_seen
from tests.unit.net.test_seen_and_lan import TABLE, Clock, FakeTransport, a_report


class NoOutbox:
    def send(self, message, counted=True) -> bool:  # pragma: no cover - never called here
        return True


def a_peer(key: bytes = b"") -> Peer:
    from net.admission import FrameRate

    return Peer("127.0.0.1:1", NoOutbox(), "127.0.0.1", role="player", key=key, frames=FrameRate(200, 400))  # type: ignore[arg-type]


def test_tokens_take_their_burst_then_their_rate_and_count_what_they_refuse():
    clock = Clock()
    tokens = Tokens(rate=2.0, burst=4.0, clock=clock)
    assert [tokens.take() for _ in range(5)] == [True] * 4 + [False]
    clock.now += 1.0
    assert [tokens.take() for _ in range(3)] == [True, True, False]
    assert tokens.taken == 6 and tokens.refused == 2
    assert not tokens.take(3) and tokens.taken == 6  # n units at once, or none


def test_unseated_connections_have_a_cap_of_their_own_well_below_the_total():
    admission = Admission(Caps(total=256, unseated=128), say=[].append)
    assert admission.max_unseated == 128
    assert admission.unseated_over_cap(127) is None
    assert "cap of 128 connections that hold no seat" in (admission.unseated_over_cap(128) or "")
    assert Admission(Caps(total=40, unseated=128), say=[].append).max_unseated == 20  # half the total at most


async def test_strangers_share_the_host_wide_rate_and_burst_and_a_seat_does_not():
    clock = Clock()
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.now += seconds

    strangers = Strangers(rate=1000.0, burst=80_000.0)
    admission = Admission(strangers=strangers, say=[].append, clock=clock, sleep=sleep)
    admission.strangers.count = 10  # ten strangers: 100 bytes a second and 8000 at once each
    share = admission.strangers.share(Budgets().guest)
    assert (share.rate, share.burst, share.max_frame) == (100.0, 8000.0, Budgets().guest.max_frame)
    guests = [admission.bucket("guest") for _ in range(10)]
    for bucket in guests:  # each spends its share of the burst at once: a newcomer's join never waits
        await admission.admit(bucket, "guest", 8000)
    assert slept == []
    await admission.admit(guests[0], "guest", 1000)  # then 1000 bytes at 100 a second: 10 s
    assert slept == [10.0] and admission.strangers.decoded == 81_000
    admission.strangers.count = 1000  # however many: a burst never below a hello's 4 KiB
    assert admission.strangers.share(Budgets().guest).burst == 4096
    admission.strangers.count = 1  # alone: the lower of its kind's budget and the host-wide one
    assert admission.strangers.share(Budgets().guest).rate == 1000.0
    assert Admission(say=[].append).strangers.share(Budgets().guest).rate == Budgets().guest.rate
    seat = admission.bucket("seated")
    await admission.admit(seat, "seated", 100_000)
    assert len(slept) == 1 and admission.strangers.decoded == 81_000  # a seat is not a stranger


def test_a_strangers_pings_are_taken_once_a_second_and_checked_only_when_they_change():
    clock = Clock()
    host_key = new_key()
    host = public_bytes(host_key)
    strangers = Admission(strangers=Strangers(checks=1000, check_burst=1000), say=[].append, clock=clock).strangers
    pongs = Pongs(host, TABLE, clock)
    guest_key = new_key()
    guest = a_peer(public_bytes(guest_key))
    entry_id = bytes(32)
    head = Head(TABLE, 4, entry_id, sign_head(host_key, TABLE, 4, entry_id))
    wire = [head.seq, head.entry_id, head.signature]
    ping = Ping(wire, [], sign_seen(guest_key, head))
    answered = [pongs.on_ping(guest, ping, False, strangers) for _ in range(100)]  # 100 in one second
    assert answered == [True] + [False] * 99
    assert strangers.checks.taken == 2 and guest.head == head and guest.fsig == ping.fsig
    clock.now += 1.0
    assert pongs.on_ping(guest, ping, False, strangers)  # a second later: answered, not checked again
    assert strangers.checks.taken == 2
    clock.now += 1.0
    assert not pongs.on_ping(guest, Pong(wire, [], bytes(64)), False, strangers)  # a pong is never answered
    assert strangers.checks.taken == 4 and guest.fsig is None  # changed: checked, and refused
    # A seat's pings are all answered, and its head checked only when it changes.
    seat = a_peer(public_bytes(guest_key))
    assert all(pongs.on_ping(seat, ping, True, strangers) for _ in range(10))
    assert seat.head == head and strangers.checks.taken == 4


def test_over_the_budget_of_checks_and_replies_a_strangers_ping_is_neither_checked_nor_answered():
    clock = Clock()
    strangers = Admission(
        strangers=Strangers(checks=2, check_burst=2, replies=1, reply_burst=1), say=[].append, clock=clock
    ).strangers
    pongs = Pongs(public_bytes(new_key()), TABLE, clock)
    peers = [a_peer(public_bytes(new_key())) for _ in range(5)]
    answers = [pongs.on_ping(p, Ping([1, bytes(32), bytes(64)], [], bytes(64)), False, strangers) for p in peers]
    assert answers == [True, False, False, False, False]
    assert strangers.checks.taken == 2 and strangers.checks.refused == 4
    assert all(p.head is None for p in peers)  # a forged head is never kept


def test_the_pong_frame_is_made_once_while_the_head_and_relay_hold():
    pongs = Pongs(public_bytes(new_key()), TABLE)
    head = [3, bytes(32), bytes(64)]
    frames = {pongs.frame(head, []) for _ in range(50)}
    assert len(frames) == 1 and pongs.made == 1
    pongs.frame([4, bytes(32), bytes(64)], [])
    assert pongs.made == 2


def endpoint(clock: Clock, heard: list, answer=None) -> tuple[SeenMulticast, FakeTransport]:
    mine, _ = a_report(seq=3)
    multicast = SeenMulticast(lambda: TABLE, lambda: mine, heard.append, answer=answer, clock=clock)
    transport = FakeTransport()
    multicast._transport = transport  # type: ignore[assignment]
    return multicast, transport


def test_a_sender_that_rotates_its_source_port_is_held_to_one_sources_rate():
    clock = Clock()
    heard: list[SeenReport] = []
    multicast, _ = endpoint(clock, heard)
    reports = [a_report(seq=i)[0] for i in range(100)]
    for second in range(5):
        for i in range(20):  # 20 a second, each from a new port
            multicast.datagram_received(datagram_bytes(reports[second * 20 + i]), ("10.0.0.9", 40000 + second * 20 + i))
        clock.now += 1.0
    assert len(heard) == 10 * 5 and multicast.dropped == 50


def test_all_sources_together_are_held_to_a_ceiling():
    clock = Clock()
    heard: list[SeenReport] = []
    multicast, _ = endpoint(clock, heard)
    for i in range(200):  # 200 addresses, one datagram each, in one second
        multicast.datagram_received(datagram_bytes(a_report(seq=i)[0]), (f"10.0.{i // 100}.{i % 100}", PORT))
    assert len(heard) == ALL_SOURCES and multicast.dropped == 200 - ALL_SOURCES


def test_an_ask_is_answered_with_the_head_held_at_that_seq_and_at_most_a_few_a_second():
    clock = Clock()
    held, _ = a_report(seq=5)
    asked: list[int] = []

    def answer(seq: int) -> SeenReport | None:
        asked.append(seq)
        return held if seq == 5 else None

    multicast, transport = endpoint(clock, [], answer)
    assert parse_datagram(ask_bytes(TABLE, 5), TABLE) == 5 and parse_datagram(ask_bytes(bytes(32), 5), TABLE) is None
    multicast.datagram_received(ask_bytes(TABLE, 5), ("10.0.0.2", PORT))
    multicast.datagram_received(ask_bytes(TABLE, 9), ("10.0.0.3", PORT))  # a seq it does not hold: silence
    assert asked == [5, 9] and [data for data, _ in transport.sent] == [datagram_bytes(held)]
    for i in range(20):
        multicast.datagram_received(ask_bytes(TABLE, 5), (f"10.0.1.{i}", PORT))
    assert len(asked) == 4  # ANSWERS a second, whoever asks
    multicast.ask(7)
    assert transport.sent[-1][0] == ask_bytes(TABLE, 7)
