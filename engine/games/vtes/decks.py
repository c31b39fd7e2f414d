"""VTES deck files: parse the common text formats into a deck of card identities
(shared/rules/vtes.md, "Setup"; PROTOCOL.md 6, "Private decks").

Accepted formats (detected from the text):

- **TWD / TWDA** and **VDB text** exports: headers, then ``Crypt (N cards, …)`` and
  ``Library (N cards)`` sections whose card lines start with a count (``2x Theo Bell (ADV)  …
  Brujah:2``; the crypt columns after the name and a ``-- comment`` are ignored, the group picks
  the right vampire);
- **Lackey**: ``N<TAB>Name`` lines, the library first, then a ``Crypt:`` line and the crypt;
- **JOL**: ``2xName`` or ``2x Name`` lines, or a bare ``Name`` for one copy;
- plain ``N Name`` / ``Nx Name`` / ``N x Name`` lines, with optional ``Crypt``/``Library`` headers.

Names resolve exactly (accents and case folded) against krcg's packaged card database, through every
name krcg knows; a name that does not resolve is an error naming its line and the closest card.
Whether a card is a crypt or a library card comes from the database, not from the section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from pathlib import Path

from engine.errors import VampireError
from engine.games.base import Act
from engine.games.vtes.cards import CardBase, card_base, identity
from engine.games.vtes.state import CRYPT_MIN, LIBRARY_MAX, LIBRARY_MIN
from engine.games.vtes.vocab import DeckPart, Do


class DeckFileError(VampireError):
    """A deck file that cannot be used: an unknown card name (with its line and the closest
    card), a bad count, or a crypt or library of the wrong size."""


@dataclass(frozen=True)
class Deck:
    """A parsed deck: ``crypt`` and ``library`` as sorted ``(krcg card id, count)`` pairs."""

    name: str
    crypt: tuple[tuple[int, int], ...]
    library: tuple[tuple[int, int], ...]

    @property
    def crypt_size(self) -> int:
        """Cards in the crypt."""
        return sum(n for _, n in self.crypt)

    @property
    def library_size(self) -> int:
        """Cards in the library."""
        return sum(n for _, n in self.library)

    def crypt_identities(self) -> list[str]:
        """The crypt's card identities ``"<id>-<copy>"`` in canonical order (id, then copy)."""
        return [identity(cid, k) for cid, n in self.crypt for k in range(1, n + 1)]

    def library_identities(self) -> list[str]:
        """The library's card identities ``"<id>-<copy>"`` in canonical order."""
        return [identity(cid, k) for cid, n in self.library for k in range(1, n + 1)]

    def deck_act(self) -> Act:
        """The ``deck`` act declaring this deck's public sizes."""
        return {"do": Do.DECK, "crypt": self.crypt_size, "library": self.library_size}

    def private_decks(self, seat: int) -> dict[tuple[int, str], list[str]]:
        """This deck as ``engine.sim`` private decks for ``seat``: ``(seat, "<part>/<seat>")`` to
        the part's identities (PROTOCOL.md 6, private decks)."""
        return {
            (seat, f"{DeckPart.CRYPT}/{seat}"): self.crypt_identities(),
            (seat, f"{DeckPart.LIBRARY}/{seat}"): self.library_identities(),
        }


# A count at the start of a line: at most 2 digits (so "419 Operation" stays a name), then an
# optional x/X/× or * separator.
_COUNT_RE = re.compile(r"^\s*(\d{1,2})(?!\d)\s*(.*)$")
_SURE_SEP_RE = re.compile(r"^(?:[xX](?=[\s\W\dA-Z]|$)|[×*])\s*")
_SECTION_RE = re.compile(r"^\s*(crypt|library)\s*\(\s*\d+", re.IGNORECASE)
_LACKEY_CRYPT_RE = re.compile(r"^\s*crypt\s*:\s*$", re.IGNORECASE)
_HEADER_WORDS = (
    "crypt|library|master|masters|action|actions|action modifier|action modifiers|ally|allies|"
    "combat|equipment|event|events|political action|political actions|power|reaction|reactions|"
    "retainer|retainers|conviction|convictions|vampire|vampires|imbued|minion|deck|total|cards"
)
_HEADER_RE = re.compile(
    rf"^\s*(?:{_HEADER_WORDS})(?:\s*/\s*(?:{_HEADER_WORDS}))*\s*(?:[(\[].*[)\]])?\s*[:.]?\s*(?:\d+\s*(?:cards?)?)?\s*$",
    re.IGNORECASE,
)
_META_RE = re.compile(r"^\s*(deck name|name|author|created by|description|comments?)\s*:", re.IGNORECASE)
_SEPARATOR_RE = re.compile(r"^\s*[-=_*~#]+\s*$")
_GROUP_RE = re.compile(r"\s[A-Za-z!' -]+:(\d|any)\s*$", re.IGNORECASE)
_ADV_RE = re.compile(r"^(.*?)\s*\(adv\)\s*$", re.IGNORECASE)


