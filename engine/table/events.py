"""Deck events (PROTOCOL.md 6): shuffle events and the entries that run them.

A game asks for hidden-card operations (:class:`~engine.games.base.Shuffle`,
:class:`~engine.games.base.Open`, :class:`~engine.games.base.EndEvent`,
:class:`~engine.games.base.Release`); :class:`DeckEvents` runs each through the deck protocol of
:mod:`engine.protocol.deck`: the shuffle and lock passes of an event's set-up, the unlock and reveal
steps that open positions, complaints, and the seed reveals that end an event or prove who cheated.

The rest of the table reaches the deck protocol only through this module's interface:

- ``start_shuffle``, ``start_open``, ``start_release``, ``start_end``: start the work for an op;
- ``take_released_step``: a step the table takes itself for a seat that left an event;
- ``prepare_*``: the handlers of `shuffle`, `lock`, `unlock`, `reveal`, `complaint`, `seed-reveal`;
- ``opened_to``, ``parse_opens``, ``check_opens``, ``fold_opens``, ``opened_twice``: the cards a
  move opens (PROTOCOL.md 4, `move`);
- :class:`ShuffleEvent`: one event's public state, read by seats and screens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.errors import VampireError
from engine.games.base import EndEvent, GameError, Note, Open, Pos, Release, Shuffle
from engine.protocol import codec, deck, group, merkle
from engine.protocol.log import Entry
from engine.table.vocab import EntryKind, Phase, ProvenCheat, TableRefusal
from engine.table.work import (
    ReleaseWork,
    RevealStep,
    RevealWork,
    SeedsWork,
    ShuffleWork,
    UnlockStep,
    UnlockWork,
)

if TYPE_CHECKING:
    from engine.table.table import Fold, Table


@dataclass
class ShuffleEvent:
    """One shuffle event's public state (PROTOCOL.md 6).

    ``order``: participants in acting order (first participant first, L last). ``row``: the points
    (32-byte encodings) after the latest set-up step; once locked, ``cur[k]`` is the point now at
    position k on its way (or opened). ``stripped[k]``: seats whose lock on k is removed (by
    unlock, reveal or open). ``to[k]``: the seat position k is opened to (None: to everyone).
    ``public[k]``: the identity of an opened position. ``entries``: the event's steps, for the
    seed-reveal recompute. ``cards``: every identity once all seeds are revealed.
    """

    number: int
    deck_name: str
    n: int
    order: tuple[int, ...]
    owner: int | None
    index: deck.CardIndex | None
    step: int = 0
    row: list[bytes] = field(default_factory=list)
    commits: dict[int, bytes] = field(default_factory=dict)
    A: dict[int, bytes] = field(default_factory=dict)
    locks: dict[int, tuple[bytes, ...]] = field(default_factory=dict)
    cur: list[bytes] = field(default_factory=list)
    stripped: list[set[int]] = field(default_factory=list)
    to: dict[int, int | None] = field(default_factory=dict)
    public: dict[int, str] = field(default_factory=dict)
    entries: list[deck.EventEntry] = field(default_factory=list)
    seeds: dict[int, bytes] = field(default_factory=dict)
    cards: tuple[str | None, ...] | None = None
    source: tuple[Pos, ...] = ()
    cards_public: bool = False
    dealt: dict[int, int] = field(default_factory=dict)  # position -> the seat it was opened to, for good

    @property
    def private(self) -> bool:
        """A private deck's event: its owner supplied the cards; no one else knows the list."""
        return not self.cards_public

    @property
    def part(self) -> str:
        """The deck-list part a private event draws from ("library" for "library/2")."""
        return self.deck_name.split("/", 1)[0]

    @property
    def setup_steps(self) -> list[tuple[int, EntryKind]]:
        """The set-up's steps in order: every participant's shuffle pass, then every lock pass
        but the last participant's (its shuffle pass locks)."""
        return [(p, EntryKind.SHUFFLE) for p in self.order] + [(p, EntryKind.LOCK) for p in self.order[:-1]]

    @property
    def locked(self) -> bool:
        return self.step >= len(self.setup_steps)

    @property
    def public_index(self) -> deck.CardIndex:
        """The card index of a public deck's event. Raises GameError for a private event."""
        if self.index is None:
            raise GameError(f"the private deck {self.deck_name!r} has no public card list")
        return self.index

    @property
    def owner_seat(self) -> int:
        """The owner of a private deck's event. Raises GameError for a public event."""
        if self.owner is None:
            raise GameError(f"the deck {self.deck_name!r} has no owner")
        return self.owner

    def holders(self, k: int) -> list[int]:
        """Seats still locking position k."""
        return [p for p in self.order if p not in self.stripped[k]]


