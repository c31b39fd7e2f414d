"""Every Methuselah at the VTES table at 80×24, in seating order from you: the Methuselahs panel
gives each one's pool, VP, minions in torpor and ready minions (their names abbreviated to fit),
and the table lists every one's minions grouped by Methuselah (the others' face-down cards in one
row each); your pool is marked when your predator's ready unlocked minions could oust you with
their default bleeds; and the status line says "Your turn." only on your turn of play."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Label, OptionList

from engine.games.vtes.card_record import every_record
from engine.games.vtes.cards import card_base, identity
from engine.games.vtes.state import format_vp
from engine.games.vtes.vocab import Phase, Step, Zone
from tests.support.local_session import NAMES, LocalGameSession
from tests.support.poll import eventually
from tests.support.tui import shown
from tests.support.vtes_table import advance, dealt_vtes
from tui.app import Start, VampireApp
from tui.games.vtes.present import (
    DANGER,
    card_label,
    default_bleed,
    fit_names,
    methuselah_lines,
    order,
    oust_threat,
    ready_minions,
)
from tui.games.vtes.table import VtesTableScreen

#: The Linux console's font (code page 437), as tests/unit/tui/test_tui_explain.py has it.
CONSOLE_FONT = frozenset(
    "☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼⌂"
    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"
    "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌"
    "█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0"
)


def _late(view: Any) -> bool:
    """Turn 20 or later, every Methuselah with two cards or more ready."""
    return view.turn >= 20 and all(len(view.controlled(s, Zone.READY)) >= 2 for s in range(view.seats))


def _predator_ready(view: Any) -> bool:
    """Your influence phase, turn 10 or later, your predator with a ready minion, your pool above
    what they bleed."""
    bleed = sum(default_bleed(c) for c in ready_minions(view, view.players[0].predator))
    return view.acting == 0 and view.phase == Phase.INFLUENCE and view.turn >= 10 and 0 < bleed < view.players[0].pool


def _someone_elses_minion_phase(view: Any) -> bool:
    return view.acting != 0 and view.phase == Phase.MINION and len(view.controlled(0, Zone.READY)) >= 1


@pytest.fixture(scope="module")
def late_table() -> Any:
    local = dealt_vtes(12)  # seed 11's game, since the table applies more cards, ends first
    advance(local, _late)
    return local


@pytest.fixture
def late(late_table: Any) -> LocalGameSession:
    """A late table's session for Mina (seat 0), its screen's own (the table is shared)."""
    return LocalGameSession(late_table, 0, log_path=Path("mina.vtlog"), auto=False)


def _app(session: LocalGameSession, console: bool | None = None) -> VampireApp:
    return VampireApp(Start("table", session), name="Mina", console=console)


async def _table(app: VampireApp, pilot: Any) -> VtesTableScreen:
    await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
    screen = app.screen
    assert isinstance(screen, VtesTableScreen)
    await eventually(lambda: screen.query_one("#vt-board", OptionList).option_count > 0, 10, "the board", pilot=pilot)
    return screen


def _lines(text: Any) -> list[str]:
    return str(text).splitlines()


async def test_every_methuselah_s_pool_vp_torpor_and_ready_minions_are_in_the_panel_at_80x24(late) -> None:
    app = _app(late)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        view = late.view()
        panel = screen.query_one("#vt-players")
        lines = shown(panel).splitlines()
        assert inside(screen, panel) and panel.size.height == len(lines) == view.seats + 1
        assert all(len(line) <= 78 for line in lines)
        assert "torpor" in lines[0] and "ready minions" in lines[0]
        seats = order(view)
        assert seats[0] == 0 and len(seats) == view.seats
        for line, seat in zip(lines[1:], seats, strict=True):
            p = view.players[seat]
            assert line[2:].startswith(NAMES[seat]), line  # seating order, clockwise from you
            # pool, VP and the minions in torpor, in their columns; then the ready minions
            fields = line[16:].split()
            assert fields[0].rstrip(DANGER) == str(p.pool) and fields[1] == format_vp(p.vp)
            assert line[43:51].strip() == str(len(view.controlled(seat, Zone.TORPOR))), line
            minions = ready_minions(view, seat)
            assert line[51:].split()[0] == str(len(minions)), line
            for card in minions[:2]:  # names abbreviated, never dropped while they fit
                assert card.name.split()[0][:4] in line[51:], (card.name, line)


async def test_the_table_lists_every_methuselah_s_minions_grouped_in_seating_order(late) -> None:
    app = _app(late)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        view = late.view()
        board = screen.query_one("#vt-board", OptionList)
        prompts = [str(board.get_option_at_index(i).prompt) for i in range(board.option_count)]
        heads = [i for i, p in enumerate(prompts) if ": ready " in p]
        assert [prompts[i].split(":")[0].replace(" (you)", "") for i in heads] == [NAMES[s] for s in order(view)]
        for n, seat in enumerate(order(view)):
            group = prompts[heads[n] : heads[n + 1] if n + 1 < len(heads) else len(prompts)]
            for card in ready_minions(view, seat):
                assert any(card.name in row for row in group), (card.name, group)
            hidden = [c for c in view.uncontrolled(seat) if not c.known]
            if seat == 0:
                assert not hidden
            else:  # the others' face-down cards: one row, how many
                assert sum(f" {len(hidden)} face-down" in row for row in group) == (1 if hidden else 0), group
        # The table scrolls: Tab, then End reaches the last Methuselah's minions.
        await pilot.press("tab", "end")
        last = ready_minions(view, order(view)[-1])
        if last:
            await eventually(
                lambda: board.highlighted is not None and board.highlighted > heads[-1], 5, "the end", pilot=pilot
            )
            assert board.scroll_y > 0


def test_a_minion_s_default_bleed_and_names_that_fit(late) -> None:
    view = late.view()
    vampire = next(c for c in view.cards if c.crypt and c.zone == Zone.READY)
    assert default_bleed(vampire) == 1
    # An ally's printed bleed, from its record (one rule: the engine's offer of a bleed).
    for bleed in (0, 2):
        rec = next(r for r in every_record() if "Ally" in r.types and r.printed.bleed == bleed)
        ally = replace(vampire, crypt=False, types=("Ally",), card=identity(rec.id, 1), name=rec.name)
        assert default_bleed(ally) == bleed
    arika = replace(vampire, card=identity(card_base().named("Arika")[0], 1), name="Arika")
    assert default_bleed(arika) == 3  # a vampire's 1 and its "+2 bleed"
    names = ["Aksinya Daclau (G4)", "Nergal (G5)", "The Baron (G3)", "Carlton Van Wyk"]
    assert fit_names(names, 80) == "Aksinya Daclau, Nergal, The Baron, Carlton Van Wyk"
    assert fit_names(names, 35) == "Aksinya, Nergal, The Baron, Carlton"
    assert fit_names(names, 32) == "Aksinya,Nergal,The Baron,Carlton"
    for room in (24, 16, 10):
        fitted = fit_names(names, room)
        assert len(fitted) <= room and fitted.startswith("Aks"), (room, fitted)
    assert fit_names(names, 12).endswith("+2")


def _threatened(view: Any, pool: int, locked: bool = False, acting: int | None = None) -> Any:
    """``view`` with this seat's pool at ``pool`` and one vampire of its predator ready (locked
    if ``locked``), every other of its ready minions locked; ``acting``: whose turn it is then
    (the predator's minion phase when given)."""
    pred = view.players[0].predator
    vampire = next(c for c in view.cards if c.crypt and c.zone in (Zone.READY, Zone.TORPOR))
    mine = replace(vampire, controller=pred, owner=pred, zone=Zone.READY, locked=locked, pos=(99999, 0))
    cards = tuple(c for c in view.cards if not (c.controller == pred and c.zone == Zone.READY))
    me = replace(view.players[0], pool=pool)
    turn = {} if acting is None else {"acting": acting, "phase": Phase.MINION}
    return replace(view, players=(me, *view.players[1:]), cards=(*cards, mine), **turn)


def test_your_pool_is_marked_when_your_predator_could_oust_you(late) -> None:
    view = late.view()
    names = NAMES[: view.seats]
    pred = view.players[0].predator
    assert view.acting != pred
    assert oust_threat(_threatened(view, 1)) == 1
    line = _lines(methuselah_lines(_threatened(view, 1), names))[1]
    assert line.startswith("▶ Mina (you)") or line.startswith("  Mina (you)")
    assert f"1{DANGER}" in line and f"{DANGER} predator can oust you" in line and len(line) <= 78
    assert sum(DANGER in line for line in _lines(methuselah_lines(_threatened(view, 1), names))) == 1
    # Before its turn, a locked minion of the predator counts (its unlock phase unlocks it); in
    # its turn, past the unlock phase, it has acted and does not; nor does two pool for one bleed.
    assert oust_threat(_threatened(view, 1, locked=True)) == 1
    assert oust_threat(_threatened(view, 1, locked=True, acting=pred)) is None
    assert oust_threat(_threatened(view, 1, acting=pred)) == 1
    for safe in (_threatened(view, 2), _threatened(view, 1, locked=True, acting=pred)):
        assert oust_threat(safe) is None
        assert DANGER not in str(methuselah_lines(safe, names))
    # A spectator has no pool to lose.
    assert oust_threat(replace(_threatened(view, 1), seat=None)) is None


async def test_the_mark_on_your_pool_at_80x24_and_on_the_linux_console(late) -> None:
    """Your pool down to what your predator's ready minions bleed: the mark is on the screen;
    on the console (``TERM=linux`` or ``--ascii``) it is drawn with the console's ``!``, and the
    whole VTES screen with characters the console's font has."""
    local = dealt_vtes(11)
    advance(local, _predator_ready)
    seat = local.seats[0]
    view = seat.view()
    pred = view.players[0].predator
    bleed = sum(default_bleed(c) for c in ready_minions(view, pred))
    act = {"do": "pool", "seat": 0, "delta": bleed - view.players[0].pool, "cause": "test"}
    local.submit(seat, "move", seat.move_body(act))
    while local.step():
        pass
    assert oust_threat(seat.view()) == bleed > 0
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"), auto=False)
    for console in (False, True):
        app = _app(session, console=console)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await _table(app, pilot)
            mark = "!" if console else DANGER
            await eventually(
                lambda m=mark: f"{m} predator can oust you" in "\n".join(_screen(app)), 10, "the mark", pilot=pilot
            )
            line = next(row for row in _screen(app) if "Mina (you)" in row and "predator" in row)
            assert f"{bleed}{mark}" in line, line
            assert "Mina" in shown(screen.query_one("#vt-players"))
            if console:
                drawn = set("".join(_screen(app)))
                assert drawn <= CONSOLE_FONT, sorted(drawn - CONSOLE_FONT)


def _screen(app: VampireApp) -> list[str]:
    """The lines the terminal shows now."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def inside(screen: Any, widget: Any) -> bool:
    return bool(screen.region.contains_region(widget.region))


async def test_your_turn_is_said_only_on_your_turn_of_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table waits on every Methuselah at any time (a card, a reaction), but the status line
    says "Your turn." only when the turn of play is this seat's: on another's turn it names whose
    turn it is, whatever the frame adds after it (a stalled seat), and in the deck step it asks
    for the deck."""
    import tui.screens.table as frame

    local = dealt_vtes(11)
    advance(local, _someone_elses_minion_phase)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"), auto=False)
    app = _app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        view = session.view()
        label = screen.query_one("#waiting", Label)
        acting = NAMES[view.acting]
        await eventually(lambda: shown(label).startswith(f"{acting}'s turn"), 10, "whose turn", pilot=pilot)
        assert "your turn" not in shown(label).lower() and not label.has_class("-your-turn")
        # What the frame adds after "Your turn." (a vote, a stalled seat) stays, after whose turn.
        stall = " Lisa has kept the table waiting 40 s: E votes to end the wait."
        monkeypatch.setattr(frame, "waiting_text", lambda table, me: "Your turn." + stall)
        screen.show_status(session.table, 0)
        assert shown(label) == f"{acting}'s turn; you may act too (a card, a reaction).{stall}"
        # The deck step: the table waits for this seat's deck, not for its turn.
        monkeypatch.setattr(screen, "_current_view", lambda: replace(view, step=Step.JOINING))
        screen.show_status(session.table, 0)
        assert shown(label).startswith("The table waits for your deck") and "turn" not in shown(label).lower()
        # On this seat's own turn of play, it is its turn.
        monkeypatch.setattr(screen, "_current_view", lambda: replace(view, acting=0))
        monkeypatch.setattr(frame, "waiting_text", lambda table, me: "Your turn.")
        screen.show_status(session.table, 0)
        assert shown(label) == "Your turn." and label.has_class("-your-turn")


async def test_a_narrow_table_cuts_a_long_vampire_name_never_its_blood_at_80x24(late) -> None:
    app = _app(late)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        board = screen.query_one("#vt-board", OptionList)
        rows = ["".join(seg.text for seg in board.render_line(y)).rstrip() for y in range(board.size.height)]
        cards = [c for c in late.view().cards if c.known and c.crypt and c.capacity]
        shown_cards = 0
        for row in rows:
            card = next((c for c in cards if c.name[:8] in row), None)
            if card is None:
                continue
            shown_cards += 1
            assert row.endswith(card_label(card, 0)[len(card.name) :]), row  # "8/11 blood · locked" stays whole
        assert shown_cards and any("…" in row for row in rows), rows  # a name was cut, not its numbers
