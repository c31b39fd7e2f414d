"""The audit verifies later proofs of shuffle ahead of its fold, in worker threads, and the reader
of a log verifies its signatures ahead in a thread (docs/protocol.md 6.9): the verdicts are those
of a fold that checks everything in log order. A bad proof late in a log is named at its entry,
the earliest of two bad entries is the one named, every proof is verified once per audit, and a
signature that fails is named by the reader as before."""

from __future__ import annotations

import functools
import threading

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.audit import ProofsAhead, audit_file
from engine.protocol import derivation, group, shuffle_proof
from engine.protocol import log as logmod
from engine.protocol.log import Entry, LogFileError, SignaturesAhead, parse_log, read_log
from tests.support.protocol import GAMES, Played, audit, log_bytes, play, rechain, resign


@functools.cache
def two_rounds() -> Played:
    """A 3-seat, 2-round Vampire Queen game through the protocol: two deck events of 3 shuffles."""
    return play(3, seed=4242, rounds=2, name="audit-ahead")


@pytest.fixture(autouse=True)
def fresh_memos(monkeypatch):
    """Audit as a new process would: nothing made or verified in this one is known (the game is
    played first, its proofs made and verified in this process left behind)."""
    two_rounds()
    monkeypatch.setattr(group, "OWN_PROOFS", group.OwnProofs())
    monkeypatch.setattr(group, "VERIFY_MEMO", group.VerifyMemo())


@pytest.fixture
def verified(monkeypatch) -> list[tuple[bytes, str]]:
    """Every proof of shuffle settled, in order: (statement hash, the thread that settled it), for
    each one verified and each one known by derivation from its author's seed (a derivation that
    does not give the proof settles nothing: the proof is then verified)."""
    calls: list[tuple[bytes, str]] = []
    real = shuffle_proof._check
    real_derivation = derivation.known_by_derivation

    def counted(parsed, executor):
        calls.append((parsed.st, threading.current_thread().name))
        return real(parsed, executor)

    def derived(context, joint, inputs, outputs, proof, secrets, **kw):
        known = real_derivation(context, joint, inputs, outputs, proof, secrets, **kw)
        if known:
            st = shuffle_proof.statement_hash(context, joint, inputs, outputs)
            calls.append((st, threading.current_thread().name))
        return known

    monkeypatch.setattr(shuffle_proof, "_check", counted)
    monkeypatch.setattr(derivation, "known_by_derivation", derived)
    return calls


def _keys(played: Played) -> dict[bytes, Ed25519PrivateKey]:
    keys = {k.public_key().public_bytes_raw(): k for k in played.seat_keys}
    keys[played.host_key.public_key().public_bytes_raw()] = played.host_key
    return keys


def _shuffles(played: Played) -> list[Entry]:
    return [e for e in played.entries if e.kind == "shuffle"]


def _bad_proof(entry: Entry, played: Played) -> Entry:
    """``entry`` (a `shuffle`) re-signed by its author with a proof that fails: its challenge
    answer v replaced by another valid scalar (every cheap check still passes)."""
    body = dict(entry.body)
    proof = list(body["proof"])
    proof[2] = group.scalar_from_int(5) if proof[2] != group.scalar_from_int(5) else group.scalar_from_int(6)
    body["proof"] = proof
    return resign(entry, _keys(played)[entry.author], body=body)


def _forged(played: Played, bad: list[Entry]) -> bytes:
    """The log with the entries ``bad`` in place of those at their seq, every later entry re-signed
    on them by its own author with fresh head signatures: only the proofs can tell."""
    entries = list(played.entries)
    for e in bad:
        entries[e.seq] = e
    return log_bytes(rechain(entries, _keys(played), played.host_key, min(e.seq for e in bad)))


def _seat(played: Played, entry: Entry) -> int:
    return [k.public_key().public_bytes_raw() for k in played.seat_keys].index(entry.author)


def test_a_bad_proof_late_in_the_log_is_named_at_its_entry_though_verified_ahead(tmp_path, verified):
    played = two_rounds()
    last = _shuffles(played)[-1]
    path = tmp_path / "late.vtlog"
    path.write_bytes(_forged(played, [_bad_proof(last, played)]))
    report = audit_file(path, GAMES)
    assert report.code == 1, report.text()
    assert report.fault is not None and report.fault.seq == last.seq, report.text()
    assert report.fault.seat == _seat(played, last) and "fails its proof" in report.fault.what
    # Verified ahead of the fold, in the audit's workers, each proof once.
    assert any(name.startswith("vt-audit") for _, name in verified), verified
    assert len(verified) == len({st for st, _ in verified}) == len(_shuffles(played))


