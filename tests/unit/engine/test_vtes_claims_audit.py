"""`vampire audit` names, at its entry, a change by hand that took effect without its answer or its
time, and a source the author did not control (docs/vtes-by-hand.md, "The audit"): the live table
refuses such entries, so here they are signed by the seat's own key and spliced onto a real log, as
a colluding host would write it."""

from __future__ import annotations

import time

import pytest

from engine.games import all_rules
from engine.games.vtes.claims import CLAIM_WAIT_MS
from engine.games.vtes.vocab import ClaimStatus, Status
from engine.local import LocalGame
from engine.protocol.log import parse_log
from engine.table import Table, TableRefusal
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


@pytest.mark.parametrize(
    ("cause", "words"),
    [("Govern the Unaligned", "no Govern the Unaligned of yours"), ("Inner Circle", "Inner Circle is not yours")],
)
def test_a_cause_naming_a_card_or_title_the_author_has_not_is_named(two_seat_game, cause: str, words: str) -> None:
    g, _unlock, moment = two_seat_game
    act = {"do": "pool", "seat": 1 - moment.acting, "delta": -1, "cause": cause}
    data, seq = forged(g, moment.data, moment.acting, act)
    assert_cheat_named(data, g, moment.acting, seq, words)


def _fold(data: bytes, wall_s: float, monkeypatch: pytest.MonkeyPatch) -> Table:
    """``data`` folded entry by entry while this computer's clock reads ``wall_s`` (seconds since
    the epoch): whatever it reads, the fold must not look at it."""
    with monkeypatch.context() as m:
        m.setattr(time, "time", lambda: wall_s)
        m.setattr(time, "time_ns", lambda: int(wall_s * 1e9))
        table = Table(all_rules())
        for entry in parse_log(data).entries:
            table.apply(entry)
    return table


def test_a_claims_time_is_read_from_the_log_and_a_replay_at_any_moment_folds_the_same(
    two_seat_game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wait is judged against the entries' signed times, never this computer's clock: a
    `lapse` dated at its claim's due time takes effect, one dated a moment before is refused,
    and the same log folds to the same state replayed in 1970 or in 2300."""
    g, _unlock, moment = two_seat_game
    data, number, other = _claim(g, moment.data, moment.acting)
    lapsed, _seq = forged(g, data, other, {"do": "lapse", "act": number}, later_ms=CLAIM_WAIT_MS)
    early, _seq = forged(g, data, other, {"do": "lapse", "act": number}, later_ms=CLAIM_WAIT_MS - 1)
    digests = set()
    for wall_s in (0.0, 10_000_000_000.0):
        table = _fold(lapsed, wall_s, monkeypatch)
        claim = next(c for c in table.gstate.claims if c.act == number)
        assert claim.status == ClaimStatus.TAKEN and table.gstate.players[other].status == Status.OUSTED
        digests.add(table.digest())
        with pytest.raises(TableRefusal, match="more for an answer before its time runs out"):
            _fold(early, wall_s, monkeypatch)
    assert len(digests) == 1


def test_an_action_ended_by_a_methuselah_without_the_impulse_is_named(two_seat_game) -> None:
    """A card ends the open action only on its Methuselah's impulse (vtes-actions.md P1, P4): the
    acting Methuselah ending its own action while the other holds the impulse is named."""
    g, _unlock, moment = two_seat_game
    a = g.host.table.gstate.open_action
    assert a is not None and a.impulse != moment.acting
    data, seq = forged(g, moment.data, moment.acting, {"do": "action_end", "by": list(a.minion)})
    assert_cheat_named(data, g, moment.acting, seq, "you may end the action when it reaches you")
