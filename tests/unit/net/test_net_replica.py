"""A client's replica on its own, without sockets: it keeps only what verifies, stores it before
anything acts on it, and proves a host that signs two entries for one seq (PROTOCOL.md 3, 8)."""

from __future__ import annotations

from typing import get_args

import pytest

from engine.games import all_rules
from engine.games.base import parse_options
from engine.protocol.identity import new_key
from engine.protocol.log import read_log, sign_entry, sign_head
from engine.seat import now_ms
from engine.sequencer import Sequencer
from net.errors import GiveUp
from net.events import Event, Folded, Fork, HostFault, Listeners, NetEvent
from net.messages import Entries, Welcome
from net.replica import Replica
from net.store import Store


def a_table() -> Sequencer:
    games = all_rules()
    sequencer = Sequencer(new_key(), games, None, now_ms)
    sequencer.open_table("queen", dict(parse_options(games["queen"].option_schema, {})), 3, "replica table")
    sequencer.submit(sequencer.sign("chat", {"text": "welcome"}))
    return sequencer


def welcome(sequencer: Sequencer) -> Welcome:
    t = sequencer.table
    return Welcome(t.table_id, sequencer.public, [t.seq - 1, t.head, sequencer.heads[-1]], None)


def everything(sequencer: Sequencer) -> Entries:
    return Entries(0, [[e.wire_array(), h] for e, h in zip(sequencer.table.entries, sequencer.heads, strict=True)])


class Recorder:
    def __init__(self, store: Store = Store.memory()) -> None:
        self.events: list[Event] = []
        self.folds: list[tuple[int, bool]] = []
        self.forks = 0
        listeners = Listeners()
        listeners.subscribe(self.events.append)
        self.replica = Replica(
            new_key(),
            "Ann",
            "player",
            all_rules(),
            store,
            listeners,
            random_bytes=bytes,
            on_fold=lambda entry, live: self.folds.append((entry.seq, live)),
            on_fork=self.count_fork,
        )

    def count_fork(self) -> None:
        self.forks += 1


def test_a_replica_folds_and_stores_what_the_host_signed(tmp_path):
    host = a_table()
    me = Recorder(Store.in_dir(tmp_path))
    me.replica.welcome(welcome(host))
    me.replica.receive(everything(host))
    assert me.replica.catch_up()
    assert me.replica.table.digest() == host.table.digest()
    assert me.folds == [(0, True), (1, True)]
    assert [type(e) for e in me.events] == [Folded, Folded]
    assert [e.id for e in read_log(tmp_path / "table.vtlog").entries] == [e.id for e in host.table.entries]


def test_a_head_signature_that_is_not_the_hosts_stops_the_replica_with_a_host_fault():
    host = a_table()
    me = Recorder()
    me.replica.welcome(welcome(host))
    entries = everything(host)
    entries.items[1][1] = sign_head(new_key(), host.table.table_id, 1, host.table.entries[1].id)
    with pytest.raises(GiveUp, match="head signature for seq 1 does not verify"):
        me.replica.receive(entries)
    assert me.replica.table.seq == 1
    assert isinstance(me.events[-1], HostFault)


def test_two_entries_signed_for_one_seq_are_fork_evidence():
    host = a_table()
    me = Recorder()
    me.replica.welcome(welcome(host))
    me.replica.receive(everything(host))
    t = host.table
    other = sign_entry(
        host.key, table=t.table_id, seq=1, prev=t.entries[0].id, kind="chat", body={"text": "else"}, time_ms=0
    )
    me.replica.check_claim([1, other.id, sign_head(host.key, t.table_id, 1, other.id)])
    assert me.forks == 1 and me.replica.fork is not None and me.replica.fork.check()
    assert isinstance(me.events[-1], Fork) and me.events[-1].evidence == me.replica.fork
    # A claim the host did not sign proves nothing.
    again = Recorder()
    again.replica.welcome(welcome(host))
    again.replica.receive(everything(host))
    again.replica.check_claim([1, other.id, sign_head(new_key(), t.table_id, 1, other.id)])
    assert again.forks == 0 and again.replica.fork is None


def test_every_event_of_the_network_layer_is_a_frozen_net_event():
    for cls in get_args(Event):
        assert issubclass(cls, NetEvent)
        assert cls.__dataclass_params__.frozen


def test_two_heads_ahead_of_the_log_for_one_seq_are_fork_evidence_and_kept_in_a_file(tmp_path):
    """Whoever sends them (PROTOCOL.md 7): two valid host heads for a seq this peer does not hold
    yet, with different ids, prove the fork; the evidence goes beside the log."""
    from engine.forks import audit_fork_file

    host = a_table()
    me = Recorder(Store.in_dir(tmp_path))
    me.replica.welcome(welcome(host))
    me.replica.receive(everything(host))
    t = host.table
    ids = [bytes([i]) * 32 for i in (7, 8)]
    me.replica.check_claim([5, ids[0], sign_head(host.key, t.table_id, 5, ids[0])])
    assert me.forks == 0
    me.replica.check_claim([5, ids[0], sign_head(host.key, t.table_id, 5, ids[0])])  # the same head again
    assert me.forks == 0
    me.replica.check_claim([5, ids[1], sign_head(host.key, t.table_id, 5, ids[1])])
    assert me.forks == 1 and me.replica.fork.check()
    path = tmp_path / "table.vtfork"
    assert me.replica.fork_path == path and me.events[-1].path == path
    verdict = audit_fork_file(path)
    assert verdict.proven and set(verdict.ids) == set(ids)
