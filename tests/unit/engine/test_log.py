"""Entries, chain, head signatures, fork evidence, log files and identity keys
(PROTOCOL.md 2, 3, 8)."""

from __future__ import annotations

import errno
import hashlib
import itertools
import os
import re
import stat

import nacl.bindings
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.errors import IdentityError, VampireError
from engine.identities import load_identity
from engine.paths import key_path
from engine.protocol.codec import CodecError, Limits, encode, hash_input
from engine.protocol.identity import new_key, public_bytes, short_fingerprint
from engine.protocol.log import (
    ENTRY_CONTEXT,
    LOG_MAGIC,
    ZERO32,
    BadAuthorKey,
    BadSignature,
    ChainError,
    Entry,
    EntryTooLarge,
    ForkEvidence,
    Head,
    LogError,
    LogFileError,
    LogWriter,
    MalformedEntry,
    check_link,
    encode_frame,
    find_fork,
    read_log,
    sign_entry,
    sign_head,
    validate_author_key,
    verify_head,
)

P = 2**255 - 19
IDENTITY_POINT = (1).to_bytes(32, "little")

# The 8 points of small order of edwards25519 (canonical encodings).
SMALL_ORDER_POINTS = [
    bytes.fromhex(h)
    for h in [
        "0100000000000000000000000000000000000000000000000000000000000000",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0000000000000000000000000000000000000000000000000000000000000080",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    ]
]


def times_eight(point: bytes) -> bytes:
    for _ in range(3):
        point = nacl.bindings.crypto_core_ed25519_add(point, point)
    return point


@pytest.fixture
def host() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(bytes(range(32)))


@pytest.fixture
def alice() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))


def signed(key, *, table=ZERO32, seq=0, prev=ZERO32, kind="chat", body=None, time_ms=0) -> Entry:
    return sign_entry(key, table=table, seq=seq, prev=prev, kind=kind, body=body or {}, time_ms=time_ms)


def make_log(host, alice, n: int = 4) -> list[Entry]:
    """A genesis by the host, then ``n - 1`` chat entries by alice."""
    entries = [signed(host, kind="table", body={"game": "queen"})]
    for seq in range(1, n):
        table, prev = entries[0].id, entries[-1].id
        entries.append(signed(alice, table=table, seq=seq, prev=prev, body={"text": f"hi {seq}"}, time_ms=seq))
    return entries


def signed_payload(key: Ed25519PrivateKey, payload: dict) -> bytes:
    """Wire bytes of a hand-made payload, correctly signed, so only its fields can be at fault."""
    data = encode(payload)
    return encode([data, key.sign(ENTRY_CONTEXT + data)])


def good_payload(key: Ed25519PrivateKey) -> dict:
    return {
        "v": 2,
        "table": ZERO32,
        "seq": 0,
        "prev": ZERO32,
        "author": public_bytes(key),
        "kind": "table",
        "body": {},
        "time": 0,
    }


# --- entries (PROTOCOL.md 2) ---


def test_genesis_matches_the_known_answer(host):
    genesis = make_log(host, host, 1)[0]
    assert genesis.payload.hex() == (
        "88a6617574686f72c42003a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"
        "a4626f647981a467616d65a5717565656ea46b696e64a57461626c65a470726576c420"
        + "00" * 32
        + "a373657100a57461626c65c420"
        + "00" * 32
        + "a474696d6500a17602"
    )
    assert genesis.signature.hex() == (
        "da28b2d8983526ded74e370e464dd68266d97c03c940039e0622ea09a57b69e0"
        "28a52c3e4ff181895f1387a40a8d860044d299b907456f604eaff563222e9d0c"
    )
    assert genesis.id == hashlib.sha256(genesis.payload).digest()
    assert genesis.id.hex() == "a76aa9a450d0340f86cc66c1e22aab96d4e60c1929b95d2dc54c80b51eb66d46"
    assert genesis.to_wire() == encode([genesis.payload, genesis.signature])
    head = sign_head(host, genesis.id, 0, genesis.id)
    assert head.hex() == (
        "b9c6555f51b218816c212b9f34d3a5e432f34abcfbc51aed1373b5347e6b1aeb"
        "7601564e6ed167921a24995ed6e5ede2d48d595a116da89b424104108e545605"
    )
    frame = encode_frame(genesis, head)
    assert frame[:8].hex() == "0000012b9292c4a3"
    assert frame[8:] == genesis.payload + b"\xc4\x40" + genesis.signature + b"\xc4\x40" + head


