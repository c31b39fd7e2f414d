"""Benchmarks of version 2's proof of shuffle (PROTOCOL.md 6.4): prove and verify time and proof size
for one shuffle of a public deck of n cards at a 4-seat table.

``bench_shuffle(n)`` returns a dict (seconds, bytes); ``python -m bench.pos`` prints it as JSON for
108 and 90 cards. Times are the best of ``repeat`` runs, with the per-process memo of verified
proofs off (every verification does its work).
"""

from __future__ import annotations

import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from engine.protocol import codec, elgamal, group, shuffle_proof

TABLE = bytes(range(32))
SEATS = 4


def _best(repeat: int, run: Any) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def bench_shuffle(n: int, repeat: int = 3) -> dict[str, Any]:
    """One seat's shuffle of a public deck of ``n`` cards under a 4-seat joint key.

    Keys: ``cards``; ``shuffle_s`` (re-encryption and permutation), ``prove_s``, ``verify_s`` (one
    thread), ``verify_split_s`` (one proof split over a thread pool of ``os.cpu_count()`` workers),
    ``verify_4_parallel_s`` (four proofs of this size verified at once in that pool, wall),
    ``proof_bytes`` (canonical msgpack), ``cards_bytes`` (the `shuffle` entry's ``cards``).
    """
    secrets = [elgamal.ElGamalSecrets.derive(bytes([s + 1]) * 32, TABLE, 0, s, n) for s in range(SEATS)]
    joint = elgamal.joint_key([s.X for s in secrets])
    points = [group.card_point(TABLE, "main", f"card {k}") for k in range(n)]
    inputs = elgamal.public_deck(joint, points)
    shuffler = secrets[1]
    context = shuffle_proof.shuffle_context(TABLE, 0, shuffler.seat)
    outputs = elgamal.make_shuffle(shuffler, joint, inputs)
    shuffle_proof.generators(n)  # the per-process cache, built once per table in real use

    def prove() -> list[Any]:
        return shuffle_proof.prove(context, joint, inputs, outputs, shuffler.perm, shuffler.rho, shuffler.nonce_key)

    proof = prove()
    memo_was = group.VERIFY_MEMO.enabled
    group.VERIFY_MEMO.enabled = False
    workers = os.cpu_count() or 2
    try:
        if not shuffle_proof.verify(context, joint, inputs, outputs, proof):
            raise RuntimeError("an honest proof of shuffle does not verify.")
        with ThreadPoolExecutor(workers) as pool:
            out = {
                "cards": n,
                "shuffle_s": round(_best(repeat, lambda: elgamal.make_shuffle(shuffler, joint, inputs)), 4),
                "prove_s": round(_best(repeat, prove), 4),
                "verify_s": round(
                    _best(repeat, lambda: shuffle_proof.verify(context, joint, inputs, outputs, proof)), 4
                ),
                "verify_split_s": round(
                    _best(repeat, lambda: shuffle_proof.verify(context, joint, inputs, outputs, proof, executor=pool)),
                    4,
                ),
                "verify_4_parallel_s": round(
                    _best(
                        repeat,
                        lambda: [
                            f.result()
                            for f in [
                                shuffle_proof.submit_verify(pool, context, joint, inputs, outputs, proof)
                                for _ in range(4)
                            ]
                        ],
                    ),
                    4,
                ),
                "workers": workers,
                "proof_bytes": shuffle_proof.proof_size(proof),
                "cards_bytes": len(codec.encode([list(c) for c in outputs])),
            }
    finally:
        group.VERIFY_MEMO.enabled = memo_was
    return out


def main(argv: list[str] | None = None) -> int:
    """Print ``bench_shuffle`` for 108 and 90 cards (or the sizes given as arguments) as JSON."""
    sizes = [int(a) for a in (argv if argv is not None else sys.argv[1:])] or [108, 90]
    print(json.dumps({"shuffle_proof": [bench_shuffle(n) for n in sizes]}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
