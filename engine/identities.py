"""A person's identity (DESIGN.md, "Identities"; PROTOCOL.md 8): the Ed25519 key of each profile,
kept in the user's data directory and made on first use.

This joins the two sides that know nothing of each other: where the user's files are
(:mod:`engine.paths`, which loads no cryptography) and what a key file holds
(:mod:`engine.protocol.identity`, which knows no user's folder).
"""

from __future__ import annotations

from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.paths import key_path
from engine.protocol.identity import load_key_file, save_key_file


def load_identity(profile: str, data_dir: Path | None = None) -> Ed25519PrivateKey:
    """The Ed25519 key of ``profile``, kept at :func:`~engine.paths.key_path` (``data_dir``: the
    data directory, default the user's), created on first use (:func:`load_key_file`).

    Raises IdentityError for a bad profile name, a key file that is not 32 bytes or that other
    users can read (POSIX), or an I/O error.
    """
    return load_key_file(key_path(profile, data_dir))


def bot_profile(name: str) -> str:
    """The profile under which a bot seated by ``vampire join --bot`` with no state folder keeps
    its key (``<name>-bot``: :func:`~engine.paths.key_path`), so that the same command with its
    ``--name`` takes its seat again after a restart. Raises IdentityError for a name that cannot
    name a file (:func:`~engine.paths.check_profile`)."""
    return f"{name}-bot"


def save_identity(profile: str, key: Ed25519PrivateKey, data_dir: Path | None = None) -> Ed25519PrivateKey:
    """Keep ``key`` as the key of ``profile`` (:func:`~engine.paths.key_path`) and return it; a key
    the profile has already is returned instead, never replaced. Raises IdentityError as
    :func:`load_identity` does."""
    return save_key_file(key_path(profile, data_dir), key)