def test_a_signed_entry_reads_back_identical(host, alice):
    genesis, entry = make_log(host, alice, 2)
    back = Entry.from_wire(entry.to_wire())
    assert back == entry and back.id == entry.id
    assert (back.seq, back.kind, back.body, back.time) == (1, "chat", {"text": "hi 1"}, 1)
    assert back.author == public_bytes(alice) and back.prev == genesis.id
    assert Entry.from_wire(entry.wire_array()) == entry


def test_the_table_id_is_the_genesis_id(host, alice):
    genesis, entry = make_log(host, alice, 2)
    assert genesis.is_genesis and genesis.table_id == genesis.id
    assert entry.table == entry.table_id == genesis.id


def test_entries_are_immutable(host):
    genesis = make_log(host, host, 1)[0]
    with pytest.raises(AttributeError):
        genesis.seq = 5  # type: ignore[misc]


def test_a_flipped_signature_bit_is_a_bad_signature(host):
    genesis = make_log(host, host, 1)[0]
    sig = bytearray(genesis.signature)
    sig[10] ^= 1
    with pytest.raises(BadSignature, match="seq 0 does not verify"):
        Entry.from_wire([genesis.payload, bytes(sig)])


def test_a_signature_by_someone_else_is_a_bad_signature(host, alice):
    genesis = make_log(host, host, 1)[0]
    with pytest.raises(BadSignature):
        Entry.from_wire([genesis.payload, alice.sign(ENTRY_CONTEXT + genesis.payload)])


def test_a_signature_without_the_domain_prefix_is_a_bad_signature(host):
    genesis = make_log(host, host, 1)[0]
    with pytest.raises(BadSignature):
        Entry.from_wire([genesis.payload, host.sign(genesis.payload)])


def test_an_altered_payload_no_longer_verifies(host):
    genesis = make_log(host, host, 1)[0]
    altered = genesis.payload.replace(b"queen", b"vtes!")
    with pytest.raises(BadSignature):
        Entry.from_wire([altered, genesis.signature])


@pytest.mark.parametrize(
    "change, message",
    [
        ({"v": 1}, "version 1; this program reads 2"),
        ({"v": True}, "version True"),
        ({"seq": -1}, "'seq' must be at least 0"),
        ({"seq": True}, "'seq' must be an int, not a bool"),
        ({"table": bytes(31)}, "'table' must be 32 bytes long"),
        ({"prev": "0" * 32}, "'prev' must be a bin, not a str"),
        ({"kind": b"table"}, "'kind' must be a non-empty str"),
        ({"kind": ""}, "'kind' must be a non-empty str"),
        ({"body": [1]}, "'body' must be a map, not an array"),
        ({"time": "now"}, "'time' must be an int"),
        ({"time": None}, "'time' must be an int"),
        ({"extra": 1}, "unknown field 'extra'"),
    ],
)
def test_payload_fields_of_the_wrong_type_are_malformed(host, change, message):
    with pytest.raises(MalformedEntry, match=message):
        Entry.from_wire(signed_payload(host, good_payload(host) | change))


def test_a_missing_payload_field_is_malformed(host):
    payload = good_payload(host)
    del payload["time"]
    with pytest.raises(MalformedEntry, match="missing the field 'time'"):
        Entry.from_wire(signed_payload(host, payload))


def test_a_non_canonical_payload_is_malformed(host):
    # The same map, keys in insertion order instead of sorted: signed, but not canonical.
    import msgpack

    data = msgpack.packb(good_payload(host), use_bin_type=True)
    with pytest.raises(MalformedEntry, match="not sorted"):
        Entry.from_wire(encode([data, host.sign(ENTRY_CONTEXT + data)]))


