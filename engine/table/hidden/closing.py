"""Closing an event (PROTOCOL.md 6.3, items 6 and 7): a seat that leaves reveals its key share of
every open event of other decks (`key-reveal`) and the seed of its own decks; the game ends an event
with every participant's `seed-reveal`, and the table recomputes the event from the seeds and the
log (every key, a private owner's `deck` against its list, every shuffle's output, every card and
claim). A step that differs from its author's seed is a proven cheat; else the cards are the
event's outcome. A strict table also re-derives every proof and share
(:mod:`engine.table.hidden.rederive`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from engine.errors import VampireError
from engine.games.base import EndEvent, Note, Release
from engine.protocol import codec, deck, elgamal, group, merkle
from engine.protocol.group import G
from engine.protocol.log import Entry
from engine.table.events import EventBook, ShuffleEvent
from engine.table.hidden.rederive import Rederivation
from engine.table.vocab import Checks, EntryKind, ProvenCheat, TableRefusal
from engine.table.work import ReleaseWork, SeedsWork

if TYPE_CHECKING:
    from engine.table.table import Fold, Table

Settle = Callable[[Entry, ShuffleEvent, SeedsWork], None]
"""What to do once the seeds a complaint asked for are in (:meth:`Disputes.settled`): the entry
that completed them, the event and the work."""

_RECOMPUTED: dict[tuple[Any, ...], tuple[tuple[str | None, ...] | None, tuple[int | None, int, str] | None]] = {}
"""The seed reveals' recomputes (:meth:`Closing.recompute`) made in this process, by the id of
the entry that completed the seeds, the event, the checks and the rules (a few kept)."""


class Closing:
    """Starts the release of a leaving seat and the end of an event; handles `key-reveal` and
    `seed-reveal` entries and recomputes an event once its seeds are in. ``settle_complaint`` is
    called when the seeds a complaint asked for are in; ``rederivation`` re-derives proofs and
    shares for a strict table."""

    def __init__(self, table: Table, book: EventBook, settle_complaint: Settle, rederivation: Rederivation) -> None:
        self.t = table
        self.book = book
        self.settle_complaint = settle_complaint
        self.rederivation = rederivation
        self.released: set[int] = set()  # seats that left the game and revealed their keys

    def start_release(self, op: Release) -> None:
        """The seat of ``op`` leaves (PROTOCOL.md 6.3, item 6): it reveals its key share of every
        open event of other decks whose keys it holds, and the seed of its own open decks."""
        t = self.t
        seat = op.seat
        waiting: list[tuple[Any, int]] = []
        for ev in t.events:
            if ev.cards is not None:
                continue
            if ev.private and ev.owner == seat:
                if seat not in ev.seeds:
                    waiting.append((EntryKind.SEED_REVEAL.value, ev.number))
            elif ev.own_keys and seat in ev.order and seat not in ev.revealed_x:
                waiting.append((EntryKind.KEY_REVEAL.value, ev.number))
        t.begin(ReleaseWork(op, waiting))
        if not waiting:
            self._released(op.seat)

    def _released(self, seat: int) -> None:
        self.released.add(seat)
        self.t.finish([None])

    def start_end(self, op: EndEvent) -> None:
        """Every participant of the event still in the game reveals its seed; the outcome is every
        card (PROTOCOL.md 6.3, item 7)."""
        t = self.t
        ev = t.events[op.event]
        waiting = [p for p in ev.order if p not in ev.seeds and p not in self.released and p not in t.abandoned]
        work = SeedsWork(op.event, waiting, end=op)
        t.begin(work)
        if not waiting:
            self._seeds_in(t.entries[-1], ev, work)

    def prepare_key_reveal(self, entry: Entry) -> Fold:
        t = self.t
        seat = t.expect(entry, EntryKind.KEY_REVEAL)
        ev = self.book.event_of(entry.body)
        b = codec.check_map(entry.body, {"event": int, "x": codec.bin_of(32)}, what="a key reveal")
        work = t.current(ReleaseWork)
        if work.waiting[0] != (EntryKind.KEY_REVEAL.value, ev.number):
            raise TableRefusal("illegal", f"the table waits for the {work.waiting[0][0]} of event {work.waiting[0][1]}")
        if not elgamal.check_key_reveal(b["x"], ev.keys[seat]):
            return t.cheat(entry, seat, f"its revealed key share for event {ev.number} is not the one it published")

        def fold() -> None:
            ev.revealed_x[seat] = b["x"]
            work.waiting.pop(0)
            if not work.waiting:
                self._released(seat)

        return fold

    def prepare_seed_reveal(self, entry: Entry) -> Fold:
        t = self.t
        body = entry.body
        seat = t.expect(entry, EntryKind.SEED_REVEAL)
        ev = self.book.event_of(body)
        work = t.work
        if isinstance(work, SeedsWork):
            expected = work.event
        elif isinstance(work, ReleaseWork):
            expected = work.waiting[0][1]
        else:
            raise TableRefusal("illegal", "the table waits for no seed")
        if ev.number != expected:
            raise TableRefusal("illegal", f"the table waits for the seed of event {expected}")
        deck_list = None
        if isinstance(body, dict) and ("list" in body or "salts" in body):
            b = codec.check_map(
                body,
                {"event": int, "seed": codec.bin_of(32), "list": list, "salts": list},
                what="a seed reveal with a deck list",
            )
            root = t.seats[seat].deck
            if seat in t.lists or root is None:
                raise TableRefusal("illegal", "a deck list is revealed once, by a seat that committed to one")
            try:
                merkle.check_list(root, b["list"], b["salts"])
            except VampireError as err:
                return t.cheat(entry, seat, f"its revealed deck list does not match its commitment: {err}")
            deck_list = list(b["list"])
        else:
            b = codec.check_map(body, {"event": int, "seed": codec.bin_of(32)}, what="a seed reveal")
            if ev.private and ev.owner == seat and seat not in t.lists:
                raise TableRefusal("illegal", "the owner of a private deck reveals its deck list with its seed")
        seed: bytes = b["seed"]
        if ev.own_keys and codec.sha256("commit", t.table_id, ev.number, seat, seed) != ev.commits[seat]:
            return t.cheat(entry, seat, f"its seed for event {ev.number} does not match the commitment of its key")

        last = isinstance(work, SeedsWork) and work.waiting == [seat] and work.purpose != "complaint"
        if last and deck_list is None and group.VERIFY_MEMO.enabled:
            # The event's last seed: its recompute, the seed reveal's long work, is made here,
            # where a peer's check in a worker thread makes it too (Table.precheck); the fold finds it.
            self._recomputed(entry, ev, {seat: seed})

        def fold() -> None:
            if deck_list is not None:
                t.keep_list(seat, deck_list)
            ev.seeds[seat] = seed
            match work:
                case ReleaseWork(waiting=waiting):
                    waiting.pop(0)
                    if not waiting:
                        self._released(seat)
                case SeedsWork(waiting=waiting) if seat in waiting:
                    waiting.remove(seat)
                    if not waiting:
                        if work.purpose == "complaint":
                            self.settle_complaint(entry, ev, work)
                        else:
                            self._seeds_in(entry, ev, work)

        return fold

    def _seeds_in(self, entry: Entry, ev: ShuffleEvent, work: SeedsWork) -> None:
        """Every seed of ``ev`` is in: recompute it (PROTOCOL.md 6.3, item 7); a step that differs
        from its author's seed, or a card not on its owner's list, is a proven cheat; else the cards
        are the outcome."""
        t = self.t
        cards, fault = self._recomputed(entry, ev)
        if fault is None and cards is not None and t.checks == Checks.STRICT:
            fault = self.rederivation.rederive(ev)
        if fault is not None:
            seq, seat, detail = fault
            t.stop(ProvenCheat(seq if seq is not None else entry.seq, seat, detail))
            t.narrate(Note(f"The seed reveal proves that {{s{seat}}} cheated: {detail}", (seat,)))
            return
        ev.cards = cards
        if ev.private and cards is not None:
            wrong = self._owner_cards_wrong(ev.owner_seat)
            if wrong is not None:
                t.stop(ProvenCheat(entry.seq, ev.owner_seat, wrong))
                t.narrate(Note(f"The seed reveal proves that {{s{ev.owner_seat}}} cheated: {wrong}", (ev.owner_seat,)))
                return
        t.finish([tuple(cards or ())])

    def _recomputed(
        self, entry: Entry, ev: ShuffleEvent, extra: Mapping[int, bytes] | None = None
    ) -> tuple[tuple[str | None, ...] | None, tuple[int | None, int, str] | None]:
        """:meth:`recompute` of ``ev`` once the seed reveal ``entry`` is folded (``extra``: the
        seeds it adds, by seat, when it is not folded yet), kept per process: the recompute is a
        function of the log up to this entry, whose id binds every byte of it, so the tables of
        one process (the host's and the seats' of `vampire play`) and a check ahead of the fold
        make it once."""
        t = self.t
        key = ("recompute", entry.id, ev.number, t.checks, id(t.rules))
        memo = group.VERIFY_MEMO.enabled
        known = _RECOMPUTED.get(key) if memo else None
        if known is None:
            known = self.recompute(ev, extra)
            if memo:
                if len(_RECOMPUTED) >= 64:
                    _RECOMPUTED.clear()
                _RECOMPUTED[key] = known
        return known

    def _owner_cards_wrong(self, owner: int) -> str | None:
        """Once every event of ``owner``'s private deck is decoded: why the cards at its live
        positions (those no later event took as its source) are not its list, each identity exactly
        once (PROTOCOL.md 6.3, item 7), or None. None too while an event of it is not decoded."""
        t = self.t
        mine = [ev for ev in t.events if ev.private and ev.owner == owner]
        if any(ev.cards is None for ev in mine) or owner not in t.lists:
            return None
        gone = {p for ev in t.events for p in ev.source}
        for part in sorted({ev.part for ev in mine}):
            found = sorted(
                c
                for ev in mine
                if ev.part == part and ev.cards is not None
                for k, c in enumerate(ev.cards)
                if (ev.number, k) not in gone and c is not None
            )
            listed = sorted(self.book.part_list(owner, part))
            if found != listed:
                twice = sorted({c for c in found if found.count(c) > 1})
                missing = sorted(set(listed) - set(found))
                what = (
                    f"{twice[0]!r} is in it twice"
                    if twice
                    else f"{missing[0]!r} is missing"
                    if missing
                    else "it differs"
                )
                return f"the cards of its {part} in play are not its list: {what}"
        return None

    def recompute(
        self, ev: ShuffleEvent, extra: Mapping[int, bytes] | None = None
    ) -> tuple[tuple[str | None, ...] | None, tuple[int | None, int, str] | None]:
        """Recompute ``ev`` from the revealed seeds and the log (PROTOCOL.md 6.3, item 7): every key
        share (x·G = X), the owner's `deck` against its list, the output cards of every shuffle
        whose author's seed is known, then decrypt every position with the recomputed keys and
        check every claim. Proofs and shares are not recomputed here: each was verified when it
        arrived (:meth:`rederive` does that for a strict table). Returns (cards, None), or (None,
        (seq, seat, sentence)) for the first fault; cards are None when a key share is unknown (a
        seat that abandoned). A table of :attr:`Checks.CHEAP` recomputes neither the `deck` nor
        the shuffles: it decrypts. ``extra``: seeds of ``ev`` by seat, read as if revealed
        already (a seed reveal checked before it is folded)."""
        t = self.t

        def seeds(event: ShuffleEvent) -> Mapping[int, bytes]:
            return {**event.seeds, **extra} if extra and event is ev else event.seeds

        root = self.book.root(ev)
        joint = ev.joint
        if joint is None:
            return None, None
        x_total = bytes(32)
        for h in root.order:
            x = root.revealed_x.get(h)
            if x is None:
                seed = seeds(root).get(h)
                if seed is None:
                    return None, None
                x = elgamal.key_share(seed, t.table_id, root.number, h)
                if group.base_mult(x) != root.keys[h]:
                    return None, (
                        root.key_seqs.get(h),
                        h,
                        f"its revealed seed does not give its key of event {root.number}",
                    )
            x_total = group.scalar_add(x_total, x)
        part = self.book.part_list(ev.owner_seat, ev.part) if ev.private else []
        full = t.checks != Checks.CHEAP
        # rand[k]: the randomness R of position k of the deck as far as recomputed (c1 = R·G), or
        # None once a step is not recomputed: a public deck's cards start at R = 1 (c1 = G).
        first = ev.shuffles[0].inputs if ev.shuffles else tuple(ev.cur)
        one = group.scalar_from_int(1)
        rand: list[bytes] | None = [one] * ev.n if full and all(c[0] == G for c in first) else None
        if full and ev.needs_deck and ev.owner_seat in seeds(ev) and not ev.source:
            s = elgamal.ElGamalSecrets.derive(
                seeds(ev)[ev.owner_seat], t.table_id, ev.number, ev.owner_seat, ev.n, owner=True
            )
            points = [group.card_point(t.table_id, ev.deck_name, c) for c in part]
            try:
                ok = len(points) == ev.n and elgamal.private_deck(s, joint, points, joint_log=x_total) == ev.initial
            except (deck.DeckProofError, group.GroupError):
                ok = False
            if not ok:
                return None, (
                    ev.deck_seq,
                    ev.owner_seat,
                    f"its deck entry for {ev.deck_name!r} is not its list encrypted with its seed",
                )
            # Card j of the `deck` entry is (r_j·G, …): the first shuffle's input.
            rand = list(s.deck_rand) if tuple(first) == tuple(ev.initial) else None
        for rec in ev.shuffles if full else ():
            seed = seeds(ev).get(rec.seat)
            if seed is None:
                rand = None
                continue
            s = elgamal.ElGamalSecrets.derive(seed, t.table_id, ev.number, rec.seat, ev.n)
            # Every x·G = X was checked above: H_e = (Σ x)·G, so ρ·H_e is a fixed-base multiplication
            # (or known already: the audit derived this shuffle's proof from the same seed).
            if not elgamal.is_reencryption(s, joint, rec.inputs, rec.outputs, joint_log=x_total):
                return None, (rec.seq, rec.seat, f"its revealed seed does not give its shuffle of event {ev.number}")
            if rand is not None:
                rand = [group.scalar_add(rand[i], s.rho[j]) for j, i in enumerate(s.perm)]
        if rand is not None and (tuple(ev.cur) != (ev.shuffles[-1].outputs if ev.shuffles else tuple(first))):
            rand = None
        lookup: dict[bytes, str]
        if ev.index is not None:
            lookup = dict(ev.index.lookup)
        else:
            lookup = {group.card_point(t.table_id, ev.deck_name, c): c for c in part}
        cards: list[str | None] = []
        for k, (c1, c2) in enumerate(ev.cur):
            # x·c1 = (x·R_k)·G where every step was recomputed (a fixed-base multiplication).
            mask = elgamal.pmul(x_total, c1) if rand is None else elgamal.pmul(group.scalar_mul(x_total, rand[k]), G)
            ident = lookup.get(elgamal.psub(c2, mask))
            if ident is None:
                blamed = ev.owner_seat if ev.private else ev.order[0]
                return None, (ev.deck_seq, blamed, f"position {k} of event {ev.number} holds a card not on its list")
            if k in ev.public and ev.public[k] != ident:
                return None, (None, ev.order[0], f"position {k} was claimed as {ev.public[k]} but holds {ident}")
            cards.append(ident)
        return tuple(cards), None
