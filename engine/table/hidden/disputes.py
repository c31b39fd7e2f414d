"""Disputes (PROTOCOL.md 6.3, item 5): a seat complains that a position opened to it decodes to no
card. For a public deck everyone decodes it at once; for a private deck the owner must reveal its
seed, list and salts (a :class:`~engine.table.work.SeedsWork` of purpose ``complaint``), and the
list settles who cheated: the complainer (a false complaint) or the owner (a card not on its list).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.games.base import Note
from engine.protocol import codec, elgamal, group
from engine.protocol.log import Entry
from engine.table.events import EventBook, ShuffleEvent, refuse_unless
from engine.table.vocab import Checks, Phase, ProvenCheat, TableRefusal
from engine.table.work import SeedsWork

if TYPE_CHECKING:
    from engine.table.table import Fold, Table


class Disputes:
    """Handles `complaint` entries and settles a complaint once the owner's list is revealed."""

    def __init__(self, table: Table, book: EventBook) -> None:
        self.t = table
        self.book = book

    def prepare_complaint(self, entry: Entry) -> Fold:
        """A recipient publishes its own share of a position opened to it that decodes to no card
        (PROTOCOL.md 6.3, item 5). For a public deck everyone decodes it at once: a card means a
        false complaint. For a private deck the owner must reveal its seed, list and salts."""
        t = self.t
        seat = t.author_seat(entry)
        if t.phase != Phase.RUNNING:
            raise TableRefusal("illegal", "complaints are for a running game")
        ev = self.book.event_of(entry.body)
        b = codec.check_map(
            entry.body, {"event": int, "position": int, "share": bytes, "proof": bytes}, what="a complaint"
        )
        k = b["position"]
        if not 0 <= k < ev.n or (ev.number, k) not in self.book.opened_to(seat) or ev.owner == seat or k in ev.public:
            raise TableRefusal("illegal", "a complaint is about a hidden position opened to its author, not its owner")
        if isinstance(t.work, SeedsWork) and t.work.purpose == "complaint":
            raise TableRefusal("illegal", "the table already settles a complaint")
        refuse_unless(
            elgamal.check_share_fields, b["share"], b["proof"], "the complaint's share", points=t.checks != Checks.CHEAP
        )
        if t.checks != Checks.CHEAP and not elgamal.verify_share(
            t.table_id, ev.number, seat, k, self.book.key_of(ev, seat), ev.cur[k][0], b["share"], b["proof"]
        ):
            return t.cheat(entry, seat, f"false complaint: its share of position {k} fails its proof")
        point = elgamal.decode(ev.cur[k], [self.book.decode_point_without(ev, k, seat), b["share"]])
        if not ev.private:
            held = ev.public_index.lookup.get(point)
            if held is not None:
                return t.cheat(entry, seat, f"false complaint: position {k} of event {ev.number} holds {held}")

        def fold() -> None:
            ev.shares[k][seat] = b["share"]
            self.book.keep_shares(ev, entry.seq, seat, [(k, b["share"], b["proof"])])
            if not ev.private:
                # Every shuffle and share was proven: a public deck cannot hold a point that is no
                # card. Nothing names a cheat; play cannot go on.
                t.stop(ProvenCheat(entry.seq, ev.order[0], f"position {k} of event {ev.number} holds no card"))
                return
            owner = ev.owner_seat
            t.narrate(
                Note(
                    f"{{s{seat}}} complains about a card of {{s{owner}}}'s deck; {{s{owner}}} reveals its list.",
                    (seat, owner),
                )
            )
            waiting = [] if owner in ev.seeds and owner in t.lists else [owner]
            work = SeedsWork(ev.number, waiting, purpose="complaint", complainer=seat, complaint=point)
            t.interrupt(work)
            if not waiting:
                self.settled(entry, ev, work)

        return fold

    def settled(self, entry: Entry, ev: ShuffleEvent, work: SeedsWork) -> None:
        """The owner revealed its list: the complained-of point is a card of its part (a false
        complaint) or not (the owner's `deck` held a card not on its list)."""
        t = self.t
        points = {group.card_point(t.table_id, ev.deck_name, c) for c in self.book.part_list(ev.owner_seat, ev.part)}
        complainer = work.complainer if work.complainer is not None else ev.order[0]
        if work.complaint in points:
            t.stop(ProvenCheat(entry.seq, complainer, "a complaint that the revealed list does not support"))
        else:
            seq = ev.deck_seq if ev.deck_seq is not None else entry.seq
            t.stop(ProvenCheat(seq, ev.owner_seat, f"its deck {ev.deck_name!r} holds a card not on its list"))
        t.narrate(Note(f"The table stops: {t.fault.describe(t.names) if t.fault else ''}", ()))
