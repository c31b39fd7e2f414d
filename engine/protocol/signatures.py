"""The signatures of a log file verified on every core (PROTOCOL.md 2, 3, 8): the entry signatures
and the head signatures that :func:`engine.protocol.log.parse_log` checks, verified together and
in parallel, the first one at fault in the order of the file named; and the same work done ahead
of a reader, by a thread of this process (:class:`SignaturesAhead`) or by another process
(:class:`SignaturesElsewhere`), whose answers go only into the per-process memos of
:mod:`engine.protocol.entry`, keyed by every byte a signature covers.

Why another process: the Ed25519 verification releases the GIL, but a thread that verifies while
this one runs Python code waits for the GIL after every signature (up to the interpreter's switch
interval, 5 ms): measured on a 2-core machine, 2.3 ms a signature instead of 0.12 ms. A thread
pays only where this thread waits (:func:`first_bad_signature`); work ahead of a busy reader
belongs in a process of its own.
"""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

from engine.protocol.cpus import usable_cpus
from engine.protocol.entry import (
    VERIFIED_HEADS,
    VERIFIED_SIGNATURES,
    BadSignature,
    Entry,
    LogFileError,
    _signature_verifies,
    bad_signature,
    raw_frames,
    signature_error,
    verify_head,
)


def head_failure(entry: Entry) -> BadSignature:
    """The error of a head signature stored with ``entry`` that is not the host's."""
    return BadSignature(f"The head signature stored with the entry at seq {entry.seq} is not the host's.")


@dataclass(frozen=True, slots=True)
class FrameSignature:
    """One signature of a log file, verified after its frame is read: ``entry``'s own (``host``
    None) or the head signature ``head`` stored with it, the host's (``host``, 32 bytes), at frame
    ``frame`` (0-based) of the file, whose length starts at byte ``offset``."""

    frame: int
    offset: int
    entry: Entry
    host: bytes | None = None
    head: Any = None

    def known(self) -> bool:
        """Whether this process verified the same signature of the same bytes already (the memos
        of :mod:`engine.protocol.entry`): nothing is left to compute."""
        e = self.entry
        if self.host is None:
            return (e.author, e.id, e.signature) in VERIFIED_SIGNATURES
        return isinstance(self.head, bytes) and (self.host, e.table_id, e.seq, e.id, self.head) in VERIFIED_HEADS

    def holds(self) -> bool:
        """Whether the signature verifies (thread-safe)."""
        e = self.entry
        if self.host is None:
            return signature_error(e) is None
        return verify_head(self.host, e.table_id, e.seq, e.id, self.head)

    def failure(self, name: str) -> LogFileError:
        """The error :func:`engine.protocol.log.parse_log` raises for this signature when it does
        not verify (``name`` starts it: "The log file PATH"), with the BadSignature as its cause."""
        cause = bad_signature(self.entry) if self.host is None else head_failure(self.entry)
        err = LogFileError(
            f"{name} is corrupt at frame {self.frame} (byte offset {self.offset}): {cause}", self.frame, self.offset
        )
        err.__cause__ = cause
        return err


PARALLEL_SIGNATURES = 64
"""From how many signatures left to verify :func:`first_bad_signature` uses a second core (and
one more core for each as many again)."""


