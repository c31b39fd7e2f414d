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


def person_cwd() -> Path:
    """The working directory of the person's shell: ``VAMPIRE_PERSON_PWD`` when a script that
    moved elsewhere set it (``scripts/play`` runs from the repository), else this process's."""
    given = os.environ.get("VAMPIRE_PERSON_PWD")
    return Path(given) if given and os.path.isabs(given) else Path.cwd()


def display_path(path: Path) -> str:
    """``path`` relative to the home directory or the person's working directory
    (:func:`person_cwd`) when shorter."""
    text = str(path)
    for base, mark in ((person_cwd(), "."), (Path.home(), "~")):
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


def vampire_command() -> str:
    """This program's command as the person running it can type it in their shell: ``vampire``
    when that name on the PATH is this program, else the path of the console script running now
    (relative to the working directory when shorter, quoted for a shell). A game started by a
    script that runs ``.venv/bin/vampire`` says ``.venv/bin/vampire audit …``, not a command the
    shell does not find. ``scripts/play`` says what the person's shell has: its PATH
    (``VAMPIRE_PERSON_PATH``) and working directory (:func:`person_cwd`)."""
    import shlex
    import shutil
    import sys

    script: Path | None = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is None or not script.name.startswith("vampire") or not script.is_file():
        beside = Path(sys.executable).parent / "vampire"  # run as python -m: the venv's script
        script = beside if beside.is_file() else None
    if script is None:
        return "vampire"
    # On the person's PATH, as their shell has it (scripts/play puts .venv/bin on its own).
    found = shutil.which("vampire", path=os.environ.get("VAMPIRE_PERSON_PATH"))
    try:
        if found is not None and Path(found).resolve() == script.resolve():
            return "vampire"
    except OSError:
        pass
    full = script.absolute()
    shown = display_path(full)
    if shown.startswith("~" + os.sep) and shlex.quote(shown[2:]) == shown[2:]:
        return shown
    if os.sep not in shown:
        shown = os.path.join(".", shown)  # a bare name would be looked up on the PATH
    return shlex.quote(shown)


def log_game_title(path: Path) -> str | None:
    """The title of the game the log at ``path`` holds (its :class:`GameSpec` title), read from its first
    entry only (PROTOCOL.md 8: the log file's first frame, the table's genesis); None when the
    file cannot be read, is no log, or names a game this program does not know."""
    from engine.errors import VampireError
    from engine.files import open_regular
    from engine.games import UnknownGame, find_game
    from engine.protocol.log import FRAME_HEADER, LOG_MAGIC, parse_log

    try:
        with open_regular(path) as file:
            head = file.read(len(LOG_MAGIC) + FRAME_HEADER)
            size = int.from_bytes(head[len(LOG_MAGIC) :], "big")
            data = head + file.read(min(size, 1 << 20))
        entries = parse_log(data).entries
        game = entries[0].body.get("game") if entries else None
        return find_game(str(game)).title if isinstance(game, str) else None
    except (OSError, VampireError, UnknownGame, ValueError):
        return None


def log_label(path: Path, width: int = 46) -> str:
    """A saved log in a list, in ``width`` characters: when it was written (to the minute), its
    game (:func:`log_game_title`) and where it comes from ("played here", "hosted", "table
    0ac64685, mina", or its path): ``"2026-11-30 22:35  <game title> · played here"``."""
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
        what = "played here"
    elif parts and parts[0] == "hosted":
        what = "hosted"
    elif len(parts) >= 3 and parts[0] == "tables":
        # Several profiles (or a seat and a spectator) of this computer can keep a log of one
        # table: the row says whose it is, so two rows never read the same.
        key = path.stem.removesuffix("-spectator")
        who = _profile_names().get(key, f"key {key[:8]}")
        what = f"table {parts[1][:8]}, " + (f"{who} watched" if path.stem.endswith("-spectator") else who)
    else:
        what = display_path(path)
    game = log_game_title(path)
    if game is not None:
        # Two logs of one place (two games played here) read apart by their game.
        if len(game) + len(what) + 3 > max(width - len(when) - 2, 8):
            game = "".join(w[0] for w in game.split() if w[:1].isupper()) or game[:8]  # its initials
        what = f"{game} · {what}"
    room = max(width - len(when) - 2, 8)
    if len(what) > room:  # a path keeps its end (the file's name); words keep their start
        what = ("…" + what[-(room - 1) :]) if not parts else what[: room - 1] + "…"
    return f"{when}  {what}"


def _profile_names() -> dict[str, str]:
    """This computer's profiles by the 16 hex digits that name their files in a table's folder
    (:mod:`net.store`): ``{"9d85a7b9900c9153": "root"}``. Unreadable keys are left out."""
    from engine.paths import identities_dir
    from engine.protocol.identity import public_bytes, read_key_file

    names: dict[str, str] = {}
    try:
        files = sorted(identities_dir().glob("*.key"))
    except OSError:
        return names
    for file in files:
        try:
            names[public_bytes(read_key_file(file)).hex()[:16]] = file.stem
        except Exception:  # a key this computer cannot read is no name to show
            continue
    return names
