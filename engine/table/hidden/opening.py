"""Opening positions of a set-up event (PROTOCOL.md 6.3, item 4): to one seat, every other key
holder publishes its decryption share (`share`); to everyone, every holder whose share is not public
does, a private deck's owner last with its `reveal`; a move opens the cards dealt to its author
(its ``open`` list, checked here for :mod:`engine.table.acts`). An open is done, and its outcome
folded into the game, once no share is owed for it (a seat that left owes none: its shares are
computed from its revealed key).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.games.base import GameError, Open, Pos
from engine.protocol import codec, elgamal, shuffle_proof
from engine.protocol.log import Entry
from engine.table.events import REFUSED, EventBook, ShuffleEvent, refuse_unless
from engine.table.vocab import Checks, EntryKind, TableRefusal
from engine.table.work import RevealWork, ShareWork

SHARES_IN_PARALLEL = 4
"""From this many shares in one entry, their proofs are verified in the parts pool at once."""

if TYPE_CHECKING:
    from engine.table.table import Fold, Table


@dataclass(frozen=True)
class OpenedCard:
    """A card a move opens (PROTOCOL.md 6.3, item 4): the mover's decryption share ``D`` of the
    position with its DLEQ ``proof``, and the ``card`` identity it claims; for a private deck,
    ``membership`` is the salt and Merkle proof that the card is on the owner's list (unchecked)."""

    D: Any
    proof: Any
    card: str
    membership: tuple[Any, Any] | None = None


@dataclass(frozen=True)
class OpenCheck:
    """What checking a move's opened cards found: the verified identities (``revealed``), or the
    ``cheat`` (seat, sentence) the entry proves."""

    revealed: dict[Pos, str]
    cheat: tuple[int, str] | None = None


def parse_opens(raw: list[Any], points: bool = True) -> dict[Pos, OpenedCard]:
    """The opened cards of a move's ``open`` list (``[[event, index], D, proof, card]``, and for a
    private deck salt and membership proof). Raises TableRefusal (malformed) for an item of another
    shape or a share that fails the cheap checks (with ``points`` False, D is not checked to be a
    valid point: for a table of :attr:`Checks.CHEAP` only)."""
    opens: dict[Pos, OpenedCard] = {}
    for item in raw:
        if (
            not isinstance(item, list)
            or len(item) not in (4, 6)
            or not isinstance(item[0], list)
            or len(item[0]) != 2
            or any(type(x) is not int for x in item[0])
            or type(item[3]) is not str
        ):
            raise TableRefusal(
                "malformed",
                "a move opens cards as [[event, index], share, proof, card] "
                "(and, for a private deck, salt and membership proof)",
            )
        try:
            elgamal.check_share_fields(
                item[1], item[2], f"the share of position {item[0][1]} of event {item[0][0]}", points=points
            )
        except REFUSED as err:
            raise TableRefusal("malformed", str(err)) from None
        membership = (item[4], item[5]) if len(item) == 6 else None
        opens[(item[0][0], item[0][1])] = OpenedCard(item[1], item[2], item[3], membership)
    return opens


def _positions(value: Any, n: int, what: str) -> list[int]:
    ks = codec.check_list(value, int, what, 1)
    if any(type(k) is not int or not 0 <= k < n for k in ks) or any(a >= b for a, b in itertools.pairwise(ks)):
        raise TableRefusal("malformed", f"{what} must be strictly increasing positions of the deck")
    return ks


