"""Random play keeps a VTES table consistent (shared/rules/vtes-actions.md P1–P4, vtes.md "Precise
readings"): sequences drawn from the acts the table offers the seat it waits for, mixed with
changes made by hand (blood, pool) with a cause, from a few starting positions. Every act offered
is accepted; pool and counters never go negative; there is at most one open action and its
bookkeeping holds; every window closes after a bounded number of passes; and the same acts folded
again from the start give the same table."""

from __future__ import annotations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from engine.games.base import Act, IllegalMove, MalformedAct
from engine.games.vtes import VTES, bundled_decks
from engine.games.vtes.actions import blockers
from engine.games.vtes.simulate import vtes_table
from engine.games.vtes.state import VtesState
from engine.games.vtes.vocab import Phase, Status, Step, Window, Zone
from engine.sim import SimTable
from tests.support.vtes_sim import act, copy_table, minion_phase_table

_TURN = ("phase", "end_turn")


@pytest.fixture(scope="module")
def starts() -> list[SimTable]:
    """Three starting positions: four and three seats in the first player's minion phase with a
    ready vampire each (hands of modifiers, reactions and an ally), and five bundled decks at
    the deal."""
    decks = bundled_decks()
    return [
        minion_phase_table(4, seed=1),
        minion_phase_table(3, seed=2, blood=(1, 3, 0)),
        vtes_table(decks[:5], {}, seed=3),
    ]


def check_consistent(state: VtesState) -> None:
    assert all(p.pool >= 0 for p in state.players)
    assert all(c.counters >= 0 for c in state.cards)
    aside = [c.pos for c in state.cards if c.zone == Zone.ASIDE]
    a = state.open_action
    if a is None:
        assert aside == []
        return
    # The one open action: the acting Methuselah's, in its minion phase, the impulse with a
    # Methuselah in the game, declines only by entitled blockers, a blocker only in window B.
    assert state.step == Step.PLAY and a.actor == state.acting and state.phase == Phase.MINION
    assert state.players[a.impulse].status == Status.IN
    assert set(a.declined) <= set(blockers(a, state.in_game()))
    assert bool(a.blocker) == (a.window == Window.ATTEMPT)
    assert aside == ([a.card] if a.card and a.card in aside else [])
    assert len(aside) <= 1


def by_hand(t: SimTable, data: st.DataObject) -> tuple[int, Act]:
    """A change by hand: a seat in the game adds or removes 1 blood on a vampire in play, or 1
    pool of a Methuselah in the game, naming a cause."""
    game = t.state.in_game()
    seat = data.draw(st.sampled_from(game))
    delta = data.draw(st.sampled_from((-1, 1)))
    vampires = [list(c.pos) for c in t.state.cards if c.crypt and c.zone in (Zone.READY, Zone.TORPOR)]
    if vampires and data.draw(st.booleans()):
        return seat, {"do": "blood", "card": data.draw(st.sampled_from(vampires)), "delta": delta, "cause": "a card"}
    return seat, {"do": "pool", "seat": data.draw(st.sampled_from(game)), "delta": delta, "cause": "a card"}


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_random_legal_play_keeps_the_table_consistent_and_is_deterministic(starts, data):
    start = data.draw(st.sampled_from(starts), label="start")
    t = copy_table(start)
    log: list[tuple[int, Act]] = []
    for _ in range(data.draw(st.integers(5, 40), label="acts")):
        if t.state.step != Step.PLAY:
            break
        (seat,) = t.pending().awaited
        if data.draw(st.integers(0, 4)) == 0:
            seat, chosen = by_hand(t, data)
            before = t.state
            try:
                act(t, seat, chosen["do"], **{k: v for k, v in chosen.items() if k != "do"})
            except IllegalMove:
                assert t.state is before  # refused: nothing changed
                continue
        else:
            legal = VTES.legal_acts(t.view(seat))
            assert legal, f"the table waits for seat {seat}, who may do nothing"
            # Turn acts are drawn less often, so that actions and their windows happen.
            weighted = legal + [a for a in legal if a["do"] not in _TURN] * 3
            chosen = data.draw(st.sampled_from(weighted))
            try:
                t.play(seat, chosen)
            except (IllegalMove, MalformedAct) as err:
                raise AssertionError(f"seat {seat} was offered {chosen}, and it is refused: {err}") from None
            t.run_ops()
        log.append((seat, chosen))
        check_consistent(t.state)
    # Every window closes: with everyone passing (and the hand strike when a strike is due, a claim
    # accepted when one holds the window), an
    # open action ends within three rounds of passes (A → C → resolved, or B → A → C → resolved),
    # and the combat a block opens within a few rounds' steps.
    for _ in range(200):
        if t.state.step != Step.PLAY or (t.state.open_action is None and t.state.open_combat is None):
            break
        (seat,) = t.pending().awaited
        legal = VTES.legal_acts(t.view(seat))
        # (a claim by hand that holds the window is accepted: the touched seat answers it first)
        chosen = next(a for do in ("pass", "accept", "strike") for a in legal if a["do"] == do)
        t.play(seat, chosen)
        t.run_ops()
        log.append((seat, chosen))
        check_consistent(t.state)
    assert t.state.open_action is None and t.state.open_combat is None, "a window never closes"
    event(f"actions announced: {min(t.state.actions_taken - start.state.actions_taken, 2)}+")
    event(f"blocks: {min(t.state.blocks - start.state.blocks, 1)}+")
    # The same acts, folded again from the start, give the same table.
    again = copy_table(start)
    for seat, chosen in log:
        again.play(seat, chosen)
        again.run_ops()
    assert again.state == t.state
    assert again.known == t.known
