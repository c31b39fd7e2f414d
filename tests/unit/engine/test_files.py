"""The files a table leaves (PROTOCOL.md 8): nothing after a log's `end` entry, a log that a refused
resume leaves as it was, secrets files kept private on every write, identity and bot keys that others
can read refused."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.errors import IdentityError
from engine.protocol.identity import load_key_file, public_bytes, read_key_file
from engine.protocol.log import (
    END_KIND,
    LOG_MAGIC,
    ZERO32,
    Entry,
    LogFileError,
    LogWriter,
    TrailingBytes,
    encode_frame,
    parse_log,
    read_log,
    sign_entry,
    sign_head,
)
from engine.protocol.secrets import MAGIC, PRIVATE, SecretsFile
from engine.table import EntryKind, TableRefusal
from tests.support.protocol import saved_game

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


@pytest.fixture
def host() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(bytes(range(32)))


def closed_log(host: Ed25519PrivateKey, chats: int = 2) -> list[Entry]:
    """A genesis, ``chats`` chat lines and an `end`, all by the host (the log layer checks no rule)."""
    entries = [sign_entry(host, table=ZERO32, seq=0, prev=ZERO32, kind="table", body={}, time_ms=0)]
    for seq in range(1, chats + 2):
        kind = END_KIND if seq == chats + 1 else "chat"
        entries.append(
            sign_entry(host, table=entries[0].id, seq=seq, prev=entries[-1].id, kind=kind, body={}, time_ms=seq)
        )
    return entries


def frames(host: Ed25519PrivateKey, entries: list[Entry]) -> bytes:
    return b"".join(encode_frame(e, sign_head(host, entries[0].id, e.seq, e.id)) for e in entries)


# --- nothing after the end entry ------------------------------------------------------------------


def test_the_log_layer_and_the_table_agree_on_the_kind_that_ends_a_log():
    assert EntryKind.END == END_KIND


@pytest.mark.parametrize(
    "tail",
    [b"garbage!", b"\x00", b"\x00" * 12, b"\x00\x00\x01\x00 a torn frame", "a whole chained frame"],
    ids=["junk", "one-zero", "zeros", "torn-looking", "whole-frame"],
)
def test_any_byte_after_the_end_entry_is_a_fault_of_the_file(host, tail):
    entries = closed_log(host)
    if tail == "a whole chained frame":
        more = sign_entry(
            host, table=entries[0].id, seq=len(entries), prev=entries[-1].id, kind="chat", body={}, time_ms=9
        )
        tail = encode_frame(more, sign_head(host, entries[0].id, more.seq, more.id))
    assert isinstance(tail, bytes)
    clean = LOG_MAGIC + frames(host, entries)
    assert parse_log(clean).entries == tuple(entries)
    with pytest.raises(LogFileError) as caught:
        parse_log(clean + tail, "The log F")
    err = caught.value
    assert err.offset == len(clean) and err.frame == len(entries)
    assert isinstance(err.__cause__, TrailingBytes)
    assert err.__cause__.after == entries[-1].seq and err.__cause__.count == len(tail)
    assert f"{len(tail)} byte" in str(err) and "follow the end entry" in str(err)


def test_a_torn_frame_before_the_end_is_still_a_torn_frame(host):
    entries = closed_log(host)
    data = LOG_MAGIC + frames(host, entries)
    cut = data[: len(data) - 3]  # the end entry itself was being written
    log = parse_log(cut)
    assert log.torn and log.entries == tuple(entries[:-1])


def test_a_writer_appends_nothing_after_the_end_entry(tmp_path, host):
    entries = closed_log(host)
    path = tmp_path / "t.vtlog"
    with LogWriter(path) as writer:
        for e in entries:
            writer.append(e, sign_head(host, entries[0].id, e.seq, e.id))
        size = path.stat().st_size
        more = sign_entry(
            host, table=entries[0].id, seq=len(entries), prev=entries[-1].id, kind="chat", body={}, time_ms=9
        )
        with pytest.raises(LogFileError, match="nothing is written after its end entry"):
            writer.append(more)
    assert path.stat().st_size == size and read_log(path).entries == tuple(entries)


def test_the_table_refuses_every_entry_after_the_end():
    played = saved_game()
    host = played.game.host
    table = host.table
    assert table.ended
    for kind, body in (("chat", {"text": "good game"}), ("end", {"scores": [], "winners": []})):
        with pytest.raises(TableRefusal, match="the table has ended") as caught:
            table.check(host.sign(kind, body))
        assert caught.value.code == "illegal"


# --- a refused resume leaves the file as it was ---------------------------------------------------


def test_reopening_a_torn_log_changes_nothing_until_the_first_append(tmp_path, host):
    entries = closed_log(host, chats=3)[:-1]
    path = tmp_path / "t.vtlog"
    data = LOG_MAGIC + frames(host, entries)
    path.write_bytes(data[:-5])  # a torn last frame
    writer = LogWriter.open_existing(path)
    assert writer.loaded.torn and writer.loaded.entries == tuple(entries[:-1])
    writer.close()  # the resume was refused (another host, a log the table refuses...)
    assert path.read_bytes() == data[:-5]
    with LogWriter.open_existing(path) as writer:
        writer.append(entries[-1], sign_head(host, entries[0].id, entries[-1].seq, entries[-1].id))
    assert path.read_bytes() == data


# --- secrets files --------------------------------------------------------------------------------


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@posix_only
def test_a_new_secrets_file_is_private(tmp_path):
    path = tmp_path / "seat.secrets"
    secrets = SecretsFile(path)
    secrets.put("seed", 0, b"s" * 32)
    assert mode(path) == PRIVATE and path.read_bytes().startswith(MAGIC) and secrets.warnings == []


@posix_only
def test_a_secrets_file_others_can_read_is_made_private_on_opening_with_a_warning(tmp_path, caplog):
    path = tmp_path / "seat.secrets"
    SecretsFile(path).put("seed", 0, b"s" * 32)
    os.chmod(path, 0o644)
    with caplog.at_level(logging.WARNING, logger="vampire.files"):
        secrets = SecretsFile(path)
    assert mode(path) == PRIVATE
    assert secrets.get("seed", 0) == b"s" * 32
    assert len(secrets.warnings) == 1
    warning = secrets.warnings[0]
    assert str(path) in warning and "0644" in warning and "may have leaked" in warning
    assert [r.getMessage() for r in caplog.records if r.name == "vampire.files"] == [warning]


@posix_only
def test_the_mode_of_a_secrets_file_is_checked_on_every_write(tmp_path, caplog):
    path = tmp_path / "seat.secrets"
    secrets = SecretsFile(path)
    secrets.put("seed", 0, b"a" * 32)
    os.chmod(path, 0o640)  # made readable while the seat plays
    with caplog.at_level(logging.WARNING, logger="vampire.files"):
        secrets.put("seed", 1, b"b" * 32)
    assert mode(path) == PRIVATE
    assert len(secrets.warnings) == 1 and "0640" in secrets.warnings[0]
    secrets.put("seed", 2, b"c" * 32)  # private again: no new warning
    assert len(secrets.warnings) == 1
    assert SecretsFile(path).get("seed", 1) == b"b" * 32


# --- keys: identity keys and bot keys -------------------------------------------------------------


@posix_only
def test_a_key_file_is_made_private_and_read_back(tmp_path):
    path = tmp_path / "bot" / "key"
    key = load_key_file(path, "bot key")
    assert mode(path) == 0o600 and mode(path.parent) == 0o700
    assert public_bytes(read_key_file(path, "bot key")) == public_bytes(key)
    assert public_bytes(load_key_file(path, "bot key")) == public_bytes(key)


@posix_only
@pytest.mark.parametrize("loose", [0o644, 0o640, 0o604, 0o660])
def test_a_key_file_others_can_read_is_refused_naming_what_it_is(tmp_path, loose):
    path = tmp_path / "key"
    load_key_file(path, "bot key")
    os.chmod(path, loose)
    with pytest.raises(IdentityError) as caught:
        load_key_file(path, "bot key")
    assert str(caught.value) == f"The bot key {path} can be read by other users; make it private (chmod 600)."
