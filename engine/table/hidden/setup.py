"""The set-up of a shuffle event (PROTOCOL.md 6.2; 6.3, items 1-3): a new event for the game's
:class:`~engine.games.base.Shuffle`, with its own keys or the keys of the event its cards come from
(a reshuffle), then the participants' `key` entries, a private deck owner's `deck` and the proven
`shuffle`s in seat order. The event is set up (its outcome is its number) once the last shuffle is
folded; its positions can then be opened (:mod:`engine.table.hidden.opening`).

A `shuffle`'s proof may be folded before it is verified (:class:`~engine.table.events.UnverifiedProof`,
handed to :meth:`Table.defer`): the table checks it before it folds anything further.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.games.base import GameError, Shuffle
from engine.protocol import codec, deck, elgamal, group, shuffle_proof
from engine.protocol.elgamal import Ciphertext
from engine.protocol.group import G
from engine.protocol.log import Entry
from engine.table.events import REFUSED, EventBook, ShuffleEvent, ShuffleRecord, UnverifiedProof, refuse_unless
from engine.table.vocab import Checks, EntryKind, TableRefusal
from engine.table.work import ShuffleWork

if TYPE_CHECKING:
    from engine.table.table import Fold, Table


class EventSetup:
    """Starts shuffle events and handles their `key`, `deck` and `shuffle` entries."""

    def __init__(self, table: Table, book: EventBook) -> None:
        self.t = table
        self.book = book

    def setup_owed(self, ev: ShuffleEvent) -> list[tuple[int, EntryKind]]:
        """What the set-up of ``ev`` waits for: every missing `key` (in any order), then the
        owner's `deck`, then the next `shuffle` in seat order (PROTOCOL.md 6.3)."""
        if ev.own_keys and len(ev.keys) < len(ev.order):
            return [(p, EntryKind.KEY) for p in ev.order if p not in ev.keys]
        if ev.needs_deck and ev.deck_seq is None:
            return [(ev.owner_seat, EntryKind.DECK)]
        i = len(ev.shuffles)
        return [(ev.shufflers[i], EntryKind.SHUFFLE)] if i < len(ev.shufflers) else []

    def start_shuffle(self, op: Shuffle) -> None:
        """A new event over ``op``'s deck; its participants owe keys (unless it inherits them),
        the owner its `deck`, and the shufflers their proven shuffles."""
        t = self.t
        t.begin(ShuffleWork(op, len(t.events)))
        ev = self._new_event(op)
        t.add_event(ev)
        if not ev.own_keys:
            self._inherit(ev)

    def _new_event(self, op: Shuffle) -> ShuffleEvent:
        t = self.t
        participants = sorted(op.participants)
        i = participants.index(op.first)
        order = tuple(participants[i:] + participants[:i])
        number = len(t.events)
        index = None
        if op.cards:
            index = t.card_index(op.deck, op.cards)
            if len(op.cards) != op.count:
                raise GameError(f"the deck {op.deck!r} lists {len(op.cards)} cards, not {op.count}")
        elif op.owner is None or op.owner >= len(t.seats) or t.seats[op.owner].deck is None:
            raise GameError(f"the game asked to shuffle the private deck {op.deck!r} of a seat without a deck list")
        if op.source and len(op.source) != op.count:
            raise GameError(f"the reshuffle of {op.deck!r} names {len(op.source)} positions, not {op.count}")
        keys_from = self._inherited_keys(op) if op.source else None
        private = not op.cards
        if keys_from is None:
            # Its own keys: a private deck's owner writes `deck` and the others shuffle after it.
            shufflers = order[1:] if private else order
            return ShuffleEvent(
                number,
                op.deck,
                op.count,
                order,
                op.owner,
                index,
                number,
                shufflers,
                private,
                tuple(op.source),
                not private,
            )
        return ShuffleEvent(
            number, op.deck, op.count, order, op.owner, index, keys_from, order, False, tuple(op.source), not private
        )

    def _inherited_keys(self, op: Shuffle) -> int | None:
        """The event a reshuffle takes its keys from (PROTOCOL.md 6.2): the one its hidden cards'
        keys come from. None when it must be rebuilt with new keys instead (6.3, item 8): a key
        holder abandoned, so those cards can no longer be opened. Raises GameError for hidden cards
        under different keys (the game opens such a card to everyone first)."""
        t = self.t
        roots = set()
        for e, k in op.source:
            if not 0 <= e < len(t.events):
                raise GameError(f"the reshuffle names a position of event {e}, which does not exist")
            src = t.events[e]
            if k not in src.public:
                roots.add(src.keys_from)
        if not roots:
            roots.add(t.events[op.source[0][0]].keys_from)
        if len(roots) > 1:
            raise GameError("a reshuffle mixes hidden cards under different keys")
        root = t.events[roots.pop()]
        if any(h in t.abandoned for h in root.order):
            return None
        return root.number

    def _inherit(self, ev: ShuffleEvent) -> None:
        """Set up a reshuffle's input (PROTOCOL.md 6.2): each source position's current ciphertext,
        or a public card as [G, M + H_e]."""
        t = self.t
        root = self.book.root(ev)
        joint = root.joint
        if joint is None:
            raise GameError(f"event {root.number} has no joint key yet")
        ev.joint = joint
        inputs: list[Ciphertext] = []
        for e, k in ev.source:
            src = t.events[e]
            ident = src.public.get(k)
            if ident is not None:
                c2 = group.add(group.card_point(t.table_id, ev.deck_name, ident), joint)
                inputs.append((G, c2))
            else:
                inputs.append(src.cur[k])
        ev.cur = ev.initial = inputs
        self._setup_step(ev)

    def _setup_event(self, entry: Entry, kind: EntryKind) -> tuple[int, ShuffleEvent]:
        t = self.t
        seat = t.expect(entry, kind)
        ev = self.book.event_of(entry.body)
        work = t.current(ShuffleWork)
        if work.event != ev.number:
            raise TableRefusal("illegal", f"the table sets up event {work.event}, not {ev.number}")
        return seat, ev

    def prepare_key(self, entry: Entry) -> Fold:
        t = self.t
        seat, ev = self._setup_event(entry, EntryKind.KEY)
        b = codec.check_map(
            entry.body, {"event": int, "commit": codec.bin_of(32), "X": bytes, "pok": bytes}, what="a key"
        )
        what = f"seat {seat}'s key"
        if t.checks == Checks.CHEAP:
            refuse_unless(elgamal.check_key_fields, b["X"], b["pok"], what, points=False)
        elif not elgamal.verify_key(t.table_id, ev.number, seat, b["X"], b["pok"]):
            # A proof that verifies took X through a checked multiplication and checked its
            # scalars: the cheap checks (PROTOCOL.md 6.5) are made only when it fails, and come first.
            refuse_unless(elgamal.check_key_fields, b["X"], b["pok"], what)
            return t.cheat(entry, seat, f"its key for event {ev.number} has no valid proof of knowledge")
        joint = None
        if len(ev.keys) == len(ev.order) - 1:
            try:
                joint = elgamal.joint_key([*ev.keys.values(), b["X"]])
            except group.BadPoint:
                raise TableRefusal("illegal", "that key makes the joint key of the event the identity") from None

        def fold() -> None:
            ev.keys[seat] = b["X"]
            ev.key_seqs[seat] = entry.seq
            ev.commits[seat] = b["commit"]
            ev.poks[seat] = b["pok"]
            if joint is not None:
                ev.joint = joint
                if ev.index is not None:
                    ev.cur = ev.initial = elgamal.public_deck(joint, ev.index.points)
                self._setup_step(ev)

        return fold

    def prepare_deck(self, entry: Entry) -> Fold:
        seat, ev = self._setup_event(entry, EntryKind.DECK)
        b = codec.check_map(entry.body, {"event": int, "cards": list}, what="a private deck")
        # The cheap checks of this very entry (its id covers every byte of its body) are made once
        # per process, as a `shuffle`'s are: the host and the seats of one process fold it alike.
        checked = ("cheap-checks", entry.id)
        points = self.t.checks != Checks.CHEAP
        try:
            if points and group.VERIFY_MEMO.get(checked):
                cards = [(c[0], c[1]) for c in b["cards"]]
            else:
                cards = elgamal.check_ciphertexts(b["cards"], ev.n, "the deck's cards", points=points)
                if points:
                    group.VERIFY_MEMO.put(checked, True)
        except deck.DuplicatePoints as err:
            return self.t.cheat(entry, seat, str(err))
        except REFUSED as err:
            raise TableRefusal("malformed", str(err)) from None

        def fold() -> None:
            ev.cur = ev.initial = cards
            ev.deck_seq = entry.seq
            self._setup_step(ev)

        return fold

    def prepare_shuffle(self, entry: Entry) -> Fold:
        t = self.t
        seat, ev = self._setup_event(entry, EntryKind.SHUFFLE)
        # A reshuffle's `shuffle` names the event whose keys it inherits as `keys` (PROTOCOL.md 6.2):
        # the event with the `key` entries, whose number x is derived with (ev.keys_from; a
        # reshuffle of a reshuffle names the same event). An event with its own keys has no such
        # field. Deviation, for logs written before this program wrote the field: a reshuffle's
        # `shuffle` without it is taken. That is safe: the field states what every peer works out
        # from the log itself (the game's source positions, EventSetup._inherited_keys), and no
        # check reads it: the proof is verified against the joint key of ev.keys_from and the shares
        # against its X, whatever the body says. A `keys` naming any other event is refused.
        optional = {"keys": int} if not ev.own_keys else None
        b = codec.check_map(entry.body, {"event": int, "cards": list, "proof": list}, optional, what="a shuffle")
        if "keys" in b and b["keys"] != ev.keys_from:
            raise TableRefusal(
                "illegal",
                f"the shuffle names event {b['keys']} as the event whose keys it inherits (its field 'keys'), "
                f"but event {ev.number} inherits the keys of event {ev.keys_from}",
            )
        joint = ev.joint
        if joint is None:
            raise TableRefusal("illegal", "the event has no joint key yet")
        inputs = list(ev.cur)
        context = shuffle_proof.shuffle_context(t.table_id, ev.number, seat)
        cards, given = b["cards"], b["proof"]
        # The cheap checks of this very entry (its id covers every byte of its body) are made once
        # per process: the host and the seats of one process fold the same entry. They are needless
        # for a proof known to verify (one this process made or verified, or verified here first
        # when it is settled at once): its every point went through a checked multiplication and
        # its scalars were checked. A proof that fails gets them, first (PROTOCOL.md 6.5).
        checked = ("cheap-checks", entry.id)
        # A proof known to verify for this very entry (whose id binds its statement: the log
        # before it, its author and its body) needs not even be parsed again in this process.
        proven = ("proof-verified", entry.id)
        answer: bool | None = None
        try:
            if t.checks == Checks.CHEAP:
                outputs = elgamal.check_ciphertexts(cards, ev.n, "the shuffle's cards", points=False)
                shuffle_proof.check_proof(given, ev.n, points=False)
            else:
                if group.VERIFY_MEMO.get(proven) or shuffle_proof.known_valid(context, joint, inputs, cards, given):
                    answer = True
                elif t.verify_first:
                    answer = shuffle_proof.verify(context, joint, inputs, cards, given, executor=shuffle_proof.pool())
                if answer:
                    group.VERIFY_MEMO.put(proven, True)
                if answer or group.VERIFY_MEMO.get(checked):
                    outputs = [(c[0], c[1]) for c in cards]
                elif t.points_in_proof:
                    # A peer that builds nothing on this entry before its proof is settled: every
                    # point goes through a checked multiplication when the proof is verified, which
                    # happens before anything else is folded or made from them (docs/protocol.md
                    # 6.10). A point that is not valid fails the proof: its author is named here.
                    outputs = elgamal.check_ciphertexts(cards, ev.n, "the shuffle's cards", points=False)
                    shuffle_proof.check_proof(given, ev.n, points=False)
                else:
                    outputs = elgamal.check_ciphertexts(cards, ev.n, "the shuffle's cards")
                    shuffle_proof.check_proof(given, ev.n)
                    group.VERIFY_MEMO.put(checked, True)
        except deck.DuplicatePoints as err:
            return t.cheat(entry, seat, str(err))
        except REFUSED as err:
            raise TableRefusal("malformed", str(err)) from None
        proof = None
        if t.checks != Checks.CHEAP:
            proof = UnverifiedProof(
                entry.seq,
                seat,
                f"its shuffle of event {ev.number} fails its proof",
                (context, joint, inputs, outputs, given),
                answer,
                proven,
            )

        def fold() -> None:
            ev.shuffles.append(ShuffleRecord(entry.seq, seat, tuple(inputs), tuple(outputs), given))
            ev.cur = outputs
            t.defer(proof)
            self._setup_step(ev)

        return fold

    def _setup_step(self, ev: ShuffleEvent) -> None:
        if not self.setup_owed(ev):
            ev.shares = [{} for _ in range(ev.n)]
            self.t.finish([ev.number])
