"""One seat's private side (DESIGN.md, "engine/seat"): the only place that holds secrets.

A :class:`Seat` has its identity key, its secrets file, its own fold of the table, and the cards
opened to it. It produces its entries: the protocol duties it performs by itself (rand-commit,
rand-reveal, key, deck, shuffle, share, reveal, key-reveal, seed-reveal, complaint) and the moves its player
chooses, with the decryption shares a move must open. Bots and the TUI see :meth:`Seat.view`: the public
state plus what this seat may know.
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.games.base import Act, Game, IllegalMove, Note, Pos
from engine.protocol import codec, deck, elgamal, group, merkle, shuffle_proof
from engine.protocol.elgamal import Ciphertext
from engine.protocol.identity import public_bytes
from engine.protocol.log import Entry, sign_entry
from engine.protocol.secrets import SecretsFile
from engine.table import ZERO32, EntryKind, Phase, ShuffleEvent, Table
from engine.table.lobby import free_name
from engine.table.work import DrawWork, ReleaseWork, RevealWork, SeedsWork, ShareWork, ShuffleWork


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class _Once[T]:
    """A value made once, by the first thread that asks for it (:meth:`get`); a thread asking while
    it is being made waits for it. Work that needs it may so run in any pool, or on the caller's
    thread, without waiting on a task that has not started."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make: Callable[[], T] | None = make
        self._value: T | None = None
        self._lock = threading.Lock()

    def get(self) -> T:
        with self._lock:
            if self._make is not None:
                self._value = self._make()
                self._make = None
            return self._value  # type: ignore[return-value]


Statement = tuple[Any, ...]
"""What a piece of a seat's early work was made for, and its key: ("key", event, n, owner), ("deck",
event, joint, cards), ("shuffle", event, joint, inputs), ("shares", event, positions, c1s). It is
used only for the duty whose statement, computed from the table when the duty is owed, is equal."""


