"""Fixtures shared by the TUI's unit tests."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def vampire_on_the_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The screens write this program's command as ``vampire`` (:func:`tui.files.vampire_command`),
    whatever machine or virtual environment runs the tests: ``vampire`` on the PATH is this
    program, run as the console script beside this interpreter. A test that checks another case
    sets ``sys.argv`` and ``shutil.which`` itself."""
    script = str(Path(sys.executable).parent / "vampire")
    which = shutil.which
    monkeypatch.setattr(sys, "argv", [script])
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: script if name == "vampire" else which(name, *a, **k))
