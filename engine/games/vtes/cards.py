"""VTES card data from krcg's packaged card database (shared/rules/vtes.md, "Zones"; DESIGN.md
dependencies: krcg >= 5, < 6, packaged data only, no network).

The engine does not encode card texts: players apply them. It reads only what the structure needs
(a vampire's capacity, a card's kind and types) and hands name, capacity and text to views.

Card identities in the protocol are ``"<krcg card id>-<copy>"`` (copy numbered from 1), e.g.
``"201362-2"`` for the second copy of Theo Bell (G2) in a crypt.
"""

from __future__ import annotations

import functools
import logging
import re
from dataclasses import dataclass
from enum import StrEnum

import krcg
from krcg import models
from krcg.utils import normalize, vekn_name

from engine.games.vtes.vocab import DeckPart

IDENTITY_RE = re.compile(r"^([1-9][0-9]{0,6})-([1-9][0-9]{0,2})$")


@dataclass(frozen=True)
class CardInfo:
    """What a view shows of one card of the database.

    ``id``: krcg card id; ``name``: its unique printed name (``"Theo Bell (G2 ADV)"``);
    ``kind``: which deck it goes in; ``types``: card types (``("Vampire",)``,
    ``("Action", "Combat")``); ``capacity``: a crypt card's capacity, 0 if it has none;
    ``text``: the card text as printed (players apply it themselves); ``character``: a crypt
    card's vampire whatever its group or advanced version (krcg's printed name, "Theo Bell": two in
    play under two Methuselahs are contested), "" for a library card; ``blood_cost``,
    ``pool_cost``: the printed cost (0 for none, for an X cost and for a conviction cost: the
    player states those).
    """

    id: int
    name: str
    kind: DeckPart
    types: tuple[str, ...]
    capacity: int
    text: str
    clan: str = ""
    blood_cost: int = 0
    pool_cost: int = 0
    character: str = ""

    @property
    def is_master(self) -> bool:
        """True for master cards (counted as master phase actions)."""
        return "Master" in self.types


class PlayPlace(StrEnum):
    """Where a card played from the hand ends (shared/rules/vtes.md, "Zones"): in play in its
    player's area (``in_play``: a location, an ally, an event, a master or action that says "Put this
    card in play"), on a minion (``on_minion``: equipment, a retainer, a card that says "Put this
    card on …"), or in the ash heap once resolved (``ash``: everything else)."""

    IN_PLAY = "in_play"
    ON_MINION = "on_minion"
    ASH = "ash"


#: Card types that stay in play when played: put in their player's area, or on a minion.
_IN_PLAY_TYPES = frozenset({"Ally", "Event"})
_ON_MINION_TYPES = frozenset({"Equipment", "Retainer"})


def play_place(info: CardInfo) -> PlayPlace:
    """Where ``info``'s card goes when played (:class:`PlayPlace`), read from its krcg types and
    its text's own words ("Put this card in play", "Put this card on …", "location"). The engine
    applies no card text: this is the default a player's interface offers, which an explicit
    ``to`` overrides."""
    types = set(info.types)
    text = " ".join(info.text.lower().split())
    first = text.split(".")[0]
    if types & _ON_MINION_TYPES or "put this card on " in text:
        return PlayPlace.ON_MINION
    if types & _IN_PLAY_TYPES or "put this card in play" in text or "location" in first:
        return PlayPlace.IN_PLAY
    return PlayPlace.ASH


def card_id(identity: str) -> int | None:
    """The krcg card id of a protocol card identity ``"<id>-<copy>"``, or None if malformed."""
    match = IDENTITY_RE.match(identity) if isinstance(identity, str) else None
    return int(match.group(1)) if match else None


def identity(cid: int, copy: int) -> str:
    """The protocol identity of copy ``copy`` (from 1) of card ``cid``."""
    return f"{cid}-{copy}"