def first_bad_signature(signatures: Sequence[FrameSignature]) -> int | None:
    """The index of the first of ``signatures`` that does not verify, or None when all do.

    Those this process verified already are answered from its memos; the others are verified on
    every core when there are at least 2 × :data:`PARALLEL_SIGNATURES` of them (threads: the
    Ed25519 verification releases the GIL, and this thread only waits for them), in consecutive
    runs of the list. The answer is the one a check in order gives: every signature before the one
    named verifies, whichever verifies first.
    """
    todo = [i for i, sig in enumerate(signatures) if not sig.known()]
    workers = min(usable_cpus(), len(todo) // PARALLEL_SIGNATURES)
    if workers < 2:
        return next((i for i in todo if not signatures[i].holds()), None)
    from concurrent.futures import ThreadPoolExecutor

    size = -(-len(todo) // (workers * 4))  # four runs a thread, so that no thread is left with a long one

    def run(start: int) -> int | None:
        return next((i for i in todo[start : start + size] if not signatures[i].holds()), None)

    pool = ThreadPoolExecutor(workers, thread_name_prefix="vt-signatures")
    try:
        for bad in pool.map(run, range(0, len(todo), size)):
            if bad is not None:
                return bad
        return None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


SIGNATURES_AHEAD = 4096
"""How many frames :class:`SignaturesAhead` and :class:`SignaturesElsewhere` verify at most: well
under the bound of the signature memos (:mod:`engine.protocol.entry`), so that none of their
answers is dropped before use."""

SIGNATURES_AHEAD_FRAME = 256 << 10
"""Frames larger than this (bytes) are left to the reader, so that the work ahead holds little memory."""


def verify_frames(path: str | os.PathLike[str], limit: int, stop: Callable[[], bool]) -> int:
    """Verify the entry and head signatures of the first ``limit`` frames of the log file at
    ``path``, each answer that verifies kept in the memos of :mod:`engine.protocol.entry`; stops
    at the first frame it cannot read (a reader names it), at a frame over
    :data:`SIGNATURES_AHEAD_FRAME` bytes (skipped), or when ``stop()`` is true. Nothing is decided
    here: a signature that fails is left for the reader. Returns the frames done."""
    import hashlib

    host: bytes | None = None
    done = 0
    try:
        for frame in itertools.islice(raw_frames(path, skip_over=SIGNATURES_AHEAD_FRAME), limit):
            if stop():
                return done
            if frame is None:
                continue  # left to the reader: one frame in memory at a time
            (payload, signature), head = msgpack.unpackb(frame, raw=False, strict_map_key=False)
            fields = msgpack.unpackb(payload, raw=False, strict_map_key=False)
            author, seq = fields["author"], fields["seq"]
            entry_id = hashlib.sha256(payload).digest()
            _signature_verifies(author, payload, signature, entry_id)
            host = author if host is None else host
            if head is not None:
                verify_head(host, entry_id if seq == 0 else fields["table"], seq, entry_id, head)
            done += 1
    except Exception:  # a frame it cannot read is the reader's to name
        return done
    return done


class SignaturesAhead:
    """The entry and head signatures of a log file's first ``limit`` frames verified in a
    background thread (:func:`verify_frames`) while this thread reads and folds the log: each
    signature that verifies is kept in the per-process memo of :mod:`engine.protocol.entry`, where
    :func:`engine.protocol.log.read_log`, ``stream_log`` and the rest find it (keyed by every byte
    it covers), so the reader does no less checking but finds some of it done. It pays where the
    reader waits (for proofs verified in other threads, as the audit does); while the reader runs
    Python code the thread verifies little (the module's docstring). :meth:`close` stops it (after
    the frame it is on); ``verified`` counts the frames it checked."""

    def __init__(self, path: str | os.PathLike[str], limit: int = SIGNATURES_AHEAD) -> None:
        import threading

        self.path = Path(path)
        self.limit = limit
        self.verified = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="vt-signatures", daemon=True)
        self._thread.start()

    def wait(self) -> None:
        """Wait until every frame it would verify is verified (tests)."""
        self._thread.join()

    def close(self) -> None:
        """Stop, and wait for the thread to end."""
        self._stop.set()
        self._thread.join()

    def __enter__(self) -> SignaturesAhead:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> None:
        self.verified = verify_frames(self.path, self.limit, self._stop.is_set)


ELSEWHERE_FROM_BYTES = 64 << 10
"""The smallest log file (bytes) whose signatures :class:`SignaturesElsewhere` verifies in another
process: below it (about a hundred entries), verifying them here costs less than starting one."""

ELSEWHERE_TIMEOUT_S = 120.0
"""How long :meth:`SignaturesElsewhere.collect` waits for the other process (seconds) before it
stops it and leaves every signature to this one."""

_CHILD = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from engine.protocol.signatures import _elsewhere_main; _elsewhere_main(sys.argv[2], int(sys.argv[3]))"
)


def _can_fork() -> bool:
    """Whether this process may fork a copy of itself to verify in: on Linux, with one thread
    (a fork copies only the thread that calls it; a lock another thread held would stay held)."""
    if sys.platform != "linux" or not hasattr(os, "fork"):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1  # every thread, those Python did not start too
    except OSError:
        return False


