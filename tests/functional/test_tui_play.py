"""A person at the table, by keys only, against a real host and 3 bots over loopback TCP
(net.local, the code path of `vampire play`): a whole game to the end screen, an illegal pick
refused with its reason and never sent, and the log audited from the end screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.games.queen import GAME
from tests.support.local_play import TmpFactory
from tests.support.poll import eventually
from tests.support.tui import keys_for_act, shown
from tui.app import Start, VampireApp
from tui.games.queen.results import RoundEndScreen
from tui.games.queen.table import TableScreen
from tui.games.queen.widgets.hand import HandView
from tui.screens.audit import AuditScreen
from tui.screens.results import GameEndScreen
from tui.session import LocalTableSpec


def _app(tmp_path: Path, rounds: int = 1) -> tuple[VampireApp, TmpFactory]:
    factory = TmpFactory(tmp_path / "game.vtlog")
    spec = LocalTableSpec("Mina", ["heuristic", "heuristic", "random"], {"rounds": rounds})
    return VampireApp(Start("play", spec), factory=factory, name="Mina"), factory


def _my_turn(app: VampireApp) -> bool:
    """The table says "Your turn." (and the seat's own table agrees)."""
    screen = app.screen
    if not isinstance(screen, TableScreen):
        return False
    s = screen.session
    # "Your turn." (and, after a while, how long the table has waited for it).
    return shown(screen.query_one("#waiting")).startswith("Your turn.") and (s.seat, "move") in s.table.owed()


def _illegal_pick(view) -> list[int] | None:
    """Hand indexes of two cards of different numbers (never a set), if the hand has them."""
    hand = list(view.hand)
    for i in range(len(hand)):
        for j in range(i + 1, len(hand)):
            a, b = hand[i][1], hand[j][1]
            if a and b and not a.startswith("Q") and not b.startswith("Q") and a.split("-")[0] != b.split("-")[0]:
                return [i, j]
    return None


async def test_a_person_plays_a_whole_game_by_keys_to_the_end_screen_and_audits_it(tmp_path: Path) -> None:
    app, factory = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 30, "the table screen", pilot=pilot)
        for _ in range(400):
            await eventually(
                lambda: _my_turn(app) or isinstance(app.screen, (RoundEndScreen, GameEndScreen)),
                60,
                "my turn or the end of a round",
                pilot=pilot,
            )
            if isinstance(app.screen, GameEndScreen):
                break
            if isinstance(app.screen, RoundEndScreen):
                assert "is over" in shown(app.screen.query_one(".dialog-title"))
                await pilot.press("enter")
                continue
            screen = app.screen
            session = screen.session
            view = session.view()
            hand = screen.query_one(HandView)
            legal = GAME.legal_acts(view)
            # A pass when allowed keeps the game short; otherwise the first legal act.
            act = next((a for a in legal if a["do"] == "pass"), legal[0])
            title = shown(screen.query_one("#title"))  # it ends with the head: "head #35 1a2b-3c4d"
            await pilot.press(*keys_for_act(list(hand.cards), act))
            moved = lambda screen=screen, title=title: shown(screen.query_one("#title")) != title  # noqa: E731
            await eventually(moved, 30, "the move on the table", pilot=pilot)
        else:
            pytest.fail("the game did not end")
        end = app.screen
        text = " ".join(shown(w) for w in end.query("Static"))
        assert "Game over." in text
        assert "vampire audit" in text and "game.vtlog" in text
        # The log is audited from the end screen: the same checks as `vampire audit`.
        await pilot.press("a")
        await eventually(
            lambda: isinstance(app.screen, AuditScreen) and app.screen.report is not None, 60, "the audit", pilot=pilot
        )
        assert app.screen.report.code == 0
        assert shown(app.screen.query_one("#audit-verdict")).startswith("✓ CLEAN")
    assert factory.made and factory.made[0].sent


