"""The user's files and profiles (DESIGN.md, "Identities"; PROTOCOL.md 8): one place that says
where vampire-table keeps what it keeps, which profile a person plays under, and what a profile
carries besides its key.

Everything lives under the user's data directory for "vampire-table" (platformdirs):

- ``identities/<profile>.key``: a person's Ed25519 key per profile (0600);
- ``logs/``: logs of tables played from the app (``vampire play``);
- ``hosted/``: logs of tables opened with ``vampire host`` (and their bots' files beside them);
- ``tables/<table id>/``: a seat's own copy of a table's log and its secrets file;
- ``profiles/<profile>.json``: what a profile carries besides its key: what its player states at
  a table (a game's seat facts, ``{"KEY": "VALUE"}``, each a string), which the profile's ``join``
  entries record where the table's game takes them (docs/protocol.md 4.1). What a fact means and
  which values are valid is the games' (:mod:`engine.kits` checks them): this module keeps strings.

How a file is written is :mod:`engine.files`'s; what a key file holds, and loading a profile's key,
are :mod:`engine.protocol.identity`'s and :mod:`engine.identities`'s. This module loads no
cryptography and no table, and nothing in the protocol imports it.
"""

from __future__ import annotations

import getpass
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from engine.errors import IdentityError, VampireError
from engine.files import write_private

APP = "vampire-table"

MAX_NAME = 32
"""The longest name a seat shows at the table (characters)."""

_FORBIDDEN = frozenset('/\\:*?"<>|')


def data_dir() -> Path:
    """The user's data directory for vampire-table."""
    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def identities_dir(base: Path | None = None) -> Path:
    """Where profile keys are kept."""
    return (base if base is not None else data_dir()) / "identities"


def key_path(profile: str, data_dir: Path | None = None) -> Path:
    """Where the key of ``profile`` is kept: ``<data_dir>/identities/<profile>.key``, ``data_dir``
    defaulting to the user's data directory for "vampire-table". Raises IdentityError for a bad
    profile name."""
    return identities_dir(Path(data_dir) if data_dir is not None else None) / f"{check_profile(profile)}.key"


def logs_dir() -> Path:
    """Logs of tables played from the app."""
    return data_dir() / "logs"


def hosted_dir() -> Path:
    """Logs of tables opened with ``vampire host``."""
    return data_dir() / "hosted"


def tables_dir() -> Path:
    """Each seat's own files, one folder per table id."""
    return data_dir() / "tables"


def check_profile(profile: object) -> str:
    """``profile`` if it can name a profile's files (its key file, its profile file), else
    IdentityError.

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


def login_name() -> str:
    """The profile used when ``--name`` is not given: the login name, or "player"."""
    try:
        name = getpass.getuser().strip()
    except Exception:  # no login name in this environment (a container, a service)
        name = ""
    return name or "player"


def seat_name(profile: str | None) -> str:
    """The name a person shows at the table: ``profile`` (or the login name), cut to
    :data:`MAX_NAME` characters."""
    return ((profile or "").strip() or login_name())[:MAX_NAME]


class ProfileError(VampireError):
    """A profile file that cannot be read or written, or a fact in it that is not one."""


@dataclass(frozen=True)
class Profile:
    """What a profile carries besides its key: ``name`` (the profile), ``facts``: what its player
    states at a table, by key (``{"KEY": "VALUE"}``; strings, as a game's seat facts are)."""

    name: str
    facts: Mapping[str, str] = field(default_factory=dict)


def profiles_dir(base: Path | None = None) -> Path:
    """Where profile files are kept."""
    return (base if base is not None else data_dir()) / "profiles"


def profile_path(name: str, base: Path | None = None) -> Path:
    """The file of profile ``name``. Raises IdentityError for a name that cannot name a file."""
    return profiles_dir(base) / f"{check_profile(name)}.json"


def load_profile(name: str, base: Path | None = None) -> Profile:
    """Profile ``name`` as saved (a profile never saved carries nothing). Raises ProfileError for a
    file that cannot be read or does not hold a profile."""
    path = profile_path(name, base)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Profile(name)
    except (OSError, ValueError) as err:
        raise ProfileError(f"Cannot read the profile file {path}: {getattr(err, 'strerror', None) or err}.") from None
    if not isinstance(data, dict):
        return Profile(name)
    for key, value in data.items():
        if not isinstance(value, str):
            raise ProfileError(f"The profile file {path} holds {value!r} as its {key}, which is not text.")
    return Profile(name, dict(sorted(data.items())))


def save_profile(profile: Profile, base: Path | None = None) -> Path:
    """Write ``profile`` to its file, private (0600), durably and atomically (:func:`write_private`:
    a crash leaves the old file or the new one, whole); returns the path. Raises ProfileError on an
    I/O error or when the profile file is a symbolic link (left as it is)."""
    path = profile_path(profile.name, base)
    data = dict(sorted(profile.facts.items()))
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_private(path, (json.dumps(data, indent=2) + "\n").encode("utf-8"))
    except OSError as err:
        raise ProfileError(f"Cannot write the profile file {path}: {err.strerror or err}.") from None
    return path


FORGET = "none"
"""The value of a fact's option (``--KEY none``) that removes the fact from a profile."""


def remember_facts(name: str, given: Mapping[str, str | None], base: Path | None = None) -> Profile:
    """Profile ``name`` with the facts in ``given`` (already checked by their games' rules) set,
    or removed where the value is None, saved when that changes it; the profile as it is now.
    Raises ProfileError for an unusable profile file."""
    profile = load_profile(name, base)
    facts = dict(profile.facts)
    for key, value in given.items():
        if value is None:
            facts.pop(key, None)
        else:
            facts[key] = value
    if facts != profile.facts:
        profile = Profile(name, dict(sorted(facts.items())))
        save_profile(profile, base)
    return profile
