"""How the host takes the submissions of its seats (PROTOCOL.md 3, 6.5; docs/protocol.md 6.9).

A ``submit`` is checked (its bytes and signature, its table, its author, the time of a `chat` or
`move`) and answered at once when it cannot be folded; a `join` waits while the host's own person
has not sat down; the rest are folded strictly in arrival order. A submission that carries proofs
is checked in a worker thread first, then folded in its turn; a `shuffle` is appended and relayed
once everything but its proof checks, and its proof is verified in a worker thread and settled
before anything further is appended. :class:`Submissions` does this for a :class:`~net.host.Host`,
which appends, answers and carries out its own duties; nothing here reads the wire.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from engine.protocol.log import BadSignature, Entry, EntryTooLarge, MalformedEntry
from engine.rate import MAX_AHEAD_MS
from engine.table import TableRefusal
from net.errors import HostError
from net.events import Folded
from net.messages import Accepted, Submit, SubmitRejected
from net.peers import Peer

if TYPE_CHECKING:
    from net.host import Host

log = logging.getLogger("vampire.net.host")


class Submissions:
    """The submissions of ``host``'s peers, taken (:meth:`take`) and folded in arrival order.
    ``held_joins`` are the `join`s (peer, submission n) that wait for the host's own seat
    (:attr:`Host.own_seat`); ``tasks`` the proofs being settled, cancelled when the host closes."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.held_joins: list[tuple[Peer, int]] = []
        self.tasks: set[asyncio.Task[None]] = set()
        # Submissions are folded strictly in order; those that wait for a proof to be verified in
        # a worker thread hold this lock (FIFO) meanwhile, so later ones queue behind them.
        self._fold_lock = asyncio.Lock()
        self._queued = 0  # submissions waiting for their turn: later ones may not overtake them
        self._last_turn: asyncio.Future[None] | None = None  # done once the latest one is folded

    def take(self, peer: Peer, msg: Submit) -> None:
        """Take ``msg``, a ``submit`` of ``peer``: answer it at once when it cannot be folded (a
        spectator's, a malformed or stale one, another key's, a chat, move or abandon vote timed
        ahead of the host's clock, an abandon vote before the wait has lasted the table's time on
        the host's clock, a second `join`), hold a `join` while the host's own person has not sat down,
        else fold it in its turn (``peer.folding`` holds the task when it waits for one)."""
        host = self.host
        t = host.table

        def reject(code: str, detail: str) -> None:
            peer.outbox.send(SubmitRejected(msg.n, code, detail[:500], self.host.head_on_wire()).to_map())
            if code != "stale":
                log.info("refused an entry from %s: %s (%s)", peer.label(self.host.seat_names()), detail, code)

        if peer.role != "player":
            return reject("spectator", "A spectator cannot submit entries.")
        try:
            entry = Entry.from_wire(msg.entry, host.limits)
        except EntryTooLarge as err:
            return reject("too-large", str(err))
        except BadSignature as err:
            return reject("bad-signature", str(err))
        except MalformedEntry as err:
            return reject("malformed", str(err))
        if entry.table_id != t.table_id:
            return reject("wrong-table", "That entry belongs to another table.")
        if entry.seq < t.seq:
            return reject("stale", f"Seq {entry.seq} is already taken; the head is at seq {t.seq - 1}.")
        if entry.author != peer.key:
            return reject("not-your-key", "A peer submits only entries signed with the key it said hello with.")
        now = host.sequencer.clock()
        if entry.kind in ("chat", "move", "abandon") and entry.time > now + MAX_AHEAD_MS:
            return reject(
                "illegal",
                f"A {entry.kind}'s time is ahead of the host's clock (a time to come refills no limit and ends no wait).",
            )
        if entry.kind == "abandon" and (early := _early_vote(host, entry, now)) is not None:
            return reject("illegal", early)
        if entry.kind == "join" and t.seat_of(entry.author) is not None:
            return reject("already-seated", f"That key already holds seat {t.seat_of(entry.author)} at this table.")
        if entry.kind == "join" and self._waits_for_own_seat(entry.author):
            self.held_joins.append((peer, msg.n))  # answered once the host's own seat is taken
            return None
        if entry.kind in _PROVEN or t.unverified is not None or self._queued or self._fold_lock.locked():
            self._queued += 1
            peer.folding = asyncio.get_running_loop().create_task(self._fold_later(peer, msg.n, entry))
            return None
        self._fold(peer, msg.n, entry)
        return None

    def _waits_for_own_seat(self, author: bytes | None) -> bool:
        """A `join` by ``author`` (None: anyone but the host's person) waits: the lobby is open and
        the host's own person (:attr:`Host.own_seat`) has not sat down yet."""
        own, t = self.host.own_seat, self.host.table
        return own is not None and author != own and t.phase == "lobby" and t.seat_of(own) is None

    def _release_joins(self) -> None:
        """Answer every held `join` ``stale`` on the new head: each peer signs it again."""
        held, self.held_joins = self.held_joins, []
        for peer, n in held:
            if peer in self.host.peers:
                text = "The host's own seat came first; sign the join again on the new head."
                peer.outbox.send(SubmitRejected(n, "stale", text, self.host.head_on_wire()).to_map())

    def _fold(self, peer: Peer, n: int, entry: Entry) -> None:
        """Append ``entry`` (a `shuffle` before its proof is verified: :meth:`_settle_soon`) and
        answer its submission ``n``; or answer with the table's refusal."""
        try:
            self.host.append(entry, defer_proof=True)
        except TableRefusal as err:
            peer.outbox.send(SubmitRejected(n, err.code, err.detail[:500], self.host.head_on_wire()).to_map())
            if err.code != "stale":
                log.info("refused an entry from %s: %s (%s)", peer.label(self.host.seat_names()), err.detail, err.code)
            return
        peer.outbox.send(Accepted(n, self.host.head_on_wire()).to_map())
        if self.held_joins and not self._waits_for_own_seat(None):
            self._release_joins()
        self.host.duties()
        if self.host.table.unverified is not None:
            task = asyncio.get_running_loop().create_task(self._settle_soon())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _fold_later(self, peer: Peer, n: int, entry: Entry) -> None:
        """Fold a submission in its turn, with the proofs verified in worker threads first so that
        the event loop keeps relaying meanwhile (docs/protocol.md 6.9): this entry's own proofs,
        at once and in parallel with other seats' (their answers land in the per-process memo,
        where the fold on the loop finds them, even for the same proofs re-signed after a stale
        refusal); then, in order, the last shuffle's proof, settled before anything further is
        appended; then the entry itself."""
        # Folded in arrival order (the first to arrive wins a head others signed on too), however
        # long each one's check in its thread takes.
        before = self._last_turn
        turn = self._last_turn = asyncio.get_running_loop().create_future()
        try:
            if entry.kind in _PROVEN:
                try:
                    await asyncio.to_thread(self.host.table.precheck, entry)
                except Exception:
                    pass  # the fold below checks everything again, on the loop
            if before is not None:
                await asyncio.wait([before])
            async with self._fold_lock:
                await self._settle()
                self._fold(peer, n, entry)
        except HostError:
            pass  # said to everyone already (_stop_unwritten); the host is finishing
        finally:
            self._queued -= 1
            if not turn.done():
                turn.set_result(None)

    async def _settle_soon(self) -> None:
        async with self._fold_lock:
            try:
                await self._settle()
            except HostError:
                pass  # said to everyone already (_stop_unwritten); the host is finishing

    async def _settle(self) -> None:
        """Verify the proof of the `shuffle` appended before it (Table.unverified) in a worker
        thread, then settle it on the loop: a proof that fails stops the table naming its author
        at that entry, before anything else is appended (PROTOCOL.md 6.5)."""
        t = self.host.table
        pending = t.unverified
        if pending is None:
            return
        if not pending.done:
            await asyncio.to_thread(pending.verify)
        if t.unverified is not pending:
            return  # settled meanwhile (an entry the host posted)
        notes = tuple(t.settle())
        entry = t.entries[pending.seq]
        rendered = tuple(n.render(t.names) for n in notes)
        for line in rendered:
            self.host.say_line(line)
        if notes:
            self.host.listeners.emit(Folded(entry, rendered, t.seat_of(entry.author), notes))
        self.host.duties()


def _early_vote(host: Host, entry: Entry, now_ms: float) -> str | None:
    """Why the `abandon` ``entry`` is early on the host's own clock (``now_ms``, ms since the
    epoch) and since this run opened the table, or None (PROTOCOL.md 6.5): the fold checks the
    vote's signed time alike, but a time signed ahead of the clocks must gain nothing."""
    target = entry.body.get("seat") if isinstance(entry.body, dict) else None
    if type(target) is not int:
        return None  # the fold says what is wrong with the body
    why = host.table.stall_vote_refusal(target, now_ms, host.opened)
    return None if why is None else why[0].upper() + why[1:] + "."


_PROVEN = frozenset({"key", "deck", "shuffle", "share", "move", "reveal", "complaint", "seed-reveal", "key-reveal"})
"""Kinds whose entries carry proofs that cost a fold real time: the host verifies them in a worker
thread before it folds them (docs/protocol.md 6.9)."""