@pytest.mark.parametrize(
    "wire",
    [
        encode([b"x"]),
        encode([b"x", b"y", b"z"]),
        encode({"payload": b"x"}),
        encode(["x", b"y" * 64]),
        b"\x92\xc4",
    ],
)
def test_wire_forms_other_than_two_bins_are_malformed(wire):
    with pytest.raises(MalformedEntry):
        Entry.from_wire(wire)


def test_a_short_signature_is_malformed(host):
    genesis = make_log(host, host, 1)[0]
    with pytest.raises(MalformedEntry, match="64 bytes"):
        Entry.from_wire([genesis.payload, genesis.signature[:63]])


def test_entries_over_the_limits_are_too_large(host):
    entry = signed(host, body={"text": "x" * 500})
    with pytest.raises(EntryTooLarge):
        Entry.from_wire(entry.to_wire(), Limits(max_bytes=400))
    with pytest.raises(EntryTooLarge):
        Entry.from_wire(entry.to_wire(), Limits(max_str=100))


def test_signing_refuses_fields_the_protocol_cannot_carry(host):
    with pytest.raises(MalformedEntry, match="'prev' must be 32 bytes"):
        sign_entry(host, table=ZERO32, seq=0, prev=bytes(31), kind="table", body={}, time_ms=0)
    with pytest.raises(MalformedEntry, match="float"):
        sign_entry(host, table=ZERO32, seq=0, prev=ZERO32, kind="table", body={"x": 0.5}, time_ms=0)
    with pytest.raises(MalformedEntry):
        sign_entry(host, table=ZERO32, seq=True, prev=ZERO32, kind="table", body={}, time_ms=0)


def test_log_errors_are_sentences_of_the_projects_type(host):
    kinds = (MalformedEntry, EntryTooLarge, BadAuthorKey, BadSignature, ChainError, LogFileError)
    for cls in kinds:
        assert issubclass(cls, LogError) and issubclass(cls, VampireError)


# --- author keys ---


def test_generated_keys_are_valid_author_keys(host, alice):
    for key in (host, alice, new_key()):
        assert validate_author_key(public_bytes(key)) == public_bytes(key)


def test_the_eight_small_order_points_are_refused():
    assert len(set(SMALL_ORDER_POINTS)) == 8
    for point in SMALL_ORDER_POINTS:
        assert times_eight(point) == IDENTITY_POINT  # really of small order
        with pytest.raises(BadAuthorKey):
            validate_author_key(point)


def test_non_canonical_encodings_are_refused():
    for k in (0, 1, 3, 4, 5):  # y = p + k is y = k: points on the curve, encoded non-canonically
        encoding = (P + k).to_bytes(32, "little")
        nacl.bindings.crypto_core_ed25519_add(encoding, IDENTITY_POINT)  # it reads as a point
        with pytest.raises(BadAuthorKey):
            validate_author_key(encoding)


def test_a_key_with_a_small_order_component_is_refused(alice):
    mixed = nacl.bindings.crypto_core_ed25519_add(public_bytes(alice), SMALL_ORDER_POINTS[4])
    with pytest.raises(BadAuthorKey):
        validate_author_key(mixed)


@pytest.mark.parametrize("key", [b"", bytes(31), bytes(33), "a" * 32, None])
def test_author_keys_of_the_wrong_shape_are_refused(key):
    with pytest.raises(BadAuthorKey):
        validate_author_key(key)


def test_an_entry_by_a_small_order_key_is_refused_before_its_signature(host):
    payload = encode(good_payload(host) | {"author": SMALL_ORDER_POINTS[0]})
    with pytest.raises(BadAuthorKey):
        Entry.from_wire([payload, bytes(64)])  # the all-zero signature some verifiers accept


# --- the chain ---


def test_a_log_chains_from_its_genesis(host, alice):
    entries = make_log(host, alice, 4)
    check_link(None, entries[0])
    for prev, entry in itertools.pairwise(entries):
        check_link(prev, entry)


def test_a_log_must_start_at_seq_0(host, alice):
    with pytest.raises(ChainError, match="genesis entry at seq 0, not seq 1"):
        check_link(None, make_log(host, alice, 2)[1])


