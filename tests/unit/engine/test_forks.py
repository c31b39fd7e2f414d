"""Fork evidence files on their own (PROTOCOL.md 3 and 7): real evidence is proven by anyone with
the file alone; forged, tampered or unrelated evidence proves nothing, and says why."""

from __future__ import annotations

import json

import pytest

from engine.forks import (
    MAGIC,
    ForkCode,
    audit_fork_file,
    check_fork,
    describe_fork,
    fork_bytes,
    fork_path,
    is_fork_file,
    write_fork_file,
)
from engine.games import all_rules
from engine.games.base import parse_options
from engine.protocol.codec import decode, encode
from engine.protocol.identity import new_key
from engine.protocol.log import ForkEvidence, Head, sign_entry, sign_head
from engine.seat import now_ms
from engine.sequencer import Sequencer
from tui.cli import main


def a_fork() -> tuple[Sequencer, ForkEvidence]:
    """A table of 3 entries whose host also signed another chat as seq 2."""
    games = all_rules()
    sequencer = Sequencer(new_key(), games, None, now_ms)
    sequencer.open_table("queen", dict(parse_options(games["queen"].option_schema, {})), 3, "forked table")
    sequencer.submit(sequencer.sign("chat", {"text": "first"}))
    real, real_head = sequencer.submit(sequencer.sign("chat", {"text": "for everyone"}))
    t = sequencer.table
    alt = sign_entry(
        sequencer.key, table=t.table_id, seq=real.seq, prev=real.prev, kind="chat", body={"text": "for one"}, time_ms=1
    )
    alt_head = sign_head(sequencer.key, t.table_id, alt.seq, alt.id)
    evidence = ForkEvidence(
        sequencer.public, Head(t.table_id, real.seq, real.id, real_head), Head(t.table_id, alt.seq, alt.id, alt_head)
    )
    return sequencer, evidence


def test_real_evidence_is_proven_from_the_file_alone(tmp_path):
    sequencer, evidence = a_fork()
    path = write_fork_file(fork_path(tmp_path / "table.vtlog"), evidence, list(sequencer.table.entries))
    assert path.name == "table.vtfork" and path.stat().st_mode & 0o777 == 0o600
    assert path.read_bytes().startswith(MAGIC) and is_fork_file(path)
    verdict = audit_fork_file(path)
    assert verdict.code is ForkCode.PROVEN and verdict.proven
    assert verdict.seq == 2 and set(verdict.ids) == {evidence.first.entry_id, evidence.second.entry_id}
    assert verdict.text().startswith("FORK PROVEN: ")
    # Full ids (64 hex), never cut.
    assert evidence.first.entry_id.hex() in verdict.reason and evidence.second.entry_id.hex() in verdict.reason
    assert describe_fork(evidence) == verdict.reason


def _tampered(data: bytes, change) -> bytes:
    body = decode(data[len(MAGIC) :])
    change(body)
    return MAGIC + encode(body)


def test_a_changed_head_signature_proves_nothing():
    sequencer, evidence = a_fork()
    data = fork_bytes(evidence, list(sequencer.table.entries))

    def flip(body):
        sig = bytearray(body["heads"][1][1])
        sig[5] ^= 1
        body["heads"][1][1] = bytes(sig)

    verdict = check_fork(_tampered(data, flip))
    assert verdict.code is ForkCode.NOT_PROVEN
    assert "Head 2's signature does not verify" in verdict.reason and "forged or changed" in verdict.reason


def test_a_changed_id_or_seq_proves_nothing():
    sequencer, evidence = a_fork()
    data = fork_bytes(evidence, list(sequencer.table.entries))
    verdict = check_fork(_tampered(data, lambda b: b.update(seq=1)))
    assert verdict.code is ForkCode.NOT_PROVEN and "does not verify" in verdict.reason

    def same(body):
        body["heads"][1] = list(body["heads"][0])

    verdict = check_fork(_tampered(data, same))
    assert verdict.code is ForkCode.NOT_PROVEN and "same entry" in verdict.reason


def test_heads_signed_by_a_key_that_did_not_open_the_table_prove_nothing():
    """A forger signs two heads with its own key and names itself as the host: the entries show
    that another key opened the table."""
    sequencer, _ = a_fork()
    forger = new_key()
    t = sequencer.table
    from engine.protocol.identity import public_bytes

    heads = [[bytes([i]) * 32, sign_head(forger, t.table_id, 2, bytes([i]) * 32)] for i in (1, 2)]
    body = {
        "table": t.table_id,
        "host": public_bytes(forger),
        "seq": 2,
        "heads": heads,
        "entries": [e.wire_array() for e in t.entries],
    }
    verdict = check_fork(MAGIC + encode(body))
    assert verdict.code is ForkCode.NOT_PROVEN and "not by the key that signed the heads" in verdict.reason
    body["entries"] = []
    verdict = check_fork(MAGIC + encode(body))
    assert verdict.code is ForkCode.NOT_PROVEN and "holds no entries" in verdict.reason


def test_a_changed_entry_proves_nothing():
    sequencer, evidence = a_fork()
    data = fork_bytes(evidence, list(sequencer.table.entries))

    def change(body):
        payload = bytearray(body["entries"][1][0])
        payload[-3] ^= 1
        body["entries"][1][0] = bytes(payload)

    verdict = check_fork(_tampered(data, change))
    assert verdict.code is ForkCode.NOT_PROVEN and "Entry 1 of the file does not verify" in verdict.reason


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"VTLOG1\n", "does not start with VTFORK1"),
        (MAGIC + b"\xc1", "damaged"),
        (MAGIC + encode({"table": b"x"}), "damaged"),
    ],
)
def test_what_is_not_a_fork_evidence_file_is_unusable(data, words):
    verdict = check_fork(data, "F")
    assert verdict.code is ForkCode.UNUSABLE and words in verdict.reason


def test_vampire_audit_checks_a_vtfork_file_and_exits_with_its_verdict(tmp_path, capsys):
    sequencer, evidence = a_fork()
    path = write_fork_file(tmp_path / "t.vtfork", evidence, list(sequencer.table.entries))
    assert main(["audit", str(path)]) == 1
    assert capsys.readouterr().out.startswith("FORK PROVEN: The host (")
    assert main(["audit", "--json", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["proven"] is True and report["seq"] == 2 and report["host"] == evidence.host.hex()
    data = bytearray(path.read_bytes())
    data[len(MAGIC) + 40] ^= 0xFF  # somewhere in the map: damaged or a changed field
    (tmp_path / "bad.vtfork").write_bytes(bytes(data))
    assert main(["audit", str(tmp_path / "bad.vtfork")]) in (2, 3)
    assert not capsys.readouterr().out.startswith("FORK PROVEN")
    assert main(["audit", str(tmp_path / "missing.vtfork")]) == 3
    assert "There is no file" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "FILE.vtfork" in help_text and "exit 1: it proves the fork" in help_text
