"""The audit's work ahead of its fold (docs/protocol.md 6.10): the proofs of shuffle and the
decryption shares of the entries read ahead, settled in worker threads while the fold goes on
(:class:`ProofsAhead`), by derivation from their authors' revealed seeds where the log holds what
those give (:func:`scan_seeds`), else verified; and the reader that keeps entries ahead of the fold
(:func:`read_ahead`). Every answer goes only into the per-process memo, under the whole statement
and proof: the fold (engine.audit) decides every entry in log order exactly as without this."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

from engine.errors import VampireError
from engine.protocol import codec, cpus, derivation, elgamal, group, shuffle_proof
from engine.protocol.entry import ZERO32, raw_frames
from engine.protocol.log import Entry, LogFileError
from engine.table import EntryKind, Table

ONE = group.scalar_from_int(1)

Derivation = tuple[elgamal.ElGamalSecrets, bytes | None, list[bytes] | None]
"""What settles a proof of shuffle by derivation (derivation.known_by_derivation): its author's
secrets, the sum x of the event's key shares (or None) and R of its inputs (a guess, or None)."""

AHEAD_ENTRIES = 512
"""How many entries the audit reads ahead of its fold, to start their proofs' verification early."""

AHEAD_BYTES = 1 << 20
"""At most this many bytes of entries are held read ahead (one entry at least): the audit of a
file of any size keeps the memory of a few frames."""


