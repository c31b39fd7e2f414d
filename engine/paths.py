"""The user's files and profiles (DESIGN.md, "Identities"; PROTOCOL.md 8): one place that says
where vampire-table keeps what it keeps, and which profile a person plays under.

Everything lives under the user's data directory for "vampire-table" (platformdirs):

- ``identities/<profile>.key``: a person's Ed25519 key per profile (0600);
- ``logs/``: logs of tables played from the app (``vampire play``);
- ``hosted/``: logs of tables opened with ``vampire host`` (and their bots' files beside them);
- ``tables/<table id>/``: a seat's own copy of a table's log and its secrets file.
"""

from __future__ import annotations

import getpass
from pathlib import Path

import platformdirs

APP = "vampire-table"

MAX_NAME = 32
"""The longest name a seat shows at the table (characters)."""


def data_dir() -> Path:
    """The user's data directory for vampire-table."""
    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def identities_dir(base: Path | None = None) -> Path:
    """Where profile keys are kept."""
    return (base if base is not None else data_dir()) / "identities"


def logs_dir() -> Path:
    """Logs of tables played from the app."""
    return data_dir() / "logs"


def hosted_dir() -> Path:
    """Logs of tables opened with ``vampire host``."""
    return data_dir() / "hosted"


def tables_dir() -> Path:
    """Each seat's own files, one folder per table id."""
    return data_dir() / "tables"


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
