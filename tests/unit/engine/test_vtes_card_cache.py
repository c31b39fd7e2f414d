"""The card database's cache file: a process that finds it reads every card's info from it and
loads krcg's whole database only when a name is looked up; a bad or foreign file is read as no
file (krcg's data is read instead and the file written anew), and a cache that cannot be written
changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.games.vtes import cards, kept_decks
from engine.games.vtes.cards import CACHE_FORMAT, CardBase, card_base, read_cache, write_cache
from engine.games.vtes.vocab import DeckPart

THEO = "Theo Bell (G2)"
GOOD_ROW: list[object] = [1, "x", "crypt", [], 1, "", "", 0, 0, "", "", ["cel"], "G2", [], [], "", 0, "", False]
"""A well-formed cache row (every field of CardInfo in order): the bad rows below change one."""


@pytest.fixture(scope="module")
def krcg_base() -> CardBase:
    return CardBase(cards._load_krcg())


@pytest.fixture(scope="module")
def cache_file(tmp_path_factory: pytest.TempPathFactory, krcg_base: CardBase) -> Path:
    path = tmp_path_factory.mktemp("cache") / "cards.json"
    assert write_cache(path, krcg_base)
    return path


def test_the_cache_holds_every_card_as_krcg_gives_it(cache_file: Path, krcg_base: CardBase) -> None:
    infos = read_cache(cache_file)
    assert infos is not None
    assert sorted(infos.values(), key=lambda i: i.id) == krcg_base.every_info()
    theo = krcg_base.lookup(THEO)
    assert theo is not None and infos[theo.id] == krcg_base.info(theo.id)
    assert infos[theo.id].kind == DeckPart.CRYPT and infos[theo.id].capacity > 0


def test_a_base_read_from_the_cache_answers_infos_without_krcg_and_loads_it_for_names(
    cache_file: Path, krcg_base: CardBase
) -> None:
    infos = read_cache(cache_file)
    assert infos is not None
    base = CardBase(infos=infos)
    theo = krcg_base.lookup(THEO)
    assert theo is not None
    assert base.info(f"{theo.id}-2") == krcg_base.info(theo.id)
    assert base.info(1) is None and base.info("1-1") is None and base.info("nonsense") is None
    titled = [i for i in base.every_info() if i.title]
    assert titled and all(i.kind == DeckPart.CRYPT for i in titled)
    assert base._cards is None  # no krcg load for any of that
    found = base.lookup(THEO)  # a name: krcg's database loads now
    assert found is not None and found.id == theo.id
    assert base.closest("Theo Bel") is not None


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not json",
        b"[]",
        json.dumps({"format": CACHE_FORMAT + 1, "cards": []}).encode(),
        json.dumps({"format": CACHE_FORMAT, "cards": []}).encode(),
        json.dumps({"format": CACHE_FORMAT}).encode(),
        json.dumps({"format": CACHE_FORMAT, "cards": [[1, "x", "crypt", [], 1, "", "", 0, 0, ""]]}).encode(),
        json.dumps({"format": CACHE_FORMAT, "cards": [[1, "x", "elsewhere", [], 1, "", "", 0, 0, "", ""]]}).encode(),
        json.dumps({"format": CACHE_FORMAT, "cards": [["1", "x", "crypt", [], 1, "", "", 0, 0, "", ""]]}).encode(),
        json.dumps({"format": CACHE_FORMAT, "cards": [[1, "x", "crypt", "Vampire", 1, "", "", 0, 0, "", ""]]}).encode(),
        json.dumps({"format": CACHE_FORMAT, "cards": [[1, "x", "crypt", [], True, "", "", 0, 0, "", ""]]}).encode(),
        # a row of today's length: every field in place but one of the wrong type
        json.dumps({"format": CACHE_FORMAT, "cards": [[*GOOD_ROW[:11], "cel", *GOOD_ROW[12:]]]}).encode(),
        json.dumps({"format": CACHE_FORMAT, "cards": [[*GOOD_ROW[:18], 1]]}).encode(),
        json.dumps({"format": CACHE_FORMAT, "cards": [[*GOOD_ROW[:16], "1", *GOOD_ROW[17:]]]}).encode(),
    ],
)
def test_a_bad_cache_file_is_read_as_none_and_left_as_it_is(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "cards.json"
    path.write_bytes(content)
    assert read_cache(path) is None
    assert path.read_bytes() == content


def test_a_well_formed_row_is_read(tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    path.write_text(json.dumps({"format": CACHE_FORMAT, "cards": [GOOD_ROW]}))
    infos = read_cache(path)
    assert infos is not None and infos[1].disciplines == ("cel",) and infos[1].group == "G2"


def test_a_missing_cache_file_is_none(tmp_path: Path) -> None:
    assert read_cache(tmp_path / "none.json") is None


def test_a_cache_that_cannot_be_written_is_no_error(tmp_path: Path, krcg_base: CardBase) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("")
    assert not write_cache(blocked / "cards.json", krcg_base)
    assert blocked.read_text() == ""


def test_card_base_writes_the_cache_then_reads_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "cache" / "cards.json"
    monkeypatch.setattr(cards, "cache_path", lambda version=None: path)
    loads: list[int] = []
    real = cards._load_krcg

    def counted() -> object:
        loads.append(1)
        return real()

    monkeypatch.setattr(cards, "_load_krcg", counted)
    first = card_base.__wrapped__()  # a new process: no cache file yet
    assert loads == [1] and path.exists()
    second = card_base.__wrapped__()  # the next process: read from the file
    assert loads == [1] and second._cards is None
    assert second.every_info() == first.every_info()
    path.write_text("{}")  # spoilt: krcg's data is read again, and the file written anew
    third = card_base.__wrapped__()
    assert loads == [1, 1] and read_cache(path) is not None
    assert third.every_info() == first.every_info()


#: In a child process: the VTES rules, views and scoring imported, one card's info read from the
#: card base; prints whether krcg (and aiohttp, which krcg imports) was loaded.
CHILD = """
import json, sys
import engine.games.vtes.game, engine.games.vtes.scoring, engine.games.vtes.politics
from engine.games.vtes.cards import card_base
info = card_base().info("201362-1")
print(json.dumps([info is not None and info.kind == "crypt", "krcg" in sys.modules, "aiohttp" in sys.modules]))
"""


def test_a_process_that_finds_the_cache_reads_cards_without_loading_krcg(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[3]
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONPATH=str(root))

    def child() -> list[bool]:
        done = subprocess.run([sys.executable, "-c", CHILD], env=env, cwd=root, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        result: list[bool] = json.loads(done.stdout)
        return result

    assert child() == [True, True, True]  # the first process reads krcg's data and writes the cache
    assert child() == [True, False, False]  # the next one reads the cache: krcg is never imported


def test_a_shipped_deck_is_read_once_then_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.games.vtes import decks

    path = tmp_path / "decks.json"
    monkeypatch.setattr(kept_decks, "readings_path", lambda: path)
    reads: list[str] = []
    real = decks.bundled_deck

    def counted(name: str) -> decks.Deck:
        reads.append(name)
        return real(name)

    monkeypatch.setattr(decks, "bundled_deck", counted)
    names = decks.bundled_deck_names()[:3]
    first = [kept_decks.remembered_bundled_deck(n) for n in names]
    assert reads == names and path.exists()
    again = [kept_decks.remembered_bundled_deck(n) for n in names]
    assert reads == names  # from the file: nothing read again
    for a, b in zip(first, again, strict=True):
        assert (a.name, a.crypt, a.library, a.notes) == (b.name, b.crypt, b.library, b.notes)
        assert a == real(a.name)


@pytest.mark.parametrize(
    "kept",
    [
        "not json",
        json.dumps({"code": "other code", "decks": {}}),
        json.dumps([]),
        "BAD ROW",
    ],
)
def test_a_bad_or_foreign_kept_reading_is_read_anew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept: str) -> None:
    from engine.games.vtes import decks

    path = tmp_path / "decks.json"
    monkeypatch.setattr(kept_decks, "readings_path", lambda: path)
    name = decks.bundled_deck_names()[0]
    deck = kept_decks.remembered_bundled_deck(name)
    if kept == "BAD ROW":  # the right code, a row that is no reading (a count of 0)
        data = json.loads(path.read_text())
        for row in data["decks"].values():
            row[1][0][1] = 0
        kept = json.dumps(data)
    path.write_text(kept)
    again = kept_decks.remembered_bundled_deck(name)
    assert again == deck and again.notes == deck.notes
    assert kept_decks.kept_deck(json.loads(path.read_text())["decks"].popitem()[1]) == deck


def test_an_unknown_shipped_deck_is_refused_as_bundled_deck_refuses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.games.vtes.deck_formats import DeckFileError

    monkeypatch.setattr(kept_decks, "readings_path", lambda: tmp_path / "decks.json")
    with pytest.raises(DeckFileError, match="no shipped deck named"):
        kept_decks.remembered_bundled_deck("no such deck")
    assert not (tmp_path / "decks.json").exists()


#: In a child process: a bot's deck as the game's kit gives it; prints whether krcg's database
#: was loaded for it.
BOT_CHILD = """
import json, random
from engine.games import find_game
from engine.games.vtes.cards import card_base
deck = find_game("vtes").kit().for_bot(random.Random(3))
print(json.dumps([deck.crypt_size >= 12, card_base()._cards is not None]))
"""


def test_a_bot_deck_a_process_kept_costs_the_next_one_no_krcg_load(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[3]
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONPATH=str(root))

    def child() -> list[bool]:
        done = subprocess.run([sys.executable, "-c", BOT_CHILD], env=env, cwd=root, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        result: list[bool] = json.loads(done.stdout)
        return result

    assert child() == [True, True]
    assert child() == [True, False]


def test_load_soon_loads_krcg_once_in_the_background(
    cache_file: Path, krcg_base: CardBase, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    infos = read_cache(cache_file)
    assert infos is not None
    base = CardBase(infos=infos)
    loads: list[str] = []
    started, release = threading.Event(), threading.Event()

    def slow_load() -> object:
        loads.append(threading.current_thread().name)
        started.set()
        release.wait(10)
        return krcg_base.cards

    monkeypatch.setattr(cards, "_load_krcg", slow_load)
    base.load_soon()
    assert started.wait(10)  # the background thread is loading
    waiter = threading.Thread(target=lambda: base.cards)  # asks while the load is under way
    waiter.start()
    release.set()
    waiter.join(10)
    assert base.cards is krcg_base.cards
    assert loads == ["vt-krcg-load"]  # one load, in the background thread
    base.load_soon()  # loaded: nothing more
    assert loads == ["vt-krcg-load"]
