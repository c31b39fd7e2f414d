"""The strict audit's re-derivation (PROTOCOL.md 6.3, item 7; ``vampire audit --strict``): once an
event's seeds are in and its cards recomputed, every key proof, proof of shuffle and decryption
share of the event is derived again from its author's seed (PROTOCOL.md 6.2: their nonces too come
from the seed) and compared byte for byte with the log's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.protocol import codec, elgamal, group, shuffle_proof
from engine.protocol.group import G
from engine.table.events import EventBook, ShuffleEvent

if TYPE_CHECKING:
    from engine.table.table import Table


class Rederivation:
    """Re-derives an event's proofs and shares for a strict table, and counts them."""

    def __init__(self, table: Table, book: EventBook) -> None:
        self.t = table
        self.book = book
        self.rederived = 0
        """Key proofs, proofs of shuffle and shares a strict table re-derived from their seeds."""
        self.underived = 0
        """Those a strict table could not re-derive: their author's seed was never revealed."""

    def _x_of(self, ev: ShuffleEvent, seat: int) -> bytes | None:
        """``seat``'s key share x for ``ev`` (its keys event's): revealed when it left, or derived
        from its revealed seed of that event; None when neither is known."""
        root = self.book.root(ev)
        x = root.revealed_x.get(seat)
        if x is None and seat in root.seeds:
            x = elgamal.key_share(root.seeds[seat], self.t.table_id, root.number, seat)
        return x

    def rederive(self, ev: ShuffleEvent) -> tuple[int | None, int, str] | None:
        """Re-derive from the revealed seeds every key proof, proof of shuffle and decryption share
        of ``ev`` as PROTOCOL.md 6.2 says (their nonces too come from the seed), and compare them
        byte for byte with those the log holds (PROTOCOL.md 6.3, item 7: ``vampire audit
        --strict``). Run after :meth:`recompute` found the keys and cards right. Returns None, or
        (seq, seat, sentence) for the earliest entry whose proof or share its author did not derive
        from its seed. Counts what it re-derived in :attr:`rederived`, and in :attr:`underived`
        what it could not (an author whose seed of the event was never revealed: a seat that left
        keeps the seeds of other decks' events). Costs about what making them cost."""
        t = self.t
        joint = ev.joint
        if joint is None:
            return None
        faults: list[tuple[int | None, int, str]] = []
        secrets: dict[int, elgamal.ElGamalSecrets] = {}

        def secrets_of(seat: int) -> elgamal.ElGamalSecrets | None:
            seed = ev.seeds.get(seat)
            if seed is None:
                return None
            if seat not in secrets:
                secrets[seat] = elgamal.ElGamalSecrets.derive(seed, t.table_id, ev.number, seat, ev.n)
            return secrets[seat]

        def count(done: bool) -> None:
            if done:
                self.rederived += 1
            else:
                self.underived += 1

        if ev.own_keys:
            for h in ev.order:
                s = secrets_of(h)
                count(s is not None)
                if s is not None and elgamal.key_proof(s) != ev.poks.get(h):
                    faults.append(
                        (ev.key_seqs.get(h), h, f"its key proof for event {ev.number} was not derived from its seed")
                    )
        for rec in ev.shuffles:
            s = secrets_of(rec.seat)
            count(s is not None)
            if s is None:
                continue
            context = shuffle_proof.shuffle_context(t.table_id, ev.number, rec.seat)
            made = shuffle_proof.prove(context, joint, rec.inputs, rec.outputs, s.perm, s.rho, s.nonce_key)
            if codec.encode(made) != codec.encode(rec.proof):
                faults.append(
                    (rec.seq, rec.seat, f"its proof of shuffle of event {ev.number} was not derived from its seed")
                )
        for share in ev.share_log:
            s = secrets_of(share.seat)
            x = self._x_of(ev, share.seat)
            count(s is not None and x is not None)
            if s is None or x is None:
                continue
            c1 = ev.cur[share.position][0]
            ctx = elgamal.share_context(t.table_id, ev.number, share.seat, share.position)
            D = group.mult(x, c1, "c1")
            X = self.book.key_of(ev, share.seat)
            if D != share.D or group.dleq_prove(x, G, X, c1, D, s.nonce_key, ctx) != share.proof:
                faults.append(
                    (
                        share.seq,
                        share.seat,
                        f"its share of position {share.position} of event {ev.number} was not derived from its seed",
                    )
                )
        if not faults:
            return None
        return min(faults, key=lambda f: -1 if f[0] is None else f[0])
