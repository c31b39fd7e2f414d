"""Cheats in a live game over loopback TCP (PROTOCOL.md 6.5): a bot seat whose duties are tampered
with signs a bad `key`, `shuffle` or `share`. The host verifies it, appends it as evidence and stops
the table naming its author at that entry; every other peer, verifying on its own, names the same
seat at the same entry; no honest seat publishes a share of the event after a bad shuffle; and the
audit of the host's saved log says the same.

A process trusts the proofs it made itself (docs/protocol.md 6.9), recognised by their bytes and
whole statement, never by the seat an entry names: a proof this very process made, copied into
another seat's shuffle, is verified and named; so is a bad proof made by a bot in another process."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from engine.audit import audit_file
from engine.games import all_rules
from engine.protocol import elgamal, group
from net.events import Folded
from tests.support.cheats import Tampered, copy_previous_proof, second_shuffle_named, second_shufflers_tamper, swap_in
from tests.support.cli import child_env
from tests.support.net import open_host, start_bots, stop_all
from tests.support.poll import eventually

SEATS = 3
ROOT = Path(__file__).resolve().parents[2]
_swap_in = swap_in


def _wrong_share(seat, body):
    body["shares"] = [group.mult(group.scalar_from_int(2), body["shares"][0]), *body["shares"][1:]]
    return body


def _rogue_key(seat, body):
    # X = x'·G − Σ the keys already published (to cancel them): no proof of knowledge of log X.
    ev = seat.table.events[body["event"]]
    X = elgamal.psub(group.base_mult(group.scalar_from_int(99)), elgamal.psum(ev.keys.values()))
    body["X"] = X if X != elgamal.IDENTITY else group.base_mult(group.scalar_from_int(98))
    return body


@pytest.mark.parametrize(
    "kind,change,words",
    [
        ("shuffle", _swap_in, "fails its proof"),
        ("share", _wrong_share, "fails its proof"),
        ("key", _rogue_key, "proof of knowledge"),
    ],
    ids=["shuffle", "share", "rogue-key"],
)
async def test_a_cheating_seat_is_named_at_its_entry_by_the_host_every_peer_and_the_audit(
    tmp_path, kind, change, words
):
    save = tmp_path / "table.vtlog"
    host = open_host(seats=SEATS, save=save, auto_start=False)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, SEATS)
    cheater = bots[1].seat
    tamper = Tampered(cheater, kind, change)
    cheater.duty = tamper  # type: ignore[method-assign]
    t = host.table
    host.start_game()
    try:
        await eventually(lambda: t.fault is not None, 60, "the host to name the cheat")
        await eventually(lambda: all(b.table.fault is not None for b in bots), 30, "every peer to name it")
        fault = t.fault
        assert tamper.fired and fault.seat == cheater.index and words in fault.reason
        entry = t.entries[fault.seq]
        assert entry.kind == kind and entry.author == cheater.public and fault.seq == len(t.entries) - 1
        assert all(b.table.fault == fault for b in bots)
        if kind == "shuffle":
            assert not any(e.kind == "share" for e in t.entries), "a seat shared a card of a badly shuffled deck"
    finally:
        await stop_all(host, bots)
    report = audit_file(save, all_rules())
    assert report.code == 1 and report.fault.seat == fault.seat and report.fault.seq == fault.seq


async def test_with_the_pipeline_no_honest_peer_makes_a_share_after_a_bad_last_shuffle(tmp_path):
    """docs/protocol.md 6.9: peers fold a `shuffle` before its proof is verified (in a worker
    thread), and the last one makes shares owed at once; still no honest peer makes a share of
    the event: each settles the proof first and stops the table at the bad entry."""
    host = open_host(seats=SEATS, auto_start=False)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, SEATS)
    made: list[tuple[int, str]] = []
    tampers = []
    for bot in bots:
        seat = bot.seat

        def last_only(seat, body, seat_=seat):
            ev = seat_.table.events[body["event"]]
            return _swap_in(seat, body) if ev.shufflers[-1] == seat_.index else body

        tamper = Tampered(seat, "shuffle", last_only)
        tampers.append(tamper)

        def duty(seat=seat, tamper=tamper):
            d = tamper()
            if d is not None:
                made.append((seat.index, str(d[0])))
            return d

        seat.duty = duty  # type: ignore[method-assign]
    ahead: set[int] = set()  # peers that folded a shuffle while its proof was still unverified
    for i, bot in enumerate(bots):
        bot.listeners.subscribe(
            lambda e, i=i, bot=bot: (
                ahead.add(i)
                if isinstance(e, Folded) and e.entry.kind == "shuffle" and bot.table.unverified is not None
                else None
            )
        )
    t = host.table
    host.start_game()
    try:
        await eventually(lambda: t.fault is not None, 60, "the host to name the cheat")
        await eventually(lambda: all(b.table.fault is not None for b in bots), 30, "every peer to name it")
        assert ahead == set(range(SEATS)), "the peers verified every shuffle before folding it"
        fault = t.fault
        assert t.entries[fault.seq].kind == "shuffle" and "fails its proof" in fault.reason
        ev = t.events[t.entries[fault.seq].body["event"]]
        assert fault.seat == ev.shufflers[-1] and len(ev.shuffles) == len(ev.shufflers)
        assert all(b.table.fault == fault for b in bots)
        assert not any(kind == "share" for _, kind in made), made
        assert not any(e.kind == "share" for e in t.entries)
    finally:
        await stop_all(host, bots)


async def test_a_proof_this_process_made_copied_into_another_seats_shuffle_is_named_by_every_peer(tmp_path):
    """The host and the bots share this process, so the proof of an event's first shuffle is one
    this process made; the second shuffler signs it, byte for byte, with its own cards. The host
    and every peer verify it (it is not the statement this process proved) and name the copier."""
    save = tmp_path / "table.vtlog"
    host = open_host(seats=SEATS, save=save, auto_start=False)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, SEATS)
    second_shufflers_tamper(bots, copy_previous_proof)
    t = host.table
    try:
        fault, entry, ev = await second_shuffle_named(host, bots)
        first = t.entries[ev.shuffles[0].seq]
        assert entry.body["proof"] == first.body["proof"] and first.author != entry.author
        assert entry.author == bots[fault.seat].seat.public
    finally:
        await stop_all(host, bots)
    report = audit_file(save, all_rules())
    assert report.code == 1 and report.fault.seat == fault.seat and report.fault.seq == fault.seq


async def test_a_bad_proof_from_a_bot_in_another_process_is_named_by_the_host_and_every_peer(tmp_path):
    """Two bots in this process, the third a process of its own (tests.support.cheats) whose
    shuffle's cards are changed after its proof was made: the host and the bots here name it at its
    entry, and so does the audit."""
    save = tmp_path / "table.vtlog"
    host = open_host(seats=SEATS, save=save, auto_start=False)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, SEATS - 1)
    env = child_env(tmp_path)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.support.cheats",
        str(host.port),
        "swap-in",
        cwd=ROOT,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    t = host.table
    try:
        assert proc.stdout is not None
        line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
        assert line.startswith("seated"), line
        cheater = int(line.split()[1])
        assert cheater == SEATS - 1 and len(t.seats) == SEATS
        host.start_game()
        await eventually(lambda: t.fault is not None, 60, "the host to name the cheat")
        await eventually(lambda: all(b.table.fault is not None for b in bots), 30, "every peer to name it")
        fault = t.fault
        entry = t.entries[fault.seq]
        assert fault.seat == cheater and entry.kind == "shuffle" and "fails its proof" in fault.reason
        assert entry.author == t.seats[cheater].key and fault.seq == len(t.entries) - 1
        assert all(b.table.fault == fault for b in bots)
        assert not any(e.kind == "share" for e in t.entries)
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()
        await stop_all(host, bots)
    report = audit_file(save, all_rules())
    assert report.code == 1 and report.fault.seat == fault.seat and report.fault.seq == fault.seq
