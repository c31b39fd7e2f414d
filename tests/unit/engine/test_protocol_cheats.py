"""Cheating seats (issue 3, "Tests that must exist": Cheating seats).

Each test plays a real game of honest bot seats in which one seat cheats, through a tamper hook on
the entries it signs or by submitting an entry directly. Where the protocol checks at once, every
seat's own fold stops the table and names the cheater at the cheating entry; a cheat that only the
seeds can show (a pass 1 that replaces a card) is named at the round's seed reveal; an entry the
table refuses is refused with its code and changes nothing. The audit of every saved log names the
same seat at the same entry. And no honest seat is ever named for a cheat it did not commit.
"""

from __future__ import annotations

import copy
import os

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nacl import bindings as nb

from engine.games.base import IllegalMove, MalformedAct
from engine.protocol import codec, deck, group
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


# --- checked at once: unlock, proofs, lock passes ---------------------------------------------------


def test_a_wrong_unlock_is_named_at_once():
    def alter(g, s, body):
        body["points"] = [other_point(body["points"][0])] + body["points"][1:]
        return body

    cheat = once("unlock", alter)
    played = cheat_game(cheat, name="wrong-unlock")
    seat, seq = the_entry(played, cheat)
    assert_named(played, seat, seq, "proof", "does not verify")
    assert played.game.host.table.entries[-1].seq == seq, "the table went on after the cheat"


@pytest.mark.parametrize(
    "kind,how",
    [("lock", "replayed"), ("lock", "random"), ("unlock", "replayed"), ("unlock", "random"), ("lock", "zero-scalars")],
)
def test_a_forged_dleq_proof_is_named_at_once(kind, how):
    def forge(g, s, body):
        proofs = list(body["proofs"])
        if how == "replayed":
            proofs[0] = proofs[1]  # a valid proof, of another position's statement
        elif how == "random":
            proofs[0] = os.urandom(64)
        else:
            proofs[0] = bytes(64)
        body["proofs"] = proofs
        return body

    cheat = once(kind, forge, when=lambda g, s, body: len(body["proofs"]) > 1)
    played = cheat_game(cheat, name=f"forged-{kind}-{how}")
    seat, seq = the_entry(played, cheat)
    assert_named(played, seat, seq, "proof for position")


@pytest.mark.parametrize("what", ["everything", "points only"])
def test_a_lock_pass_that_swaps_two_positions_is_named_at_once(what):
    def swap(g, s, body):
        fields = ("points", "locks", "proofs") if what == "everything" else ("points",)
        for f in fields:
            values = list(body[f])
            values[3], values[7] = values[7], values[3]
            body[f] = values
        return body

    cheat = once("lock", swap)
    played = cheat_game(cheat, name="swap")
    seat, seq = the_entry(played, cheat)
    assert_named(played, seat, seq, "position 3", "does not verify")


# --- bad points and scalars ----------------------------------------------------------------------


def _plant(field: str, bad: bytes, index: int = 5):
    def change(g, s, body):
        if field == "A":
            body["A"] = bad
        else:
            values = list(body[field])
            values[index] = bad
            body[field] = values
        return body

    return change


@pytest.mark.parametrize("bad", sorted(BAD_POINTS))
@pytest.mark.parametrize(
    "kind,field,last",
    [
        ("shuffle", "points", False),
        ("shuffle", "A", False),
        ("shuffle", "locks", True),
        ("lock", "points", None),
        ("lock", "locks", None),
        ("unlock", "points", None),
    ],
)
def test_an_invalid_or_small_order_point_is_named_at_once(kind, field, last, bad):
    point = BAD_POINTS[bad]

    def when(g, s, body):
        if kind == "shuffle":
            return ("locks" in body) == last
        return len(body["points"]) > 5 or field == "points"

    cheat = once(kind, _plant(field, point, 5 if kind != "unlock" else 0), when=when)
    played = cheat_game(cheat, name=f"bad-{kind}-{field}-{bad}")
    seat, seq = the_entry(played, cheat)
    assert_named(played, seat, seq)
    reason = played.game.host.table.fault.reason.lower()
    assert "point" in reason or "proof" in reason


def test_a_point_outside_the_main_subgroup_is_named_at_once():
    def change(g, s, body):
        values = list(body["points"])
        values[2] = mixed_order(values[2])
        body["points"] = values
        return body

    cheat = once("shuffle", change, when=lambda g, s, body: "A" in body)
    played = cheat_game(cheat, name="mixed-order")
    seat, seq = the_entry(played, cheat)
    assert_named(played, seat, seq, "not a canonical point of the main subgroup")


