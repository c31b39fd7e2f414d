"""Two people at a VTES table over loopback TCP (shared/rules/vtes-actions.md): a bleed waits for
the prey's decision before it resolves, a pass out of impulse is refused by the table, and a change
recorded by hand to the other Methuselah's pool is disputed, shown as disputed to both, and listed
for the judge by the table's result."""

from __future__ import annotations

from typing import Any

import pytest

from engine.games import all_rules
from engine.games.base import IllegalMove, parse_options
from engine.games.vtes import bundled_decks, result_text
from engine.protocol.identity import new_key
from engine.protocol.log import LogWriter
from engine.seat import now_ms
from engine.sequencer import Sequencer
from net.client import Client, Seating, Store
from net.errors import HostRefused
from net.host import Host
from tests.support.net import FAST, QUICK_BACKOFF, eventually


def _state(client: Client) -> Any:
    assert client.table is not None
    return client.table.gstate


async def _move(client: Client, act: dict[str, Any]) -> None:
    await client.submit("move", act)


async def test_over_tcp_a_bleed_waits_for_the_prey_and_a_change_by_hand_is_disputed(tmp_path):
    games = all_rules()
    sequencer = Sequencer(new_key(), games, LogWriter(tmp_path / "table.vtlog"), now_ms)
    sequencer.open_table("vtes", dict(parse_options(games["vtes"].option_schema, {})), 2, "two people")
    host = Host(sequencer, timeouts=FAST)
    await host.start("127.0.0.1", 0)
    decks = bundled_decks()
    people = [
        Client(
            ("127.0.0.1", host.port),
            new_key(),
            name=name,
            store=Store.memory(),
            seating=Seating(brought=decks[i]),
            timeouts=FAST,
            backoff=QUICK_BACKOFF,
        )
        for i, name in enumerate(("Ann", "Ben"))
    ]
    try:
        for person in people:
            await person.start()
            await eventually(lambda p=person: p.seat is not None and p.seat.index is not None, 10, "a seat")
        await eventually(lambda: all(p.table is not None and p.table.gstate is not None for p in people), 20, "start")
        for i, person in enumerate(people):
            await _move(person, decks[i].deck_act())
        await eventually(lambda: all(_state(p).step == "play" for p in people), 60, "the deal")
        by_seat = {p.seat.index: p for p in people if p.seat is not None}
        first, second = _state(people[0]).seating
        actor, prey = by_seat[first], by_seat[second]

        def vampire(seat: int) -> list[int]:
            card = next(c for c in _state(actor).cards if c.owner == seat and c.zone == "uncontrolled")
            return list(card.pos)

        # Each brings out a vampire by hand (its own cards: no cause needed) and gives it blood.
        mine, theirs = vampire(first), vampire(second)
        await _move(actor, {"do": "move", "cards": [mine], "to": "ready"})
        await _move(actor, {"do": "blood", "card": mine, "delta": 3, "cause": "test"})
        await _move(prey, {"do": "move", "cards": [theirs], "to": "ready"})
        await _move(prey, {"do": "blood", "card": theirs, "delta": 3, "cause": "test"})
        await _move(actor, {"do": "phase"})
        await _move(actor, {"do": "phase"})
        await _move(actor, {"do": "action", "kind": "bleed", "minion": mine})

        def impulse() -> int:
            action = _state(actor).open_action
            return -1 if action is None else action.impulse

        # The actor passes on its own impulse unless its seat passed it by itself (nothing to play).
        while impulse() == first:
            try:
                await _move(actor, {"do": "pass"})
            except (HostRefused, IllegalMove):
                pass  # its seat passed by itself first
        await eventually(lambda: impulse() == second, 10, "the impulse at the prey")
        # The prey may block: its seat does not pass by itself, the table waits for it alone.
        assert prey.table is not None and prey.table.waiting_on() == [second]
        assert _state(prey).players[second].pool == 30
        with pytest.raises(IllegalMove, match="holds the impulse"):
            await _move(actor, {"do": "pass"})
        await _move(prey, {"do": "pass"})  # declines to block
        # Window C: the actor first again; then the prey, who has declined, may still play.
        while _state(actor).open_action is not None:
            who = by_seat[impulse()]
            try:
                await _move(who, {"do": "pass"})
            except (HostRefused, IllegalMove):
                pass  # its seat passed by itself first
            await eventually(lambda w=who: impulse() != w.seat.index or _state(actor).open_action is None, 10, "a pass")
        await eventually(lambda: _state(prey).players[second].pool == 29, 10, "the bleed")
        assert _state(prey).edge == first

        # A change by hand to the other Methuselah's pool names its cause, and is disputed.
        await _move(actor, {"do": "pool", "seat": second, "delta": -3, "cause": "Govern the Unaligned"})
        claim = _state(actor).claims[-1]
        await _move(prey, {"do": "dispute", "act": claim.act})
        for person in people:
            await eventually(lambda p=person: _state(p).claims[-1].disputed == (second,), 10, "the dispute")
        names = [s.name for s in host.table.seats]
        text = result_text(host.table.gstate, names)
        assert f"Disputed, for the judge: act {claim.act} by {names[first]}" in text
        assert "Govern the Unaligned" in text
    finally:
        for person in people:
            await person.stop()
        await host.close()
