"""Seen reports, their multicast datagram and the rate limit, the silence watch, and what the LAN
features read from the network (PROTOCOL.md 7 and 9), without sockets."""

from __future__ import annotations

import ipaddress
import os

import pytest

from engine.protocol.codec import encode
from engine.protocol.identity import new_key, public_bytes
from engine.protocol.log import Head, sign_head
from net import lan
from net.discovery import SERVICE_TYPE, TableAd, instance_name, parse_heard
from net.host import lan_address
from net.lan import clean_text, multicast_interface, multicast_off
from net.seen import (
    MAX_DATAGRAM,
    SeenReport,
    SilenceWatch,
    SourceLimit,
    datagram_bytes,
    parse_datagram,
    sign_seen,
    verify_seen,
)

TABLE = bytes(range(32))


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def a_report(seq: int = 7, table: bytes = TABLE) -> tuple[SeenReport, bytes]:
    host, peer = new_key(), new_key()
    entry_id = bytes([seq % 256]) * 32
    head = Head(table, seq, entry_id, sign_head(host, table, seq, entry_id))
    return SeenReport(public_bytes(peer), head, sign_seen(peer, head)), public_bytes(host)


def test_a_seen_signature_covers_the_table_seq_and_id_and_the_key():
    report, host = a_report()
    assert report.signed_by_sender() and report.head.verify(host)
    other = Head(report.head.table, report.head.seq + 1, report.head.entry_id, report.head.signature)
    assert not verify_seen(report.key, other, report.fsig)
    assert not verify_seen(public_bytes(new_key()), report.head, report.fsig)
    assert not verify_seen(report.key, report.head, b"short")
    assert not SeenReport(report.key, report.head, None).signed_by_sender()


def test_the_datagram_round_trips_within_512_bytes_and_other_tables_are_ignored():
    report, _ = a_report(seq=2**40)
    data = datagram_bytes(report)
    assert len(data) <= MAX_DATAGRAM
    assert parse_datagram(data, TABLE) == report
    assert parse_datagram(data, bytes(32)) is None  # another table: dropped before any check
    assert parse_datagram(data + b"\x00", TABLE) is None  # trailing bytes: not canonical
    assert parse_datagram(b"\xff" * 600, TABLE) is None  # too large
    assert parse_datagram(encode({"t": "seen", "table": TABLE}), TABLE) is None  # fields missing
    bad = encode({"t": "seen", "table": TABLE, "seq": True, "id": b"", "hsig": b"", "from": b"", "fsig": b""})
    assert parse_datagram(bad, TABLE) is None


def test_at_most_ten_datagrams_a_second_from_one_source():
    clock = Clock()
    limit = SourceLimit(clock=clock)
    taken = [limit.take(("10.0.0.2", 7448)) for _ in range(25)]
    assert taken.count(True) == 10
    assert limit.take(("10.0.0.3", 7448))  # another source has its own budget
    clock.now += 0.5
    assert [limit.take(("10.0.0.2", 7448)) for _ in range(10)].count(True) == 5


def test_a_player_whose_report_stops_advancing_is_named_silent_and_only_then():
    clock = Clock()
    watch = SilenceWatch(after=10, clock=clock)
    a, b = b"a" * 32, b"b" * 32
    watch.advanced(a, 5)
    watch.advanced(b, 5)
    assert watch.silent([a, b], 5) == ()
    clock.now += 60  # a quiet table: nobody behind, nobody silent
    assert watch.silent([a, b], 5) == ()
    assert watch.silent([a, b], 6) == ()  # the head moved just now
    clock.now += 5
    watch.advanced(a, 6)
    clock.now += 6
    assert watch.silent([a, b], 6) == (b,)
    watch.advanced(b, 6)
    assert watch.silent([a, b], 6) == ()


def test_names_from_the_network_lose_control_and_bidi_characters():
    assert clean_text("Mina\u202e's\x1b[31m table\u2066\n") == "Mina's[31m table"
    assert clean_text("  \u200f\t ") == ""
    assert clean_text("é" * 100, 63) == "é" * 63


def test_an_instance_name_is_at_most_63_bytes_on_a_character_boundary():
    name = instance_name("Vampire " + "é" * 80)
    assert len(name.encode()) <= 63 and name.startswith("Vampire é")
    assert instance_name("a.b") == "a\u00b7b" and instance_name("\x00") == "table"


def test_an_announcement_round_trips_and_garbage_is_not_a_table():
    host = public_bytes(new_key())
    ad = TableAd("Mina's table", "queen", 2, 4, TABLE, host, "192.0.2.5", 7447)
    props = {k.encode(): v.encode() for k, v in ad.properties().items()}
    heard = parse_heard(f"Mina's table.{SERVICE_TYPE}", props, ["192.0.2.5"], 7447)
    assert heard is not None and heard.open and heard.pin == (host, TABLE) and heard.address == ("192.0.2.5", 7447)
    assert (heard.name, heard.game, heard.taken, heard.total) == ("Mina's table", "queen", 2, 4)
    assert "Mina's table" in heard.line() and heard.fingerprint in heard.line() and "2/4 seats" in heard.line()
    full = {**props, b"seats": b"4/4"}
    assert not parse_heard("x", full, ["192.0.2.5"], 7447).open
    no_table = {k: v for k, v in props.items() if k != b"table"}
    assert parse_heard("x", no_table, ["192.0.2.5"], 7447).table is None
    for key, value in [(b"host", b"zz"), (b"seats", b"two"), (b"table", b"12"), (b"v", None), (b"name", b"\xff")]:
        broken = {**props, key: value} if value is not None else {k: v for k, v in props.items() if k != key}
        result = parse_heard("fallback.x", broken, ["192.0.2.5"], 7447)
        if key == b"name":  # a name that is not UTF-8: the instance name stands in
            assert result is not None and result.name == "fallback.x"
        else:
            assert result is None
    assert parse_heard("x", props, [], 7447) is None


