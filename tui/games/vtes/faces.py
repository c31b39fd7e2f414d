"""What the VTES table shows of a card from krcg beyond its :class:`~engine.games.vtes.cards.CardInfo`
(its clan and group, disciplines, requirements and printed cost: the card panel and the hand list),
kept in a cache file so that a table's first turn is drawn without krcg's card dict.

krcg's dict costs about 0.3 s of imports (aiohttp among them) and 0.4 s of unpickling, all of it
holding the GIL: loaded while a table is set up it slowed the set-up's own threads by as much
(docs/protocol.md 6.12). So a table screen loads it (:func:`load_after_set_up`)
:data:`KRCG_AFTER_S` after its set-up is over and its first turn drawn, and until then the hand and the card panel take the cards'
:class:`Face` from the cache file (:func:`face`), written from krcg's dict the first time it loads
on a machine (:func:`write_faces`). A face is computed from a krcg card by one function
(:func:`face_of`) whether it comes from krcg or from the file, so the text shown is the same.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.games.vtes.cards import cache_path, card_base, krcg_version, write_json

FACES_FORMAT = 1
"""The cache file's layout; a file of another layout is ignored (and written again)."""

KRCG_AFTER_S = 1.0
"""Seconds after a table's first turn is drawn before krcg's dict starts loading
(:func:`load_after_set_up`): its unpickling holds the GIL for about 0.4 s, which the person
should not meet as the first turn appears."""


@dataclass(frozen=True)
class Face:
    """A card's krcg facts as the table writes them (each an empty string when the card has none):
    ``before``: `` · clan · group``, what comes before a crypt card's capacity; ``after``:
    `` · disciplines · requires … · clans · cost …``, what comes after it; ``cost``: its printed
    cost (``"2 blood"``, ``"X pool"``)."""

    before: str
    after: str
    cost: str


def cost_text(card: object) -> str:
    """A krcg card's printed cost, ``"<value> <pool|blood|…>"``, or "" for none."""
    cost = getattr(card, "cost", None)
    if cost is None:
        return ""
    kind = getattr(getattr(cost, "type", None), "value", "") or ""
    value = getattr(cost, "value", "")
    return f"{value} {kind.lower()}".strip()


def face_of(card: object) -> Face:
    """The :class:`Face` of a krcg card (any object with krcg's card attributes)."""
    before = ""
    clan = getattr(card, "clan", "") or ""
    if clan:
        before += f" · {clan}"
    group = getattr(card, "group", None)
    if group is not None:
        before += f" · {getattr(group, 'value', group)}"
    after = ""
    discs = getattr(card, "disciplines", None)
    if discs:
        after += f" · {' '.join(discs)}"
    req = getattr(card, "discipline_requirement", None)
    if req is not None and getattr(req, "disciplines", None):
        after += f" · requires {' '.join(req.disciplines)}"
    clans = getattr(card, "clan_requirement", None)
    if clans:
        after += f" · {' or '.join(str(c) for c in clans)}"
    cost = cost_text(card)
    if cost:
        after += f" · cost {cost}"
    return Face(before, after, cost)


def faces_path() -> Path:
    """The faces' cache file for the installed krcg, beside the cards' infos (:func:`cache_path`)."""
    return cache_path().with_name(f"vtes-faces-krcg-{krcg_version()}-v{FACES_FORMAT}.json")


@cache
def read_faces() -> dict[int, Face] | None:
    """The faces kept in the cache file, by krcg card id (read once per process); None when the
    file is missing, unreadable or of another layout. Never raises."""
    try:
        data = json.loads(faces_path().read_bytes())
        if not isinstance(data, dict) or data.get("format") != FACES_FORMAT:
            return None
        found: dict[int, Face] = {}
        for cid, before, after, cost in data["faces"]:
            if type(cid) is not int or not all(type(s) is str for s in (before, after, cost)):
                return None
            found[cid] = Face(before, after, cost)
        return found or None
    except (OSError, ValueError, TypeError, KeyError):
        return None


def write_faces(cards: Any) -> bool:
    """Write the faces of every card of krcg's dict ``cards`` to the cache file (whole, then renamed).
    Returns False when it cannot be written (the next process loads krcg before its first turn)."""
    rows = []
    for card in sorted(cards.cards(), key=lambda c: c.id):
        f = face_of(card)
        rows.append([card.id, f.before, f.after, f.cost])
    return write_json(faces_path(), {"format": FACES_FORMAT, "faces": rows})


def face(cid: int | None) -> Face | None:
    """The face of krcg card ``cid`` (None for no such card): from krcg's dict once it is loaded,
    else from the cache file, else from krcg's dict loaded now."""
    if cid is None:
        return None
    base = card_base()
    if not base.loaded:
        faces = read_faces()
        if faces is not None:
            return faces.get(cid)
    card = base.by_id(cid)
    return face_of(card) if card is not None else None


_started = threading.Lock()
_loads: list[threading.Thread] = []


def _load(write: bool) -> None:
    """Load krcg's dict, write the faces' file if ``write``, then keep every shipped deck's
    reading (kept_decks.remembered_bundled_deck): one that is not kept yet (a new machine, or new
    reading code) costs little with krcg's dict loaded, and would cost a later table's set-up the
    whole load if one of its bots picked it. Runs in a thread (:func:`_start`)."""
    from engine.games.vtes.decks import bundled_deck_names
    from engine.games.vtes.kept_decks import remembered_bundled_deck

    cards = card_base().cards
    if write:
        write_faces(cards)
        read_faces.cache_clear()
    for name in bundled_deck_names():
        remembered_bundled_deck(name)


def _start(write: bool) -> None:
    """Start :func:`_load` in a daemon thread, once per process."""
    with _started:
        if not _loads:
            _loads.append(threading.Thread(target=_load, args=(write,), name="vt-krcg-load", daemon=True))
            _loads[0].start()


def load_now_or_after_set_up() -> bool:
    """Called as a table screen opens: when the faces' cache file is missing, start loading krcg's
    dict in a thread at once (the first turn needs it) and write the file when it is loaded, then
    return False; else return True: the caller loads it later (:func:`load_after_set_up`)."""
    if read_faces() is not None:
        return True
    _start(write=True)
    return False


def load_after_set_up() -> None:
    """Start loading krcg's dict in a thread (its rulings and the cards' full data, asked for
    once the person acts), unless it is loading or loaded already in this process: a table screen
    calls this :data:`KRCG_AFTER_S` after its set-up is over and its first turn drawn."""
    _start(write=False)
