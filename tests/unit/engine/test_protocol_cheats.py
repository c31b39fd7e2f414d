"""Cheating seats against the version-2 deck protocol (PROTOCOL.md 6.5).

Each test plays a real game of honest bot seats in which one seat cheats, through a tamper hook on
the entries it signs or by submitting an entry directly. Every shuffle carries a proof and every
share a DLEQ proof, so every cheat is named at the entry that commits it: every seat's own fold
stops the table there, and the audit of the saved log names the same seat at the same entry. An
entry failing the cheap checks (shape, an invalid point or scalar) is refused and changes nothing.
No honest seat is ever named, and none publishes a share of an event with a bad shuffle.
"""

from __future__ import annotations

import copy
import io
import os
import pickle

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nacl import bindings as nb

from engine.games.base import IllegalMove, MalformedAct
from engine.protocol import codec, elgamal, group, shuffle_proof
from engine.protocol.identity import new_key
from engine.protocol.log import (
    ENTRY_CONTEXT,
    BadAuthorKey,
    Entry,
    LogFileError,
    encode_frame,
    parse_log,
    sign_entry,
    sign_head,
)
from engine.sequencer import Sequencer
from engine.table import KINDS, Table, TableRefusal
from tests.support.protocol import GAMES, Cheat, Played, audit, audit_path, log_bytes, play, saved_game, step_until

SEATS = 3  # the fewest Vampire Queen allows: every cheat game costs as little as it can
HAND = 13
SMALL_ORDER_8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
IDENTITY = (1).to_bytes(32, "little")
NON_CANONICAL = (2**255 - 19 + 1).to_bytes(32, "little")  # y = p + 1
NOT_ON_CURVE = (2).to_bytes(32, "little")  # y = 2 has no x on edwards25519


def mixed_order(point: bytes) -> bytes:
    """A canonical point outside the main subgroup: a good point plus a point of order 8."""
    return nb.crypto_core_ed25519_add(point, SMALL_ORDER_8)


BAD_POINTS = {
    "small-order": SMALL_ORDER_8,
    "identity": IDENTITY,
    "non-canonical": NON_CANONICAL,
    "not-on-curve": NOT_ON_CURVE,
}


def once(kind: str, change, *, seat: int | None = None, when=None) -> Cheat:
    """A cheat on the first entry of ``kind`` (by ``seat``, if given; when ``when(g, seat, body)``)."""
    state = {"done": False}

    def fn(g, s, k, body):
        if state["done"] or k != kind or (seat is not None and s != seat) or (when and not when(g, s, body)):
            return None
        state["done"] = True
        return change(g, s, dict(body))

    return Cheat(fn)


def cheat_game(cheat: Cheat, *, seats: int = SEATS, seed: int = 1, name: str = "cheat") -> Played:
    played = play(seats, seed=seed, tamper=cheat, name=name)
    assert cheat.fired, "the cheat never had its chance"
    return played


def assert_named(played: Played, seat: int, seq: int | None = None, *words: str) -> None:
    """The table stopped with ``seat`` named, in the host's fold and in every seat's own fold, at
    entry ``seq``; and the audit of the saved log names the same seat at the same entry."""
    g = played.game
    host = g.host.table
    assert host.phase == "stopped" and host.fault is not None, f"the table did not stop: {host.phase}"
    fault = host.fault
    assert fault.seat == seat, f"seat {fault.seat} named instead of seat {seat}: {fault.reason}"
    if seq is not None:
        assert fault.seq == seq, fault
    for s in g.seats:
        assert s.table.fault == fault and s.table.phase == "stopped", "a seat's own fold disagrees with the host"
    for word in words:
        assert word.lower() in fault.reason.lower(), fault.reason
    assert host.entries[fault.seq].author == g.seats[seat].public, "the evidence is not signed by the cheater"
    report = audit_path(played.log)
    assert report.code == 1, report.text()
    assert report.fault.seat == seat and report.fault.seq == fault.seq, report.text()
    assert report.fault.name == g.seats[seat].name


def the_entry(played: Played, cheat: Cheat, i: int = 0):
    seat, kind, seq = cheat.fired[i]
    entry = played.game.host.table.entries[seq]
    assert entry.kind == kind and entry.author == played.game.seats[seat].public
    return seat, seq


def other_point(p: bytes) -> bytes:
    return group.mult(group.scalar_from_int(2), p)


# --- shuffles: every change to the deck fails the shuffle's proof, at its entry ------------------------


def _joint(g, body) -> bytes:
    return g.host.table.events[body["event"]].joint


