"""A log file's signatures verified together (PROTOCOL.md 2, 3, 8): on every core when there are
many (engine.protocol.signatures.first_bad_signature), and for ``vampire result`` by another
process while this one folds (SignaturesElsewhere). Whatever verifies them, a reader names what a
check of every frame in order names: the first frame at fault, and in it the first check that
fails (its fields, its signature, its link, its head signature)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from engine.protocol import entry as entry_module
from engine.protocol import signatures
from engine.protocol.log import (
    LOG_MAGIC,
    ZERO32,
    BadSignature,
    ChainError,
    Entry,
    LogFileError,
    encode_frame,
    parse_log,
    read_log_unverified,
    sign_entry,
    sign_head,
)
from tests.support.protocol import Played, frames_of, resign, saved_game
from tui.cli import main

ENTRIES = 200  # 400 signatures with the heads: verified on two threads (PARALLEL_SIGNATURES)


def forget_signatures() -> None:
    """Empty this process's memos of signatures that verified: every one is verified again."""
    entry_module.VERIFIED_SIGNATURES.clear()
    entry_module.VERIFIED_HEADS.clear()


@pytest.fixture(autouse=True)
def fresh_memos():
    forget_signatures()
    yield
    forget_signatures()


def chain(n: int = ENTRIES) -> tuple[list[Entry], Ed25519PrivateKey]:
    """``n`` chained entries of one author, who is the host: (entries, key)."""
    key = Ed25519PrivateKey.generate()
    out: list[Entry] = []
    table = prev = ZERO32
    for seq in range(n):
        e = sign_entry(key, table=table, seq=seq, prev=prev, kind="note", body={"n": seq}, time_ms=seq)
        out.append(e)
        table, prev = (e.id if seq == 0 else table), e.id
    return out, key


def flipped(sig: bytes) -> bytes:
    return bytes([sig[0] ^ 1]) + sig[1:]


def log_of(
    entries: list[Entry],
    key: Ed25519PrivateKey,
    *,
    bad_entry: tuple[int, ...] = (),
    bad_head: tuple[int, ...] = (),
    skip: int | None = None,
) -> bytes:
    """The log file of ``entries`` with the host's head signatures; the entry signatures at
    ``bad_entry`` and the head signatures at ``bad_head`` have a bit flipped; the entry at
    ``skip`` is left out (the next one does not chain)."""
    frames = []
    for e in entries:
        if e.seq == skip:
            continue
        head = sign_head(key, e.table_id, e.seq, e.id)
        if e.seq in bad_head:
            head = flipped(head)
        if e.seq in bad_entry:
            e = Entry(e.payload, flipped(e.signature), e.table, e.seq, e.prev, e.author, e.kind, e.body, e.time, e.id)
        frames.append(encode_frame(e, head))
    return LOG_MAGIC + b"".join(frames)


def named(data: bytes) -> LogFileError:
    with pytest.raises(LogFileError) as err:
        parse_log(data)
    return err.value


