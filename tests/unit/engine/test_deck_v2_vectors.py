"""The reference values of the deck protocol, version 2 (shared/vectors/deck-v2.md), byte for byte,
and its two edge cases (PROTOCOL.md 6.1, 6.4).

Set-up of deck-v2.md: table id = bytes 00 01 … 1f; event 0; four seats 0–3; the seed of seat i is
32 bytes of value i; deck "main" with cards "card 0" … "card 3", a public deck; seat 1 shuffles it.

The file's last four rows ("power: A", "power: Y_0", "power: v", "power: SHA-256 of canonical
proof") belong to a same-power shuffle variant that is not part of version 2 (deck-v2.md says so
itself): this project keeps no power shuffle, so they are not reproduced here.
"""

from __future__ import annotations

import hashlib

import pytest

from engine.protocol import codec, group
from engine.protocol.deck import BadPoint
from engine.protocol.elgamal import (
    IDENTITY,
    Ciphertext,
    ElGamalSecrets,
    check_ciphertexts,
    joint_key,
    make_share,
    make_shuffle,
    private_deck,
    prove_key,
    public_deck,
    reencrypt,
    verify_key,
    verify_share,
)
from engine.protocol.shuffle_proof import (
    CHAIN_GENERATOR,
    generators,
    nonce_scalars,
    proof_size,
    prove,
    shuffle_and_prove,
    shuffle_context,
    statement_hash,
    verify,
)

TABLE = bytes(range(32))
EVENT = 0
SEATS = 4
N = 4
SHUFFLER = 1

VECTORS = {
    "x_1": "8019aa070bf22bd66541e1ae54fcbb9545aceefeb26746bb1a3f1ee076588802",
    "X_1": "a6eac354075cc538ba062f3aa1cf69829f19d2dc2c077e25b9995a933388ab7e",
    "key pok of seat 1": "633eec39219a5b8a86775243e0ed24ea202628e62e76a5caf3d1dfb403da1e02"
    "c6c69bc3b55850c076a95f1b28931a5495ac13dda49e1606e21f0ef33461af00",
    "joint key H": "0425f9446100c320d54d3b3dd28247366a8cf28c96d7ab10cafdbe8a978bd88a",
    "h_0": "bbd7c1c913ec06bfda951e5ac39d74718559adffb99580338487aaecbe36fef7",
    "J": "8ea6c1cd0a1a96ee6aac2183514e738b8410c642dbbbdeb87696464f8c34f023",
    "public deck card 0 c2": "8d4751f74372f8495700f3df1df6fe9ae26c7babd42861970cb584017f0df1c5",
    "rho_0": "1233a52ae2ce3973f88157cf8b2058e89ba2302601f49ecdea98ecf12cec030d",
    "output 0 c1": "18b38c0da477932d878dbc92d71f843bf1c86e1fb5c3b8e1baba51c035e6f4d3",
    "output 0 c2": "82a8cbb62b28c2f85d15a83025e50a8f6c3cb9f05a8afe5323b5e76e205e8754",
    "statement hash": "b7e7d5ac90e08e9addcdcf31956b6992882ece6f3797eb4ad1e953db7279f645",
    "u_0": "5d1b5ca86d83f7bfc0077ab1976c7109c0a6ab9c8f70db7e2dd482a89a751fb6",
    "seed": "758d3e1b23b04fbe40784d383a94dbf6f4bea8b2bb3b60a75eba0ff4cb30d3f5",
    "e_0": "152351d15ae9a356b98aa04f9f50e80c1d76d97575a01170eb96922a205af105",
    "B_0": "fad37bcc27340a96130a4c3d8f83c99b81484b17079e36a43d3cbed1e30991ad",
    "v": "d2ea66f1d6f4967324c31182376c9a4207e615239a7a3ae18e17a03fa80b1708",
    "k_F": "f9478840cf50aa38a65f2de598f6e97479fb79be43a098dd064c889a36fe3e02",
    "SHA-256 of canonical proof": "faf47f4327b27bda444c25c3a1b82980b61eecae1f91b86e4d4c3396c1785076",
    "share of seat 0 for output 0": "a81b7e3a3e0e58aee02e9114788ea5068af3e08bbc53928a94101b609d56434f",
    "its DLEQ proof": "046b9ed5c42263a8c3b9b92cfddf61e630bae0c5e9e5a6427d0c79b5bded960f"
    "234c473cec6f1a7782e9e9d4f8df3bf8ce2e79a2722e0a476fe3009e5ac33a0f",
}
SIGMA_OF_SEAT_1 = (0, 2, 1, 3)
PROOF_BYTES = 719


