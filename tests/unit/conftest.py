"""Fixtures for the unit tests that look at the code base from outside: the modules a command loads
(``test_imports.py``) and the import-linter contracts (``test_contracts.py``).

Both run a child process of this interpreter with the repository (or a copy of it) first on
``PYTHONPATH``, so that what it imports is what the tree under test holds.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: What a copy of the code base needs for import-linter: the three packages and the contracts.
PACKAGES = ("engine", "net", "tui")


@pytest.fixture(scope="session")
def child_env(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], dict[str, str]]:
    """A function ``path -> environment`` for a child process: this process's environment with
    ``path`` (the repository, or a copy) first on ``PYTHONPATH``, an empty data directory and no
    LAN discovery."""

    data = tmp_path_factory.mktemp("data")

    def env_for(path: Path = ROOT) -> dict[str, str]:
        env = dict(os.environ, XDG_DATA_HOME=str(data), VAMPIRE_NO_DISCOVERY="1")
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(path), os.environ.get("PYTHONPATH")) if p)
        return env

    return env_for


@pytest.fixture(scope="session")
def queen_log() -> Path:
    """A finished Vampire Queen game's log (4 seats, one round), saved through the protocol once
    per session (:func:`tests.support.protocol.saved_game`)."""
    from tests.support.protocol import saved_game

    return saved_game().log


@pytest.fixture
def code_copy(tmp_path: Path) -> Path:
    """A copy of ``engine``, ``net``, ``tui`` and ``pyproject.toml`` (no caches) in a fresh directory."""
    where = tmp_path / "copy"
    where.mkdir()
    for package in PACKAGES:
        shutil.copytree(ROOT / package, where / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "pyproject.toml", where / "pyproject.toml")
    return where