def _reencrypt(c, joint: bytes, r: int = 7) -> list[bytes]:
    k = group.scalar_from_int(r)
    return [group.add(c[0], group.base_mult(k)), group.add(c[1], group.mult(k, joint))]


def _swap_in(g, s, body):  # a card of another deck swapped in for one of the deck
    c = body["cards"][0]
    other = group.card_point(g.host.table.table_id, "another deck", "Q-0")
    body["cards"] = [[c[0], group.add(c[1], other)], *body["cards"][1:]]
    return body


def _duplicate(g, s, body):  # one card dropped, another doubled (re-encrypted so the pairs differ)
    body["cards"] = [_reencrypt(body["cards"][1], _joint(g, body)), *body["cards"][1:]]
    return body


def _replace(g, s, body):  # a fresh encryption of a card of another deck
    joint = _joint(g, body)
    r = group.scalar_from_int(11)
    other = group.card_point(g.host.table.table_id, "another deck", "K-3")
    body["cards"] = [[group.base_mult(r), group.add(other, group.mult(r, joint))], *body["cards"][1:]]
    return body


def _plant_relation(g, s, body):
    """The relation-planting attack of version 1: a card replaced by a known multiple of itself
    (c·(c1, c2) holds c·M), which a colluding later shuffler could search for. Fails at once."""
    c = body["cards"][5]
    k = group.scalar_from_int(3)
    body["cards"] = [*body["cards"][:5], [group.mult(k, c[0]), group.mult(k, c[1])], *body["cards"][6:]]
    return body


def _swap_two(g, s, body):  # still a permutation, but not the one the proof was made for
    cards = list(body["cards"])
    cards[3], cards[7] = cards[7], cards[3]
    body["cards"] = cards
    return body


def _proof_of_another_table(g, s, body):
    other = next(e for e in saved_game().entries if e.kind == "shuffle")
    body["proof"] = other.body["proof"]
    return body


@pytest.mark.parametrize(
    "name,change,first",
    [
        ("swap-in", _swap_in, True),
        ("duplicate", _duplicate, False),
        ("replace", _replace, False),
        ("plant", _plant_relation, True),
        ("swap-two", _swap_two, False),
        ("copied-proof", _proof_of_another_table, False),
    ],
)
def test_a_shuffle_that_changes_the_deck_is_named_at_its_entry_and_no_honest_seat_shares(name, change, first):
    def when(g, s, body):
        ev = g.host.table.events[body["event"]]
        return (s == ev.shufflers[0]) == first

    cheat = once("shuffle", change, when=when)
    played = cheat_game(cheat, name=f"shuffle-{name}")
    seat, seq = the_entry(played, cheat)
    assert_named(played, seat, seq, "fails its proof")
    host = played.game.host.table
    assert host.entries[-1].seq == seq, "the table went on after the cheat"
    # No seat shares anything of the event: the bad shuffle stopped every fold before any share.
    assert not any(e.kind == "share" for e in host.entries)
    assert all(s.duty() is None for s in played.game.seats)


def test_a_proof_copied_from_an_earlier_shuffle_of_the_same_event_fails():
    def copy_previous(g, s, body):
        t = g.host.table
        previous = t.entries[t.events[body["event"]].shuffles[-1].seq]
        body["proof"] = previous.body["proof"]
        return body

    cheat = once("shuffle", copy_previous, when=lambda g, s, body: bool(g.host.table.events[body["event"]].shuffles))
    played = cheat_game(cheat, name="copied-same-event")
    seat, seq = the_entry(played, cheat)
    assert_named(played, seat, seq, "fails its proof")


