"""Hostile peers (DESIGN.md, "Security"): each gets the right rejection or disconnect, and the
honest peers' table goes on with its state unchanged (PROTOCOL.md 3, 7)."""

from __future__ import annotations

import asyncio

import pytest

from engine.protocol.codec import encode
from engine.protocol.identity import new_key, public_bytes
from engine.protocol.log import ENTRY_CONTEXT, sign_entry
from net.events import Timeouts
from net.framing import MAX_FRAME
from net.messages import Submit
from tests.support.net import FAST, RawPeer, open_host, start_bots, stop_all
from tests.support.poll import eventually

HOSTILE = Timeouts(hello=0.5, idle=5.0, body=0.5, write=5.0, ping=0.2, connect=2.0, rate=100.0, burst=50)


def fresh_entry(key, table, kind="chat", body=None, author=None):
    """An entry on the host's head: signed by ``key``, claiming ``author`` when given."""
    entry = sign_entry(
        key,
        table=table.table_id,
        seq=table.seq,
        prev=table.head,
        kind=kind,
        body=body if body is not None else {"text": "hi"},
        time_ms=0,
    )
    if author is None:
        return entry.wire_array()
    payload = encode(
        {
            "v": 2,
            "table": table.table_id,
            "seq": table.seq,
            "prev": table.head,
            "author": author,
            "kind": kind,
            "body": body or {"text": "hi"},
            "time": 0,
        }
    )
    return [payload, key.sign(ENTRY_CONTEXT + payload)]


async def rejection(peer: RawPeer, entry: list, n: int = 1) -> dict:
    peer.send(Submit(n, entry).to_map())
    return await peer.recv_type("rejected")