@dataclass(frozen=True)
class OpenedCard:
    """A card a move opens (PROTOCOL.md 4, `move`): the mover's lock ``key`` (32 bytes) for the
    position and the ``card`` identity it claims; for a private deck, ``membership`` is the salt
    and Merkle proof that the card is on the owner's committed list (unchecked values)."""

    key: bytes
    card: str
    membership: tuple[Any, Any] | None = None


@dataclass(frozen=True)
class OpenCheck:
    """What checking a move's opened cards found: the verified identities (``revealed``), or the
    ``cheat`` its author is proven to have made, and the first ``duplicate`` card seen
    (event, position, identity): a card already seen in its event, planted twice by a shuffle."""

    revealed: dict[Pos, str]
    cheat: str | None = None
    duplicate: tuple[int, int, str] | None = None


def parse_opens(raw: list[Any]) -> dict[Pos, OpenedCard]:
    """The opened cards of a move's ``open`` list (``[[event, index], key, card]``, and for a
    private deck salt and proof). Raises TableRefusal (malformed) for an item of another shape."""
    opens: dict[Pos, OpenedCard] = {}
    for item in raw:
        if (
            not isinstance(item, list)
            or len(item) not in (3, 5)
            or not isinstance(item[0], list)
            or len(item[0]) != 2
            or any(type(x) is not int for x in item[0])
            or type(item[1]) is not bytes
            or type(item[2]) is not str
        ):
            raise TableRefusal(
                "malformed",
                "a move opens cards as [[event, index], key, card] (and, for a private deck, salt and proof)",
            )
        membership = (item[3], item[4]) if len(item) == 5 else None
        opens[(item[0][0], item[0][1])] = OpenedCard(item[1], item[2], membership)
    return opens