class Setup:
    """The computations of deck-v2.md's set-up, each value kept for its row."""

    def __init__(self) -> None:
        self.secrets = [ElGamalSecrets.derive(bytes([i]) * 32, TABLE, EVENT, i, N) for i in range(SEATS)]
        self.joint = joint_key([s.X for s in self.secrets])
        self.points = [group.card_point(TABLE, "main", f"card {k}") for k in range(N)]
        self.inputs = public_deck(self.joint, self.points)
        self.shuffler = self.secrets[SHUFFLER]
        self.outputs = make_shuffle(self.shuffler, self.joint, self.inputs)
        self.context = shuffle_context(TABLE, EVENT, SHUFFLER)
        self.st = statement_hash(self.context, self.joint, self.inputs, self.outputs)
        s = self.shuffler
        self.proof = prove(self.context, self.joint, self.inputs, self.outputs, s.perm, s.rho, s.nonce_key)
        self.w = codec.sha256("shuffle-seed", self.st, self.proof[0])
        self.share, self.share_proof = make_share(self.secrets[0], self.outputs[0][0], 0)


@pytest.fixture(scope="module")
def setup() -> Setup:
    return Setup()


def values(s: Setup) -> dict[str, bytes]:
    return {
        "x_1": s.shuffler.x,
        "X_1": s.shuffler.X,
        "key pok of seat 1": prove_key(s.shuffler),
        "joint key H": s.joint,
        "h_0": generators(1)[0],
        "J": CHAIN_GENERATOR,
        "public deck card 0 c2": s.inputs[0][1],
        "rho_0": s.shuffler.rho[0],
        "output 0 c1": s.outputs[0][0],
        "output 0 c2": s.outputs[0][1],
        "statement hash": s.st,
        "u_0": s.proof[0][0],
        "seed": s.w,
        "e_0": group.hash_to_scalar("shuffle-e", s.w, 0),
        "B_0": s.proof[1][0],
        "v": s.proof[2],
        "k_F": s.proof[8],
        "SHA-256 of canonical proof": hashlib.sha256(codec.encode(s.proof)).digest(),
        "share of seat 0 for output 0": s.share,
        "its DLEQ proof": s.share_proof,
    }


@pytest.mark.parametrize("row", list(VECTORS))
def test_row(setup: Setup, row: str) -> None:
    assert values(setup)[row].hex() == VECTORS[row]


def test_sigma_of_seat_1(setup: Setup) -> None:
    assert setup.shuffler.perm == SIGMA_OF_SEAT_1


def test_proof_bytes(setup: Setup) -> None:
    assert proof_size(setup.proof) == PROOF_BYTES


def test_shuffle_and_prove_makes_the_same_entry(setup: Setup) -> None:
    assert shuffle_and_prove(setup.shuffler, setup.joint, setup.inputs) == (setup.outputs, setup.proof)


def test_every_value_of_the_set_up_verifies(setup: Setup) -> None:
    s = setup
    assert verify_key(TABLE, EVENT, SHUFFLER, s.shuffler.X, prove_key(s.shuffler))
    assert verify(s.context, s.joint, s.inputs, s.outputs, s.proof)
    assert verify_share(TABLE, EVENT, 0, 0, s.secrets[0].X, s.outputs[0][0], s.share, s.share_proof)
    # The public deck's first card is [G, M + H] (randomness 1).
    assert s.inputs[0] == (group.G, group.add(s.points[0], s.joint))


