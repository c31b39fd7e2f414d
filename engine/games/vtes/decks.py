"""VTES deck files: read the common deck list formats into a deck of card identities, and write a
deck out in krcg's formats (shared/rules/vtes.md, "Setup"; PROTOCOL.md 6, "Private decks").

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
is read, and said in :attr:`Deck.notes`. Whether a card is a crypt or a library card comes from
the database, not from the section.
"""

from __future__ import annotations

import difflib
import json
import logging
import re
import urllib.parse
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import cast

import krcg
from krcg import models, parser
from krcg.utils import normalize

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
    """A parsed deck: ``crypt`` and ``library`` as sorted ``(krcg card id, count)`` pairs;
    ``notes``: sentences about names krcg matched loosely (``'line 5: "Govern the Unalligned" read
    as Govern the Unaligned'``), not part of the deck's equality."""

    name: str
    crypt: tuple[tuple[int, int], ...]
    library: tuple[tuple[int, int], ...]
    notes: tuple[str, ...] = field(default=(), compare=False)

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


# A count at the start of a line (at most 2 digits, so "419 Operation" stays a name), and the
# separators that make a line unmistakably a card line ("2x Name", "2 x Name", "2* Name").
_COUNT_RE = re.compile(r"^\s*(\d{1,2})(?!\d)\s*(.*)$")
_SURE_COUNT_RE = re.compile(r"^\s*\d{1,2}(?!\d)\s*(?:[xX×*]\s*)\S")
_VDB_URL_RE = re.compile(r"^https?://vdb\.im/decks/deck\b\S*$")

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


class _Lookup:
    """The card names krcg's parser sees (it only ever asks ``cards_db[name]``).

    Exact names first (every name :class:`CardBase` knows), then :data:`ABBREVIATIONS`, JOL's
    ``2xName`` (krcg reads the name as ``xname``), and only then krcg's own fuzzy match, whose
    guesses are kept (:attr:`guesses`) so the deck can say what it read. The last name that did not
    resolve is kept in :attr:`missed` (the parser logs such a line and keeps it as a comment).
    """

    def __init__(self, base: CardBase) -> None:
        self.base = base
        self.missed: str | None = None
        self.guesses: list[tuple[str, models.Card]] = []

    def __getitem__(self, name: str) -> models.Card:
        card = self.base.lookup(name)
        if card is None and normalize(name) in ABBREVIATIONS:
            card = self.base.by_id(ABBREVIATIONS[normalize(name)])
        if card is None and name[:1] in ("x", "X") and len(name) > 1:
            card = self.base.lookup(name[1:])
        if card is not None:
            return card
        try:
            card = self.base.cards[name]
        except KeyError:
            self.missed = name
            raise
        self.guesses.append((name, card))
        return card


class _WarningsKept(logging.Handler):
    """Keeps the line numbers krcg's parser logs ``failed to parse`` for (a lone line after the
    cards began that is no card and not marked as a comment)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: set[int] = set()

    def emit(self, record: logging.LogRecord) -> None:
        line = getattr(record, "line", None)
        if isinstance(line, int) and str(record.msg).endswith('failed to parse "%s"'):
            self.lines.add(line)


class _Reader(parser.Parser):
    """krcg's deck list parser, read line by line so every card keeps its line number, repeated
    lines add up (krcg keeps one entry per card) and lines that name no card become errors."""

    def __init__(self, base: CardBase) -> None:
        self.lookup = _Lookup(base)
        # krcg's parser only indexes its cards database by name: the look-up above stands in for it
        super().__init__(cast(krcg.CardDict, self.lookup))
        self.base = base
        self.index = 0
        self.found: list[tuple[int, models.CardInDeck]] = []
        self.unknown: list[tuple[int, str]] = []
        self.guessed: list[tuple[int, str, models.Card]] = []
        self.zero: list[int] = []
        self.kept = _WarningsKept()
        # a logger of its own: warnings are how krcg reports a line it could not read, and the
        # process-wide "krcg" logger is kept quiet (engine.games.vtes.cards.card_base)
        self.log = logging.Logger("vampire.decks")
        self.log.addHandler(self.kept)

    def read(self, lines: list[str]) -> models.Deck:
        """Parse ``lines``; return krcg's deck (headers and comments), cards in :attr:`found`."""
        for index, line in enumerate(lines, start=1):
            self.index = index
            self.logger = parser.LineLogAdapter(self.log, {"line": index, "deck": ""})
            self.parse_line(index, line.replace("\ufeff", ""))
        # one line past the end, so a last unreadable line is logged with its own number
        self.logger = parser.LineLogAdapter(self.log, {"line": len(lines) + 1, "deck": ""})
        self.comment("", mark=parser.Mark.END)
        self.deck.cards = [card for _, card in self.found]
        return self.deck

    def get_card(self, line: str) -> models.CardInDeck | None:
        """krcg's reading of one line, recorded with its line number; a line that starts with a
        count and names no card is recorded as unknown."""
        preface = self.preface
        self.lookup.missed = None
        guesses = len(self.lookup.guesses)
        card = super().get_card(line)
        count = _COUNT_RE.match(line)
        if card is not None:
            if count and int(count.group(1)) == 0:
                self.zero.append(self.index)
                return None
            self.found.append((self.index, card))
            for name, guess in self.lookup.guesses[guesses:]:
                self.guessed.append((self.index, self._written(line, name), guess))
        elif self.lookup.missed is not None and count:
            written = self._written(line, self.lookup.missed)
            hint = self.base.closest(written)
            close = hint is not None and _likeness(written, hint) >= _CLOSE_ENOUGH
            if not preface or _SURE_COUNT_RE.match(line) or close:
                self.unknown.append((self.index, written))
        return card

    @staticmethod
    def _written(line: str, missed: str) -> str:
        """The name as the line writes it (krcg looks names up lower case and may add a group)."""
        if "(g" not in missed[:-4] and re.search(r" \(g\d\)$", missed):
            missed = missed[:-5]
        text = line.strip()
        at = normalize(text).find(missed)
        if at >= 0 and len(normalize(text)) == len(text):
            return text[at : at + len(missed)].strip()
        return missed.strip()