class Seat:
    """A player's seat: ``key`` (Ed25519 private key), ``name``, ``games`` (name -> game module),
    ``secrets`` (the seat's secrets file), ``random_bytes(n)`` (the OS random source by default)
    and ``clock()`` (ms; informational only); ``decks``: the private deck lists it brings;
    ``facts``: what the player states at the table, by key, which its `join` carries (the table's
    game's seat facts, :class:`~engine.games.base.SeatFact`; the table checks them)."""

    def __init__(
        self,
        key: Ed25519PrivateKey,
        name: str,
        games: Mapping[str, Game],
        secrets: SecretsFile,
        random_bytes: Callable[[int], bytes] = os.urandom,
        clock: Callable[[], int] = now_ms,
        decks: dict[str, list[str]] | None = None,
        facts: Mapping[str, str] | None = None,
    ) -> None:
        self.key = key
        self.public = public_bytes(key)
        self.name = name
        self.facts: dict[str, str] = dict(facts or {})
        self.bot = False
        """A program plays this seat: its `join` says so (``bot``: true), and every peer shows it as a bot."""
        self.table = Table(games)
        self.secrets = secrets
        self.random_bytes = random_bytes
        self.clock = clock
        self.known: dict[Pos, str] = {}
        self.complaints: list[Pos] = []
        self._event_secrets: dict[int, elgamal.ElGamalSecrets] = {}
        # Work made before it is owed (see _plan): the secrets of the event being set up, by
        # (event, n, owner, inherited x); its pads and the half of the owner's deck that needs no
        # joint key, by statement; the duties themselves (key, deck, shuffle, shares), by statement.
        self._derived: dict[tuple[int, int, bool, bytes | None], _Once[elgamal.ElGamalSecrets]] = {}
        self._parts: dict[Statement, _Once[Any]] = {}
        self._early: dict[Statement, Future[Any]] = {}
        self._private_indexes: dict[tuple[str, tuple[str, ...]], deck.CardIndex] = {}
        self.decks: dict[str, list[str]] = {}
        self.leaves: list[str] = []
        self.salts: list[bytes] = []
        # A seat restarted from its secrets file (a resumed table) gets back the list it committed
        # to, which it needs to read its own private cards; the stored list wins over ``decks``.
        if decks or secrets.get("deck", "list") is not None:
            self.bring_decks(decks or {})

    def bring_decks(self, decks: dict[str, list[str]]) -> None:
        """Bring a private deck list (part name to card identities, e.g. ``{"crypt": [...], "library": [...]}``)
        before joining. Its leaves are "<part>:<card identity>", parts in sorted order, each with a
        32-byte salt written to the secrets file first; a seat restarted with its secrets file keeps
        the list and salts it committed to (the stored list wins)."""
        stored_list = self.secrets.get("deck", "list")
        if stored_list is not None:
            leaves = list(stored_list)
            self.decks = {}
            for leaf in leaves:
                part, _, card = leaf.partition(":")
                self.decks.setdefault(part, []).append(card)
        else:
            self.decks = {part: list(cards) for part, cards in decks.items()}
            leaves = [f"{part}:{card}" for part in sorted(self.decks) for card in self.decks[part]]
        stored = self.secrets.get("salts", "list")
        if stored is None or len(stored) != len(leaves):
            stored = self.secrets.put("salts", "list", [self.random_bytes(32) for _ in leaves])
        self.secrets.put("deck", "list", leaves)
        self.leaves = leaves
        self.salts = list(stored)

    def seat_name(self) -> str:
        """The name this seat sits down under: its own, unless a seat of the table already holds
        that name (ignoring case), then the first free "Name 2", "Name 3"…
        (:func:`engine.table.lobby.free_name`), so that no two seats share a name."""
        taken = [s.name for s in self.table.seats if s.key != self.public]
        return free_name(self.name, taken)

    def join_body(self) -> dict[str, Any]:
        """The body of this seat's `join`: its name (:meth:`seat_name`), its deck-list commitment
        (or nil) and each fact the player states (:attr:`facts`: a field each, under its key;
        docs/protocol.md 4.1; absent, not nil, when not stated)."""
        root = merkle.commit(self.leaves, self.salts) if self.leaves else None
        body: dict[str, Any] = {"name": self.seat_name(), "deck": root}
        body.update((key, value) for key, value in self.facts.items() if key not in body)
        if self.bot:
            body["bot"] = True
        return body

    def _membership(self, part: str, card: str) -> list[Any]:
        """[salt, proof] for one card of this seat's private deck list ([32 zero bytes, []] for a
        card not on it: a claim the table refuses as a proven cheat, which only a seat whose own
        deck entry held such a card can be made to sign)."""
        leaf = f"{part}:{card}"
        if leaf not in self.leaves:
            return [bytes(32), []]
        i = self.leaves.index(leaf)
        return [self.salts[i], merkle.prove(self.leaves, self.salts, i)]

    def _private_cards(self, ev: ShuffleEvent) -> list[str]:
        """The cards this seat, as owner, puts in the `deck` entry of private event ``ev``, in the
        order of its committed list (docs/protocol.md 6.3): the whole part for a first event; for a
        part rebuilt after an abandon, every card of the part that it does not know to be elsewhere."""
        cards = self.decks.get(ev.part, [])
        if not ev.source:
            return list(cards)
        source = set(ev.source)
        # Positions an earlier reshuffle replaced hold nothing any more.
        gone = {p for other in self.table.events[: ev.number] for p in other.source}
        elsewhere = Counter(
            c for p, c in self.known_cards().items() if p not in source and p not in gone and self._owns(p)
        )
        kept: list[str] = []
        for c in cards:  # a multiset: a copy known elsewhere removes one copy of its name, not every one
            if elsewhere[c] > 0:
                elsewhere[c] -= 1
            else:
                kept.append(c)
        return kept

    def _owns(self, pos: Pos) -> bool:
        e, _ = pos
        ev = self.table.events[e] if 0 <= e < len(self.table.events) else None
        return ev is not None and ev.owner == self.index and not ev.cards_public

    def _index_for(self, ev: ShuffleEvent) -> Mapping[bytes, str]:
        """Card point -> identity for the cards ``ev`` may hold, as far as this seat knows them: the
        public list, or for its own private deck the whole part of its list."""
        if ev.index is not None:
            return ev.index.lookup
        if ev.owner != self.index:
            return {}
        cards = tuple(self.decks.get(ev.part, []))
        key = (ev.deck_name, cards)
        index = self._private_indexes.get(key)
        if index is None:
            index = self._private_indexes[key] = deck.CardIndex.build(self.table.table_id, ev.deck_name, cards)
        return index.lookup

    # -- reading --------------------------------------------------------------------------------

    @property
    def index(self) -> int | None:
        """This seat's number at the table (None before it joined)."""
        return self.table.seat_of(self.public)

    def seated(self) -> int:
        """This seat's number at the table. Raises IllegalMove before it joined."""
        seat = self.index
        if seat is None:
            raise IllegalMove("this player holds no seat at the table")
        return seat

    def view(self) -> Any:
        """What this seat may know: the game's view with the identities opened to it (None before
        the game starts)."""
        t = self.table
        if t.gstate is None:
            return None
        return t.rules.view(t.gstate, self.index, self.known_cards())

    def known_cards(self) -> dict[Pos, str]:
        """Identities this seat knows: its decoded cards and every public one."""
        out = dict(self.known)
        for ev in self.table.events:
            for k, ident in ev.public.items():
                out[(ev.number, k)] = ident
            if ev.cards is not None:
                for k, card in enumerate(ev.cards):
                    if card is not None:
                        out[(ev.number, k)] = card
        return out

    def legal_acts(self) -> list[Act]:
        view = self.view()
        return self.table.rules.legal_acts(view) if view is not None else []

    # -- folding --------------------------------------------------------------------------------

    def fold(self, entry: Entry, defer_proof: bool = False) -> list[Note]:
        """Fold an entry into this seat's table, then decode any card newly opened to it, and start
        in worker threads the work of the duties it will owe that needs nothing more (:meth:`_plan`).

        When ``entry`` is the `shuffle` just before this seat's own, the seat starts its shuffle
        and proof on that entry's outputs in a worker thread first, so that they are computed
        while the entry's proof is verified (PROTOCOL.md 6.4: the chain of shufflers is a
        pipeline); nothing of it is published unless the entry verifies and is folded.

        ``defer_proof``: a `shuffle` is folded before its proof is verified (Table.apply); the
        caller settles it (:meth:`Table.settle`), and :meth:`duty` settles it first anyway.

        Raises table.TableRefusal (nothing changes) for an entry the table refuses.
        """
        builds_on = self._prepare_shuffle(entry)
        # A `shuffle` folded before its proof is settled, on which this seat builds nothing
        # meanwhile: its points are checked by the proof's verification, not at the fold too.
        points_in_proof = entry.kind == EntryKind.SHUFFLE and not builds_on
        notes = self.table.apply(entry, defer_proof=defer_proof, points_in_proof=points_in_proof)
        self._decode()
        self._plan()
        return notes

    def _prepare_shuffle(self, entry: Entry) -> bool:
        """Start this seat's shuffle on ``entry``'s outputs when ``entry`` is the `shuffle` just
        before its own; True then (this seat builds on the entry before its proof is settled, so
        the table checks its points at the fold: PROTOCOL.md 6.1), else False."""
        t = self.table
        seat = self.index
        body = entry.body
        if entry.kind != EntryKind.SHUFFLE or seat is None or not isinstance(t.work, ShuffleWork):
            return False
        ev = t.events[t.work.event]
        done = len(ev.shuffles)
        joint = ev.joint
        if body.get("event") != ev.number or joint is None or done + 1 >= len(ev.shufflers):
            return False
        if ev.shufflers[done] != t.seat_of(entry.author) or ev.shufflers[done + 1] != seat:
            return False
        cards = body.get("cards")
        if not isinstance(cards, list) or len(cards) != ev.n:
            return True  # the table refuses it: nothing to prepare
        # Only the shape here: the table checks every point as it folds the entry, and the
        # prepared shuffle is used only on the inputs the table accepted (see _duty_body).
        inputs = tuple((c[0], c[1]) for c in cards if isinstance(c, list) and len(c) == 2)
        if len(inputs) == ev.n:
            self._start_shuffle(ev, joint, inputs)
        return True

    # -- work made before it is owed ------------------------------------------------------------

    def _plan(self) -> None:
        """Start in worker threads (the proof pool, shuffle_proof.pool) what this seat's next duties
        need that is known already, and drop what no duty can use any more.

        For the event being set up (PROTOCOL.md 6.3): its secrets and key proof at once; for its
        owner, the half of the `deck` that needs no joint key (the card points and r_j·G), and the
        whole `deck` once the joint key is in; for a shuffler, its re-encryption pads ρ_j·(G, H_e)
        once the joint key is in (the outputs are then the inputs permuted plus the pads), and its
        shuffle and proof once its inputs are folded (the `deck`, the public deck, or the shuffle
        before it, even unverified: :meth:`_prepare_shuffle`). For cards opened to seats or to
        everyone: this seat's decryption shares, which it publishes only once every shuffle of
        their event is verified (:meth:`duty`). Each piece is kept under the statement it was
        made for and used only for a duty whose statement is equal (:meth:`_duty_body`); work for
        an event or an opening that never comes (the table stops, a seat abandons, the game ends)
        is dropped at the next fold, unpublished. Seeds are drawn and flushed here, on the
        caller's thread, in the order the duties would draw them."""
        t = self.table
        seat = self.index
        live: set[Statement] = set()
        if seat is not None and t.phase == Phase.RUNNING:
            match t.work:
                case ShuffleWork(event=e):
                    live = self._plan_event(t.events[e], seat)
                case ShareWork() | RevealWork() as work:
                    live = self._plan_shares(work, seat)
        self._drop(live)

    def _drop(self, live: set[Statement]) -> None:
        """Forget (and cancel, when not started) the early work whose statement is not ``live``,
        and the secrets derived for events no live work is about."""
        for store in (self._early, self._parts):
            for statement in [st for st in store if st not in live]:
                item = store.pop(statement)
                if isinstance(item, Future):
                    item.cancel()
        events = {st[1] for st in live}
        for key in [k for k in self._derived if k[0] not in events]:
            del self._derived[key]

    def _plan_event(self, ev: ShuffleEvent, seat: int) -> set[Statement]:
        live: set[Statement] = set()
        if seat not in ev.order and seat not in ev.shufflers:
            return live
        if ev.own_keys and seat not in ev.keys:
            live.add(self._start_key(ev))
        joint = ev.joint
        if ev.needs_deck and ev.owner == seat and ev.deck_seq is None:
            cards = tuple(self._private_cards(ev))
            if len(cards) == ev.n:
                live.add(self._deck_half(ev, cards)[0])
                if joint is not None:
                    live.add(self._start_deck(ev, joint, cards))
        remaining = ev.shufflers[len(ev.shuffles) :]
        if joint is not None and seat in remaining:
            live.add(self._pads(ev, joint)[0])
            inputs_in = bool(ev.cur) and (not ev.needs_deck or ev.deck_seq is not None)
            if remaining[0] == seat and inputs_in:
                live.add(self._start_shuffle(ev, joint, tuple(ev.cur)))
        for statement in self._early:
            if statement[0] == "shuffle" and statement[1] == ev.number:
                live.add(statement)  # prepared on an entry not folded yet (a pipeline's next step)
        return live

    def _plan_shares(self, work: ShareWork | RevealWork, seat: int) -> set[Statement]:
        live: set[Statement] = set()
        t = self.table
        for (s, e), ks in t.deck_events.shares_owed(work).items():
            if s != seat:
                continue
            ev = t.events[e]
            statement: Statement = ("shares", e, tuple(ks), tuple(ev.cur[k][0] for k in ks))
            live.add(statement)
            if statement not in self._early:
                secrets = self._secrets_once(ev)
                c1s = statement[3]

                def make(secrets: _Once[elgamal.ElGamalSecrets] = secrets, c1s: Any = c1s, ks: Any = ks) -> Any:
                    s = secrets.get()
                    return [elgamal.make_share(s, c1, k, remember=False) for c1, k in zip(c1s, ks, strict=True)]

                self._early[statement] = shuffle_proof.pool().submit(make)
        return live

    def _start_key(self, ev: ShuffleEvent) -> Statement:
        statement: Statement = ("key", ev.number, ev.n, self._owner_of(ev))
        if statement not in self._early:
            secrets = self._secrets_once(ev)
            self._early[statement] = shuffle_proof.pool().submit(lambda: elgamal.key_proof(secrets.get()))
        return statement

    def _deck_half(self, ev: ShuffleEvent, cards: tuple[str, ...]) -> tuple[Statement, _Once[Any]]:
        """The owner's card points of ``cards`` and r_j·G (elgamal.private_deck_c1s): started in the
        pool now, made by whoever needs them first."""
        statement: Statement = ("deck-half", ev.number, ev.deck_name, cards)
        half = self._parts.get(statement)
        if half is None:
            secrets = self._secrets_once(ev)
            table_id, name = self.table.table_id, ev.deck_name

            def make() -> tuple[list[bytes], list[bytes]]:
                points = [group.card_point(table_id, name, c) for c in cards]
                return points, elgamal.private_deck_c1s(secrets.get())

            half = self._parts[statement] = _Once(make)
            shuffle_proof.pool().submit(half.get)
        return statement, half

    def _start_deck(self, ev: ShuffleEvent, joint: bytes, cards: tuple[str, ...]) -> Statement:
        statement: Statement = ("deck", ev.number, joint, cards)
        if statement not in self._early:
            secrets = self._secrets_once(ev)
            half = self._deck_half(ev, cards)[1]

            def make() -> list[Ciphertext]:
                points, c1s = half.get()
                return elgamal.private_deck(secrets.get(), joint, points, c1s=c1s)

            self._early[statement] = shuffle_proof.pool().submit(make)
        return statement

    def _pads(self, ev: ShuffleEvent, joint: bytes) -> tuple[Statement, _Once[Any]]:
        """This seat's re-encryption pads for ``ev`` under ``joint`` (elgamal.reencryption_pads):
        started in the pool now, made by whoever needs them first."""
        statement: Statement = ("pads", ev.number, joint)
        pads = self._parts.get(statement)
        if pads is None:
            secrets = self._secrets_once(ev)
            pads = self._parts[statement] = _Once(lambda: elgamal.reencryption_pads(secrets.get(), joint))
            shuffle_proof.pool().submit(pads.get)
        return statement, pads

    def _start_shuffle(self, ev: ShuffleEvent, joint: bytes, inputs: tuple[Ciphertext, ...]) -> Statement:
        statement: Statement = ("shuffle", ev.number, joint, inputs)
        if statement not in self._early:
            secrets = self._secrets_once(ev)  # its seed is drawn and flushed here, in this thread
            pads = self._pads(ev, joint)[1]

            def make() -> tuple[list[Ciphertext], list[Any]]:
                # The pads came from checked values; on inputs that are not points (an entry the
                # table then refuses) the additions fail, and the duty is made again if owed.
                return shuffle_proof.shuffle_and_prove(
                    secrets.get(), joint, inputs, pads=pads.get(), executor=shuffle_proof.parts_pool()
                )

            self._early[statement] = shuffle_proof.pool().submit(make)
        return statement

    def _early_result(self, statement: Statement) -> Any:
        """The result of the early work made for ``statement`` (waiting for it if it is being
        made), or None: there is none, it had not started (cancelled: the caller makes it now,
        which is as fast), or it failed (the caller makes it again and meets the error itself).

        A result is kept until no duty can use it (:meth:`_drop`, at the next fold): a duty signed
        again after the host answers ``stale`` (seats owing shares or keys at once race for the
        head) takes the same result, the same bytes, instead of making it again."""
        future = self._early.get(statement)
        if future is None:
            return None
        if future.cancel() or future.exception() is not None:
            del self._early[statement]
            return None
        return future.result()

    def _owed_statement(self) -> Statement | None:
        """The statement of the protocol duty this seat owes now, as :meth:`_plan` keys its early
        work (None: none, or a duty made at once)."""
        t = self.table
        seat = self.index
        owed = [kind for s, kind in t.owed() if s == seat and kind != EntryKind.MOVE]
        if seat is None or not owed:
            return None
        kind = owed[0]
        match t.work:
            case ShuffleWork(event=e):
                ev = t.events[e]
                if kind == EntryKind.KEY:
                    return ("key", e, ev.n, self._owner_of(ev))
                if ev.joint is None:
                    return None
                if kind == EntryKind.DECK:
                    return ("deck", e, ev.joint, tuple(self._private_cards(ev)))
                if kind == EntryKind.SHUFFLE:
                    return ("shuffle", e, ev.joint, tuple(ev.cur))
            case ShareWork() | RevealWork() as work if kind == EntryKind.SHARE:
                owed_shares = t.deck_events.shares_owed(work)
                e, ks = next((e, ks) for (s, e), ks in owed_shares.items() if s == seat)
                return ("shares", e, tuple(ks), tuple(t.events[e].cur[k][0] for k in ks))
        return None

    def __getstate__(self) -> dict[str, Any]:
        # Work under way in threads is no state of the seat: a copy makes it again when it needs it.
        state = dict(self.__dict__)
        state.update(_derived={}, _parts={}, _early={})
        return state

    def _decode(self) -> None:
        seat = self.index
        if seat is None or not self.table.events:
            return
        events = self.table.deck_events
        for e, k in self.table.opened_to(seat):
            if (e, k) in self.known or (e, k) in self.complaints:
                continue
            ev = self.table.events[e]
            if k in ev.public:
                continue
            secrets = self._secrets_for(ev)
            point = elgamal.decode(ev.cur[k], [events.decode_point_without(ev, k, seat)], secrets.x)
            ident = self._index_for(ev).get(point)
            if ident is None and ev.owner != seat and not ev.private:
                # Only a public deck's cards are all known: a non-owner cannot read a private
                # deck's card, so it has no ground to complain (docs/protocol.md 6.8).
                self.complaints.append((e, k))
            elif ident is not None:
                self.known[(e, k)] = ident

    # -- producing entries ------------------------------------------------------------------------

    def sign(self, kind: str, body: dict[str, Any]) -> Entry:
        """An entry by this seat on the head it knows."""
        t = self.table
        return sign_entry(
            self.key,
            table=t.table_id if t.entries else ZERO32,
            seq=t.seq,
            prev=t.head,
            kind=str(kind),
            body=body,
            time_ms=self.clock(),
        )

    def duty(self) -> tuple[EntryKind, dict[str, Any]] | None:
        """The protocol entry this seat owes now and can make without a person, or None."""
        t = self.table
        seat = self.index
        if seat is None or t.phase != Phase.RUNNING:
            if self._early or self._parts or self._derived:
                self._drop(set())  # the game is over or stopped: what was made early is dropped
            return None
        if t.unverified is not None and (seat, EntryKind.SHUFFLE) not in t.owed():
            # No share (nor anything else) before every shuffle of the event is verified
            # (PROTOCOL.md 6.3, item 4); the next shuffle may build on an unverified one.
            t.settle()
            if t.phase != Phase.RUNNING:
                self._drop(set())  # the proof failed: what was made early is dropped, unpublished
                return None
        if self.complaints and not isinstance(t.work, SeedsWork):
            e, k = self.complaints[0]
            ev = t.events[e]
            D, proof = elgamal.make_share(self._secrets_for(ev), ev.cur[k][0], k)
            return EntryKind.COMPLAINT, {"event": e, "position": k, "share": D, "proof": proof}
        for s, kind in t.owed():
            if s == seat and kind != EntryKind.MOVE:
                return kind, self._duty_body(kind)
        return None

    def preparing(self) -> Future[Any] | None:
        """The early work (:meth:`_plan`) of the duty this seat owes now, while it is being made in
        the pool (None: no such work, or done): :meth:`duty` would wait for it. Its shares count
        only once every shuffle of their event is verified (until then :meth:`duty` verifies)."""
        t = self.table
        if self.index is None or t.phase != Phase.RUNNING:
            return None
        statement = self._owed_statement()
        if statement is None or (statement[0] == "shares" and t.unverified is not None):
            return None
        future = self._early.get(statement)
        if future is None or future.done():
            return None
        return future

    def _duty_body(self, kind: EntryKind) -> dict[str, Any]:
        t = self.table
        seat = self.seated()
        match t.work:
            case DrawWork(purpose=purpose) if kind == EntryKind.RAND_COMMIT:
                r = self.secrets.fresh("rand", purpose, self.random_bytes)
                return {"purpose": purpose, "commit": codec.sha256("rand", t.table_id, purpose, seat, r)}
            case DrawWork(purpose=purpose) if kind == EntryKind.RAND_REVEAL:
                return {"purpose": purpose, "r": self.secrets.get("rand", purpose)}
            case SeedsWork(event=e) | ReleaseWork(waiting=[(_, e), *_]) if kind == EntryKind.SEED_REVEAL:
                ev = t.events[e]
                body: dict[str, Any] = {"event": e, "seed": self._secrets_for(ev).seed}
                if self.leaves and seat not in t.lists and ev.owner == seat and ev.private:
                    body.update({"list": list(self.leaves), "salts": list(self.salts)})
                return body
            case ReleaseWork(waiting=[(_, e), *_]) if kind == EntryKind.KEY_REVEAL:
                return {"event": e, "x": self._secrets_for(t.events[e]).x}
            case ShuffleWork(event=e) if kind == EntryKind.KEY:
                ev = t.events[e]
                secrets = self._secrets_for(ev)
                pok = self._early_result(("key", e, ev.n, self._owner_of(ev)))
                if pok is None:
                    pok = elgamal.key_proof(secrets)
                elgamal.remember_key(secrets, pok)
                return {"event": e, "commit": secrets.commit, "X": secrets.X, "pok": pok}
            case ShuffleWork(event=e) if kind == EntryKind.DECK:
                ev = t.events[e]
                joint = ev.joint
                assert joint is not None  # the keys are in: the table owes the deck only then
                cards = tuple(self._private_cards(ev))
                deck_cards = self._early_result(("deck", e, joint, cards))
                if deck_cards is None:
                    points = [group.card_point(t.table_id, ev.deck_name, c) for c in cards]
                    deck_cards = elgamal.private_deck(self._secrets_for(ev), joint, points)
                return {"event": e, "cards": [list(c) for c in deck_cards]}
            case ShuffleWork(event=e) if kind == EntryKind.SHUFFLE:
                ev = t.events[e]
                joint = ev.joint
                assert joint is not None
                made = self._early_result(("shuffle", e, joint, tuple(ev.cur)))
                if made is not None:
                    outputs, shuffle = made
                else:
                    outputs, shuffle = shuffle_proof.shuffle_and_prove(self._secrets_for(ev), joint, ev.cur)
                # This process made the proof on its table's checked deck and joint key: the entry
                # that carries it, folded here, is not verified again (recognised by its bytes and
                # its whole statement, not by its seat: shuffle_proof.remember).
                context = shuffle_proof.shuffle_context(t.table_id, e, seat)
                shuffle_proof.remember(context, joint, ev.cur, outputs, shuffle)
                shuffled: dict[str, Any] = {"event": e, "cards": [list(c) for c in outputs], "proof": shuffle}
                if not ev.own_keys:
                    # A reshuffle names the event whose keys it inherits (PROTOCOL.md 6.2).
                    shuffled["keys"] = ev.keys_from
                return shuffled
            case ShareWork() | RevealWork() if kind == EntryKind.SHARE:
                work = t.work
                assert isinstance(work, (ShareWork, RevealWork))
                owed = t.deck_events.shares_owed(work)
                e, ks = next((e, ks) for (s, e), ks in owed.items() if s == seat)
                ev = t.events[e]
                secrets = self._secrets_for(ev)
                c1s = tuple(ev.cur[k][0] for k in ks)
                made = self._early_result(("shares", e, tuple(ks), c1s))
                if made is None:
                    made = [elgamal.make_share(secrets, ev.cur[k][0], k) for k in ks]
                else:
                    for k, c1, (D, proof) in zip(ks, c1s, made, strict=True):
                        elgamal.remember_share(secrets, c1, k, D, proof)
                return {"event": e, "positions": ks, "shares": [m[0] for m in made], "proofs": [m[1] for m in made]}
            case RevealWork() as work if kind == EntryKind.REVEAL:
                e, ks = next((e, ks) for e, ks in t.deck_events.reveals_owed(work).items() if t.events[e].owner == seat)
                ev = t.events[e]
                secrets = self._secrets_for(ev)
                items = []
                for k in ks:
                    D, dleq = elgamal.make_share(secrets, ev.cur[k][0], k)
                    card = self.known.get((e, k))
                    if card is None:
                        point = elgamal.decode(ev.cur[k], [t.deck_events.decode_point_without(ev, k, seat), D])
                        card = self._index_for(ev).get(point, "")
                    items.append([k, D, dleq, card, *self._membership(ev.part, card)])
                return {"event": e, "items": items}
        raise ValueError(f"no duty of kind {kind}")

    def _secrets_for(self, ev: ShuffleEvent) -> elgamal.ElGamalSecrets:
        """This seat's secrets for ``ev`` (PROTOCOL.md 6.2): derived from its seed of the event,
        drawn and flushed to the secrets file before anything derived from it is published; a
        reshuffle's key share is that of the event it inherits its keys from."""
        secrets = self._event_secrets.get(ev.number)
        if secrets is None:
            secrets = self._event_secrets[ev.number] = self._secrets_once(ev).get()
        return secrets

    def _owner_of(self, ev: ShuffleEvent) -> bool:
        """This seat writes the `deck` of ``ev`` (its secrets then hold r_j)."""
        return ev.private and ev.owner == self.index and ev.needs_deck

    def _secrets_once(self, ev: ShuffleEvent) -> _Once[elgamal.ElGamalSecrets]:
        """This seat's secrets for ``ev``, made once by whoever needs them first (a worker thread
        or this one); its seed of the event is drawn and flushed here, on the caller's thread."""
        known = self._event_secrets.get(ev.number)
        inherited = None
        if known is None and not ev.own_keys:
            inherited = self._secrets_for(self.table.events[ev.keys_from]).x
        key = (ev.number, ev.n, self._owner_of(ev), inherited)
        once = self._derived.get(key)
        if once is None:
            if known is not None:
                once = _Once(lambda: known)
            else:
                seat = self.seated()
                table_id = self.table.table_id
                seed: bytes = self.secrets.fresh("seed", ev.number, self.random_bytes)
                number, n, owner = ev.number, ev.n, key[2]

                def derive() -> elgamal.ElGamalSecrets:
                    return elgamal.ElGamalSecrets.derive(
                        seed, table_id, number, seat, n, owner=owner, inherited_x=inherited
                    )

                once = _Once(derive)
            self._derived[key] = once
        return once

    def move_body(self, act: Act) -> dict[str, Any]:
        """The body of a `move` for ``act``: the act and, for each hidden card it plays, the
        position, this seat's decryption share with its proof and the card (PROTOCOL.md 4, 6.3).
        Raises IllegalMove."""
        t = self.table
        opens = []
        for e, k in t.rules.to_open(t.gstate, self.seated(), act):
            ident = self.known.get((e, k))
            ev = t.events[e]
            D, proof = elgamal.make_share(self._secrets_for(ev), ev.cur[k][0], k)
            item: list[Any] = [[e, k], D, proof, ident if ident is not None else ""]
            if ev.private:
                item.extend(self._membership(ev.part, ident or ""))
            opens.append(item)
        return {"act": act, "open": opens}

    def check_move(self, act: Act) -> None:
        """Check ``act`` against this seat's own copy of the table before submitting it
        (PROTOCOL.md 3). Raises IllegalMove with the rule's sentence."""
        t = self.table
        seat = self.seated()
        positions = t.rules.to_open(t.gstate, seat, act)
        revealed = {p: self.known[p] for p in positions if p in self.known}
        t.rules.check(t.gstate, seat, act, revealed, self.clock())
