"""Frames and messages (PROTOCOL.md 7): every frame is a length and one canonical map; anything
else is refused with a code, never a crash."""

from __future__ import annotations

import asyncio

import pytest

from engine.protocol.codec import encode
from net.client import ClientError, parse_address
from net.framing import MAX_FRAME, Outbox, WireError, frame_bytes, parse_frame_body, read_frame
from net.messages import (
    Accepted,
    Bye,
    Entries,
    Hello,
    MessageError,
    Ping,
    Pong,
    Submit,
    SubmitRejected,
    Welcome,
    parse_message,
)

KEY = bytes(range(32))
SIG = bytes(64)
HEAD = [3, bytes(32), SIG]


def reader_with(data: bytes, eof: bool = True) -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    if eof:
        reader.feed_eof()
    return reader


@pytest.mark.parametrize(
    "message",
    [
        Hello(None, None, "player", KEY),
        Hello(bytes(32), 41, "spectator", KEY),
        Welcome(bytes(32), KEY, HEAD, None),
        Entries(5, [[[b"payload", SIG], SIG]]),
        Submit(7, [b"payload", SIG]),
        Accepted(7, HEAD),
        SubmitRejected(7, "stale", "Seq 3 is already taken.", HEAD),
        Ping(HEAD, [[KEY, HEAD], [KEY, None]]),
        Pong(None, []),
        Bye("done", "The table is over."),
    ],
)
async def test_every_message_survives_a_frame_round_trip(message):
    frame = frame_bytes(message.to_map())
    assert int.from_bytes(frame[:4], "big") == len(frame) - 4
    got = parse_message(await read_frame(reader_with(frame), idle=1, body=1))
    assert got == message


async def test_a_frame_length_over_4_mib_is_refused_before_its_body_is_read():
    reader = reader_with((MAX_FRAME + 1).to_bytes(4, "big"), eof=False)
    with pytest.raises(WireError) as err:
        await read_frame(reader, idle=1, body=1)
    assert err.value.code == "too-large"


async def test_a_zero_length_frame_is_malformed():
    with pytest.raises(WireError) as err:
        await read_frame(reader_with(bytes(4)), idle=1, body=1)
    assert err.value.code == "malformed"


@pytest.mark.parametrize(
    "body",
    [
        b"\xc1",  # never valid MessagePack
        b"\x82\xa1t\xa1x\xa1a\x01",  # map keys out of order
        b"\x81\xa1t\xcb\x00\x00\x00\x00\x00\x00\x00\x00",  # a float
        encode([1, 2]),  # not a map
        encode({"x": 1}),  # no t
        encode({"t": 5}),  # t not a str
        b"\x81\xa1t\xa4ping\x00",  # trailing byte
    ],
)
async def test_bytes_that_are_not_one_canonical_map_with_a_type_are_malformed(body):
    frame = len(body).to_bytes(4, "big") + body
    with pytest.raises(WireError) as err:
        await read_frame(reader_with(frame), idle=1, body=1)
    assert err.value.code == "malformed"


async def test_silence_before_a_frame_is_a_silent_peer():
    with pytest.raises(WireError) as err:
        await read_frame(reader_with(b"", eof=False), idle=0.05, body=1)
    assert err.value.code == "silent"


async def test_a_frame_body_that_trickles_in_too_slowly_is_a_slow_peer():
    with pytest.raises(WireError) as err:
        await read_frame(reader_with((100).to_bytes(4, "big") + b"x" * 10, eof=False), idle=1, body=0.05)
    assert err.value.code == "slow"


async def test_a_stream_that_ends_is_closed():
    with pytest.raises(WireError) as err:
        await read_frame(reader_with(b"\x00\x00"), idle=1, body=1)
    assert err.value.code == "closed"


@pytest.mark.parametrize(
    "value",
    [
        {"t": "hello", "v": 1, "table": None, "last": None, "role": "dealer", "key": KEY},
        {"t": "hello", "v": 1, "table": None, "last": None, "role": "player", "key": KEY[:31]},
        {"t": "hello", "v": 1, "table": None, "last": -1, "role": "player", "key": KEY},
        {"t": "hello", "v": 1, "table": None, "last": None, "role": "player", "key": KEY, "extra": 1},
        {"t": "hello", "v": 1, "table": None, "role": "player", "key": KEY},
        {"t": "submit", "n": True, "entry": [b"", SIG]},
        {"t": "submit", "n": 1, "entry": [b"", SIG, b""]},
        {"t": "entries", "from": 0, "items": []},
        {"t": "ping", "head": [1, bytes(32)], "relay": []},
        {"t": "ping", "head": None, "relay": [[KEY, None]] * 65},
        {"t": "rejected", "n": 1, "code": "stale", "detail": "x" * 501, "head": None},
        {"t": "teleport"},
    ],
)
def test_a_map_that_is_not_a_protocol_message_is_refused(value):
    with pytest.raises(MessageError):
        parse_message(value)


def test_a_message_over_4_mib_cannot_be_framed():
    with pytest.raises(WireError) as err:
        frame_bytes({"t": "bye", "code": "x", "reason": "y" * (MAX_FRAME + 1)})
    assert err.value.code == "too-large"


def test_parse_frame_body_applies_the_decoding_limits():
    nested: list = [1]
    for _ in range(20):
        nested = [nested]
    deep = {"t": "x", "a": nested}
    with pytest.raises(WireError) as err:
        parse_frame_body(encode(deep))
    assert err.value.code == "too-large"


class StuckWriter:
    """A stream writer whose peer never reads."""

    class transport:
        aborted = False

        @classmethod
        def abort(cls):
            cls.aborted = True

    def write(self, data):
        pass

    async def drain(self):
        await asyncio.Event().wait()

    def close(self):
        pass


async def test_a_reader_that_does_not_read_is_dropped_as_a_slow_reader():
    failures = []
    outbox = Outbox(StuckWriter(), max_queued=1 << 20, write_timeout=0.05, on_fail=lambda c, r: failures.append(c))
    outbox.send({"t": "bye", "code": "x", "reason": "y"})
    deadline = asyncio.get_running_loop().time() + 5
    while not failures and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)
    assert failures == ["slow-reader"]
    assert not outbox.send({"t": "bye", "code": "x", "reason": "y"})


async def test_a_queue_over_its_limit_drops_the_reader_without_blocking_the_sender():
    failures = []
    outbox = Outbox(StuckWriter(), max_queued=100, write_timeout=5, on_fail=lambda c, r: failures.append(c))
    assert outbox.send(b"x" * 60)
    assert not outbox.send(b"x" * 60)
    assert failures == ["slow-reader"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("192.168.1.5", ("192.168.1.5", 7447)),
        ("192.168.1.5:9000", ("192.168.1.5", 9000)),
        ("table.local:7450", ("table.local", 7450)),
        ("[::1]:7000", ("::1", 7000)),
        ("[fe80::1]", ("fe80::1", 7447)),
    ],
)
def test_join_addresses_are_host_and_optional_port(text, expected):
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", ["", ":7447", "host:port", "host:0", "host:70000", "[::1"])
def test_a_bad_join_address_is_a_sentence(text):
    with pytest.raises(ClientError):
        parse_address(text)


def test_the_hello_in_the_wire_document_is_byte_exact():
    key = bytes(range(32))
    frame = frame_bytes(Hello(None, None, "player", key).to_map())
    expected = (
        bytes.fromhex("0000004b86a36b6579c420")
        + key
        + bytes.fromhex("a46c617374c0a4726f6c65a6706c61796572a174a568656c6c6fa57461626c65c0a17601")
    )
    assert frame == expected
