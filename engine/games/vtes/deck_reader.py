"""krcg's deck list parser as :mod:`engine.games.vtes.deck_formats` reads a list with it: the
card look-up it is given and the reader that keeps every card's line number. A module of its
own so that krcg (and aiohttp and arrow, which it imports) loads only when a list is read, never
for a table whose decks are kept readings (:mod:`engine.games.vtes.kept_decks`)."""

from __future__ import annotations

import logging
import re
from typing import cast

import krcg
from krcg import models, parser
from krcg.utils import normalize

from engine.games.vtes.cards import CardBase
from engine.games.vtes.deck_formats import (
    _CLOSE_ENOUGH,
    _COUNT_RE,
    _LACKEY_SET_RE,
    _SURE_COUNT_RE,
    ABBREVIATIONS,
    _likeness,
    not_a_deck,
)

MISSES_MAX = 20
"""The most lines with a count naming no card read before the file is refused as no deck list:
each costs a fuzzy match over every card name, so this bounds the time a file takes."""


class _Lookup:
    """The card names krcg's parser sees (it only ever asks ``cards_db[name]``).

    Exact names first (every name :class:`CardBase` knows), then :data:`ABBREVIATIONS`, JOL's
    ``2xName`` (krcg reads the name as ``xname``), and only then krcg's own fuzzy match, whose
    guesses are kept (:attr:`guesses`) so the deck can say what it read (and, with ``exact``,
    refuse the line: :func:`engine.games.vtes.deck_formats.read_list`). The last name that did
    not resolve is kept in :attr:`missed` (the parser logs such a line and keeps it as a comment).
    """

    def __init__(self, base: CardBase) -> None:
        self.base = base
        self.missed: str | None = None
        self.guesses: list[tuple[str, models.Card]] = []
        self.misses = 0
        """Card entries of an XML deck that named no card (:meth:`miss`)."""

    def miss(self) -> None:
        """Count a card entry of an XML deck that names no card, each a fuzzy match over every
        name. Raises DeckFileError past :data:`MISSES_MAX` of them: the file is no deck list."""
        self.misses += 1
        if self.misses > MISSES_MAX:
            raise not_a_deck(f"more than {MISSES_MAX} card entries that name no card")

    def named(self, name: str) -> models.Card | None:
        """The card with exactly this name (normalised) or a known abbreviation, or None."""
        card = self.base.lookup(name)
        if card is None and normalize(name) in ABBREVIATIONS:
            card = self.base.by_id(ABBREVIATIONS[normalize(name)])
        return card

    def __getitem__(self, name: str) -> models.Card:
        card = self.named(name)
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
        self.misses = 0
        """Lines with a count that named no card, each costing a fuzzy match over every name."""
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
            line = line.replace("\ufeff", "")
            # Lackey may add the set after the name: the card is read without it
            self.parse_line(index, _LACKEY_SET_RE.sub(r"\1", line))
        # one line past the end, so a last unreadable line is logged with its own number
        self.logger = parser.LineLogAdapter(self.log, {"line": len(lines) + 1, "deck": ""})
        self.comment("", mark=parser.Mark.END)
        self.deck.cards = [card for _, card in self.found]
        return self.deck

    def get_card(self, line: str) -> models.CardInDeck | None:
        """krcg's reading of one line, recorded with its line number; a line that starts with a
        count and names no card is recorded as unknown."""
        preface = self.preface
        if self.misses >= MISSES_MAX:
            raise not_a_deck(f"more than {MISSES_MAX} lines that name no card")
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
            self.misses += 1
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