@pytest.mark.parametrize("what", ["its proof", "its whole body"])
def test_in_one_process_a_proof_it_made_is_trusted_only_under_its_own_statement(monkeypatch, what):
    """Every seat and the host share this process: it trusts the proofs of shuffle it made itself
    and verifies none of them (docs/protocol.md 6.9), recognising each by its bytes and its whole
    statement. The second shuffler signs the first shuffler's proof (or its whole entry body),
    bytes this very process made, as its own: that is another statement, so every fold verifies
    it and names the copier at its entry, and so does the audit."""
    group.OWN_PROOFS.clear()  # a fresh start: neither registry fills up (and is emptied) mid-game
    group.VERIFY_MEMO._memo.clear()
    verified = []
    real = shuffle_proof._check
    monkeypatch.setattr(shuffle_proof, "_check", lambda p, ex: verified.append(p.st) or real(p, ex))

    def copy_previous(g, s, body):
        t = g.host.table
        previous = t.entries[t.events[body["event"]].shuffles[-1].seq]
        if what == "its proof":
            body["proof"] = previous.body["proof"]
            return body
        return dict(previous.body)

    cheat = once("shuffle", copy_previous, when=lambda g, s, body: bool(g.host.table.events[body["event"]].shuffles))
    played = cheat_game(cheat, name=f"copied-own-{what.split()[-1]}")
    seat, seq = the_entry(played, cheat)
    assert_named(played, seat, seq, "fails its proof")
    t = played.game.host.table
    entry = t.entries[seq]
    ev = t.events[entry.body["event"]]
    first = t.entries[ev.shuffles[0].seq]
    assert entry.body["proof"] == first.body["proof"] and entry.author != first.author
    # The honest shuffle was never verified here (this process made it); the copied one was, once:
    # the memo answered every other fold and the audit.
    copied = ev.shuffles[-1]
    assert copied.seq == seq and ev.shuffles[0].seq < seq
    context = shuffle_proof.shuffle_context(t.table_id, ev.number, seat)
    assert verified == [shuffle_proof.statement_hash(context, ev.joint, copied.inputs, copied.outputs)]


@pytest.mark.parametrize("last", [True, False], ids=["last-shuffle", "inner-shuffle"])
def test_with_the_pipeline_a_bad_shuffle_folded_unverified_is_named_there_and_no_honest_seat_shares(last):
    """docs/protocol.md 6.9: the host and the peers fold a `shuffle` after its cheap checks and
    verify its proof afterwards (defer_proof). The next shuffler may build on it at once, but no
    seat makes a share (nor anything else) before the proof is settled, and the table stops at
    the bad entry in every fold, in the same state as a fold that verifies at once."""
    g, d = _fresh_game(f"pipeline-{last}")
    t = g.host.table

    def bad_turn(g) -> bool:
        if not _owed_kind("shuffle")(g):
            return False
        ev = t.events[t.work.event]
        return len(ev.shuffles) == (len(ev.shufflers) - 1 if last else 1)

    step_until(g, bad_turn)
    (cheater,) = [s for s, k in t.owed() if k == "shuffle"]
    kind, body = g.seats[cheater].duty()
    entry = g.seats[cheater].sign(kind, _swap_in(g, cheater, dict(body)))
    g.host.submit(entry, defer_proof=True)
    for seat in g.seats:
        seat.fold(entry, defer_proof=True)
    assert t.unverified is not None and t.fault is None, "the shuffle was not folded ahead of its proof"
    honest = [s for s in g.seats if s.index != cheater]
    if last:
        # The fold owes shares already; an honest seat settles the proof first and makes none.
        assert any(k == "share" for _, k in t.owed())
    else:
        # The next shuffler builds on the unverified shuffle (its duty needs no proof settled)...
        (nxt,) = [s for s, k in t.owed() if k == "shuffle"]
        kind, body = g.seats[nxt].duty()
        assert kind == "shuffle" and g.seats[nxt].table.fault is None
        # ...but the host settles the proof before it appends anything further, and refuses it.
        with pytest.raises(TableRefusal):
            g.host.submit(g.seats[nxt].sign(kind, body), defer_proof=True)
    for seat in honest:
        if last:
            assert seat.duty() is None  # it settled the proof itself, and the table stopped
        else:
            seat.table.settle()  # as a client does once its worker thread has the answer
        assert seat.table.fault is not None and seat.table.fault.seq == entry.seq
    t.settle()
    assert t.fault is not None and t.fault.seat == cheater and t.fault.seq == entry.seq == t.entries[-1].seq
    assert "fails its proof" in t.fault.reason
    assert all(s.table.digest() == t.digest() for s in honest)
    assert not any(e.kind == "share" for e in t.entries)
    g.host.log.close()
    report = audit_path(d / "game.vtlog")
    assert report.code == 1 and report.fault.seq == entry.seq and report.fault.seat == cheater, report.text()


def _fresh_game(name: str, seed: int = 5, bots: str | None = "random"):
    from engine.local import new_local_game
    from tests.support.protocol import scratch_dir

    d = scratch_dir(name)
    g = new_local_game("queen", [bots] * SEATS, {"rounds": 1}, save=d / "game.vtlog", secrets_dir=d, seed=seed)
    return g, d


def _owed_kind(kind: str):
    return lambda g: any(k == kind for _, k in g.host.table.owed())