def _strip_comment(text: str) -> str:
    for mark in (" --", "\t--", "//"):
        i = text.find(mark)
        if i >= 0:
            text = text[:i]
    if text.lstrip().startswith(("--", "#")):
        return ""
    return text.strip()


def _candidates(text: str) -> list[str]:
    """Names to try for the text after a count: the whole line's first column, then shorter word
    prefixes (a crypt line of a TWD list carries capacity, disciplines, title and clan:group)."""
    first = re.split(r"\t|\s{2,}", text.strip(), maxsplit=1)[0].strip()
    out = [first]
    words = first.split(" ")
    # only where a capacity follows, so "Govern the Unalligned" never shrinks to "Govern"
    for k in range(len(words) - 1, 0, -1):
        if words[k].isdigit():
            out.append(" ".join(words[:k]))
    return out


def _resolve(base: CardBase, text: str) -> tuple[int | None, str]:
    """Resolve the name in ``text``; return (card id or None, the name as written)."""
    group = None
    match = _GROUP_RE.search(text)
    if match and match.group(1).isdigit():
        group = match.group(1)
    candidates = _candidates(text)
    for name in candidates:
        if not name:
            continue
        if group:
            adv = _ADV_RE.match(name)
            tries = [f"{adv.group(1)} (G{group} ADV)"] if adv else [f"{name} (G{group})"]
            for guess in tries:
                card = base.lookup(guess)
                if card is not None:
                    return card.id, name
        card = base.lookup(name)
        if card is not None:
            return card.id, name
    return None, re.sub(r"(\s+\d+)+$", "", candidates[0]).strip()


class _Format(StrEnum):
    """The deck file formats this module reads (see the module's docstring)."""

    TWD = "twd"
    """TWD/TWDA and VDB text: card lines only inside ``Crypt (N …)``/``Library (N …)`` sections."""
    LACKEY = "lackey"
    PLAIN = "plain"
    """``N Name`` lines, or JOL's bare names."""


def _detect(lines: list[str]) -> _Format:
    if any(_SECTION_RE.match(line) for line in lines):
        return _Format.TWD
    if any(_LACKEY_CRYPT_RE.match(line) for line in lines) and any("\t" in line for line in lines):
        return _Format.LACKEY
    return _Format.PLAIN