def _likeness(a: str, b: str) -> float:
    """difflib's ratio of two names, normalised (0 to 1)."""
    return difflib.SequenceMatcher(None, normalize(a), normalize(b)).ratio()


def _hint(base: CardBase, number: int, written: str) -> str:
    hint = base.closest(written)
    message = f'line {number}: no card is named "{written}"'
    return message + (f"; did you mean {hint}?" if hint else "")


def _from_text(text: str, base: CardBase) -> tuple[models.Deck, list[str], list[str]]:
    """A deck list read by krcg's parser: (krcg deck, error sentences, notes on guessed names)."""
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
    notes = [f'line {n}: "{name}" read as {card.full_name}' for n, name, card in reader.guessed]
    return kdeck, [m for _, m in sorted(errors)], notes


def _from_vdb_url(url: str, base: CardBase) -> models.Deck:
    """VDB's "deck in URL" link, decoded here as krcg's ``providers.fetch_vdb`` does (no network)."""
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
    try:
        data = json.loads(text)
    except ValueError as err:
        raise DeckFileError(f"the deck is not valid JSON ({err})") from None
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


def parse_deck(text: str, *, library_size: bool = True, name: str = "", base: CardBase | None = None) -> Deck:
    """Parse a deck list (any format of :class:`DeckFormat`, or ``N Name`` lines) into a
    :class:`Deck`, through krcg's deck list parser.

    ``library_size``: check the library holds 60–90 cards (table rule ``library_size``); the
    crypt must always hold at least 12. ``name`` (a file's name) wins over the list's own
    ``Deck Name:``. Names krcg only guessed are kept in :attr:`Deck.notes`. Raises
    :class:`DeckFileError` listing every line whose card is unknown (``line 12: no card is named
    "Govern the Unalignde"; did you mean Govern the Unaligned?``), a count of 0, or a wrong size.
    """
    base = base or card_base()
    body = text.replace("\ufeff", "").strip()
    notes: list[str] = []
    if _VDB_URL_RE.match(body):
        kdeck = _from_vdb_url(body, base)
    elif body.startswith("{"):
        kdeck = _from_json(body, base)
    else:
        kdeck, errors, notes = _from_text(text, base)
        if errors:
            shown = errors[:10]
            more = f" (and {len(errors) - 10} more)" if len(errors) > 10 else ""
            raise DeckFileError("; ".join(shown) + more)
    counts: dict[int, int] = {}
    for card in kdeck.cards:
        counts[card.id] = counts.get(card.id, 0) + card.count
    crypt: list[tuple[int, int]] = []
    library: list[tuple[int, int]] = []
    for cid in sorted(counts):
        info = base.info(cid)
        (crypt if info is not None and info.kind == DeckPart.CRYPT else library).append((cid, counts[cid]))
    deck = Deck(name or kdeck.name, tuple(crypt), tuple(library), tuple(notes))
    check_sizes(deck, library_size=library_size)
    return deck


def krcg_deck(deck: Deck, base: CardBase | None = None) -> models.Deck:
    """``deck`` as krcg's deck model (name and cards), for krcg's writers."""
    base = base or card_base()
    kdeck = models.Deck(name=deck.name)
    for cid, count in (*deck.crypt, *deck.library):
        card = base.by_id(cid)
        if card is None:
            raise DeckFileError(f"the deck holds the card id {cid}, which krcg does not know")
        kdeck.cards.append(models.CardInDeck.of(card, count))
    return kdeck


def write_deck(deck: Deck, fmt: DeckFormat, base: CardBase | None = None) -> str:
    """``deck`` written by krcg's writer for ``fmt`` (:class:`DeckFormat`); :func:`parse_deck`
    reads every one of them back to the same cards."""
    from krcg import providers  # loads aiohttp: only when a deck is written

    base = base or card_base()
    kdeck = krcg_deck(deck, base)
    match fmt:
        case DeckFormat.TWD:
            return providers.serialize_twd(kdeck, base.cards)
        case DeckFormat.TEXT:
            return providers.serialize_txt(kdeck)
        case DeckFormat.JOL:
            return providers.serialize_jol(kdeck)
        case DeckFormat.LACKEY:
            return providers.serialize_lackey(kdeck)
        case DeckFormat.VDB:
            return providers.serialize_vdb(kdeck)
        case DeckFormat.JSON:
            return json.dumps(providers.serialize_json_minimal(kdeck), indent=2)
    raise DeckFileError(f"krcg writes no deck format named {fmt!r}")


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