def _refused_everywhere(g, seat, kind, body, code: str, *words: str) -> None:
    t = g.host.table
    before = (t.digest(), len(t.entries), [x.table.digest() for x in g.seats])
    with pytest.raises(TableRefusal) as err:
        g.submit(seat, kind, body)
    assert err.value.code == code, err.value.detail
    for word in words:
        assert word in err.value.detail.lower(), err.value.detail
    assert (t.digest(), len(t.entries), [x.table.digest() for x in g.seats]) == before


@pytest.mark.parametrize("bad", sorted(BAD_POINTS))
def test_a_shuffle_with_an_invalid_point_is_refused_and_changes_nothing(bad):
    g, _ = _fresh_game(f"bad-shuffle-{bad}")
    step_until(g, _owed_kind("shuffle"))
    (s, _), *_ = [o for o in g.host.table.owed() if o[1] == "shuffle"]
    seat = g.seats[s]
    kind, body = seat.duty()
    body["cards"][4] = [body["cards"][4][0], BAD_POINTS[bad]]
    _refused_everywhere(g, seat, kind, body, "malformed")
    # And in the proof: a bad u_i.
    kind, body = seat.duty()
    body["proof"][0][2] = BAD_POINTS[bad]
    _refused_everywhere(g, seat, kind, body, "malformed")


def test_a_shuffle_that_cancels_the_randomness_of_a_card_is_refused():
    """deck-v2.md: ρ_0 = ℓ − 1 on the public deck's first card gives [identity, M], a card in the
    clear. The identity is not a valid point: refused, nothing changes."""
    g, _ = _fresh_game("identity-output")
    step_until(g, _owed_kind("shuffle"))
    t = g.host.table
    ev = t.events[-1]
    assert not ev.shuffles, "the first shuffle is the one on the computed deck"
    s = ev.shufflers[0]
    minus_one = group.scalar_from_int(group.L - 1)
    rho = [minus_one] + [group.scalar_from_int(5 + j) for j in range(1, ev.n)]
    outputs = elgamal.reencrypt(ev.cur, list(range(ev.n)), rho, ev.joint)
    assert outputs[0][0] == elgamal.IDENTITY
    body = {"event": ev.number, "cards": [list(c) for c in outputs], "proof": g.seats[s].duty()[1]["proof"]}
    _refused_everywhere(g, g.seats[s], "shuffle", body, "malformed", "position 0")


def test_a_point_outside_the_main_subgroup_is_refused():
    g, _ = _fresh_game("mixed-order")
    step_until(g, _owed_kind("shuffle"))
    (s, _), *_ = [o for o in g.host.table.owed() if o[1] == "shuffle"]
    kind, body = g.seats[s].duty()
    body["cards"][2] = [mixed_order(body["cards"][2][0]), body["cards"][2][1]]
    _refused_everywhere(g, g.seats[s], kind, body, "malformed")


# --- keys --------------------------------------------------------------------------------------------


def test_a_rogue_key_without_a_valid_proof_of_knowledge_is_named():
    """The last key-giver publishes X = x'·G − Σ the others' keys (so that the joint key is x'·G,
    which it alone knows); it cannot prove knowledge of log X, so its key is a proven cheat."""

    def rogue(g, s, body):
        ev = g.host.table.events[body["event"]]
        if len(ev.keys) != len(ev.order) - 1:
            return None
        total = elgamal.psum(ev.keys.values())
        body["X"] = elgamal.psub(group.base_mult(group.scalar_from_int(12345)), total)
        return body

    state = {"done": False}

    def fn(g, s, kind, body):
        if state["done"] or kind != "key":
            return None
        out = rogue(g, s, dict(body))
        state["done"] = out is not None
        return out

    cheat = Cheat(fn)
    played = cheat_game(cheat, name="rogue-key")
    seat, seq = the_entry(played, cheat)
    assert_named(played, seat, seq, "proof of knowledge")
    assert not any(e.kind == "shuffle" for e in played.game.host.table.entries)


def test_a_key_with_a_zero_scalar_in_its_proof_is_refused():
    g, _ = _fresh_game("zero-pok")
    step_until(g, _owed_kind("key"))
    s = next(s for s, k in g.host.table.owed() if k == "key")
    kind, body = g.seats[s].duty()
    body["pok"] = bytes(32) + body["pok"][32:]
    _refused_everywhere(g, g.seats[s], kind, body, "malformed")


