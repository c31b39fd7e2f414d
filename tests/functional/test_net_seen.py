"""Seen reports relayed by the host, silent players, fork evidence files, pins from an
announcement, and the switch that keeps every LAN multicast off (PROTOCOL.md 3, 7 and 9). No
multicast here: the suite runs with VAMPIRE_NO_DISCOVERY=1 (see test_lan_namespace.py for the
LAN itself)."""

from __future__ import annotations

import random

from engine.forks import audit_fork_file
from engine.protocol.identity import new_key
from net.client import Client, Seating, Store
from net.discovery import Announcer, Browser, TableAd, announce_host
from net.events import Fork, Silent
from net.local import bot_factory
from net.seen import SeenReport
from tests.support.forking import ForkingHost
from tests.support.net import FAST, QUICK_BACKOFF, open_host, stop_all
from tests.support.poll import eventually
from tui.cli import main


def seat(host, name: str, tmp_path=None, **kwargs) -> Client:
    return Client(
        ("127.0.0.1", host.port),
        new_key(),
        name=name,
        store=Store.in_dir(tmp_path / name) if tmp_path is not None else Store.memory(),
        seating=Seating(bot=bot_factory("heuristic", random.Random(name))),
        timeouts=FAST,
        backoff=QUICK_BACKOFF,
        **kwargs,
    )


async def seated(host, clients: list[Client]) -> None:
    for client in clients:
        await client.start()
    await eventually(
        lambda: all(c.connected and c.seat is not None and c.seat.index is not None for c in clients), 10, "seats"
    )


async def test_pings_carry_signed_seen_reports_that_the_host_relays_verbatim():
    host = open_host(seats=4, auto_start=False)
    await host.start("127.0.0.1", 0)
    clients = [seat(host, n) for n in ("Ana", "Bo", "Cy")]
    await seated(host, clients)
    head = host.table.seq - 1
    # Every peer holds every other's signed report of the head, received through the host.
    await eventually(
        lambda: all(c.silence.latest.get(o.public) == head for c in clients for o in clients if o is not c),
        10,
        "signed reports relayed",
    )
    for peer in host.peers:
        assert peer.fsig is not None
        assert SeenReport(peer.key, peer.head, peer.fsig).signed_by_sender()
    assert [p[2] for p in host._relay()] == [p.fsig for p in host.peers if p.role == "player"]
    await stop_all(host, clients)


async def test_a_forged_seen_signature_is_not_relayed():
    host = open_host(seats=4, auto_start=False)
    await host.start("127.0.0.1", 0)
    client = seat(host, "Ana")
    client.seen_signature = lambda head: bytes(64)  # a report its key never signed
    await seated(host, [client])
    await eventually(lambda: any(p.head is not None for p in host.peers), 5, "a reported head")
    assert all(p.fsig is None for p in host.peers)
    await stop_all(host, [client])


async def test_relayed_reports_catch_a_careless_fork_and_each_peer_keeps_the_evidence_in_a_file(tmp_path):
    host = open_host(seats=4, auto_start=False, host_cls=ForkingHost)
    host.hide = False
    await host.start("127.0.0.1", 0)
    honest, victim = seat(host, "honest", tmp_path), seat(host, "victim", tmp_path)
    forks: list[Fork] = []
    honest.listeners.subscribe(lambda e: forks.append(e) if isinstance(e, Fork) else None)
    await seated(host, [honest, victim])
    host.victim = victim.public
    host.post("chat", {"text": "hello"})
    await eventually(lambda: honest.fork is not None and victim.fork is not None, 10, "both see the fork")
    for client in (honest, victim):
        path = client.replica.fork_path
        assert path == tmp_path / client.name / "table.vtfork"
        verdict = audit_fork_file(path)
        assert verdict.proven and verdict.seq == host.real.seq
        assert set(verdict.ids) == {host.real.id, host.alternative[0].id}
    assert forks and forks[0].path == honest.replica.fork_path
    await eventually(lambda: honest.finished.is_set() and victim.finished.is_set(), 10, "both stop")
    assert host.real.id.hex() in honest.failure  # the full id, not 16 hex digits
    await stop_all(host, [honest, victim])


async def test_a_fork_hidden_from_the_relays_names_the_peers_whose_reports_stop_as_silent():
    """Without the LAN's direct reports, a host that filters its relays hides the fork itself;
    what it cannot hide is that the victim's signed reports stop advancing for the others."""
    host = open_host(seats=4, auto_start=False, host_cls=ForkingHost)
    await host.start("127.0.0.1", 0)
    honest = seat(host, "Honest", silent_after=0.8)
    victim = seat(host, "Victim", silent_after=0.8)
    silences: dict[str, list[Silent]] = {"Honest": [], "Victim": []}
    for client in (honest, victim):
        client.listeners.subscribe(lambda e, n=client.name: silences[n].append(e) if isinstance(e, Silent) else None)
    await seated(host, [honest, victim])
    assert honest.multicast is None and victim.multicast is None  # VAMPIRE_NO_DISCOVERY=1
    host.victim = victim.public
    host.post("chat", {"text": "hello"})
    host.post("chat", {"text": "and again"})
    await eventually(lambda: any(s.names == ("Victim",) for s in silences["Honest"]), 10, "the victim named")
    await eventually(lambda: any(s.names == ("Honest",) for s in silences["Victim"]), 10, "the honest named")
    named = next(s for s in silences["Honest"] if s.names == ("Victim",))
    assert named.seats == (victim.seat.index,) and named.seqs[0] < named.head
    assert honest.fork is None and victim.fork is None
    await stop_all(host, [honest, victim])