#: (what is wrong, the frame named, the error under it): a bad signature, a broken link and a bad
#: head signature, each before and after another fault.
CASES = {
    "two bad entry signatures": ({"bad_entry": (40, 150)}, 40, BadSignature, "signature of the 'note' entry at seq 40"),
    "a bad head before a bad entry": ({"bad_head": (40,), "bad_entry": (41, 150)}, 40, BadSignature, "head signature"),
    "a bad entry and its bad head": ({"bad_entry": (40,), "bad_head": (40,)}, 40, BadSignature, "entry at seq 40"),
    "a bad signature before a broken chain": ({"bad_entry": (100,), "skip": 120}, 100, BadSignature, "seq 100"),
    "a broken chain before a bad signature": ({"bad_entry": (130,), "skip": 120}, 120, ChainError, "seq 121"),
    "the last head bad": ({"bad_head": (ENTRIES - 1,)}, ENTRIES - 1, BadSignature, "head signature"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_first_frame_at_fault_is_named_on_every_core_as_in_order(case, monkeypatch):
    faults, frame, kind, words = CASES[case]
    entries, key = chain()
    data = log_of(entries, key, **faults)
    monkeypatch.setattr(signatures, "usable_cpus", lambda: 2)
    threads: set[int] = set()
    real = Ed25519PublicKey.from_public_bytes

    def counted(pub: bytes) -> Ed25519PublicKey:
        threads.add(threading.get_ident())
        return real(pub)

    monkeypatch.setattr(entry_module.Ed25519PublicKey, "from_public_bytes", counted)
    parallel = named(data)
    assert threads and threading.get_ident() not in threads  # verified by the workers; this thread waited
    monkeypatch.setattr(signatures, "PARALLEL_SIGNATURES", 10**9)  # one thread, in order
    forget_signatures()
    in_order = named(data)
    assert (str(parallel), parallel.frame, parallel.offset) == (str(in_order), in_order.frame, in_order.offset)
    assert parallel.frame == frame and f"corrupt at frame {frame} " in str(parallel)
    assert isinstance(parallel.__cause__, kind) and words in str(parallel.__cause__)


def test_a_clean_log_reads_the_same_on_every_core(monkeypatch):
    entries, key = chain()
    data = log_of(entries, key)
    monkeypatch.setattr(signatures, "usable_cpus", lambda: 2)
    log = parse_log(data)
    assert [e.id for e in log.entries] == [e.id for e in entries] and all(h is not None for h in log.heads)


def test_entries_read_unverified_are_trusted_only_once_verify_returns(tmp_path):
    entries, key = chain()
    path = tmp_path / "bad.vtlog"
    path.write_bytes(log_of(entries, key, bad_entry=(7,)))
    log = read_log_unverified(path)
    assert log.complete and len(log.entries) == ENTRIES  # read whole: nothing checked the signatures yet
    with pytest.raises(LogFileError, match="corrupt at frame 7 .*seq 7 does not verify"):
        log.verify()


# --- vampire result: the signatures verified by another process while this one folds ------------

ROOT = Path(__file__).resolve().parents[3]

#: How ``vampire result`` runs in these tests: as a command of its own (a process with one thread,
#: which verifies in a fork of itself), in this process (which has threads: it starts a new
#: interpreter), and in this process with no other (every signature verified here).
HOW = ("command", "new interpreter", "alone")


@pytest.fixture(params=HOW)
def result(request, monkeypatch, child_env, capsys):
    """A function ``path -> (exit status, stdout, stderr)`` of ``vampire result PATH``."""
    if request.param == "alone":
        monkeypatch.setattr(signatures, "ELSEWHERE_FROM_BYTES", 10**12)
    monkeypatch.setattr(signatures, "_can_fork", lambda: False)  # in this process: a new interpreter

    def run(path: Path) -> tuple[int, str, str]:
        if request.param == "command":
            done = subprocess.run(
                [sys.executable, "-m", "tui.cli", "result", str(path)],
                cwd=ROOT,
                env=child_env(ROOT),
                capture_output=True,
                text=True,
                timeout=120,
            )
            return done.returncode, done.stdout, done.stderr
        forget_signatures()
        code = main(["result", str(path)])
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


def written(tmp_path: Path, frames: list[bytes], name: str) -> Path:
    path = tmp_path / name
    path.write_bytes(LOG_MAGIC + b"".join(frames))
    return path


def wrong_turn(played: Played, seq: int) -> bytes:
    """The frame of the entry at ``seq`` signed instead by a seat whose turn it is not (a valid
    signature, chained, with the host's head signature): an act the table refuses."""
    e = frames_of(played.data)[seq].entry
    other = next(k for k in played.seat_keys if k.public_key().public_bytes_raw() != e.author)
    forged = resign(e, other)
    return encode_frame(forged, sign_head(played.host_key, forged.table_id, forged.seq, forged.id))


def bad_signature(e: Entry, head: bytes | None) -> bytes:
    """The frame of ``e`` with a bit of its signature flipped, and the head signature ``head``."""
    forged = Entry(e.payload, flipped(e.signature), e.table, e.seq, e.prev, e.author, e.kind, e.body, e.time, e.id)
    return encode_frame(forged, head)


def first_move(played: Played) -> int:
    authors = {k.public_key().public_bytes_raw() for k in played.seat_keys}
    return next(f.entry.seq for f in frames_of(played.data) if f.entry.kind == "move" and f.entry.author in authors)


def test_result_names_a_bad_signature_before_the_act_the_table_refuses_after_it(result, tmp_path):
    played = saved_game()
    frames = frames_of(played.data)
    raw = [played.data[f.start : f.end] for f in frames]
    move = first_move(played)
    illegal = raw[:move] + [wrong_turn(played, move)]
    path = written(tmp_path, illegal, "illegal.vtlog")
    code, out, err = result(path)
    assert code == 1 and out == "" and f"entry {move} of {path} is refused" in err
    illegal[5] = bad_signature(frames[5].entry, frames[5].head)
    path = written(tmp_path, illegal, "bad-then-illegal.vtlog")
    code, out, err = result(path)
    assert code == 1 and out == ""
    assert "corrupt at frame 5 " in err and "seq 5 does not verify" in err and "refused" not in err


def test_result_names_a_broken_chain_and_the_first_bad_signature_before_it(result, tmp_path):
    played = saved_game()
    frames = frames_of(played.data)
    raw = [played.data[f.start : f.end] for f in frames]
    broken = raw[:20] + raw[21:]
    path = written(tmp_path, broken, "broken.vtlog")
    code, _, err = result(path)
    assert code == 1 and "corrupt at frame 20 " in err and "seq 21 cannot follow" in err
    broken[-1] = bad_signature(frames[-2].entry, frames[-2].head)  # after the break: not named
    broken[3] = bad_signature(frames[3].entry, frames[3].head)
    path = written(tmp_path, broken, "bad-then-broken.vtlog")
    code, _, err = result(path)
    assert code == 1 and "corrupt at frame 3 " in err and "seq 3 does not verify" in err


def test_result_of_a_clean_log_says_the_same_however_its_signatures_are_verified(result):
    played = saved_game()
    code, out, err = result(played.log)
    assert (code, out) == (1, "")  # a Vampire Queen game has no organiser's result, once read whole
    assert err == f"vampire: {played.log} is a game of Vampire Queen, which has no result for an organiser\n"


#: In a process of its own (one thread): verify a log's signatures in a fork, and say whether it
#: forked, how many signatures it found valid, and how many it then verified itself to read the log.
FORKED = """
import sys
from cryptography.hazmat.primitives.asymmetric import ed25519
from engine.protocol import entry
from engine.protocol.log import read_log
from engine.protocol.signatures import SignaturesElsewhere
here = []
real = ed25519.Ed25519PublicKey.from_public_bytes
entry.Ed25519PublicKey.from_public_bytes = lambda pub: here.append(pub) or real(pub)
with SignaturesElsewhere(sys.argv[1]) as other:
    found = other.collect()
read_log(sys.argv[1])
print(other.forked, found, len(here))
"""


def test_the_signatures_verified_in_a_fork_are_found_and_not_verified_again(child_env):
    played = saved_game()
    frames = frames_of(played.data)
    done = subprocess.run(
        [sys.executable, "-c", FORKED, str(played.log)], cwd=ROOT, env=child_env(ROOT), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", str(len(frames) + sum(f.head is not None for f in frames)), "0"]


def test_signatures_verified_by_a_new_interpreter_are_found_and_a_bad_one_is_not(tmp_path, monkeypatch):
    played = saved_game()
    frames = frames_of(played.data)
    raw = [played.data[f.start : f.end] for f in frames]
    raw[9] = bad_signature(frames[9].entry, frames[9].head)
    path = written(tmp_path, raw, "bad.vtlog")
    monkeypatch.setattr(signatures, "_can_fork", lambda: False)
    with signatures.SignaturesElsewhere(path) as other:
        assert other.started and not other.forked
        found = other.collect()
    assert found == len(frames) + sum(f.head is not None for f in frames) - 1  # all but the bad one
    with pytest.raises(LogFileError, match="corrupt at frame 9 .*seq 9 does not verify"):
        read_log_unverified(path).verify()
