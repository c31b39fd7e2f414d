"""Names at the table (docs/protocol.md 7.4, "Names"): the table's own fold renames a `join` whose name is a
seated one's once NFC, case, blanks, invisible characters and confusable look-alikes are set
aside, the same way on every peer, whatever client sent it; names heard on the LAN are cleaned
the same way."""

from __future__ import annotations

import unicodedata

from engine.protocol.identity import new_key
from engine.table.lobby import free_name
from engine.table.names import clean_display, name_key
from net.lan import clean_text
from net.messages import Submit
from tests.functional.test_net_hostile import fresh_entry
from tests.support.net import RawPeer, open_host, start_bots, stop_all
from tests.support.poll import eventually

CYRILLIC_LISA = "L\u0456sa"  # a Cyrillic і
NFD_ZOE = unicodedata.normalize("NFD", "Zoë")


def test_a_names_key_sets_aside_form_case_blanks_invisible_characters_and_look_alikes():
    assert name_key("Lisa") == name_key(CYRILLIC_LISA) == name_key("LISA") == name_key(" li sa ")
    assert name_key("Lisa") == name_key("Li\u200bsa") == name_key("Li\u00adsa")  # zero-width, soft hyphen
    assert name_key("Zoë") == name_key(NFD_ZOE) and name_key("Zoë") != name_key("Zoe")
    for a, b in [("Bob", "Rob"), ("Ana", "Anna"), ("Mina", "Nina"), ("Bot1", "Bot2"), ("Lisa", "Lisa 2")]:
        assert name_key(a) != name_key(b), (a, b)
    assert free_name(CYRILLIC_LISA, ["Lisa"]) == f"{CYRILLIC_LISA} 2"
    assert free_name(NFD_ZOE, ["Zoë", f"{NFD_ZOE} 2"]) == f"{NFD_ZOE} 3"


def test_names_heard_on_the_lan_lose_invisible_characters():
    assert clean_text("Ana\u200b's \u202etable\u2060") == "Ana's table"
    assert clean_text(NFD_ZOE) == "Zoë"  # NFC
    assert clean_display("a\u00a0b") == "a b"


async def test_the_table_renames_look_alike_joins_the_same_way_on_every_peer():
    host = open_host(seats=6, auto_start=False)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 1)  # a peer that folds every join as the host does
    t = host.table
    # Raw joins, as a client that does not rename would send them: each is seated, renamed.
    for n, name in enumerate(["Lisa", CYRILLIC_LISA, "LISA", "Zoë", NFD_ZOE], start=1):
        key = new_key()
        peer = await RawPeer.open(host.port)
        await peer.hello(key)
        seq = t.seq
        peer.send(Submit(n, fresh_entry(key, t, kind="join", body={"name": name, "deck": None})).to_map())
        assert (await peer.recv_type("accepted"))["n"] == n
        await eventually(lambda seq=seq: bots[0].table.seq > seq, 5, "the join folded by the peer")
        peer.close()
    names = t.names
    assert names[1:] == ["Lisa", f"{CYRILLIC_LISA} 2", "LISA 3", "Zoë", f"{NFD_ZOE} 2"]
    assert bots[0].table.names == names and bots[0].table.digest() == t.digest()
    assert len({name_key(n) for n in names}) == len(names)
    await stop_all(host, bots)
