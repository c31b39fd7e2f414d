"""An act out of its window, signed into a VTES log, is a proven cheat named at its entry by
`vampire audit` (shared/rules/vtes-actions.md P1, P2; PROTOCOL.md 8): the live table refuses such
an act, so here the seat's signed entry is spliced onto a real log, as a seat that wrote its own
log file could, and the audit names that seat at that entry."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.audit import FaultKind
from engine.local import LocalGame, new_local_game
from engine.protocol.log import encode_frame, parse_log, sign_entry, sign_head
from tests.support.protocol import audit, scratch_dir


@dataclass(frozen=True)
class Moment:
    """The log's bytes at one moment of a game, and who may do what then."""

    data: bytes
    acting: int
    impulse: int | None


@pytest.fixture(scope="module")
def two_seat_game() -> tuple[LocalGame, Moment, Moment]:
    """A two-seat bot game through the signed log, kept at two moments: the first turn's unlock
    phase, and the first action whose impulse has passed from the actor to the other seat."""
    d = scratch_dir("vtes-actions")
    g = new_local_game("vtes", ["heuristic"] * 2, save=d / "game.vtlog", secrets_dir=d, seed=2)
    log = d / "game.vtlog"
    unlock: Moment | None = None
    for _ in range(5000):
        s = g.host.table.gstate
        if unlock is None and s is not None and s.step == "play" and not s.queue:
            assert s.phase == "unlock"
            unlock = Moment(log.read_bytes(), s.acting, None)
        a = s.open_action if s is not None else None
        if a is not None and a.impulse != a.actor:
            assert unlock is not None
            return g, unlock, Moment(log.read_bytes(), s.acting, a.impulse)
        assert g.step(), "the game ended before an action"
    raise AssertionError("no action in 5000 steps")


def forged(g: LocalGame, data: bytes, seat: int, act: dict, later_ms: int = 1) -> tuple[bytes, int]:
    """``data`` with one more `move` entry: ``act``, signed by ``seat``'s own key on the chain,
    dated ``later_ms`` after the last entry, head-signed as the host would; returns the new bytes
    and the entry's seq."""
    entries = parse_log(data).entries
    last = entries[-1]
    table_id = g.host.table.table_id
    entry = sign_entry(
        g.seats[seat].key,
        table=table_id,
        seq=len(entries),
        prev=last.id,
        kind="move",
        body={"act": act, "open": []},
        time_ms=last.time + later_ms,
    )
    return data + encode_frame(entry, sign_head(g.host.key, table_id, entry.seq, entry.id)), entry.seq


def assert_cheat_named(data: bytes, g: LocalGame, seat: int, seq: int, words: str) -> None:
    report = audit(data)
    assert report.code == 1, report.text()
    fault = report.fault
    assert fault.kind == FaultKind.CHEAT and fault.seat == seat and fault.seq == seq, report.text()
    assert fault.name == g.seats[seat].name
    assert fault.headline() == f"a proven cheat by seat {seat} ({g.seats[seat].name})"
    assert words in fault.what, fault.what


def test_the_logs_before_the_forged_entries_audit_clean(two_seat_game):
    _g, unlock, action = two_seat_game
    for moment in (unlock, action):
        report = audit(moment.data)
        assert report.fault is None and report.code == 2, report.text()  # unfinished, no fault


def test_a_pass_signed_while_another_seat_holds_the_impulse_is_a_cheat_named_at_its_entry(two_seat_game):
    g, _unlock, action = two_seat_game
    cheater = action.acting  # the impulse has left the actor: its pass is out of turn
    assert action.impulse is not None and cheater != action.impulse
    data, seq = forged(g, action.data, cheater, {"do": "pass"})
    assert_cheat_named(data, g, cheater, seq, "holds the impulse")


def test_a_bleed_announced_outside_the_minion_phase_is_a_cheat_named_at_its_entry(two_seat_game):
    g, unlock, _action = two_seat_game
    vampire = [0, 0]  # no minion is needed to see the phase is wrong
    data, seq = forged(g, unlock.data, unlock.acting, {"do": "action", "kind": "bleed", "minion": vampire})
    assert_cheat_named(data, g, unlock.acting, seq, "actions are announced in your minion phase")
