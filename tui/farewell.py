"""What the shell says once the app has closed: where the table's log is (and how to replay it),
for a guest who left a game still being played, the command that takes the seat back, and for its
host (of a table for others, or of a game against bots), the command that brings the table back.

Pure functions of a :class:`tui.session.TableSession` (read after its app exited), so the
commands that run the app print the same lines and tests can check them without a terminal.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from tui.files import display_path, shell_path, vampire_command
from tui.session import TableSession


def log_lines(session: TableSession) -> list[str]:
    """``["The table's log: logs/x.vtlog", "Replay it: vampire replay logs/x.vtlog"]``, or none
    for a table that kept no log."""
    path = session.log_path
    if path is None:
        return []
    path = Path(path)
    return [f"The table's log: {display_path(path)}", f"Replay it: {vampire_command()} replay {shell_path(path)}"]


def rejoin_line(session: TableSession) -> str | None:
    """For a guest seated at a game still being played (its seat waits for it: PROTOCOL.md 6.5),
    the command that takes the seat back (``vampire join ADDRESS --name NAME``); else None."""
    table = session.table
    if session.is_host or session.seat is None or session.address is None or table.phase not in ("lobby", "running"):
        return None
    state = table.gstate
    if table.game is not None and state is not None and table.game.result(state) is not None:
        return None  # the game is over: there is no seat to take back
    if table.phase == "lobby":
        return None  # leaving a lobby gives the seat up
    return (
        f"Your seat waits for you: {vampire_command()} join {shlex.quote(session.address)}"
        f" --name {shlex.quote(session.name)}"
    )


def resume_line(session: TableSession) -> str | None:
    """For the host of a table whose game is still being played, the command that brings it back
    from its log (``vampire host --resume FILE`` for a table for others, ``vampire play --resume
    FILE`` for a game against bots that keeps what brings it back); else None."""
    table = session.table
    if not session.is_host or session.log_path is None or table.phase != "running":
        return None
    state = table.gstate
    if table.game is not None and state is not None and table.game.result(state) is not None:
        return None  # the game is over: nothing to bring back
    path = shell_path(Path(session.log_path))
    if session.address is None:
        if not getattr(session, "resumable", False):
            return None
        return f"Bring the game back: {vampire_command()} play --resume {path}"
    # where the guests come back to: the address and port they joined (a table resumed without
    # them would listen on the defaults, where nobody looks for it)
    host, _, port = session.address.rpartition(":")
    if host and port.isdigit():
        return f"Bring the table back: {host_resume_command(Path(session.log_path), host, int(port), session.name)}"
    return f"Bring the table back: {vampire_command()} host --resume {path} --name {shlex.quote(session.name)}"


def host_resume_command(path: Path, bind: str, port: int, name: str) -> str:
    """The whole command that brings a hosted table back from its log ``path`` (README,
    "Bringing a table back"): ``vampire host --resume FILE --bind ADDRESS --port N --name NAME``,
    with the address and port its guests joined (a table resumed without them would listen on the
    defaults, where nobody looks for it) and the profile ``name`` whose host key opened it (another
    profile's is refused)."""
    return (
        f"{vampire_command()} host --resume {shell_path(path)} --bind {shlex.quote(bind)} --port {port}"
        f" --name {shlex.quote(name)}"
    )


def farewell_lines(session: TableSession | None, log: bool = True) -> list[str]:
    """The lines to print after the app closed on ``session`` (None: no table was opened);
    ``log``: include the log's line (``vampire join`` prints its own)."""
    if session is None:
        return []
    lines = log_lines(session) if log else []
    more = (rejoin_line(session), resume_line(session))
    return lines + [line for line in more if line is not None]
