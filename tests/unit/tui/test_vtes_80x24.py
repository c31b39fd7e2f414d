"""At 80×24 every line of the VTES table reads whole (DESIGN.md, "Feel": nothing is cut off at
80×24): a referendum's long terms give up their last words, never the tally nor the keys; a vote's
sources, a long refusal and a combat's damage line wrap whole; an action line that wraps keeps the
impulse line under it; toasts sit over the players, not over the status and command lines; the
card panel names the card in its title so its rows are the card's text; a hand card too long for
its row keeps its cost.

Each test reads the screen as drawn (the rows of a widget's region), from a real table (one
process, bots; :mod:`tests.support.vtes_table`) whose seat view is given what the test needs (long
terms, many votes, a long name): the screen is the subject, not the engine."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from textual.widget import Widget

from engine.games.vtes.cards import card_base, identity
from engine.games.vtes.state import Vote
from engine.games.vtes.vocab import CombatStep, Poll, VoteSource, Zone
from tests.support.local_session import LocalGameSession
from tests.support.poll import eventually
from tests.support.tui import burst
from tests.support.vtes_table import keys_after_a_look, played_vtes, said
from tui.app import Start, VampireApp
from tui.games.vtes.fight_text import combat_lines, referendum_lines
from tui.games.vtes.present import hand_label
from tui.games.vtes.table import VtesTableScreen

TERMS = (
    "Scott gains 3 pool for each vampire of capacity 8 or more he controls, Mina gains 3 pool for "
    "each of hers, and every other Methuselah burns 1 pool at the end of this turn, as the card says"
)


def _polling(view: Any) -> bool:
    return view.referendum is not None and view.referendum.step == Poll.VOTING


def _my_damage_step(view: Any) -> bool:
    return view.combat is not None and view.combat.impulse == 0 and view.combat.step == CombatStep.DAMAGE


def _someone_elses_action(view: Any) -> bool:
    a = view.action
    return a is not None and a.actor != 0 and a.impulse == 0 and view.combat is None and view.referendum is None


class ChangedView(LocalGameSession):
    """A session whose seat view goes through ``change`` before the screen draws it."""

    change: Any = staticmethod(lambda view: view)

    def view(self) -> Any:
        return type(self).change(super().view())


def _app(until: Any, change: Any) -> tuple[VampireApp, Any]:
    local = played_vtes(until)
    session_class = type("Changed", (ChangedView,), {"change": staticmethod(change)})
    session = session_class(local, 0, log_path=Path("mina.vtlog"), auto=False)
    return VampireApp(Start("table", session), name="Mina"), session


def _rows(app: VampireApp) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def _read(app: VampireApp, widget: Widget) -> str:
    """The words ``widget`` shows on screen, its rows joined (wrapped words read as one line)."""
    r = widget.region
    return " ".join(" ".join(row[r.x : r.right] for row in _rows(app)[r.y : r.bottom]).split())


def _words(text: str) -> str:
    return " ".join(text.split())


async def _table(app: VampireApp, pilot: Any) -> VtesTableScreen:
    await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table", pilot=pilot)
    screen = app.screen
    assert isinstance(screen, VtesTableScreen)
    keys_after_a_look(app)
    return screen


async def _box(app: VampireApp, pilot: Any, session: Any, wid: str) -> tuple[VtesTableScreen, Widget, Any, list[str]]:
    """The table screen once shown, its box ``wid``, the seat's view it draws, the seats' names."""
    screen = await _table(app, pilot)
    return screen, screen.query_one(wid), session.view(), list(session.table.names)


def _long_referendum(view: Any) -> Any:
    r = view.referendum
    if r is None:
        return view
    vampires = [c for c in view.cards if c.crypt and c.name and c.zone == Zone.READY]
    votes = (
        Vote(r.caller, VoteSource.CALLING, r.card, 1, True),
        *(Vote(c.controller, VoteSource.TITLE, c.pos, 2, c.controller != 3) for c in vampires[:4]),
        Vote(3, VoteSource.EDGE, (), 1, False),
    )
    return replace(view, referendum=replace(r, terms=TERMS, votes=votes, done=(1,)))


async def test_long_terms_give_up_their_last_words_and_the_tally_and_keys_read_whole() -> None:
    app, session = _app(_polling, _long_referendum)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, box, view, names = await _box(app, pilot, session, "#vt-referendum")
        head, tally = referendum_lines(view, names, view.referendum)
        await eventually(lambda: _words(tally) in _read(app, box), 10, "the whole tally", pilot=pilot)
        shown = _read(app, box)
        assert len(_words(tally)) > 150  # a tally of three rows at 80 columns
        assert shown.endswith("V vote · . done") or shown.endswith(". done")
        cut = shown[: shown.index(_words(tally))].strip()
        assert cut.startswith("Referendum called by Scott:") and cut.endswith("…") and len(cut) < len(head)
        assert box.region.bottom <= screen.query_one("#vt-cmd").region.y


async def test_a_vote_hint_and_a_long_refusal_read_whole_under_the_table() -> None:
    app, session = _app(_polling, lambda view: view)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        line = screen.query_one("#vt-say")
        await pilot.press("V")
        await eventually(lambda: said(app).startswith("Enter votes"), 10, "the vote hint", pilot=pilot)
        await eventually(lambda: _read(app, line) == _words(said(app)), 10, "the hint whole", pilot=pilot)
        sources = "title: Nana Buruku, card: Kine Resources Contested, calling: Political Stranglehold, edge"
        why = "the terms burn 3 of your pool"
        screen.say(f"Enter votes against ({why}), or change it to for; from: {sources}.", False)  # four sources
        await eventually(lambda: _read(app, line).endswith(f"{sources}."), 10, "four sources whole", pilot=pilot)
        refusal = (
            "✗ Justine's Zafira (G7) cannot be played: a blood hunt referendum is not an action, so action "
            'modifiers and reaction cards cannot be played (rulebook, "The Blood Hunt"); and '
            "Zafira is locked: a locked minion cannot act, whatever its controller says about it"
        )
        screen.say(refusal, True)
        await eventually(lambda: _read(app, line) == _words(refusal), 10, "the refusal whole", pilot=pilot)
        assert line.region.height >= 3 and line.region.bottom <= screen.query_one("#vt-cmd").region.y


def _pressing(view: Any) -> Any:
    c = view.combat
    if c is None:
        return view
    return replace(view, combat=replace(c, press=c.acting))


async def test_a_combats_damage_line_reads_whole() -> None:
    app, session = _app(_my_damage_step, _pressing)
    async with app.run_test(size=(80, 24)) as pilot:
        _, box, view, names = await _box(app, pilot, session, "#vt-combat")
        head, detail = combat_lines(view, names, view.combat)
        assert len(head) + len(detail) > 4 * 78 - 78  # more rows than the box had before
        await eventually(lambda: _words(detail) in _read(app, box), 10, "the damage line whole", pilot=pilot)
        assert _read(app, box).startswith(_words(head)) and "…" not in _read(app, box)


def _long_actor(view: Any) -> Any:
    a = view.action
    if a is None:
        return view
    long = "Gelasia Fotiou, the Bride of the Antediluvian of the Long Night (G6)"
    cards = tuple(replace(c, name=long) if c.pos == a.minion else c for c in view.cards)
    return replace(view, cards=cards)


async def test_an_action_line_that_wraps_keeps_the_impulse_line_under_it() -> None:
    app, session = _app(_someone_elses_action, _long_actor)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        box = screen.query_one("#vt-action")
        await eventually(lambda: "Bride of the Antediluvian" in _read(app, box), 10, "the action", pilot=pilot)
        shown = _read(app, box)
        assert "impulse" in shown or "your impulse" in shown.lower(), shown
        assert box.region.height >= 4  # the action line wraps: the window line still shows
        assert box.region.bottom <= screen.query_one("#vt-cmd").region.y


async def test_a_toast_sits_over_the_players_not_over_the_status_and_command_lines() -> None:
    app, session = _app(_polling, lambda view: view)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await _table(app, pilot)
        screen.notify("The link to the host is down: connection refused (retrying in 2.0 s).", title="Connection")
        await eventually(lambda: len(screen.query("Toast")) == 1, 10, "the toast", pilot=pilot)
        toast = screen.query_one("Toast")
        await eventually(lambda: toast.region.height > 0, 10, "the toast drawn", pilot=pilot)
        for below in ("#status", "#vt-referendum", "#vt-say", "#vt-cmd"):
            widget = screen.query_one(below)
            assert not toast.region.overlaps(widget.region), below
        assert toast.region.y < screen.query_one("#vt-middle").region.y


def _long_card_in_hand(view: Any) -> Any:
    long = next(
        i
        for i in card_base().every_info()
        if len(i.name) >= 28 and i.kind == "library" and (i.pool_cost or i.blood_cost) and i.text
    )
    first = view.hand[0]
    card = replace(first, card=identity(long.id, 1), name=long.name, types=long.types, text=long.text)
    return replace(view, hand=(card, *view.hand[1:]))


async def test_the_card_panel_names_the_card_above_its_text_and_a_long_hand_card_keeps_its_cost() -> None:
    app, session = _app(_polling, _long_card_in_hand)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        hand = screen.query_one("#vt-hand")
        card = session.view().hand[0]
        cost = hand_label(card).rsplit(" · ", 1)[1]
        await eventually(lambda: cost in _read(app, hand), 10, "the cost in the hand", pilot=pilot)
        first_row = _rows(app)[hand.region.y + 1][hand.region.x : hand.region.right]
        assert first_row.rstrip(" │").endswith(f"… · {cost}"), first_row
        panel = screen.query_one("#vt-card")
        await eventually(lambda: panel.border_title == card.name, 10, "the card's name as the title", pilot=pilot)
        text = _read(app, screen.query_one("#vt-card-text"))
        assert card.name not in text and card.types[0] in text


def _turn_eleven(view: Any) -> bool:
    return view.turn >= 11


async def test_l_opens_a_long_game_log_at_its_end_with_a_windows_passes_as_one_line() -> None:
    app, session = _app(_turn_eleven, lambda view: view)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        names = list(session.table.names)
        notes = session.table.notes
        assert len(notes) > 100
        await pilot.press("L")
        await eventually(lambda: type(app.screen).__name__ == "CardBox", 10, "the log box", pilot=pilot)
        box = app.screen.query_one("#vt-box")
        last = _words(notes[-1].render(names))
        await eventually(lambda: last in _read(app, box), 10, "the last note on screen", pilot=pilot)
        assert box.scroll_y == box.max_scroll_y > 0
        text = app.screen.query_one("#vt-box-text").content.plain
        assert "Lisa, Justine, Mina and Scott pass" in text
        await pilot.press("escape")
        await eventually(lambda: app.screen is screen, 10, "the table again", pilot=pilot)


async def test_a_title_that_fits_one_row_takes_one_row_from_the_first_draw() -> None:
    """The first title is drawn before the screen's width is known (one long line, wrapped to two
    rows); refitted to the width it fits one row, and takes one: no blank row under it."""
    app, session = _app(_turn_eleven, lambda view: view)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        title = screen.query_one("#title")
        await eventually(lambda: "turn 1" in _rows(app)[0], 10, "the title", pilot=pilot)
        assert len(title.lines) == 1 and len(title.lines[0]) >= 76  # as long as a title gets at 80×24
        await eventually(lambda: title.region.height == 1, 10, "one row", pilot=pilot)
        assert screen.query_one("#vt-players").region.y == 1


async def test_v_and_the_keys_typed_after_it_in_one_burst_reach_the_vote_line() -> None:
    """``V`` and the keys typed right after it, as one burst a terminal delivers at once: the vote
    line opens with V's proposal before they arrive, and they are typed into it; Enter casts it
    (a vote, or done with none to cast)."""
    app, session = _app(_polling, lambda view: view)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        keys_after_a_look(app)
        cmd = screen.query_one("#vt-cmd")
        burst(app, "V  ")
        await eventually(lambda: cmd.has_focus and cmd.value.endswith("  "), 10, "the keys in the line", pilot=pilot)
        assert cmd.value.strip().startswith(("vote", "done")), cmd.value
        burst(app, "\r")
        await eventually(lambda: bool(session.submitted), 10, "the vote", pilot=pilot)
        assert session.submitted[-1]["do"] in ("vote", "done"), session.submitted
