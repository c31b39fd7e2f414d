"""A seat's chat is limited (docs/protocol.md 7.4, "Chat"): lines and bytes a minute, by the
entries' own times, folded the same way on every peer; the host refuses a chat line timed ahead of
its clock, so no seat refills its buckets with a time to come."""

from __future__ import annotations

from engine.protocol.identity import new_key
from engine.protocol.log import sign_entry
from engine.rate import MAX_AHEAD_MS
from engine.seat import now_ms
from engine.table.chat import ChatBudget, ChatLimit
from net.messages import Submit
from tests.functional.test_net_hostile import fresh_entry
from tests.support.net import RawPeer, open_host, start_bots, stop_all
from tests.support.poll import eventually


def test_a_chat_budget_takes_its_bursts_then_its_rates_by_the_entries_times():
    budget = ChatBudget(ChatLimit(lines=30, line_burst=3, bytes=600, byte_burst=1000))
    for i in range(3):
        assert budget.refusal(1000 + i, 100) is None
        budget.spend(1000 + i, 100)
    assert "lines a minute" in (budget.refusal(1003, 1) or "")
    assert budget.refusal(1003 + 2000, 100) is None  # two seconds later: one line more (30 a minute)
    budget.spend(3003, 100)
    assert "order of their times" in (budget.refusal(3002, 1) or "")
    assert "bytes of text a minute" in (budget.refusal(3003 + 20_000, 900) or "")  # 600 left, then 600 a minute
    assert budget.refusal(3003 + 30_000, 900) is None


async def test_a_seat_that_chats_past_its_limit_is_refused_on_every_peer():
    host = open_host(seats=4, auto_start=False)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 1)
    t = host.table
    key = new_key()
    peer = await RawPeer.open(host.port)
    await peer.hello(key)
    peer.send(Submit(1, fresh_entry(key, t, kind="join", body={"name": "Chatty", "deck": None})).to_map())
    await peer.recv_type("accepted")
    start = now_ms()

    def chat(n: int, text: str, time_ms: int) -> dict:
        entry = sign_entry(
            key, table=t.table_id, seq=t.seq, prev=t.head, kind="chat", body={"text": text}, time_ms=time_ms
        )
        peer.send(Submit(n, entry.wire_array()).to_map())
        return peer

    answers = []
    for n in range(2, 14):  # 12 lines at once: the burst is 10
        chat(n, f"line {n}", start)
        msg = await peer.recv_type("accepted" if n < 12 else "rejected")
        answers.append(msg["t"])
    assert answers == ["accepted"] * 10 + ["rejected"] * 2
    # Two seconds later by its own clock: one line more.
    chat(20, "later", start + 2000)
    assert (await peer.recv_type("accepted"))["n"] == 20
    # A time to come is refused by the host before the table sees it.
    chat(21, "from the future", now_ms() + MAX_AHEAD_MS + 60_000)
    refused = await peer.recv_type("rejected")
    assert refused["n"] == 21 and "ahead of the host's clock" in refused["detail"]
    await eventually(lambda: bots[0].table.seq == t.seq, 5, "the peer holds every line")
    chats = [e for e in t.entries if e.kind == "chat"]
    assert len(chats) == 11 and bots[0].table.digest() == t.digest()
    peer.close()
    await stop_all(host, bots)