async def test_an_illegal_pick_says_why_before_enter_and_is_never_sent(tmp_path: Path) -> None:
    app, _factory = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: _my_turn(app), 60, "my turn", pilot=pilot)
        screen = app.screen
        session = screen.session
        hand = screen.query_one(HandView)
        pair = _illegal_pick(session.view())
        assert pair is not None, "a hand of 13 holds two different numbers"
        seq = session.table.seq
        keys = ["escape", "home"] + ["right"] * pair[0] + ["space"] + ["right"] * (pair[1] - pair[0]) + ["space"]
        await pilot.press(*keys)
        message = shown(screen.query_one("#pick"))
        assert message.startswith("✗ Cannot play that:"), message
        trick = session.table.gstate.trick
        reason = "exactly one card" if trick is not None and trick.hunter else "cards of one number"
        assert reason in message
        assert screen.check_action("play", ()) is False  # Enter leaves the footer; pressed, it says why
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert shown(screen.query_one("#pick")).startswith("✗ "), "Enter says why it plays nothing"
        # Nothing of this seat's went out (the bots' own entries may arrive meanwhile).
        assert session.sent == []
        assert not [e for e in session.table.entries[seq:] if session.table.seat_of(e.author) == session.seat]
        assert len(hand.picked_keys()) == 2
        # Unpicking one card makes the pick legal again: the line says what Enter would play.
        await pilot.press("space")
        assert shown(screen.query_one("#pick")).startswith(("✓ Enter", "✗ Cannot play that:"))


async def test_after_the_terminal_was_too_small_the_hand_takes_keys_again(tmp_path: Path) -> None:
    app, _ = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: _my_turn(app), 60, "my turn", pilot=pilot)
        screen = app.screen
        hand = screen.query_one(HandView)
        await eventually(lambda: screen.focused is hand, 10, "the hand to have focus", pilot=pilot)
        await pilot.resize_terminal(70, 20)
        await eventually(lambda: app.has_class("-too-small"), 5, "the too-small notice", pilot=pilot)
        await pilot.resize_terminal(80, 24)
        await eventually(
            lambda: not app.has_class("-too-small") and screen.focused is hand, 5, "the hand's focus back", pilot=pilot
        )
        assert not hand.picked
        await pilot.press("home", "space")
        assert len(hand.picked) == 1
        assert any(b.binding.key == "space" for b in app.active_bindings.values())


async def test_with_nothing_to_beat_the_lead_the_seat_passes_by_itself_without_p(tmp_path: Path) -> None:
    """The seat's driver makes the game's automatic pass (on by default): the person, who never
    presses p, passes in a trick where nothing of theirs beats the lead. The deal is random (the
    seats' keys are), and one round may hold no such trick: the game runs up to five rounds."""
    app, factory = _app(tmp_path, rounds=5)

    seen: list[Any] = []  # the table's session, once its screen showed: the round's end screen may follow at once

    def passed_by_itself() -> bool:
        screen = app.screen
        if isinstance(screen, TableScreen) and not seen:
            seen.append(screen.session)
        if not seen:
            return False
        table = seen[0].table
        names = list(table.names)
        return any(note.render(names) == "Mina passes." for note in table.notes)

    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 30, "the table screen", pilot=pilot)
        await eventually(lambda: app.screen.session.auto_pass is True, 30, "the seat, passing by itself", pilot=pilot)
        passed_by_itself()  # keeps the table's session
        for _ in range(300):
            await eventually(
                lambda: _my_turn(app) or passed_by_itself() or isinstance(app.screen, (RoundEndScreen, GameEndScreen)),
                60,
                "my turn, my pass or the end of the round",
                pilot=pilot,
            )
            if passed_by_itself() or isinstance(app.screen, GameEndScreen):
                break
            if isinstance(app.screen, RoundEndScreen):
                await pilot.press("enter")  # the next round
                await eventually(lambda: not isinstance(app.screen, RoundEndScreen), 30, "the next round", pilot=pilot)
                continue
            screen = app.screen
            legal = [a for a in GAME.legal_acts(screen.session.view()) if a["do"] != "pass"]
            assert legal, "a turn with only a pass is never the person's to take"
            title = shown(screen.query_one("#title"))
            await pilot.press(*keys_for_act(list(screen.query_one(HandView).cards), legal[0]))
            moved = lambda screen=screen, title=title: shown(screen.query_one("#title")) != title  # noqa: E731
            await eventually(moved, 30, "the move on the table", pilot=pilot)
        assert passed_by_itself(), "no trick left the person nothing but a pass"
    assert not any(act["do"] == "pass" for act in factory.made[0].sent)
