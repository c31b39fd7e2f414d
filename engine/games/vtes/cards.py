"""VTES card data from krcg's packaged card database (shared/rules/vtes.md, "Zones"; DESIGN.md
dependencies: krcg >= 5, < 6, packaged data only, no network).

This module holds krcg's facts of each card (kind, types, capacity, clan, Disciplines, title, group,
requirements, printed costs, text); what the table reads of a card's text, and applies, is its
record (:mod:`engine.games.vtes.card_record`), built from these facts.

Card identities in the protocol are ``"<krcg card id>-<copy>"`` (copy numbered from 1), e.g.
``"201362-2"`` for the second copy of Theo Bell (G2) in a crypt.

What the rules and views read of every card (:class:`CardInfo`) is kept, once krcg's data has been
read, in a small JSON file of the user's cache directory named after krcg's version
(:func:`card_base`): a later process reads that file (a few hundredths of a second) and loads
krcg's whole database (half a second, and its imports) only when a name is looked up, as reading
a deck list does.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import re
import tempfile
import threading
import unicodedata
from dataclasses import astuple, dataclass, fields, replace
from enum import StrEnum
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs

from engine.games.vtes.vocab import DeckPart

if TYPE_CHECKING:  # krcg (and aiohttp, yaml, which it imports) loads only when a name is looked up
    import krcg
    from krcg import models

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
    player states those); ``title``: a crypt card's printed title, "" for none.
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
    title: str = ""
    """A vampire's printed title (``"Prince"``, ``"Justicar"``), "" for none."""
    disciplines: tuple[str, ...] = ()
    """A crypt card's Disciplines in krcg's spelling (``("ani", "CEL")``: lower case inferior,
    upper case superior); () for a library card."""
    group: str = ""
    """A crypt card's group (``"G2"``, ``"Any"``), "" for a library card."""
    clan_requirement: tuple[str, ...] = ()
    """The clans (or creeds) a library card requires, any one of them; () for none."""
    discipline_requirement: tuple[str, ...] = ()
    """The Disciplines a library card requires (krcg's lower case), () for none; how they combine
    is :attr:`discipline_rule`."""
    discipline_rule: str = ""
    """``"Mono"`` (one Discipline), ``"Choice"`` (any one of them), ``"Combo"`` (all of them)."""
    conviction_cost: int = 0
    """A printed conviction cost (Imbued), 0 for none."""
    x_cost: str = ""
    """``"blood"`` or ``"pool"`` for a printed X cost (the player states it), "" for none."""
    burn_option: bool = False
    """The card has the burn option (a Methuselah may burn it instead of playing it)."""

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

    ``cards``: krcg's card dict; None with ``infos``, every card's :class:`CardInfo` by id (read
    from the cache file): :meth:`info` answers from them, and krcg's dict (:attr:`cards`) loads
    the first time a krcg card or a name is asked for.
    """

    def __init__(self, cards: krcg.CardDict | None = None, *, infos: dict[int, CardInfo] | None = None) -> None:
        if cards is None and infos is None:
            raise ValueError("a CardBase needs krcg's cards or the cards' infos")
        self._cards = cards
        self._names_index: dict[str, models.Card] | None = None
        self._info: dict[int, CardInfo | None] = dict(infos) if infos is not None else {}
        self._complete = infos is not None  # every card's info is in _info: no krcg needed
        self._by_identity: dict[str, CardInfo | None] = {}
        self._by_name: dict[str, tuple[int, ...]] | None = None
        self._titles: tuple[str, ...] | None = None
        self._loading = threading.Lock()

    @property
    def cards(self) -> krcg.CardDict:
        """krcg's card dict (loaded now if this base was read from the cache file; a thread that
        asks while another loads it waits for that load)."""
        if self._cards is None:
            with self._loading:
                if self._cards is None:
                    self._cards = _load_krcg()
        return self._cards

    @property
    def loaded(self) -> bool:
        """krcg's card dict is loaded (asking :attr:`cards` costs nothing)."""
        return self._cards is not None

    def load_soon(self) -> None:
        """Start loading krcg's card dict (:attr:`cards`) in a daemon thread, if it is not loaded:
        a screen that will show a card's krcg text (its disciplines, its rulings) calls this while
        the table is being set up, so that the first turn is not drawn after that load."""
        if self._cards is None:
            threading.Thread(target=lambda: self.cards, name="vt-krcg-load", daemon=True).start()

    @property
    def version(self) -> str:
        """krcg's version, whose data this is."""
        return krcg_version()

    @property
    def _names(self) -> dict[str, models.Card]:
        if self._names_index is None:
            self._names_index = _names_of(self.cards)
        return self._names_index

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
            if self._complete:
                return None  # every card is known: this id is none
            card = self.by_id(cid)
            self._info[cid] = None if card is None else _info_of(card)
        return self._info[cid]

    def every_info(self) -> list[CardInfo]:
        """Every card's :class:`CardInfo`, by id."""
        if not self._complete:
            for card in self.cards.cards():
                self.info(card.id)
            self._complete = True
        return sorted((i for i in self._info.values() if i is not None), key=lambda i: i.id)

    def named(self, words: str) -> tuple[int, ...]:
        """The ids of the cards whose name is exactly ``words`` (krcg's normalisation: accents
        folded, case ignored): a library card's name, a vampire's with its group
        (``"Theo Bell (G2 ADV)"``) or without it (every version of that vampire); () for words that
        name no card. Reads the cards' infos only (no krcg load), through :func:`name_key`."""
        if self._by_name is None:
            index: dict[str, list[int]] = {}
            for info in self.every_info():
                for name in {name_key(info.name), name_key(info.character)} - {""}:
                    index.setdefault(name, []).append(info.id)
            self._by_name = {name: tuple(ids) for name, ids in index.items()}
        return self._by_name.get(name_key(words), ())

    def titles(self) -> tuple[str, ...]:
        """Every title printed on a vampire (``"prince"``, ``"inner circle"``), normalised as
        :meth:`named` reads names (:func:`name_key`), longest first; not an independent's
        ``"1 vote"``."""
        if self._titles is None:
            found = {name_key(i.title) for i in self.every_info() if i.title}
            votes = re.compile(r"^\d+ votes?$")
            self._titles = tuple(sorted((t for t in found if not votes.match(t)), key=len, reverse=True))
        return self._titles

    def lookup(self, name: str) -> models.Card | None:
        """The card with exactly this name (normalised), or None. Never guesses."""
        from krcg.utils import normalize

        return self._names.get(normalize(name))

    def closest(self, name: str) -> str | None:
        """The display name of the card whose name is closest to ``name``, or None."""
        import difflib

        from krcg.utils import normalize

        key = normalize(name)
        if not key:
            return None
        match = difflib.get_close_matches(key, self._names.keys(), n=1, cutoff=0.6)
        if not match:
            return None
        return self._names[match[0]].full_name