def test_a_genesis_has_zero_table_and_prev(host):
    genesis = signed(host, table=b"\x01" * 32, kind="table")
    with pytest.raises(ChainError, match="32 zero bytes"):
        check_link(None, genesis)


def test_an_entry_must_follow_the_previous_seq(host, alice):
    genesis, _one, two = make_log(host, alice, 3)
    with pytest.raises(ChainError, match="seq 2 cannot follow the entry at seq 0"):
        check_link(genesis, two)


def test_an_entry_must_point_to_the_previous_id(host, alice):
    genesis, one = make_log(host, alice, 2)
    forged = signed(alice, table=genesis.id, seq=2, prev=genesis.id)
    with pytest.raises(ChainError, match="seq 2 does not point to the id of the entry at seq 1"):
        check_link(one, forged)


def test_an_entry_of_another_table_does_not_chain(host, alice):
    genesis, _one = make_log(host, alice, 2)
    stray = signed(alice, table=b"\x07" * 32, seq=1, prev=genesis.id)
    with pytest.raises(ChainError, match="seq 1 belongs to another table"):
        check_link(genesis, stray)


# --- head signatures and forks (PROTOCOL.md 3) ---


def test_a_head_signature_covers_the_head_domain_array(host, alice):
    genesis, entry = make_log(host, alice, 2)
    sig = sign_head(host, genesis.id, 1, entry.id)
    message = hash_input("head", genesis.id, 1, entry.id)
    assert message == encode(["vampire-table/head/v1", genesis.id, 1, entry.id])
    host.public_key().verify(sig, message)
    assert verify_head(public_bytes(host), genesis.id, 1, entry.id, sig)


def test_a_head_signature_says_nothing_about_another_head(host, alice):
    genesis, entry = make_log(host, alice, 2)
    table, sig = genesis.id, sign_head(host, genesis.id, 1, entry.id)
    pub = public_bytes(host)
    assert not verify_head(pub, table, 2, entry.id, sig)
    assert not verify_head(pub, table, 1, genesis.id, sig)
    assert not verify_head(pub, b"\x01" * 32, 1, entry.id, sig)
    assert not verify_head(public_bytes(alice), table, 1, entry.id, sig)


@pytest.mark.parametrize("sig", [None, b"", bytes(63), "x" * 64, bytes(64)])
def test_a_malformed_head_signature_is_false_not_an_error(host, sig):
    assert verify_head(public_bytes(host), ZERO32, 0, ZERO32, sig) is False
    assert verify_head(b"short", ZERO32, 0, ZERO32, sign_head(host, ZERO32, 0, ZERO32)) is False
    one = sign_head(host, ZERO32, 1, ZERO32)
    assert verify_head(public_bytes(host), ZERO32, True, ZERO32, one) is False


def heads(host, table: bytes, seq: int, *ids: bytes) -> list[Head]:
    return [Head(table, seq, i, sign_head(host, table, seq, i)) for i in ids]


def test_two_host_heads_for_one_seq_with_different_ids_prove_a_fork(host):
    a, b = heads(host, b"T" * 32, 5, b"a" * 32, b"b" * 32)
    evidence = find_fork(public_bytes(host), a, b)
    assert isinstance(evidence, ForkEvidence) and evidence.check()
    assert "two different entries as seq 5" in evidence.describe()


def test_the_same_head_twice_is_no_fork(host):
    a, b = heads(host, b"T" * 32, 5, b"a" * 32, b"a" * 32)
    assert find_fork(public_bytes(host), a, b) is None


def test_heads_for_different_seqs_or_tables_are_no_fork(host):
    [a] = heads(host, b"T" * 32, 5, b"a" * 32)
    [b] = heads(host, b"T" * 32, 6, b"b" * 32)
    [c] = heads(host, b"U" * 32, 5, b"c" * 32)
    assert find_fork(public_bytes(host), a, b) is None
    assert find_fork(public_bytes(host), a, c) is None


def test_a_fork_needs_both_signatures_to_be_the_hosts(host, alice):
    [a] = heads(host, b"T" * 32, 5, b"a" * 32)
    [b] = heads(alice, b"T" * 32, 5, b"b" * 32)
    assert find_fork(public_bytes(host), a, b) is None
    assert not ForkEvidence(public_bytes(host), a, b).check()


