"""Two people at a VTES table over loopback TCP (shared/rules/vtes-actions.md): a bleed waits for
the prey's decision before it resolves, a pass out of impulse is refused by the table, and a change
recorded by hand to the other Methuselah's pool is disputed, shown as disputed to both, and listed
for the judge by the table's result."""

from __future__ import annotations

import pytest

from engine.games.base import IllegalMove
from engine.games.vtes import result_text
from net.errors import HostRefused
from tests.support.net import eventually
from tests.support.vtes_net import move as _move
from tests.support.vtes_net import state as _state
from tests.support.vtes_net import two_people


async def test_over_tcp_a_bleed_waits_for_the_prey_and_a_change_by_hand_is_disputed(tmp_path):
    async with two_people(tmp_path) as t:
        host, people, by_seat, first, second = t.host, t.people, t.by_seat, t.first, t.second
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
        await _move(actor, {"do": "pool", "seat": second, "delta": -3, "cause": "judge ruling"})
        claim = _state(actor).claims[-1]
        await _move(prey, {"do": "dispute", "act": claim.act})
        for person in people:
            await eventually(lambda p=person: _state(p).claims[-1].disputed == (second,), 10, "the dispute")
        names = [s.name for s in host.table.seats]
        text = result_text(host.table.gstate, names)
        assert f"Disputed, for the judge: act {claim.act} by {names[first]}" in text
        assert "judge ruling" in text
