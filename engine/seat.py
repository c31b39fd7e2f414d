"""One seat's private side (DESIGN.md, "engine/seat"): the only place that holds secrets.

A :class:`Seat` has its identity key, its secrets file, its own fold of the table, and the cards
opened to it. It produces its entries: the protocol duties it performs by itself (rand-commit,
rand-reveal, key, deck, shuffle, share, reveal, key-reveal, seed-reveal, complaint) and the moves its player
chooses, with the decryption shares a move must open. Bots and the TUI see :meth:`Seat.view`: the public
state plus what this seat may know.
"""

from __future__ import annotations

import os
import time
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


class Seat:
    """A player's seat: ``key`` (Ed25519 private key), ``name``, ``games`` (name -> game module),
    ``secrets`` (the seat's secrets file), ``random_bytes(n)`` (the OS random source by default)
    and ``clock()`` (ms; informational only); ``decks``: the private deck lists it brings;
    ``vekn``: the player's VEKN id its `join` gives (digits; None: the `join` has none)."""

    def __init__(
        self,
        key: Ed25519PrivateKey,
        name: str,
        games: Mapping[str, Game],
        secrets: SecretsFile,
        random_bytes: Callable[[int], bytes] = os.urandom,
        clock: Callable[[], int] = now_ms,
        decks: dict[str, list[str]] | None = None,
        vekn: str | None = None,
    ) -> None:
        self.key = key
        self.public = public_bytes(key)
        self.name = name
        self.vekn = vekn
        self.bot = False
        """A program plays this seat: its `join` says so (``bot``: true), and every peer shows it as a bot."""
        self.table = Table(games)
        self.secrets = secrets
        self.random_bytes = random_bytes
        self.clock = clock
        self.known: dict[Pos, str] = {}
        self.complaints: list[Pos] = []
        self._event_secrets: dict[int, elgamal.ElGamalSecrets] = {}
        # event -> (the inputs, this seat's shuffle and proof being computed on them)
        self._prepared: dict[int, tuple[tuple[Ciphertext, ...], Future[tuple[list[Ciphertext], list[Any]]]]] = {}
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
        (or nil) and, when the player has one, its VEKN id (PROTOCOL.md 4.1; absent, not nil,
        when it has none)."""
        root = merkle.commit(self.leaves, self.salts) if self.leaves else None
        body: dict[str, Any] = {"name": self.seat_name(), "deck": root}
        if self.vekn is not None:
            body["vekn"] = self.vekn
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
        elsewhere = {c for p, c in self.known_cards().items() if p not in source and p not in gone and self._owns(p)}
        return [c for c in cards if c not in elsewhere]

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
        """Fold an entry into this seat's table, then decode any card newly opened to it.

        When ``entry`` is the `shuffle` just before this seat's own, the seat starts its shuffle
        and proof on that entry's outputs in a worker thread first, so that they are computed
        while the entry's proof is verified (PROTOCOL.md 6.4: the chain of shufflers is a
        pipeline); nothing of it is published unless the entry verifies and is folded.

        ``defer_proof``: a `shuffle` is folded before its proof is verified (Table.apply); the
        caller settles it (:meth:`Table.settle`), and :meth:`duty` settles it first anyway.

        Raises table.TableRefusal (nothing changes) for an entry the table refuses.
        """
        self._prepare_shuffle(entry)
        notes = self.table.apply(entry, defer_proof=defer_proof)
        self._decode()
        return notes

    def _prepare_shuffle(self, entry: Entry) -> None:
        t = self.table
        seat = self.index
        body = entry.body
        if entry.kind != EntryKind.SHUFFLE or seat is None or not isinstance(t.work, ShuffleWork):
            return
        ev = t.events[t.work.event]
        done = len(ev.shuffles)
        joint = ev.joint
        if body.get("event") != ev.number or joint is None or done + 1 >= len(ev.shufflers):
            return
        if ev.shufflers[done] != t.seat_of(entry.author) or ev.shufflers[done + 1] != seat:
            return
        cards = body.get("cards")
        if not isinstance(cards, list) or len(cards) != ev.n:
            return  # the table refuses it: nothing to prepare
        # Only the shape here: the table checks every point as it folds the entry, and the
        # prepared shuffle is used only on the inputs the table accepted (see _duty_body).
        inputs = tuple((c[0], c[1]) for c in cards if isinstance(c, list) and len(c) == 2)
        secrets = self._secrets_for(ev)  # its seed is drawn and flushed here, in this thread
        future = shuffle_proof.pool().submit(shuffle_proof.shuffle_and_prove, secrets, joint, inputs)
        self._prepared[ev.number] = (inputs, future)

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
            return None
        if t.unverified is not None and (seat, EntryKind.SHUFFLE) not in t.owed():
            # No share (nor anything else) before every shuffle of the event is verified
            # (PROTOCOL.md 6.3, item 4); the next shuffle may build on an unverified one.
            t.settle()
            if t.phase != Phase.RUNNING:
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
        """The shuffle and proof this seat prepares in the pool for the shuffle it owes now, while
        it is not computed yet (None: no such work, or done): :meth:`duty` would wait for it."""
        t = self.table
        seat = self.index
        if seat is None or not isinstance(t.work, ShuffleWork) or (seat, EntryKind.SHUFFLE) not in t.owed():
            return None
        prepared = self._prepared.get(t.work.event)
        if prepared is None or prepared[1].done() or prepared[0] != tuple(t.events[t.work.event].cur):
            return None
        return prepared[1]

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
                secrets = self._secrets_for(t.events[e])
                return {"event": e, "commit": secrets.commit, "X": secrets.X, "pok": elgamal.prove_key(secrets)}
            case ShuffleWork(event=e) if kind == EntryKind.DECK:
                ev = t.events[e]
                points = [group.card_point(t.table_id, ev.deck_name, c) for c in self._private_cards(ev)]
                joint = ev.joint
                assert joint is not None  # the keys are in: the table owes the deck only then
                deck_cards = elgamal.private_deck(self._secrets_for(ev), joint, points)
                return {"event": e, "cards": [list(c) for c in deck_cards]}
            case ShuffleWork(event=e) if kind == EntryKind.SHUFFLE:
                ev = t.events[e]
                joint = ev.joint
                assert joint is not None
                prepared = self._prepared.pop(e, None)
                if prepared is not None and prepared[0] == tuple(ev.cur) and prepared[1].exception() is None:
                    outputs, shuffle = prepared[1].result()
                else:
                    outputs, shuffle = shuffle_proof.shuffle_and_prove(self._secrets_for(ev), joint, ev.cur)
                # This process made the proof on its table's checked deck and joint key: the entry
                # that carries it, folded here, is not verified again (recognised by its bytes and
                # its whole statement, not by its seat: shuffle_proof.remember).
                context = shuffle_proof.shuffle_context(t.table_id, e, seat)
                shuffle_proof.remember(context, joint, ev.cur, outputs, shuffle)
                return {"event": e, "cards": [list(c) for c in outputs], "proof": shuffle}
            case ShareWork() | RevealWork() if kind == EntryKind.SHARE:
                work = t.work
                assert isinstance(work, (ShareWork, RevealWork))
                owed = t.deck_events.shares_owed(work)
                e, ks = next((e, ks) for (s, e), ks in owed.items() if s == seat)
                ev = t.events[e]
                secrets = self._secrets_for(ev)
                made = [elgamal.make_share(secrets, ev.cur[k][0], k) for k in ks]
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
            seat = self.seated()
            table_id = self.table.table_id
            seed: bytes = self.secrets.fresh("seed", ev.number, self.random_bytes)
            inherited = None
            if not ev.own_keys:
                inherited = self._secrets_for(self.table.events[ev.keys_from]).x
            owner = ev.private and ev.owner == seat and ev.needs_deck
            secrets = elgamal.ElGamalSecrets.derive(
                seed, table_id, ev.number, seat, ev.n, owner=owner, inherited_x=inherited
            )
            self._event_secrets[ev.number] = secrets
        return secrets

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
        t.rules.check(t.gstate, seat, act, revealed)