def test_repeated_points_in_a_pass_are_named_at_once():
    def repeat(g, s, body):
        values = list(body["points"])
        values[9] = values[4]
        body["points"] = values
        return body

    cheat = once("shuffle", repeat)
    played = cheat_game(cheat, name="repeat")
    seat, seq = the_entry(played, cheat)
    assert_named(played, seat, seq, "equal")


def _first_play(g, s, body):
    return body["act"].get("do") == "play" and len(body["open"]) >= 1


@pytest.mark.parametrize(
    "how,words",
    [
        ("zero", "not a canonical non-zero scalar"),
        ("unreduced", "not a canonical non-zero scalar"),
        ("another position's key", "does not open its lock"),
        ("another card", "does not open to the card claimed"),
        ("no such card", "not a card of the deck"),
    ],
)
def test_opening_a_card_with_a_wrong_key_or_claim_is_named_at_once(how, words):
    def change(g, s, body):
        (pos, key, ident), *rest = body["open"]
        if how == "zero":
            key = bytes(32)
        elif how == "unreduced":
            key = (group.scalar_to_int(key) + group.L).to_bytes(32, "little")
        elif how == "another position's key":
            ev = g.seats[s].table.events[pos[0]]
            key = g.seats[s]._secrets_for(ev).lock_keys[(pos[1] + 1) % ev.n]
        elif how == "another card":
            ident = "Q-3" if ident != "Q-3" else "Q-2"
        else:
            ident = "Joker"
        body["open"] = [[pos, key, ident], *rest]
        return body

    cheat = once("move", change, when=_first_play)
    played = cheat_game(cheat, name=f"open-{how}")
    seat, seq = the_entry(played, cheat)
    assert_named(played, seat, seq, words)


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

    def key(p):
        return secrets.lock_keys[p[1]]

    attempts = {
        "another seat's card": (
            {"do": "play", "cards": [list(theirs)]},
            [[list(theirs), key(theirs), "Q-0"]],
            "illegal",
            "not in your hand",
        ),
        "a card never dealt": (
            {"do": "play", "cards": [list(stock)]},
            [[list(stock), key(stock), "Q-0"]],
            "illegal",
            "not in your hand",
        ),
        "an extra card opened": (
            {"do": "play", "cards": [list(mine)]},
            [[list(mine), key(mine), seat.known[mine]], [list(theirs), key(theirs), "Q-0"]],
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


# --- the seeds: a replaced card, a seed that is not the committed one --------------------------------


def test_a_pass_1_that_replaces_a_card_is_named_at_the_round_end_seed_reveal():
    """The first shuffler swaps one of its outputs for another point (a copy of a deck card would
    collide with the real one's output under its single key a, so it plants a card of another
    deck). Pass 1 carries no proof, so nothing shows until the seeds are revealed at the round's
    end: the replaced card is placed (the cheater looks ahead at the other shufflers' permutations,
    which a test can do) where it stays in the stock, unseen, and the round plays on to its end."""

    def replace(g, s, body):
        t = g.seats[s].table
        ev = t.events[t.work.event]
        # Where our outputs end: final position f holds our output π(f), following the later
        # shufflers' permutations back (X'_j = ..·X_{σ(j)}).
        pos = ev.n - 1  # the last position: in the stock, never dealt with 3 seats
        for p in reversed(ev.order[1:]):
            pos = g.seats[p]._secrets_for(g.seats[p].table.events[ev.number]).perm[pos]
        mine = g.seats[s]._secrets_for(ev)
        points = list(body["points"])
        points[pos] = group.mult(mine.shuffle_key, group.card_point(t.table_id, "another deck", "Q-0"))
        body["points"] = points
        return body

    cheat = once("shuffle", replace, when=lambda g, s, body: s == g.seats[s].table.events[-1].order[0])
    played = cheat_game(cheat, name="pass1-replace")
    seat, seq = the_entry(played, cheat)
    g = played.game
    host = g.host.table
    # Nobody could tell before the seeds: the round was played to its end.
    kinds = [e.kind for e in host.entries]
    assert kinds.count("seed-reveal") == SEATS and "complaint" not in kinds
    assert host.entries[-1].kind == "seed-reveal" and host.fault.seq == seq < len(host.entries) - 1
    assert sum(1 for e in host.entries if e.kind == "move") > 10
    assert_named(played, seat, seq, "shuffle is not what its seed gives")


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
        {"v": 1, "table": table, "seq": seq, "prev": prev, "author": author, "kind": kind, "body": body, "time": 0}
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
    from engine.local import new_local_game
    from tests.support.protocol import scratch_dir

    d = scratch_dir("false-complaint")
    g = new_local_game("queen", ["random"] * SEATS, {"rounds": 1}, save=d / "game.vtlog", secrets_dir=d, seed=9)
    step_until(g, _dealt)
    liar = g.seats[1]
    (e, k) = sorted(liar.known)[0]
    seq = len(g.host.table.entries)
    g.submit(liar, "complaint", deck.make_complaint(liar._secrets_for(liar.table.events[e]), k))
    played = Played(g, d, d / "game.vtlog", g.host.key, [], [], [])
    assert_named(played, 1, seq, "false complaint")


@pytest.mark.parametrize(
    "key,words",
    [
        ("another position's", "does not open its lock"),
        ("zero", "not a canonical non-zero scalar"),
        ("unreduced", "not a canonical non-zero scalar"),
    ],
)
def test_a_complaint_with_a_key_that_is_not_the_complainers_names_the_complainer(key, words):
    from engine.local import new_local_game
    from tests.support.protocol import scratch_dir

    d = scratch_dir("complaint-key")
    g = new_local_game("queen", ["random"] * SEATS, {"rounds": 1}, save=d / "game.vtlog", secrets_dir=d, seed=9)
    step_until(g, _dealt)
    liar = g.seats[2]
    (e, k) = sorted(liar.known)[0]
    secrets = liar._secrets_for(liar.table.events[e])
    bad = {
        "another position's": secrets.lock_keys[k + 1],
        "zero": bytes(32),
        "unreduced": (group.scalar_to_int(secrets.lock_keys[k]) + group.L).to_bytes(32, "little"),
    }[key]
    seq = len(g.host.table.entries)
    g.submit(liar, "complaint", {"event": e, "position": k, "key": bad})
    played = Played(g, d, d / "game.vtlog", g.host.key, [], [], [])
    assert_named(played, 2, seq, "false complaint", words)


def test_a_complaint_about_a_card_not_opened_to_you_is_refused():
    from engine.local import new_local_game
    from tests.support.protocol import scratch_dir

    d = scratch_dir("complaint-not-mine")
    g = new_local_game("queen", ["random"] * SEATS, {"rounds": 1}, save=d / "game.vtlog", secrets_dir=d, seed=9)
    step_until(g, _dealt)
    t = g.host.table
    before = t.digest()
    seat = g.seats[0]
    theirs = t.gstate.hands[1][0].pos
    secrets = seat._secrets_for(seat.table.events[0])
    for pos in (theirs, (0, 107)):
        with pytest.raises(TableRefusal) as err:
            g.submit(seat, "complaint", {"event": 0, "position": pos[1], "key": secrets.lock_keys[pos[1]]})
        assert err.value.code == "illegal"
    assert t.digest() == before


# --- a card that is not a card, and duplicates planted by the last shuffler -------------------------


def _last_step(plant):
    """A cheat by L on its shuffle-with-locks step: ``plant(points, secrets, inputs, victims)``
    changes the outputs; victims are the seats after L, whose hands start at position seat*13."""

    def change(g, s, body):
        t = g.seats[s].table
        ev = t.events[t.work.event]
        secrets = g.seats[s]._secrets_for(ev)
        points = list(body["points"])
        victims = [(s + 1) % SEATS, (s + 2) % SEATS]
        plant(points, secrets, list(ev.row), victims, t)
        body["points"] = points
        return body

    return once("shuffle", change, when=lambda g, s, body: "locks" in body)


def test_a_card_that_is_not_a_card_leads_to_a_complaint_and_an_early_seed_reveal_naming_the_culprit():
    def plant(points, secrets, inputs, victims, t):
        j = victims[0] * HAND + 4
        points[j] = group.mult(secrets.lock_keys[j], group.card_point(t.table_id, "another deck", "7-1"))

    cheat = _last_step(plant)
    played = cheat_game(cheat, name="not-a-card")
    culprit, seq = the_entry(played, cheat)
    victim = (culprit + 1) % SEATS
    host = played.game.host.table
    kinds = [(e.kind, host.seat_of(e.author)) for e in host.entries]
    complaints = [i for i, (k, _) in enumerate(kinds) if k == "complaint"]
    assert len(complaints) == 1 and kinds[complaints[0]][1] == victim, "the receiver did not complain"
    assert [k for k, _ in kinds[complaints[0] + 1 :]] == ["seed-reveal"] * SEATS, "no early seed reveal"
    assert not any(k == "move" for k, _ in kinds), "play went on with a card that is not a card"
    assert_named(played, culprit, seq, "shuffle is not what its seed gives")


def _duplicate(where):
    def plant(points, secrets, inputs, victims, t):
        j1, j2 = where(victims)
        # Position j2 gets the card that L's permutation sends to j1, under j2's own lock key.
        points[j2] = group.mult(secrets.lock_keys[j2], inputs[secrets.perm[j1]])

    return _last_step(plant)


@pytest.mark.parametrize(
    "case,where",
    [
        ("in one hand", lambda v: (v[0] * HAND, v[0] * HAND + 1)),
        ("in two hands", lambda v: (v[0] * HAND, v[1] * HAND)),
    ],
)
def test_a_card_planted_twice_by_the_last_shuffler_names_it_and_never_an_honest_seat(case, where):
    """L copies one card to two positions (its per-position keys make the copies distinct points,
    so no check at once can see it). Whoever holds the copies is honest: the seeds must name L."""
    cheat = _duplicate(where)
    played = cheat_game(cheat, name=f"duplicate-{case.replace(' ', '-')}", seed=2)
    culprit, seq = the_entry(played, cheat)
    assert_named(played, culprit, seq, "shuffle is not what its seed gives")


class Deaf(list):
    """A complaints list that never fills: a seat that does not notice a card seen twice (say, its
    move crossed the entry that made the other copy public)."""

    def append(self, item):
        pass


@pytest.mark.parametrize("how", ["as a pair", "one, then the other"])
def test_opening_a_card_planted_twice_stops_play_and_the_seeds_name_the_planter_not_the_opener(how):
    """The table's own backstop: whoever opens the second copy of a card has proven, with its key,
    that the card is there twice. Play stops for the seeds, which name L; the opener is honest."""
    from engine.local import new_local_game
    from tests.support.protocol import scratch_dir

    # The seat after the next one from L leads first (3 seats: dealer, leader, L in acting order).
    cheat = _duplicate(lambda v: (v[1] * HAND, v[1] * HAND + 1))
    d = scratch_dir("opened-twice")
    g = new_local_game(
        "queen", [None] * SEATS, {"rounds": 1}, save=d / "game.vtlog", secrets_dir=d, seed=4, tamper=cheat
    )
    cheat.g = g
    g.run()  # every duty up to the first move, which no bot makes here
    t = g.host.table
    ((leader, kind),) = t.owed()
    culprit, seq = cheat.fired[0][0], cheat.fired[0][2]
    assert kind == "move" and leader == (culprit + 2) % SEATS
    seat = g.seats[leader]
    first, second = (0, leader * HAND), (0, leader * HAND + 1)
    assert seat.known[first] == seat.known[second], "the planted copies did not reach the leader"
    if how == "as a pair":
        g.submit(seat, "move", seat.move_body({"do": "play", "cards": [list(first), list(second)]}))
    else:
        seat.complaints = Deaf()
        g.submit(seat, "move", seat.move_body({"do": "play", "cards": [list(first)]}))
        for other in (leader + 1) % SEATS, (leader + 2) % SEATS:
            g.submit(g.seats[other], "move", {"act": {"do": "pass"}, "open": []})
        assert t.owed() == [(leader, "move")], "the leader did not win its trick"
        g.submit(seat, "move", seat.move_body({"do": "play", "cards": [list(second)]}))
    opened = len(t.entries) - 1
    assert t.work is not None and t.work.kind == "seeds" and t.fault is None, "play did not stop for the seeds"
    assert any("planted it twice" in n.text for n in t.notes)
    g.run()
    assert [e.kind for e in t.entries[opened + 1 :]] == ["seed-reveal"] * SEATS
    assert "complaint" not in [e.kind for e in t.entries]
    played = Played(g, d, d / "game.vtlog", g.host.key, [], [], [])
    assert_named(played, culprit, seq, "shuffle is not what its seed gives")


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


class Base:
    """The session game's table folded up to one entry, copied for each attempt."""

    cache: dict[int, tuple[Table, bytes]] = {}

    @classmethod
    def at(cls, seq: int) -> tuple[Table, bytes]:
        if seq not in cls.cache:
            t = Table(GAMES)
            for e in saved_game().entries[:seq]:
                t.apply(e)
            cls.cache[seq] = (t, t.digest())
        t, digest = cls.cache[seq]
        return copy.deepcopy(t, {id(t.games): t.games, id(t.game): t.game}), digest


def _target(kind: str):
    played = saved_game()
    entries = played.entries
    if kind == "complaint":
        move = next(e for e in entries if e.kind == "move" and e.body["open"])
        ((pos, key, _),) = move.body["open"][:1]
        return move.seq, move.author, "complaint", {"event": pos[0], "position": pos[1], "key": key}
    if kind == "shuffle-L":
        e = next(e for e in entries if e.kind == "shuffle" and "locks" in e.body)
    elif kind == "move":
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
        "shuffle",
        "shuffle-L",
        "lock",
        "unlock",
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
