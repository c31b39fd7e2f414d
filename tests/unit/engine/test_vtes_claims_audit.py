"""`vampire audit` names, at its entry, a change by hand that took effect without its answer or its
time, and a source the author did not control (docs/vtes-by-hand.md, "The audit"): the live table
refuses such entries, so here they are signed by the seat's own key and spliced onto a real log, as
a colluding host would write it."""

from __future__ import annotations

from engine.games.vtes.claims import CLAIM_WAIT_MS
from engine.local import LocalGame
from tests.support.protocol import audit
from tests.unit.engine.test_vtes_action_audit import assert_cheat_named, forged, two_seat_game

__all__ = ["two_seat_game"]  # the fixture, shared with the audit tests of windows


def _claim(g: LocalGame, data: bytes, acting: int) -> tuple[bytes, int, int]:
    """The acting seat burns 30 pool of the other: a claim (act number returned, and the other seat)."""
    other = 1 - acting
    data, _seq = forged(g, data, acting, {"do": "pool", "seat": other, "delta": -30, "cause": "Govern"})
    number = g.host.table.gstate.acts + 1  # the log ends at this moment: its acts, plus this one
    return data, number, other


def test_a_claim_spliced_in_audits_clean_and_waits(two_seat_game) -> None:
    g, _unlock, moment = two_seat_game
    data, _number, _other = _claim(g, moment.data, moment.acting)
    report = audit(data)
    assert report.fault is None and report.code == 2, report.text()


def test_the_authors_own_lapse_is_named(two_seat_game) -> None:
    g, _unlock, moment = two_seat_game
    data, number, _other = _claim(g, moment.data, moment.acting)
    data, seq = forged(g, data, moment.acting, {"do": "lapse", "act": number}, later_ms=2 * CLAIM_WAIT_MS)
    assert_cheat_named(data, g, moment.acting, seq, "a Methuselah other than")


def test_a_lapse_dated_before_its_time_is_named(two_seat_game) -> None:
    g, _unlock, moment = two_seat_game
    data, number, other = _claim(g, moment.data, moment.acting)
    data, seq = forged(g, data, other, {"do": "lapse", "act": number}, later_ms=CLAIM_WAIT_MS // 2)
    assert_cheat_named(data, g, other, seq, "more for an answer before its time runs out")


def test_an_acceptance_by_the_author_is_named(two_seat_game) -> None:
    g, _unlock, moment = two_seat_game
    data, number, _other = _claim(g, moment.data, moment.acting)
    data, seq = forged(g, data, moment.acting, {"do": "accept", "act": number})
    assert_cheat_named(data, g, moment.acting, seq, "only the Methuselah whose things")


def test_a_cause_by_a_card_another_controls_is_named(two_seat_game) -> None:
    g, _unlock, moment = two_seat_game
    other = 1 - moment.acting
    theirs = next(c.pos for c in g.host.table.gstate.cards if c.owner == other and c.card)
    act = {"do": "pool", "delta": 1, "cause": "gain", "by": list(theirs)}
    data, seq = forged(g, moment.data, moment.acting, act)
    assert_cheat_named(data, g, moment.acting, seq, "must be a card you control")
