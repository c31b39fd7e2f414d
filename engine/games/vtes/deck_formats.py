"""The VTES deck list formats read (shared/rules/vtes.md, "Setup"): a deck file's text as krcg's
deck model, every line that names no card and every name only guessed, for
:func:`engine.games.vtes.decks.read_deck`, which makes the deck of card identities.

Text deck lists go through krcg's own deck list parser (``krcg.parser``), which reads what deck
builders and online tables write: the TWD / TWDA and VDB text exports (headers, a crypt table with
capacity, disciplines and ``Clan:group``, the library under type headers), Lackey's
``N<TAB>Name`` lines with a ``Crypt:`` line, JOL's ``2xName`` / ``2x Name`` lines and bare names
(one copy), ``N Name`` lines, comments after ``--`` or in brackets (``2 Blood Doll (best card of
the day)``), and the names players use (``5th Tradition``, ``Govern``, ``Pentex``). A VDB "deck in
URL" link and krcg's minimal JSON are read too (:class:`DeckFormat`).

What this module adds to krcg's reading: a line that starts with a count, or a lone line among the
cards, that names no card is an error naming its line and the closest card (krcg would keep it as a
comment); lines naming the same card add up; a name krcg only guessed (a misspelling it matched)
is read, and said in :attr:`Deck.notes` with its line and the card it was read as (with
``exact=True`` it is an error instead); a Lackey row with a third tab column (a set name) is read
without it; a section header whose count disagrees with the cards read under the part
(``Library (90 cards)`` over 88) is said in the notes. Whether a card is a crypt or a library card
comes from the database, not from the section.

Two XML formats are read too, with the standard library's expat and no document type declaration
or entity (either refuses the file, so no entity can expand): LackeyCCG's ``.dek`` (a ``<deck>`` of
``<superzone>`` elements, one ``<card><name>…</name></card>`` per copy) and ARDB's (a ``<deck>``
with ``<crypt>`` and ``<library>`` holding ``<vampire count="N">`` / ``<card count="N">`` with
``<name>``, ``<adv>`` and ``<group>``). Any other XML, and a binary file, is refused with a
sentence saying it is not a deck list this module reads.

:func:`read_list` reads a list's text in whichever format it is; :func:`file_text` reads a deck
file's bytes as text.
"""

from __future__ import annotations

import difflib
import json
import re
import urllib.parse
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from engine.errors import VampireError
from engine.files import open_regular
from engine.games.vtes.cards import CardBase
from engine.games.vtes.vocab import DeckPart

if TYPE_CHECKING:  # krcg (and aiohttp, arrow, which it imports) loads only when a list is read
    from krcg import models

    from engine.games.vtes.deck_reader import _Lookup


class DeckFileError(VampireError):
    """A deck file that cannot be used: an unknown card name (with its line and the closest
    card), a bad count, a crypt or library of the wrong size, or a file that is no deck list."""


# A count at the start of a line (at most 2 digits, so "419 Operation" stays a name), and the
# separators that make a line unmistakably a card line ("2x Name", "2 x Name", "2* Name", Lackey's
# "2<TAB>Name").
_COUNT_RE = re.compile(r"^\s*(\d{1,2})(?!\d)\s*(.*)$")
_SURE_COUNT_RE = re.compile(r"^\s*\d{1,2}(?!\d)(?:\s*[xX×*]|\t)\s*\S")
_VDB_URL_RE = re.compile(r"^https?://vdb\.im/decks/deck\b\S*$")
# A Lackey row with a third tab column (the set the card was printed in): "2<TAB>Name<TAB>Set".
_LACKEY_SET_RE = re.compile(r"^(\s*\d{1,3}\s*[xX]?\t+[^\t]*\S)\t+[^\t]*$")
# A section header with its count: "Crypt (12 cards, min=…)", "Library (90 cards)", "Crypt: 12 cards".
_HEADER_COUNT_RES = (
    re.compile(r"^\W*(crypt|library)\s*:?\s*[(\[]\s*(\d+)\s*(?:cards?)?\s*[,;)\]]", re.IGNORECASE),
    re.compile(r"^\W*(crypt|library)\s*:?\s*(\d+)\s+cards?\b", re.IGNORECASE),
)