def name_key(words: str) -> str:
    """``words`` as :meth:`CardBase.named` compares names: accents folded, case ignored, spaces
    collapsed ("Jean-François" and "jean-francois" alike), as krcg's ``normalize`` does for Latin
    names, without importing krcg (a table of bots loads none: the card cache serves it)."""
    folded = unicodedata.normalize("NFKD", words)
    return " ".join("".join(ch for ch in folded if not unicodedata.combining(ch)).casefold().split())


def _names_of(cards: krcg.CardDict) -> dict[str, models.Card]:
    """Every name of every card, normalised, to its card (see :class:`CardBase`)."""
    from krcg.utils import normalize, vekn_name

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
    return names


def _info_of(card: models.Card) -> CardInfo:
    from krcg import models

    kind = DeckPart.CRYPT if card.kind == models.Card.Kind.CRYPT else DeckPart.LIBRARY
    crypt = kind == DeckPart.CRYPT
    required = getattr(card, "discipline_requirement", None)
    cost = _printed_cost(card)
    return CardInfo(
        id=card.id,
        name=card.unique_name if kind == DeckPart.LIBRARY else card.full_name,
        kind=kind,
        types=tuple(str(t) for t in card.types),
        capacity=int(getattr(card, "capacity", None) or 0),
        text=card.text,
        clan=str(getattr(card, "clan", "") or ""),
        character=str(card.printed_name) if crypt else "",
        title=str(getattr(card, "title", None) or "") if crypt else "",
        disciplines=tuple(str(d) for d in getattr(card, "disciplines", None) or ()) if crypt else (),
        group=str(getattr(getattr(card, "group", None), "value", "") or "") if crypt else "",
        clan_requirement=tuple(str(c) for c in getattr(card, "clan_requirement", None) or ()),
        discipline_requirement=tuple(str(d) for d in getattr(required, "disciplines", None) or ()),
        discipline_rule=str(getattr(getattr(required, "type", None), "value", "") or "") if required else "",
        burn_option=bool(getattr(card, "burn_option", False)),
        blood_cost=cost[0],
        pool_cost=cost[1],
        conviction_cost=cost[2],
        x_cost=cost[3],
    )


