"""Errors as the sentences a player reads (DESIGN.md: errors are sentences, never tracebacks)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.errors import VampireError

_SEAT_REF = re.compile(r"\{s(\d+)\}")


def with_seat_names(text: str, names: Sequence[str]) -> str:
    """``text`` with an engine's seat placeholders (``{s1}``: ``engine.games.base.seat_ref``)
    replaced by the seats' ``names`` (``"seat 3"`` for a seat past them): a refusal a table sent."""
    return _SEAT_REF.sub(
        lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names) else f"seat {int(m.group(1)) + 1}", text
    )


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def explain(err: BaseException) -> str:
    """A sentence for any error a session or a file can raise: the project's own errors say it
    themselves; a network error names its cause; anything else is named as unexpected."""
    if isinstance(err, VampireError):
        return sentence(str(err))
    if isinstance(err, (ConnectionError, TimeoutError)):
        return sentence(
            f"the connection failed ({err.strerror or type(err).__name__})"
            if isinstance(err, OSError) and err.strerror
            else "the connection failed"
        )
    if isinstance(err, OSError) and err.filename is not None:
        return sentence(f"cannot use {err.filename}: {err.strerror or err}")
    if isinstance(err, OSError):
        return sentence(f"a file or network error: {err.strerror or err}")
    return sentence(f"something unexpected went wrong ({type(err).__name__}: {err})")
