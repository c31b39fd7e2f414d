"""A VEKN id, the member number the VEKN gives a player (docs/protocol.md 4.1): the one rule for its
form, for the id a profile keeps (:mod:`engine.paths`) and the one a `join` carries
(:mod:`engine.table.lobby`).

It imports nothing, so that checking an id loads nothing else (no table, no cryptography).
"""

from __future__ import annotations

MAX_VEKN = 10
"""The longest VEKN id (a VEKN member number), in digits."""


def valid_vekn(text: object) -> bool:
    """True if ``text`` is a VEKN id as a `join` may carry it: 1 to :data:`MAX_VEKN` ASCII digits."""
    return isinstance(text, str) and 0 < len(text) <= MAX_VEKN and text.isascii() and text.isdigit()