# --- shares ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["another point", "replayed proof", "random proof"])
def test_a_wrong_share_is_named_at_its_entry(how):
    def change(g, s, body):
        if how == "another point":
            body["shares"] = [other_point(body["shares"][0]), *body["shares"][1:]]
        elif how == "replayed proof":
            body["proofs"] = [body["proofs"][1], *body["proofs"][1:]]
        else:
            body["proofs"] = [group.hash_to_scalar("x", 1) + group.hash_to_scalar("x", 2), *body["proofs"][1:]]
        return body

    cheat = once("share", change, when=lambda g, s, body: len(body["proofs"]) > 1)
    played = cheat_game(cheat, name=f"share-{how}")
    seat, seq = the_entry(played, cheat)
    assert_named(played, seat, seq, "fails its proof")


def _first_play(g, s, body):
    return body["act"].get("do") == "play" and len(body["open"]) >= 1


@pytest.mark.parametrize(
    "how,words",
    [
        ("another position's share", "fails its proof"),
        ("another card", "claims"),
        ("no such card", "claims"),
    ],
)
def test_opening_a_card_with_a_wrong_share_or_claim_is_named_at_once(how, words):
    def change(g, s, body):
        (pos, D, proof, ident), *rest = body["open"]
        if how == "another position's share":
            ev = g.seats[s].table.events[pos[0]]
            k = (pos[1] + 1) % ev.n
            D, proof = elgamal.make_share(g.seats[s]._secrets_for(ev), ev.cur[k][0], k)
        elif how == "another card":
            ident = "Q-3" if ident != "Q-3" else "Q-2"
        else:
            ident = "Joker"
        body["open"] = [[pos, D, proof, ident], *rest]
        return body

    cheat = once("move", change, when=_first_play)
    played = cheat_game(cheat, name=f"open-{how}")
    seat, seq = the_entry(played, cheat)
    assert_named(played, seat, seq, words)


def test_opening_a_card_with_a_share_that_is_not_a_point_is_refused():
    g, _ = _fresh_game("open-bad-point", bots=None)
    step_until(g, lambda g: g.host.table.owed() and g.host.table.owed()[0][1] == "move")
    t = g.host.table
    ((s, _),) = t.owed()
    seat = g.seats[s]
    mine = t.gstate.hands[s][0].pos
    body = seat.move_body({"do": "play", "cards": [list(mine)]})
    body["open"][0][1] = NOT_ON_CURVE
    _refused_everywhere(g, seat, "move", body, "malformed")


class _Refusing:
    """A game whose ``to_open`` refuses every act with ``error``; everything else is the game's."""

    def __init__(self, game, error: Exception) -> None:
        self._game = game
        self._error = error

    def __getattr__(self, name: str):
        return getattr(self._game, name)

    def to_open(self, state, seat, act):
        raise self._error


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (MalformedAct("the act lists no cards"), "malformed"),
        (IllegalMove("that card is not in your hand"), "illegal"),
    ],
)
def test_a_malformed_act_is_refused_as_malformed_and_an_illegal_one_as_illegal(error, code):
    move = next(e for e in saved_game().entries if e.kind == "move")
    table, digest = Base.at(move.seq)
    table.game = _Refusing(table.game, error)
    with pytest.raises(TableRefusal) as err:
        table.apply(move)
    assert (err.value.code, err.value.detail) == (code, str(error))
    assert table.digest() == digest and len(table.entries) == move.seq


# --- refused: cards not dealt to you, moves out of turn --------------------------------------------


