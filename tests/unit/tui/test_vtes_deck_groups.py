"""A Methuselah who joins a table brings a deck its rules take: at a tournament table (table rule
``crypt_groups``) the lobby's deck chooser refuses a crypt of vampires of groups 2 and 6 with the
sentence naming the groups, as ``vampire play`` does, and takes it at a standard table."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import Input, Static

from tests.support.poll import eventually
from tui.games.vtes.deckpick import DeckChooser

LIBRARY = ["10x Govern the Unaligned", "10x Dreams of the Sphinx", "2x The Rack", "8x Blood Doll", "50x Deflection"]
GROUPS = "The crypt holds vampires of groups 2 (6 cards) and 6 (6 cards)"


def _mixed(tmp_path: Path) -> Path:
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(["6x Alexandra", "6x Abraham Mellon", *LIBRARY]) + "\n")
    return path


async def _pick(path: Path, options: dict[str, object]) -> tuple[object, str]:
    """Type ``path`` in the chooser of a table with ``options`` and press Enter: (what the chooser
    dismissed with, or "open"; the report it shows)."""
    taken: list[object] = []

    class Lobby(App[None]):
        def on_mount(self) -> None:
            self.push_screen(DeckChooser(True, options), taken.append)

    app = Lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, DeckChooser), 10, "the chooser", pilot=pilot)
        chooser = app.screen
        chooser.query_one("#dk-file", Input).value = str(path)
        chooser.query_one("#dk-file", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        report = "" if taken else str(chooser.query_one("#dk-report", Static).render())
    return (taken[0] if taken else "open"), report


async def test_a_tournament_table_refuses_a_joiners_crypt_of_groups_2_and_6_naming_them(tmp_path: Path) -> None:
    taken, report = await _pick(_mixed(tmp_path), {"ruleset": "tournament", "crypt_groups": "tournament"})
    assert taken == "open"  # not taken: the seat does not join with it
    assert GROUPS in " ".join(report.split()), report


async def test_a_standard_table_takes_the_same_deck(tmp_path: Path) -> None:
    taken, _ = await _pick(_mixed(tmp_path), {"ruleset": "standard", "crypt_groups": "tournament"})
    assert taken != "open" and getattr(taken, "crypt_size", 0) == 12


async def test_a_file_name_typed_while_the_list_has_the_focus_goes_to_the_file_box(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The list of shipped decks has the focus first; typing a path there must not leave Enter to
    take the deck highlighted in the list."""
    taken: list[object] = []
    path = _mixed(tmp_path)
    monkeypatch.chdir(tmp_path)  # the name alone, as typed in the folder it is in: a key per character
    name = path.name

    class Lobby(App[None]):
        def on_mount(self) -> None:
            self.push_screen(DeckChooser(True, {"ruleset": "tournament", "crypt_groups": "tournament"}), taken.append)

    app = Lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, DeckChooser), 10, "the chooser", pilot=pilot)
        chooser = app.screen
        await pilot.press(*name)
        box = chooser.query_one("#dk-file", Input)
        assert box.has_focus and box.value == name
        await pilot.press("enter")
        await pilot.pause()
        report = str(chooser.query_one("#dk-report", Static).render())
    assert not taken  # the file typed was read (and refused at this table), no shipped deck taken
    assert GROUPS in " ".join(report.split()), report