# --- the two edge cases of deck-v2.md ---------------------------------------------------------------


def test_a_shuffle_that_cancels_the_randomness_is_refused(setup: Setup) -> None:
    """ρ_0 = ℓ − 1 on a public-deck card gives output 0 = [identity, M]: the card in the clear. The
    identity is not a valid point: the output and a proof for it are refused."""
    s = setup
    rho = (group.scalar_from_int(group.L - 1), *s.shuffler.rho[1:])
    outputs: list[Ciphertext] = reencrypt(s.inputs, s.shuffler.perm, rho, s.joint)
    assert outputs[0] == (IDENTITY, s.points[s.shuffler.perm[0]])
    proof = prove(s.context, s.joint, s.inputs, outputs, s.shuffler.perm, rho, s.shuffler.nonce_key)
    assert not verify(s.context, s.joint, s.inputs, outputs, proof)
    with pytest.raises(BadPoint):
        check_ciphertexts([list(c) for c in outputs], N, "seat 1's cards")


def test_a_proof_whose_commitment_randomness_sums_to_zero_verifies(setup: Setup) -> None:
    """r_0 + … + r_{n−1} = 0 mod ℓ makes C_u the identity inside the verification: still valid."""
    s = setup
    stream = nonce_scalars(s.shuffler.nonce_key, s.st)
    drawn = [next(stream) for _ in range(4 * N + 4)]
    drawn[N - 1] = group.scalar_from_int(-sum(group.scalar_to_int(r) for r in drawn[: N - 1]))
    assert sum(group.scalar_to_int(r) for r in drawn[:N]) % group.L == 0
    sh = s.shuffler
    proof = prove(s.context, s.joint, s.inputs, s.outputs, sh.perm, sh.rho, sh.nonce_key, randomness=iter(drawn))
    assert proof[5] != s.proof[5]  # k_C = γ here: a different proof of the same statement
    assert verify(s.context, s.joint, s.inputs, s.outputs, proof)


# --- further values of the same set-up (docs/protocol.md 6.6) ---------------------------------------

FURTHER = {
    "commitment of seat 1": "904699c57572d8677d22597f423475ef09c657cc247ef13dd10b404cec1fe8b2",
    "nonce key of seat 1": "0798bbe2d4a940aa75570415f71708eb965765b27b3463515c3936f791e8d91d",
    "r_0 of seat 1": "5d686b3c97aa4167f0b93158c28f09735ed7160e5a5ad593191166410a94a90e",
    "private deck card 0, c1": "e6bfc5707d3a5a1aa08e7ff12a77222b4d6493e25ab0ba81399da0313792a1cb",
    "private deck card 0, c2": "79638fe99882f368c12c55cddf753042beec570cf618493f5190f9def70675d7",
    "SHA-256 of the one-card proof": "97c56a53552a45897a631343df0a83e28b2b678a38aa34ca6c596e216bebf35b",
}


def test_further_values(setup: Setup) -> None:
    owner = ElGamalSecrets.derive(bytes([1]) * 32, TABLE, EVENT, SHUFFLER, N, owner=True)
    card0 = private_deck(owner, setup.joint, setup.points)[0]
    one = ElGamalSecrets.derive(bytes([1]) * 32, TABLE, EVENT, SHUFFLER, 1)
    inputs = public_deck(setup.joint, setup.points[:1])
    outputs = make_shuffle(one, setup.joint, inputs)
    proof = prove(setup.context, setup.joint, inputs, outputs, one.perm, one.rho, one.nonce_key)
    got = {
        "commitment of seat 1": owner.commit,
        "nonce key of seat 1": owner.nonce_key,
        "r_0 of seat 1": owner.deck_rand[0],
        "private deck card 0, c1": card0[0],
        "private deck card 0, c2": card0[1],
        "SHA-256 of the one-card proof": hashlib.sha256(codec.encode(proof)).digest(),
    }
    assert {k: v.hex() for k, v in got.items()} == FURTHER
    assert proof_size(proof) == 311
    assert verify(setup.context, setup.joint, inputs, outputs, proof)