# --- log files (PROTOCOL.md 8) ---


def write_log(path, host, entries) -> list[bytes]:
    """Write ``entries`` with the host's head signatures; returns those signatures."""
    sigs = [sign_head(host, entries[0].id, e.seq, e.id) for e in entries]
    with LogWriter(path) as writer:
        for entry, sig in zip(entries, sigs, strict=False):
            writer.append(entry, sig)
    return sigs


def test_a_written_log_reads_back(tmp_path, host, alice):
    entries = make_log(host, alice, 4)
    sigs = write_log(tmp_path / "t.vtlog", host, entries)
    log = read_log(tmp_path / "t.vtlog")
    assert log.entries == tuple(entries) and log.heads == tuple(sigs)
    assert not log.torn and log.length == (tmp_path / "t.vtlog").stat().st_size


def test_the_file_is_the_magic_then_length_prefixed_frames(tmp_path, host, alice):
    entries = make_log(host, alice, 2)
    with LogWriter(tmp_path / "t.vtlog") as writer:
        writer.append(entries[0])
        writer.append(entries[1], sign_head(host, entries[0].id, 1, entries[1].id))
    data = (tmp_path / "t.vtlog").read_bytes()
    first = encode([entries[0].wire_array(), None])
    assert data.startswith(LOG_MAGIC + len(first).to_bytes(4, "big") + first)
    assert data == LOG_MAGIC + encode_frame(entries[0]) + encode_frame(
        entries[1], sign_head(host, entries[0].id, 1, entries[1].id)
    )


def test_a_torn_last_frame_is_dropped_at_every_byte_offset(tmp_path, host, alice):
    entries = make_log(host, alice, 3)
    path = tmp_path / "t.vtlog"
    write_log(path, host, entries)
    data = path.read_bytes()
    last_frame = encode_frame(entries[2], sign_head(host, entries[0].id, 2, entries[2].id))
    last_start = len(data) - len(last_frame)
    assert read_log(path).length == len(data)
    for cut in range(last_start + 1, len(data)):
        path.write_bytes(data[:cut])
        log = read_log(path)
        assert log.torn and log.entries == tuple(entries[:2]) and log.length == last_start, cut
    path.write_bytes(data[:last_start])
    assert not read_log(path).torn


def test_a_zero_filled_tail_is_a_torn_frame(tmp_path, host, alice):
    path = tmp_path / "t.vtlog"
    write_log(path, host, make_log(host, alice, 2))
    with open(path, "ab") as f:
        f.write(bytes(300))
    log = read_log(path)
    assert log.torn and len(log.entries) == 2


def test_resuming_cuts_the_torn_frame_and_appends_after_it(tmp_path, host, alice):
    entries = make_log(host, alice, 4)
    path = tmp_path / "t.vtlog"
    write_log(path, host, entries[:3])
    data = path.read_bytes()
    path.write_bytes(data[:-5])
    with pytest.raises(LogFileError, match=r"torn frame .a crash while writing.; resuming"):
        LogWriter(path)
    with LogWriter.open_existing(path) as writer:
        assert writer.loaded.torn and writer.loaded.entries == tuple(entries[:2])
        assert writer.last == entries[1]
        writer.append(entries[2])
        writer.append(entries[3])
    log = read_log(path)
    assert log.entries == tuple(entries) and not log.torn


def test_resuming_needs_an_existing_file(tmp_path):
    with pytest.raises(LogFileError, match="no log file"):
        LogWriter.open_existing(tmp_path / "missing.vtlog")


def test_opening_a_log_again_appends_after_its_last_entry(tmp_path, host, alice):
    entries = make_log(host, alice, 3)
    path = tmp_path / "t.vtlog"
    write_log(path, host, entries[:2])
    with LogWriter(path) as writer:
        assert writer.loaded.entries == tuple(entries[:2])
        writer.append(entries[2])
    assert read_log(path).entries == tuple(entries)


