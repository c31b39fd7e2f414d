"""Secrets and key files are opened without following links (PROTOCOL.md 8): a path that is a
symbolic link is refused before anything is read or changed through it, its target untouched."""

from __future__ import annotations

import os
import stat

import pytest

from engine.protocol.identity import IdentityError, new_key, read_key_file
from engine.protocol.secrets import SecretsFile, SecretsFileError

pytestmark = pytest.mark.skipif(os.name != "posix", reason="symbolic links and modes: POSIX")


def a_target(tmp_path, data: bytes, mode: int):
    target = tmp_path / "elsewhere"
    target.write_bytes(data)
    target.chmod(mode)
    return target, target.stat()


def test_a_secrets_path_that_is_a_symbolic_link_is_refused_with_its_targets_mode_unchanged(tmp_path):
    target, before = a_target(tmp_path, b"VTSECRETS", 0o644)  # others may read it: a fix would chmod it
    link = tmp_path / "seat.secrets"
    link.symlink_to(target)
    with pytest.raises(SecretsFileError, match="symbolic link"):
        SecretsFile(link)
    after = target.stat()
    assert stat.S_IMODE(after.st_mode) == 0o644 and after.st_mtime_ns == before.st_mtime_ns


def test_a_key_file_path_that_is_a_symbolic_link_is_refused_unread(tmp_path):
    key = new_key().private_bytes_raw()
    target, before = a_target(tmp_path, key, 0o600)  # a private key, the right size: only the link is wrong
    link = tmp_path / "Mina.key"
    link.symlink_to(target)
    with pytest.raises(IdentityError, match="symbolic link"):
        read_key_file(link)
    after = target.stat()
    assert stat.S_IMODE(after.st_mode) == 0o600 and after.st_mtime_ns == before.st_mtime_ns
    assert read_key_file(target).private_bytes_raw() == key  # the file itself is read as ever
