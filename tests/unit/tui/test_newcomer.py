"""What a newcomer met playing at 80×24 with only the README: every home form whole, progress and
waiting lines in whole words, the help read cleanly, prompts that never offer an impossible move,
keys pressed quickly acted on in order, the way back to a log and to a seat said after quitting.

The tables are the reproducible in-process ones of :mod:`tests.support.local_session`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button

from tests.support.local_session import LocalGameSession, advance, build_local, played_local, queen_only_a_pass
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.app import Start, VampireApp
from tui.screens.home import HomeScreen

THREE = [None, "heuristic", "random"]


@pytest.fixture(autouse=True)
def no_recent_logs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.screens.home.recent_logs", lambda *a, **k: [])


def _frozen(until: Any, levels: list[str | None] = THREE, rounds: int = 2, **kw: Any) -> LocalGameSession:
    local = played_local(3, levels, {"rounds": rounds, **kw.pop("options", {})}, until)
    return LocalGameSession(local, 0, log_path=Path("mina.vtlog"), auto=False, **kw)


@pytest.mark.parametrize("form", ["play", "host", "join", "replay", "audit", "quit"])
async def test_every_home_form_and_its_button_are_whole_at_80x24(form: str) -> None:
    app = VampireApp(name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "home", pilot=pilot)
        for game in app.screen.fronts:  # each game's fields, where the form has a choice of game
            if form in ("play", "host") and len(app.screen.fronts) > 1:
                app.screen.query_one(f"#{form}-game").value = game.name
            from textual.widgets import ContentSwitcher

            app.screen.query_one(ContentSwitcher).current = form
            await pilot.pause()
            await pilot.pause()
            button = app.screen.query_one(f"#{form}-go", Button)
            region = button.region
            assert region.height == 3 and region.bottom <= 24 - 2, (game.name, region)  # above the border and footer


def screen_text(app: VampireApp) -> list[str]:
    """The lines the terminal shows now."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def _status_rows(app: VampireApp) -> str:
    """The status line's rows, joined by spaces (a wrapped line reads as one)."""
    label = app.screen.query_one("#waiting")
    rows = screen_text(app)[label.region.y : label.region.bottom]
    return " ".join(r[label.region.x : label.region.right].strip() for r in rows)


async def test_a_deal_s_progress_line_keeps_its_words_whole_at_80_columns() -> None:
    from tui.games.queen.table import TableScreen
    from tui.table_text import work_progress

    local = build_local(3, [None, "heuristic", "heuristic", "random"], {"rounds": 1})
    seen = ""
    for _ in range(2000):  # until a bot shuffles for the first round: the longest line of a deal
        progress = work_progress(local.table, {}, 0)
        if progress is not None and progress.text.startswith("Shuffling for round 1: Lisa"):
            seen = progress.text
            break
        assert local.step()
    assert seen
    session = LocalGameSession(local, 0, auto=False)
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        await eventually(lambda: "Lisa" in _status_rows(app), 10, "the progress line", pilot=pilot)
        words = _status_rows(app)
        now = work_progress(session.table, {}, 0)
        assert now is not None and len(now.text) > 60  # longer than the room left of the bar
        assert now.text.split(" (")[0] in words, words
        assert app.screen.query_one("#work").display


def _lead(local: Any) -> bool:
    state = local.table.gstate
    return state.phase == "play" and state.trick is None and state.turn == 0