DECK_FILE_MAX = 1 << 20
"""The largest deck file read, in bytes (a deck list with every card's text is a few dozen KB)."""
DECK_LINES_MAX = 1500
"""The most lines with something on them a deck list in text may have (a list with its comments)."""
DECK_LINE_MAX = 500
"""The longest line, in characters, of a deck list in text."""
DECK_MATCH_MAX = 2_000_000
"""The most work matching a deck list's lines against the card names may take: the sum over its
lines of the square of each one's length in characters (krcg's card line pattern backtracks over
a run of brackets in time about the square of its length: a line of 499 ``[`` takes 0.3 s, and
1,500 of them took minutes). The decks this program ships sum to under 80,000; 2,000,000 is some
two seconds of the worst line."""

FORMATS_READ = (
    "text deck lists (TWD, VDB, Lackey, JOL, N Name lines), a VDB link, krcg's JSON, and Lackey's (.dek) and ARDB's XML"
)
"""What this module reads, in a player's words (the sentence for a file that is no deck list)."""

ABBREVIATIONS: dict[str, int] = {"pentex": 101384}
"""Names players write that krcg does not know (its own "known abbreviations" cover ``Govern``,
``Dreams``, ``5th Tradition`` …), normalised, to a krcg card id: ``Pentex`` is how deck lists
write Pentex™ Subversion (there is also Pentex™ Loves You!, which nobody calls "Pentex")."""

_CLOSE_ENOUGH = 0.75
"""How close (difflib ratio) a preface line's name must be to a card's to be read as a misspelt
card rather than a comment."""


class DeckFormat(StrEnum):
    """The deck formats krcg writes and this module reads back (:func:`write_deck`)."""

    TWD = "twd"
    """The Tournament Winning Decks Archive: headers, a crypt table, the library by card type."""
    TEXT = "text"
    """krcg's plain text (VDB's text export looks the same): TWD-like, without the crypt columns."""
    JOL = "jol"
    """Jyhad Online: ``2x Name`` lines, the crypt, a blank line, the library."""
    LACKEY = "lackey"
    """LackeyCCG: ``2<TAB>Name`` lines, the library, ``Crypt:``, the crypt."""
    VDB = "vdb"
    """VDB's "deck in URL" link: ``https://vdb.im/decks/deck?name=…#<id>=<count>;…``."""
    JSON = "json"
    """krcg's minimal JSON: ``{"name": …, "cards": {"<id>": count}}``."""


def _likeness(a: str, b: str) -> float:
    """difflib's ratio of two names, normalised (0 to 1)."""
    from krcg.utils import normalize

    return difflib.SequenceMatcher(None, normalize(a), normalize(b)).ratio()


def _hint(base: CardBase, number: int, written: str, guess: models.Card | None = None) -> str:
    """The sentence for a line naming no card: the closest card (krcg's guess, when ``exact``
    refuses it, else the closest name)."""
    if guess is not None:
        return f'line {number}: no card is named exactly "{written}"; did you mean {guess.full_name}?'
    hint = base.closest(written)
    message = f'line {number}: no card is named "{written}"'
    return message + (f"; did you mean {hint}?" if hint else "")


def _reading_note(number: int, written: str, card: models.Card) -> str:
    return f'line {number}: "{written}" read as {card.full_name}'


@dataclass
class ListRead:
    """What one format's reader gives: krcg's deck, problems with their line numbers (0: the
    whole file), readings (names matched loosely) with ``guessed``, each one's ``(line, name as
    written, card read)``, and each part's header count as ``(line, count)``."""

    kdeck: models.Deck
    problems: list[tuple[int, str]] = field(default_factory=list)
    readings: list[str] = field(default_factory=list)
    guessed: list[tuple[int, str, models.Card]] = field(default_factory=list)
    headers: dict[DeckPart, tuple[int, int]] = field(default_factory=dict)