async def test_hostile_peers_are_refused_and_the_honest_table_goes_on_unchanged():
    host = open_host(seats=4, timeouts=HOSTILE)
    await host.start("127.0.0.1", 0)
    honest = await start_bots(host, 3, timeouts=FAST)
    t = host.table
    await eventually(lambda: all(b.connected and b.table.seq == t.seq for b in honest), 10, "honest peers in sync")
    before = t.digest()
    port = host.port

    # Garbage bytes: an HTTP request reads as a 1.2 GB frame length.
    peer = await RawPeer.open(port)
    peer.send_bytes(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    frames = await peer.closed()
    assert [f["code"] for f in frames if f["t"] == "bye"] == ["too-large"]

    # Garbage inside a well-sized frame.
    peer = await RawPeer.open(port)
    peer.send_bytes(b"\x00\x00\x00\x05hello")
    assert [f["code"] for f in await peer.closed() if f["t"] == "bye"] == ["malformed"]

    # A frame of 4 MiB + 1 bytes: refused on its length, before any of its body.
    peer = await RawPeer.open(port)
    peer.send_bytes((MAX_FRAME + 1).to_bytes(4, "big"))
    assert [f["code"] for f in await peer.closed() if f["t"] == "bye"] == ["too-large"]

    # A connection that opens and sends nothing.
    peer = await RawPeer.open(port)
    assert [f["code"] for f in await peer.closed() if f["t"] == "bye"] == ["silent"]

    # A sender that starts a frame and trickles.
    peer = await RawPeer.open(port)
    peer.send_bytes((200).to_bytes(4, "big") + b"\x85")
    assert [f["code"] for f in await peer.closed() if f["t"] == "bye"] == ["slow"]

    # A first frame that is not a hello, and a hello of another protocol version.
    peer = await RawPeer.open(port)
    peer.send(Submit(1, [b"x", bytes(64)]).to_map())
    assert [f["code"] for f in await peer.closed() if f["t"] == "bye"] == ["malformed"]
    peer = await RawPeer.open(port)
    old = {"t": "hello", "v": 1, "table": None, "last": None, "role": "player", "key": bytes(32)}
    peer.send(old)  # what a peer of protocol version 1 said
    assert [f["code"] for f in await peer.closed() if f["t"] == "bye"] == ["version"]

    # A player who speaks the protocol but sends bad entries: each gets its code, and stays.
    key = new_key()
    mallory = await RawPeer.open(port)
    welcome = await mallory.hello(key)
    assert welcome["t"] == "welcome" and welcome["table"] == t.table_id

    got = await rejection(mallory, [b"not an entry", bytes(64)])
    assert got["code"] == "malformed"
    assert got["head"][0] == t.seq - 1

    other = new_key()
    got = await rejection(mallory, fresh_entry(other, t, author=public_bytes(key)))
    assert got["code"] == "bad-signature"

    got = await rejection(mallory, fresh_entry(other, t))
    assert got["code"] == "not-your-key"

    foreign = sign_entry(
        key, table=bytes(range(32)), seq=t.seq, prev=t.head, kind="chat", body={"text": "hi"}, time_ms=0
    )
    got = await rejection(mallory, foreign.wire_array())
    assert got["code"] == "wrong-table"

    replayed = t.entries[1].wire_array()  # an honest bot's join, already in the log
    got = await rejection(mallory, replayed)
    assert got["code"] == "stale"

    got = await rejection(mallory, fresh_entry(key, t, kind="move", body={"act": {"do": "pass"}, "open": []}))
    assert got["code"] in ("not-your-turn", "illegal")

    got = await rejection(mallory, fresh_entry(key, t, kind="start", body={}))
    assert got["code"] == "not-your-turn"

    # A second hello on a live connection breaks the protocol: bye.
    mallory.send(await mallory.signed_hello(key))
    assert [f["code"] for f in await mallory.closed() if f["t"] == "bye"] == ["malformed"]

    # A spectator may watch but not submit.
    watcher = await RawPeer.open(port)
    await watcher.hello(new_key(), role="spectator")
    got = await rejection(watcher, fresh_entry(new_key(), t))
    assert got["code"] == "spectator"
    watcher.close()

    # A flood of submits: cut off after the burst, with a bye.
    flooder_key = new_key()
    flooder = await RawPeer.open(port)
    await flooder.hello(flooder_key)
    junk = Submit(1, [b"junk", bytes(64)]).to_map()
    for _ in range(500):
        flooder.send(junk)
    frames = await flooder.closed()
    assert frames[-1] == {"t": "bye", "code": "flood", "reason": frames[-1]["reason"]}
    assert sum(1 for f in frames if f["t"] == "rejected") <= HOSTILE.burst + 5

    codes = [code for _, code, _ in host.disconnects]
    for code in ("too-large", "malformed", "silent", "slow", "version", "flood"):
        assert code in codes

    # Nothing reached the table, and the honest peers are still here and agree.
    assert t.digest() == before
    assert all(b.connected and b.failure is None for b in honest)
    assert sorted(host.players_connected()) == sorted(b.public for b in honest)
    await eventually(lambda: all(b.table.digest() == before for b in honest), 5, "honest peers unchanged")

    # The honest game goes on: a fourth player joins and the round is played to the end.
    honest += await start_bots(host, 1, seed=9, timeouts=FAST)
    await eventually(lambda: t.ended and all(b.finished.is_set() for b in honest), 60, "the game to end")
    assert t.fault is None
    assert {b.table.digest() for b in honest} == {t.digest()}
    await stop_all(host, honest)


async def test_the_host_refuses_a_key_that_already_holds_a_seat():
    host = open_host(seats=3, timeouts=HOSTILE)
    await host.start("127.0.0.1", 0)
    key = new_key()
    peer = await RawPeer.open(host.port)
    await peer.hello(key)
    t = host.table
    peer.send(Submit(1, fresh_entry(key, t, kind="join", body={"name": "Ann", "deck": None})).to_map())
    assert (await peer.recv_type("accepted"))["n"] == 1
    got = await rejection(peer, fresh_entry(key, t, kind="join", body={"name": "Ann again", "deck": None}), n=2)
    assert got["code"] == "already-seated"
    assert "seat 0" in got["detail"]
    assert t.names == ["Ann"]
    peer.close()
    await host.close()


async def test_a_new_connection_with_a_seated_key_replaces_the_old_one():
    host = open_host(seats=3, timeouts=HOSTILE)
    await host.start("127.0.0.1", 0)
    key = new_key()
    first = await RawPeer.open(host.port)
    await first.hello(key)
    second = await RawPeer.open(host.port)
    assert (await second.hello(key))["t"] == "welcome"
    frames = await first.closed()
    assert frames[-1]["t"] == "bye" and frames[-1]["code"] == "replaced"
    await eventually(lambda: host.players_connected() == [public_bytes(key)], 5, "one connection for the key")
    second.close()
    await host.close()


@pytest.mark.parametrize("last", [5, 500])
async def test_a_peer_claiming_more_entries_than_the_host_holds_is_told_so(last):
    host = open_host(seats=3, timeouts=HOSTILE)
    await host.start("127.0.0.1", 0)
    peer = await RawPeer.open(host.port)
    peer.send(await peer.signed_hello(new_key(), table=host.table.table_id, last=last))
    frames = await peer.closed()
    assert frames[-1]["code"] == "ahead"
    await host.close()


async def test_a_hello_for_another_table_is_refused():
    host = open_host(seats=3, timeouts=HOSTILE)
    await host.start("127.0.0.1", 0)
    peer = await RawPeer.open(host.port)
    peer.send(await peer.signed_hello(new_key(), table=bytes(32), last=0))
    frames = await peer.closed()
    assert frames[-1]["code"] == "wrong-table"
    await host.close()
    await asyncio.sleep(0)
