"""Running the real command line (``python -m tui.cli``) as a child process from a test."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def child_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a ``python -m tui.cli`` child: its files under ``home / "data"``
    (XDG_DATA_HOME), discovery off (nothing it sends leaves this machine), output unbuffered so a
    test reads each line as it is said, this repository importable; ``extra`` on top."""
    return dict(
        os.environ,
        XDG_DATA_HOME=str(home / "data"),
        VAMPIRE_NO_DISCOVERY="1",
        PYTHONUNBUFFERED="1",
        PYTHONPATH=str(ROOT),
        **extra,
    )


def can_mount() -> bool:
    """Whether this process may create a mount namespace of its own (``unshare -m``), where a test
    mounts a small or a read-only file system that nothing outside it sees."""
    if shutil.which("unshare") is None:
        return False
    return subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0