def test_playing_a_card_not_dealt_to_you_is_refused_and_changes_nothing():
    from engine.local import new_local_game
    from tests.support.protocol import scratch_dir

    d = scratch_dir("not-dealt")
    g = new_local_game("queen", [None] * SEATS, {"rounds": 1}, save=d / "game.vtlog", secrets_dir=d, seed=5)
    step_until(
        g, lambda g: g.host.table.pending() is not None and g.host.table.owed() and g.host.table.owed()[0][1] == "move"
    )
    t = g.host.table
    ((s, _),) = t.owed()
    seat = g.seats[s]
    other = (s + 1) % SEATS
    theirs = t.gstate.hands[other][0].pos
    mine = t.gstate.hands[s][0].pos
    stock = (0, 107)
    secrets = seat._secrets_for(seat.table.events[0])
    before = (t.digest(), len(t.entries), [x.table.digest() for x in g.seats])

    def share(p):
        return list(elgamal.make_share(secrets, t.events[0].cur[p[1]][0], p[1]))

    attempts = {
        "another seat's card": (
            {"do": "play", "cards": [list(theirs)]},
            [[list(theirs), *share(theirs), "Q-0"]],
            "illegal",
            "not in your hand",
        ),
        "a card never dealt": (
            {"do": "play", "cards": [list(stock)]},
            [[list(stock), *share(stock), "Q-0"]],
            "illegal",
            "not in your hand",
        ),
        "an extra card opened": (
            {"do": "play", "cards": [list(mine)]},
            [[list(mine), *share(mine), seat.known[mine]], [list(theirs), *share(theirs), "Q-0"]],
            "illegal",
            "exactly the hidden cards",
        ),
        "nothing opened": ({"do": "play", "cards": [list(mine)]}, [], "illegal", "exactly the hidden cards"),
    }
    for name, (act, opens, code, words) in attempts.items():
        with pytest.raises(TableRefusal) as err:
            g.submit(seat, "move", {"act": act, "open": opens})
        assert err.value.code == code and words in err.value.detail, (name, err.value.detail)
        assert (t.digest(), len(t.entries), [x.table.digest() for x in g.seats]) == before, name
    # A move by a seat whose turn it is not.
    with pytest.raises(TableRefusal) as err:
        g.submit(g.seats[other], "move", {"act": {"do": "pass"}, "open": []})
    assert err.value.code == "not-your-turn"
    assert (t.digest(), len(t.entries), [x.table.digest() for x in g.seats]) == before
    # The refused entries never reached the log: it is clean so far, only unfinished.
    report = audit_path(d / "game.vtlog")
    assert report.code == 2 and report.fault is None, report.text()


# --- the seeds --------------------------------


def test_a_seed_reveal_that_does_not_match_its_commitment_is_named():
    def change(g, s, body):
        body["seed"] = bytes(32)
        return body

    cheat = once("seed-reveal", change)
    played = cheat_game(cheat, name="bad-seed")
    seat, seq = the_entry(played, cheat)
    assert_named(played, seat, seq, "does not match the commitment")


def test_a_rand_reveal_that_does_not_match_its_commitment_is_named():
    def change(g, s, body):
        body["r"] = bytes(32)
        return body

    cheat = once("rand-reveal", change)
    played = cheat_game(cheat, name="bad-rand")
    seat, seq = the_entry(played, cheat)
    assert_named(played, seat, seq, "rand-reveal does not match")


# --- author keys -------------------------------------------------------------------------------------


def forged_entry(author: bytes, table: bytes, seq: int, prev: bytes, kind: str, body: dict) -> Entry:
    """An entry "signed" by a small-order key: for the identity key, R = identity and S = 0 verify for
    every message under OpenSSL's Ed25519 (which is why author keys are checked before anything)."""
    payload = codec.encode(
        {"v": 2, "table": table, "seq": seq, "prev": prev, "author": author, "kind": kind, "body": body, "time": 0}
    )
    signature = IDENTITY + bytes(32)
    fields = codec.decode(payload)
    return Entry._make(payload, signature, fields)


def test_a_small_order_author_key_cannot_join():
    host = Sequencer(new_key(), GAMES, None, lambda: 0)
    genesis, head = host.open_table("queen", {"rounds": 1}, 3, "t")
    entry = forged_entry(IDENTITY, genesis.id, 1, genesis.id, "join", {"name": "Mallory", "deck": None})
    # The forgery would pass a signature check on its own: only the key check stops it.
    Ed25519PublicKey.from_public_bytes(IDENTITY).verify(entry.signature, ENTRY_CONTEXT + entry.payload)
    before = host.table.digest()
    with pytest.raises(TableRefusal) as err:
        host.submit(entry)
    assert err.value.code == "malformed" and "small order" in err.value.detail
    assert host.table.digest() == before and host.table.seats == []
    for bad in (SMALL_ORDER_8, NON_CANONICAL, mixed_order(group.G)):
        e = forged_entry(bad, genesis.id, 1, genesis.id, "join", {"name": "Mallory", "deck": None})
        with pytest.raises(TableRefusal):
            host.submit(e)
    # Off the wire, and in a saved log, the entry is refused before any table sees it.
    with pytest.raises(BadAuthorKey):
        Entry.from_wire(entry.to_wire())
    data = log_bytes([encode_frame(genesis, head), encode_frame(entry, sign_head(host.key, genesis.id, 1, entry.id))])
    with pytest.raises(LogFileError):
        parse_log(data)
    report = audit(data)
    assert report.code == 1 and report.fault.seq == 1 and "small order" in report.fault.what


