"""VTES deck files: read the common deck list formats into a deck of card identities, and write a
deck out in krcg's formats (shared/rules/vtes.md, "Setup"; PROTOCOL.md 6, "Private decks").

The formats read, and what this module adds to krcg's reading, are in
:mod:`engine.games.vtes.deck_formats`; what a table's rules refuse in
:mod:`engine.games.vtes.deck_checks`. This module holds the deck (:class:`Deck`) and the report.

:func:`read_deck` reads a list into what a table would see and every problem with it, without
raising; :func:`parse_deck` and :func:`load_deck` raise :class:`DeckFileError` on a problem;
:func:`table_problems` adds what a table's rules refuse (``library_size``, ``crypt_groups``);
:func:`check_deck_file` is the whole check ``vampire deck FILE`` prints.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.games.base import Act
from engine.games.vtes.cards import CardBase, card_base, identity
from engine.games.vtes.deck_checks import (
    check_sizes,
    crypt_group_problem,
    crypt_groups_rule,
    size_problems,
    table_problems,
)
from engine.games.vtes.deck_formats import (
    ABBREVIATIONS,
    DECK_FILE_MAX,
    FORMATS_READ,
    DeckFileError,
    DeckFormat,
    file_text,
    not_a_deck,
    read_list,
)
from engine.games.vtes.vocab import DeckPart, Do

if TYPE_CHECKING:  # krcg loads when a deck list is read or written, not for a kept reading
    from krcg import models

    from engine.games.spec import KitCheck

__all__ = [
    "ABBREVIATIONS",
    "DECK_FILE_MAX",
    "FORMATS_READ",
    "Deck",
    "DeckFileError",
    "DeckFormat",
    "DeckReading",
    "bundled_deck",
    "bundled_deck_names",
    "bundled_decks",
    "check_deck_file",
    "check_sizes",
    "crypt_group_problem",
    "crypt_groups_rule",
    "deck_line",
    "deck_source",
    "krcg_deck",
    "load_deck",
    "parse_deck",
    "read_deck",
    "read_deck_file",
    "size_problems",
    "table_problems",
    "write_deck",
]


@dataclass(frozen=True)
class Deck:
    """A parsed deck: ``crypt`` and ``library`` as sorted ``(krcg card id, count)`` pairs;
    ``notes``: sentences about names krcg matched loosely (``'line 5: "Govern the Unalligned" read
    as Govern the Unaligned'``) and headers whose count disagrees with the cards read, not part of
    the deck's equality; ``source``: which was read when a bundled deck's name was given for a
    file (``"the bundled deck atraco (no file of that name here)"``; :func:`deck_source`), news
    rather than a warning, not part of the deck's equality either."""

    name: str
    crypt: tuple[tuple[int, int], ...]
    library: tuple[tuple[int, int], ...]
    notes: tuple[str, ...] = field(default=(), compare=False)
    source: str = field(default="", compare=False)

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


@dataclass(frozen=True)
class DeckReading:
    """A deck list as a table would read it, before any table rule (:func:`read_deck`).

    ``deck``: every card read (its ``notes`` are ``readings`` then ``notes``); ``readings``: one
    sentence per line whose name krcg matched loosely, with what it was read as
    (``'line 5: "Govern the Unalinged" read as Govern the Unaligned'``); ``notes``: anything else
    worth knowing (``'line 14: the header says 90 library cards, and the list holds 88'``);
    ``problems``: why the list cannot be used as written (a line naming no card, a count of 0, a
    file that is no deck list), in line order.
    """

    deck: Deck
    readings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()


def _joined(problems: tuple[str, ...]) -> str:
    """Problems in one sentence: the first ten, and how many more."""
    more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
    return "; ".join(problems[:10]) + more


def read_deck(text: str, *, name: str = "", exact: bool = False, base: CardBase | None = None) -> DeckReading:
    """Read a deck list (any format this module reads, see its docstring) as a table would,
    before any table rule (:class:`DeckReading`). Never raises for what the list holds: every line
    that names no card, a count of 0, or a file that is no deck list (binary, other XML) is a
    problem. ``name`` (a file's name) wins over the list's own ``Deck Name:``; ``exact``: a name
    krcg would only guess (a misspelling) is a problem, not a reading; its cards still count as
    what it was read as, so the counts and a header's note are those of the list as written."""
    base = base or card_base()
    try:
        read = read_list(text, base, exact)
    except DeckFileError as err:
        return DeckReading(Deck(name, (), ()), problems=(str(err),))
    if not read.kdeck.cards and not read.problems:
        read.problems.append((0, str(not_a_deck("no line names a card"))))
    counts: dict[int, int] = {}
    for card in read.kdeck.cards:
        counts[card.id] = counts.get(card.id, 0) + card.count
    crypt: list[tuple[int, int]] = []
    library: list[tuple[int, int]] = []
    for cid in sorted(counts):
        info = base.info(cid)
        (crypt if info is not None and info.kind == DeckPart.CRYPT else library).append((cid, counts[cid]))
    sizes = {DeckPart.CRYPT: sum(n for _, n in crypt), DeckPart.LIBRARY: sum(n for _, n in library)}
    notes = [
        f"line {line}: the header says {said} {part} card{'s' if said != 1 else ''}, and the list holds {sizes[part]}"
        for part, (line, said) in sorted(read.headers.items(), key=lambda item: item[1])
        if said != sizes[part]
    ]
    deck = Deck(name or read.kdeck.name, tuple(crypt), tuple(library), (*read.readings, *notes))
    return DeckReading(deck, tuple(read.readings), tuple(notes), tuple(m for _, m in read.problems))


def parse_deck(
    text: str, *, library_size: bool = True, name: str = "", exact: bool = False, base: CardBase | None = None
) -> Deck:
    """Parse a deck list (any format of :class:`DeckFormat`, ``N Name`` lines, or Lackey's or
    ARDB's XML) into a :class:`Deck`, through krcg's deck list parser.

    ``library_size``: check the library holds 60–90 cards (table rule ``library_size``); the
    crypt must always hold at least 12. ``name`` (a file's name) wins over the list's own
    ``Deck Name:``. Names krcg only guessed are kept in :attr:`Deck.notes` (with ``exact``, they
    are errors). Raises :class:`DeckFileError` listing every line whose card is unknown
    (``line 12: no card is named "Govern the Unalignde"; did you mean Govern the Unaligned?``), a
    count of 0, a wrong size, or a text that is no deck list (:func:`read_deck`).
    """
    reading = read_deck(text, name=name, exact=exact, base=base)
    if reading.problems:
        raise DeckFileError(_joined(reading.problems))
    check_sizes(reading.deck, library_size=library_size)
    return reading.deck


def krcg_deck(deck: Deck, base: CardBase | None = None) -> models.Deck:
    """``deck`` as krcg's deck model (name and cards), for krcg's writers."""
    from krcg import models

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


# --- deck files ------------------------------------------------------------------------------------


def deck_source(path: str | Path) -> tuple[str, str, str | None]:
    """The text a deck file argument names, its deck's name, and which was read when that is worth
    saying: ``(text, name, sentence or None)``. A file at ``path`` is read (a file wins over a
    bundled deck of the same name, and the sentence says so); else ``path`` may be a bundled
    deck's name (:func:`bundled_deck_names`, ``atraco``), and the sentence says that one was read.
    Raises DeckFileError for a path that is neither (naming the bundled decks) or that cannot be
    read (:func:`~engine.games.vtes.deck_formats.file_text`)."""
    p = Path(path)
    bundled = str(path) if str(path) in bundled_deck_names() else None
    if bundled is not None and not p.exists():
        text = (resources.files("engine.games.vtes") / "data" / f"{bundled}.txt").read_text(encoding="utf-8")
        return text, bundled, f"the bundled deck {bundled} (no file of that name here)"
    try:
        text = file_text(p)
    except DeckFileError as err:
        if p.exists() or p.parent != Path("."):
            raise
        raise DeckFileError(f"{err} (nor is it a bundled deck: {', '.join(bundled_deck_names())})") from None
    said = f"the file {p} in this folder, not the bundled deck of that name" if bundled is not None else None
    return text, p.stem, said


def read_deck_file(path: str | Path, *, exact: bool = False) -> DeckReading:
    """:func:`read_deck` of a file (named by its stem) or of a bundled deck named instead of a file
    (:func:`deck_source`, whose sentence on which was read comes first among the reading's notes
    and is the deck's :attr:`Deck.source`); a file that cannot be read is a problem."""
    try:
        text, name, source = deck_source(path)
    except DeckFileError as err:
        return DeckReading(Deck(Path(path).stem, (), ()), problems=(str(err),))
    reading = read_deck(text, name=name, exact=exact)
    if source is None:
        return reading
    deck = replace(reading.deck, source=source)
    return DeckReading(deck, reading.readings, (source, *reading.notes), reading.problems)


def load_deck(path: str | Path, *, library_size: bool = True, exact: bool = False) -> Deck:
    """Read and parse a deck file (UTF-8, UTF-16 with its byte order mark, or Latin-1 as a
    fallback; see :func:`parse_deck`), or a bundled deck named instead of a file
    (:func:`deck_source`: its sentence on which was read is the deck's :attr:`Deck.source`). Raises
    DeckFileError, also for a file that cannot be read, naming the file."""
    text, name, source = deck_source(path)
    try:
        deck = parse_deck(text, library_size=library_size, name=name, exact=exact)
    except DeckFileError as err:
        raise DeckFileError(f"{Path(path).name}: {err}") from None
    return deck if source is None else replace(deck, source=source)


def deck_line(deck: Deck) -> str:
    """``"atraco: crypt 12, library 90"`` (the deck's name, when it has one, first)."""
    label = f"{deck.name}: " if deck.name else ""
    return f"{label}crypt {deck.crypt_size}, library {deck.library_size}"


def check_deck_file(path: str | Path, options: Mapping[str, Any], *, exact: bool = False) -> KitCheck:
    """What a table with ``options`` (its option values, possibly partial) would read from the
    deck file ``path``, and why it would refuse it: the counts, every name read as a close match
    and what it was read as, the notes (a header count that disagrees; a crypt whose groups a
    table with ``crypt_groups`` would refuse, when the rule is off here), and every problem
    (:func:`read_deck_file`, then :func:`table_problems`). ``exact``: a misspelt name is a problem."""
    from engine.games.spec import KitCheck

    reading = read_deck_file(path, exact=exact)
    deck = reading.deck
    problems = list(reading.problems) or table_problems(deck, options)
    notes = list(reading.notes)
    group = None if crypt_groups_rule(options) or reading.problems else crypt_group_problem(deck)
    if group is not None:
        notes.append(
            f"{group.removesuffix(' (table rule crypt_groups)')}: a table with the rule crypt_groups would refuse it"
        )
    return KitCheck(deck, deck_line(deck), reading.readings, tuple(notes), tuple(problems))


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
