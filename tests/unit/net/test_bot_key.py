"""A bot's per-table key (PROTOCOL.md 8): kept across a restart, private, and refused like an
identity key when other users can read it."""

from __future__ import annotations

import os
import stat

import pytest

from engine.errors import IdentityError
from engine.protocol.identity import public_bytes
from net.local import load_or_make_key


def test_a_bot_key_is_made_once_and_kept(tmp_path):
    path = tmp_path / "bots" / "0" / "key"
    key = load_or_make_key(path)
    assert len(path.read_bytes()) == 32
    assert public_bytes(load_or_make_key(path)) == public_bytes(key)
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_a_bot_key_others_can_read_is_refused_in_a_sentence(tmp_path):
    path = tmp_path / "bot.key"
    load_or_make_key(path)
    os.chmod(path, 0o644)
    with pytest.raises(IdentityError) as caught:
        load_or_make_key(path)
    assert str(caught.value) == f"The bot key {path} can be read by other users; make it private (chmod 600)."


def test_a_bot_key_file_that_is_not_a_key_is_a_sentence(tmp_path):
    path = tmp_path / "bot.key"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, b"not a key")
    os.close(fd)
    with pytest.raises(IdentityError, match="The bot key .* is not a key file"):
        load_or_make_key(path)