def test_the_test_suite_never_multicasts():
    assert os.environ["VAMPIRE_NO_DISCOVERY"] == "1" and multicast_off()


@pytest.mark.parametrize(("value", "off"), [("1", True), ("yes", True), ("0", False), ("", False)])
def test_the_switch(monkeypatch, value, off):
    monkeypatch.setenv("VAMPIRE_NO_DISCOVERY", value)
    assert multicast_off() is off


class FakeTransport:
    def __init__(self) -> None:
        self.sent: list[tuple[bytes, tuple[str, int]]] = []

    def sendto(self, data: bytes, addr: tuple[str, int]) -> None:
        self.sent.append((data, addr))

    def close(self) -> None:
        pass


async def test_the_endpoint_sends_its_report_on_a_new_head_and_takes_only_its_tables_reports():
    """No socket: the endpoint's transport is a recorder (the LAN itself: test_lan_namespace.py)."""
    import asyncio

    from net.seen import GROUP, PORT, SeenMulticast
    from tests.support.poll import eventually

    mine, _ = a_report(seq=3)
    other_table, _ = a_report(seq=3, table=bytes(32))
    heard: list[SeenReport] = []
    endpoint = SeenMulticast(lambda: TABLE, lambda: mine, heard.append, interval=60, jitter=0)
    transport = FakeTransport()
    endpoint._transport = transport  # type: ignore[assignment]
    endpoint._task = asyncio.get_running_loop().create_task(endpoint._send_loop())
    await eventually(lambda: len(transport.sent) == 1, 5, "the first report")
    assert transport.sent[0] == (datagram_bytes(mine), (GROUP, PORT))
    endpoint.new_head()  # a new head: sent at once, not a minute later
    await eventually(lambda: len(transport.sent) == 2, 5, "the report of the new head")
    endpoint.datagram_received(datagram_bytes(other_table), ("192.0.2.1", PORT))
    endpoint.datagram_received(datagram_bytes(mine), ("192.0.2.1", PORT))
    endpoint.datagram_received(datagram_bytes(mine), ("192.0.2.3", PORT))  # handed on once already
    assert heard == [mine]
    others = [a_report(seq=10 + i)[0] for i in range(20)]
    for i, report in enumerate(others):  # a sender that rotates its port: one source all the same
        endpoint.datagram_received(datagram_bytes(report), ("192.0.2.2", PORT + i))
    assert heard[1:] == others[:10] and endpoint.received == 11  # the second source: 10 a second
    await endpoint.close()


def test_with_no_default_route_the_lan_address_is_an_interface_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two computers joined by a cable have no default route: the address a host shows and
    announces, and its players' multicast interface, is the link's own."""
    monkeypatch.setattr(lan, "route_source", lambda toward: "127.0.0.1" if toward.startswith("127.") else None)
    monkeypatch.setattr(lan, "interface_addresses", lambda: ["169.254.7.1", "10.0.0.2"])
    assert lan_address() == "169.254.7.1"
    assert multicast_interface("127.0.0.1") == "169.254.7.1"  # a host on this computer
    monkeypatch.setattr(lan, "interface_addresses", lambda: [])
    assert lan_address() == "127.0.0.1" and multicast_interface("127.0.0.1") is None


def test_the_multicast_interface_faces_the_host_and_looks_up_no_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lan, "route_source", lambda toward: {"10.86.85.1": "10.86.85.2"}.get(toward))
    assert multicast_interface("10.86.85.1") == "10.86.85.2"
    assert multicast_interface("table.example") is None and multicast_interface("::1") is None


def test_a_host_on_two_lans_announces_both_addresses_and_is_reached_at_the_one_on_this_lan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    host = public_bytes(new_key())
    ad = TableAd("Two LANs", "queen", 1, 4, TABLE, host, "10.99.0.1", 7447, more=("10.86.85.1",))
    assert ad.info().parsed_addresses() == ["10.99.0.1", "10.86.85.1"]  # the one it shows first
    props = {k.encode(): v.encode() for k, v in ad.properties().items()}
    heard = parse_heard(f"Two LANs.{SERVICE_TYPE}", props, ["10.99.0.1", "10.86.85.1"], 7447)
    assert heard is not None
    monkeypatch.setattr(lan, "_interfaces", lambda: [ipaddress.IPv4Interface("10.86.85.2/24")])
    assert heard.address == ("10.86.85.1", 7447) and heard.line().endswith("  10.86.85.1:7447")
    monkeypatch.setattr(lan, "_interfaces", lambda: [ipaddress.IPv4Interface("192.0.2.9/24")])
    assert heard.address == ("10.99.0.1", 7447)  # on no shared LAN: the first announced
