"""Tampering with a saved game's log.

Every change to the saved bytes makes ``vampire audit`` fail (code 1) at the entry that was
changed, with a reason that says what is wrong: a flipped byte anywhere in any frame (its length,
its entry, its head signature), a dropped entry, two entries swapped, an entry spliced in from
another table, an entry altered and re-signed with a key that may not write it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.audit import AuditUsageError
from engine.protocol.identity import new_key
from engine.protocol.log import FRAME_HEADER, LOG_MAGIC, encode_frame, sign_entry, sign_head
from tests.support.protocol import QUEEN_KINDS, audit, frames_of, log_bytes, other_game, raw_frames, rechain, saved_game


@pytest.fixture(scope="module")
def game():
    return saved_game()


@pytest.fixture(scope="module")
def data(game):
    return game.data


@pytest.fixture(scope="module")
def frames(data):
    return frames_of(data)


def by_kind(frames, kind):
    return [f for f in frames if f.entry.kind == kind]


def assert_fault_at(report, seq, *words):
    assert report.code == 1, report.text()
    assert report.fault is not None and report.fault.seq == seq, report.text()
    what = report.fault.what.lower()
    for word in words:
        assert word.lower() in what, f"{word!r} not in {report.fault.what!r}"


def test_the_untouched_log_is_clean(data, frames):
    report = audit(data)
    assert report.code == 0, report.text()
    assert {f.entry.kind for f in frames} == set(QUEEN_KINDS)


# --- flipped bytes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", QUEEN_KINDS)
@settings(max_examples=4, deadline=None)
@given(choice=st.data())
def test_a_flipped_byte_in_any_entry_kind_fails_the_audit_at_that_entry(kind, choice):
    data = saved_game().data
    frame = choice.draw(st.sampled_from(by_kind(frames_of(data), kind)), label="frame")
    # Anywhere in the frame: its 4-byte length, the entry's payload or signature, the head signature.
    where = choice.draw(
        st.one_of(
            st.integers(frame.start, frame.body_start - 1),
            st.integers(frame.body_start, frame.end - 1),
            st.integers(frame.end - 64, frame.end - 1),
        ),
        label="offset",
    )
    mask = choice.draw(st.integers(1, 255), label="xor")
    tampered = bytearray(data)
    tampered[where] ^= mask
    assert_fault_at(audit(bytes(tampered)), frame.entry.seq)


@pytest.mark.parametrize("which", ["middle", "last"])
@pytest.mark.parametrize("delta", [1, 64, 1 << 16, 1 << 21, -1, "zero", "huge"])
def test_a_frame_length_that_is_changed_fails_at_that_frame(which, delta, data, frames):
    """A length that runs past the end of the file must not pass for a torn last frame (a crash
    mid-write): the frame it declares holds a whole entry and then more, which no crash writes."""
    frame = frames[len(frames) // 2] if which == "middle" else frames[-1]
    n = frame.end - frame.body_start
    new = {"zero": 0, "huge": (1 << 32) - 1}.get(delta, n + delta if isinstance(delta, int) else n)
    tampered = data[: frame.start] + new.to_bytes(FRAME_HEADER, "big") + data[frame.body_start :]
    assert_fault_at(audit(tampered), frame.entry.seq)


def test_the_head_signature_of_every_frame_is_checked(data, frames):
    # One frame of each kind with its head signature replaced by the host's signature of another head.
    game = saved_game()
    for kind in QUEEN_KINDS:
        frame = by_kind(frames, kind)[-1]
        e = frame.entry
        wrong = sign_head(game.host_key, frames[0].entry.id, e.seq + 1, e.id)
        tampered = data[: frame.start] + encode_frame(e, wrong) + data[frame.end :]
        assert_fault_at(audit(tampered), e.seq, "head signature")


def test_a_torn_last_frame_is_not_a_fault_but_leaves_the_log_unfinished(data, frames):
    last = frames[-1]
    for cut in (1, 3, FRAME_HEADER + 1, (last.end - last.start) // 2, last.end - last.start - 1):
        report = audit(data[: last.start + cut])
        assert report.code == 2 and report.torn and report.fault is None, report.text()
        assert not report.finished and report.entries == len(frames) - 1


# --- dropped, swapped and spliced entries ------------------------------------------------------------


def test_dropping_an_entry_fails_at_its_place(data, frames):
    raw = raw_frames(data)
    for kind in QUEEN_KINDS[:-1]:  # dropping the end entry only leaves the log unfinished (below)
        i = by_kind(frames, kind)[0].entry.seq
        report = audit(log_bytes(raw[:i] + raw[i + 1 :]))
        if i == 0:
            assert_fault_at(report, 0, "genesis")
        else:
            assert_fault_at(report, i, f"seq {i + 1}", f"cannot follow the entry at seq {i - 1}")
    report = audit(log_bytes(raw[:-1]))
    assert report.code == 2 and not report.finished


def test_swapping_two_entries_fails_at_the_first_of_them(data, frames):
    raw = raw_frames(data)
    for kind in QUEEN_KINDS[1:]:
        i = by_kind(frames, kind)[0].entry.seq - 1
        swapped = raw[:i] + [raw[i + 1], raw[i]] + raw[i + 2 :]
        assert_fault_at(audit(log_bytes(swapped)), i, "genesis" if i == 0 else "cannot follow")
    # Two entries of the same kind far apart.
    moves = [f.entry.seq for f in by_kind(frames, "move")]
    i, j = moves[3], moves[-3]
    swapped = list(raw)
    swapped[i], swapped[j] = raw[j], raw[i]
    assert_fault_at(audit(log_bytes(swapped)), i, "cannot follow")


def test_an_entry_spliced_from_another_table_fails_at_its_place(data, frames):
    other = other_game().data
    other_raw = raw_frames(other)
    raw = raw_frames(data)
    other_frames = frames_of(other)
    for kind in QUEEN_KINDS[1:]:
        i = by_kind(frames, kind)[0].entry.seq
        # The other table's entry at the same place: its seq fits, its prev and table do not.
        spliced = raw[:i] + [other_raw[i]] + raw[i + 1 :]
        assert_fault_at(audit(log_bytes(spliced)), i, "does not point to the id")
        # The other table's first entry of the same kind, without its head signature, where its
        # own (signed) seq falls.
        src = next((f.entry for f in other_frames if f.entry.kind == kind and f.entry.seq < len(raw)), None)
        if src is not None:  # the other table's end comes later than this log's
            tail = raw[: src.seq] + [encode_frame(src, None)]
            assert_fault_at(audit(log_bytes(tail)), src.seq, "does not point to the id")


def test_an_entry_signed_for_another_table_on_this_head_fails_as_another_tables(data, frames):
    """A player who sits at two tables re-signs its entry of the other table onto this log's
    head: the chain links, but the entry names the other table."""
    game = saved_game()
    other = other_game()
    raw = raw_frames(data)
    move = by_kind(frames, "move")[0].entry
    seat = [f.entry.author for f in frames if f.entry.kind == "join"].index(move.author)
    forged = sign_entry(
        game.seat_keys[seat],
        table=other.entries[0].id,
        seq=move.seq,
        prev=move.prev,
        kind=move.kind,
        body=move.body,
        time_ms=move.time,
    )
    tampered = log_bytes(raw[: move.seq] + [encode_frame(forged, None)])
    assert_fault_at(audit(tampered), move.seq, "another table")


# --- altered entries re-signed with a key that may not write them -----------------------------------


def wrong_keys(game, entry, frames):
    """Keys that may not write ``entry`` here, with words of the reason the table gives."""
    joins = [f.entry.author for f in frames if f.entry.kind == "join"]
    stranger = new_key()
    if entry.kind in ("start", "end"):
        return [(game.seat_keys[0], "only the host"), (stranger, "only the host")]
    if entry.kind == "join":
        earlier = joins.index(entry.author) - 1
        return [(game.seat_keys[earlier], "already holds a seat")] if earlier >= 0 else []
    out = [(stranger, "holds no seat"), (game.host_key, "holds no seat")]
    if entry.kind in ("move", "shuffle", "lock", "unlock"):
        # Another seated player, out of turn: only one seat may write these at a time.
        author = joins.index(entry.author)
        out.append((game.seat_keys[(author + 1) % len(joins)], "not-your-turn"))
    return out


@pytest.mark.parametrize("kind", QUEEN_KINDS[1:])
def test_an_altered_entry_re_signed_with_a_wrong_key_fails_at_that_entry(kind, data, frames):
    game = saved_game()
    entries = [f.entry for f in frames]
    keys = {e.author: k for e, k in [(entries[0], game.host_key)]}
    joins = [e.author for e in entries if e.kind == "join"]
    keys.update(zip(joins, game.seat_keys, strict=False))
    target = by_kind(frames, kind)[-1 if kind == "join" else 0].entry
    cases = wrong_keys(game, target, frames)
    assert cases
    for key, words in cases:
        forged = sign_entry(
            key,
            table=target.table,
            seq=target.seq,
            prev=target.prev,
            kind=target.kind,
            body=target.body,
            time_ms=target.time + 1,
        )
        # (a) The log stops at the forged entry.
        head = sign_head(game.host_key, entries[0].id, forged.seq, forged.id)
        before = [encode_frame(e, sign_head(game.host_key, entries[0].id, e.seq, e.id)) for e in entries[: target.seq]]
        cut = log_bytes(before + [encode_frame(forged, head)])
        assert_fault_at(audit(cut), target.seq, words)
        # (b) Every later entry re-signed by its own author on the forged one, with fresh head
        # signatures by the host: only the table's rules can find the forgery, and they do.
        altered = entries[: target.seq] + [forged] + entries[target.seq + 1 :]
        forged_log = log_bytes(rechain(altered, keys, game.host_key, target.seq))
        assert_fault_at(audit(forged_log), target.seq, words)


def test_an_altered_entry_left_with_its_old_signature_fails_at_that_entry(data, frames):
    game = saved_game()
    for kind in QUEEN_KINDS:
        e = by_kind(frames, kind)[0].entry
        payload = e.payload.replace(e.time.to_bytes(8, "big"), (e.time + 1).to_bytes(8, "big"))
        assert payload != e.payload
        frame_bytes = encode_frame(
            type(e)(payload, e.signature, e.table, e.seq, e.prev, e.author, e.kind, e.body, e.time + 1, e.id), None
        )
        tampered = data[: frames[e.seq].start] + frame_bytes + data[frames[e.seq].end :]
        assert_fault_at(audit(tampered), e.seq, "signature")
    assert game  # the session game is the one tampered


def test_the_magic_is_checked(data):
    with pytest.raises(AuditUsageError, match="not a vampire-table log file"):
        audit(b"VTLOG2\n" + data[len(LOG_MAGIC) :])