def test_a_small_order_host_key_cannot_open_a_table():
    entry = forged_entry(
        IDENTITY,
        bytes(32),
        0,
        bytes(32),
        "table",
        {"game": "queen", "options": {}, "seats": 3, "name": "t", "carddb": None},
    )
    t = Table(GAMES)
    with pytest.raises(TableRefusal) as err:
        t.apply(entry)
    assert err.value.code == "malformed" and t.phase == "new"


# --- complaints --------------------------------------------------------------------------------------


def _dealt(g) -> bool:
    t = g.host.table
    return t.gstate is not None and t.gstate.phase == "play"


def test_a_false_complaint_names_the_complainer():
    g, d = _fresh_game("false-complaint", seed=9)
    step_until(g, _dealt)
    liar = g.seats[1]
    (e, k) = sorted(liar.known)[0]
    ev = liar.table.events[e]
    D, proof = elgamal.make_share(liar._secrets_for(ev), ev.cur[k][0], k)
    seq = len(g.host.table.entries)
    g.submit(liar, "complaint", {"event": e, "position": k, "share": D, "proof": proof})
    played = Played(g, d, d / "game.vtlog", g.host.key, [], [], [])
    assert_named(played, 1, seq, "false complaint")


def test_a_complaint_with_a_share_that_is_not_the_complainers_names_the_complainer():
    g, d = _fresh_game("complaint-share", seed=9)
    step_until(g, _dealt)
    liar = g.seats[2]
    (e, k) = sorted(liar.known)[0]
    ev = liar.table.events[e]
    D, proof = elgamal.make_share(liar._secrets_for(ev), ev.cur[k + 1][0], k + 1)
    seq = len(g.host.table.entries)
    g.submit(liar, "complaint", {"event": e, "position": k, "share": D, "proof": proof})
    played = Played(g, d, d / "game.vtlog", g.host.key, [], [], [])
    assert_named(played, 2, seq, "false complaint", "fails its proof")


def test_a_complaint_about_a_card_not_opened_to_you_is_refused():
    g, _ = _fresh_game("complaint-not-mine", seed=9)
    step_until(g, _dealt)
    t = g.host.table
    seat = g.seats[0]
    theirs = t.gstate.hands[1][0].pos
    secrets = seat._secrets_for(seat.table.events[0])
    for pos in (theirs, (0, 107)):
        D, proof = elgamal.make_share(secrets, t.events[0].cur[pos[1]][0], pos[1])
        _refused_everywhere(
            g, seat, "complaint", {"event": 0, "position": pos[1], "share": D, "proof": proof}, "illegal"
        )


# --- hostile bodies: whatever a seat signs, the table refuses it, folds it or names its author ------

#: Examples per entry kind (VT_HOSTILE_EXAMPLES=400 for a long hunt).
HOSTILE_EXAMPLES = int(os.environ.get("VT_HOSTILE_EXAMPLES", "20"))
SCALARS = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=6) | st.binary(max_size=40)
VALUES = st.recursive(
    SCALARS, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=3), max_leaves=5
)
BAD_BYTES = st.sampled_from(
    [
        bytes(32),
        SMALL_ORDER_8,
        IDENTITY,
        NON_CANONICAL,
        NOT_ON_CURVE,
        b"\xff" * 32,
        group.G,
        (group.L).to_bytes(32, "little"),
        bytes(64),
        b"",
        b"\x01" * 31,
    ]
)
BAD_INTS = st.sampled_from([-1, 0, 1, 2, 3, 12, 13, 107, 108, 109, 2**31, 2**63, 2**64 - 1, -(2**63), True, False])


def _leaves(value, path=()):
    if isinstance(value, dict):
        for k in sorted(value):
            yield from _leaves(value[k], path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, path + (i,))
    yield path, value


def _set(root, path, new):
    if not path:
        return new
    target = root
    for p in path[:-1]:
        target = target[p]
    target[path[-1]] = new
    return root


@st.composite
def hostile(draw, body):
    body = copy.deepcopy(body)
    paths = list(_leaves(body))
    path, old = draw(st.sampled_from(paths))
    if isinstance(old, bytes):
        new = draw(BAD_BYTES | st.binary(min_size=len(old), max_size=len(old)) | VALUES)
    elif isinstance(old, int):
        new = draw(BAD_INTS | VALUES)
    elif isinstance(old, list):
        op = draw(st.sampled_from(["cut", "grow", "repeat", "reverse", "other"]))
        new = list(old)
        if op == "cut":
            new = new[: draw(st.integers(0, max(0, len(new) - 1)))]
        elif op == "grow":
            new = new + [draw(VALUES if not new else st.just(new[0]) | VALUES)]
        elif op == "repeat" and new:
            new[-1] = new[0]
        elif op == "reverse":
            new.reverse()
        else:
            new = draw(VALUES)
    elif isinstance(old, dict):
        new = dict(old)
        if draw(st.booleans()) and new:
            del new[draw(st.sampled_from(sorted(new)))]
        else:
            new[draw(st.text(min_size=1, max_size=8))] = draw(VALUES)
    else:
        new = draw(VALUES)
    return _set(body, path, new)


