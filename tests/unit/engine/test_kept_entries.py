"""What a table keeps of the entries it accepted (docs/protocol.md 7.4, "Large logs"): every one
for a host and a peer, only the last for the audit and the replays; reading one that is not kept
says so and changes nothing. A log stream resumed mid-file reads on, checked, as from the start."""

from __future__ import annotations

import pytest

from engine.games import all_rules
from engine.protocol.log import LogStream, stream_log
from engine.table import Keep, Table
from tests.support.chat_logs import write_chat_log


def chat_log(path, count: int) -> None:
    write_chat_log(path, count, body=lambda seq: {"text": f"{seq}"})


def test_a_table_keeping_the_last_entry_folds_as_one_keeping_all_and_holds_one(tmp_path):
    path = tmp_path / "chat.vtlog"
    chat_log(path, 40)
    whole, last = Table(all_rules()), Table(all_rules(), keep=Keep.LAST)
    for entry, _ in stream_log(path):
        assert whole.apply(entry) == last.apply(entry)
        assert len(last.notes) <= 2  # the narration of the last entry only
    assert (whole.seq, whole.head, whole.digest()) == (last.seq, last.head, last.digest())
    assert len(last.entries) == 40 and last.entries[-1] == last.entries[39] == whole.entries[39]
    assert [e.seq for e in whole.entries[:3]] == [0, 1, 2]
    with pytest.raises(LookupError, match="keeps only its last entry"):
        last.entries[5]
    with pytest.raises(LookupError, match="no range"):
        last.entries[:3]
    with pytest.raises(LookupError, match="cannot be listed"):
        list(last.entries)
    with pytest.raises(IndexError, match="No entry at seq 40"):
        last.entries[40]
    assert len(last.entries) == 40  # nothing changed


def test_a_stream_resumed_at_a_frame_reads_on_checked_and_a_bad_resume_is_refused(tmp_path):
    path = tmp_path / "chat.vtlog"
    chat_log(path, 12)
    stream = stream_log(path)
    offsets, entries = [], []
    for entry, _ in stream:
        offsets.append(stream.offset)
        entries.append(entry)
    resumed = LogStream(path, resume=(offsets[7], entries[6]), host=entries[0].author)
    assert [e.seq for e, _ in resumed] == list(range(7, 12)) and resumed.count == 12 and not resumed.torn
    with pytest.raises(ValueError, match="past the magic, with the host's key"):
        LogStream(path, resume=(0, entries[6]), host=entries[0].author)
    with pytest.raises(ValueError):
        LogStream(path, resume=(offsets[7], entries[6]))
    wrong = LogStream(path, resume=(offsets[8], entries[6]), host=entries[0].author)  # not its prev
    with pytest.raises(Exception, match="corrupt at frame 7"):
        list(wrong)