def _header_counts(lines: list[str]) -> dict[DeckPart, tuple[int, int]]:
    """The first ``Crypt (N cards…)`` and ``Library (N cards)`` header of a list: part to
    ``(line number, N)``."""
    found: dict[DeckPart, tuple[int, int]] = {}
    for number, line in enumerate(lines, start=1):
        for pattern in _HEADER_COUNT_RES:
            match = pattern.match(line)
            if match:
                part = DeckPart.CRYPT if match.group(1).lower() == "crypt" else DeckPart.LIBRARY
                found.setdefault(part, (number, int(match.group(2))))
                break
    return found


def _from_text(text: str, base: CardBase) -> ListRead:
    """A deck list read by krcg's parser."""
    from engine.games.vtes.deck_reader import _Reader

    lines = text.splitlines()
    reader = _Reader(base)
    kdeck = reader.read(lines)
    errors = [(n, _hint(base, n, w)) for n, w in reader.unknown]
    errors += [(n, f"line {n}: a count of 0 is not a card") for n in reader.zero]
    told = {n for n, _ in errors}
    for number in sorted(reader.kept.lines - told):
        if 0 < number <= len(lines):
            written = re.sub(r"\s+--.*$", "", lines[number - 1]).strip()
            errors.append((number, _hint(base, number, written)))
    readings = [_reading_note(n, name, card) for n, name, card in reader.guessed]
    return ListRead(kdeck, sorted(errors), readings, list(reader.guessed), _header_counts(lines))


def _from_vdb_url(url: str, base: CardBase) -> models.Deck:
    """VDB's "deck in URL" link, decoded here as krcg's ``providers.fetch_vdb`` does (no network)."""
    from krcg import models

    parts = urllib.parse.urlparse(url)
    params = urllib.parse.parse_qs(parts.query)
    kdeck = models.Deck(name=params.get("name", [""])[0], author=params.get("author", [""])[0])
    for item in filter(None, parts.fragment.split(";")):
        cid, _, count = item.partition("=")
        card = base.by_id(int(cid)) if cid.isdigit() else None
        if card is None or not count.isdigit():
            raise DeckFileError(f"the VDB link has {item!r}, which is not a card id and a count")
        if int(count) > 0:
            kdeck.cards.append(models.CardInDeck.of(card, int(count)))
    return kdeck


def _from_json(text: str, base: CardBase) -> models.Deck:
    """krcg's minimal JSON deck: ``{"name": str, "author": str, "cards": {"<id>": count}}``."""
    from krcg import models

    try:
        data = json.loads(text)
    except ValueError as err:
        raise DeckFileError(f"the deck is not valid JSON ({err})") from None
    except RecursionError:
        raise not_a_deck("JSON nested deeper than any deck list") from None
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(cards, dict):
        raise DeckFileError('a JSON deck is a map with "cards": {"<card id>": count, …}')
    kdeck = models.Deck(name=str(data.get("name") or ""), author=str(data.get("author") or ""))
    for cid, count in cards.items():
        card = base.by_id(int(cid)) if str(cid).isdigit() else None
        if card is None or not isinstance(count, int) or count < 0:
            raise DeckFileError(f"the JSON deck has {cid!r}: {count!r}, which is not a card id and a count")
        if count:
            kdeck.cards.append(models.CardInDeck.of(card, count))
    return kdeck


# --- XML: LackeyCCG's .dek and ARDB's deck files ------------------------------------------------


@dataclass
class _XmlNode:
    """One XML element: lower-case ``tag`` and attribute names, its ``line`` (from 1), its own
    character data, its child elements."""

    tag: str
    attrs: dict[str, str]
    line: int
    text: str = ""
    children: list[_XmlNode] = field(default_factory=list)

    def child_text(self, tag: str) -> str:
        """The stripped text of the first child ``tag``, or ""."""
        return next((c.text.strip() for c in self.children if c.tag == tag), "")


def not_a_deck(what: str) -> DeckFileError:
    return DeckFileError(f"not a deck list this program reads ({what}); it reads {FORMATS_READ}")