def _printed_cost(card: models.Card) -> tuple[int, int, int, str]:
    """``(blood_cost, pool_cost, conviction_cost, x_cost)`` of a krcg card's printed cost: the
    value under its kind, or ``x_cost`` (``"blood"``, ``"pool"``) for an X cost."""
    cost = getattr(card, "cost", None)
    if cost is None:
        return 0, 0, 0, ""
    value = getattr(cost, "value", None)
    kind = str(getattr(cost.type, "value", cost.type)).lower()
    if not isinstance(value, int):
        return 0, 0, 0, kind if kind in ("blood", "pool") else ""
    return (
        value if kind == "blood" else 0,
        value if kind == "pool" else 0,
        value if kind == "conviction" else 0,
        "",
    )


#: The cache file's layout; a file of another layout is read as no file.
CACHE_FORMAT = 2


@functools.cache
def krcg_version() -> str:
    """The installed krcg's version (``"5.14"``), whose data the cards are: the ``Version:`` line
    of its installed metadata, read as text (``importlib.metadata.version`` would parse it with
    the email package, a tenth of a second of imports on the way to every command that reads a
    VTES log); ``importlib.metadata.version`` when no such line is found. Raises
    ``importlib.metadata.PackageNotFoundError`` when krcg is not installed."""
    text = metadata.distribution("krcg").read_text("METADATA") or ""
    for line in text.splitlines():
        if not line:
            break  # the headers end at the first blank line
        if line.startswith("Version:"):
            return line.removeprefix("Version:").strip()
    return metadata.version("krcg")


def cache_path(version: str | None = None) -> Path:
    """The cache file of the cards' infos for krcg ``version`` (default: the one installed), in
    the user's cache directory for "vampire-table" (``XDG_CACHE_HOME`` on Linux)."""
    folder = Path(platformdirs.user_cache_dir("vampire-table", appauthor=False))
    return folder / f"vtes-cards-krcg-{version or krcg_version()}-v{CACHE_FORMAT}.json"


def read_cache(path: Path) -> dict[int, CardInfo] | None:
    """The cards' infos kept in the cache file ``path`` (:func:`write_cache`), by id; None when
    the file is missing, unreadable, of another layout or holds anything but well-formed infos
    (the caller then reads krcg's data). Never raises."""
    try:
        data = json.loads(path.read_bytes())
        if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
            return None
        infos: dict[int, CardInfo] = {}
        for row in data["cards"]:
            if not isinstance(row, list) or len(row) != len(_ROW):
                return None
            values: list[object] = []
            for shape, value in zip(_ROW, row, strict=True):
                if shape is tuple:
                    if not isinstance(value, list) or not all(type(t) is str for t in value):
                        return None
                    values.append(tuple(value))
                elif type(value) is not shape:
                    return None
                else:
                    values.append(value)
            info = CardInfo(*values)  # type: ignore[arg-type]
            infos[info.id] = replace(info, kind=DeckPart(info.kind))
        return infos or None
    except (OSError, ValueError, TypeError, KeyError):
        return None


#: A cache row's shape: each field of :class:`CardInfo` in order, as JSON holds it (a tuple as a list).
_ROW: tuple[type, ...] = tuple(
    {"int": int, "str": str, "bool": bool, "DeckPart": str}.get(str(f.type), tuple) for f in fields(CardInfo)
)


def write_cache(path: Path, base: CardBase) -> bool:
    """Keep every card's info of ``base`` in the cache file ``path`` (JSON, written whole to a
    temporary file then renamed, so a reader never sees half of it). Returns whether it was
    written: a directory that cannot be written is no error (the next process reads krcg again)."""
    rows = [[list(v) if isinstance(v, tuple) else v for v in astuple(info)] for info in base.every_info()]
    return write_json(path, {"format": CACHE_FORMAT, "krcg": base.version, "cards": rows})


def write_json(path: Path, value: object) -> bool:
    """Write ``value`` as JSON to ``path``, whole to a temporary file then renamed (a reader never
    sees half of it). Returns whether it was written (False: the folder cannot be written)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".cache-", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(value, f, ensure_ascii=False)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return False
    return True


def _load_krcg() -> krcg.CardDict:
    """krcg's card dict, from its packaged data (about 0.3 s from krcg's cache, 3 s the first
    time on a machine)."""
    import krcg

    # krcg logs a warning with a traceback when its pickle cache is missing; that is normal.
    logging.getLogger("krcg").setLevel(logging.ERROR)
    return krcg.load()


@functools.cache
def card_base() -> CardBase:
    """The process-wide card database, loaded once. Read-only after loading. The cards' infos
    come from the cache file (:func:`cache_path`) when it holds them, krcg's data loading only
    when a krcg card or a name is asked for; otherwise from krcg's data, and the cache file is
    written for the next process."""
    path = cache_path()
    infos = read_cache(path)
    if infos is not None:
        return CardBase(infos=infos)
    base = CardBase(_load_krcg())
    write_cache(path, base)
    return base
