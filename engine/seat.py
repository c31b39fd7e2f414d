"""One seat's private side (DESIGN.md, "engine/seat"): the only place that holds secrets.

A :class:`Seat` has its identity key, its secrets file, its own fold of the table, and the cards
opened to it. It produces its entries: the protocol duties it performs by itself (rand-commit,
rand-reveal, shuffle, lock, unlock, reveal, seed-reveal, complaint) and the moves its player
chooses, with the card keys a move must open. Bots and the TUI see :meth:`Seat.view`: the public
state plus what this seat may know.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.games.base import Act, Game, IllegalMove, Note, Pos
from engine.protocol import codec, deck, group, merkle
from engine.protocol.identity import public_bytes
from engine.protocol.log import Entry, sign_entry
from engine.protocol.secrets import SecretsFile
from engine.table import ZERO32, EntryKind, Phase, ShuffleEvent, Table
from engine.table.work import DrawWork, ReleaseWork, RevealWork, SeedsWork, ShuffleWork, UnlockWork


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
        self.table = Table(games)
        self.secrets = secrets
        self.random_bytes = random_bytes
        self.clock = clock
        self.known: dict[Pos, str] = {}
        self.complaints: list[Pos] = []
        self._event_secrets: dict[int, deck.EventSecrets] = {}
        self._private_indexes: dict[tuple[str, tuple[str, ...]], deck.CardIndex] = {}
        self.decks: dict[str, list[str]] = {}
        self.leaves: list[str] = []
        self.salts: list[bytes] = []
        if decks:
            self.bring_decks(decks)

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

    def join_body(self) -> dict[str, Any]:
        """The body of this seat's `join`: its name, its deck-list commitment (or nil) and, when
        the player has one, its VEKN id (PROTOCOL.md 4.1; absent, not nil, when it has none)."""
        root = merkle.commit(self.leaves, self.salts) if self.leaves else None
        body: dict[str, Any] = {"name": self.name, "deck": root}
        if self.vekn is not None:
            body["vekn"] = self.vekn
        return body

    def _membership(self, part: str, card: str) -> list[Any]:
        """[salt, proof] for one card of this seat's private deck list."""
        i = self.leaves.index(f"{part}:{card}")
        return [self.salts[i], merkle.prove(self.leaves, self.salts, i)]

    def _private_cards(self, ev: ShuffleEvent) -> list[str]:
        """The cards this seat, as owner, starts private event ``ev`` from, in the canonical order
        (docs/protocol.md 4.6): its list's part in list order, or for a reshuffle the cards now at
        the source positions, sorted (every card of the part that it does not know to be elsewhere)."""
        cards = self.decks.get(ev.part, [])
        if not ev.source:
            return list(cards)
        source = set(ev.source)
        # Positions an earlier reshuffle replaced hold nothing any more.
        gone = {p for other in self.table.events[: ev.number] for p in other.source}
        elsewhere = {c for p, c in self.known_cards().items() if p not in source and p not in gone and self._owns(p)}
        return sorted(c for c in cards if c not in elsewhere)

    def _owns(self, pos: Pos) -> bool:
        e, _ = pos
        ev = self.table.events[e] if 0 <= e < len(self.table.events) else None
        return ev is not None and ev.owner == self.index and not ev.cards_public

    def _index_for(self, ev: ShuffleEvent) -> Mapping[bytes, str]:
        if ev.index is not None:
            return ev.index.lookup
        if ev.owner != self.index:
            return {}
        cards = self._private_cards(ev)
        key = (ev.deck_name, tuple(cards))
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

    def fold(self, entry: Entry) -> list[Note]:
        """Fold an entry into this seat's table, then decode any card newly opened to it.

        Raises table.TableRefusal (nothing changes) for an entry the table refuses.
        """
        notes = self.table.apply(entry)
        self._decode()
        return notes

    def _decode(self) -> None:
        seat = self.index
        if seat is None or not self.table.events:
            return
        for e, k in self.table.opened_to(seat):
            if (e, k) in self.known or (e, k) in self.complaints:
                continue
            ev = self.table.events[e]
            if k in ev.public:
                continue
            secrets = self._secrets_for(ev)
            ident = deck.decode_point(ev.cur[k], self._index_for(ev), secrets.lock_keys[k])
            if ident is None or ident in ev.public.values():
                self.complaints.append((e, k))
            else:
                # A second copy of a card this seat already holds is kept for now: a complaint
                # names one position and the table sees only public cards, so it could not be
                # proven yet. Once a copy is public, the other is complained about (below).
                self.known[(e, k)] = ident
        # A card this seat holds that is now public elsewhere in its event was planted twice by a
        # shuffle: complain now, rather than open it later as a card already seen.
        for (e, k), ident in self.known.items():
            ev = self.table.events[e]
            if (e, k) in self.complaints or ev.cards is not None or k in ev.public or ev.to.get(k) != seat:
                continue
            if ident in ev.public.values():
                self.complaints.append((e, k))

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
        if self.complaints and not isinstance(t.work, SeedsWork):
            e, k = self.complaints[0]
            return EntryKind.COMPLAINT, deck.make_complaint(self._secrets_for(t.events[e]), k)
        for s, kind in t.owed():
            if s == seat and kind != EntryKind.MOVE:
                return kind, self._duty_body(kind)
        return None

    def _duty_body(self, kind: EntryKind) -> dict[str, Any]:
        t = self.table
        seat = self.seated()
        match t.work:
            case DrawWork(purpose=purpose) if kind == EntryKind.RAND_COMMIT:
                r = self.secrets.fresh("rand", purpose, self.random_bytes)
                return {"purpose": purpose, "commit": codec.sha256("rand", t.table_id, purpose, seat, r)}
            case DrawWork(purpose=purpose) if kind == EntryKind.RAND_REVEAL:
                return {"purpose": purpose, "r": self.secrets.get("rand", purpose)}
            case SeedsWork(event=e) | ReleaseWork(waiting=[e, *_]) if kind == EntryKind.SEED_REVEAL:
                ev = t.events[e]
                body = deck.make_seed_reveal(self._secrets_for(ev))
                if self.leaves and seat not in t.lists and ev.owner == seat and ev.private:
                    body.update({"list": list(self.leaves), "salts": list(self.salts)})
                return body
            case ShuffleWork(event=e) if kind == EntryKind.SHUFFLE:
                ev = t.events[e]
                inputs = ev.row
                if ev.private and ev.step == 0:
                    # The owner blinds its own cards first: their plain points are never published.
                    inputs = [group.card_point(t.table_id, ev.deck_name, c) for c in self._private_cards(ev)]
                return deck.make_shuffle_pass(self._secrets_for(ev), inputs, last=seat == ev.order[-1])
            case ShuffleWork(event=e) if kind == EntryKind.LOCK:
                ev = t.events[e]
                return deck.make_lock_pass(self._secrets_for(ev), ev.row)
            case UnlockWork(steps=[step, *_]) if kind == EntryKind.UNLOCK:
                ev = t.events[step.event]
                ks = step.positions
                return deck.make_unlock(self._secrets_for(ev), step.to, ks, {k: ev.cur[k] for k in ks})
            case RevealWork(steps=[step, *_]) if kind == EntryKind.REVEAL:
                e = step.event
                ev = t.events[e]
                secrets = self._secrets_for(ev)
                body = deck.make_reveal(secrets, step.positions)
                if ev.private and ev.owner == seat:
                    # The others have removed their locks: the owner decodes with its own key and list.
                    cards = [
                        self.known.get((e, k))
                        or deck.decode_point(ev.cur[k], self._index_for(ev), secrets.lock_keys[k])
                        or ""
                        for k in body["positions"]
                    ]
                    proofs = [self._membership(ev.part, c) for c in cards]
                    body.update({"cards": cards, "salts": [p[0] for p in proofs], "proofs": [p[1] for p in proofs]})
                return body
        raise ValueError(f"no duty of kind {kind}")

    def _secrets_for(self, ev: ShuffleEvent) -> deck.EventSecrets:
        secrets = self._event_secrets.get(ev.number)
        if secrets is None:
            # Written and flushed to disk before anything derived from it is published.
            seed: bytes = self.secrets.fresh("seed", ev.number, self.random_bytes)
            secrets = deck.EventSecrets.derive(seed, self.table.table_id, ev.number, self.seated(), ev.n)
            self._event_secrets[ev.number] = secrets
        return secrets

    def move_body(self, act: Act) -> dict[str, Any]:
        """The body of a `move` for ``act``: the act and, for each hidden card it plays, the
        position, this seat's lock key and the card (PROTOCOL.md 4, 6). Raises IllegalMove."""
        t = self.table
        opens = []
        for e, k in t.rules.to_open(t.gstate, self.seated(), act):
            ident = self.known.get((e, k))
            ev = t.events[e]
            item: list[Any] = [[e, k], self._secrets_for(ev).lock_keys[k], ident if ident is not None else ""]
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