class Opening:
    """Starts opens, handles `share` and `reveal` entries and checks the cards a move opens."""

    def __init__(self, table: Table, book: EventBook) -> None:
        self.t = table
        self.book = book

    def shares_owed(self, work: ShareWork | RevealWork) -> dict[tuple[int, int], list[int]]:
        """(seat, event) -> positions (increasing) whose share the seat owes for ``work``: every
        key holder but the recipient (to a seat) or but a private deck's owner (to everyone, the
        owner reveals last) whose share is not known yet."""
        owed: dict[tuple[int, int], set[int]] = {}
        holders: dict[int, tuple[int, ...]] = {}  # asked for every position of a deal: once per event
        for op in work.opens:
            for e, k in op.positions:
                ev = self.t.events[e]
                if e not in holders:
                    holders[e] = self.book.holders(ev)
                published = ev.shares[k]
                for h in holders[e]:
                    if h == op.to or (op.to is None and ev.private and h == ev.owner):
                        continue
                    if published.get(h) is None and self.book.share_of(ev, k, h) is None:
                        owed.setdefault((h, e), set()).add(k)
        return {key: sorted(ks) for key, ks in owed.items()}

    def reveals_owed(self, work: RevealWork) -> dict[int, list[int]]:
        """event -> positions its private owner now owes in a `reveal`: those not yet public whose
        every other share is known."""
        owed: dict[int, set[int]] = {}
        for op in work.opens:
            for e, k in op.positions:
                ev = self.t.events[e]
                if not ev.private or k in ev.public:
                    continue
                others = [h for h in self.book.holders(ev) if h != ev.owner]
                if all(self.book.share_of(ev, k, h) is not None for h in others):
                    owed.setdefault(e, set()).add(k)
        return {e: sorted(ks) for e, ks in owed.items()}

    def settle(self) -> bool:
        """Finish the open under way if nothing is owed for it any more (the shares of a seat that
        left are computed from its revealed key). Returns whether work finished."""
        t = self.t
        w = t.work
        if isinstance(w, ShareWork) and not self.shares_owed(w):
            t.finish([None] * len(w.opens))
            return True
        if isinstance(w, RevealWork) and not self.shares_owed(w) and not self.reveals_owed(w):
            self._finish_reveal(w)
            return True
        return False

    def start_open(self, batch: list[Open]) -> None:
        """Open a batch of positions, all to seats or all to everyone: the key holders owe shares
        (PROTOCOL.md 6.3, item 4); done at once when none is owed."""
        t = self.t
        if batch[0].to is None:
            t.begin(RevealWork(tuple(batch)))
        else:
            for op in batch:
                if op.to is None:
                    raise GameError("an open to everyone cannot be batched with opens to seats")
                for e, k in op.positions:
                    t.events[e].to[k] = op.to
                    t.events[e].dealt[k] = op.to
            t.begin(ShareWork(tuple(batch)))
        self.settle()

    def _check_shares(
        self, entry: Entry, seat: int, ev: ShuffleEvent, ks: list[int], shares: list[Any], proofs: list[Any]
    ) -> str | None:
        """Cheap-check (refusal) then verify ``seat``'s shares of positions ``ks`` in ``entry``; the
        sentence of the first that fails its proof, or None."""
        t = self.t
        if not len(ks) == len(shares) == len(proofs):
            raise TableRefusal("malformed", "a share entry gives one share and one proof per position")

        def cheap_checks(points: bool = True) -> None:
            for k, D, proof in zip(ks, shares, proofs, strict=True):
                refuse_unless(elgamal.check_share_fields, D, proof, f"the share of position {k}", points=points)

        if t.checks == Checks.CHEAP:
            cheap_checks(points=False)
            return None
        X = self.book.key_of(ev, seat)
        items = list(zip(ks, shares, proofs, strict=True))

        def verifies(item: tuple[int, Any, Any]) -> bool:
            k, D, proof = item
            return elgamal.verify_share(t.table_id, ev.number, seat, k, X, ev.cur[k][0], D, proof)

        # A share this process made, or verified already, is answered here (group.OWN_PROOFS,
        # VERIFY_MEMO): queued behind the pool's proofs it would hold the fold up for nothing.
        answers = [
            elgamal.known_share(t.table_id, ev.number, seat, k, X, ev.cur[k][0], D, proof) for k, D, proof in items
        ]
        unknown = [i for i, answer in enumerate(answers) if answer is None]
        # Many shares (a deal's) are verified on every core at once (libsodium releases the GIL;
        # these tasks wait on nothing, so the parts pool suits them wherever this runs); the
        # verdict is the first that fails in the entry's order, as one after another.
        if len(unknown) >= SHARES_IN_PARALLEL:
            found = shuffle_proof.parts_pool().map(verifies, [items[i] for i in unknown])
        else:
            found = (verifies(items[i]) for i in unknown)
        for i, verified in zip(unknown, found, strict=True):
            answers[i] = verified
        for (k, _, _), ok in zip(items, answers, strict=True):
            if not ok:
                # A share whose proof verifies went through checked multiplications: the cheap
                # checks (PROTOCOL.md 6.5) are needless then; they come first when one fails.
                cheap_checks()
                return f"its share of position {k} of event {ev.number} fails its proof"
        return None

    def prepare_share(self, entry: Entry) -> Fold:
        t = self.t
        seat = t.expect(entry, EntryKind.SHARE)
        ev = self.book.event_of(entry.body)
        b = codec.check_map(
            entry.body, {"event": int, "positions": list, "shares": list, "proofs": list}, what="a share"
        )
        ks = _positions(b["positions"], ev.n, "the share's positions")
        work = t.work
        if not isinstance(work, (ShareWork, RevealWork)):
            raise TableRefusal("illegal", "the table waits for no share")
        owed = set(self.shares_owed(work).get((seat, ev.number), ()))
        if not set(ks) <= owed:
            raise TableRefusal("illegal", f"seat {seat} owes no share of those positions of event {ev.number}")
        problem = self._check_shares(entry, seat, ev, ks, b["shares"], b["proofs"])
        if problem:
            return t.cheat(entry, seat, problem)

        def fold() -> None:
            for k, D in zip(ks, b["shares"], strict=True):
                ev.shares[k][seat] = D
            self.book.keep_shares(ev, entry.seq, seat, zip(ks, b["shares"], b["proofs"], strict=True))

        return fold

    def prepare_reveal(self, entry: Entry) -> Fold:
        t = self.t
        seat = t.expect(entry, EntryKind.REVEAL)
        ev = self.book.event_of(entry.body)
        b = codec.check_map(entry.body, {"event": int, "items": list}, what="an owner's reveal")
        work = t.current(RevealWork)
        if ev.owner != seat:
            raise TableRefusal("not-your-turn", "only a private deck's owner reveals its cards")
        owed = self.reveals_owed(work).get(ev.number, [])
        items = b["items"]
        if any(type(i) is not list or len(i) != 6 or type(i[0]) is not int for i in items):
            raise TableRefusal(
                "malformed", "a reveal's items are [position, share, proof, card, salt, membership proof]"
            )
        ks = [i[0] for i in items]
        if ks != owed:
            raise TableRefusal("illegal", f"the reveal must cover positions {owed} of event {ev.number}")
        problem = self._check_shares(entry, seat, ev, ks, [i[1] for i in items], [i[2] for i in items])
        if problem:
            return t.cheat(entry, seat, problem)
        claims: dict[int, str] = {}
        for k, D, _proof, card, salt, membership in items:
            point = elgamal.decode(ev.cur[k], [self.book.decode_point_without(ev, k, seat), D])
            why = self.book.private_claim(ev, card, salt, membership, point)
            if why:
                return t.cheat(entry, seat, f"position {k} of event {ev.number}: {why}")
            if card in ev.public.values() or card in claims.values():
                return t.cheat(entry, seat, f"it claims {card!r} twice in its deck {ev.deck_name!r}")
            claims[k] = card

        def fold() -> None:
            for k, D, *_ in items:
                ev.shares[k][seat] = D
                ev.to[k] = None
            ev.public.update(claims)
            self.book.keep_shares(ev, entry.seq, seat, ((i[0], i[1], i[2]) for i in items))

        return fold

    def _finish_reveal(self, work: RevealWork) -> None:
        t = self.t
        outcomes = []
        for op in work.opens:
            idents = []
            for e, k in op.positions:
                ev = t.events[e]
                if ev.private:
                    ident = ev.public[k]
                else:
                    ident = ev.public_index.lookup.get(self.book.decode(ev, k), "")
                    ev.public[k] = ident
                ev.to[k] = None
                idents.append(ident)
            outcomes.append(tuple(idents))
        t.finish(outcomes)

    def check_opens(self, seat: int, opens: dict[Pos, OpenedCard]) -> OpenCheck:
        """Check each card a move by ``seat`` opens: the position was opened to the seat, its share
        is proven, and the card is what the position holds (a public deck's card, or a private
        deck's card on its owner's list). Raises TableRefusal (illegal, malformed) for an open that
        is not the seat's to make; a failed proof or a false card is a cheat of the seat."""
        t = self.t
        revealed: dict[Pos, str] = {}
        opened = self.book.opened_to(seat) if opens else []  # most moves open nothing
        for (e, k), item in opens.items():
            if not 0 <= e < len(t.events) or (e, k) not in opened:
                raise TableRefusal("illegal", "that card was not dealt to you")
            ev = t.events[e]
            if ev.private != (item.membership is not None):
                raise TableRefusal(
                    "malformed", "a card of a private deck is opened with its salt and proof, and only such a card"
                )
            X = self.book.key_of(ev, seat)
            if t.checks != Checks.CHEAP and not elgamal.verify_share(
                t.table_id, e, seat, k, X, ev.cur[k][0], item.D, item.proof
            ):
                return OpenCheck(revealed, cheat=(seat, f"its share of position {k} of event {e} fails its proof"))
            point = elgamal.decode(ev.cur[k], [self.book.decode_point_without(ev, k, seat), item.D])
            if item.membership is not None:
                salt, proof = item.membership
                problem = self.book.private_claim(ev, item.card, salt, proof, point)
                if problem:
                    return OpenCheck(revealed, cheat=(seat, problem))
                seen = set(ev.public.values()) | {c for (ee, _), c in revealed.items() if ee == e}
                if item.card in seen:
                    return OpenCheck(
                        revealed, cheat=(ev.owner_seat, f"its deck {ev.deck_name!r} holds {item.card!r} twice")
                    )
            else:
                held = ev.public_index.lookup.get(point)
                if held != item.card:
                    return OpenCheck(
                        revealed, cheat=(seat, f"it claims {item.card!r}, but the position holds another card")
                    )
            revealed[(e, k)] = item.card
        return OpenCheck(revealed)

    def fold_opens(self, seq: int, seat: int, opens: dict[Pos, OpenedCard], revealed: dict[Pos, str]) -> None:
        """Fold the cards a checked move (log ``seq``) by ``seat`` opens: its shares are public and
        each card is public."""
        for (e, k), ident in revealed.items():
            ev = self.t.events[e]
            item = opens[(e, k)]
            ev.shares[k][seat] = item.D
            ev.public[k] = ident
            ev.to[k] = None
            self.book.keep_shares(ev, seq, seat, [(k, item.D, item.proof)])
