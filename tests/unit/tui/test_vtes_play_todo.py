"""What the screen tells a player to do by hand after a card is played (present.play_todo): read
from the card's record, so a card the table applies whole asks nothing (a tester read "resolve its
text by hand" after Deflection and Eyes of Argus, which the table had applied), a card it applies
in part asks for the rest, a card it leaves by hand asks for all of it, and a printed cost the act
did not pay is named."""

from __future__ import annotations

from engine.games.vtes.card_record import Coverage, every_record
from engine.games.vtes.view import CardView
from tests.support.vtes_sim import held_card
from tui.games.vtes.present import play_todo


def _held(rec) -> CardView:
    return held_card(rec.info.name)


def _first(coverage: Coverage, cost: bool):
    return next(
        r
        for r in every_record()
        if r.coverage == coverage and bool(r.costs.pool or r.costs.blood) == cost and "Reaction" in r.types
    )


def test_a_card_applied_whole_asks_nothing_and_the_others_say_what_is_left() -> None:
    fully = _held(_first(Coverage.FULLY, cost=False))
    assert play_todo(fully, {"do": "play"}, None) == ""
    partly = _held(_first(Coverage.PARTLY, cost=False))
    assert play_todo(partly, {"do": "play"}, None).endswith("apply the rest of its text by hand (e reads it).")
    by_hand = _held(_first(Coverage.BY_HAND, cost=False))
    assert play_todo(by_hand, {"do": "play"}, None).endswith("resolve its text by hand (e reads it).")


def test_a_printed_cost_the_act_did_not_pay_is_named() -> None:
    rec = next(r for r in every_record() if r.costs.pool and not r.costs.blood and r.coverage == Coverage.FULLY)
    card = _held(rec)
    assert (
        play_todo(card, {"do": "play"}, None)
        == f"{rec.info.name.split(' (')[0]} is played: pay its cost (pool -{rec.costs.pool})."
    )
    assert play_todo(card, {"do": "play", "pool": rec.costs.pool}, None) == ""
