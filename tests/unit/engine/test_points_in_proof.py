"""A peer leaves the validity of a relayed `shuffle`'s points to its proof (docs/protocol.md 6.10).

A peer folds a `shuffle` the host appended before its proof is verified (docs/protocol.md 6.9).
The seat that shuffles next builds on it at once, so it checks every point at the fold (PROTOCOL.md
6.1: nothing is computed from an unchecked point); every other seat builds nothing on it before the
proof is settled, and the proof's verification puts every point through a checked multiplication:
those seats make no validity check at the fold. A shuffle holding an invalid point fails its proof,
so a host that appends one anyway (an honest host refuses it) gets its author named at its entry by
those seats, with nothing made from it and no entry sent; the next shuffler refuses it.
"""

from __future__ import annotations

import pytest
from nacl import bindings as nb

from engine.protocol import group
from engine.table import TableRefusal
from tests.support.protocol import step_until

SEATS = 3
SMALL_ORDER_8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")


def _game(name: str):
    from engine.local import new_local_game
    from tests.support.protocol import scratch_dir

    d = scratch_dir(name)
    return new_local_game("queen", ["random"] * SEATS, {"rounds": 1}, save=d / "game.vtlog", secrets_dir=d, seed=5)


def _at_first_shuffle(g):
    """Step to the first shuffle of the deal; returns (its shuffler, the next one, the third seat)."""
    t = g.host.table
    step_until(g, lambda g: any(k == "shuffle" for _, k in t.owed()))
    ev = t.events[t.work.event]
    assert len(ev.shuffles) == 0 and len(ev.shufflers) == SEATS
    return tuple(g.seats[s] for s in ev.shufflers)


class _Counter:
    """Counts libsodium's point-validity checks (crypto_core_ed25519_is_valid_point)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        real = nb.crypto_core_ed25519_is_valid_point

        def counted(p: bytes) -> bool:
            self.calls += 1
            return real(p)

        monkeypatch.setattr(nb, "crypto_core_ed25519_is_valid_point", counted)


@pytest.fixture
def no_memo(monkeypatch: pytest.MonkeyPatch):
    """As separate processes: nothing one seat made or checked is known to the others."""
    monkeypatch.setattr(group.OWN_PROOFS, "enabled", False)
    monkeypatch.setattr(group.VERIFY_MEMO, "enabled", False)


@pytest.mark.usefixtures("no_memo")
def test_a_peer_that_builds_nothing_on_a_shuffle_checks_its_points_only_through_its_proof(monkeypatch):
    g = _game("points-in-proof")
    shuffler, nxt, third = _at_first_shuffle(g)
    kind, body = shuffler.duty()
    entry = shuffler.sign(kind, body)
    n = len(body["cards"])
    count = _Counter(monkeypatch)
    third.fold(entry, defer_proof=True)
    assert count.calls == 0, "the third seat checked points at the fold"
    assert third.table.unverified is not None and third.table.fault is None
    nxt.fold(entry, defer_proof=True)
    assert count.calls == 4 * n, "the next shuffler builds on the entry: it checks every point first"
    # The host appends it after its cheap checks, as it always does (PROTOCOL.md 6.5).
    g.host.submit(entry, defer_proof=True)
    shuffler.fold(entry, defer_proof=True)
    for t in (third.table, nxt.table, shuffler.table, g.host.table):
        t.settle()
        assert t.fault is None and t.unverified is None
    assert third.table.digest() == nxt.table.digest() == shuffler.table.digest() == g.host.table.digest()
    # The rest of the deal goes on as before.
    step_until(g, lambda g: any(k == "move" for _, k in g.host.table.owed()))
    assert g.host.table.fault is None


@pytest.mark.usefixtures("no_memo")
@pytest.mark.parametrize("where", ["cards", "proof"])
def test_a_shuffle_with_an_invalid_point_that_a_host_appended_is_named_at_its_entry_and_nothing_is_made(
    monkeypatch, where
):
    g = _game(f"points-in-proof-bad-{where}")
    shuffler, nxt, third = _at_first_shuffle(g)
    kind, body = shuffler.duty()
    if where == "cards":
        c = body["cards"][4]
        body["cards"][4] = [c[0], nb.crypto_core_ed25519_add(c[1], SMALL_ORDER_8)]  # outside the subgroup
    else:
        body["proof"][0][2] = SMALL_ORDER_8
    entry = shuffler.sign(kind, body)
    # An honest host refuses it, and nothing changes there.
    before = g.host.table.digest()
    with pytest.raises(TableRefusal) as refused:
        g.host.submit(entry, defer_proof=True)
    assert refused.value.code == "malformed" and g.host.table.digest() == before
    # A host that appends it anyway: the next shuffler refuses it at the fold, changing nothing.
    before = nxt.table.digest()
    with pytest.raises(TableRefusal):
        nxt.fold(entry, defer_proof=True)
    assert nxt.table.digest() == before
    # The third seat folds it without checking its points and names its author at its entry once
    # the proof is settled; it makes and sends nothing meanwhile.
    third.fold(entry, defer_proof=True)
    assert third.table.fault is None and third.table.unverified is not None
    assert third.duty() is None  # it settles the proof first: the table stops
    fault = third.table.fault
    assert fault is not None and fault.seq == entry.seq and fault.seat == shuffler.index
    assert "fails its proof" in fault.reason
    assert not third._early and not third._parts


@pytest.mark.usefixtures("no_memo")
async def test_over_tcp_every_peer_names_a_bad_shuffle_at_its_entry_with_nothing_shared(monkeypatch):
    """The host and three bot clients over loopback TCP, sharing no memo (as separate processes
    do), so each peer that is not the next shuffler folds the event's inner shuffles leaving their
    points to their proofs; the second shuffler's proof is bad: the host and every peer name it at
    its entry, and no share of the event is made."""
    from tests.support.cheats import second_shuffle_named, second_shufflers_tamper, swap_in
    from tests.support.net import open_host, start_bots, stop_all

    host = open_host(seats=SEATS, auto_start=False)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, SEATS)
    second_shufflers_tamper(bots, swap_in)
    try:
        await second_shuffle_named(host, bots)
    finally:
        await stop_all(host, bots)