def test_an_empty_file_becomes_a_new_log(tmp_path, host):
    path = tmp_path / "t.vtlog"
    path.write_bytes(b"")
    with LogWriter(path) as writer:
        writer.append(make_log(host, host, 1)[0])
    assert len(read_log(path).entries) == 1


def frame_offsets(data: bytes) -> list[int]:
    offsets, pos = [], len(LOG_MAGIC)
    while pos < len(data):
        offsets.append(pos)
        pos += 4 + int.from_bytes(data[pos : pos + 4], "big")
    return offsets


def test_a_corrupt_middle_frame_names_its_index_and_offset(tmp_path, host, alice):
    path = tmp_path / "t.vtlog"
    write_log(path, host, make_log(host, alice, 4))
    data = bytearray(path.read_bytes())
    offset = frame_offsets(bytes(data))[1]
    data[offset + 60] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(LogFileError, match=rf"frame 1 \(byte offset {offset}\)") as info:
        read_log(path)
    assert (info.value.frame, info.value.offset) == (1, offset)
    assert isinstance(info.value.__cause__, (LogError, CodecError))  # the precise fault


def test_a_corrupt_complete_last_frame_is_an_error_not_a_torn_tail(tmp_path, host, alice):
    path = tmp_path / "t.vtlog"
    write_log(path, host, make_log(host, alice, 3))
    data = bytearray(path.read_bytes())
    data[-1] ^= 0x01  # inside the last head signature
    path.write_bytes(bytes(data))
    with pytest.raises(LogFileError, match=r"frame 2.*head signature"):
        read_log(path)


@pytest.mark.parametrize("length", [0, 4 * 1024 * 1024 + 1])
def test_a_frame_length_out_of_bounds_is_corrupt(tmp_path, host, alice, length):
    path = tmp_path / "t.vtlog"
    write_log(path, host, make_log(host, alice, 2))
    with open(path, "ab") as f:
        f.write(length.to_bytes(4, "big") + b"\x01" * 10)
    with pytest.raises(LogFileError, match=f"frame 2 .*declares {length} bytes"):
        read_log(path)


def test_frames_that_do_not_chain_are_corrupt(tmp_path, host, alice):
    entries = make_log(host, alice, 3)
    path = tmp_path / "t.vtlog"
    path.write_bytes(LOG_MAGIC + encode_frame(entries[0]) + encode_frame(entries[2]))
    with pytest.raises(LogFileError, match=r"frame 1 .*seq 2 cannot follow") as info:
        read_log(path)
    assert isinstance(info.value.__cause__, ChainError)


def test_a_head_signature_that_is_not_the_hosts_is_corrupt(tmp_path, host, alice):
    entries = make_log(host, alice, 2)
    path = tmp_path / "t.vtlog"
    bad = sign_head(alice, entries[0].id, 1, entries[1].id)
    path.write_bytes(LOG_MAGIC + encode_frame(entries[0]) + encode_frame(entries[1], bad))
    with pytest.raises(LogFileError, match="frame 1"):
        read_log(path)


@pytest.mark.parametrize("start", [b"", b"VTLOG", b"VTLOG2\n", b"PK\x03\x04", b"vtlog1\n"])
def test_a_file_without_the_magic_is_not_a_log(tmp_path, start):
    path = tmp_path / "t.vtlog"
    path.write_bytes(start + bytes(10))
    with pytest.raises(LogFileError, match="not a vampire-table log"):
        read_log(path)


def test_a_missing_log_file_is_a_sentence(tmp_path):
    with pytest.raises(LogFileError, match="Cannot read the log file"):
        read_log(tmp_path / "nope.vtlog")


def test_appending_an_entry_that_does_not_chain_writes_nothing(tmp_path, host, alice):
    entries = make_log(host, alice, 3)
    path = tmp_path / "t.vtlog"
    with LogWriter(path) as writer:
        writer.append(entries[0])
        size = path.stat().st_size
        with pytest.raises(ChainError):
            writer.append(entries[2])
        with pytest.raises(BadSignature):
            writer.append(entries[1], sign_head(alice, entries[0].id, 1, entries[1].id))
        assert path.stat().st_size == size


