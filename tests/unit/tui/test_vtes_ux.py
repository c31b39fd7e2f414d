"""What a newcomer at the VTES table relies on, at 80×24 on an in-process table: Tab moves the
focus between the hand, the table and the log (marked, and the card panel follows it); ``e`` shows
a card's whole text; a card that stays in play is played into play, and the line under the table
says what is left to do by hand; the command line gives the keys back after a command; a footer
key that can do nothing leaves the footer and, pressed, says why; ``L`` shows the whole log."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, OptionList

from engine.games.vtes.card_record import Coverage, record
from engine.games.vtes.cards import card_base
from engine.games.vtes.vocab import Phase, Zone
from tests.support.local_session import LocalGameSession
from tests.support.poll import eventually
from tests.support.tui import shown
from tests.support.vtes_table import influence_app, keys_after_a_look, master_app, said
from tui.app import VampireApp
from tui.games.vtes.menus import CardBox
from tui.games.vtes.passes import PASSES
from tui.games.vtes.table import VtesTableScreen

_app = influence_app
#: A table whose influence phase finds a location with a pool cost in Mina's hand.
LOCATION_SEED = 15
_say = said


def _card_panel(app: VampireApp) -> str:
    """The card panel's title (the card's name) and text."""
    return f"{app.screen.query_one('#vt-card').border_title}\n{shown(app.screen.query_one('#vt-card-text'))}"


async def _table(app: VampireApp, pilot: Any) -> VtesTableScreen:
    await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
    screen = app.screen
    assert isinstance(screen, VtesTableScreen)
    await eventually(lambda: screen.hand_card() is not None, 10, "the hand", pilot=pilot)
    return screen


async def test_tab_moves_the_focus_between_hand_table_and_log_and_the_card_panel_follows() -> None:
    app, session = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        view = session.view()
        hand = screen.query_one("#vt-hand", OptionList)
        board = screen.query_one("#vt-board", OptionList)
        assert screen.focused is hand and str(hand.border_title).startswith("▸ ")
        assert view.hand[0].name in _card_panel(app)
        # Tab: the table has the focus, marked; its highlight is on a vampire of yours, whose
        # disciplines and capacity the card panel shows.
        await pilot.press("tab")
        assert screen.focused is board and str(board.border_title).startswith("▸ ")
        assert not str(hand.border_title).startswith("▸ ")
        vampire = screen.selected_card()
        assert vampire is not None and vampire.controller == 0 and vampire.crypt
        assert vampire.name in _card_panel(app) and "capacity" in _card_panel(app)
        # ↓ moves the table's highlight, not the hand's; the panel follows it.
        hand_before = hand.highlighted
        await pilot.press("down")
        moved = screen.selected_card()
        assert hand.highlighted == hand_before and moved is not None and moved.pos != vampire.pos
        await eventually(lambda: (moved.name or "face-down") in _card_panel(app), 5, "the panel", pilot=pilot)
        # Tab again: the log; again: back to the hand, and the panel shows its card again.
        await pilot.press("tab")
        assert screen.focused is screen.query_one("#log") and str(screen.query_one("#log").border_title).startswith("▸")
        await pilot.press("tab")
        assert screen.focused is hand
        held = screen.hand_card()
        assert held is not None and held.name in _card_panel(app)
        # Shift+Tab goes the other way round.
        await pilot.press("shift+tab")
        assert screen.focused is screen.query_one("#log")


async def test_e_and_l_show_whole_texts_and_a_long_refusal_wraps_under_the_table() -> None:
    """``e`` shows the whole text of a hand card and of a vampire on the table, ``L`` the whole game
    log at its end, and a refusal too long for a line wraps under the table instead of being cut."""
    app, session = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        assert "e all" in str(screen.query_one("#vt-card").border_subtitle)
        for where in ("hand", "table"):
            if where == "table":
                await pilot.press("tab")
            card = screen.hand_card() if where == "hand" else screen.selected_card()
            assert card is not None and card.text
            await pilot.press("e")
            await eventually(lambda: isinstance(app.screen, CardBox), 5, "the card box", pilot=pilot)
            box = shown(app.screen.query_one("#vt-box-text"))
            assert card.name in box and " ".join(card.text.split()) in " ".join(box.split()), where
            await pilot.press("escape")
            await eventually(lambda: app.screen is screen, 5, "the table again", pilot=pilot)
        # L shows the whole game log, at its end.
        notes = session.table.notes
        names = list(session.table.names)
        await pilot.press("L")
        await eventually(lambda: isinstance(app.screen, CardBox), 5, "the log box", pilot=pilot)
        box = " ".join(shown(app.screen.query_one("#vt-box-text")).split())
        # Every note of the last ten but a window's passes (those read folded, "Ana and Ben pass").
        assert all(" ".join(n.render(names).split()) in box for n in notes[-10:] if n.news not in PASSES)
        assert len(notes) > 20  # more than the log panel's few lines
        scroll = app.screen.query_one("#vt-box")
        await eventually(lambda: scroll.scroll_y == scroll.max_scroll_y > 0, 5, "at the end", pilot=pilot)
        await pilot.press("escape")
        await eventually(lambda: app.screen is screen, 5, "the table again", pilot=pilot)
        # A long refusal wraps under the table instead of being cut.
        await pilot.press("colon", *"bleed 2 Gelasia Fotiou", "enter")
        await eventually(lambda: "neither a minion of yours" in _say(app), 10, "the refusal", pilot=pilot)
        say = screen.query_one("#vt-say")
        await eventually(lambda: say.size.height >= 2, 5, "two lines", pilot=pilot)
        assert len(_say(app)) > 78 and len(_say(app)) <= say.size.height * say.content_region.width
        # The next key makes room again: one line, the turn.
        await pilot.press("escape", "tab")
        await eventually(lambda: say.size.height == 1, 5, "one line again", pilot=pilot)


def _master_in_play(session: LocalGameSession) -> Any:
    """A hand card that is put in play (a location or "Put this card in play"), with a pool cost."""
    base = card_base()
    for card in session.view().hand:
        info = base.by_id(int(card.card.split("-")[0]))
        cost = getattr(info, "cost", None)
        stays = "location" in card.text.lower() or "put this card in play" in card.text.lower()
        if stays and cost is not None and str(cost.type.value) == "Pool":
            return card
    raise AssertionError(f"seed {LOCATION_SEED} deals Mina a location with a pool cost")


async def test_p_puts_a_card_that_stays_in_play_into_play_and_says_what_is_left() -> None:
    app, session = master_app(LOCATION_SEED)  # a master card is played in the master phase
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        keys_after_a_look(app)  # a person looks before the next key: the key guard has lapsed
        card = _master_in_play(session)
        hand = screen.query_one("#vt-hand", OptionList)
        hand.highlighted = hand.get_option_index(f"h-{card.pos[0]}-{card.pos[1]}")
        await pilot.pause()
        await pilot.press("p", "p")  # the first names the card, the second plays it
        await eventually(lambda: not screen.submitting and session.submitted, 10, "the play", pilot=pilot)
        played = next(c for c in session.view().cards if c.pos == card.pos)
        assert played.zone == Zone.READY and played.controller == 0  # not the ash heap
        assert session.submitted[-1]["to"] == "ready" and session.submitted[-1]["pool"] > 0  # the key pays it
        rec = record(card.card)
        if rec is not None and rec.coverage == Coverage.FULLY:  # the table applies it all: nothing is left
            assert "pay its cost" not in _say(app) and "by hand" not in _say(app), _say(app)
            return
        await eventually(lambda: "is played" in _say(app), 10, "what is left", pilot=pilot)
        assert "stays in play" in _say(app) and "pay its cost" not in _say(app)


async def test_a_played_card_with_a_cost_is_paid_by_the_command_and_the_keys_come_back_after_it() -> None:
    app, session = master_app(LOCATION_SEED)  # a master card is played in the master phase
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        keys_after_a_look(app)  # a person looks before the next key: the key guard has lapsed
        card = _master_in_play(session)
        hand = screen.query_one("#vt-hand", OptionList)
        cmd = screen.query_one("#vt-cmd", Input)
        await pilot.press("colon", *f"play {card.name}", "enter")
        await eventually(
            lambda: session.submitted and session.submitted[-1]["do"] == "play", 10, "the play", pilot=pilot
        )
        assert session.submitted[-1]["pool"] > 0 and "pay its cost" not in _say(app)  # the command pays it
        # The command went out: the focus is back on the hand, the line empty, the keys act again.
        assert screen.focused is hand and cmd.value == ""
        await eventually(lambda: not screen.submitting, 10, "settled", pilot=pilot)
        await pilot.press("n")
        await eventually(lambda: session.view().phase != Phase.MASTER, 10, "the next phase", pilot=pilot)
        assert cmd.value == "" and session.submitted[-1] == {"do": "phase"}
        # The note stays until the next key: then the turn line is back.
        await eventually(lambda: "Turn" in _say(app), 10, "the turn line", pilot=pilot)


async def test_the_focus_goes_back_to_the_table_after_a_command_typed_from_there() -> None:
    app, session = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        await pilot.press("tab")
        board = screen.focused
        assert board is screen.query_one("#vt-board")
        await pilot.press("colon", *"pool +1", "enter")
        await eventually(lambda: screen.focused is board, 10, "the table's focus back", pilot=pilot)
        # A refused command keeps the line, selected, to be mended.
        await pilot.press("colon", *"pool 0", "enter")
        await eventually(lambda: "✗" in _say(app), 10, "the refusal", pilot=pilot)
        assert screen.focused is screen.query_one("#vt-cmd")


async def test_bleed_and_transfer_leave_the_footer_when_they_cannot_act_and_say_why() -> None:
    app, session = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        keys_after_a_look(app)  # a person reads a refusal before the next key: the key guard has lapsed
        # The influence phase: transfers yes, a bleed no (it is an action of the minion phase).
        assert screen.check_action("act", ("transfer",)) is True
        assert screen.check_action("act", ("bleed",)) is False
        sent = len(session.submitted)
        await pilot.press("b")
        await eventually(lambda: "✗" in _say(app), 10, "why not", pilot=pilot)
        assert len(session.submitted) == sent
        # The discard phase: no transfer any more; t says why, and sends nothing.
        await pilot.press("n")
        await eventually(lambda: session.view().phase == Phase.DISCARD, 10, "discard phase", pilot=pilot)
        await eventually(lambda: screen.check_action("act", ("transfer",)) is False, 10, "t gone", pilot=pilot)
        sent = len(session.submitted)
        await pilot.press("t")
        await eventually(lambda: "✗" in _say(app), 10, "why not", pilot=pilot)
        assert len(session.submitted) == sent
        shown_keys = {k for k, b in screen.active_bindings.items() if b.binding.show and b.enabled}
        assert "t" not in shown_keys and "b" not in shown_keys and "n" in shown_keys


async def test_p_away_from_the_hand_names_the_card_first_and_a_second_p_plays_it() -> None:
    # With the table or the log focused, the card panel shows another card than the one p plays.
    app, session = master_app(LOCATION_SEED)  # a master card is played in the master phase
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        keys_after_a_look(app)  # a person looks before the next key: the key guard has lapsed
        card = _master_in_play(session)
        hand = screen.query_one("#vt-hand", OptionList)
        hand.highlighted = hand.get_option_index(f"h-{card.pos[0]}-{card.pos[1]}")
        await pilot.pause()
        await pilot.press("tab")  # the table
        await pilot.press("p")
        await eventually(lambda: "p again plays it" in _say(app), 5, "the card named", pilot=pilot)
        assert card.name in _say(app) and not session.submitted
        # The focus moved meanwhile: the next p names the card again instead of playing it.
        await pilot.press("tab", "shift+tab")
        await pilot.press("p")
        await pilot.pause()
        assert not session.submitted and "p again plays it" in _say(app)
        await pilot.press("p")
        await eventually(lambda: not screen.submitting and session.submitted, 10, "the play", pilot=pilot)
        assert session.submitted[-1]["card"] == card.as_list()


async def test_p_from_the_hand_names_the_card_first_as_from_the_table() -> None:
    # The hand's highlight moves under the player (a play, a draw): with the hand focused too, the
    # first p names the card it would play, and only a second p plays it.
    app, session = master_app(LOCATION_SEED)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot)
        keys_after_a_look(app)
        card = _master_in_play(session)
        hand = screen.query_one("#vt-hand", OptionList)
        hand.focus()
        hand.highlighted = hand.get_option_index(f"h-{card.pos[0]}-{card.pos[1]}")
        await pilot.pause()
        await pilot.press("p")
        await eventually(lambda: "p again plays it" in _say(app), 5, "the card named", pilot=pilot)
        assert card.name in _say(app) and "Tab shows your hand" not in _say(app) and not session.submitted
        await pilot.press("p")
        await eventually(lambda: not screen.submitting and session.submitted, 10, "the play", pilot=pilot)
        assert session.submitted[-1]["card"] == card.as_list()