class ProofsAhead:
    """The proofs of shuffle and the decryption shares of the entries read ahead of the fold,
    verified in worker threads (libsodium releases the GIL) while the fold goes on (docs/protocol.md
    6.10). Each answer lands in the per-process memo (group.VERIFY_MEMO) under its whole statement
    and proof, where the fold's own verification (PROTOCOL.md 6.4, 6.5) finds it when it reaches
    that entry: the fold decides, in log order, exactly as without this, so a proof that fails is
    named at its entry and the first failing entry is the one named. A statement guessed from
    entries the fold later refuses is a verification made for nothing, never an answer to another
    statement.

    :meth:`read` takes each entry as it is read (the statement of a `shuffle` is known from the
    entries before it: the joint key from the event's `key` entries, the input from the previous
    `shuffle` or the `deck` of the event, or from the folded table; that of a `share` entry's or a
    move's shares from the event's last `deck` or `shuffle` read and the author's key share, once
    the fold holds it); :meth:`before` is called before an entry is folded (it waits for that
    entry's verification, or takes it back if it has not started, so that nothing is verified
    twice); :meth:`close` drops what is left. ``workers``: the threads (default: every usable CPU,
    at least 2, cpus.usable_cpus). ``seeds``: the seeds of the log's `seed-reveal`
    entries by (event, author key), found by a scan of the file (:func:`scan_seeds`): a proof
    whose author's seed is known when a worker takes it is settled by derivation from the seed when
    it is the proof the seed gives (derivation.known_by_derivation: the same answer as its
    verification), else verified. ``verified`` counts the proofs of shuffle settled here,
    ``derived`` those tried by derivation, ``shares`` the shares verified."""

    def __init__(
        self, table: Table, workers: int | None = None, seeds: Mapping[tuple[int, bytes], bytes] | None = None
    ) -> None:
        self.table = table
        self._hints = seeds if seeds is not None else {}
        self.verified = 0
        self.shares = 0
        self._workers = workers if workers is not None else max(2, cpus.usable_cpus())
        self._pool: ThreadPoolExecutor | None = None
        self._futures: dict[int, Future[Any]] = {}
        self._tasks: dict[int, tuple[Callable[..., Any], tuple[Any, ...]]] = {}  # what each future runs
        self._keys: dict[int, list[bytes]] = {}
        self._joints: dict[int, bytes | None] = {}
        self._last: dict[int, Any] = {}  # event -> the cards of its last `deck` or `shuffle` read
        self._key_authors: dict[int, list[bytes]] = {}  # event -> the authors of its `key` entries read
        self._seeds: dict[tuple[int, bytes], bytes] = {}  # (event, author) -> its seed read
        # event -> R_k with c1_k = R_k·G for the cards of _last as the seeds give them (a guess that
        # the derivations check), None where a step is not known; a shuffle's guess for its inputs
        # and its author's secrets, by seq.
        self._rand: dict[int, list[bytes] | None] = {}
        self._rins: dict[int, list[bytes] | None] = {}
        self._secrets: dict[int, elgamal.ElGamalSecrets | None] = {}
        # Proofs of shuffle whose statement is known, in log order, not started: a worker takes the
        # first when one is free, so that those whose author's seed is read by then are checked by
        # derivation (derivation.known_by_derivation), the others verified.
        self._ready: list[tuple[Entry, tuple[list[Any], bytes, Any]]] = []
        self.derived = 0
        self._closed = False
        # Entries whose statement needs more of the fold, each with the call that starts it (True
        # once settled: started, or nothing to start).
        self._waiting: list[tuple[Entry, Callable[[], bool]]] = []

    def read(self, entry: Entry) -> None:
        """Note ``entry`` (just read, not yet folded); start verifying its proof or shares if
        their statement is known."""
        body = entry.body
        if self._closed:
            return
        if entry.kind == EntryKind.MOVE:
            opens = body.get("open")
            if type(opens) is list and opens:
                opened = self._opened(opens)
                cards = {e: self._last.get(e) for e, _, _, _ in opened}
                rands = {e: self._rand.get(e) for e, _, _, _ in opened}
                self._try(entry, lambda: self._start_shares(entry, opened, cards, rands))
            return
        event = body.get("event")
        if type(event) is not int:
            return
        if entry.kind == EntryKind.KEY and isinstance(body.get("X"), bytes):
            self._keys.setdefault(event, []).append(body["X"])
            self._key_authors.setdefault(event, []).append(entry.author)
        elif entry.kind == EntryKind.SEED_REVEAL and isinstance(body.get("seed"), bytes):
            self._seeds.setdefault((event, entry.author), body["seed"])
        elif entry.kind == EntryKind.DECK:
            self._last[event] = body.get("cards")
            self._rand[event] = self._deck_rand(entry, event)
        elif entry.kind == EntryKind.SHUFFLE:
            inputs = self._last.get(event)
            self._chain(entry, event)
            self._try(entry, lambda: self._start(entry, inputs))
            self._last[event] = body.get("cards")
        elif entry.kind == EntryKind.SHARE:
            shared = self._shared(event, body)
            cards, rands = {event: self._last.get(event)}, {event: self._rand.get(event)}
            self._try(entry, lambda: self._start_shares(entry, shared, cards, rands))

    def _deck_rand(self, entry: Entry, event: int) -> list[bytes] | None:
        """The R guess of a private deck's `deck` entry from its owner's seed: card j is r_j·G."""
        cards, t = entry.body.get("cards"), self.table
        seed, seat = self._seed(event, entry.author), t.seat_of(entry.author)
        if seed is None or seat is None or type(cards) is not list or not cards:
            return None
        try:
            return list(elgamal.ElGamalSecrets.derive(seed, t.table_id, event, seat, len(cards), owner=True).deck_rand)
        except VampireError:
            return None

    def _chain(self, entry: Entry, event: int) -> None:
        """Derive the secrets of the `shuffle` ``entry``'s author from its seed, if known, and carry
        the event's R guess through its shuffle (a public deck's cards start at R = 1, c1 = G)."""
        cards = entry.body.get("cards")
        n = len(cards) if type(cards) is list else 0
        rin = self._rand[event] if event in self._rand else ([ONE] * n if n else None)
        secrets = None
        seed, seat, t = self._seed(event, entry.author), self.table.seat_of(entry.author), self.table
        if seed is not None and seat is not None and n:
            try:
                secrets = elgamal.ElGamalSecrets.derive(seed, t.table_id, event, seat, n)
            except VampireError:
                secrets = None
        self._rins[entry.seq], self._secrets[entry.seq] = rin, secrets
        if rin is None or secrets is None or len(rin) != n:
            self._rand[event] = None
        else:
            self._rand[event] = [group.scalar_add(rin[i], secrets.rho[j]) for j, i in enumerate(secrets.perm)]

    def _try(self, entry: Entry, start: Callable[[], bool]) -> None:
        if not start():
            self._waiting.append((entry, start))

    def folded(self) -> None:
        """After each fold: start the work whose statement the fold has now made known."""
        if self._waiting:
            self._waiting = [(e, start) for e, start in self._waiting if not start()]
        self._dispatch()

    def before(self, entry: Entry) -> None:
        """Before ``entry`` is folded: wait for its verification, or take it back if not started."""
        future = self._futures.pop(entry.seq, None)
        task = self._tasks.pop(entry.seq, None)
        if future is not None and future.cancel():
            if task is not None:
                task[0](*task[1])  # due now and not started: settled here, the same way
        elif future is not None:
            # While the fold waits, a worker that finishes takes the next ready proof at once.
            while not future.done():
                running = [f for f in self._futures.values() if not f.done()]
                wait([future, *running], return_when=FIRST_COMPLETED)
                self._dispatch()
            future.result()
        self._waiting = [(e, start) for e, start in self._waiting if e.seq != entry.seq]
        secrets = self._secrets.pop(entry.seq, None)
        for i, (e, statement) in enumerate(self._ready):
            if e.seq == entry.seq:
                # Due now and not started: settled here, by derivation where its seed is known.
                del self._ready[i]
                derive = self._derivation(entry, statement[1], secrets)
                if derive is not None:
                    self.verified += 1
                    self.derived += 1
                    _settle_proof(*statement, entry.body.get("cards"), entry.body.get("proof"), derive)
                break
        self._rins.pop(entry.seq, None)

    def _dispatch(self) -> None:
        """Start the first ready proofs while fewer tasks than workers are queued or running."""
        if not self._ready or self._closed:
            return
        busy = sum(1 for f in self._futures.values() if not f.done())
        while self._ready and busy < self._workers:
            entry, statement = self._ready.pop(0)
            if entry.seq < self.table.seq:
                continue
            self._submit(entry, statement)
            busy += 1

    def _submit(self, entry: Entry, statement: tuple[list[Any], bytes, Any]) -> None:
        context, joint, inputs = statement
        cards, proof = entry.body.get("cards"), entry.body.get("proof")
        derive = self._derivation(entry, joint, self._secrets.get(entry.seq))
        self.verified += 1
        if derive is not None:
            self.derived += 1
        self._run(entry, _settle_proof, (context, joint, inputs, cards, proof, derive))

    def _run(self, entry: Entry, task: Callable[..., Any], args: tuple[Any, ...]) -> None:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=self._workers, thread_name_prefix="vt-audit")
        self._tasks[entry.seq] = (task, args)
        self._futures[entry.seq] = self._pool.submit(task, *args)

    def _seed(self, event: int, author: bytes) -> bytes | None:
        return self._seeds.get((event, author)) or self._hints.get((event, author))

    def _derivation(self, entry: Entry, joint: bytes, secrets: elgamal.ElGamalSecrets | None) -> Derivation | None:
        """The secrets of ``entry``'s author for its event (derived from its seed when it was read,
        :meth:`_chain`), the sum x of the key shares of the event whose keys it uses when every seed
        of them is known (else None; known_by_derivation checks x·G = H_e) and the R guess of its
        inputs; None without the secrets."""
        t = self.table
        event = entry.body["event"]
        if secrets is None:
            return None
        # The keys are the event's own, or for a reshuffle those of the event it takes them from.
        root = t.events[event].keys_from if 0 <= event < len(t.events) else event
        x_total: bytes | None = bytes(32)
        authors = self._key_authors.get(root, [])
        for author in authors:
            key_seed, key_seat = self._seed(root, author), t.seat_of(author)
            if key_seed is None or key_seat is None or x_total is None:
                x_total = None
                break
            x_total = group.scalar_add(x_total, elgamal.key_share(key_seed, t.table_id, root, key_seat))
        joint_log = x_total if authors and x_total is not None and any(x_total) else None
        return secrets, joint_log, self._rins.get(entry.seq)

    def close(self) -> None:
        """Drop the verifications not started and start no more; wait for those running."""
        self._closed = True
        self._waiting.clear()
        self._ready.clear()
        self._futures.clear()
        self._tasks.clear()
        self._secrets.clear()
        self._rins.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def _statement(self, entry: Entry, inputs: Any) -> tuple[list[Any], bytes, Any] | None:
        """(context, joint key, inputs) of the `shuffle` ``entry`` as far as known now, else None.
        ``inputs``: the cards of the event's `deck` or `shuffle` read before it, if any."""
        t = self.table
        event: int = entry.body["event"]
        seat = t.seat_of(entry.author)
        if seat is None or t.table_id == ZERO32:
            return None
        ev = t.events[event] if 0 <= event < len(t.events) else None
        if inputs is None and (ev is None or not (ev.cur or (ev.index is not None and ev.cards_public))):
            return None  # the fold has yet to make the first input known: checked again after the next
        joint = ev.joint if ev is not None else None
        if joint is None and (ev is None or ev.own_keys):
            joint = self._joint(event)
        if joint is None:
            return None
        if inputs is None and ev is not None:
            if ev.cur and not ev.shuffles:
                inputs = list(ev.cur)
            elif ev.index is not None and ev.cards_public and ev.own_keys:
                try:
                    inputs = elgamal.public_deck(joint, ev.index.points)
                except VampireError:
                    return None
        if inputs is None:
            return None
        return shuffle_proof.shuffle_context(t.table_id, event, seat), joint, inputs

    def _joint(self, event: int) -> bytes | None:
        """The joint key of ``event`` from its `key` entries read (all of them precede its
        shuffles), made once; None when there is none or they make none."""
        if event not in self._joints:
            try:
                self._joints[event] = elgamal.joint_key(self._keys[event]) if event in self._keys else None
            except VampireError:
                self._joints[event] = None
        return self._joints[event]

    def _start(self, entry: Entry, inputs: Any) -> bool:
        """Start verifying ``entry``'s proof if its statement is known; whether it is settled here."""
        if entry.seq < self.table.seq or not group.VERIFY_MEMO.enabled:
            return True  # folded already (the fold verified it), or no memo to leave the answer in
        statement = self._statement(entry, inputs)
        if statement is None:
            return False
        self._ready.append((entry, statement))
        self._dispatch()
        return True

    @staticmethod
    def _opened(opens: list[Any]) -> list[tuple[int, Any, Any, Any]]:
        """(event, position, D, proof) of each well-formed item of a move's ``open`` list."""
        out = []
        for i in opens:
            if type(i) is list and len(i) >= 3 and type(i[0]) is list and len(i[0]) == 2:
                e, k = i[0]
                if type(e) is int and type(k) is int:
                    out.append((e, k, i[1], i[2]))
        return out

    @staticmethod
    def _shared(event: int, body: Mapping[str, Any]) -> list[tuple[int, Any, Any, Any]]:
        """(event, position, D, proof) of each share of a `share` entry's parallel lists."""
        ks, shares, proofs = body.get("positions"), body.get("shares"), body.get("proofs")
        if not (type(ks) is list and type(shares) is list and type(proofs) is list):
            return []
        return [(event, k, D, proof) for k, D, proof in zip(ks, shares, proofs, strict=False) if type(k) is int]

    def _start_shares(
        self,
        entry: Entry,
        items: list[tuple[int, Any, Any, Any]],
        cards: Mapping[int, Any],
        rands: Mapping[int, list[bytes] | None],
    ) -> bool:
        """Start verifying the shares ``items`` of ``entry`` (a `share` entry or a move opening
        cards) if their statements are known: the author's key share X of each event from the
        folded table, c1 from the event's last cards read (``cards``); whether it is settled here."""
        t = self.table
        if entry.seq < t.seq or not group.VERIFY_MEMO.enabled or not items:
            return True
        seat = t.seat_of(entry.author)
        if seat is None or t.table_id == ZERO32:
            return False
        statements = []
        for e, k, D, proof in items:
            if not 0 <= e < len(t.events):
                return False  # the fold has yet to start that event
            ev = t.events[e]
            if k < 0:
                return True  # a malformed entry: the fold refuses it
            try:
                X = t.deck_events.key_of(ev, seat)
                c1 = (cards.get(e) or ev.cur)[k][0]
            except (KeyError, IndexError, TypeError):
                return False
            if type(c1) is not bytes:
                return True  # a malformed entry: the fold refuses it
            rand = rands.get(e)
            c1_log = rand[k] if rand is not None and k < len(rand) else None
            statements.append(
                ((t.table_id, e, seat, k, X, c1, D, proof), self._share_secrets(ev, seat, entry.author), c1_log)
            )
        self.shares += len(statements)
        self._run(entry, _verify_shares, (statements,))
        return True

    def _share_secrets(self, ev: Any, seat: int, author: bytes) -> tuple[bytes, bytes] | None:
        """(x, nonce key) of ``seat`` in the event ``ev`` from its seed read ahead, for an event
        with its own keys (a reshuffle's shares use another event's x), else None."""
        event = ev.number
        if ev.keys_from != event:
            return None
        seed = self._seed(event, author)
        if seed is None:
            return None
        t = self.table
        return elgamal.key_share(seed, t.table_id, event, seat), elgamal.nonce_key(seed, t.table_id, event, seat)