class CardBase:
    """The card database: look-ups by id for the rules and views, by exact name for deck files.

    Build it with :func:`card_base` (loaded once per process). Name look-ups are exact after
    krcg's normalisation (accents folded, case ignored), over every name krcg indexes (printed,
    unique, full with group/advanced suffix, lexicographical, historical and vernacular variants);
    unlike krcg's own dict they never fuzzy-match, so a misspelt name is an error, not a guess.
    """

    def __init__(self, cards: krcg.CardDict) -> None:
        self.cards = cards
        self.version = krcg.loader.VERSION
        names: dict[str, models.Card] = {}
        for key, card in cards.items():
            if isinstance(key, str):
                names[key] = card
        for card in sorted(cards.cards(), key=lambda c: c.id):
            extra = [vekn_name(card), card.full_name, card.unique_name]
            extra += [v.name for v in card.name_variants]
            if getattr(card, "advanced", False):
                extra.append(f"{card.printed_name} (ADV)")  # deck lists often omit the group
            for name in extra:
                names.setdefault(normalize(name), card)
        for key, card in list(names.items()):
            bare = " ".join(key.replace("(tm)", "").split())  # "Pentex Subversion"
            names.setdefault(bare, card)
        self._names = names
        self._info: dict[int, CardInfo | None] = {}
        self._by_identity: dict[str, CardInfo | None] = {}

    def by_id(self, cid: int) -> models.Card | None:
        """The krcg card with this id, or None."""
        try:
            card = self.cards[cid]
        except KeyError:
            return None
        return card if card.id == cid else None

    def info(self, ident: str | int) -> CardInfo | None:
        """The :class:`CardInfo` of a card id or protocol identity, or None if not a card."""
        if isinstance(ident, str):
            if ident in self._by_identity:
                return self._by_identity[ident]
            cid = card_id(ident)
            found = self.info(cid) if cid is not None else None
            self._by_identity[ident] = found
            return found
        cid = ident
        if cid not in self._info:
            card = self.by_id(cid)
            if card is None:
                self._info[cid] = None
            else:
                kind = DeckPart.CRYPT if card.kind == models.Card.Kind.CRYPT else DeckPart.LIBRARY
                self._info[cid] = CardInfo(
                    id=card.id,
                    name=card.unique_name if kind == DeckPart.LIBRARY else card.full_name,
                    kind=kind,
                    types=tuple(str(t) for t in card.types),
                    capacity=int(getattr(card, "capacity", None) or 0),
                    text=card.text,
                    clan=str(getattr(card, "clan", "") or ""),
                    character=str(card.printed_name) if kind == DeckPart.CRYPT else "",
                    **_printed_cost(card),
                )
        return self._info[cid]

    def lookup(self, name: str) -> models.Card | None:
        """The card with exactly this name (normalised), or None. Never guesses."""
        return self._names.get(normalize(name))

    def closest(self, name: str) -> str | None:
        """The display name of the card whose name is closest to ``name``, or None."""
        import difflib

        key = normalize(name)
        if not key:
            return None
        match = difflib.get_close_matches(key, self._names.keys(), n=1, cutoff=0.6)
        if not match:
            return None
        return self._names[match[0]].full_name


def _printed_cost(card: models.Card) -> dict[str, int]:
    """``blood_cost``/``pool_cost`` of a krcg card's printed cost (an X or conviction cost: none)."""
    cost = getattr(card, "cost", None)
    value = getattr(cost, "value", None)
    if cost is None or not isinstance(value, int):
        return {}
    kind = str(cost.type).lower()
    if "blood" in kind:
        return {"blood_cost": value}
    if "pool" in kind:
        return {"pool_cost": value}
    return {}


@functools.cache
def card_base() -> CardBase:
    """The process-wide card database, loaded once from krcg's packaged data (about 0.3 s
    from krcg's cache, 3 s the first time on a machine). Read-only after loading."""
    # krcg logs a warning with a traceback when its pickle cache is missing; that is normal.
    logging.getLogger("krcg").setLevel(logging.ERROR)
    return CardBase(krcg.load())
