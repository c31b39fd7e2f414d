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
from typing import Any, Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine import codec, deck
from engine.games.base import Act, Note, Pos
from engine.identity import public_bytes
from engine.log import Entry, sign_entry
from engine.secrets import SecretsFile
from engine.table import ZERO32, Table


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class Seat:
    """A player's seat: ``key`` (Ed25519 private key), ``name``, ``games`` (name -> game module),
    ``secrets`` (the seat's secrets file), ``random_bytes(n)`` (the OS random source by default)
    and ``clock()`` (ms; informational only)."""

    def __init__(
        self,
        key: Ed25519PrivateKey,
        name: str,
        games: dict[str, Any],
        secrets: SecretsFile,
        random_bytes: Callable[[int], bytes] = os.urandom,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.key = key
        self.public = public_bytes(key)
        self.name = name
        self.table = Table(games)
        self.secrets = secrets
        self.random_bytes = random_bytes
        self.clock = clock
        self.known: dict[Pos, str] = {}
        self.complaints: list[Pos] = []
        self._event_secrets: dict[int, deck.EventSecrets] = {}

    # -- reading --------------------------------------------------------------------------------

    @property
    def index(self) -> int | None:
        """This seat's number at the table (None before it joined)."""
        return self.table.seat_of(self.public)

    def view(self) -> Any:
        """What this seat may know: the game's view with the identities opened to it."""
        t = self.table
        if t.gstate is None:
            return None
        return t.game.view(t.gstate, self.index, self.known_cards())

    def known_cards(self) -> dict[Pos, str]:
        """Identities this seat knows: its decoded cards and every public one."""
        out = dict(self.known)
        for ev in self.table.events:
            for k, ident in ev.public.items():
                out[(ev.number, k)] = ident
            if ev.cards is not None:
                for k, ident in enumerate(ev.cards):
                    if ident is not None:
                        out[(ev.number, k)] = ident
        return out

    def legal_acts(self) -> list[Act]:
        view = self.view()
        return self.table.game.legal_acts(view) if view is not None else []

    # -- folding --------------------------------------------------------------------------------

    def fold(self, entry: Entry) -> list[Note]:
        """Fold an entry into this seat's table, then decode any card newly opened to it.

        Raises table.Rejected (nothing changes) for an entry the table refuses.
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
            ident = deck.decode_point(ev.cur[k], ev.index.lookup if ev.index else {}, secrets.lock_keys[k])
            seen = set(ev.public.values()) | {c for (ee, _), c in self.known.items() if ee == e}
            if ident is None or ident in seen:
                self.complaints.append((e, k))
            else:
                self.known[(e, k)] = ident

    # -- producing entries ------------------------------------------------------------------------

    def sign(self, kind: str, body: dict) -> Entry:
        """An entry by this seat on the head it knows."""
        t = self.table
        return sign_entry(
            self.key, table=t.table_id if t.entries else ZERO32, seq=t.seq, prev=t.head, kind=kind, body=body,
            time_ms=self.clock(),
        )

    def duty(self) -> tuple[str, dict] | None:
        """The protocol entry this seat owes now and can make without a person, or None."""
        t = self.table
        seat = self.index
        if seat is None or t.phase != "running":
            return None
        if self.complaints and t.work is None or (self.complaints and t.work and t.work.kind != "seeds"):
            e, k = self.complaints[0]
            return "complaint", deck.make_complaint(self._secrets_for(t.events[e]), k)
        for s, kind in t.owed():
            if s == seat and kind != "move":
                return kind, self._duty_body(kind)
        return None

    def _duty_body(self, kind: str) -> dict:
        t = self.table
        w = t.work
        seat = self.index
        if kind == "rand-commit":
            r = self.secrets.fresh("rand", w.purpose, self.random_bytes)
            return {"purpose": w.purpose, "commit": codec.sha256("rand", t.table_id, w.purpose, seat, r)}
        if kind == "rand-reveal":
            return {"purpose": w.purpose, "r": self.secrets.get("rand", w.purpose)}
        if kind == "seed-reveal":
            return deck.make_seed_reveal(self._secrets_for(t.events[w.event]))
        if kind in ("shuffle", "lock"):
            ev = t.events[w.event]
            s = self._secrets_for(ev)
            if kind == "shuffle":
                return deck.make_shuffle_pass(s, ev.row, last=seat == ev.order[-1])
            return deck.make_lock_pass(s, ev.row)
        if kind == "unlock":
            _, e, to, ks = w.steps[0]
            ev = t.events[e]
            return deck.make_unlock(self._secrets_for(ev), to, ks, {k: ev.cur[k] for k in ks})
        if kind == "reveal":
            _, e, ks = w.steps[0]
            return deck.make_reveal(self._secrets_for(t.events[e]), ks)
        raise ValueError(f"no duty of kind {kind}")

    def _secrets_for(self, ev: Any) -> deck.EventSecrets:
        secrets = self._event_secrets.get(ev.number)
        if secrets is None:
            # Written and flushed to disk before anything derived from it is published.
            seed = self.secrets.fresh("seed", ev.number, self.random_bytes)
            secrets = deck.EventSecrets.derive(seed, self.table.table_id, ev.number, self.index, ev.n)
            self._event_secrets[ev.number] = secrets
        return secrets

    def move_body(self, act: Act) -> dict:
        """The body of a `move` for ``act``: the act and, for each hidden card it plays, the
        position, this seat's lock key and the card (PROTOCOL.md 4, 6). Raises IllegalMove."""
        t = self.table
        opens = []
        for e, k in t.game.to_open(t.gstate, self.index, act):
            ident = self.known.get((e, k))
            secrets = self._secrets_for(t.events[e])
            opens.append([[e, k], secrets.lock_keys[k], ident if ident is not None else ""])
        return {"act": act, "open": opens}

    def check_move(self, act: Act) -> None:
        """Check ``act`` against this seat's own copy of the table before submitting it
        (PROTOCOL.md 3). Raises IllegalMove with the rule's sentence."""
        t = self.table
        positions = t.game.to_open(t.gstate, self.index, act)
        revealed = {p: self.known[p] for p in positions if p in self.known}
        t.game.check(t.gstate, self.index, act, revealed)