def parse_deck(text: str, *, library_size: bool = True, name: str = "", base: CardBase | None = None) -> Deck:
    """Parse a deck file's text (any format above) into a :class:`Deck`.

    ``library_size``: check the library holds 60–90 cards (table rule ``library_size``); the
    crypt must always hold at least 12. Raises :class:`DeckFileError` listing every line whose card
    is unknown (``line 12: no card is named "Govern the Unalligned"; did you mean Govern the
    Unaligned?``), a bad count, or a wrong size.
    """
    base = base or card_base()
    lines = text.splitlines()
    fmt = _detect(lines)
    in_sections = fmt != _Format.TWD
    counts: dict[int, int] = {}
    errors: list[str] = []
    deck_name = name
    for number, raw in enumerate(lines, start=1):
        line = raw.replace("\ufeff", "").rstrip()
        if not line.strip():
            continue
        meta = _META_RE.match(line)
        if meta:
            if meta.group(1).lower() in ("deck name", "name") and not deck_name:
                deck_name = line.split(":", 1)[1].strip()
            continue
        if fmt == _Format.TWD and _SECTION_RE.match(line):
            in_sections = True
            continue
        if not in_sections or _SEPARATOR_RE.match(line) or _LACKEY_CRYPT_RE.match(line):
            continue
        body = _strip_comment(line)
        if not body:
            continue
        match = _COUNT_RE.match(body)
        if match:
            count, rest = int(match.group(1)), match.group(2)
        elif fmt == _Format.PLAIN and not _HEADER_RE.match(body):
            count, rest = 1, body  # JOL: a bare name is one copy
        else:
            continue  # a section header or a comment line of a TWD list
        if count == 0:
            errors.append(f"line {number}: a count of 0 is not a card")
            continue
        if not rest.strip():
            errors.append(f"line {number}: a count with no card name")
            continue
        # "2xName", "2 x Name", but "1 XTC-Laced Blood" and "2 Xaviar": try both readings.
        sure = _SURE_SEP_RE.match(rest)
        readings = [rest[sure.end() :], rest] if sure else [rest]
        if not sure and rest[:1] in ("x", "X"):
            readings.append(rest[1:].lstrip())  # "2xblood doll"
        cid, written = None, ""
        for reading in readings:
            cid, found = _resolve(base, reading)
            written = written or found
            if cid is not None:
                break
        if cid is None:
            hint = base.closest(written)
            msg = f'line {number}: no card is named "{written}"'
            msg += f"; did you mean {hint}?" if hint else "."
            errors.append(msg)
            continue
        counts[cid] = counts.get(cid, 0) + count
    if errors:
        shown = errors[:10]
        more = f" (and {len(errors) - 10} more)" if len(errors) > 10 else ""
        raise DeckFileError("; ".join(shown) + more)
    crypt: list[tuple[int, int]] = []
    library: list[tuple[int, int]] = []
    for cid in sorted(counts):
        info = base.info(cid)
        (crypt if info is not None and info.kind == DeckPart.CRYPT else library).append((cid, counts[cid]))
    deck = Deck(deck_name, tuple(crypt), tuple(library))
    check_sizes(deck, library_size=library_size)
    return deck


def check_sizes(deck: Deck, *, library_size: bool = True) -> None:
    """Raise :class:`DeckFileError` unless the crypt holds at least 12 cards and (when the table rule
    ``library_size`` is on) the library 60 to 90 (rules, "Setup")."""
    problems = []
    if deck.crypt_size < CRYPT_MIN:
        problems.append(f"the crypt has {deck.crypt_size} cards, and a crypt needs at least {CRYPT_MIN}")
    if library_size and not LIBRARY_MIN <= deck.library_size <= LIBRARY_MAX:
        problems.append(
            f"the library has {deck.library_size} cards, and a library needs {LIBRARY_MIN} to "
            f"{LIBRARY_MAX} (table rule library_size)"
        )
    elif not library_size and deck.library_size < 1:
        problems.append("the library is empty")
    if problems:
        label = f"deck {deck.name!r}: " if deck.name else ""
        raise DeckFileError(label + "; ".join(problems))


def load_deck(path: str | Path, *, library_size: bool = True) -> Deck:
    """Read and parse a deck file (UTF-8, or Latin-1 as a fallback). Raises DeckFileError, also for a
    file that cannot be read."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as err:
        raise DeckFileError(f"cannot read the deck file {str(p)!r}: {err.strerror or err}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    try:
        return parse_deck(text, library_size=library_size, name=p.stem)
    except DeckFileError as err:
        raise DeckFileError(f"{p.name}: {err}") from None


def bundled_deck_names() -> list[str]:
    """Names of the tournament-winning decks shipped with the engine (for bots)."""
    folder = resources.files("engine.games.vtes") / "data"
    return sorted(x.name[: -len(".txt")] for x in folder.iterdir() if x.name.endswith(".txt"))


def bundled_deck(name: str) -> Deck:
    """One shipped deck by name (see :func:`bundled_deck_names`). Raises DeckFileError if unknown."""
    if name not in bundled_deck_names():
        raise DeckFileError(f"there is no shipped deck named {name!r} (they are: {', '.join(bundled_deck_names())})")
    text = (resources.files("engine.games.vtes") / "data" / f"{name}.txt").read_text(encoding="utf-8")
    return parse_deck(text, name=name)


def bundled_decks() -> list[Deck]:
    """Every shipped deck, parsed, in name order."""
    return [bundled_deck(n) for n in bundled_deck_names()]
