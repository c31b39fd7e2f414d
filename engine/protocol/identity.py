"""Identity keys: one Ed25519 key per profile name, kept in the user's data directory
(PROTOCOL.md 8, DESIGN.md "Identities").

A key file is ``<data dir>/identities/<profile>.key``, where the data dir is
``platformdirs.user_data_dir("vampire-table", appauthor=False)`` unless given. It holds exactly the
32-byte raw Ed25519 private key (the RFC 8032 seed), nothing else, and has mode 0600.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from engine.errors import VampireError
from engine.files import write_private
from engine.protocol.codec import hash_input

KEY_BYTES = 32
"""Size of a key file: the raw Ed25519 private key."""

_FORBIDDEN = frozenset('/\\:*?"<>|')


class IdentityError(VampireError):
    """A profile name that cannot name a key file, or a key file that cannot be used."""


def check_profile(profile: object) -> str:
    """``profile`` if it can name a key file, else IdentityError.

    A profile is 1 to 64 printable characters, none of ``/ \\ : * ? " < > |``, not starting with
    a dot or a space and not ending with a dot or a space.
    """
    if not isinstance(profile, str) or not 1 <= len(profile) <= 64:
        raise IdentityError("A profile name must be 1 to 64 characters long.")
    if not profile.isprintable() or _FORBIDDEN.intersection(profile):
        raise IdentityError(
            f'The profile name {profile!r} may not hold control characters or any of / \\ : * ? " < > |.'
        )
    if profile[0] in ". " or profile[-1] in ". ":
        raise IdentityError(f"The profile name {profile!r} may not start with a dot or a space, or end with one.")
    return profile


def key_path(profile: str, data_dir: Path | None = None) -> Path:
    """Where the key of ``profile`` is kept: ``<data_dir>/identities/<profile>.key``, ``data_dir``
    defaulting to the user's data directory for "vampire-table". Raises IdentityError for a bad
    profile name."""
    from engine.paths import identities_dir

    return identities_dir(Path(data_dir) if data_dir is not None else None) / f"{check_profile(profile)}.key"


def new_key() -> Ed25519PrivateKey:
    """A fresh Ed25519 key from the OS random source (bots get one per table)."""
    return Ed25519PrivateKey.generate()


def public_bytes(key: Ed25519PrivateKey) -> bytes:
    """The raw 32-byte Ed25519 public key of ``key``."""
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


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
    not 32 bytes.
    """
    try:
        info = path.stat()
        seed = path.read_bytes()
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
    key = new_key()
    seed = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            write_private(path, seed, replace=False)
        except FileExistsError:
            return read_key_file(path, what)  # another process made it first: use theirs
    except OSError as err:
        raise IdentityError(f"Cannot create the {what} {path}: {err.strerror or err}.") from None
    return key


def load_identity(profile: str, data_dir: Path | None = None) -> Ed25519PrivateKey:
    """The Ed25519 key of ``profile``, created on first use (PROTOCOL.md 8; :func:`load_key_file`).

    Raises IdentityError for a bad profile name, a key file that is not 32 bytes or that other
    users can read (POSIX), or an I/O error.
    """
    return load_key_file(key_path(profile, data_dir))