def _settle_proof(
    context: Any,
    joint: bytes,
    inputs: Any,
    cards: Any,
    proof: Any,
    derive: Derivation | None,
) -> bool:
    """A proof of shuffle's answer, left in the memo: by derivation from its author's seed when
    given and it gives the proof (derivation.known_by_derivation), else by verification."""
    pool = shuffle_proof.parts_pool()
    if derive is not None and not shuffle_proof.known_valid(context, joint, inputs, cards, proof):
        secrets, joint_log, in_rand = derive
        if derivation.known_by_derivation(
            context, joint, inputs, cards, proof, secrets, joint_log=joint_log, in_rand=in_rand, executor=pool
        ):
            return True
    return shuffle_proof.verify(context, joint, inputs, cards, proof, executor=pool)


ShareStatement = tuple[bytes, int, int, int, bytes, bytes, Any, Any]
"""elgamal.verify_share's arguments: table id, event, seat, position, X, c1, D, proof."""


def _verify_shares(statements: list[tuple[ShareStatement, tuple[bytes, bytes] | None, bytes | None]]) -> None:
    """Settle each share, the answers going to the memo: by derivation from its author's x and
    nonce key when given and they give it (derivation.share_known_by_derivation), else verified."""
    for statement, secrets, c1_log in statements:
        if elgamal.known_share(*statement) is not None:
            continue  # made or verified by this process already
        if secrets is None or not derivation.share_known_by_derivation(*statement, *secrets, c1_log=c1_log):
            elgamal.verify_share(*statement)