async def test_f1_reads_cleanly_at_80_columns_and_names_home_end_and_the_head() -> None:
    from tui.games.queen.table import TableScreen
    from tui.screens.help import HelpScreen

    app = VampireApp(Start("table", _frozen(_lead)), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        await pilot.press("f1")
        await eventually(lambda: isinstance(app.screen, HelpScreen), 10, "the help", pilot=pilot)
        await pilot.pause()
        static = app.screen.query_one("#help Static")
        from rich.text import Text

        plain = Text.from_markup(shown(static)).plain
        lines = plain.split("\n")
        # No line is wrapped by the dialog: the text is as many rows high as it has lines.
        assert static.region.height == len(lines), [ln for ln in lines if len(ln) > static.region.width]
        text = " ".join(plain.split())
    assert "Home End to the first / last card" in text
    assert "head #N 1a2b-… (title): the log's fingerprint" in text
    assert "the holder of Hunter 20 leads the first trick of that round" in text


async def test_the_prompt_never_offers_a_play_the_rules_do_not_allow() -> None:
    from tui.games.queen.table import TableScreen

    local = build_local(1, [None, "heuristic", "heuristic", "random"], {"rounds": 1})
    advance(local, 0, queen_only_a_pass)
    session = LocalGameSession(local, 0, auto=False)
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        await eventually(lambda: shown(app.screen.query_one("#pick")), 10, "the prompt", pilot=pilot)
        line = shown(app.screen.query_one("#pick"))
    assert line.startswith("p passes: you cannot beat "), line
    assert "or pass (p)" not in line


async def test_space_then_enter_at_once_plays_the_picked_card() -> None:
    """Space and Enter pressed in one burst: Enter plays the card Space picked, although the pick's
    message may not have reached the screen yet when Enter arrives."""
    from textual import events

    from tui.games.queen.table import TableScreen
    from tui.games.queen.widgets.hand import HandView

    session = _frozen(_lead)
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        hand = app.screen.query_one(HandView)
        await eventually(lambda: hand.cards and hand.cards[0].ident, 10, "the hand", pilot=pilot)
        hand.focus()
        await pilot.pause()
        first = hand.cards[0].key
        # Both keys queued before either is handled, as a quick typist's terminal sends them.
        app.post_message(events.Key("space", " "))
        app.post_message(events.Key("enter", "\r"))
        await eventually(lambda: session.submitted, 10, "the move", pilot=pilot)
    assert session.submitted == [{"do": "play", "cards": [list(first)]}]


def test_the_command_is_written_the_way_this_person_runs_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil
    import sys

    from tui.files import vampire_command

    script = tmp_path / ".venv" / "bin" / "vampire"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [str(script), "play"])
    # Not on the PATH (scripts/play runs .venv/bin/vampire): its path, from the working directory.
    monkeypatch.setattr(shutil, "which", lambda name, path=None: None)
    assert vampire_command() == ".venv/bin/vampire"
    # Another program of that name on the PATH: still this one's path.
    monkeypatch.setattr(shutil, "which", lambda name, path=None: "/usr/bin/vampire")
    assert vampire_command() == ".venv/bin/vampire"
    # This very program on the PATH: its name.
    monkeypatch.setattr(shutil, "which", lambda name, path=None: str(script))
    assert vampire_command() == "vampire"


def _over(local: Any) -> bool:
    return local.table.gstate.phase == "over"


async def test_a_game_that_ended_shows_the_audit_command_uncovered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tui.screens.results import GameEndScreen
    from tui.session import SessionEvent

    monkeypatch.setattr("tui.screens.results.vampire_command", lambda: ".venv/bin/vampire")
    session = _frozen(_over, rounds=1)
    app = VampireApp(Start("table", session), name="Mina")
    said: list[str] = []
    notify = app.notify
    app.notify = lambda message, **kw: (said.append(message), notify(message, **kw))[1]  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        from tui.games.queen.results import RoundEndScreen

        await eventually(lambda: isinstance(app.screen, RoundEndScreen), 10, "the last round's end", pilot=pilot)
        await pilot.press("enter")
        session._emit(SessionEvent("closed", text="Mina wins with 12."))  # the table's end, as a session says it
        await eventually(lambda: isinstance(app.screen, GameEndScreen), 10, "the end screen", pilot=pilot)
        await pilot.pause()
        words = " ".join(shown(s) for s in app.screen.query("Static"))
    assert ".venv/bin/vampire audit mina.vtlog" in words
    assert said == []


async def test_the_host_reads_who_left_in_the_log_and_what_a_vote_to_end_the_wait_does() -> None:
    from tui.games.queen.table import TableScreen
    from tui.session import SessionEvent

    session = _frozen(_lead, options={"stall_seconds": 0})  # the session's report opens the vote
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        screen = app.screen
        lead = next(a for a in session.local.seats[0].legal_acts() if a["do"] == "play")
        await session.submit_move(lead)  # the bots are frozen: the table now waits for Lisa
        await eventually(lambda: "Lisa" in _status_rows(app), 10, "waiting for Lisa", pilot=pilot)
        session._emit(SessionEvent("presence", text="Lisa left the table (and can come back).", ok=False))
        session._emit(SessionEvent("waiting", seats=(1,)))  # the host: Lisa keeps the table waiting
        log = screen.query_one("#log")
        await eventually(
            lambda: any("Lisa left the table (and can come back)." in s.text for s in log.lines),
            10,
            "the log",
            pilot=pilot,
        )
        await eventually(lambda: "E votes" in _status_rows(app), 10, "the abandon offer", pilot=pilot)
        assert "Lisa has kept the table waiting" in _status_rows(app)
        assert _status_rows(app).endswith("E votes to end the wait."), _status_rows(app)  # whole, not cut
        await pilot.press("E")
        await eventually(lambda: "no winner" in _status_rows(app), 10, "what the vote does", pilot=pilot)
        assert (
            "You voted to end the wait for Lisa: if every other player votes so too, the game ends with no winner."
            in _status_rows(app)
        )
        session._emit(SessionEvent("presence", text="Lisa is back.", ok=True))
        await eventually(lambda: any("Lisa is back." in s.text for s in log.lines), 10, "back, in the log", pilot=pilot)