class DeckEvents:
    """Runs shuffle events over the table's state (:attr:`Table.events`, its work and its seats)."""

    def __init__(self, table: Table) -> None:
        self.t = table

    # -- reading --------------------------------------------------------------------------------

    def event_of(self, body: Any) -> ShuffleEvent:
        """The event a deck entry's body names. Raises TableRefusal (malformed, illegal)."""
        if not isinstance(body, dict) or type(body.get("event")) is not int:
            raise TableRefusal("malformed", "a deck entry names its event")
        number: int = body["event"]
        if not 0 <= number < len(self.t.events):
            raise TableRefusal("illegal", f"there is no shuffle event {number}")
        return self.t.events[number]

    def opened_to(self, seat: int) -> list[Pos]:
        """Positions opened to ``seat`` whose every other lock is removed (the seat can decode them)."""
        out = []
        for ev in self.t.events:
            if not ev.locked:
                continue
            for k, to in ev.to.items():
                if to == seat and all(p in ev.stripped[k] or p == seat for p in ev.order):
                    out.append((ev.number, k))
        return out

    # -- starting the game's operations -----------------------------------------------------------

    def start_shuffle(self, op: Shuffle) -> None:
        """A new event over ``op``'s deck; its participants owe the set-up passes."""
        t = self.t
        t.work = ShuffleWork(op, len(t.events))
        t.events.append(self._new_event(op))

    def start_open(self, batch: list[Open]) -> None:
        """Open a batch of positions, all to seats or all to everyone: the participants still
        locking them owe unlock (or reveal) steps; done at once when none is owed."""
        t = self.t
        if batch[0].to is None:
            reveal = RevealWork(tuple(batch), self._reveal_steps(batch))
            t.work = reveal
            if not reveal.steps:
                self._finish_reveal(reveal)
        else:
            unlock = UnlockWork(tuple(batch), self._unlock_steps(batch))
            t.work = unlock
            if not unlock.steps:
                t.finish([None] * len(batch))

    def start_release(self, op: Release) -> None:
        """The seat of ``op`` reveals its seed for every event it locks whose cards are unknown."""
        t = self.t
        waiting = [ev.number for ev in t.events if op.seat in ev.order and op.seat not in ev.seeds and ev.cards is None]
        t.work = ReleaseWork(op, waiting)
        if not waiting:
            t.finish([None])

    def start_end(self, op: EndEvent) -> None:
        """Every participant of the event reveals its seed; the outcome is every card."""
        t = self.t
        ev = t.events[op.event]
        work = SeedsWork(op.event, [p for p in ev.order if p not in ev.seeds], end=op)
        t.work = work
        if not work.waiting:
            t.finish([tuple(ev.cards or ())])

    def _new_event(self, op: Shuffle) -> ShuffleEvent:
        t = self.t
        participants = sorted(op.participants)
        i = participants.index(op.first)
        order = tuple(participants[i:] + participants[:i])
        index = None
        if op.cards:
            key = (op.deck, tuple(op.cards))
            index = t.indexes.get(key)
            if index is None:
                index = t.indexes[key] = deck.CardIndex.build(t.table_id, op.deck, op.cards)
        if index is None:
            if op.owner is None or op.owner >= len(t.seats) or t.seats[op.owner].deck is None:
                raise GameError(f"the game asked to shuffle the private deck {op.deck!r} of a seat without a deck list")
            if op.source and len(op.source) != op.count:
                raise GameError(f"the reshuffle of {op.deck!r} names {len(op.source)} positions, not {op.count}")
        return ShuffleEvent(
            len(t.events),
            op.deck,
            op.count,
            order,
            op.owner,
            index,
            row=list(index.points) if index else [],
            source=tuple(op.source),
            cards_public=bool(op.cards),
        )

    def _unlock_steps(self, batch: list[Open]) -> list[UnlockStep]:
        steps = []
        by_event: dict[int, list[tuple[int, list[int]]]] = {}
        for op in batch:
            to = op.to
            if to is None:
                raise GameError("an open to everyone cannot be batched with opens to seats")
            for e, k in op.positions:
                self.t.events[e].to[k] = to
                self.t.events[e].dealt[k] = to
            events = sorted({e for e, _ in op.positions})
            for e in events:
                by_event.setdefault(e, []).append((to, sorted(k for ee, k in op.positions if ee == e)))
        for e, targets in by_event.items():
            ev = self.t.events[e]
            for unlocker in ev.order:
                for to, ks in targets:
                    mine = [k for k in ks if unlocker != to and unlocker not in ev.stripped[k]]
                    if mine:
                        steps.append(UnlockStep(unlocker, e, to, mine))
        return steps

    def _reveal_steps(self, batch: list[Open]) -> list[RevealStep]:
        steps = []
        by_event: dict[int, list[int]] = {}
        for op in batch:
            for e, k in op.positions:
                by_event.setdefault(e, []).append(k)
        for e, ks in by_event.items():
            ev = self.t.events[e]
            # A private deck's owner reveals last: its reveal claims each card with its deck-list
            # membership proof, checked against the point the other keys left.
            order = [p for p in ev.order if p != ev.owner] + [ev.owner_seat] if ev.private else list(ev.order)
            for seat in order:
                mine = sorted(k for k in ks if seat not in ev.stripped[k])
                if mine:
                    steps.append(RevealStep(seat, e, mine))
        return steps

    def take_released_step(self) -> bool:
        """Take the next unlock or reveal step if it belongs to a seat that revealed its seed for
        that event (a seat that left it). Returns whether a step was taken."""
        t = self.t
        w = t.work
        if not isinstance(w, (UnlockWork, RevealWork)) or not w.steps:
            return False
        step = w.steps[0]
        ev = t.events[step.event]
        if step.seat not in ev.seeds:
            return False
        secrets = deck.EventSecrets.derive(ev.seeds[step.seat], t.table_id, step.event, step.seat, ev.n)
        seq = len(t.entries) - 1
        match step:
            case UnlockStep(to=to, positions=ks):
                body = deck.make_unlock(secrets, to, ks, {k: ev.cur[k] for k in ks})
                points = body["points"]
                kind = EntryKind.UNLOCK
            case RevealStep(positions=ks):
                body = deck.make_reveal(secrets, ks)
                points = [deck.remove_lock(key, ev.cur[k]) for k, key in zip(ks, body["keys"], strict=True)]
                kind = EntryKind.REVEAL
        # Recorded as the seat's step, so the seed-reveal recompute follows the chain.
        self._step_done(ev, step.seat, seq, kind, body, body["positions"], points)
        return True

    # -- set-up passes ------------------------------------------------------------------------------

    def prepare_shuffle(self, entry: Entry) -> Fold:
        t = self.t
        body = entry.body
        seat = t.expect(entry, EntryKind.SHUFFLE)
        ev = self.event_of(body)
        work = t.current(ShuffleWork)
        if work.event != ev.number:
            raise TableRefusal("illegal", f"the table shuffles event {work.event}, not {ev.number}")
        last = seat == ev.order[-1]
        try:
            got = deck.check_shuffle_pass(body, event=ev.number, seat=seat, n=ev.n, last=last)
        except deck.BadBody:
            raise
        except (deck.DeckProofError, group.GroupError) as err:
            return t.cheat(entry, seat, str(err))

        def fold() -> None:
            ev.commits[seat] = got.commit
            ev.row = list(got.points)
            # check_shuffle_pass gives the locks for the last participant's pass, else A.
            if got.locks is not None:
                ev.locks[seat] = got.locks
            if got.A is not None:
                ev.A[seat] = got.A
            ev.entries.append(deck.EventEntry(entry.seq, seat, EntryKind.SHUFFLE, body))
            self._setup_step(ev)

        return fold

    def prepare_lock(self, entry: Entry) -> Fold:
        t = self.t
        body = entry.body
        seat = t.expect(entry, EntryKind.LOCK)
        ev = self.event_of(body)
        try:
            got = deck.check_lock_pass(
                body, table=t.table_id, event=ev.number, seat=seat, n=ev.n, inputs=ev.row, A=ev.A[seat]
            )
        except deck.BadBody:
            raise
        except (deck.DeckProofError, group.GroupError) as err:
            return t.cheat(entry, seat, str(err))

        def fold() -> None:
            ev.row = list(got.points)
            ev.locks[seat] = got.locks
            ev.entries.append(deck.EventEntry(entry.seq, seat, EntryKind.LOCK, body))
            self._setup_step(ev)

        return fold

    def _setup_step(self, ev: ShuffleEvent) -> None:
        ev.step += 1
        if ev.locked:
            ev.cur = list(ev.row)
            ev.stripped = [set() for _ in range(ev.n)]
            self.t.finish([ev.number])

    # -- opening positions ------------------------------------------------------------------------

    def prepare_unlock(self, entry: Entry) -> Fold:
        t = self.t
        body = entry.body
        seat = t.expect(entry, EntryKind.UNLOCK)
        ev = self.event_of(body)
        step = t.current(UnlockWork).steps[0]
        if ev.number != step.event:
            raise TableRefusal("illegal", f"the table waits for an unlock of event {step.event}")
        positions = step.positions
        current = {k: ev.cur[k] for k in positions}
        try:
            got = deck.check_unlock(
                body,
                table=t.table_id,
                event=ev.number,
                seat=seat,
                n=ev.n,
                to=step.to,
                current=current,
                locks=ev.locks[seat],
            )
        except deck.BadBody:
            raise
        except (deck.DeckProofError, group.GroupError) as err:
            return t.cheat(entry, seat, str(err))
        if sorted(got.positions) != sorted(positions):
            raise TableRefusal("illegal", f"the unlock must cover positions {positions}")

        def fold() -> None:
            self._step_done(ev, seat, entry.seq, EntryKind.UNLOCK, body, got.positions, got.points)

        return fold

    def _step_done(
        self,
        ev: ShuffleEvent,
        seat: int,
        seq: int,
        kind: EntryKind,
        body: dict[str, Any],
        positions: list[int] | tuple[int, ...],
        points: list[bytes] | tuple[bytes, ...],
    ) -> None:
        """Fold one participant's `unlock` or `reveal` step: its lock leaves each position, the
        step is kept for the seed-reveal recompute, and the work moves on."""
        for k, point in zip(positions, points, strict=True):
            ev.cur[k] = point
            ev.stripped[k].add(seat)
        ev.entries.append(deck.EventEntry(seq, seat, kind, body))
        w = self.t.work
        if not isinstance(w, (UnlockWork, RevealWork)):
            raise GameError(f"an {kind} step folded while the table runs no {kind} work")
        w.steps.pop(0)
        if not w.steps:
            if isinstance(w, RevealWork):
                self._finish_reveal(w)
            else:
                self.t.finish([None] * len(w.ops))

    def prepare_reveal(self, entry: Entry) -> Fold:
        t = self.t
        body = entry.body
        seat = t.expect(entry, EntryKind.REVEAL)
        ev = self.event_of(body)
        step = t.current(RevealWork).steps[0]
        if ev.number != step.event:
            raise TableRefusal("illegal", f"the table waits for a reveal of event {step.event}")
        positions = step.positions
        current = {k: ev.cur[k] for k in positions}
        owner_claims = None
        if ev.private and seat == ev.owner:
            # The owner reveals last and claims each card: its body adds cards, salts and proofs.
            owner_claims = codec.check_map(
                body,
                {"event": int, "positions": list, "keys": list, "cards": list, "salts": list, "proofs": list},
                what="the owner's reveal",
            )
            body = {
                "event": owner_claims["event"],
                "positions": owner_claims["positions"],
                "keys": owner_claims["keys"],
            }
            if (
                not len(owner_claims["cards"])
                == len(owner_claims["salts"])
                == len(owner_claims["proofs"])
                == len(body["positions"])
            ):
                raise TableRefusal("malformed", "the owner's reveal claims one card, salt and proof per position")
        try:
            got = deck.check_reveal(body, event=ev.number, seat=seat, n=ev.n, current=current, locks=ev.locks[seat])
        except deck.BadBody:
            raise
        except (deck.DeckProofError, group.GroupError) as err:
            return t.cheat(entry, seat, str(err))
        if sorted(got.positions) != sorted(positions):
            raise TableRefusal("illegal", f"the reveal must cover positions {positions}")
        claims: dict[int, str] = {}
        if owner_claims is not None:
            rows = zip(
                got.positions,
                got.points,
                owner_claims["cards"],
                owner_claims["salts"],
                owner_claims["proofs"],
                strict=True,
            )
            for k, point, card, salt, proof in rows:
                problem = self._private_claim(ev, card, salt, proof, point)
                if problem:
                    return t.cheat(entry, seat, f"position {k} of event {ev.number}: {problem}")
                if card in ev.public.values() or card in claims.values():
                    return self.opened_twice(seat, ev.number, k, card)
                claims[k] = card

        def fold() -> None:
            ev.public.update(claims)
            self._step_done(ev, seat, entry.seq, EntryKind.REVEAL, body, got.positions, got.points)

        return fold

    def _finish_reveal(self, work: RevealWork) -> None:
        t = self.t
        outcomes = []
        for op in work.opens:
            idents = []
            for e, k in op.positions:
                ev = t.events[e]
                ident = ev.public.get(k) if ev.private else ev.public_index.lookup.get(ev.cur[k])
                if ident is None:
                    # Every lock was removed with checked keys: a point that is no card was planted
                    # in a shuffle; the seed reveal names who.
                    self._request_seeds(e)
                    return
                ev.public[k] = ident
                ev.to[k] = None
                idents.append(ident)
            outcomes.append(tuple(idents))
        t.finish(outcomes)

    def _private_claim(self, ev: ShuffleEvent, card: Any, salt: Any, proof: Any, point: bytes) -> str | None:
        """Why the owner's claim that ``point`` (all other locks removed) is ``card`` fails, or None.

        The card must be on the owner's committed deck list (membership proof with its salt, leaf
        identity "<part>:<card>") and its card point must be ``point``. PROTOCOL.md 6, "Private decks".
        """
        if type(card) is not str:
            return "the card claimed is not a card identity"
        root = self.t.seats[ev.owner_seat].deck
        if root is None or not merkle.verify(root, f"{ev.part}:{card}", salt, proof):
            return f"{card!r} is not on the deck list it committed to"
        if group.card_point(self.t.table_id, ev.deck_name, card) != point:
            return f"the position does not hold {card!r}"
        # A card already public elsewhere in the event is not the claimant's cheat: a shuffle put it
        # there twice; the caller stops play for the seeds, which name who did.
        return None

    # -- the cards a move opens -------------------------------------------------------------------

    def check_opens(self, seat: int, opens: dict[Pos, OpenedCard]) -> OpenCheck:
        """Check each card a move by ``seat`` opens: the position was opened to the seat, the key
        is the seat's lock key for it, and the card is what the position holds (a public deck's
        card point, or a private deck's card on its owner's list). Raises TableRefusal (illegal,
        malformed) for an open that is not the seat's to make; a wrong key or card is a cheat,
        and the check stops at the first."""
        t = self.t
        revealed: dict[Pos, str] = {}
        duplicate: tuple[int, int, str] | None = None
        opened = self.opened_to(seat)
        for (e, k), item in opens.items():
            if not 0 <= e < len(t.events) or (e, k) not in opened:
                raise TableRefusal("illegal", "that card was not dealt to you")
            ev = t.events[e]
            if ev.private != (item.membership is not None):
                raise TableRefusal(
                    "malformed", "a card of a private deck is opened with its salt and proof, and only such a card"
                )
            what = f"its key for position {k} of event {e}"
            try:
                deck.check_key(item.key, ev.locks[seat][k], what)
                if item.membership is not None:
                    salt, proof = item.membership
                    problem = self._private_claim(ev, item.card, salt, proof, deck.remove_lock(item.key, ev.cur[k]))
                    if problem:
                        return OpenCheck(revealed, cheat=problem)
                else:
                    index = ev.public_index
                    if item.card not in index.cards:
                        return OpenCheck(revealed, cheat=f"it claims {item.card!r}, which is not a card of the deck")
                    card = index.points[index.cards.index(item.card)]
                    deck.check_open(item.key, ev.locks[seat][k], ev.cur[k], card, what)
            except (deck.DeckProofError, group.GroupError) as err:
                return OpenCheck(revealed, cheat=str(err))
            seen = set(ev.public.values()) | {c for (ee, _), c in revealed.items() if ee == e}
            if duplicate is None and item.card in seen:
                duplicate = (e, k, item.card)
            revealed[(e, k)] = item.card
        return OpenCheck(revealed, duplicate=duplicate)

    def fold_opens(self, seq: int, seat: int, opens: dict[Pos, OpenedCard], revealed: dict[Pos, str]) -> None:
        """Fold the cards a checked move (log ``seq``) by ``seat`` opens: each is public, and the
        keys are recorded as the seat's reveal of those positions."""
        t = self.t
        by_event: dict[int, list[int]] = {}
        for (e, k), ident in revealed.items():
            ev = t.events[e]
            if ev.private:
                ev.cur[k] = group.card_point(t.table_id, ev.deck_name, ident)
            else:
                index = ev.public_index
                ev.cur[k] = index.points[index.cards.index(ident)]
            ev.stripped[k].add(seat)
            ev.public[k] = ident
            ev.to[k] = None
            by_event.setdefault(e, []).append(k)
        for e, ks in by_event.items():
            # The keys a move opens are recorded as the seat's reveal of those positions, so
            # the seed-reveal recompute checks them too.
            ks.sort()
            keys = [opens[(e, k)].key for k in ks]
            body = {"event": e, "positions": ks, "keys": keys}
            t.events[e].entries.append(deck.EventEntry(seq, seat, EntryKind.REVEAL, body))

    def opened_twice(self, seat: int, e: int, k: int, ident: str) -> Fold:
        """The fold of an entry by ``seat`` that opens position ``k`` of event ``e`` as ``ident``, a
        card already seen in the event: play stops and every seed is asked for; the seeds name
        who planted it (and ``seat`` if they show nothing wrong)."""
        t = self.t

        def fold() -> None:
            t.notes.append(
                Note(
                    f"{{s{seat}}} opens {ident}, a card already seen in this deal: a shuffle planted it twice. "
                    "Every participant now reveals its seed.",
                    (seat,),
                )
            )
            self._request_seeds(e, seat)

        return fold

    # -- complaints and seeds ---------------------------------------------------------------------

    def prepare_complaint(self, entry: Entry) -> Fold:
        t = self.t
        body = entry.body
        seat = t.author_seat(entry)
        if t.phase != Phase.RUNNING:
            raise TableRefusal("illegal", "complaints are for a running game")
        ev = self.event_of(body)
        k = body.get("position") if isinstance(body, dict) else None
        if type(k) is not int or not 0 <= k < ev.n or (ev.number, k) not in self.opened_to(seat):
            raise TableRefusal("illegal", "a complaint is about a position opened to its author")
        seen = set(ev.public.values())
        try:
            reason = deck.check_complaint(
                body,
                event=ev.number,
                seat=seat,
                n=ev.n,
                lock=ev.locks[seat][k],
                point=ev.cur[k],
                index=ev.index.lookup if ev.index else {},
                seen=seen,
            )
        except deck.BadBody:
            raise
        except (deck.DeckProofError, group.GroupError) as err:
            return t.cheat(entry, seat, f"false complaint: {err}")

        def fold() -> None:
            t.notes.append(Note(f"{{s{seat}}} complains: {reason} Every participant now reveals its seed.", (seat,)))
            self._request_seeds(ev.number, seat)

        return fold

    def _request_seeds(self, event: int, complainer: int | None = None) -> None:
        """Stop play and ask every participant of ``event`` for its seed (PROTOCOL.md 6)."""
        t = self.t
        ev = t.events[event]
        t.queue = []
        t.work = SeedsWork(
            event, [p for p in ev.order if p not in ev.seeds], purpose="complaint", complainer=complainer
        )

    def prepare_seed_reveal(self, entry: Entry) -> Fold:
        t = self.t
        body = entry.body
        seat = t.expect(entry, EntryKind.SEED_REVEAL)
        ev = self.event_of(body)
        work = t.work
        if isinstance(work, SeedsWork):
            expected = work.event
        elif isinstance(work, ReleaseWork):
            expected = work.waiting[0]
        else:
            raise TableRefusal("illegal", "the table waits for no seed")
        if ev.number != expected:
            raise TableRefusal("illegal", f"the table waits for the seed of event {expected}")
        deck_list = None
        if isinstance(body, dict) and ("list" in body or "salts" in body):
            b = codec.check_map(
                body, {"event": int, "seed": bytes, "list": list, "salts": list}, what="a seed reveal with a deck list"
            )
            root = t.seats[seat].deck
            if seat in t.lists or root is None:
                raise TableRefusal("illegal", "a deck list is revealed once, by a seat that committed to one")
            try:
                merkle.check_list(root, b["list"], b["salts"])
            except VampireError as err:
                return t.cheat(entry, seat, f"its revealed deck list does not match its commitment: {err}")
            deck_list = list(b["list"])
            body = {"event": b["event"], "seed": b["seed"]}
        elif ev.private and ev.owner == seat and seat not in t.lists:
            raise TableRefusal("illegal", "the owner of a private deck reveals its deck list with its seed")
        try:
            seed = deck.check_seed_reveal(body, table=t.table_id, event=ev.number, seat=seat, commit=ev.commits[seat])
        except deck.BadSeed as err:
            return t.cheat(entry, seat, str(err))

        def fold() -> None:
            if deck_list is not None:
                t.lists[seat] = deck_list
            ev.seeds[seat] = seed
            match work:
                case ReleaseWork(waiting=waiting):
                    # The seat leaves this event: from now on the table removes its locks itself.
                    waiting.pop(0)
                    if not waiting:
                        t.finish([None])
                case SeedsWork(waiting=waiting):
                    waiting.remove(seat)
                    if not waiting:
                        self._seeds_in(entry, ev, work)

        return fold

    def _seeds_in(self, entry: Entry, ev: ShuffleEvent, work: SeedsWork) -> None:
        """Every seed of ``ev`` is revealed: recompute the event (PROTOCOL.md 6, "Audit"); a step
        that differs from its seed, a card that is not the deck's or a claim that was false is a
        proven cheat; else the cards are the outcome, or a complaint proves its author wrong."""
        t = self.t
        index = ev.index
        if index is None:
            index = self._private_index(ev)
            if index is None or len(index.cards) != ev.n:
                t.stop(
                    ProvenCheat(
                        entry.seq,
                        ev.owner_seat,
                        f"the cards of its private deck {ev.deck_name!r} cannot be rebuilt from its revealed list",
                    )
                )
                return
        audit = deck.recompute_event(
            table=t.table_id,
            event=ev.number,
            participants=ev.order,
            seeds=ev.seeds,
            inputs=index.points,
            index=index.lookup,
            entries=ev.entries,
        )
        if audit.first_fault is not None:
            f = audit.first_fault
            t.stop(ProvenCheat(f.seq if f.seq is not None else entry.seq, f.seat, f.detail))
            t.notes.append(Note(f"The seed reveal proves that {{s{f.seat}}} cheated: {f.detail}", (f.seat,)))
            return
        if not audit.ok or audit.cards is None:
            t.stop(ProvenCheat(entry.seq, ev.order[0], "the event decodes to cards that are not the deck's"))
            return
        ev.cards = audit.cards
        # Every claim made during the event must match what was really there.
        for k, ident in ev.public.items():
            if audit.cards[k] != ident:
                t.stop(
                    ProvenCheat(
                        entry.seq, ev.order[0], f"position {k} was claimed as {ident} but holds {audit.cards[k]}"
                    )
                )
                return
        if work.purpose == "complaint":
            # The seeds show every step honest and every card a card: the complaint was false.
            blamed = work.complainer if work.complainer is not None else ev.order[0]
            t.stop(ProvenCheat(entry.seq, blamed, "a complaint that the revealed seeds do not support"))
            return
        t.finish([tuple(audit.cards)])

    def _private_index(self, ev: ShuffleEvent) -> deck.CardIndex | None:
        """The cards a private event started from, in the owner's canonical order: its deck list's
        part for a first shuffle (list order), the decoded cards of the source positions for a
        reshuffle (sorted by identity). None while they are not known."""
        t = self.t
        listed = t.lists.get(ev.owner_seat)
        if listed is None:
            return None
        prefix = ev.part + ":"
        part = [leaf[len(prefix) :] for leaf in listed if leaf.startswith(prefix)]
        cards: list[str] | None
        if not ev.source:
            cards = part
        else:
            cards = []
            for e, k in ev.source:
                src = t.events[e]
                ident = src.public.get(k) or (src.cards[k] if src.cards is not None else None)
                if ident is None:
                    break
                cards.append(ident)
            else:
                cards.sort()
            if len(cards) != len(ev.source):
                # The source positions cannot be decoded (a seat that abandoned never revealed its
                # seeds for them): the cards reshuffled are read from this event itself, every lock
                # removed with the revealed seeds, and must all be cards of the owner's list.
                cards = self._decoded_from_seeds(ev, part)
                if cards is None:
                    return None
        try:
            return deck.CardIndex.build(t.table_id, ev.deck_name, cards)
        except deck.DeckProofError:
            return None

    def _decoded_from_seeds(self, ev: ShuffleEvent, candidates: list[str]) -> list[str] | None:
        """The cards at every position of ``ev`` (all seeds revealed), sorted; None if a position
        holds no card of ``candidates``."""
        t = self.t
        try:
            index = deck.CardIndex.build(t.table_id, ev.deck_name, candidates)
        except deck.DeckProofError:
            return None
        keys = [deck.EventSecrets.derive(ev.seeds[p], t.table_id, ev.number, p, ev.n).lock_keys for p in ev.order]
        cards = []
        for k in range(ev.n):
            total = keys[0][k]
            for other in keys[1:]:
                total = group.scalar_mul(total, other[k])
            try:
                ident = index.lookup.get(deck.remove_lock(total, ev.row[k]))
            except group.GroupError:
                ident = None
            if ident is None:
                return None
            cards.append(ident)
        return sorted(cards)
