"""Where logs live, and the saved logs a person is likely to want to replay or audit."""

from __future__ import annotations

import os
from pathlib import Path

from engine.paths import data_dir, hosted_dir, logs_dir, tables_dir


def recent_logs(extra: list[Path] | None = None, limit: int = 20) -> list[Path]:
    """Saved logs (``*.vtlog``), newest first: from the logs directory (and one level below it),
    the working directory, and ``extra`` places."""
    places = [logs_dir(), hosted_dir(), tables_dir(), Path.cwd()] + list(extra or [])
    found: dict[Path, float] = {}
    for place in places:
        try:
            candidates = list(place.glob("*.vtlog")) + list(place.glob("*/*.vtlog"))
        except OSError:
            continue
        for path in candidates:
            try:
                found[path.resolve()] = path.stat().st_mtime
            except OSError:
                continue
    return sorted(found, key=lambda p: -found[p])[:limit]


def display_path(path: Path) -> str:
    """``path`` relative to the home directory or the working directory when shorter."""
    text = str(path)
    for base, mark in ((Path.cwd(), "."), (Path.home(), "~")):
        try:
            rel = path.relative_to(base)
        except ValueError:
            continue
        candidate = str(rel) if mark == "." else os.path.join("~", str(rel))
        if len(candidate) < len(text):
            text = candidate
    return text


def shell_path(path: Path) -> str:
    """``path`` as typed in a shell: ``~/…`` when under the home directory and plain, else quoted."""
    import shlex

    shown = display_path(Path(path))
    if shown.startswith("~" + os.sep) and shlex.quote(shown[2:]) == shown[2:]:
        return shown
    return shlex.quote(str(path))


def log_label(path: Path, width: int = 44) -> str:
    """A saved log in a list, in ``width`` characters: when it was written and where it comes from
    ("played", "hosted", "a seat at table 0ac64685", or its path)."""
    from datetime import datetime

    try:
        when = datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
    except OSError:
        when = "????-??-?? ??:??"
    try:
        parts = path.relative_to(data_dir()).parts
    except ValueError:
        parts = ()
    if parts and parts[0] == "logs":
        what = f"played {path.stem}"
    elif parts and parts[0] == "hosted":
        what = f"hosted {path.stem}"
    elif len(parts) >= 3 and parts[0] == "tables":
        what = f"seat at table {parts[1][:8]}"
    else:
        what = display_path(path)
    room = max(width - len(when) - 2, 8)
    if len(what) > room:
        what = "…" + what[-(room - 1) :]
    return f"{when}  {what}"
