"""A peer deceived by a fork asks another for the head it holds (docs/protocol.md 7.4, "Forks";
PROTOCOL.md 7), over real sockets: the LAN multicast of a network namespace this test makes (its
own loopback, nothing leaves it; skipped, with the reason, where ``unshare -rn`` is not allowed).

The host forks the victim, then at once appends one more entry on the honest branch, and relays
nobody's seen report: the victim hears from the host only a head ahead of its own, and never the
entry. The one other peer on the LAN sends no report of its own and only answers asks; so the
victim proves the fork only by asking the group for the head held at its last seq, and that
peer's signed answer, which conflicts with its own."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.forks import audit_fork_file
from engine.protocol.codec import decode
from engine.protocol.identity import new_key
from net.client import Client, Seating, Store
from net.framing import HEADER
from net.host import Peer
from net.lan import multicast_interface
from net.local import bot_factory
from net.messages import Hello
from net.seen import SeenMulticast, SeenReport
from tests.support.forking import ForkingHost
from tests.support.net import FAST, QUICK_BACKOFF, open_host
from tests.support.netns import netns_unavailable, run_in_netns
from tests.support.poll import eventually


class NoRelayForkingHost(ForkingHost):
    """A forking host whose pings show every peer the real head and relay no seen report: the
    victim learns only that the table went on without it."""

    hide = False

    def _welcome(self, peer: Peer, hello: Hello) -> bool:
        welcomed = super()._welcome(peer, hello)
        send = peer.outbox.send

        def no_relay(message: dict[str, Any] | bytes) -> bool:
            m = message if isinstance(message, dict) else decode(bytes(message[HEADER:]))
            if m.get("t") in ("ping", "pong") and self.alternative is not None:
                return send(dict(m, relay=[]))
            return send(message)

        peer.outbox.send = no_relay  # type: ignore[method-assign]
        return welcomed


async def scenario(directory: str) -> dict[str, Any]:
    """Run inside the namespace: see the module. Returns what each side did."""
    base = Path(directory)
    host = open_host(seats=4, auto_start=False, host_cls=NoRelayForkingHost)
    assert isinstance(host, NoRelayForkingHost)
    await host.start("127.0.0.1", 0)

    def client(name: str, lan: bool) -> Client:
        return Client(
            ("127.0.0.1", host.port),
            new_key(),
            name=name,
            store=Store.in_dir(base / name.lower()),
            seating=Seating(bot=bot_factory("heuristic", random.Random(name))),
            timeouts=FAST,
            backoff=QUICK_BACKOFF,
            lan=lan,
        )

    honest, victim = client("Honest", lan=False), client("Victim", lan=True)
    asked: list[int] = []

    def answer(seq: int) -> SeenReport | None:
        asked.append(seq)
        return honest.head_at(seq)

    t = honest.table
    # The honest peer on the LAN: it answers asks and sends nothing else, hears nothing.
    witness = SeenMulticast(
        lambda: honest.table.table_id if honest.table is not None else None,
        lambda: None,
        lambda report: None,
        answer=answer,
        interface=multicast_interface("127.0.0.1"),
    )
    try:
        for c in (honest, victim):
            await c.start()
        await eventually(
            lambda: all(c.connected and c.seat is not None and c.seat.index is not None for c in (honest, victim)),
            15,
            "seats",
        )
        await witness.start()
        assert victim.multicast is not None, "the victim's multicast did not open"
        host.victim = victim.public
        host.post("chat", {"text": "hello everyone"})  # the fork
        host.post("chat", {"text": "and on"})  # at once, one more on the honest branch
        await eventually(lambda: victim.fork is not None, 30, "the victim proves the fork")
        assert host.alternative is not None and host.real is not None
        t = honest.table
        assert t is not None
        verdict = audit_fork_file(victim.replica.fork_path)
        return {
            "asked": asked,
            "fork_seq": host.real.seq,
            "victim_last": victim.table.seq - 1 if victim.table is not None else None,
            "honest_fork": honest.fork is not None,
            "proven": verdict.proven,
            "ids": sorted(i.hex() for i in verdict.ids),
            "expected": sorted([host.real.id.hex(), host.alternative[0].id.hex()]),
            "witness_sent": witness.sent,
        }
    finally:
        await witness.close()
        for c in (honest, victim):
            await c.stop()
        await host.close()


def test_a_peer_forked_then_advanced_proves_the_fork_by_asking_another_over_the_lan(tmp_path):
    reason = netns_unavailable()
    if reason is not None:
        pytest.skip(reason)
    code = (
        "import asyncio, json, sys\n"
        "from tests.functional.test_net_strangers_ask import scenario\n"
        "print('RESULT ' + json.dumps(asyncio.run(scenario(sys.argv[1]))))\n"
    )
    done = run_in_netns([sys.executable, "-c", code, str(tmp_path)])
    assert done.returncode == 0, done.stderr[-3000:]
    [line] = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    facts = json.loads(line.removeprefix("RESULT "))
    # The victim asked for the seq where the branches part (its last), the other peer answered
    # with its signed head there, and that answer is what proved the fork: the honest peer never
    # heard the victim, and the host relayed nothing.
    assert facts["victim_last"] == facts["fork_seq"] and facts["fork_seq"] in facts["asked"]
    assert facts["witness_sent"] >= 1 and facts["honest_fork"] is False
    assert facts["proven"] is True and facts["ids"] == facts["expected"]


if __name__ == "__main__":  # pragma: no cover - a hand run inside a namespace
    print(asyncio.run(scenario(sys.argv[1])))