class SignaturesElsewhere:
    """The entry and head signatures of the first ``limit`` frames of the log file at ``path``
    verified by another process, on another core (:func:`verify_frames`), while this one reads
    and folds the log; :meth:`collect` adds the signatures it found valid to this process's memos
    (keyed, as there, by every byte a signature covers), where
    :func:`first_bad_signature` finds them. The other process is a copy of this one (a fork, on
    Linux, when this process runs one thread: no interpreter to start, nothing to import again),
    else a new interpreter. Nothing is decided there: a signature it did not find valid (a bad
    one, a frame it could not read, a file changed in between) is verified here, as if it had not
    run. A file under :data:`ELSEWHERE_FROM_BYTES`, or a process that cannot be started, leaves
    everything to this process. Use as a context manager, or call :meth:`close`, which stops the
    other process if it still runs. ``forked`` says which kind of process it started."""

    def __init__(self, path: str | os.PathLike[str], limit: int = SIGNATURES_AHEAD, *, fork: bool = True) -> None:
        import subprocess

        self._proc: subprocess.Popen[bytes] | None = None
        self._pid = 0
        self._read = -1
        self.forked = False
        try:
            if os.path.getsize(path) < ELSEWHERE_FROM_BYTES or not sys.executable:
                return
            if fork and _can_fork():
                self._fork(os.fspath(path), limit)
                return
            root = str(Path(__file__).resolve().parents[2])
            self._proc = subprocess.Popen(
                [sys.executable, "-c", _CHILD, root, os.fspath(path), str(limit)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except (OSError, ValueError):
            self._proc = None  # no file (the reader names it) or no process: everything is verified here

    def _fork(self, path: str, limit: int) -> None:
        read, write = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read)
            os.close(write)
            raise
        if pid == 0:  # the copy: verify, write the answers, and leave without running anything of the parent's
            status = 1
            try:
                os.close(read)
                out = memoryview(_verified_keys(path, limit))
                while out:
                    out = out[os.write(write, out) :]
                status = 0
            finally:
                os._exit(status)
        os.close(write)
        self._pid, self._read, self.forked = pid, read, True

    @property
    def started(self) -> bool:
        """Whether another process verifies (the file is large enough, and it started)."""
        return self._proc is not None or self._pid != 0

    def collect(self, timeout: float = ELSEWHERE_TIMEOUT_S) -> int:
        """Wait for the other process (at most ``timeout`` seconds), and add the signatures it found
        valid to this process's memos; returns how many (0 when it failed, timed out or never ran)."""
        out = self._forked_output(timeout) if self._pid else self._spawned_output(timeout)
        if out is None:
            return 0
        read = _read_keys(out)
        if read is None:
            return 0
        found, found_heads = read
        VERIFIED_SIGNATURES.update(found)
        VERIFIED_HEADS.update(found_heads)
        return len(found) + len(found_heads)

    def _spawned_output(self, timeout: float) -> bytes | None:
        import subprocess

        proc, self._proc = self._proc, None
        if proc is None:
            return None
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            return None
        return out if proc.returncode == 0 else None

    def _forked_output(self, timeout: float) -> bytes | None:
        import select
        import time

        chunks: list[bytes] = []
        deadline = time.monotonic() + timeout
        try:
            while (left := deadline - time.monotonic()) > 0 and select.select([self._read], [], [], left)[0]:
                chunk = os.read(self._read, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
            else:
                return None  # timed out: close() stops it
            _, status = os.waitpid(self._pid, 0)
            self._pid = 0
            return b"".join(chunks) if os.waitstatus_to_exitcode(status) == 0 else None
        finally:
            self.close()

    def close(self) -> None:
        """Stop the other process if it still runs."""
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.kill()
            proc.communicate()
        if self._pid:
            import signal

            try:
                os.kill(self._pid, signal.SIGKILL)
                os.waitpid(self._pid, 0)
            except OSError:
                pass
            self._pid = 0
        if self._read >= 0:
            os.close(self._read)
            self._read = -1

    def __enter__(self) -> SignaturesElsewhere:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_ENTRY_KEY = 32 + 32 + 64
_HEAD_KEY = 32 + 32 + 8 + 32 + 64


def _verified_keys(path: str, limit: int) -> bytes:
    """What the other process answers once it has verified the frames (:func:`verify_frames`):
    the keys of its memos as fixed-size records, a 4-byte big-endian count of entry keys (author,
    entry id, signature: 128 bytes) then the head keys (host, table, seq as 8 bytes big-endian,
    entry id, signature: 168 bytes)."""
    verify_frames(path, limit, lambda: False)
    entries = [b"".join(key) for key in VERIFIED_SIGNATURES.snapshot() if tuple(map(len, key)) == (32, 32, 64)]
    heads = [
        h + t + seq.to_bytes(8, "big") + i + sig
        for h, t, seq, i, sig in VERIFIED_HEADS.snapshot()
        if (len(h), len(t), len(i), len(sig)) == (32, 32, 32, 64) and 0 <= seq < 1 << 64  # a record of one size
    ]
    return len(entries).to_bytes(4, "big") + b"".join(entries) + b"".join(heads)


def _read_keys(
    out: bytes,
) -> tuple[list[tuple[bytes, bytes, bytes]], list[tuple[bytes, bytes, int, bytes, bytes]]] | None:
    """The memo keys :func:`_verified_keys` wrote, or None when ``out`` is not of its layout."""
    count = int.from_bytes(out[:4], "big")
    start = 4 + count * _ENTRY_KEY
    if len(out) < start or (len(out) - start) % _HEAD_KEY:
        return None
    entries = [(out[k : k + 32], out[k + 32 : k + 64], out[k + 64 : k + 128]) for k in range(4, start, _ENTRY_KEY)]
    heads = [
        (
            out[k : k + 32],
            out[k + 32 : k + 64],
            int.from_bytes(out[k + 64 : k + 72], "big"),
            out[k + 72 : k + 104],
            out[k + 104 : k + 168],
        )
        for k in range(start, len(out), _HEAD_KEY)
    ]
    return entries, heads


def _elsewhere_main(path: str, limit: int) -> None:
    """The new interpreter of :class:`SignaturesElsewhere`: verify, then write the answers to stdout
    (once, at the end: nobody reads them before)."""
    sys.stdout.buffer.write(_verified_keys(path, limit))
    sys.stdout.buffer.flush()
