"""Benchmarks of version 2's proof of shuffle (PROTOCOL.md 6.4): prove and verify time and proof size
for one shuffle of a public deck of n cards at a 4-seat table.

``bench_shuffle(n)`` returns a dict (seconds, bytes); ``bench_share()`` times one decryption share;
``python -m bench.pos`` prints both as JSON, for 108 and 90 cards. Each time is the best of ``repeat`` runs, as wall and CPU seconds of this process
(CPU above wall means the threads ran in parallel); the per-process memo of verified proofs is off,
so every verification does its work.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from engine.protocol import codec, elgamal, group, shuffle_proof

TABLE = bytes(range(32))
SEATS = 4


def _best(repeat: int, run: Callable[[], object], digits: int = 4) -> dict[str, float]:
    """{"wall_s", "cpu_s"} of the fastest of ``repeat`` runs (by wall time), rounded to ``digits``."""
    best = (float("inf"), float("inf"))
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        best = min(best, (time.perf_counter() - wall, time.process_time() - cpu))
    return {"wall_s": round(best[0], digits), "cpu_s": round(best[1], digits)}


def bench_shuffle(n: int, repeat: int = 3) -> dict[str, Any]:
    """One seat's shuffle of a public deck of ``n`` cards under a 4-seat joint key.

    Keys: ``cards``; ``workers`` (threads of the pool: ``os.cpu_count()``); then {"wall_s",
    "cpu_s"} for ``shuffle`` (re-encryption and permutation), ``prove``, ``prove_split`` (one proof
    split over the pool), ``verify`` (one thread), ``verify_split`` (one verification split over the
    pool), ``verify_4_parallel`` (four verifications at once in the pool); ``proof_bytes``
    (canonical msgpack of the proof), ``cards_bytes`` (of the `shuffle` entry's ``cards``).
    """
    secrets = [elgamal.ElGamalSecrets.derive(bytes([s + 1]) * 32, TABLE, 0, s, n) for s in range(SEATS)]
    joint = elgamal.joint_key([s.X for s in secrets])
    points = [group.card_point(TABLE, "main", f"card {k}") for k in range(n)]
    inputs = elgamal.public_deck(joint, points)
    shuffler = secrets[1]
    context = shuffle_proof.shuffle_context(TABLE, 0, shuffler.seat)
    outputs = elgamal.make_shuffle(shuffler, joint, inputs)
    shuffle_proof.generators(n)  # the per-process cache, built once per process in real use
    s = shuffler

    def prove(pool: ThreadPoolExecutor | None = None) -> list[Any]:
        return shuffle_proof.prove(context, joint, inputs, outputs, s.perm, s.rho, s.nonce_key, executor=pool)

    def verify(pool: ThreadPoolExecutor | None = None) -> bool:
        return shuffle_proof.verify(context, joint, inputs, outputs, proof, executor=pool)

    proof = prove()
    memo_was = group.VERIFY_MEMO.enabled
    group.VERIFY_MEMO.enabled = False
    workers = os.cpu_count() or 2
    try:
        if not verify():
            raise RuntimeError("an honest proof of shuffle does not verify.")
        with ThreadPoolExecutor(workers) as pool:

            def four() -> list[bool]:
                futures = [shuffle_proof.submit_verify(pool, context, joint, inputs, outputs, proof) for _ in range(4)]
                return [f.result() for f in futures]

            return {
                "cards": n,
                "workers": workers,
                "shuffle": _best(repeat, lambda: elgamal.make_shuffle(shuffler, joint, inputs)),
                "prove": _best(repeat, prove),
                "prove_split": _best(repeat, lambda: prove(pool)),
                "verify": _best(repeat, verify),
                "verify_split": _best(repeat, lambda: verify(pool)),
                "verify_4_parallel": _best(repeat, four),
                "proof_bytes": shuffle_proof.proof_size(proof),
                "cards_bytes": len(codec.encode([list(c) for c in outputs])),
            }
    finally:
        group.VERIFY_MEMO.enabled = memo_was


def bench_share(repeat: int = 200) -> dict[str, Any]:
    """One decryption share with its DLEQ proof (PROTOCOL.md 6.3, item 4): {"wall_s", "cpu_s"} per
    ``make`` (D = x·c1 and its proof) and per ``verify`` (memo off), best of ``repeat`` runs."""
    s = elgamal.ElGamalSecrets.derive(bytes(32), TABLE, 0, 0, 1)
    c1 = group.base_mult(group.hash_to_scalar("bench c1"))
    D, proof = elgamal.make_share(s, c1, 0)
    memo_was = group.VERIFY_MEMO.enabled
    group.VERIFY_MEMO.enabled = False
    try:
        return {
            "make": _best(repeat, lambda: elgamal.make_share(s, c1, 0), 6),
            "verify": _best(repeat, lambda: elgamal.verify_share(TABLE, 0, 0, 0, s.X, c1, D, proof), 6),
        }
    finally:
        group.VERIFY_MEMO.enabled = memo_was


def main(argv: list[str] | None = None) -> int:
    """Print ``bench_shuffle`` for 108 and 90 cards (or the sizes given as arguments) as JSON."""
    sizes = [int(a) for a in (argv if argv is not None else sys.argv[1:])] or [108, 90]
    print(json.dumps({"shuffle_proof": [bench_shuffle(n) for n in sizes], "share": bench_share()}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
