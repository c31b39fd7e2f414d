"""The audit's verdicts (DESIGN.md, "The command line"; PROTOCOL.md 6, 8): a fault of the file (bytes
that are not what was signed, bytes after the end) blames no player; a validly signed entry that
breaks a rule or a proof is a proven cheat naming its author, and nothing else is said after it; a
file that cannot be audited at all is a usage error, not a fault."""

from __future__ import annotations

import json

import pytest

from engine.audit import USAGE_EXIT, AuditUsageError, FaultKind, audit_bytes, audit_file
from engine.protocol import group
from engine.protocol.log import encode_frame, sign_entry, sign_head
from tests.support.protocol import GAMES, Cheat, audit, frames_of, log_bytes, play, saved_game, scratch_dir


def seat_of(data: bytes, author: bytes) -> int:
    return [f.entry.author for f in frames_of(data) if f.entry.kind == "join"].index(author)


# --- faults of the file ---------------------------------------------------------------------------


def test_a_changed_signature_byte_is_a_fault_of_the_file_naming_no_player():
    played = saved_game()
    data = played.data
    move = next(f for f in frames_of(data) if f.entry.kind == "move")
    tampered = bytearray(data)
    tampered[move.end - 70] ^= 0x01  # inside the entry's own signature
    report = audit(bytes(tampered))
    fault = report.fault
    assert report.code == 1 and fault is not None
    assert fault.kind == FaultKind.FILE and fault.seq == move.entry.seq
    assert fault.seat is None and fault.name is None
    text = report.text()
    assert text.startswith("FAULT in tampered.vtlog: the file was changed after it was signed, or damaged")
    assert f"entry {move.entry.seq} of the file" in text and "does not verify" in text
    assert "not of a player" in text and "by seat" not in text and "cheat" not in text
    assert report.as_json()["fault"]["kind"] == "file"


def test_bytes_after_the_end_entry_are_a_fault_of_the_file_not_a_clean_log():
    data = saved_game().data
    end = frames_of(data)[-1].entry
    assert end.kind == "end" and audit(data).code == 0
    for tail in (b"junk", b"\x00" * 16, b"\x00\x00\x00\x09123"):
        report = audit(data + tail)
        fault = report.fault
        assert report.code == 1 and fault is not None, report.text()
        assert fault.kind == FaultKind.FILE and fault.seq == end.seq and fault.seat is None
        assert f"{len(tail)} bytes follow the end entry" in fault.what
        assert report.finished and report.entries == end.seq + 1  # every signed entry still checked
        assert not report.torn


# --- proven cheats --------------------------------------------------------------------------------


def test_after_a_proven_cheat_the_audit_names_the_cheater_and_says_nothing_of_unrevealed_seeds():
    state = {"done": False}

    def wrong_share(g, seat, kind, body):
        if state["done"] or kind != "share":
            return None
        state["done"] = True
        body = dict(body)
        body["shares"] = [group.mult(group.scalar_from_int(2), body["shares"][0]), *body["shares"][1:]]
        return body

    cheat = Cheat(wrong_share)
    played = play(3, seed=1, tamper=cheat, name="verdict-cheat")
    seat, _, seq = cheat.fired[0]
    report = audit_file(played.log, GAMES)
    fault = report.fault
    assert report.code == 1 and fault is not None
    assert fault.kind == FaultKind.CHEAT and fault.seq == seq and fault.seat == seat
    assert report.unchecked, "the cheat stopped the table before its seeds were revealed"
    text = report.text()
    name = played.names[seat]
    assert text.startswith(f"FAULT in {played.log}: a proven cheat by seat {seat} ({name})")
    assert f"entry {seq}, signed by seat {seat} ({name}): a proven cheat" in text
    assert "UNCHECKED" not in text and "never had their seeds revealed" not in text
    assert "not of a player" not in text
    assert json.loads(json.dumps(report.as_json()))["fault"]["kind"] == "cheat"


def test_a_validly_signed_entry_the_rules_refuse_is_a_cheat_by_its_signer():
    game = saved_game()
    frames = frames_of(game.data)
    move = next(f.entry for f in frames if f.entry.kind == "move")
    author = seat_of(game.data, move.author)
    other = (author + 1) % len(game.seat_keys)  # another seated player, out of turn
    forged = sign_entry(
        game.seat_keys[other],
        table=move.table,
        seq=move.seq,
        prev=move.prev,
        kind=move.kind,
        body=move.body,
        time_ms=move.time,
    )
    genesis = frames[0].entry.id
    before = [encode_frame(f.entry, sign_head(game.host_key, genesis, f.entry.seq, f.entry.id)) for f in frames]
    data = log_bytes(
        before[: move.seq] + [encode_frame(forged, sign_head(game.host_key, genesis, move.seq, forged.id))]
    )
    report = audit(data)
    fault = report.fault
    assert report.code == 1 and fault is not None
    assert fault.kind == FaultKind.CHEAT and fault.seat == other and fault.name == game.names[other]
    assert "its signature verifies, but the table refuses" in fault.what
    assert report.text().startswith(f"FAULT in tampered.vtlog: a proven cheat by seat {other} ({game.names[other]})")


# --- usage errors ---------------------------------------------------------------------------------


def test_a_missing_file_is_a_usage_error_not_a_fault():
    path = scratch_dir("verdicts") / "missing.vtlog"
    with pytest.raises(AuditUsageError) as caught:
        audit_file(path, GAMES)
    err = caught.value
    assert str(err) == f"Cannot audit {path}: it cannot be read (No such file or directory)."
    report = err.as_json()
    assert report["exit"] == USAGE_EXIT == 3 and report["status"] == "unusable" and report["error"] == str(err)
    assert report["fault"] is None and report["file"] == str(path)


def test_a_directory_is_a_usage_error():
    with pytest.raises(AuditUsageError, match="cannot be read"):
        audit_file(scratch_dir("verdicts"), GAMES)


@pytest.mark.parametrize("data", [b"", b"not a log at all", b"VTLOG2\n"])
def test_a_file_that_is_not_a_log_is_a_usage_error(data):
    with pytest.raises(AuditUsageError, match="not a vampire-table log file"):
        audit_bytes(data, "x.vtlog", GAMES)


def test_a_log_of_a_game_this_program_does_not_know_is_a_usage_error():
    data = saved_game().data
    others = {name: rules for name, rules in GAMES.items() if name != "queen"}
    with pytest.raises(AuditUsageError) as caught:
        audit_bytes(data, "queen.vtlog", others)
    assert "a log of the game 'queen', which this program does not know" in str(caught.value)
