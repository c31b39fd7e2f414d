"""The seed reveal recomputes keys and shuffled cards; ``vampire audit --strict`` also re-derives proofs
and shares (PROTOCOL.md 6.2, 6.3 item 7).

A seat may make a valid proof with a nonce that is not derived from its seed: every proof verifies,
the game goes on, the seed reveal (which recomputes keys and cards only) finds nothing and the plain
audit passes the log, saying that proofs and shares were not re-derived. The strict audit re-derives
each from the seed and names that seat at the entry. A seat whose shuffled cards were not made from
its seed is caught by the seed reveal itself: every fold and the plain audit name it at its shuffle.
"""

from __future__ import annotations

import dataclasses
import hashlib

import pytest

from engine.audit import AuditReport, audit_file
from engine.protocol import elgamal, group, shuffle_proof
from engine.protocol.elgamal import ElGamalSecrets
from engine.protocol.group import G
from tests.support.protocol import GAMES, Cheat, Played, audit_path, play
from tui.cli import main

SEATS = 3
OTHER = hashlib.sha256(b"a nonce key, or a seed, not derived from the seat's seed of the event").digest()


def _secrets(g, seat: int, event: int) -> ElGamalSecrets:
    return g.seats[seat]._secrets_for(g.host.table.events[event])


def _shuffle_nonce(g, seat: int, body: dict) -> dict:
    """The seat's own cards, with a valid proof whose nonces come from another key."""
    ev = g.host.table.events[body["event"]]
    s = _secrets(g, seat, ev.number)
    context = shuffle_proof.shuffle_context(g.host.table.table_id, ev.number, seat)
    outputs = [tuple(c) for c in body["cards"]]
    body["proof"] = shuffle_proof.prove(context, ev.joint, ev.cur, outputs, s.perm, s.rho, OTHER)
    return body


def _share_nonce(g, seat: int, body: dict) -> dict:
    """The seat's own share of its first position, with a valid DLEQ proof of another nonce."""
    ev = g.host.table.events[body["event"]]
    s = _secrets(g, seat, ev.number)
    k, D = body["positions"][0], body["shares"][0]
    c1 = ev.cur[k][0]
    context = elgamal.share_context(g.host.table.table_id, ev.number, seat, k)
    body["proofs"] = [group.dleq_prove(s.x, G, s.X, c1, D, OTHER, context), *body["proofs"][1:]]
    return body


def _key_nonce(g, seat: int, body: dict) -> dict:
    """The seat's own key share, with a valid proof of knowledge of another nonce."""
    s = _secrets(g, seat, body["event"])
    body["pok"] = elgamal.key_proof(dataclasses.replace(s, nonce_key=OTHER))
    return body


def _shuffle_seed(g, seat: int, body: dict) -> dict:
    """A valid shuffle and proof made from another seed than the one the seat committed to."""
    ev = g.host.table.events[body["event"]]
    other = ElGamalSecrets.derive(OTHER, g.host.table.table_id, ev.number, seat, ev.n)
    outputs, proof = shuffle_proof.shuffle_and_prove(other, ev.joint, ev.cur)
    body["cards"], body["proof"] = [list(c) for c in outputs], proof
    return body


def audit_path_strict(played: Played) -> AuditReport:
    return audit_file(played.log, GAMES, strict=True)


CHEATS = {"shuffle": ("shuffle", _shuffle_nonce), "share": ("share", _share_nonce), "key": ("key", _key_nonce)}


def _once(kind: str, change) -> Cheat:
    done = []

    def fn(g, seat, k, body):
        if done or k != kind:
            return None
        done.append(seat)
        return change(g, seat, dict(body))

    return Cheat(fn)


def _played(name: str) -> tuple[Played, Cheat]:
    kind, change = CHEATS.get(name, ("shuffle", _shuffle_seed))
    cheat = _once(kind, change)
    played = play(SEATS, seed=31, tamper=cheat, name=f"strict-{name}")
    assert cheat.fired, "the cheat never had its chance"
    return played, cheat


@pytest.mark.parametrize("name", sorted(CHEATS))
def test_a_proof_not_derived_from_the_seed_passes_the_plain_audit_and_the_strict_audit_names_it(name, capsys):
    played, cheat = _played(name)
    seat, kind, seq = cheat.fired[0]
    t = played.game.host.table
    assert t.fault is None and t.ended, "a valid proof stops nothing: the game ended"
    assert all(s.table.fault is None for s in played.game.seats)
    plain = audit_path(played.log)
    assert plain.code == 0, plain.text()
    assert "proofs and shares verified on arrival (--strict re-derives them from seeds)" in plain.text()
    strict = audit_path_strict(played)
    assert strict.code == 1, strict.text()
    assert strict.fault.seat == seat and strict.fault.seq == seq, strict.text()
    assert t.entries[seq].kind == kind and t.entries[seq].author == played.game.seats[seat].public
    assert "was not derived from its seed" in strict.fault.what and strict.fault.name == played.names[seat]
    # The command line says the same.
    assert main(["audit", str(played.log)]) == 0
    assert main(["audit", "--strict", str(played.log)]) == 1
    out = capsys.readouterr().out
    assert f"entry {seq}, signed by seat {seat}" in out and "was not derived from its seed" in out


def test_shuffled_cards_not_made_from_the_seed_are_named_by_every_fold_and_the_plain_audit():
    played, cheat = _played("cards")
    seat, kind, seq = cheat.fired[0]
    t = played.game.host.table
    assert t.fault is not None and t.fault.seat == seat and t.fault.seq == seq, t.fault
    assert "its revealed seed does not give its shuffle" in t.fault.reason
    assert t.entries[-1].kind == "seed-reveal", "the seed reveal proved it"
    assert all(s.table.fault == t.fault for s in played.game.seats)
    for report in (audit_path(played.log), audit_path_strict(played)):
        assert report.code == 1 and report.fault.seat == seat and report.fault.seq == seq, report.text()
        assert "does not give its shuffle" in report.fault.what


def test_the_strict_audit_of_a_clean_game_re_derives_every_proof_and_share(capsys):
    played = play(SEATS, seed=32, name="strict-clean")
    report = audit_path_strict(played)
    t = played.game.host.table
    shares = sum(len(e.body["positions"]) for e in t.entries if e.kind == "share")
    opened = sum(len(e.body["open"]) for e in t.entries if e.kind == "move")
    shuffles_and_keys = sum(1 for e in t.entries if e.kind in ("shuffle", "key"))
    assert report.code == 0, report.text()
    assert report.rederived == shares + opened + shuffles_and_keys and report.underived == 0
    assert main(["audit", "--strict", "--json", str(played.log)]) == 0
    out = capsys.readouterr().out
    assert '"strict": true' in out and f'"proofs_rederived": {report.rederived}' in out
    assert main(["audit", "--strict", str(played.log)]) == 0
    assert f"strict: {report.rederived} proofs and shares re-derived from their seeds" in capsys.readouterr().out
