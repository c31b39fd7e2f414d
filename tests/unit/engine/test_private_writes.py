"""Private files written whole or not at all (PROTOCOL.md 8; DESIGN.md, "Nothing lost"): one
function writes every profile, key and fork evidence file (mode 0600, synced, renamed into place,
the folder synced), and a private file whose path is a symbolic link is refused with what the link
points to left as it was: profiles, keys, fork evidence and secrets files alike."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from engine import files
from engine.errors import IdentityError
from engine.files import LinkRefused, write_private
from engine.paths import Profile, ProfileError, load_profile, profile_path, save_profile
from engine.protocol.identity import load_key_file
from engine.protocol.secrets import SecretsFile, SecretsFileError

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes and symbolic links")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def leftovers(folder: Path) -> list[str]:
    """Temporary files a write left in ``folder``."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture
def target(tmp_path) -> Path:
    """A file a link will point to: readable by others, with content of its own."""
    path = tmp_path / "elsewhere" / "target"
    path.parent.mkdir()
    path.write_bytes(b"not yours")
    os.chmod(path, 0o644)
    return path


def untouched(target: Path) -> bool:
    return target.read_bytes() == b"not yours" and mode(target) == 0o644


# --- the durable write ----------------------------------------------------------------------------


@posix_only
def test_a_new_private_file_holds_the_bytes_with_mode_0600(tmp_path):
    path = write_private(tmp_path / "f", b"hello")
    assert path == tmp_path / "f" and path.read_bytes() == b"hello" and mode(path) == 0o600
    assert leftovers(tmp_path) == []


@posix_only
def test_a_private_write_replaces_the_whole_content_and_makes_the_file_private(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"an older and much longer content")
    os.chmod(path, 0o644)
    write_private(path, b"new")
    assert path.read_bytes() == b"new" and mode(path) == 0o600 and leftovers(tmp_path) == []


def test_the_bytes_and_the_folder_are_synced_around_the_rename(tmp_path, monkeypatch):
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        events.append("fsync folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else f"fsync {os.fstat(fd).st_size} bytes")
        real_fsync(fd)

    def replace(src, dst) -> None:
        events.append("rename")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    write_private(tmp_path / "f", b"12345")
    expected = ["fsync 5 bytes", "rename"] + (["fsync folder"] if hasattr(os, "O_DIRECTORY") else [])
    assert events == expected


def test_a_write_that_fails_leaves_the_old_file_whole_and_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "f"
    path.write_bytes(b"old")

    def no_space(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    with pytest.raises(OSError, match="No space left"):
        write_private(path, b"new")
    assert path.read_bytes() == b"old" and leftovers(tmp_path) == []


def test_a_write_that_may_not_replace_refuses_an_existing_file(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"first")
    with pytest.raises(FileExistsError):
        write_private(path, b"second", replace=False)
    assert path.read_bytes() == b"first" and leftovers(tmp_path) == []


@posix_only
@pytest.mark.parametrize("replace", [True, False])
def test_a_private_write_through_a_symbolic_link_is_refused_and_its_target_untouched(tmp_path, target, replace):
    link = tmp_path / "f"
    link.symlink_to(target)
    with pytest.raises(LinkRefused) as caught:
        write_private(link, b"secret", replace=replace)
    assert caught.value.filename == str(link) and "symbolic link" in caught.value.strerror
    assert link.is_symlink() and untouched(target) and leftovers(tmp_path) == []


@posix_only
def test_a_dangling_symbolic_link_is_refused_and_nothing_is_created_where_it_points(tmp_path):
    link = tmp_path / "f"
    link.symlink_to(tmp_path / "nowhere")
    with pytest.raises(LinkRefused):
        write_private(link, b"secret")
    assert not (tmp_path / "nowhere").exists() and link.is_symlink()


@posix_only
def test_opening_without_following_refuses_a_link_before_touching_its_target(tmp_path, target):
    link = tmp_path / "f"
    link.symlink_to(target)
    with pytest.raises(LinkRefused):
        files.open_no_follow(link, os.O_WRONLY | os.O_APPEND)
    assert untouched(target)


# --- its callers: profiles, keys, fork evidence, secrets -------------------------------------------


@posix_only
def test_a_profile_is_written_private_and_synced(tmp_path, monkeypatch):
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    path = save_profile(Profile("Mina", {"vekn": "1003456"}), tmp_path)
    assert synced and mode(path) == 0o600 and mode(path.parent) == 0o700
    assert load_profile("Mina", tmp_path) == Profile("Mina", {"vekn": "1003456"})
    save_profile(Profile("Mina"), tmp_path)  # replaced whole
    assert load_profile("Mina", tmp_path) == Profile("Mina") and leftovers(path.parent) == []


@posix_only
def test_a_profile_file_that_is_a_symbolic_link_is_refused_with_a_sentence(tmp_path, target):
    path = profile_path("Mina", tmp_path)
    path.parent.mkdir(parents=True)
    path.symlink_to(target)
    with pytest.raises(ProfileError) as caught:
        save_profile(Profile("Mina", {"vekn": "1003456"}), tmp_path)
    assert str(caught.value).startswith(f"Cannot write the profile file {path}: it is a symbolic link")
    assert untouched(target)


@posix_only
def test_a_key_file_path_that_is_a_dangling_link_is_refused_and_no_key_is_written_through_it(tmp_path):
    path = tmp_path / "identities" / "Mina.key"
    path.parent.mkdir()
    path.symlink_to(tmp_path / "stolen.key")
    with pytest.raises(IdentityError) as caught:
        load_key_file(path)
    assert str(caught.value).startswith(f"Cannot create the identity key {path}: it is a symbolic link")
    assert not (tmp_path / "stolen.key").exists() and leftovers(path.parent) == []


@posix_only
def test_a_secrets_path_that_is_a_symbolic_link_is_refused_untouched(tmp_path, target):
    link = tmp_path / "seat.secrets"
    link.symlink_to(target)
    with pytest.raises(SecretsFileError) as caught:
        SecretsFile(link)
    assert str(caught.value) == (
        f"The secrets file {link} is a symbolic link; it is refused, and what it points to is left as it was."
    )
    assert untouched(target)  # its mode is not made 0600 first


@posix_only
def test_a_secrets_path_that_is_a_dangling_link_is_refused_and_nothing_is_created(tmp_path):
    link = tmp_path / "seat.secrets"
    link.symlink_to(tmp_path / "nowhere")
    with pytest.raises(SecretsFileError):
        SecretsFile(link)
    assert not (tmp_path / "nowhere").exists()


@posix_only
def test_a_secrets_path_made_a_link_while_the_seat_plays_stores_nothing_through_it(tmp_path, target):
    path = tmp_path / "seat.secrets"
    secrets = SecretsFile(path)
    secrets.put("seed", 0, b"a" * 32)
    path.unlink()
    path.symlink_to(target)
    with pytest.raises(SecretsFileError):
        secrets.put("seed", 1, b"b" * 32)
    assert untouched(target) and secrets.get("seed", 1) is None
