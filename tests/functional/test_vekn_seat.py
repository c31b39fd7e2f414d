"""A person's VEKN id, a seat fact of the game (engine.games.base.SeatFact), reaches the table
over TCP (docs/protocol.md 4.1, the `join`'s optional `vekn`): through :class:`net.driver.Seating`
for ``vampire join``, ``Session.connect`` for ``vampire host``, and from the profile for the app's
own tables (``vampire play``, the home screen). A fact the table's game does not take stays home."""

from __future__ import annotations

import random

from engine.games import register_game, unregister_game
from engine.kits import profile_facts
from engine.protocol.identity import new_key
from net.client import Client, Seating, Store
from net.local import bot_factory, open_local_table
from tests.support.net import FAST, eventually, open_host, start_bots, stop_all
from tui.connect import LocalPlay
from tui.session import LocalTableSpec


async def test_a_joining_client_with_a_vekn_id_is_seated_with_it_and_a_bot_without():
    host = open_host(seats=3)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 1)
    person = Client(
        ("127.0.0.1", host.port),
        new_key(),
        name="Ann",
        store=Store.memory(),
        seating=Seating(bot=bot_factory("heuristic", random.Random(1)), facts={"vekn": "1003456"}),
        timeouts=FAST,
    )
    await person.start()
    try:
        await eventually(lambda: len(host.table.seats) == 2, 10, "Ann's seat")
        assert [s.facts for s in host.table.seats] == [{}, {"vekn": "1003456"}]
        await eventually(lambda: person.table is not None and len(person.table.seats) == 2, 10, "Ann's own table")
        assert person.table.seats[1].facts == {"vekn": "1003456"}
    finally:
        await stop_all(host, [*bots, person])


async def test_a_local_table_records_the_vekn_id_given_to_it():
    table = await open_local_table(
        levels=("random", "random"),
        options={"rounds": "1"},
        timeouts=FAST,
        facts={"vekn": "42"},
        player_bot=bot_factory("random", random.Random(2)),
    )
    try:
        assert [s.facts for s in table.host.table.seats] == [{"vekn": "42"}, {}, {}]
    finally:
        await table.close()


async def test_the_apps_local_table_takes_the_vekn_id_from_the_profile():
    profile_facts("Vekn Tester", {"vekn": "7654321"})
    play = LocalPlay(LocalTableSpec("Vekn Tester", ["random", "random"], {"rounds": "1"}, "queen"))
    await play.start()
    try:
        await eventually(lambda: len(play.table.seats) == 3, 10, "the seats")  # the player's own table
        assert play.table.seats[0].facts == {"vekn": "7654321"} and play.table.seats[0].name == "Vekn Tester"
    finally:
        await play.stop()


async def test_a_fact_the_tables_game_does_not_take_stays_out_of_the_join():
    # High Card takes no seat fact: a client that states a VEKN id joins without it.
    from tests.seamgame.spec import SPEC

    register_game(SPEC)
    try:
        table = await open_local_table(
            "highcard",
            levels=("random", "random"),
            timeouts=FAST,
            facts={"vekn": "42"},
            player_bot=bot_factory("random", random.Random(2)),
        )
        try:
            assert [s.facts for s in table.host.table.seats] == [{}, {}, {}]
        finally:
            await table.close()
    finally:
        unregister_game(SPEC.name)