def _xml_tree(text: str) -> _XmlNode:
    """The root element of an XML document, parsed by expat.

    A document type declaration, an entity declaration or an external entity is refused before
    anything in it is expanded (a deck file needs none; this is what defusedxml refuses). Raises
    :class:`DeckFileError` for those and for XML that is not well-formed."""
    from xml.parsers import expat

    xml = expat.ParserCreate()
    roots: list[_XmlNode] = []
    stack: list[_XmlNode] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = _XmlNode(tag.lower(), {k.lower(): v for k, v in attrs.items()}, xml.CurrentLineNumber)
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)

    def end(_tag: str) -> None:
        stack.pop()

    def data(chunk: str) -> None:
        if stack:
            stack[-1].text += chunk

    def refuse(*_args: object) -> NoReturn:
        raise not_a_deck("XML with a document type or entity declaration, which no deck file has")

    xml.StartElementHandler = start
    xml.EndElementHandler = end
    xml.CharacterDataHandler = data
    xml.StartDoctypeDeclHandler = refuse
    xml.EntityDeclHandler = refuse
    xml.ExternalEntityRefHandler = refuse
    try:
        xml.Parse(text, True)
    except expat.ExpatError as err:
        message = expat.errors.messages.get(err.code, "unreadable")
        raise not_a_deck(f"XML that is not well-formed: {message} on line {err.lineno}") from None
    return roots[0]


def _xml_card(lookup: _Lookup, line: int, written: str, names: list[str], count: int, read: ListRead) -> None:
    """Read one XML card entry: the first of ``names`` that is a card's exact name, else krcg's
    guess for the first it matches loosely (a reading), else a problem. Raises DeckFileError
    once too many entries named no card (:meth:`_Lookup.miss`)."""
    from krcg import models

    if count == 0:
        read.problems.append((line, f"line {line}: a count of 0 is not a card"))
        return
    card = next((c for c in map(lookup.named, names) if c is not None), None)
    if card is None:
        for name in names:
            try:
                card = lookup.base.cards[name]
            except KeyError:
                continue
            read.readings.append(_reading_note(line, written, card))
            read.guessed.append((line, written, card))
            break
    if card is None:
        lookup.miss()
        read.problems.append((line, _hint(lookup.base, line, written)))
        return
    read.kdeck.cards.append(models.CardInDeck.of(card, count))


def _from_xml(text: str, base: CardBase) -> ListRead:
    """A LackeyCCG ``.dek`` or an ARDB XML deck (see the module's docstring)."""
    root = _xml_tree(text)
    if root.tag != "deck":
        raise not_a_deck(f"XML whose root is <{root.tag}>, not a Lackey or ARDB <deck>")
    from krcg import models

    from engine.games.vtes.deck_reader import _Lookup

    lookup = _Lookup(base)
    read = ListRead(models.Deck())
    zones = [c for c in root.children if c.tag == "superzone"]
    parts = [c for c in root.children if c.tag in ("crypt", "library")]
    if zones:  # Lackey: one <card> per copy
        for zone in zones:
            for card in (c for c in zone.children if c.tag == "card"):
                written = card.child_text("name")
                _xml_card(lookup, card.line, written, [written], 1, read)
    elif parts:  # ARDB: one <vampire> or <card> per card, with its count
        read.kdeck.name = root.child_text("name")
        for part in parts:
            for card in (c for c in part.children if c.tag in ("vampire", "imbued", "card")):
                written = card.child_text("name")
                count = card.attrs.get("count", "1").strip()
                if not count.isdigit():
                    read.problems.append((card.line, f'line {card.line}: "{written}" has the count {count!r}'))
                    continue
                _xml_card(lookup, card.line, written, _ardb_names(card, written), int(count), read)
    else:
        raise not_a_deck("an XML <deck> with neither Lackey's <superzone> nor ARDB's <crypt> and <library>")
    read.problems.sort()
    return read