async def test_a_full_lobby_offers_no_bot_and_forgets_the_open_seats_notice() -> None:
    from tui.screens.lobby import LobbyScreen

    levels = [None, "heuristic", "heuristic", "random"]
    session = LocalGameSession(build_local(5, levels, start=False, seated=3), 0, auto=False)
    app = VampireApp(Start("lobby", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
        assert "b Bot" in screen_text(app)[-1]
        await pilot.press("s")  # one seat is open: s says so
        await eventually(
            lambda: any("1 seat is still open" in n.message for n in app._notifications), 10, "the notice", pilot=pilot
        )
        await pilot.press("b")
        await eventually(lambda: len(session.table.seats) == 4, 10, "a full table", pilot=pilot)
        await eventually(
            lambda: not any("still open" in n.message for n in app._notifications), 1, "the notice gone", pilot=pilot
        )
        await pilot.pause()
        footer = screen_text(app)[-1]
        assert "Bot" not in footer and "Random bot" not in footer, footer
        assert "s Start" in footer


@pytest.mark.parametrize("which", ["replay", "audit"])
async def test_esc_on_the_replay_or_audit_the_command_opened_exits(
    which: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tui.screens.audit import AuditScreen
    from tui.screens.replay import ReplayScreen

    monkeypatch.chdir(tmp_path)
    path = Path("game.vtlog")
    local = build_local(2, ["heuristic"] * 3, {"rounds": 1}, save=path)
    local.run()
    local.host.log.close()
    kind = ReplayScreen if which == "replay" else AuditScreen
    app = VampireApp(Start(which, path), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, kind), 10, which, pilot=pilot)
        await pilot.press("escape")
        await eventually(lambda: app._exit, 10, "the program's exit", pilot=pilot)
        assert not isinstance(app.screen, HomeScreen)
    assert (app.return_code or 0) == 0
    # Opened from the home screen, Esc goes back there.
    app = VampireApp(name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "home", pilot=pilot)
        (app.open_replay if which == "replay" else app.open_audit)(path)
        await eventually(lambda: isinstance(app.screen, kind), 10, which, pilot=pilot)
        await pilot.press("escape")
        await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "home again", pilot=pilot)


def test_recent_logs_of_two_games_played_here_name_their_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from engine.protocol.log import LOG_MAGIC, encode_frame
    from tests.support.vtes_table import build_vtes
    from tui.files import log_label

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    logs = tmp_path / "vampire-table" / "logs"
    logs.mkdir(parents=True)
    queen = logs / "20261130-175756-1.vtlog"
    local = build_local(2, ["heuristic"] * 3, {"rounds": 1}, save=queen, start=False)
    local.host.log.close()
    vtes = logs / "20261130-175756-2.vtlog"
    genesis = build_vtes(1).host.table.entries[0]
    vtes.write_bytes(LOG_MAGIC + encode_frame(genesis))
    for path in (queen, vtes):
        os.utime(path, (1_800_000_000, 1_800_000_000))  # played at the same minute
    labels = [log_label(queen), log_label(vtes)]
    assert labels[0] != labels[1]
    assert labels[0].endswith("Vampire Queen · played here") and labels[1].endswith("VTES · played here"), labels
    assert all(len(label) <= 46 for label in labels)


def test_after_quitting_the_shell_says_where_the_log_is_and_how_a_guest_comes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from types import SimpleNamespace

    from tui.cli import _farewell
    from tui.farewell import farewell_lines

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("tui.farewell.vampire_command", lambda: ".venv/bin/vampire")
    host = _frozen(_lead)  # a table on this computer, its log in mina.vtlog
    _farewell(SimpleNamespace(last_session=host))
    assert capsys.readouterr().out.splitlines() == [
        "The table's log: mina.vtlog",
        "Replay it: .venv/bin/vampire replay mina.vtlog",
    ]
    guest = _frozen(_lead, is_host=False, address="192.168.1.5:7447")
    assert farewell_lines(guest)[-1] == ("Your seat waits for you: .venv/bin/vampire join 192.168.1.5:7447 --name Mina")
    hosted = _frozen(_lead, is_host=True, address="192.168.1.5:7447")
    # the table comes back where its guests joined it, not on the defaults
    assert farewell_lines(hosted)[-1] == (
        "Bring the table back: .venv/bin/vampire host --resume mina.vtlog --bind 192.168.1.5 --port 7447 --name Mina"
    )
    over = _frozen(_over, rounds=1, is_host=False, address="192.168.1.5:7447")
    assert not any("join" in line for line in farewell_lines(over))  # no seat to come back to
    assert farewell_lines(None) == []


async def test_the_end_of_a_round_says_what_its_mark_means() -> None:
    from tui.games.queen.results import RoundEndScreen

    def _first_round_over(local: Any) -> bool:
        return len(local.table.gstate.round_scores) >= 1

    app = VampireApp(Start("table", _frozen(_first_round_over, rounds=2)), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, RoundEndScreen), 10, "the round's end", pilot=pilot)
        await pilot.pause()
        text = " ".join(" ".join(screen_text(app)).split())
    # The mark is the standings' (lowest total so far), never "leads": the trick panel says who
    # leads the next trick, and the two must not read as a contradiction.
    assert "◆ marks the lowest total so far." in text and "◆ lowest total" in text
    assert "◆ leads" not in text