async def test_a_pin_from_an_announcement_refuses_another_host_and_accepts_the_one_named():
    host = open_host(seats=4, auto_start=False)
    await host.start("127.0.0.1", 0)
    impostor = seat(host, "Ana", pin=(bytes(31) + b"\x01", None))
    await impostor.start()
    await eventually(lambda: impostor.finished.is_set(), 10, "the pinned client to stop")
    assert "does not hold the key its LAN announcement named" in impostor.failure
    wrong_table = seat(host, "Bo", pin=(host.sequencer.public, bytes(32)))
    await wrong_table.start()
    await eventually(lambda: wrong_table.finished.is_set(), 10, "the pinned client to stop")
    assert "another table than its LAN announcement named" in wrong_table.failure
    right = seat(host, "Cy", pin=(host.sequencer.public, host.table.table_id))
    await seated(host, [right])
    await stop_all(host, [impostor, wrong_table, right])


async def test_with_discovery_off_nothing_is_announced_or_heard(capsys):
    host = open_host(seats=4, auto_start=False)
    await host.start("127.0.0.1", 0)
    assert await announce_host(host, "127.0.0.1") is None
    announcer = Announcer(TableAd("t", "queen", 0, 4, None, host.sequencer.public, "127.0.0.1", host.port))
    await announcer.start()
    browser = Browser()
    await browser.start()
    assert not announcer.running and not browser.running
    await announcer.close()
    await browser.close()
    client = seat(host, "Ana", lan=True)
    await seated(host, [client])
    assert client.multicast is None  # the host-relayed reports still run (see above)
    await stop_all(host, [client])


def test_join_without_an_address_says_discovery_is_off(capsys):
    assert main(["join", "--list"]) == 1
    assert "LAN discovery is off (VAMPIRE_NO_DISCOVERY is set)" in capsys.readouterr().err
    assert main(["join", "--bot", "heuristic"]) == 1
    assert "join with an address" in capsys.readouterr().err
    assert main(["join", "--list", "127.0.0.1"]) == 1
    assert "--list lists the tables heard on the LAN: give it no address" in capsys.readouterr().err


async def test_join_with_no_address_lists_what_it_heard_and_takes_the_choice(monkeypatch, capsys):
    """The person's path of `vampire join` with no address (the listening itself is tested in a
    namespace, test_lan_namespace.py): a numbered list, then the table chosen on standard input."""
    import argparse

    from net.discovery import HeardTable
    from tui import cli

    def table(name: str, taken: int) -> HeardTable:
        return HeardTable(f"{name}.x", name, "queen", taken, 4, bytes(32), bytes(range(32)), ("192.0.2.9",), 7447, 2)

    async def heard(seconds: float) -> list[HeardTable]:
        return [table("Ana's", 1), table("Full", 4), table("Mina's", 3)]

    monkeypatch.setenv("VAMPIRE_NO_DISCOVERY", "0")
    monkeypatch.setattr("net.discovery.listen", heard)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt: "2")
    args = argparse.Namespace(list=False, bot=None, spectate=False)
    chosen, status = await cli._choose_table(args, lambda line: None)
    assert status is None and chosen.name == "Mina's"  # the full table is not offered
    out = capsys.readouterr().out
    assert " 1. Ana's  queen  1/4 seats  host " in out and " 2. Mina's" in out and "Full" not in out
    monkeypatch.setattr("builtins.input", lambda prompt: "9")
    assert await cli._choose_table(args, lambda line: None) == (None, 1)
    assert "no table chosen" in capsys.readouterr().err


async def test_a_peer_forked_then_advanced_past_proves_the_fork_from_the_heads_the_other_sends(tmp_path):
    """The host forks the victim and at once appends one more entry on the honest branch: the
    victim hears only heads ahead of its own, never one for the seq it holds. The honest peer,
    once it proves the fork, reports the evidence's two heads in turn, so the victim gets the
    one that conflicts with its own and proves the fork too (docs/protocol.md 7.4, "Forks")."""
    host = open_host(seats=4, auto_start=False, host_cls=ForkingHost)
    host.hide = False
    await host.start("127.0.0.1", 0)
    honest, victim = seat(host, "honest", tmp_path), seat(host, "victim", tmp_path)
    await seated(host, [honest, victim])
    host.victim = victim.public
    host.post("chat", {"text": "hello"})  # the fork
    host.post("chat", {"text": "and on"})  # at once, one more on the honest branch
    await eventually(lambda: honest.fork is not None and victim.fork is not None, 10, "both prove the fork")
    for client in (honest, victim):
        verdict = audit_fork_file(client.replica.fork_path)
        assert verdict.proven and verdict.seq == host.real.seq
        assert set(verdict.ids) == {host.real.id, host.alternative[0].id}
    assert victim.table.seq == host.real.seq + 1  # it never held the entry after the fork
    await stop_all(host, [honest, victim])
