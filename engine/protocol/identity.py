"""Identity keys (PROTOCOL.md 8, DESIGN.md "Identities"): Ed25519 keys, their fingerprints, and
the key file that keeps one.

A key file holds exactly the 32-byte raw Ed25519 private key (the RFC 8032 seed), nothing else, and
has mode 0600. Where a profile's key file is kept is the user's files' (:func:`engine.paths.key_path`),
and :func:`engine.identities.load_identity` loads it: the protocol knows no user's folder.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.errors import IdentityError
from engine.files import open_no_follow, write_private
from engine.protocol.codec import hash_input

KEY_BYTES = 32
"""Size of a key file: the raw Ed25519 private key."""


def new_key() -> Ed25519PrivateKey:
    """A fresh Ed25519 key from the OS random source (bots get one per table)."""
    return Ed25519PrivateKey.generate()


def public_bytes(key: Ed25519PrivateKey) -> bytes:
    """The raw 32-byte Ed25519 public key of ``key``."""
    return key.public_key().public_bytes_raw()


FINGERPRINT_BYTES = 8
"""Bytes of a fingerprint (64 bits, PROTOCOL.md 8: at least 64), shown as four groups of four hex
digits."""


def hex_groups(data: bytes, nbytes: int = FINGERPRINT_BYTES) -> str:
    """The first ``nbytes`` bytes of ``data`` as lowercase hex in groups of 4 digits joined by
    hyphens: ``"ab12-cd34-ef56-7890"`` for the default 8 bytes (19 characters). Raises
    ValueError when ``data`` is shorter than ``nbytes``."""
    if len(data) < nbytes:
        raise ValueError(f"{nbytes} bytes are needed, not {len(data)}.")
    h = data[:nbytes].hex()
    return "-".join(h[i : i + 4] for i in range(0, len(h), 4))


def short_fingerprint(pub: bytes) -> str:
    """The fingerprint of a 32-byte public key for people to compare at the table (PROTOCOL.md 8):
    the first 8 bytes (64 bits) of SHA-256(canonical ``["vampire-table/fingerprint/v1", pub]``) as
    :func:`hex_groups` (``"ab12-cd34-ef56-7890"``). 64 bits, because a person compares a few groups
    and an attacker who could find a key matching 32 bits in an afternoon cannot match 64."""
    return hex_groups(hashlib.sha256(hash_input("fingerprint", pub)).digest())


def read_key_file(path: Path, what: str = "identity key") -> Ed25519PrivateKey:
    """The Ed25519 key in the key file at ``path`` (the raw 32-byte private key).

    ``what`` names the key in the sentences ("identity key", "bot key"). Raises IdentityError for
    a file that cannot be read, that other users can read or write (POSIX: any group or other
    permission bit; PROTOCOL.md 8 refuses it rather than trust a key others may hold), or that is
    not 32 bytes, or whose path is a symbolic link (opened without following it: neither the link
    nor what it points to is read or changed).
    """
    try:
        fd = open_no_follow(path, os.O_RDONLY)
        try:
            info = os.fstat(fd)
            seed = os.read(fd, KEY_BYTES + 1)
        finally:
            os.close(fd)
    except OSError as err:
        raise IdentityError(f"Cannot read the {what} {path}: {err.strerror or err}.") from None
    if os.name == "posix" and info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise IdentityError(f"The {what} {path} can be read by other users; make it private (chmod 600).")
    if len(seed) != KEY_BYTES:
        raise IdentityError(f"The {what} {path} is not a key file (it must be {KEY_BYTES} bytes).")
    return Ed25519PrivateKey.from_private_bytes(seed)


def load_key_file(path: Path, what: str = "identity key") -> Ed25519PrivateKey:
    """The key in the key file at ``path`` (:func:`read_key_file`), made with :func:`new_key` and
    written first when the file is missing (PROTOCOL.md 8).

    The key is written by :func:`engine.files.write_private` without replacing (mode 0600, synced,
    linked to its name; its folder made 0700 if missing), so a crash or a second process never
    leaves a partial key behind and never replaces an existing one. Raises IdentityError for a key
    file that is not 32 bytes or that other users can read (POSIX), a missing key file whose path is
    a symbolic link (left as it is), or an I/O error; ``what`` names the key.
    """
    if path.exists():
        return read_key_file(path, what)
    return save_key_file(path, new_key(), what)


def save_key_file(path: Path, key: Ed25519PrivateKey, what: str = "identity key") -> Ed25519PrivateKey:
    """Write ``key`` as the key file at ``path`` as :func:`load_key_file` writes a new one, and
    return it; when a key file is there already, that one is read and returned instead (a key
    file is never replaced). Raises IdentityError as :func:`load_key_file` does."""
    seed = key.private_bytes_raw()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            write_private(path, seed, replace=False)
        except FileExistsError:
            return read_key_file(path, what)  # another process made it first: use theirs
    except OSError as err:
        raise IdentityError(f"Cannot create the {what} {path}: {err.strerror or err}.") from None
    return key
