"""The deck protocol (PROTOCOL.md 6): secrets, passes, unlocks, reveals, complaints, the seed
reveal and the audit of an event, with honest participants and with cheats."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.protocol import codec, deck, group
from engine.protocol.deck import (
    BadBody,
    BadPoint,
    BadProof,
    BadReveal,
    BadScalar,
    BadSeed,
    CardIndex,
    DeckProofError,
    DuplicatePoints,
    EventEntry,
    EventSecrets,
    FalseComplaint,
)

TABLE = bytes(range(32))
SMALL_ORDER_8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
NON_CANONICAL = (2**255 - 19 + 1).to_bytes(32, "little")  # y = p + 1, i.e. the identity again


def seed_of(seat: int, salt: bytes = b"") -> bytes:
    return hashlib.sha256(b"test seed %d " % seat + salt).digest()


def wire(body: dict) -> dict:
    """A body as a peer receives it: encoded, then decoded canonically."""
    return codec.decode(codec.encode(body))


class Event:
    """One shuffle event run in memory: every entry goes through the wire and is checked as a
    peer checks it, then recorded for the audit."""

    def __init__(self, n: int = 10, participants=(0, 1, 2, 3), event: int = 0, seeds=None):
        self.n, self.event, self.participants = n, event, list(participants)
        self.index = CardIndex.build(TABLE, "main", [f"card {i}" for i in range(n)])
        seeds = seeds or {p: seed_of(p) for p in participants}
        self.secrets = {p: EventSecrets.derive(seeds[p], TABLE, event, p, n) for p in participants}
        self.row = list(self.index.points)
        self.entries: list[EventEntry] = []
        self.shuffled: dict[int, deck.Shuffled] = {}
        self.locks: dict[int, tuple[bytes, ...]] = {}
        self.cur: dict[int, bytes] = {}  # position -> current point once unlocks began

    @property
    def last(self) -> int:
        return self.participants[-1]

    def record(self, seat, kind, body):
        self.entries.append(EventEntry(len(self.entries), seat, kind, body))

    def shuffle(self, seat, tamper=None):
        last = seat == self.last
        body = deck.make_shuffle_pass(self.secrets[seat], self.row, last=last)
        body = wire(tamper(body) if tamper else body)
        out = deck.check_shuffle_pass(body, event=self.event, seat=seat, n=self.n, last=last)
        self.record(seat, "shuffle", body)
        self.shuffled[seat], self.row = out, list(out.points)
        if last:
            self.locks[seat] = out.locks
        return out

    def lock(self, seat, tamper=None):
        body = deck.make_lock_pass(self.secrets[seat], self.row)
        body = wire(tamper(body) if tamper else body)
        out = deck.check_lock_pass(
            body, table=TABLE, event=self.event, seat=seat, n=self.n, inputs=self.row, A=self.shuffled[seat].A
        )
        self.record(seat, "lock", body)
        self.locks[seat], self.row = out.locks, list(out.points)
        return out

    def setup(self):
        for p in self.participants:
            self.shuffle(p)
        for p in self.participants[:-1]:
            self.lock(p)
        return self

    def current(self, positions):
        return {k: self.cur.get(k, self.row[k]) for k in positions}

    def unlock(self, seat, to, positions, tamper=None):
        current = self.current(positions)
        body = deck.make_unlock(self.secrets[seat], to, positions, current)
        body = wire(tamper(body) if tamper else body)
        out = deck.check_unlock(
            body,
            table=TABLE,
            event=self.event,
            seat=seat,
            n=self.n,
            to=to,
            current=current,
            locks=self.locks[seat],
        )
        self.record(seat, "unlock", body)
        self.cur.update(out.as_dict())
        return out

    def open_to(self, to, positions):
        """Every participant but ``to`` unlocks, in order; ``to`` decodes privately."""
        for p in self.participants:
            if p != to:
                self.unlock(p, to, positions)
        cur = self.current(positions)
        key = (lambda k: self.secrets[to].lock_keys[k]) if to in self.secrets else (lambda k: None)
        return [deck.decode_point(cur[k], self.index.lookup, key(k)) for k in positions]

    def reveal_all(self, positions):
        """Every participant publishes its keys; returns the identities."""
        current = self.current(positions)
        for p in self.participants:
            body = wire(deck.make_reveal(self.secrets[p], positions))
            out = deck.check_reveal(body, event=self.event, seat=p, n=self.n, current=current, locks=self.locks[p])
            self.record(p, "reveal", body)
            current = dict(zip(out.positions, out.points, strict=False))
            self.cur.update(current)
        return [deck.decode_point(current[k], self.index.lookup) for k in positions]

    def card_at(self, j: int) -> str:
        """The card the participants' permutations put at position j (X'_j = X_{σ(j)})."""
        for p in reversed(self.participants):
            j = self.secrets[p].perm[j]
        return self.index.cards[j]

    def audit(self, seeds=None):
        seeds = seeds or {p: s.seed for p, s in self.secrets.items()}
        return deck.recompute_event(
            table=TABLE,
            event=self.event,
            participants=self.participants,
            seeds=seeds,
            inputs=self.index.points,
            index=self.index.lookup,
            entries=self.entries,
        )


# --- derivations -------------------------------------------------------------------------------


def test_secrets_are_derived_from_the_seed_with_table_event_and_seat():
    s = EventSecrets.derive(seed_of(1), TABLE, 4, 1, 6)
    assert s.commit == codec.sha256("commit", TABLE, 4, 1, seed_of(1))
    assert s.shuffle_key == group.hash_to_scalar("shuffle-key", TABLE, 4, 1, seed_of(1))
    assert s.lock_keys == tuple(group.hash_to_scalar("lock-key", TABLE, 4, 1, k, seed_of(1)) for k in range(6))
    assert s.nonce_key == codec.sha256("nonce-key", TABLE, 4, 1, seed_of(1))
    assert len(set(s.lock_keys)) == 6 and all(group.is_scalar(b) for b in s.lock_keys)
    for other in (
        EventSecrets.derive(seed_of(1), TABLE, 5, 1, 6),
        EventSecrets.derive(seed_of(1), TABLE, 4, 2, 6),
        EventSecrets.derive(seed_of(1), bytes(32), 4, 1, 6),
    ):
        assert other.commit != s.commit and other.shuffle_key != s.shuffle_key
        assert not set(other.lock_keys) & set(s.lock_keys)


def _reference_permutation(seed, table, event, seat, n):
    stream = hashlib.shake_256(codec.hash_input("permutation", table, event, seat, n, seed)).digest(8 * n + 64)
    draws = (int.from_bytes(stream[i : i + 8], "big") for i in range(0, len(stream), 8))
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        m = i + 1
        v = next(v for v in draws if v < 2**64 - 2**64 % m)
        perm[i], perm[v % m] = perm[v % m], perm[i]
    return tuple(perm)


def test_the_permutation_is_fisher_yates_over_shake256():
    for n in (1, 2, 3, 10, 108):
        perm = deck.permutation(seed_of(0), TABLE, 1, 2, n)
        assert sorted(perm) == list(range(n))
        assert perm == _reference_permutation(seed_of(0), TABLE, 1, 2, n)
    # Known answer (docs/protocol.md, part 2, "Test vectors").
    assert deck.permutation(bytes(32), TABLE, 0, 1, 10) == (8, 9, 2, 6, 4, 5, 7, 1, 0, 3)


def test_derive_refuses_inputs_of_the_wrong_shape():
    for args in (
        (b"short", TABLE, 0, 0, 5),
        (seed_of(0), b"x", 0, 0, 5),
        (seed_of(0), TABLE, True, 0, 5),
        (seed_of(0), TABLE, 0, -1, 5),
        (seed_of(0), TABLE, 0, 0, 0),
    ):
        with pytest.raises(DeckProofError):
            EventSecrets.derive(*args)


def test_a_deck_with_one_identity_twice_is_refused():
    with pytest.raises(DeckProofError, match="'b' twice"):
        CardIndex.build(TABLE, "main", ["a", "b", "c", "b"])


# --- an honest event ---------------------------------------------------------------------------


def test_a_four_seat_event_opens_cards_to_one_seat_and_to_everyone():
    ev = Event(n=24, participants=(1, 2, 3, 0)).setup()  # seat 1 is the first participant, 0 is L
    # Position k holds Z_k = (Π_i b_{i,k})·M(card at k).
    for k in range(ev.n):
        total = group.scalar_from_int(1)
        for s in ev.secrets.values():
            total = group.scalar_mul(total, s.lock_keys[k])
        assert ev.row[k] == group.mult(total, group.card_point(TABLE, "main", ev.card_at(k)))
    for to, positions in ((2, [0, 1, 2, 3, 4]), (0, [5, 6]), (1, [7]), (3, [8, 9, 10])):
        assert ev.open_to(to, positions) == [ev.card_at(k) for k in positions]
    assert ev.reveal_all([11, 12]) == [ev.card_at(11), ev.card_at(12)]
    audit = ev.audit()
    assert audit.ok and audit.faults == ()
    assert audit.cards == tuple(ev.card_at(k) for k in range(ev.n))
    assert sorted(audit.cards) == sorted(ev.index.cards)


def test_opening_to_a_seat_that_holds_no_lock_makes_the_card_public():
    # Every participant unlocks, so the last unlock publishes M(card) itself: anyone decodes it.
    ev = Event(n=6, participants=(0, 1)).setup()
    assert ev.open_to(5, [0, 3]) == [ev.card_at(0), ev.card_at(3)]
    public = ev.entries[-1].body["points"]
    assert [ev.index.lookup.get(p) for p in public] == [ev.card_at(0), ev.card_at(3)]


def test_one_participant_event():
    ev = Event(n=5, participants=(2,)).setup()
    assert ev.open_to(2, [0, 1, 2, 3, 4]) == [ev.card_at(k) for k in range(5)]
    assert ev.audit().ok


def test_bodies_have_the_documented_fields_and_are_canonical():
    ev = Event(n=4, participants=(0, 1, 2))
    b1 = deck.make_shuffle_pass(ev.secrets[0], ev.row, last=False)
    assert sorted(b1) == ["A", "commit", "event", "points"] and len(b1["points"]) == 4
    ev.setup()
    last = ev.entries[2].body
    assert sorted(last) == ["commit", "event", "locks", "points"]
    lock = ev.entries[3].body
    assert sorted(lock) == ["event", "locks", "points", "proofs"]
    assert all(len(p) == 64 for p in lock["proofs"]) and all(len(p) == 32 for p in lock["points"])
    un = deck.make_unlock(ev.secrets[1], 0, [1, 3], ev.current([1, 3]))
    assert sorted(un) == ["event", "points", "positions", "proofs", "to"] and un["positions"] == [1, 3]
    assert sorted(deck.make_reveal(ev.secrets[0], [2])) == ["event", "keys", "positions"]
    assert sorted(deck.make_complaint(ev.secrets[0], 2)) == ["event", "key", "position"]
    assert sorted(deck.make_seed_reveal(ev.secrets[0])) == ["event", "seed"]
    for body in (b1, last, lock, un):
        assert wire(body) == body


def test_an_open_with_the_right_key_and_card_is_accepted():
    ev = Event(n=6, participants=(0, 1)).setup()
    ev.open_to(1, [2])
    point = ev.cur[2]
    key = ev.secrets[1].lock_keys[2]
    card = group.card_point(TABLE, "main", ev.card_at(2))
    deck.check_open(key, ev.locks[1][2], point, card, "seat 1's card")
    other = group.card_point(TABLE, "main", "card 99")
    with pytest.raises(BadReveal, match="card claimed"):
        deck.check_open(key, ev.locks[1][2], point, other, "seat 1's card")
    with pytest.raises(BadReveal):
        deck.check_open(ev.secrets[1].lock_keys[3], ev.locks[1][2], point, card, "seat 1's card")


# --- cheats caught as they arrive --------------------------------------------------------------


def _swap(lst, i, j):
    lst[i], lst[j] = lst[j], lst[i]


def test_an_unlock_to_a_wrong_point_is_refused():
    ev = Event(n=6).setup()

    def wrong(body):
        body["points"][0] = group.card_point(TABLE, "main", "card 2")
        return body

    with pytest.raises(BadProof, match="Seat 0's unlock: the proof for position 1"):
        ev.unlock(0, 3, [1, 2], tamper=wrong)


def test_a_forged_proof_is_refused():
    ev = Event(n=6).setup()

    def forged(body):
        body["proofs"][1] = hashlib.sha512(b"forged").digest()
        return body

    with pytest.raises(BadProof, match="position 2"):
        ev.unlock(1, 3, [1, 2], tamper=forged)
    ev2 = Event(n=6)
    for p in ev2.participants:
        ev2.shuffle(p)
    with pytest.raises(BadProof, match="position 1"):
        ev2.lock(0, tamper=forged)


def test_a_lock_pass_that_swaps_two_positions_is_refused():
    ev = Event(n=6)
    for p in ev.participants:
        ev.shuffle(p)

    def swap_all(body):
        for key in ("points", "locks", "proofs"):
            _swap(body[key], 2, 4)
        return body

    def swap_points(body):
        _swap(body["points"], 2, 4)
        return body

    for tamper in (swap_all, swap_points):
        with pytest.raises(BadProof, match="position 2"):
            ev.lock(0, tamper=tamper)


def test_a_lock_pass_with_a_key_other_than_its_shuffle_key_is_refused():
    ev = Event(n=4)
    for p in ev.participants:
        ev.shuffle(p)
    impostor = EventSecrets.derive(seed_of(0, b"other"), TABLE, 0, 0, 4)
    body = wire(deck.make_lock_pass(impostor, ev.row))
    with pytest.raises(BadProof):
        deck.check_lock_pass(body, table=TABLE, event=0, seat=0, n=4, inputs=ev.row, A=ev.shuffled[0].A)


@pytest.mark.parametrize("bad", [SMALL_ORDER_8, NON_CANONICAL, bytes(32)])
def test_invalid_and_small_order_points_are_refused_everywhere(bad):
    ev = Event(n=5)

    def plant(field, i=1):
        def tamper(body):
            if isinstance(body[field], list):
                body[field][i] = bad
            else:
                body[field] = bad
            return body

        return tamper

    with pytest.raises(BadPoint, match="position 1"):
        ev.shuffle(0, tamper=plant("points"))
    with pytest.raises(BadPoint, match="A"):
        ev.shuffle(0, tamper=plant("A"))
    for p in ev.participants[:-1]:
        ev.shuffle(p)
    with pytest.raises(BadPoint, match="lock for position 1"):
        ev.shuffle(3, tamper=plant("locks"))
    ev.shuffle(3)
    with pytest.raises(BadPoint, match="point for position 1"):
        ev.lock(0, tamper=plant("points"))
    with pytest.raises(BadPoint, match="lock for position 1"):
        ev.lock(0, tamper=plant("locks"))
    for p in ev.participants[:-1]:
        ev.lock(p)
    with pytest.raises(BadPoint, match="position 3"):
        ev.unlock(0, 2, [1, 3], tamper=plant("points"))


def test_repeated_points_in_a_pass_are_refused():
    ev = Event(n=5)

    def repeat(field, i=1, j=3):
        def tamper(body):
            body[field][j] = body[field][i]
            return body

        return tamper

    with pytest.raises(DuplicatePoints, match="positions 1 and 3"):
        ev.shuffle(0, tamper=repeat("points"))
    for p in ev.participants[:-1]:
        ev.shuffle(p)
    with pytest.raises(DuplicatePoints):
        ev.shuffle(3, tamper=repeat("locks"))
    ev.shuffle(3)
    with pytest.raises(DuplicatePoints):
        ev.lock(0, tamper=repeat("points"))
    with pytest.raises(DuplicatePoints):
        ev.lock(0, tamper=repeat("locks"))
    for p in ev.participants[:-1]:
        ev.lock(p)
    with pytest.raises(DuplicatePoints, match="positions 1 and 3"):
        ev.unlock(0, 2, [1, 3], tamper=repeat("points", 0, 1))


def test_a_zero_or_unreduced_reveal_key_is_refused():
    ev = Event(n=4).setup()
    for bad in (bytes(32), group.L.to_bytes(32, "little"), (group.L + 2).to_bytes(32, "little")):
        body = {"event": 0, "positions": [1], "keys": [bad]}
        with pytest.raises(BadScalar, match="key for position 1"):
            deck.check_reveal(body, event=0, seat=0, n=4, current={1: ev.row[1]}, locks=ev.locks[0])


def test_a_reveal_key_that_does_not_match_its_lock_is_refused():
    ev = Event(n=4).setup()
    body = deck.make_reveal(ev.secrets[0], [1, 2])
    body["keys"][1] = ev.secrets[0].lock_keys[3]
    with pytest.raises(BadReveal, match="position 2"):
        deck.check_reveal(body, event=0, seat=0, n=4, current={1: ev.row[1], 2: ev.row[2]}, locks=ev.locks[0])


@pytest.mark.parametrize(
    "tamper, message",
    [
        (lambda b: {**b, "event": 1}, "event 1, not event 0"),
        (lambda b: {**b, "event": False}, "must be an int"),
        (lambda b: {**b, "extra": 1}, "unknown field 'extra'"),
        (lambda b: {k: v for k, v in b.items() if k != "proofs"}, "missing the field 'proofs'"),
        (lambda b: {**b, "to": 1}, "addressed to seat 1"),
        (lambda b: {**b, "positions": [2, 1]}, "increasing order"),
        (lambda b: {**b, "positions": [1, 1]}, "increasing order"),
        (lambda b: {**b, "positions": [1, 9]}, "from 0 to 4"),
        (lambda b: {**b, "positions": [1, 4]}, "not waiting"),
        (lambda b: {**b, "points": b["points"][:1]}, "must have 2 items"),
        (lambda b: {**b, "proofs": [p[:63] for p in b["proofs"]]}, "64 bytes"),
    ],
)
def test_malformed_unlocks_are_refused_with_a_sentence(tamper, message):
    ev = Event(n=5).setup()
    with pytest.raises(BadBody, match=message):
        ev.unlock(0, 2, [1, 2], tamper=tamper)


def test_malformed_shuffles_and_locks_are_refused():
    ev = Event(n=5)
    with pytest.raises(BadBody, match="must have 5 items"):
        ev.shuffle(0, tamper=lambda b: {**b, "points": b["points"][:4]})
    with pytest.raises(BadBody, match="unknown field 'locks'"):
        ev.shuffle(0, tamper=lambda b: {**b, "locks": []})
    with pytest.raises(BadBody):
        deck.check_shuffle_pass([1, 2], event=0, seat=0, n=5, last=False)
    for p in ev.participants:
        ev.shuffle(p)
    with pytest.raises(BadBody, match="must have 5 items"):
        ev.lock(0, tamper=lambda b: {**b, "proofs": b["proofs"][:4]})


# --- cheats caught only at the seed reveal -----------------------------------------------------


def _replace_card(ev, seat, position, card):
    """A pass-1 tamper: output ``position`` becomes a·M(card) instead of a·X_σ(position)."""

    def tamper(body):
        body["points"][position] = group.mult(ev.secrets[seat].shuffle_key, group.card_point(TABLE, "main", card))
        return body

    return tamper


def test_a_pass_1_that_replaces_a_card_is_caught_at_the_seed_reveal():
    ev = Event(n=8)
    ev.shuffle(0, tamper=_replace_card(ev, 0, 3, "forged card"))  # passes every check
    for p in ev.participants[1:]:
        ev.shuffle(p)
    for p in ev.participants[:-1]:
        ev.lock(p)
    audit = ev.audit()
    assert not audit.ok
    fault = audit.first_fault
    assert (fault.seat, fault.seq, fault.kind) == (0, 0, "shuffle")
    assert "first at item 3" in fault.detail
    assert len(audit.faults) == 1
    assert len(audit.not_cards) == 1 and audit.cards.count(None) == 1


def test_a_last_step_that_duplicates_a_card_is_caught_at_the_seed_reveal():
    # L's step has no proof: L can lock one input twice under two position keys.
    ev = Event(n=8)
    for p in ev.participants[:-1]:
        ev.shuffle(p)
    s = ev.secrets[ev.last]

    def duplicate(body):
        body["points"][0] = group.mult(s.lock_keys[0], ev.row[s.perm[1]])
        return body

    ev.shuffle(ev.last, tamper=duplicate)  # passes every check
    for p in ev.participants[:-1]:
        ev.lock(p)
    audit = ev.audit()
    assert (audit.first_fault.seat, audit.first_fault.kind) == (ev.last, "shuffle")
    assert audit.duplicates == ((ev.card_at(1), (0, 1)),)
    assert audit.not_cards == ()


def test_a_seed_that_does_not_match_its_commitment_is_caught():
    ev = Event(n=5).setup()
    ev.open_to(1, [0])
    with pytest.raises(BadSeed, match="Seat 2's seed reveal"):
        deck.check_seed_reveal(
            {"event": 0, "seed": seed_of(2, b"other")}, table=TABLE, event=0, seat=2, commit=ev.shuffled[2].commit
        )
    good = deck.make_seed_reveal(ev.secrets[2])
    assert deck.check_seed_reveal(wire(good), table=TABLE, event=0, seat=2, commit=ev.shuffled[2].commit) == seed_of(2)
    seeds = {p: s.seed for p, s in ev.secrets.items()} | {2: seed_of(2, b"other")}
    audit = ev.audit(seeds)
    assert audit.first_fault.seat == 2 and audit.first_fault.kind == "shuffle"
    assert "commitment" in audit.first_fault.detail
    assert audit.cards is None and not audit.ok


def test_a_participant_that_locks_or_unlocks_with_other_keys_is_named():
    # Keys that pass every check but are not the seed's (a participant using a second seed).
    ev = Event(n=4)
    for p in ev.participants:
        ev.shuffle(p)
    ev.lock(0)
    ev.lock(1)
    ev.lock(2)
    ev.open_to(3, [0, 1])
    honest = {p: s.seed for p, s in ev.secrets.items()}
    assert ev.audit(honest).ok
    entries = list(ev.entries)
    ev.entries = (
        entries[:5]
        + [EventEntry(5, 1, "lock", entries[5].body | {"points": entries[5].body["points"][::-1]})]
        + entries[6:]
    )
    audit = ev.audit(honest)
    assert audit.first_fault.seq == 5 and audit.first_fault.seat == 1


def test_missing_seeds_and_unfinished_events_are_not_decoded():
    ev = Event(n=4)
    ev.shuffle(0)
    audit = ev.audit()
    assert audit.faults == () and audit.cards is None and not audit.ok
    ev = Event(n=4).setup()
    audit = ev.audit({0: seed_of(0), 1: seed_of(1), 2: seed_of(2)})
    assert audit.first_fault.seat == 3 and audit.first_fault.kind == "seed-reveal" and audit.cards is None


def test_steps_out_of_order_are_faults():
    ev = Event(n=4).setup()
    entries = list(ev.entries)
    ev.entries = [entries[1], entries[0]] + entries[2:]
    assert ev.audit().first_fault.seat == 1
    assert "order" in ev.audit().first_fault.detail


# --- complaints --------------------------------------------------------------------------------


def _complain(ev, seat, position, seen=(), body=None):
    body = body or deck.make_complaint(ev.secrets[seat], position)
    return deck.check_complaint(
        wire(body),
        event=ev.event,
        seat=seat,
        n=ev.n,
        lock=ev.locks[seat][position],
        point=ev.current([position])[position],
        index=ev.index.lookup,
        seen=seen,
    )


def test_a_true_complaint_about_a_card_that_is_not_a_card():
    ev = Event(n=6)
    ev.shuffle(0, tamper=_replace_card(ev, 0, 2, "forged card"))
    for p in ev.participants[1:]:
        ev.shuffle(p)
    for p in ev.participants[:-1]:
        ev.lock(p)
    bad = ev.audit().not_cards[0]
    assert ev.open_to(1, [bad]) == [None]
    assert "holds no card" in _complain(ev, 1, bad)


def test_a_true_complaint_about_a_card_already_seen():
    ev = Event(n=6).setup()
    card = ev.open_to(2, [4])[0]
    assert "already seen" in _complain(ev, 2, 4, seen={card})


def test_a_false_complaint_is_refused():
    ev = Event(n=6).setup()
    ev.open_to(2, [4])
    with pytest.raises(FalseComplaint, match="Seat 2's complaint is false"):
        _complain(ev, 2, 4, seen={"card 99"})


def test_a_complaint_with_a_key_that_is_not_the_seats_is_refused():
    ev = Event(n=6).setup()
    ev.open_to(2, [4])
    body = {"event": 0, "position": 4, "key": ev.secrets[2].lock_keys[5]}
    with pytest.raises(BadReveal):
        _complain(ev, 2, 4, body=body)
    with pytest.raises(BadScalar):
        _complain(ev, 2, 4, body={"event": 0, "position": 4, "key": bytes(32)})


# --- property ----------------------------------------------------------------------------------


@given(
    n=st.integers(1, 7),
    seats=st.lists(st.integers(0, 6), min_size=1, max_size=4, unique=True),
    seeds=st.lists(st.binary(min_size=32, max_size=32), min_size=4, max_size=4),
    data=st.data(),
)
@settings(max_examples=25, deadline=None)
def test_every_card_decodes_exactly_once(n, seats, seeds, data):
    ev = Event(
        n=n, participants=seats, event=data.draw(st.integers(0, 3)), seeds={p: seeds[i] for i, p in enumerate(seats)}
    ).setup()
    got = []
    for k in range(n):
        to = data.draw(st.sampled_from(seats + [7]), label=f"to {k}")
        got += ev.open_to(to, [k])
    assert sorted(got) == sorted(ev.index.cards)
    audit = ev.audit()
    assert audit.ok and tuple(got) == audit.cards


def test_the_vectors_of_the_byte_level_document():
    # docs/protocol.md, part 2, "Test vectors": a second implementation must give these bytes.
    s = EventSecrets.derive(bytes(32), TABLE, 0, 1, 4)
    assert s.commit.hex() == "7fd2989404a0c95b7babc9f4ca625d5afab2705aec69956ef9b6a4a0bbed5f77"
    assert s.shuffle_key.hex() == "87426b9d5f754a42e25171b1f0f83ec30168186c2ab97aa6aa55e0a3b4aa7f03"
    assert s.A.hex() == "1d1c62453fd95e6732da2fc4f92c863b3fa553103616a09f544d7eb8e80bcf31"
    assert s.perm == (1, 0, 3, 2)
    assert s.lock_keys[0].hex() == "729b87bab5776f91dc349000d30ef2c3bfcfa710fdd853d973d26c8c736bff09"
    assert s.nonce_key.hex() == "590d9144d0b73d4d6eb75a13a6c4ddd2eb442744674c364eb9fed5dfa67cb29a"
    cards = [group.card_point(TABLE, "main", f"card {i}") for i in range(4)]
    assert cards[0].hex() == "5d948bf6ba9573be1fdd806949147f179147cf35e19410dc3ea812ac4833d3ee"
    shuffled = deck.make_shuffle_pass(s, cards, last=False)
    assert shuffled["points"][0].hex() == "6415d722f6e36a8a58da07a118e17494f676fadfb511aedb77e50702b553815b"
    locked = deck.make_lock_pass(s, shuffled["points"])
    assert locked["points"][0].hex() == "4141010e1b5123bcb362cd422569d5240ca1d7a9eb9a837f806bf28ea1721215"
    assert locked["locks"][0].hex() == "29d6e63ea648860e6f4db6dee178f2ecd6d0e83e1b16ff5f8df5692c4f2a646c"
    assert locked["proofs"][0].hex() == (
        "915e97a47a63e2b4e23508d4d551bc8b2b44cd03018e6955aa4d6ead72c48602"
        "d44a78be48d60911a12c26cf998b6adfa2e21ae453ef85e7b9822f2b45133c08"
    )


def test_the_audit_needs_the_input_points_and_participants():
    ev = Event(n=3).setup()
    for kwargs in ({"inputs": ()}, {"participants": ()}):
        args = (
            dict(
                table=TABLE,
                event=0,
                participants=ev.participants,
                seeds={},
                inputs=ev.index.points,
                index=ev.index.lookup,
                entries=ev.entries,
            )
            | kwargs
        )
        with pytest.raises(DeckProofError):
            deck.recompute_event(**args)


def test_a_card_opened_to_its_holder_then_played_is_audited_on_one_chain_per_position():
    ev = Event(n=6).setup()
    assert ev.open_to(2, [1, 4]) == [ev.card_at(1), ev.card_at(4)]
    # Seat 2 plays the card at position 4: it publishes its key; nothing else locks the position.
    body = wire(deck.make_reveal(ev.secrets[2], [4]))
    out = deck.check_reveal(body, event=0, seat=2, n=6, current=ev.current([4]), locks=ev.locks[2])
    ev.record(2, "reveal", body)
    assert deck.decode_point(out.points[0], ev.index.lookup) == ev.card_at(4)
    assert ev.audit().ok
    # An unlock recomputed on another chain than the position's current point is named.
    ev.entries.append(EventEntry(99, 0, "unlock", deck.make_unlock(ev.secrets[0], 3, [1], {1: ev.row[1]})))
    assert ev.audit().first_fault.seq == 99
