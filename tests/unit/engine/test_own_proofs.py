"""A process trusts the proofs and shares it made itself and verifies everything else; a proof that
verifies makes its entry's cheap checks needless (PROTOCOL.md 6.1, 6.4, 6.5; docs/protocol.md 6.9).

A proof is recognised by what this process produced, byte for byte and with its whole statement,
never by the seat an entry names: the same proof bytes under another seat, event, position, input,
output or joint key are verified, and fail. Properties over the set-up of shared/vectors/deck-v2.md:
every answer the own-proof registry and the memo give is the one a fresh verification gives, and a
proof that verifies always passes the cheap checks (so checking them only when it fails, as a table
that settles a proof at once does, gives the same verdict).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nacl import bindings as nb

from engine.protocol import codec, elgamal, group, shuffle_proof
from engine.protocol.deck import CardIndex, DeckProofError
from engine.protocol.elgamal import IDENTITY, ElGamalSecrets
from engine.protocol.group import G

# The set-up of deck-v2.md: table id 00 01 … 1f, event 0, seats 0–3 with seeds of 32 bytes of i,
# the public deck "main" of "card 0" … "card 3", shuffled by seat 1.
TABLE = bytes(range(32))
EVENT = 0
SEATS = 4
N = 4
SHUFFLER = 1
PROOF_SHA256 = "faf47f4327b27bda444c25c3a1b82980b61eecae1f91b86e4d4c3396c1785076"
SMALL_ORDER = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
NON_CANONICAL = (2**255 - 19 + 1).to_bytes(32, "little")
SLOW = settings(deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow])


class Deck:
    """The deck-v2.md set-up for ``n`` cards (the vectors' when ``n`` is 4 and ``salt`` 0)."""

    def __init__(self, n: int = N, salt: int = 0, event: int = EVENT) -> None:
        self.n, self.event = n, event
        seeds = [bytes([i]) * 32 if salt == 0 else hashlib.sha256(b"%d %d" % (i, salt)).digest() for i in range(SEATS)]
        self.secrets = [ElGamalSecrets.derive(seeds[i], TABLE, event, i, n) for i in range(SEATS)]
        self.joint = elgamal.joint_key([s.X for s in self.secrets])
        index = CardIndex.build(TABLE, "main", [f"card {k}" for k in range(n)])
        self.deck = elgamal.public_deck(self.joint, index.points)

    def context(self, seat: int = SHUFFLER) -> list[Any]:
        return shuffle_proof.shuffle_context(TABLE, self.event, seat)

    def shuffle(self, seat: int = SHUFFLER, inputs: Any = None) -> tuple[list[Any], list[Any]]:
        return shuffle_proof.shuffle_and_prove(self.secrets[seat], self.joint, self.deck if inputs is None else inputs)


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    """No proof made or verified by another test counts here, and none of this test's leaks out."""
    group.OWN_PROOFS.clear()
    group.VERIFY_MEMO._memo.clear()
    yield
    group.OWN_PROOFS.clear()
    group.VERIFY_MEMO._memo.clear()


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many verifications really ran, by kind (the registry and the memo answer the rest)."""
    counts = {"shuffle": 0, "dleq": 0, "key": 0}
    targets = [
        (shuffle_proof, "_check", "shuffle"),
        (group, "dleq_verify_uncached", "dleq"),
        (elgamal, "_verify_key", "key"),
    ]
    for module, name, kind in targets:
        real = getattr(module, name)

        def counted(*args: Any, _real: Any = real, _kind: str = kind, **kwargs: Any) -> Any:
            counts[_kind] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)
    return counts


# --- shuffles ----------------------------------------------------------------------------------------


def test_a_shuffle_this_process_made_and_kept_is_not_verified_again(checks: dict[str, int]) -> None:
    d = Deck()
    outputs, proof = d.shuffle()
    assert hashlib.sha256(codec.encode(proof)).hexdigest() == PROOF_SHA256  # the vectors' proof
    assert not shuffle_proof.known_valid(d.context(), d.joint, d.deck, outputs, proof)  # made, not kept
    assert shuffle_proof.remember(d.context(), d.joint, d.deck, outputs, proof)
    assert shuffle_proof.known_valid(d.context(), d.joint, d.deck, outputs, proof)
    assert shuffle_proof.verify(d.context(), d.joint, d.deck, outputs, proof)
    assert checks["shuffle"] == 0
    # What the registry answers is what a verification says.
    assert shuffle_proof.verify_uncached(d.context(), d.joint, d.deck, outputs, proof)


def _swap(cards: list[Any]) -> list[Any]:
    return [cards[1], cards[0], *cards[2:]]


ANOTHER_STATEMENT = {
    # The seat an entry names: the very bytes this process made, signed as another seat's.
    "another seat": lambda d, o: (d.context(2), d.joint, d.deck, o),
    "another event": lambda d, o: (shuffle_proof.shuffle_context(TABLE, EVENT + 1, SHUFFLER), d.joint, d.deck, o),
    "another table": lambda d, o: (shuffle_proof.shuffle_context(bytes(32), EVENT, SHUFFLER), d.joint, d.deck, o),
    "outputs swapped": lambda d, o: (d.context(), d.joint, d.deck, _swap(o)),
    "other inputs": lambda d, o: (d.context(), d.joint, _swap(d.deck), o),
    "another joint key": lambda d, o: (d.context(), elgamal.joint_key([s.X for s in d.secrets[:3]]), d.deck, o),
}


@pytest.mark.parametrize("change", sorted(ANOTHER_STATEMENT))
def test_the_same_proof_bytes_under_another_statement_are_verified_and_fail(
    change: str, checks: dict[str, int]
) -> None:
    d = Deck()
    outputs, proof = d.shuffle()
    assert shuffle_proof.remember(d.context(), d.joint, d.deck, outputs, proof)
    context, joint, inputs, outs = ANOTHER_STATEMENT[change](d, outputs)
    assert not shuffle_proof.known_valid(context, joint, inputs, outs, proof)
    assert not shuffle_proof.verify(context, joint, inputs, outs, proof)
    assert checks["shuffle"] == 1


def test_a_changed_byte_of_a_kept_proof_is_verified_and_fails(checks: dict[str, int]) -> None:
    d = Deck()
    outputs, proof = d.shuffle()
    shuffle_proof.remember(d.context(), d.joint, d.deck, outputs, proof)
    k_F = bytearray(proof[8])
    k_F[0] ^= 1
    changed = [*proof[:8], bytes(k_F)]
    assert not shuffle_proof.verify(d.context(), d.joint, d.deck, outputs, changed)
    assert checks["shuffle"] == 1


def test_nothing_is_kept_that_a_verifier_would_refuse() -> None:
    d = Deck()
    outputs, proof = d.shuffle()
    bad_outputs = [[IDENTITY, outputs[0][1]], *outputs[1:]]
    assert not shuffle_proof.remember(d.context(), d.joint, d.deck, bad_outputs, proof)
    assert not shuffle_proof.remember(d.context(), d.joint, d.deck, outputs, [[IDENTITY, *proof[0][1:]], *proof[1:]])
    assert not shuffle_proof.remember(d.context(), d.joint, d.deck, outputs, [*proof[:8], bytes(32)])  # k_F = 0
    assert not shuffle_proof.remember(d.context(), d.joint, d.deck, [outputs[0], *outputs[:-1]], proof)  # twice
    assert not shuffle_proof.known_valid(d.context(), d.joint, d.deck, bad_outputs, proof)


def test_with_the_registry_off_every_proof_is_verified(checks: dict[str, int]) -> None:
    d = Deck()
    outputs, proof = d.shuffle()
    shuffle_proof.remember(d.context(), d.joint, d.deck, outputs, proof)
    group.OWN_PROOFS.enabled = False
    try:
        assert shuffle_proof.verify(d.context(), d.joint, d.deck, outputs, proof)
    finally:
        group.OWN_PROOFS.enabled = True
    assert checks["shuffle"] == 1


# --- shares and keys ---------------------------------------------------------------------------------


def test_a_share_this_process_made_is_not_verified_again_and_its_bytes_elsewhere_are(checks: dict[str, int]) -> None:
    d = Deck()
    outputs, _ = d.shuffle()
    s0 = d.secrets[0]
    c1 = outputs[0][0]
    D, proof = elgamal.make_share(s0, c1, 0)
    assert elgamal.verify_share(TABLE, EVENT, 0, 0, s0.X, c1, D, proof)
    assert checks["dleq"] == 0
    # The same share and proof as another seat's, at another position, of another event: verified.
    assert not elgamal.verify_share(TABLE, EVENT, 1, 0, d.secrets[1].X, c1, D, proof)
    assert not elgamal.verify_share(TABLE, EVENT, 0, 1, s0.X, outputs[1][0], D, proof)
    assert not elgamal.verify_share(TABLE, EVENT + 1, 0, 0, s0.X, c1, D, proof)
    assert checks["dleq"] == 3
    assert group.dleq_verify_uncached(G, s0.X, c1, D, proof, elgamal.share_context(TABLE, EVENT, 0, 0))


def test_a_key_proof_this_process_made_is_not_verified_again_and_its_bytes_elsewhere_are(
    checks: dict[str, int],
) -> None:
    d = Deck()
    s1 = d.secrets[SHUFFLER]
    pok = elgamal.prove_key(s1)
    assert pok == elgamal.key_proof(s1)
    assert elgamal.verify_key(TABLE, EVENT, SHUFFLER, s1.X, pok)
    assert checks["key"] == 0
    assert not elgamal.verify_key(TABLE, EVENT, 2, s1.X, pok)  # the seat an entry names
    assert not elgamal.verify_key(TABLE, EVENT + 1, SHUFFLER, s1.X, pok)
    assert checks["key"] == 2
    group.OWN_PROOFS.clear()
    group.VERIFY_MEMO._memo.clear()
    assert elgamal.verify_key(TABLE, EVENT, SHUFFLER, s1.X, pok)
    assert checks["key"] == 3


# --- properties: the registry, the memo and verify-first give a verification's verdicts ---------------


def _bad_point(kind: str, good: bytes) -> bytes:
    if kind == "small order":
        return SMALL_ORDER
    if kind == "identity":
        return IDENTITY
    if kind == "non-canonical":
        return NON_CANONICAL
    return nb.crypto_core_ed25519_add(good, SMALL_ORDER)  # mixed order


def _cheap_checks_pass(d: Deck, outputs: Any, proof: Any) -> bool:
    try:
        elgamal.check_ciphertexts(outputs, d.n, "the shuffle's cards")
        shuffle_proof.check_proof(proof, d.n)
    except DeckProofError:
        return False
    return True


@SLOW
@given(
    n=st.integers(1, 9),
    salt=st.integers(0, 2**16),
    seat=st.integers(0, SEATS - 1),
    where=st.sampled_from(["none", "output c1", "output c2", "u", "B", "scalar", "k_E"]),
    bad=st.sampled_from(["small order", "identity", "non-canonical", "mixed order", "changed"]),
    i=st.integers(0, 8),
)
def test_a_proof_that_verifies_passes_the_cheap_checks_and_every_answer_is_a_verifications(
    n: int, salt: int, seat: int, where: str, bad: str, i: int
) -> None:
    """Over the vectors' set-up (salt 0, n = 4: the vectors' own deck): an honest shuffle, or one of
    its points or scalars changed. Whatever changed, (1) a proof that verifies passes the cheap
    checks, so a table may make them only when it fails; (2) the memo and the own-proof registry
    answer exactly what a fresh verification says; (3) the honest proof is the one that verifies."""
    d = Deck(n, salt)
    outputs, proof = d.shuffle(seat)
    shuffle_proof.remember(d.context(seat), d.joint, d.deck, outputs, proof)
    outputs = [list(c) for c in outputs]
    proof = [list(x) if isinstance(x, list) else x for x in proof]
    j = i % n
    if where in ("output c1", "output c2"):
        side = 0 if where == "output c1" else 1
        old = outputs[j][side]
        outputs[j][side] = group.mult(group.scalar_from_int(3), old) if bad == "changed" else _bad_point(bad, old)
    elif where in ("u", "B"):
        f = 0 if where == "u" else 1
        old = proof[f][j]
        proof[f][j] = group.mult(group.scalar_from_int(3), old) if bad == "changed" else _bad_point(bad, old)
    elif where == "scalar":
        proof[3] = group.scalar_from_int(group.scalar_to_int(proof[3]) + 1)
    elif where == "k_E":
        proof[7][j] = bytes(32) if bad == "identity" else group.scalar_from_int(group.scalar_to_int(proof[7][j]) + 1)
    statement = (d.context(seat), d.joint, d.deck, outputs, proof)
    fresh = shuffle_proof.verify_uncached(*statement)
    assert fresh == (where == "none")
    if fresh:
        assert _cheap_checks_pass(d, outputs, proof)
    assert shuffle_proof.known_valid(*statement) == fresh  # kept: only the honest statement
    assert shuffle_proof.verify(*statement) == fresh  # registry, then memo, then a verification
    assert shuffle_proof.verify(*statement) == fresh  # the memo's answer
    assert shuffle_proof.known_valid(*statement) == fresh


@SLOW
@given(salt=st.integers(0, 2**16), seat=st.integers(0, SEATS - 1), k=st.integers(0, N - 1), flip=st.integers(0, 63))
def test_a_share_whose_proof_verifies_passes_the_cheap_checks(salt: int, seat: int, k: int, flip: int) -> None:
    d = Deck(N, salt)
    outputs, _ = d.shuffle()
    s = d.secrets[seat]
    c1 = outputs[k][0]
    D, proof = elgamal.make_share(s, c1, k)
    changed = bytearray(proof)
    changed[flip] ^= 1
    for share, p in ((D, proof), (D, bytes(changed)), (group.mult(group.scalar_from_int(2), D), proof)):
        fresh = group.dleq_verify_uncached(G, s.X, c1, share, p, elgamal.share_context(TABLE, EVENT, seat, k))
        assert elgamal.verify_share(TABLE, EVENT, seat, k, s.X, c1, share, p) == fresh
        if fresh:
            elgamal.check_share_fields(share, p)  # raises if a cheap check fails
    assert elgamal.verify_share(TABLE, EVENT, seat, k, s.X, c1, D, proof)
