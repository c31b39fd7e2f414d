"""Whether a screen can be shown here: a screen reads the person's keys from standard input and
draws on standard output, so both must be a terminal (DESIGN.md, "Feel": errors are sentences).
A command run from a script, with ``</dev/null`` or with its output in a file would otherwise
draw for nobody and wait for keys nobody can press, for ever.
"""

from __future__ import annotations

import sys
from typing import TextIO

from engine.errors import VampireError


def not_a_terminal(stdin: TextIO | None = None, stdout: TextIO | None = None) -> str | None:
    """Which of standard input and standard output is not a terminal ("standard input", "standard
    output", or both joined by "and"), or None when both are. ``stdin``/``stdout``: the streams
    to look at (default: the process's own)."""
    streams = (("standard input", stdin or sys.stdin), ("standard output", stdout or sys.stdout))
    missing = [name for name, stream in streams if stream is None or not _isatty(stream)]
    return " and ".join(missing) or None


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (ValueError, OSError):  # a closed stream
        return False


def need_terminal(command: str, instead: str, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
    """Raise VampireError with a sentence unless standard input and output are a terminal:
    ``command`` (as the person typed it, e.g. "vampire join") opens a screen; ``instead`` says
    what runs without one (e.g. "add --bot LEVEL to seat a bot"), or is empty."""
    missing = not_a_terminal(stdin, stdout)
    if missing is None:
        return
    verb = "are" if " and " in missing else "is"
    rest = f", or {instead}" if instead else ""
    raise VampireError(
        f"{command} opens a screen that reads your keys, and {missing} {verb} not a terminal: "
        f"run it in a terminal{rest}."
    )


__all__ = ["need_terminal", "not_a_terminal"]