class _SharingPickler(pickle.Pickler):
    """Pickles an object but for ``shared`` ones (by id), which are named, not copied."""

    def __init__(self, file: io.BytesIO, shared: dict[int, object]) -> None:
        super().__init__(file, pickle.HIGHEST_PROTOCOL)
        self.shared = shared

    def persistent_id(self, obj: object) -> int | None:
        return id(obj) if id(obj) in self.shared else None


class _SharingUnpickler(pickle.Unpickler):
    def __init__(self, data: bytes, shared: dict[int, object]) -> None:
        super().__init__(io.BytesIO(data))
        self.shared = shared

    def persistent_load(self, pid: int) -> object:
        return self.shared[pid]


class Base:
    """The session game's table folded up to one entry, copied for each attempt: kept pickled
    and unpickled anew, a copy as ``copy.deepcopy`` makes (the games and the game shared, not
    copied) in a fraction of its time."""

    cache: dict[int, tuple[bytes, dict[int, object], bytes]] = {}

    @classmethod
    def at(cls, seq: int) -> tuple[Table, bytes]:
        if seq not in cls.cache:
            t = Table(GAMES)
            for e in saved_game().entries[:seq]:
                t.apply(e)
            shared = {id(obj): obj for obj in (t.games, t.game) if obj is not None}
            out = io.BytesIO()
            _SharingPickler(out, shared).dump(t)
            cls.cache[seq] = (out.getvalue(), shared, t.digest())
        data, shared, digest = cls.cache[seq]
        return _SharingUnpickler(data, shared).load(), digest


def _target(kind: str):
    played = saved_game()
    entries = played.entries
    if kind == "complaint":
        move = next(e for e in entries if e.kind == "move" and e.body["open"])
        ((pos, D, proof, _),) = move.body["open"][:1]
        return move.seq, move.author, "complaint", {"event": pos[0], "position": pos[1], "share": D, "proof": proof}
    if kind == "move":
        e = next(e for e in entries if e.kind == "move" and e.body["open"])
    else:
        e = next(e for e in entries if e.kind == kind)
    return e.seq, e.author, e.kind, e.body


def _key_of(author: bytes):
    played = saved_game()
    if author == played.entries[0].author:
        return played.host_key
    return dict(zip([s.public for s in played.game.seats], played.seat_keys, strict=False))[author]


@pytest.mark.parametrize(
    "kind",
    [
        "join",
        "start",
        "rand-commit",
        "rand-reveal",
        "key",
        "shuffle",
        "share",
        "move",
        "complaint",
        "seed-reveal",
        "end",
    ],
)
@settings(max_examples=HOSTILE_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_hostile_body_is_refused_or_names_its_author_and_never_crashes_the_table(kind, data):
    seq, author, real_kind, body = _target(kind)
    as_kind = data.draw(st.sampled_from([real_kind] * 4 + sorted(KINDS)), label="kind")
    mutated = data.draw(hostile(body), label="body")
    try:
        entries = saved_game().entries
        entry = sign_entry(
            _key_of(author),
            table=entries[0].id,
            seq=seq,
            prev=entries[seq - 1].id,
            kind=as_kind,
            body=mutated if isinstance(mutated, dict) else {"x": mutated},
            time_ms=0,
        )
    except Exception:
        return
    table, digest = Base.at(seq)
    twin, _ = Base.at(seq)
    try:
        table.apply(entry)
    except TableRefusal as err:
        assert err.code in {"malformed", "illegal", "not-your-turn", "stale", "chain"}
        assert table.digest() == digest and len(table.entries) == seq, "a refused entry changed the table"
        return
    # Folded: either a legal entry, or a proven cheat naming its author at this entry.
    twin.apply(entry)
    assert twin.digest() == table.digest(), "two folds of the same entry differ"
    if table.fault is not None:
        assert table.phase == "stopped" and table.fault.seq == seq
        assert table.fault.seat == table.seat_of(author), "a hostile entry got another seat named"
