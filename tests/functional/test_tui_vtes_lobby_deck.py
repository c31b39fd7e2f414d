"""The VTES lobby's deck chooser, on the path of the home screen's "Join a table" (no deck chosen
before joining): the table asks for a deck, the lobby says so and offers ``d``; the chooser shows
a file's problems (an illegal library count, a card no one knows) and refuses it, takes a file
whose misspelt name krcg guessed, and the lobby shows the counts and the guess; the seat then sits
with that deck, and the game starts with its sizes. A shipped deck is taken from the list."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.games import all_rules
from engine.opening import open_sequencer, order_table
from engine.protocol.identity import new_key
from engine.seat import now_ms
from net.client import Client
from net.host import Host
from net.local import bot_client
from tests.support.net import FAST, QUICK_BACKOFF
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.app import Start, VampireApp
from tui.games.vtes.deckpick import DeckChooser
from tui.games.vtes.table import VtesTableScreen
from tui.screens.lobby import LobbyScreen
from tui.session import JoinSpec


async def _host(tmp_path: Path, seats: int = 2) -> Host:
    order = order_table("vtes", people=1, bots=["heuristic"] * (seats - 1), seats=seats, title="deck table")
    host = Host(open_sequencer(order, new_key(), tmp_path / "host.vtlog", now_ms), timeouts=FAST)
    await host.start("127.0.0.1", 0)
    return host


def _kit_line(app: VampireApp) -> str:
    return shown(app.screen.query_one("#lobby-kit"))


def _report(app: VampireApp) -> str:
    return shown(app.screen.query_one("#dk-report"))


async def _type_file(app: VampireApp, pilot, path: Path) -> None:
    """Focus the chooser's file field, put ``path`` in it and press Enter."""
    field = app.screen.query_one("#dk-file")
    if not field.has_focus:
        await pilot.press("shift+tab")  # from the list of shipped decks
    assert field.has_focus
    field.value = str(path)
    await pilot.press("enter")


async def test_a_joining_person_chooses_a_deck_file_in_the_lobby_and_plays_with_it(tmp_path: Path) -> None:
    bad_count = tmp_path / "short.txt"
    bad_count.write_text("12 Nana Buruku\n40 Govern the Unaligned\n")
    unknown = tmp_path / "unknown.txt"
    unknown.write_text("12 Nana Buruku\n60 Govern the Unaligned\n2 Zorblax the Unreal\n")
    good = tmp_path / "mine.txt"
    good.write_text("12 Nana Buruku\n59 Govern the Unalligned\n1 Blood Doll (best card of the day)\n")
    host = await _host(tmp_path)
    bots: list[Client] = []
    app = VampireApp(Start("join", JoinSpec(f"127.0.0.1:{host.port}", "Mina")), name="Mina")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: isinstance(app.screen, LobbyScreen), 20, "the lobby", pilot=pilot)
            lobby = app.screen
            await eventually(
                lambda: "needs your deck" in _kit_line(app), 20, "the table asking for a deck", pilot=pilot
            )
            assert lobby.check_action("choose_kit", ()) is True
            session = lobby.session
            assert session.seat is None
            await pilot.press("d")
            await eventually(lambda: isinstance(app.screen, DeckChooser), 10, "the chooser", pilot=pilot)
            # An illegal count: the problem, and the chooser stays.
            await _type_file(app, pilot, bad_count)
            await eventually(lambda: "library has 40 cards" in _report(app), 10, "the count problem", pilot=pilot)
            assert "60 to 90" in _report(app) and isinstance(app.screen, DeckChooser)
            # A card nobody knows: its line and the closest card.
            await _type_file(app, pilot, unknown)
            await eventually(lambda: "line 3" in _report(app), 10, "the unknown card", pilot=pilot)
            assert "Zorblax the Unreal" in _report(app) and isinstance(app.screen, DeckChooser)
            # A name krcg guessed: taken, and the lobby keeps saying what it guessed.
            await _type_file(app, pilot, good)
            await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby again", pilot=pilot)
            await eventually(lambda: session.seat is not None, 20, "Mina's seat", pilot=pilot)
            line = _kit_line(app)
            assert "mine: crypt 12, library 60" in line, line
            assert '"Govern the Unalligned" read as Govern the Unaligned' in line, line
            assert lobby.check_action("choose_kit", ()) is False  # the join committed to the deck
            # A bot takes the other seat: the game starts, and Mina's seat declares the deck's sizes.
            bot = bot_client(
                ("127.0.0.1", host.port),
                "heuristic",
                name="Bot",
                rng=random.Random(5),
                games=all_rules(),
                timeouts=FAST,
                backoff=QUICK_BACKOFF,
            )
            bots.append(bot)
            await bot.start()
            await eventually(lambda: isinstance(app.screen, VtesTableScreen), 60, "the table screen", pilot=pilot)

            def declared() -> bool:
                view = session.view()
                return view is not None and view.players[session.seat].declared

            await eventually(declared, 60, "Mina's deck declared", pilot=pilot)
            me = session.view().players[session.seat]
            assert (me.crypt_size, me.library_size) == (12, 60)
    finally:
        for bot in bots:
            await bot.stop()
        await host.close()


