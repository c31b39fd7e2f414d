"""The verifier's per-n constant Σ h_i (PROTOCOL.md 6.4: C_u = Σ u_i − Σ h_i), computed once per n
and process, is the sum of the generators whatever the order the sizes are asked in; proofs of the
reference vectors (shared/vectors/deck-v2.md, tests/unit/engine/test_deck_v2_vectors.py) and of
random shuffles verify with it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.protocol import shuffle_proof
from engine.protocol.elgamal import psum


@settings(max_examples=30, deadline=None)
@given(sizes=st.lists(st.integers(1, 120), min_size=1, max_size=4))
def test_the_sum_of_the_generators_is_the_same_computed_once_or_every_time(sizes: list[int]) -> None:
    shuffle_proof._GENERATOR_SUMS.clear()
    for n in sizes:
        assert shuffle_proof.generator_sum(n) == psum(shuffle_proof.generators(n))
        assert shuffle_proof.generator_sum(n) == psum(shuffle_proof.generators(n))  # kept