def _ardb_names(card: _XmlNode, written: str) -> list[str]:
    """The names an ARDB entry may go by, most precise first: with its group and advanced mark
    (``"Theo Bell (G2 ADV)"``), with the advanced mark only, as written."""
    adv = (card.child_text("adv") or card.attrs.get("adv", "")).strip().lower() not in ("", "0", "false", "no")
    name = re.sub(r"\s*\((adv|advanced)\)\s*$", "", written, flags=re.IGNORECASE)
    adv = adv or name != written
    group = card.child_text("group").strip()
    names = []
    if group.isdigit():
        names.append(f"{name} (G{group}{' ADV' if adv else ''})")
    names.append(f"{name} (ADV)" if adv else name)
    return [*names, written] if written not in names else names


# --- reading any deck list ---------------------------------------------------------------------


def _binary(text: str) -> bool:
    """True for what is no text: a NUL, or more than one character in twenty an ASCII control
    character other than white space (in the file's first 4,096 characters; Windows-1252 quotes
    read as Latin-1 are not counted)."""
    sample = text[:4096]
    if "\x00" in sample:
        return True
    controls = sum(1 for ch in sample if (ord(ch) < 32 and ch not in "\t\n\r\f\v") or ch == "\x7f")
    return controls * 20 > len(sample)


def _check_text_size(body: str) -> None:
    """Raise DeckFileError for a text longer than any deck list: more than
    :data:`DECK_LINES_MAX` lines with something on them, a line over :data:`DECK_LINE_MAX`
    characters, or lines whose lengths squared sum to more than :data:`DECK_MATCH_MAX` (each line
    is matched against every card name: the time is bounded by all three)."""
    lines = [line for line in body.splitlines() if line.strip()]
    if len(lines) > DECK_LINES_MAX:
        raise not_a_deck(f"{len(lines):,} lines: a deck list has at most {DECK_LINES_MAX:,}")
    longest = max((len(line) for line in lines), default=0)
    if longest > DECK_LINE_MAX:
        raise not_a_deck(f"a line of {longest:,} characters: a deck list's are at most {DECK_LINE_MAX}")
    if sum(len(line) ** 2 for line in lines) > DECK_MATCH_MAX:
        long = sum(1 for line in lines if len(line) > 100)
        raise not_a_deck(f"{long:,} lines of over 100 characters: too much text on long lines for a deck list")


def read_list(text: str, base: CardBase, exact: bool) -> ListRead:
    """A deck list's text read in whichever format it is (a VDB link, krcg's JSON, Lackey's or
    ARDB's XML, else text through krcg's parser). Raises :class:`DeckFileError` for a text that is
    no deck list as a whole (empty, binary, other XML); a line naming no card is a problem of the
    :class:`ListRead`. ``exact``: a line whose name was read as a close match is a problem too
    (naming the card it was read as), and its cards still count as that card, so that the counts,
    and a header's count compared with them, are those of the list as written."""
    body = text.replace("\ufeff", "").strip()
    if not body:
        raise DeckFileError("the file is empty: it holds no deck list")
    if _binary(body):
        raise not_a_deck("a binary file, not text")
    if _VDB_URL_RE.match(body):
        return ListRead(_from_vdb_url(body, base))
    if body.startswith("{"):
        return ListRead(_from_json(body, base))
    if body.startswith("<"):
        read = _from_xml(body, base)
    else:
        _check_text_size(body)
        read = _from_text(text, base)
    if exact:  # a name read as a close match is a problem, and its cards count as what it was read as
        read.problems = sorted([*read.problems, *((n, _hint(base, n, w, card)) for n, w, card in read.guessed)])
        read.readings = []
    return read


def file_text(path: Path) -> str:
    """A deck file's text: UTF-8, UTF-16 with its byte order mark, or Latin-1 as a fallback.
    Raises DeckFileError for a file that cannot be read or is larger than :data:`DECK_FILE_MAX`."""
    try:
        with open_regular(path) as file:
            data = file.read(DECK_FILE_MAX + 1)
    except OSError as err:
        raise DeckFileError(f"cannot read the deck file {str(path)!r}: {err.strerror or err}") from None
    if len(data) > DECK_FILE_MAX:
        raise DeckFileError(f"{path.name}: {not_a_deck(f'a file over {DECK_FILE_MAX // 1024} KB')}")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")
