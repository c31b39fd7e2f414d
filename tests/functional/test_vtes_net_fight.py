"""Two people fight over loopback TCP (shared/rules/vtes-actions.md 5, P5–P6), each seat asking its
person every time (no automatic pass): Ann's bleed is blocked by Ben, the combat opens, both pass
the steps before strikes, Ann chooses a strike of 2 damage (no card: a claim Ben accepts) and Ben
the hand strike; Ben cannot choose a strike for Ann's minion ("is not yours"), and the damage lands
as P6 says on both replicas: Ann's vampire mends 1 with its blood, Ben's (1 blood) mends 1 and goes
to torpor."""

from __future__ import annotations

import pytest

from engine.games.base import IllegalMove
from engine.games.vtes.vocab import CombatStep
from net.client import Client
from net.errors import HostRefused
from tests.support.poll import eventually
from tests.support.vtes_net import move as _move
from tests.support.vtes_net import state as _state
from tests.support.vtes_net import two_people


async def test_over_tcp_two_people_fight_each_choosing_their_own_strike(tmp_path):
    async with two_people(tmp_path, auto=False) as t:
        host, people, by_seat, first, second = t.host, t.people, t.by_seat, t.first, t.second
        ann, ben = by_seat[first], by_seat[second]

        def vampire(seat: int) -> list[int]:
            card = next(c for c in _state(ann).cards if c.owner == seat and c.zone == "uncontrolled")
            return list(card.pos)

        def synced() -> bool:
            seq = host.table.seq
            return all(p.table is not None and p.table.seq == seq for p in people)

        async def pass_by(who: Client) -> None:
            await _move(who, {"do": "pass"})
            await eventually(synced, 10, "both replicas at the host's head")

        # Each brings out a vampire by hand: Ann's with 3 blood, Ben's with 1.
        mine, theirs = vampire(first), vampire(second)
        await _move(ann, {"do": "move", "cards": [mine], "to": "ready"})
        await _move(ann, {"do": "blood", "card": mine, "delta": 3, "cause": "test"})
        await _move(ben, {"do": "move", "cards": [theirs], "to": "ready"})
        await _move(ben, {"do": "blood", "card": theirs, "delta": 1, "cause": "test"})
        await _move(ann, {"do": "phase"})
        await _move(ann, {"do": "phase"})
        await eventually(synced, 10, "both replicas at the host's head")
        assert _state(ann).phase == "minion"
        # Ann bleeds; she passes window A; Ben blocks; both pass window B: blocked, a combat.
        await _move(ann, {"do": "action", "kind": "bleed", "minion": mine})
        await pass_by(ann)
        await _move(ben, {"do": "block", "minion": theirs})
        await eventually(synced, 10, "both replicas at the host's head")
        for _ in range(6):
            action = _state(ann).open_action
            if action is None:
                break
            await pass_by(by_seat[action.impulse])
        for person in people:
            c = _state(person).open_combat
            assert c is not None and list(c.acting) == mine and list(c.opposing) == theirs
            assert _state(person).players[second].pool == 30  # blocked: nothing bled
        # Before range, range, before strikes: each passes on its impulse (Ann first).
        while _state(ann).open_combat.step != CombatStep.STRIKE:
            c = _state(ann).open_combat
            await pass_by(by_seat[c.impulse])
        assert _state(ann).open_combat.impulse == first
        # Ann's strike first: 2 damage. Ben may not choose a strike out of turn, nor for her minion.
        with pytest.raises((IllegalMove, HostRefused), match="holds the impulse"):
            await _move(ben, {"do": "strike", "minion": theirs})
        await _move(ann, {"do": "strike", "minion": mine, "damage": 2})
        await eventually(synced, 10, "both replicas at the host's head")
        # A strike of 2 with no card names damage the table does not compute: a claim on Ben's
        # minion that the window waits for (docs/vtes-by-hand.md); Ben accepts it.
        claim = next(c for c in _state(ben).claims if c.status == "pending")
        assert second in claim.seats and _state(ben).open_combat.strikes == ()
        await _move(ben, {"do": "accept", "act": claim.act})
        await eventually(synced, 10, "both replicas at the host's head")
        assert _state(ben).open_combat.impulse == second
        with pytest.raises((IllegalMove, HostRefused), match="is not yours"):
            await _move(ben, {"do": "strike", "minion": mine})
        with pytest.raises((IllegalMove, HostRefused), match="holds the impulse"):
            await _move(ann, {"do": "strike", "minion": mine})
        await _move(ben, {"do": "strike", "minion": theirs})  # the hand strike
        await eventually(synced, 10, "both replicas at the host's head")
        for person in people:
            c = _state(person).open_combat
            assert c.step == CombatStep.DAMAGE
            assert [(list(s.minion), s.damage, s.hand) for s in c.strikes] == [(mine, 2, False), (theirs, 1, True)]
        # The damage step: both pass (no prevention); the pair resolves (P6).
        while _state(ann).open_combat is not None and _state(ann).open_combat.step == CombatStep.DAMAGE:
            await pass_by(by_seat[_state(ann).open_combat.impulse])
        for person in people:
            state = _state(person)
            lucky = next(c for c in state.cards if list(c.pos) == mine)
            hurt = next(c for c in state.cards if list(c.pos) == theirs)
            assert (lucky.zone, lucky.counters) == ("ready", 2)  # 1 damage mended with 1 blood
            assert (hurt.zone, hurt.counters) == ("torpor", 0)  # 2 damage, 1 mended: wounded, torpor
        # Ben's minion is no longer ready: the combat ends after the end-of-round step.
        for _ in range(6):
            c = _state(ann).open_combat
            if c is None:
                break
            assert c.step in (CombatStep.END_OF_ROUND, CombatStep.PRESS)
            await pass_by(by_seat[c.impulse])
        names = [s.name for s in host.table.seats]
        for person in people:
            assert _state(person).open_combat is None and _state(person).combats == 1
            assert person.table is not None
            lines = [n.render(names) for n in person.table.notes]
            assert any("takes 2 damage, is wounded and goes to torpor with 0 blood" in line for line in lines)
            assert any("takes 1 damage: 2 blood left" in line for line in lines)
            assert any(line.startswith("The combat between") and "is over" in line for line in lines)
