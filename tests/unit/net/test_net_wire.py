"""Frames and messages (PROTOCOL.md 7): every frame is a length and one canonical map; anything
else is refused with a code, never a crash."""

from __future__ import annotations

import asyncio

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.protocol.codec import encode
from net.client import ClientError, parse_address
from net.framing import MAX_FRAME, Outbox, WireError, frame_bytes, parse_frame_body, read_frame
from net.messages import (
    Accepted,
    Bye,
    Challenge,
    Entries,
    Hello,
    MessageError,
    Ping,
    Pong,
    Submit,
    SubmitRejected,
    Welcome,
    hello_message,
    parse_message,
    sign_hello,
    verify_hello,
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
        Challenge(bytes(32), KEY, None),
        Challenge(bytes(range(32)), KEY, bytes(32)),
        Hello(None, None, "player", KEY, SIG),
        Hello(bytes(32), 41, "spectator", KEY, SIG),
        Welcome(bytes(32), KEY, HEAD, None),
        Welcome(bytes(32), KEY, HEAD, HEAD, opened=1_765_000_000_000),
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
        {"t": "hello", "v": 2, "table": None, "last": None, "role": "dealer", "key": KEY, "sig": SIG},
        {"t": "hello", "v": 2, "table": None, "last": None, "role": "player", "key": KEY[:31], "sig": SIG},
        {"t": "hello", "v": 2, "table": None, "last": -1, "role": "player", "key": KEY, "sig": SIG},
        {"t": "hello", "v": 2, "table": None, "last": None, "role": "player", "key": KEY, "sig": SIG, "extra": 1},
        {"t": "hello", "v": 2, "table": None, "role": "player", "key": KEY, "sig": SIG},
        {"t": "hello", "v": 2, "table": None, "last": None, "role": "player", "key": KEY},
        {"t": "hello", "v": 2, "table": None, "last": None, "role": "player", "key": KEY, "sig": SIG[:63]},
        {"t": "challenge", "nonce": bytes(31), "host": KEY, "table": None},
        {"t": "challenge", "nonce": bytes(32), "host": KEY},
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


def test_the_signed_hello_in_the_wire_document_is_byte_exact():
    """docs/protocol.md, 3.2: the key of seed 07 x 32 answers the challenge of host key 20..3f and
    nonce 40..5f, holding no table (Ed25519 signatures are deterministic)."""
    key = Ed25519PrivateKey.from_private_bytes(bytes([7]) * 32)
    challenge = Challenge(bytes(range(64, 96)), bytes(range(32, 64)), None)
    hello = sign_hello(key, challenge, table=None, last=None, role="player")
    public = bytes.fromhex("ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c")
    signed = (
        bytes.fromhex("96b676616d706972652d7461626c652f68656c6c6f2f7632")  # [6 items, "vampire-table/hello/v2"
        + b"\xc4\x20"
        + bytes(range(32, 64))  # host key
        + b"\xc4\x20"
        + bytes(range(64, 96))  # nonce
        + bytes.fromhex("c0a6706c61796572")  # table nil, "player"
        + b"\xc4\x20"
        + public  # the peer's key]
    )
    assert hello_message(challenge.host, challenge.nonce, None, "player", public) == signed
    sig = bytes.fromhex(
        "9add2438d07501f6041344485bd3decde5ebbb1cfa6c1c6489197bc02036baf7"
        "76f6d44b785863374fb766216f9cc14ba93df8fbb8fed43378775a47b29cfa05"
    )
    assert hello.sig == sig
    expected = (
        bytes.fromhex("0000009187a36b6579c420")
        + public
        + bytes.fromhex("a46c617374c0a4726f6c65a6706c61796572a3736967c440")
        + sig
        + bytes.fromhex("a174a568656c6c6fa57461626c65c0a17602")
    )
    assert frame_bytes(hello.to_map()) == expected
    assert verify_hello(hello, challenge) is None


def test_a_hello_verifies_only_for_its_own_challenge_and_key():
    key = Ed25519PrivateKey.from_private_bytes(bytes([7]) * 32)
    challenge = Challenge(bytes(32), KEY, None)
    hello = sign_hello(key, challenge, table=None, last=None, role="player")
    assert verify_hello(hello, challenge) is None
    # Another connection's nonce, another host, another role or table, another key: refused.
    assert verify_hello(hello, Challenge(bytes([1]) * 32, KEY, None)) is not None
    assert verify_hello(hello, Challenge(bytes(32), bytes(reversed(KEY)), None)) is not None
    assert verify_hello(Hello(None, None, "spectator", hello.key, hello.sig), challenge) is not None
    assert verify_hello(Hello(bytes(32), None, "player", hello.key, hello.sig), challenge) is not None
    other = sign_hello(Ed25519PrivateKey.generate(), challenge, table=None, last=None, role="player")
    assert verify_hello(Hello(None, None, "player", hello.key, other.sig), challenge) is not None
    # A small-order key (the identity point) is refused before any signature is checked.
    identity = bytes([1]) + bytes(31)
    assert "cannot sign" in verify_hello(Hello(None, None, "player", identity, bytes(64)), challenge)


async def test_a_frame_read_within_a_time_bounds_its_length_and_body_together():
    # The hello must arrive within its 10 s as a whole (PROTOCOL.md 7): a sender that trickles its
    # body after a quick length holds its connection no longer than that.
    loop = asyncio.get_running_loop()
    start = loop.time()
    with pytest.raises(WireError) as err:
        await read_frame(reader_with((100).to_bytes(4, "big") + b"x", eof=False), idle=5, body=5, within=0.1)
    assert err.value.code == "slow" and loop.time() - start < 1
    with pytest.raises(WireError) as err:
        await read_frame(reader_with(b"", eof=False), idle=5, body=5, within=0.05)
    assert err.value.code == "silent"