def scan_seeds(path: str | Path) -> dict[tuple[int, bytes], bytes]:
    """The seeds of the `seed-reveal` entries of the log file at ``path``, by (event, author key),
    read frame by frame (one in memory at a time; only frames holding the bytes ``seed-reveal`` are
    decoded: a few milliseconds for a whole game). Nothing here is checked or trusted: a seed is a
    hint for :class:`ProofsAhead`, whose use of it gives the verification's answer or nothing; a
    frame that cannot be read ends the scan (the audit names it)."""
    seeds: dict[tuple[int, bytes], bytes] = {}
    try:
        for frame in raw_frames(path):
            if frame is not None and b"seed-reveal" in frame:  # decoded within the budgets of PROTOCOL.md 7
                note_seed(seeds, codec.decode(codec.decode(frame)[0][0]))
    except Exception:  # a hint only: whatever cannot be read is left to the audit
        pass
    return seeds


def note_seed(seeds: dict[tuple[int, bytes], bytes], payload: Any) -> None:
    """Keep the seed of ``payload`` (an entry's decoded payload map) if it is a `seed-reveal`."""
    if isinstance(payload, dict) and payload.get("kind") == EntryKind.SEED_REVEAL.value:
        body, author = payload.get("body"), payload.get("author")
        if isinstance(body, dict) and type(body.get("event")) is int and isinstance(author, bytes):
            seed = body.get("seed")
            if isinstance(seed, bytes):
                seeds.setdefault((body["event"], author), seed)


def read_ahead(entries: Iterable[Entry], ahead: ProofsAhead, window: int = AHEAD_ENTRIES) -> Iterator[Entry]:
    """``entries`` in order, each given once ``ahead`` has read up to ``window`` entries (and at
    most :data:`AHEAD_BYTES` of payloads) past it; a LogFileError met while reading ahead is raised
    once the entries before it are given."""
    buffer: deque[Entry] = deque()
    held = 0
    source = iter(entries)
    error: LogFileError | None = None
    done = False
    while True:
        # Two entries read for each one folded: the look-ahead grows to ``window`` as the fold goes,
        # behind the signatures verified ahead (engine.protocol.log.SignaturesAhead) from the start.
        for _ in range(2):
            if done or len(buffer) >= window or (held >= AHEAD_BYTES and buffer):
                break
            try:
                entry = next(source)
            except StopIteration:
                done = True
            except LogFileError as err:
                error, done = err, True
            else:
                ahead.read(entry)
                buffer.append(entry)
                held += len(entry.payload)
        if not buffer:
            break
        entry = buffer.popleft()
        held -= len(entry.payload)
        ahead.before(entry)
        yield entry
        ahead.folded()
    if error is not None:
        raise error
