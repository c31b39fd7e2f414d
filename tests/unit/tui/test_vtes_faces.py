"""A VTES table's first turn is drawn without krcg's card dict (tui.games.vtes.faces): the hand and
the card panel read each card's krcg facts from the faces' cache file, and say exactly what they
say once krcg is loaded; the file is written the first time krcg loads, and a file that cannot be
read is ignored."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.games.vtes.cards import CardBase, card_base, card_id
from engine.games.vtes.view import CardView
from engine.games.vtes.vocab import Zone
from tui.games.vtes import faces
from tui.games.vtes.present import card_text, hand_label


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh user cache folder (where the faces' file goes), and no faces read yet."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    faces.read_faces.cache_clear()
    yield tmp_path
    faces.read_faces.cache_clear()


def _unloaded(monkeypatch: pytest.MonkeyPatch) -> CardBase:
    """A card base read from the cards' infos only (krcg's dict not loaded), used by the screen."""
    base = CardBase(infos={i.id: i for i in card_base().every_info()})
    monkeypatch.setattr(faces, "card_base", lambda: base)
    return base


def _view(i: int, cid: int) -> CardView:
    """Card ``cid`` in seat 0's hand, as its view shows it."""
    info = card_base().info(cid)
    assert info is not None
    crypt = info.capacity > 0
    return CardView((0, i), 0, 0, Zone.HAND, crypt, f"{cid}-1", info.name, info.capacity, info.types, info.text)


def _ids() -> list[int]:
    """Cards with every kind of fact: a vampire (clan, group, disciplines, capacity), library cards
    with a pool, a blood, an X or no cost, with requirements or none."""
    krcg = card_base().cards
    names = ("Theo Bell (G2)", "Govern the Unaligned", "Villein", "Dreams of the Sphinx", "Ashur Tablets")
    ids = [krcg[n].id for n in names]
    assert all(card_id(f"{i}-1") == i for i in ids)
    return ids


def test_the_hand_and_card_panel_say_the_same_from_the_cache_file_without_loading_krcg(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = [_view(i, c) for i, c in enumerate(_ids())]
    with_krcg = [(str(card_text(c)), hand_label(c)) for c in cards]
    assert faces.write_faces(card_base().cards)
    base = _unloaded(monkeypatch)
    assert [(str(card_text(c)), hand_label(c)) for c in cards] == with_krcg
    assert not base.loaded  # krcg's dict was not asked for


def test_every_card_s_face_from_the_file_is_its_face_from_krcg(cache_dir: Path) -> None:
    assert faces.write_faces(card_base().cards)
    read = faces.read_faces()
    assert read is not None
    every = card_base().cards.cards()
    assert {c.id: faces.face_of(c) for c in every} == read


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not json",
        json.dumps({"format": 999, "faces": []}).encode(),
        json.dumps({"format": faces.FACES_FORMAT, "faces": [[1, 2, "", ""]]}).encode(),
        json.dumps({"format": faces.FACES_FORMAT, "faces": [["1", "", "", ""]]}).encode(),
        json.dumps({"format": faces.FACES_FORMAT, "faces": [[1, ""]]}).encode(),
        json.dumps({"format": faces.FACES_FORMAT}).encode(),
    ],
)
def test_a_faces_file_that_cannot_be_read_is_ignored_and_krcg_answers(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch, content: bytes
) -> None:
    path = faces.faces_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    assert faces.read_faces() is None
    cid = _ids()[0]
    want = faces.face_of(card_base().cards[cid])
    base = _unloaded(monkeypatch)
    assert faces.face(cid) == want  # from krcg's dict, loaded now
    assert base.loaded
    assert path.read_bytes() == content  # a reader changes nothing


def test_without_the_file_a_table_loads_krcg_at_once_and_writes_it_and_the_decks_readings(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = _unloaded(monkeypatch)
    loaded = threading.Event()
    real = CardBase.cards.fget
    assert real is not None

    def cards(self: CardBase) -> Any:
        found = real(self)
        loaded.set()
        return found

    monkeypatch.setattr(CardBase, "cards", property(cards))
    monkeypatch.setattr(faces, "_loads", [])
    assert faces.load_now_or_after_set_up() is False  # loading now: no later load owed
    assert loaded.wait(60)
    faces._loads[0].join(60)
    assert base.loaded
    assert faces.read_faces() is not None  # the next table finds the file
    assert faces.load_now_or_after_set_up() is True  # …and loads krcg only after its set-up
    # Every shipped deck's reading is kept too: no bot of a later table reads one with krcg.
    from engine.games.vtes import decks, kept_decks

    names = decks.bundled_deck_names()
    read: list[str] = []
    monkeypatch.setattr(decks, "bundled_deck", lambda name: read.append(name))
    kept = [kept_decks.remembered_bundled_deck(name) for name in names]
    assert read == [] and [deck.name for deck in kept] == names


def test_with_the_file_krcg_loads_only_when_asked_after_the_set_up(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert faces.write_faces(card_base().cards)
    base = _unloaded(monkeypatch)
    started: list[str] = []
    monkeypatch.setattr(faces, "_start", lambda write: started.append(f"load, write {write}"))
    assert faces.load_now_or_after_set_up() is True
    assert not base.loaded and started == []
    faces.load_after_set_up()
    assert started == ["load, write False"]


async def test_a_table_draws_its_first_turn_from_the_file_and_loads_krcg_after_it(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.poll import eventually
    from tests.support.vtes_table import influence_app, screen_view
    from tui.games.vtes.table import VtesTableScreen
    from tui.games.vtes.widgets.hand import HandList

    assert faces.write_faces(card_base().cards)
    base = _unloaded(monkeypatch)
    asked: list[bool] = []
    monkeypatch.setattr(faces, "_start", lambda write: asked.append(base.loaded))
    app, _ = influence_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        await eventually(lambda: asked != [], 10, "krcg asked for after the first turn", pilot=pilot)
        hand = app.screen.query_one(HandList)
        labels = [str(hand.get_option_at_index(i).prompt) for i in range(hand.option_count)]
        assert asked == [False] and not base.loaded  # drawn without krcg's dict, loaded once after
        assert labels and labels == [hand_label(c) for c in screen_view(app).hand]
        assert any(" · " in label for label in labels)  # a cost, from the file


async def test_a_table_being_set_up_does_not_load_krcg_when_the_file_is_there(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.local_session import LocalGameSession
    from tests.support.poll import eventually
    from tests.support.vtes_table import build_vtes
    from tui.app import Start, VampireApp
    from tui.games.vtes.table import VtesTableScreen

    assert faces.write_faces(card_base().cards)
    _unloaded(monkeypatch)
    asked: list[bool] = []
    monkeypatch.setattr(faces, "_start", lambda write: asked.append(write))
    session = LocalGameSession(build_vtes(11), 0, log_path=Path("mina.vtlog"))
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(100, 30)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        app.screen.refresh_table()  # type: ignore[attr-defined]
        await pilot.pause()
        assert asked == []