@pytest.mark.parametrize("read", ["stream", "whole"])
def test_of_two_bad_proofs_the_earliest_is_named(tmp_path, verified, read):
    played = two_rounds()
    shuffles = _shuffles(played)
    first, later = shuffles[1], shuffles[-1]
    assert played.entries[first.seq].body["event"] != played.entries[later.seq].body["event"]
    data = _forged(played, [_bad_proof(first, played), _bad_proof(later, played)])
    if read == "stream":
        path = tmp_path / "two.vtlog"
        path.write_bytes(data)
        report = audit_file(path, GAMES)
    else:
        report = audit(data)
    assert report.fault is not None and report.fault.seq == first.seq, report.text()
    assert report.fault.seat == _seat(played, first) and "fails its proof" in report.fault.what
    assert "CLEAN" not in report.text()


def test_a_clean_audit_verifies_every_proof_once_and_most_of_them_ahead(verified):
    played = two_rounds()
    report = audit_file(played.log, GAMES)
    assert report.code == 0, report.text()
    statements = [st for st, _ in verified]
    assert len(statements) == len(set(statements)) == len(_shuffles(played))
    ahead = [name for _, name in verified if name.startswith("vt-audit")]
    # Every shuffle but the first of each event (whose input the fold makes known at its last key)
    # is known from the entries read before it.
    events = {e.body["event"] for e in _shuffles(played)}
    assert len(ahead) >= len(statements) - len(events), verified


def test_a_statement_guessed_from_a_refused_entry_is_never_the_answer_for_another(tmp_path, verified):
    """A shuffle whose outputs are changed (and re-signed) makes the next shuffle's guessed input
    those changed cards: that guess is verified for nothing, and the fold still names the changed
    shuffle, at its entry."""
    played = two_rounds()
    shuffles = _shuffles(played)
    target = shuffles[0]
    body = dict(target.body)
    cards = [list(c) for c in body["cards"]]
    cards[0], cards[1] = cards[1], cards[0]
    body["cards"] = cards
    changed = resign(target, _keys(played)[target.author], body=body)
    path = tmp_path / "changed.vtlog"
    path.write_bytes(_forged(played, [changed]))
    report = audit_file(path, GAMES)
    assert report.fault is not None and report.fault.seq == target.seq, report.text()
    assert "fails its proof" in report.fault.what


def test_proofs_ahead_stops_starting_work_once_closed():
    played = two_rounds()
    from engine.table import Checks, Keep, Table

    table = Table(GAMES, Checks.PEER, Keep.LAST)
    ahead = ProofsAhead(table)
    ahead.close()
    for e in played.entries:
        ahead.read(e)
    assert ahead.verified == 0


def test_signatures_verified_ahead_leave_a_bad_signature_to_the_reader(tmp_path):
    played = two_rounds()
    data = bytearray(played.data)
    frames = logmod.parse_log(bytes(data)).entries
    late = frames[-3]
    at = bytes(data).index(late.signature)
    data[at + 5] ^= 0x01
    path = tmp_path / "bad-signature.vtlog"
    path.write_bytes(bytes(data))
    with SignaturesAhead(path), pytest.raises(LogFileError) as err:
        read_log(path)
    assert f"frame {late.seq}" in str(err.value)
    report = audit_file(path, GAMES)
    assert report.fault is not None and report.fault.seq == late.seq and report.fault.kind == "file"


def test_signatures_ahead_of_a_clean_log_are_found_by_the_reader(tmp_path, monkeypatch):
    played = two_rounds()
    with SignaturesAhead(played.log) as signatures:
        signatures.wait()  # every frame's signatures are in the memos
    assert signatures.verified == len(played.entries)
    monkeypatch.setattr(
        "engine.protocol.entry.Ed25519PublicKey.from_public_bytes",
        lambda key: pytest.fail("a signature verified ahead was verified again"),
    )
    assert parse_log(played.data).entries[-1].id == played.entries[-1].id
