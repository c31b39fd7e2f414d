"""Hidden cards: the deck protocol (PROTOCOL.md 6, version 2), joint-key ElGamal decks whose every
shuffle is proven.

A game asks for hidden-card operations (:class:`~engine.games.base.Shuffle`,
:class:`~engine.games.base.Open`, :class:`~engine.games.base.EndEvent`,
:class:`~engine.games.base.Release`); :class:`DeckEvents` runs each through the deck protocol of
:mod:`engine.protocol.elgamal` and :mod:`engine.protocol.shuffle_proof`, in four parts that follow
an event's life (PROTOCOL.md 6.3):

- :mod:`~engine.table.hidden.setup`: a new event, its `key`s, a private owner's `deck` and the
  proven `shuffle`s (items 1-3);
- :mod:`~engine.table.hidden.opening`: the `share`s and `reveal`s that open positions, and the
  cards a move opens (item 4);
- :mod:`~engine.table.hidden.disputes`: a `complaint` and how the owner's list settles it (item 5);
- :mod:`~engine.table.hidden.closing`: a leaving seat's `key-reveal`s, the `seed-reveal`s that end
  an event and the recompute they allow (items 6, 7), with :mod:`~engine.table.hidden.rederive`,
  the strict audit's re-derivation.

Every part reads the events through :class:`~engine.table.events.EventBook` and changes the table
only through its methods (:meth:`Table.begin`, :meth:`Table.finish`, :meth:`Table.stop`…); no part
imports another.

Every entry gets the cheap checks first (PROTOCOL.md 6.5: shape, types, every point and scalar
valid); one that fails them is refused (:class:`~engine.table.vocab.TableRefusal`, ``malformed``)
and changes nothing. A well-formed entry whose proof, share or claim fails is a proven cheat: it is
appended and the table stops naming its author at that entry. A proof that verifies makes its
entry's cheap checks needless (its points went through checked multiplications): a fold that
verifies at once checks the proof first and makes them only when it fails, with the same verdict.
How much is checked is the table's :class:`~engine.table.vocab.Checks`: ``peer`` (everyone),
``strict`` (the seed reveal also re-derives every proof and share from the seeds), ``cheap``
(reading a result: no proof, share or shuffle is checked).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.games.base import Draw, EndEvent, Open, Pos, Release, Shuffle
from engine.protocol.log import Entry
from engine.table.events import EventBook, ShuffleEvent
from engine.table.hidden.closing import Closing
from engine.table.hidden.disputes import Disputes
from engine.table.hidden.opening import OpenCheck, OpenedCard, Opening, parse_opens
from engine.table.hidden.rederive import Rederivation
from engine.table.hidden.setup import EventSetup
from engine.table.vocab import EntryKind
from engine.table.work import ReleaseWork, RevealWork, SeedsWork, ShareWork, ShuffleWork

if TYPE_CHECKING:
    from collections.abc import Callable

    from engine.table.table import Fold, Table

__all__ = ["DeckEvents", "OpenCheck", "OpenedCard", "parse_opens"]


class DeckEvents:
    """Runs shuffle events over the table's state (:attr:`Table.events`, its work and its seats):
    the table starts each operation (``start_*``), dispatches the deck entries to
    :meth:`handlers`, asks what the deck work owes (:meth:`owed`, :meth:`entries_ahead`) and lets
    it finish an open nothing is owed for any more (:meth:`settle`)."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.book = EventBook(table)
        self.setup = EventSetup(table, self.book)
        self.opening = Opening(table, self.book)
        self.disputes = Disputes(table, self.book)
        self.rederivation = Rederivation(table, self.book)
        self.closing = Closing(table, self.book, self.disputes.settled, self.rederivation)

    def handlers(self) -> dict[EntryKind, Callable[[Entry], Fold]]:
        """The handler of each deck entry kind: it checks an entry and returns its fold, or raises
        :class:`~engine.table.vocab.TableRefusal`."""
        return {
            EntryKind.KEY: self.setup.prepare_key,
            EntryKind.DECK: self.setup.prepare_deck,
            EntryKind.SHUFFLE: self.setup.prepare_shuffle,
            EntryKind.SHARE: self.opening.prepare_share,
            EntryKind.REVEAL: self.opening.prepare_reveal,
            EntryKind.KEY_REVEAL: self.closing.prepare_key_reveal,
            EntryKind.COMPLAINT: self.disputes.prepare_complaint,
            EntryKind.SEED_REVEAL: self.closing.prepare_seed_reveal,
        }

    # -- starting the game's operations -----------------------------------------------------------

    def start_shuffle(self, op: Shuffle) -> None:
        """Start the set-up of a new event (:meth:`EventSetup.start_shuffle`)."""
        self.setup.start_shuffle(op)

    def start_open(self, batch: list[Open]) -> None:
        """Open a batch of positions, all to seats or all to everyone (:meth:`Opening.start_open`)."""
        self.opening.start_open(batch)

    def start_release(self, op: Release) -> None:
        """A seat leaves the game (:meth:`Closing.start_release`)."""
        self.closing.start_release(op)

    def start_end(self, op: EndEvent) -> None:
        """End an event with its seeds (:meth:`Closing.start_end`)."""
        self.closing.start_end(op)

    def settle(self) -> bool:
        """Finish the open under way if nothing is owed for it any more. Returns whether work
        finished (:meth:`Opening.settle`)."""
        return self.opening.settle()

    # -- what the deck works owe ------------------------------------------------------------------

    def owed(self) -> list[tuple[int, EntryKind]]:
        """(seat, kind) pairs the deck work under way waits for."""
        t = self.t
        match t.work:
            case ShuffleWork(event=e):
                return self.setup.setup_owed(t.events[e])
            case ShareWork() as w:
                return sorted({(s, EntryKind.SHARE) for s, _ in self.shares_owed(w)})
            case RevealWork() as w:
                out = {(s, EntryKind.SHARE) for s, _ in self.shares_owed(w)}
                out |= {(t.events[e].owner_seat, EntryKind.REVEAL) for e in self.reveals_owed(w)}
                return sorted(out)
            case SeedsWork(waiting=waiting):
                return [(s, EntryKind.SEED_REVEAL) for s in waiting]
            case ReleaseWork(waiting=[(kind, _), *_]) as release:
                return [(release.seat, EntryKind(kind))]
        return []

    def entries_ahead(self, queue: list[Any]) -> int:
        """How many entries the deck work under way and the operations of ``queue`` still need:
        keys, `deck`s, shuffles, share entries (one per seat and event), reveals, seed reveals
        (PROTOCOL.md 6.3). Exact for the work under way and queued shuffles; for a queued open or
        release, what the events known now say (an estimate for a progress bar)."""
        t = self.t
        ahead = 0
        match t.work:
            case ShuffleWork(event=e):
                ev = t.events[e]
                ahead += (len(ev.order) - len(ev.keys) if ev.own_keys else 0) + len(ev.shufflers) - len(ev.shuffles)
                ahead += 1 if ev.needs_deck and ev.deck_seq is None else 0
            case ShareWork() as w:
                ahead += len(self.shares_owed(w))
            case RevealWork() as w:
                ahead += len(self.shares_owed(w)) + len({e for op in w.opens for e, k in op.positions})
            case SeedsWork(waiting=waiting) | ReleaseWork(waiting=waiting):
                ahead += len(waiting)
        holders = {ev.number: len(self.holders(ev)) for ev in t.events}
        number = len(t.events)
        for op in queue:
            match op:
                case Shuffle(participants=participants, source=source):
                    # Own keys: a key from each participant, then p shuffles (or, for a private
                    # deck, the owner's `deck` and the others' p - 1 shuffles); a reshuffle: p shuffles.
                    p = len(participants)
                    holders[number] = p
                    number += 1
                    ahead += p if source else 2 * p
                case Open(positions=positions, to=to):
                    events = {e for e, _ in positions}
                    ahead += sum(max(holders.get(e, 1) - 1, 0) for e in events)
                    ahead += len(events) if to is None else 0
                case EndEvent(event=e):
                    ahead += holders.get(e, 1)
                case Draw():
                    ahead += 2 * len(t.active_seats())  # a commit and a reveal each
                case _:
                    ahead += 1
        return ahead

    # -- what seats and readers ask -----------------------------------------------------------------

    def shares_owed(self, work: ShareWork | RevealWork) -> dict[tuple[int, int], list[int]]:
        """(seat, event) -> positions (increasing) whose share the seat owes for ``work``
        (:meth:`Opening.shares_owed`)."""
        return self.opening.shares_owed(work)

    def reveals_owed(self, work: RevealWork) -> dict[int, list[int]]:
        """event -> positions its private owner now owes in a `reveal` (:meth:`Opening.reveals_owed`)."""
        return self.opening.reveals_owed(work)

    def holders(self, ev: ShuffleEvent) -> tuple[int, ...]:
        """The seats holding a key share of ``ev`` (:meth:`EventBook.holders`)."""
        return self.book.holders(ev)

    def key_of(self, ev: ShuffleEvent, seat: int) -> bytes:
        """``seat``'s key share X for ``ev``, a 32-byte point (:meth:`EventBook.key_of`)."""
        return self.book.key_of(ev, seat)

    def decode_point_without(self, ev: ShuffleEvent, k: int, seat: int) -> bytes:
        """Σ of every known share of position ``k`` but ``seat``'s, a 32-byte point
        (:meth:`EventBook.decode_point_without`)."""
        return self.book.decode_point_without(ev, k, seat)

    def opened_to(self, seat: int) -> list[Pos]:
        """Positions opened to ``seat`` that it can decode (:meth:`EventBook.opened_to`)."""
        return self.book.opened_to(seat)

    def check_opens(self, seat: int, opens: dict[Pos, OpenedCard]) -> OpenCheck:
        """Check the cards a move by ``seat`` opens (:meth:`Opening.check_opens`)."""
        return self.opening.check_opens(seat, opens)

    def fold_opens(self, seq: int, seat: int, opens: dict[Pos, OpenedCard], revealed: dict[Pos, str]) -> None:
        """Fold the cards a checked move opens (:meth:`Opening.fold_opens`)."""
        self.opening.fold_opens(seq, seat, opens, revealed)

    @property
    def rederived(self) -> int:
        """Key proofs, proofs of shuffle and shares a strict table re-derived from their seeds."""
        return self.rederivation.rederived

    @property
    def underived(self) -> int:
        """Those a strict table could not re-derive: their author's seed was never revealed."""
        return self.rederivation.underived

    @property
    def released(self) -> set[int]:
        """The seats that left the game and revealed their keys."""
        return self.closing.released
