"""A log of any size is audited and replayed in bounded memory (docs/protocol.md 7.4, "Large logs"):
the file is read as a stream, one frame at a time, each entry folded as it is read. A peer that
keeps a log can be handed any file, so its size must not decide what a check costs in memory.
Memory is counted (tracemalloc's peak), never time."""

from __future__ import annotations

import os
import tracemalloc

import pytest

from engine.audit import audit_file
from engine.games import all_rules
from engine.protocol.identity import new_key
from engine.protocol.log import LOG_MAGIC, encode_frame, parse_log, sign_entry, sign_head, stream_log
from engine.replay import replay_lines
from tests.support.chat_logs import host_genesis

MIB = 1024 * 1024


def big_log(path, megabytes: int) -> int:
    """Write a log of about ``megabytes`` MiB: a genesis, then signed, chained `chat` entries of
    the host carrying 1 MiB of padding each (the most a log frame holds) (the table refuses the first: a chat line holds only
    its text; every frame is still a whole, signed, chained entry). Returns the entries written."""
    host = new_key()
    genesis = host_genesis(host, "big")
    table = genesis.id
    count = 1
    with open(path, "wb") as f:
        f.write(LOG_MAGIC)
        f.write(encode_frame(genesis, sign_head(host, table, 0, table)))
        prev, size = genesis, len(LOG_MAGIC)
        pad = os.urandom(MIB - 4096)
        while size < megabytes * MIB:
            entry = sign_entry(
                host, table=table, seq=count, prev=prev.id, kind="chat", body={"text": "hi", "pad": pad}, time_ms=count
            )
            frame = encode_frame(entry, sign_head(host, table, count, entry.id))
            f.write(frame)
            size += len(frame)
            prev, count = entry, count + 1
    return count


def audit_peak(path) -> tuple[object, int]:
    tracemalloc.start()
    try:
        report = audit_file(path, all_rules())
        return report, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("megabytes", [24, pytest.param(200, marks=pytest.mark.slow)])
def test_a_big_log_is_audited_in_the_memory_of_a_few_frames(tmp_path, megabytes):
    path = tmp_path / "big.vtlog"
    count = big_log(path, megabytes)
    assert path.stat().st_size >= megabytes * MIB
    report, peak = audit_peak(path)
    # The verdict is the whole-file one: the first padded chat is refused, and every frame after
    # it was still read and checked (the tail is whole, not torn).
    assert report.code == 1 and report.fault.seq == 1 and "refuses this chat entry" in report.fault.what
    assert not report.torn and report.entries == 1
    assert peak < 16 * MIB, peak  # a few frames of about 1 MiB, whatever the file's size
    # The same verdict as the whole file read at once (for the small one: it fits in memory).
    if megabytes <= 24:
        assert len(parse_log(path.read_bytes()).entries) == count


def test_a_stream_reads_a_log_as_parse_log_does_and_replay_reads_one(tmp_path):
    path = tmp_path / "big.vtlog"
    count = big_log(path, 8)
    whole = parse_log(path.read_bytes())
    stream = stream_log(path)
    assert [e.id for e, _ in stream] == [e.id for e in whole.entries] and stream.count == count
    assert not stream.torn and stream.length == whole.length == path.stat().st_size
    with open(path, "ab") as f:
        f.write(b"\x00\x00\x01")  # a torn length, as a crash leaves one
    stream = stream_log(path)
    assert sum(1 for _ in stream) == count and stream.torn
    lines = list(replay_lines(stream_log(path), all_rules()))
    assert lines[-1].startswith("[   1] REFUSED")
