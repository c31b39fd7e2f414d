"""The shipped decks a bot brings, read once per machine (shared/rules/vtes.md, "Setup"): a deck
list's reading goes through krcg's parser, which needs krcg's whole card database (half a second
and krcg's imports); :func:`remembered_bundled_deck` keeps each shipped deck's reading in a file of
the cache folder (beside the card infos', :func:`engine.games.vtes.cards.cache_path`), so that a
later process gives a bot its deck without loading that database.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path

from engine.games.vtes import decks
from engine.games.vtes.cards import CACHE_FORMAT, cache_path, krcg_version, write_json
from engine.games.vtes.decks import Deck

#: The files whose code reads a deck list: a reading kept by another version of them is read anew.
_READING_CODE = ("cards.py", "decks.py", "deck_formats.py", "deck_reader.py", "deck_checks.py")


def _reading_code() -> str:
    """The SHA-256 of the code that reads a deck list (:data:`_READING_CODE`) and of krcg's
    version, hex."""
    digest = hashlib.sha256(krcg_version().encode())
    folder = Path(__file__).parent
    for name in _READING_CODE:
        digest.update(name.encode() + b"\0" + (folder / name).read_bytes())
    return digest.hexdigest()


def readings_path() -> Path:
    """The cache file of the shipped decks' readings, beside :func:`cache_path`'s."""
    return cache_path().with_name(f"vtes-decks-v{CACHE_FORMAT}.json")


def kept_deck(row: object) -> Deck | None:
    """The deck a kept reading ``row`` ``[name, crypt, library, notes]`` holds, or None when it is
    not one (crypt and library as [[card id, count], …] of positive ints, name and notes text)."""
    if not isinstance(row, list) or len(row) != 4:
        return None
    name, crypt, library, notes = row
    if not isinstance(name, str) or not isinstance(notes, list) or not all(type(n) is str for n in notes):
        return None
    parts: list[tuple[tuple[int, int], ...]] = []
    for part in (crypt, library):
        if not isinstance(part, list):
            return None
        pairs = []
        for pair in part:
            if not isinstance(pair, list) or len(pair) != 2 or not all(type(x) is int and x > 0 for x in pair):
                return None
            pairs.append((pair[0], pair[1]))
        parts.append(tuple(pairs))
    return Deck(name, parts[0], parts[1], tuple(notes))


def remembered_bundled_deck(name: str) -> Deck:
    """:func:`engine.games.vtes.decks.bundled_deck` (the shipped deck ``name``, for a bot), its
    reading kept in a file of the cache folder (:func:`readings_path`) under the SHA-256 of the
    deck's text, for the same reading code and krcg version (:func:`_reading_code`): a later
    process gets the same :class:`~engine.games.vtes.decks.Deck` from there, without loading
    krcg's database. Raises DeckFileError for a name no shipped deck has, as bundled_deck does."""
    if name not in decks.bundled_deck_names():
        return decks.bundled_deck(name)  # raises DeckFileError, naming the shipped decks
    text = (resources.files("engine.games.vtes") / "data" / f"{name}.txt").read_bytes()
    key = hashlib.sha256(text).hexdigest()
    path, code = readings_path(), _reading_code()
    try:
        kept = json.loads(path.read_bytes())
    except (OSError, ValueError):
        kept = None
    if not isinstance(kept, dict) or kept.get("code") != code or not isinstance(kept.get("decks"), dict):
        kept = {"code": code, "decks": {}}
    found = kept_deck(kept["decks"].get(key))
    if found is not None and found.name == name:
        return found
    deck = decks.bundled_deck(name)
    kept["decks"][key] = [deck.name, [list(p) for p in deck.crypt], [list(p) for p in deck.library], list(deck.notes)]
    write_json(path, kept)
    return deck
