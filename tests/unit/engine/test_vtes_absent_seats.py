"""A seat out of the game answers no window (shared/rules/vtes-actions.md 4.2, 5.1, 5.8, 7.3):
removed by abandon votes, ousted or gone while it holds an impulse, is the acting Methuselah, is
a combatant's controller or the caller of a referendum, the table never waits on it. It passes its
impulse, declines to block, strikes nothing and casts no vote; an action whose acting Methuselah
is gone ends unresolved; a combat whose side is gone ends; a referendum whose caller is gone
fails. Each is said in the narration."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from engine.games.base import IllegalMove, Note
from engine.games.vtes import VTES
from engine.games.vtes.state import VtesState
from engine.games.vtes.vocab import Status, Step
from engine.sim import SimTable
from tests.support.vtes_fight import Fight, bleed_blocked, called, card, combat_loop, fight_table, titled_table
from tests.support.vtes_sim import act, copy_table, minion_phase_table

_TURN = ("phase", "end_turn")


def abandon(t: SimTable, seat: int) -> list[str]:
    """``seat`` is recorded as having abandoned (PROTOCOL.md 6.5), and the table runs the
    operations that asks (the shuffles without it); returns the narration's texts."""
    t.state, notes = VTES.abandon(t.state, seat)
    t.run_ops()
    return [n.text for n in notes]


def waits_only_on_seats_in_the_game(state: VtesState, awaited: tuple[int, ...] | None) -> None:
    if state.step != Step.PLAY:
        return
    for seat in awaited or ():
        assert state.players[seat].status == Status.IN, f"the table waits on {seat}, who is out of the game"


@pytest.fixture(scope="module")
def fight() -> Fight:
    return fight_table(seed=1, blood=(4, 1, 1, 1))


@pytest.fixture(scope="module")
def titled() -> Fight:
    return titled_table()


def fresh(f: Fight) -> Fight:
    return dataclasses.replace(f, t=copy_table(f.t))


def test_a_blocker_gone_while_it_holds_the_impulse_declines_to_block(fight):
    f = fresh(fight)
    t = f.t
    act(t, f.ana, "action", kind="bleed", minion=f.lucia)
    act(t, f.ana, "pass")
    assert t.state.open_action.impulse == f.ben
    texts = abandon(t, f.ben)
    assert f"{{s{f.ben}}} has left the game and declines to block" in texts
    a = t.state.open_action
    assert a is not None and a.impulse != f.ben
    waits_only_on_seats_in_the_game(t.state, t.pending().awaited)


def test_an_action_whose_acting_methuselah_is_gone_ends_unresolved_and_the_turn_passes(fight):
    f = fresh(fight)
    t = f.t
    act(t, f.ana, "action", kind="bleed", minion=f.lucia)
    act(t, f.ana, "pass")
    act(t, f.ben, "pass")
    texts = abandon(t, f.ana)
    assert f"{{s{f.ana}}} has left the game: their action ends unresolved, with no effect" in texts
    assert t.state.open_action is None and t.state.acting == f.ben
    waits_only_on_seats_in_the_game(t.state, t.pending().awaited)


def test_a_combat_whose_side_is_gone_ends(fight):
    f = fresh(fight)
    t = f.t
    bleed_blocked(f)
    for _ in range(3):
        combat_loop(t, (f.ana, f.ben, f.cy, f.dee))
    act(t, f.ana, "strike", minion=f.lucia)
    assert t.state.open_combat.step == "strike" and t.state.open_combat.impulse == f.ben
    abandon(t, f.ben)
    c = t.state.open_combat
    assert c is None or c.over
    waits_only_on_seats_in_the_game(t.state, t.pending().awaited)
    for _ in range(8):  # the end of the round: everyone still there passes
        if t.state.open_combat is None:
            break
        (seat,) = t.pending().awaited
        act(t, seat, "pass")
    assert t.state.open_combat is None and t.state.open_action is None
    assert card(t, f.marek).zone == "removed"


def test_a_referendum_whose_caller_is_gone_fails(titled):
    f = fresh(titled)
    called(f)
    act(f.t, f.ana, "terms", text="Each Methuselah gains 1 pool")
    act(f.t, f.ana, "pass")
    texts = abandon(f.t, f.ana)
    assert f"{{s{f.ana}}} called the referendum and has left the game: the referendum fails" in texts
    assert f.t.state.open_referendum is None
    waits_only_on_seats_in_the_game(f.t.state, f.t.pending().awaited)


def test_a_seat_gone_while_polling_casts_no_vote_and_polling_closes_without_it(titled):
    f = fresh(titled)
    called(f)
    act(f.t, f.ana, "terms", text="Each Methuselah gains 1 pool")
    for seat in (f.ana, f.ben, f.dee, f.cy):
        act(f.t, seat, "pass")
    for seat in (f.ana, f.ben, f.dee):
        act(f.t, seat, "done")
    assert f.t.pending().awaited == (f.cy,)
    texts = abandon(f.t, f.cy)
    assert f.t.state.open_referendum is None
    assert any("The referendum" in text for text in texts)


@pytest.fixture(scope="module")
def starts() -> list[SimTable]:
    return [minion_phase_table(4, seed=1), minion_phase_table(5, seed=4, blood=(2, 1, 1, 1, 1))]


def _random_act(t: SimTable, data: st.DataObject) -> None:
    seat = t.pending().awaited[0]
    legal = VTES.legal_acts(t.view(seat))
    assert legal, f"the table waits for seat {seat}, who may do nothing"
    weighted = legal + [a for a in legal if a["do"] not in _TURN] * 3
    t.play(seat, data.draw(st.sampled_from(weighted)))
    t.run_ops()


def _remove(t: SimTable, data: st.DataObject) -> list[str]:
    """A seat in the game leaves: by abandon votes, or ousted by a loss of all its pool."""
    seat = data.draw(st.sampled_from(t.state.in_game()), label="gone")
    how = data.draw(st.sampled_from(("abandoned", "ousted")), label="how")
    event(how)
    if how == "abandoned":
        return abandon(t, seat)
    actor = t.state.acting
    notes: tuple[Note, ...] = act(t, actor, "pool", seat=seat, delta=-t.state.players[seat].pool, cause="a card")
    return [n.text for n in notes]


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_removing_any_seat_at_any_moment_never_leaves_a_window_waiting_on_it(starts, data):
    t = copy_table(data.draw(st.sampled_from(starts), label="start"))
    before = data.draw(st.integers(0, 30), label="acts before")
    for _ in range(before):
        if t.state.step != Step.PLAY:
            return
        _random_act(t, data)
    if t.state.step != Step.PLAY:
        return
    held = t.state.innermost
    event(f"window: {type(held).__name__ if held is not None else 'none'}")
    try:
        _remove(t, data)
    except IllegalMove:
        return  # an oust by hand the rules refuse now
    waits_only_on_seats_in_the_game(t.state, t.pending().awaited)
    # Everyone still there passes (a strike when one is due): every window closes.
    for _ in range(200):
        if t.state.step != Step.PLAY or t.state.innermost is None:
            break
        seat = t.pending().awaited[0]
        assert t.state.players[seat].status == Status.IN
        legal = VTES.legal_acts(t.view(seat))
        chosen = next((a for a in legal if a["do"] == "pass"), None) or next(
            (a for a in legal if a["do"] in ("strike", "done")), legal[0]
        )
        t.play(seat, chosen)
        t.run_ops()
        waits_only_on_seats_in_the_game(t.state, t.pending().awaited)
    assert t.state.step != Step.PLAY or t.state.innermost is None, "a window never closes"
