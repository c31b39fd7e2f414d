"""A `join` that says a program plays the seat (docs/protocol.md 4.1, optional ``bot``: true), so
every peer, not only the one that started the bot, shows it as a bot; a person's `join` leaves the
field out, and ``bot: false`` is malformed (one value, one encoding)."""

from __future__ import annotations

import pytest

from engine.local import new_local_game
from engine.protocol.identity import new_key
from engine.protocol.secrets import SecretsFile
from engine.seat import Seat
from engine.sequencer import Sequencer
from engine.table import TableRefusal
from tests.support.protocol import GAMES


def _host_and_seat() -> tuple[Sequencer, Seat]:
    host = Sequencer(new_key(), GAMES, None, lambda: 0)
    host.open_table("queen", {"rounds": 1}, 3, "t")
    seat = Seat(new_key(), "Ann", GAMES, SecretsFile(None))
    seat.fold(host.table.entries[0])
    return host, seat


def test_a_bot_says_so_in_its_join_and_a_person_does_not() -> None:
    host, seat = _host_and_seat()
    assert "bot" not in seat.join_body()
    seat.bot = True
    assert seat.join_body()["bot"] is True
    host.submit(seat.sign("join", seat.join_body()))
    assert host.table.seats[0].bot is True


def test_bot_false_is_malformed_and_changes_nothing() -> None:
    host, seat = _host_and_seat()
    body = seat.join_body() | {"bot": False}
    with pytest.raises(TableRefusal) as err:
        host.submit(seat.sign("join", body))
    assert err.value.code == "malformed" and "bot" in err.value.detail
    assert host.table.seats == []


def test_a_local_table_marks_its_bot_seats_and_not_its_people() -> None:
    local = new_local_game("queen", [None, "random", "heuristic"], options={"rounds": 1}, seed=3)
    assert [s.bot for s in local.table.seats] == [False, True, True]