def test_append_fsyncs_the_whole_frame_before_returning(tmp_path, host, monkeypatch):
    path = tmp_path / "t.vtlog"
    genesis = make_log(host, host, 1)[0]
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd):
        synced.append(os.fstat(fd).st_size)
        real_fsync(fd)

    with LogWriter(path) as writer:
        monkeypatch.setattr(os, "fsync", fsync)
        writer.append(genesis)
        assert synced == [len(LOG_MAGIC) + len(encode_frame(genesis))]


def test_a_failed_write_leaves_no_partial_frame(tmp_path, host, alice, monkeypatch):
    entries = make_log(host, alice, 3)
    path = tmp_path / "t.vtlog"
    with LogWriter(path) as writer:
        writer.append(entries[0])
        real_write = os.write

        def write_then_fail(fd, data):
            real_write(fd, bytes(data[:10]))
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(os, "write", write_then_fail)
        with pytest.raises(LogFileError, match="No space left"):
            writer.append(entries[1])
        monkeypatch.undo()
        writer.append(entries[1])
        writer.append(entries[2])
    assert read_log(path).entries == tuple(entries)


def test_a_closed_writer_refuses_to_append(tmp_path, host):
    writer = LogWriter(tmp_path / "t.vtlog")
    writer.close()
    with pytest.raises(LogFileError, match="closed"):
        writer.append(make_log(host, host, 1)[0])


# --- identity keys (PROTOCOL.md 8) ---


def test_an_identity_is_created_once_with_mode_0600(tmp_path):
    key = load_identity("alice", tmp_path)
    path = tmp_path / "identities" / "alice.key"
    assert key_path("alice", tmp_path) == path
    assert path.read_bytes() == key.private_bytes_raw() and len(path.read_bytes()) == 32
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = load_identity("alice", tmp_path)
    assert public_bytes(again) == public_bytes(key)
    assert public_bytes(load_identity("bob", tmp_path)) != public_bytes(key)
    assert sorted(p.name for p in path.parent.iterdir()) == ["alice.key", "bob.key"]


@pytest.mark.parametrize(
    "profile",
    ["", "../alice", "a/b", "a\\b", ".hidden", "x" * 65, "nul\x00", "tab\t", "c:", "end.", 7],
)
def test_profile_names_that_cannot_name_a_file_are_refused(tmp_path, profile):
    with pytest.raises(IdentityError):
        load_identity(profile, tmp_path)
    assert not (tmp_path / "identities").exists() or not any((tmp_path / "identities").iterdir())


def test_profile_names_may_be_ordinary_login_names(tmp_path):
    for name in ("alice", "Jean-Luc Picard", "bob_2", "élodie", "a.b"):
        load_identity(name, tmp_path)


def test_a_key_file_of_the_wrong_size_is_refused(tmp_path):
    path = key_path("alice", tmp_path)
    path.parent.mkdir(parents=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, b"-----BEGIN PRIVATE KEY-----\n")
    os.close(fd)
    with pytest.raises(IdentityError, match="32 bytes"):
        load_identity("alice", tmp_path)


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_a_key_file_others_can_read_is_refused(tmp_path):
    load_identity("alice", tmp_path)
    os.chmod(key_path("alice", tmp_path), 0o644)
    with pytest.raises(IdentityError, match="chmod 600"):
        load_identity("alice", tmp_path)


def test_fingerprints_are_64_bits_in_hex_groups_derived_from_the_key(host, alice):
    # PROTOCOL.md 8: at least 64 bits, shown as hex groups.
    pub = public_bytes(host)
    digest = hashlib.sha256(encode(["vampire-table/fingerprint/v1", pub])).hexdigest()
    assert short_fingerprint(pub) == "-".join(digest[i : i + 4] for i in (0, 4, 8, 12))
    assert short_fingerprint(pub) == "5297-051c-5b92-3458"  # docs/protocol.md 1.6
    assert re.fullmatch(r"[0-9a-f]{4}(-[0-9a-f]{4}){3}", short_fingerprint(public_bytes(alice)))
    assert short_fingerprint(pub) != short_fingerprint(public_bytes(alice))


def test_bots_get_fresh_keys():
    assert public_bytes(new_key()) != public_bytes(new_key())
