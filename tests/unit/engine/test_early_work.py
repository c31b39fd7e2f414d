"""A seat's work made before it is owed (engine.seat.Seat._plan): the same bytes as the work made
when owed, against the reference values of shared/vectors/deck-v2.md and at whole tables; dropped
unpublished when the event or the opening it was made for never comes; and the table's count of
the work it still has to do (Table.work_steps), which the progress line shows.

PROTOCOL.md 6.2-6.5: early work changes no entry and no check; nothing is published before it is
owed, and no share before every shuffle of its event is verified.
"""

from __future__ import annotations

import hashlib
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.local import LocalGame, new_local_game
from engine.protocol import codec, group, shuffle_proof
from engine.protocol.elgamal import (
    ElGamalSecrets,
    joint_key,
    key_proof,
    make_share,
    make_shuffle,
    private_deck,
    private_deck_c1s,
    public_deck,
    reencryption_pads,
    remember_share,
    verify_key,
)
from engine.seat import Seat
from engine.table import EntryKind
from engine.table.work import ShuffleWork
from tests.unit.engine.test_deck_v2_vectors import EVENT, SEATS, SHUFFLER, TABLE, VECTORS, N

# -- the pieces, against the reference values ----------------------------------------------------


def _vector_setup() -> tuple[list[ElGamalSecrets], bytes, list[tuple[bytes, bytes]]]:
    secrets = [ElGamalSecrets.derive(bytes([i]) * 32, TABLE, EVENT, i, N) for i in range(SEATS)]
    joint = joint_key([s.X for s in secrets])
    inputs = public_deck(joint, [group.card_point(TABLE, "main", f"card {k}") for k in range(N)])
    return secrets, joint, inputs


def test_a_shuffle_made_from_pads_made_before_is_the_reference_shuffle_and_proof() -> None:
    secrets, joint, inputs = _vector_setup()
    shuffler = secrets[SHUFFLER]
    pads = reencryption_pads(shuffler, joint)  # made before the inputs were known
    outputs, proof = shuffle_proof.shuffle_and_prove(
        shuffler, joint, inputs, pads=pads, executor=shuffle_proof.parts_pool()
    )
    assert outputs[0][0].hex() == VECTORS["output 0 c1"]
    assert outputs[0][1].hex() == VECTORS["output 0 c2"]
    assert hashlib.sha256(codec.encode(proof)).hexdigest() == VECTORS["SHA-256 of canonical proof"]
    assert (outputs, proof) == shuffle_proof.shuffle_and_prove(shuffler, joint, inputs)


def test_a_key_proof_and_a_share_made_early_are_the_reference_ones_and_kept_only_when_used() -> None:
    secrets, joint, inputs = _vector_setup()
    shuffler = secrets[SHUFFLER]
    pok = key_proof(shuffler)  # made early: pure, nothing kept
    assert pok.hex() == VECTORS["key pok of seat 1"]
    assert verify_key(TABLE, EVENT, SHUFFLER, shuffler.X, pok)  # verified as anyone's, and valid
    outputs = make_shuffle(shuffler, joint, inputs)
    D, proof = make_share(secrets[0], outputs[0][0], 0, remember=False)
    assert D.hex() == VECTORS["share of seat 0 for output 0"]
    assert proof.hex() == VECTORS["its DLEQ proof"]
    key = group.dleq_key(group.G, secrets[0].X, outputs[0][0], D, proof, [TABLE, EVENT, 0, "share", 0])
    assert key is not None
    group.OWN_PROOFS.clear()
    assert key not in group.OWN_PROOFS  # made ahead of its entry: not kept as this process's own yet
    remember_share(secrets[0], outputs[0][0], 0, D, proof)
    assert key in group.OWN_PROOFS  # kept once its entry is made


@settings(max_examples=25, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), n=st.integers(1, 12), event=st.integers(0, 40))
def test_the_halves_made_early_give_the_same_deck_and_shuffle(seed: bytes, n: int, event: int) -> None:
    owner = ElGamalSecrets.derive(seed, TABLE, event, 2, n, owner=True)
    other = ElGamalSecrets.derive(hashlib.sha256(seed).digest(), TABLE, event, 0, n)
    joint = joint_key([owner.X, other.X])
    points = [group.card_point(TABLE, "library", f"card {k}") for k in range(n)]
    deck = private_deck(owner, joint, points, c1s=private_deck_c1s(owner))
    assert deck == private_deck(owner, joint, points)
    assert make_shuffle(other, joint, deck, pads=reencryption_pads(other, joint)) == make_shuffle(other, joint, deck)


# -- at a table ------------------------------------------------------------------------------------


def _check_every_duty(local: LocalGame) -> list[str]:
    """Make every seat's duty twice: once without its early work, once with it; they must be the
    same body (the secrets come from the seeds in the secrets file, so both are made alike)."""
    kinds: list[str] = []
    for seat in local.seats:
        real = seat.duty

        def duty(seat: Seat = seat, real: Any = real) -> Any:
            early, seat._early = seat._early, {}
            statements = list(early)
            plain = real()
            seat._early = early
            made = real()
            assert made == plain
            if made is not None and any(st[1] == made[1].get("event") for st in statements):
                kinds.append(str(made[0]))
            return made

        seat.duty = duty  # type: ignore[method-assign]
    return kinds