async def test_a_shipped_deck_is_taken_from_the_chooser_list(tmp_path: Path) -> None:
    host = await _host(tmp_path)
    app = VampireApp(Start("join", JoinSpec(f"127.0.0.1:{host.port}", "Mina")), name="Mina")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: isinstance(app.screen, LobbyScreen), 20, "the lobby", pilot=pilot)
            await eventually(
                lambda: "needs your deck" in _kit_line(app), 20, "the table asking for a deck", pilot=pilot
            )
            await pilot.press("d")
            await eventually(lambda: isinstance(app.screen, DeckChooser), 10, "the chooser", pilot=pilot)
            await pilot.press("down")
            # The highlighted shipped deck's counts, before taking it.
            await eventually(lambda: "crypt 12, library" in _report(app), 10, "the deck's counts", pilot=pilot)
            chosen = app.screen.query_one("#dk-shipped").highlighted_option.id
            await pilot.press("enter")
            await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby again", pilot=pilot)
            await eventually(lambda: app.screen.session.seat is not None, 20, "Mina's seat", pilot=pilot)
            assert f"Your deck: {chosen}: crypt 12, library" in _kit_line(app)
    finally:
        await host.close()


async def test_the_hosts_own_seat_reads_as_its_own_while_it_chooses_its_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A VTES host with no deck yet: its seat 0 is held for it (nobody sits before it), so the
    lobby lists it as the host's own, choosing its deck, not as an open seat; the other seat is
    open."""
    from textual.widgets import DataTable

    from engine.games.vtes.decks import bundled_deck, bundled_deck_names
    from tui.session import HostSpec

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    app = VampireApp(Start("host", HostSpec("Mina", 2, (), {}, 0, "vtes", "127.0.0.1")), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, LobbyScreen), 30, "the lobby", pilot=pilot)
        session = app.screen.session
        grid = app.screen.query_one(DataTable)

        def row(i: int) -> list[str]:
            return [str(cell) for cell in grid.get_row_at(i)] if grid.row_count > i else []

        await eventually(lambda: session.needs_kit, 30, "the table asking the host for a deck", pilot=pilot)
        await eventually(lambda: row(0)[1:] == ["Mina", session.fingerprint, "you", "Choose deck (d)"], 10,
                         "the host's seat, held", pilot=pilot)  # fmt: skip
        assert row(1)[1] == "— open seat —"
        session.bring(bundled_deck(bundled_deck_names()[0]))
        await eventually(lambda: row(0)[-1] == "✓ ready", 30, "the host seated", pilot=pilot)
        assert row(0)[1] == "Mina" and row(1)[1] == "— open seat —"