def test_at_a_queen_table_every_entry_made_early_is_the_entry_made_when_owed() -> None:
    local = new_local_game("queen", ["random"] * 4, {"rounds": 1}, seed=4)
    kinds = _check_every_duty(local)
    local.run()
    assert local.table.ended
    assert {"key", "shuffle", "share"} <= set(kinds)


def test_at_a_vtes_table_every_entry_made_early_is_the_entry_made_when_owed() -> None:
    local = new_local_game("vtes", ["heuristic"] * 2, seed=6)
    kinds = _check_every_duty(local)
    while str(local.table.gstate.step) != "play":
        assert local.step()
    assert {"key", "deck", "shuffle", "share"} <= set(kinds)


# -- dropped, unpublished ----------------------------------------------------------------------------


def _swap_in(seat: Seat, body: dict[str, Any]) -> dict[str, Any]:
    # A shuffle whose first card has a card of another deck added: its proof fails.
    c = body["cards"][0]
    other = group.card_point(seat.table.table_id, "another deck", "Q-0")
    body["cards"] = [[c[0], group.add(c[1], other)], *body["cards"][1:]]
    return body


def _early_of(seat: Seat) -> list[Any]:
    return [*seat._early, *seat._parts, *seat._derived]


def test_shares_made_before_the_last_proof_is_verified_are_dropped_when_it_fails() -> None:
    local = new_local_game("queen", ["random"] * 4, {"rounds": 1}, seed=9)
    t = local.table
    while not (isinstance(t.work, ShuffleWork) and len(t.events[t.work.event].shuffles) == 3):
        assert local.step()
    ((last, kind),) = t.owed()
    assert kind == EntryKind.SHUFFLE
    cheater = local.seats[last]
    entry = cheater.sign(kind, _swap_in(cheater, dict(cheater.duty()[1])))  # type: ignore[index]
    honest = local.seats[(last + 1) % 4]
    honest.fold(entry, defer_proof=True)  # folded unverified, as a peer over the network does
    shares = [st for st in honest._early if st[0] == "shares"]
    assert shares, "the honest seat started its shares while the proof was being verified"
    made = honest._early[shares[0]].result()
    assert honest.preparing() is None  # never offered to be sent before the proof is verified
    assert honest.duty() is None  # it verifies first: the table stops naming the cheater
    assert honest.table.fault is not None and honest.table.fault.seat == last
    assert _early_of(honest) == []
    ev = honest.table.events[0]
    for k, (D, proof) in zip(shares[0][2], made, strict=True):
        ctx = [t.table_id, ev.number, honest.index, "share", k]
        assert group.dleq_key(group.G, honest._secrets_for(ev).X, ev.cur[k][0], D, proof, ctx) not in group.OWN_PROOFS
    assert all(e.kind != "share" for e in honest.table.entries)


def test_work_for_an_event_a_seat_leaves_is_dropped_without_an_entry() -> None:
    local = new_local_game("queen", ["random"] * 4, {"rounds": 1, "stall_seconds": 0}, seed=2)
    t = local.table
    while not (isinstance(t.work, ShuffleWork) and len(t.events[t.work.event].shuffles) == 2):
        assert local.step()
    ev = t.events[t.work.event]
    stalled, after = ev.shufflers[2], ev.shufflers[3]
    # The last shuffler made its pads as soon as the joint key was in; the stalled seat never shuffles.
    assert any(st[0] == "pads" for st in local.seats[after]._parts)
    entries = len(t.entries)
    # More than half of the three others (PROTOCOL.md 6.5): two votes carry it.
    for voter in [s for s in range(4) if s != stalled][:2]:
        local.submit(local.seats[voter], "abandon", {"seat": stalled})
    assert t.phase == "over"  # a Vampire Queen game ends when a seat abandons
    assert local.step() and t.ended
    assert [e.kind for e in t.entries[entries:]] == ["abandon"] * 2 + ["end"]
    for seat in local.seats:
        seat.duty()  # nothing owed any more: what was made early is gone
        assert _early_of(seat) == []


def test_nothing_made_early_is_left_when_a_game_ends() -> None:
    local = new_local_game("queen", ["random"] * 3, {"rounds": 1}, seed=5)
    local.run()
    assert local.table.ended
    for seat in local.seats:
        assert _early_of(seat) == []


# -- the table counts its work -----------------------------------------------------------------------


def _batches(local: LocalGame, until: Any) -> list[list[tuple[int, int]]]:
    """The (done, total) of Table.work_steps before each entry, in runs of protocol work."""
    runs: list[list[tuple[int, int]]] = []
    previous = None
    while not until(local.table):
        steps = local.table.work_steps()
        if steps is not None:
            if previous is None or steps[0] == 0:
                runs.append([])
            runs[-1].append(steps)
        previous = steps
        assert local.step()
    return runs


def test_the_table_knows_how_long_its_work_is_from_its_first_entry() -> None:
    queen = new_local_game("queen", ["random"] * 3, {"rounds": 2}, seed=3)
    vtes = new_local_game("vtes", ["heuristic"] * 2, seed=3)
    runs = _batches(queen, lambda t: t.ended) + _batches(vtes, lambda t: str(t.gstate.step) == "play")
    assert len(runs) > 8
    for run in runs:
        total = run[0][1]
        assert run == [(done, total) for done in range(total)], run  # one entry each, to the end
    assert max(run[0][1] for run in runs) == 4 * 4  # a 2-seat VTES table's decks: 4 events of 4 entries
