"""A table that explains itself: the rules and the table's own options in F1, keys that say why
they do nothing, quitting that asks first, every screen whole at 80×24, the lobby's keys, the
Linux console's characters, the running-totals chart and the deal's progress.

The tables are the reproducible in-process ones of :mod:`tests.support.local_session` (fixed keys,
bots and clock), frozen (``auto=False``) unless a test plays on.
"""

from __future__ import annotations

import os
import random
import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from textual.widgets import DataTable

from engine.errors import VampireError
from engine.games import find_game
from engine.games.queen.rules import Play, Trick
from tests.support.local_session import LocalGameSession, advance, build_local, played_local
from tests.support.poll import eventually
from tests.support.tui import settled, shown
from tui.app import Start, VampireApp
from tui.games.queen.present import seat_rows
from tui.games.queen.results import RoundEndScreen, running_chart
from tui.games.queen.table import TableScreen
from tui.games.queen.widgets.gamelog import GameLog
from tui.games.queen.widgets.trick import TrickView
from tui.glyphs import console_mode
from tui.screens.help import HelpScreen
from tui.screens.home import HomeScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.quit import QuitScreen, quit_consequence
from tui.screens.replay import ReplayScreen
from tui.screens.results import GameEndScreen
from tui.table_text import work_progress

THREE = [None, "heuristic", "random"]
PERSON = [None, "heuristic", "heuristic", "random"]

#: The characters a Linux console font draws (code page 437): kept here, apart from the code that
#: swaps the others, so that the check below is not the code checking itself.
CONSOLE_FONT = frozenset(
    "☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼⌂"
    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"
    "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌"
    "█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0"
)


def screen_text(app: VampireApp) -> list[str]:
    """The lines the terminal shows now (the top screen over the ones under it)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def _frozen(until: Any, levels: list[str | None] = THREE, rounds: int = 2, **kw: Any) -> LocalGameSession:
    options = {"rounds": rounds, **kw.pop("options", {})}
    local = played_local(3, levels, options, until, names=kw.pop("names", None))
    return LocalGameSession(local, 0, log_path=Path("mina.vtlog"), auto=False, **kw)


def _lead(local: Any) -> bool:
    state = local.table.gstate
    return state.phase == "play" and state.trick is None and state.turn == 0


def _mid(local: Any) -> bool:
    trick = local.table.gstate.trick
    return trick is not None and not trick.hunter and len(trick.plays) >= 2


def _round_over(local: Any) -> bool:
    return len(local.table.gstate.round_scores) >= 1


def _over(local: Any) -> bool:
    return local.table.gstate.phase == "over"


# --- the rules on screen --------------------------------------------------------------------------


async def test_f1_at_a_table_says_the_rules_a_newcomer_needs_and_this_tables_options() -> None:
    session = _frozen(_lead, options={"hunter_tie": "first", "queen_in_hunter_trick": 1})
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        await pilot.press("f1")
        await eventually(lambda: isinstance(app.screen, HelpScreen), 10, "the help", pilot=pilot)
        text = " ".join(shown(app.screen.query_one("#help Static")).split())
    for rule in (
        "Nobody plays twice in a trick",
        "A tie goes to the card played later",
        "You may not lead the hunter you have just taken",
        "Hunters stay with their holder into the next round",
        # This table's options, in words, with their values.
        "The game lasts 2 rounds.",
        "A Queen played into a hunter trick counts 1.",
        "A tie in a hunter trick goes to the card played first.",
        "Tied lowest totals share the win.",
        "vampire rules",
    ):
        assert rule in text, rule


def test_help_lists_every_table_rule_with_its_values() -> None:
    from tui.cli import build_parser

    parser = build_parser()
    play = parser._subparsers._group_actions[0].choices["play"]  # type: ignore[union-attr]
    text = play.format_help()
    for line in ("--rule hunter_tie=VALUE", "default last; allowed: last | first", "--rule rounds=VALUE"):
        assert line in text


# --- keys that say why ----------------------------------------------------------------------------


async def test_p_on_your_lead_and_enter_with_nothing_picked_say_why() -> None:
    app = VampireApp(Start("table", _frozen(_lead)), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        screen = app.screen
        footer = screen_text(app)[-1]
        assert "Pass" not in footer and "Play" not in footer  # neither can do anything now
        await pilot.press("p")
        assert "You lead, so you cannot pass" in shown(screen.query_one("#pick"))
        await pilot.press("enter")
        assert "Nothing picked" in shown(screen.query_one("#pick"))
        assert screen.session.submitted == []
        await pilot.press("space")  # a pick: the line says what Enter plays again
        assert "✓ Enter" in shown(screen.query_one("#pick"))
        assert "Play" in screen_text(app)[-1]


async def test_e_with_no_wait_to_end_says_when_it_does_something() -> None:
    app = VampireApp(Start("table", _frozen(_lead)), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        await pilot.press("E")
        await eventually(
            lambda: any("Nobody keeps the table waiting now" in n.message for n in app._notifications),
            5,
            "why E does nothing",
            pilot=pilot,
        )
        assert "End the wait" not in screen_text(app)[-1]  # not offered while it can do nothing


async def test_p_in_a_hunter_trick_says_nobody_passes() -> None:
    def hunter(local: Any) -> bool:
        trick = local.table.gstate.trick
        return trick is not None and bool(trick.hunter)

    app = VampireApp(Start("table", _frozen(hunter, PERSON)), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        assert "Pass" not in screen_text(app)[-1]
        await pilot.press("p")
        assert "Nobody passes in a hunter trick" in shown(app.screen.query_one("#pick"))


async def test_a_lone_queen_has_one_wording_in_the_trick_box_and_the_prompt() -> None:
    session = _frozen(_mid)
    state = session.table.gstate
    trick = state.trick
    queen = Trick(trick.leader, 0, (Play(trick.leader, ("Q-0",), 14),), trick.waiting)
    session.local.seats[0].table.gstate = replace(state, trick=queen)  # what the screen reads
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        box = shown(app.screen.query_one(TrickView))
        prompt = shown(app.screen.query_one("#pick"))
    assert box.startswith("Beat a Queen, or pass")
    assert "beat a Queen" in prompt  # nothing beats it: the prompt says so, in the same words
    assert "14" not in box.splitlines()[0]


async def test_quitting_mid_game_asks_first_and_a_chosen_quit_exits_0() -> None:
    app = VampireApp(Start("table", _frozen(_lead)), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        await pilot.press("ctrl+q")
        await eventually(lambda: isinstance(app.screen, QuitScreen), 10, "the question", pilot=pilot)
        assert any("the game stops here" in line for line in screen_text(app))
        await pilot.press("n")
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "back at the table", pilot=pilot)
        await pilot.press("ctrl+q")
        await eventually(lambda: isinstance(app.screen, QuitScreen), 10, "the question again", pilot=pilot)
        await pilot.press("y")
        await eventually(lambda: app.return_code is not None, 10, "the app to quit", pilot=pilot)
    assert app.return_code == 0


def test_quitting_says_what_it_does_to_the_others() -> None:
    running = SimpleNamespace(phase="running")
    host = SimpleNamespace(table=running, is_host=True, address="192.168.1.5:7447", seat=0)
    guest = SimpleNamespace(table=running, is_host=False, address="192.168.1.5:7447", seat=2)
    watcher = SimpleNamespace(table=running, is_host=False, address="192.168.1.5:7447", seat=None)
    assert "closes it for everyone" in quit_consequence(host)  # type: ignore[arg-type]
    assert "Join again with the same name" in quit_consequence(guest)  # type: ignore[arg-type]
    assert "the others play on" in quit_consequence(watcher)  # type: ignore[arg-type]


def test_a_guest_s_quit_box_says_the_others_may_give_up_its_seat_and_what_that_does() -> None:
    """The ``E`` vote gives up a seat that left (PROTOCOL.md 6.5): the quit box says so, after the
    table's stall_seconds, with what the game does with it; it never says the game ends."""
    for game, then in (
        ("vtes", "you leave the game without VP, and your predator gains nothing"),
        ("queen", "the game ends with no winner"),
    ):
        running = SimpleNamespace(phase="running", game_name=game, options={"stall_seconds": 45})
        guest = SimpleNamespace(table=running, is_host=False, address="192.168.1.5:7447", seat=2)
        words = quit_consequence(guest)  # type: ignore[arg-type]
        assert "vote to end the game" not in words, words
        assert f"after 45 s, if a majority of them vote so, your seat is given up; then {then}." in words, words


# --- nothing cut off at 80×24 ---------------------------------------------------------------------


async def test_the_game_footer_keeps_every_key_with_the_abandon_vote(monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.screens.table import TableFrame

    monkeypatch.setattr(TableFrame, "_stalled_seat", lambda self: 1)
    app = VampireApp(Start("table", _frozen(_mid)), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        app.screen.refresh_bindings()
        keys = ("p Pass", "c Chat", "E End the wait", "f1 Help", "^q Quit")
        # The footer is drawn again a moment after its keys change: wait for it, not a fixed time.
        await eventually(lambda: all(k in screen_text(app)[-1] for k in keys), 10, "the footer's keys", pilot=pilot)


async def test_the_host_lobby_footer_and_title_fit_80_columns() -> None:
    names = ["Maximiliana Evangelista-Vantongeren"[:32], "Lisa", "Scott", "Justine"]
    session = LocalGameSession(
        build_local(5, PERSON, start=False, seated=2, names=names), 0, auto=False, address="192.168.1.5:7447"
    )
    app = VampireApp(Start("lobby", session), name=names[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
        lines = screen_text(app)
    for key in ("b Bot", "x Remove bot", "s Start", "esc Leave", "f1 Help", "^q Quit"):
        assert key in lines[-1]
    # The key fingerprint people compare stays whole in the title, which may take two lines at 80
    # columns rather than cut it (the title bar wraps between parts, never inside one).
    title = lines[0] + lines[1]
    assert "key " in title
    assert re.search(r"key [0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}", title)


async def test_three_players_four_of_a_kind_keeps_the_to_play_row_in_the_trick_box() -> None:
    session = _frozen(_mid)
    state = session.table.gstate
    trick = state.trick
    four = Trick(1, 0, (Play(1, ("5-0", "5-1", "5-2", "5-3"), 5),), (2, 0))
    session.local.seats[0].table.gstate = replace(state, trick=four)
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        box = app.screen.query_one(TrickView)
        rows = shown(box).splitlines()
        assert box.content_size.height >= len(rows)
        width = box.content_size.width
    assert rows[1].startswith("★ Lisa") and "5 5 5 5 led" in rows[1]
    assert rows[2].startswith("▶ Scott") and "to play" in rows[2]
    assert all(len(row) <= width for row in rows), (rows, width)
    assert trick is not None


async def test_the_game_log_rewraps_after_the_terminal_grows_and_shrinks() -> None:
    app = VampireApp(Start("table", _frozen(_mid)), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        log = app.screen.query_one(GameLog)
        await pilot.resize_terminal(140, 40)
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await eventually(
            lambda: log.virtual_size.width <= log.scrollable_content_region.width, 10, "rewrapped", pilot=pilot
        )
        await eventually(lambda: log.is_vertical_scroll_end, 10, "the last line in sight", pilot=pilot)
        assert not log.show_horizontal_scrollbar


def test_the_seats_count_the_hand_a_round_ended_with_not_only_the_hunters() -> None:
    session = _frozen(_round_over)
    table = session.table
    state = table.gstate
    ended = replace(state, hands=tuple(() for _ in range(state.seats)), phase="over")
    rows = seat_rows(ended, table.names, 0)
    assert [r.cards for r in rows] == [len(hand) for hand in state.round_hands[-1]]


async def test_a_notification_waits_while_the_round_over_box_is_open() -> None:
    app = VampireApp(Start("table", _frozen(_round_over)), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, RoundEndScreen), 10, "the round's end", pilot=pilot)
        table = app.screen_stack[-2]
        table.notify("Lisa is back.")
        await pilot.pause()
        assert not any(n.message == "Lisa is back." for n in app._notifications)
        await pilot.press("enter")
        await eventually(
            lambda: any(n.message == "Lisa is back." for n in app._notifications), 10, "the note", pilot=pilot
        )


async def test_replay_title_keeps_the_file_name_and_end_shows_the_last_entry(tmp_path: Path) -> None:
    path = tmp_path / "a-very-long-log-file-name-2026-11-30-of-the-table-02eddb3a.vtlog"
    local = build_local(3, THREE, {"rounds": 1}, save=path)
    advance(local, 0, _over)
    app = VampireApp(Start("replay", path), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, ReplayScreen), 10, "the replay", pilot=pilot)
        screen = app.screen
        await eventually(lambda: screen.replay is not None and screen.replay.done, 20, "the log read", pilot=pilot)
        await pilot.press("end")
        await pilot.pause()
        await pilot.pause()
        lines = screen_text(app)
        entries = shown(screen.query_one("#replay-entries"))
    title = lines[0].strip()
    assert title.startswith("Replay a-very-long") and "02eddb3a.vtlog" in title and "entry" in title
    last = screen.frames[-1].seq
    assert f"▶ [{last:>4}]" in entries
    assert "[ ] trick back/on" in lines[-1] and "esc close" in lines[-1]


def test_recent_logs_of_one_table_read_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.identities import load_identity
    from engine.protocol.identity import public_bytes
    from tui.files import log_label

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    mina = public_bytes(load_identity("mina")).hex()[:16]
    bob = public_bytes(load_identity("bob")).hex()[:16]
    folder = tmp_path / "vampire-table" / "tables" / "02eddb3a00000000"
    folder.mkdir(parents=True)
    labels = []
    for stem in (mina, bob):
        (folder / f"{stem}.vtlog").write_bytes(b"")
        labels.append(log_label(folder / f"{stem}.vtlog"))
    assert labels[0] != labels[1]
    assert labels[0].endswith("table 02eddb3a, mina") and labels[1].endswith("table 02eddb3a, bob")


# --- the lobby ------------------------------------------------------------------------------------


class RemovingSession(LocalGameSession):
    """A lobby whose bots can be removed (recorded, not done)."""

    removed: list[int]

    async def remove_bot(self, seat: int) -> None:
        self.removed.append(seat)


async def test_x_removes_only_the_highlighted_bot() -> None:
    session = RemovingSession(build_local(5, PERSON, start=False, seated=3), 0, auto=False, address="h:7447")
    session.removed = []
    app = VampireApp(Start("lobby", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
        await pilot.press("x")  # the highlight is on the host's own seat
        await eventually(
            lambda: any("your own seat" in n.message for n in app._notifications), 10, "why not", pilot=pilot
        )
        assert session.removed == []
        await pilot.press("down", "down", "x")  # seat 2, a bot
        await eventually(lambda: session.removed == [2], 10, "the highlighted bot removed", pilot=pilot)


async def test_a_guest_sees_its_own_seat_first_and_two_seats_of_one_name_apart() -> None:
    # The table's fold renames a second "Lisa" (docs/protocol.md 7.4, "Names"), so the two seats
    # are told apart by name on every peer.
    names = ["Mina", "Lisa", "Lisa", "Justine"]
    local = build_local(5, PERSON, start=False, seated=3, names=names)
    session = LocalGameSession(local, 2, auto=False, address="h:7447", is_host=False)
    app = VampireApp(Start("lobby", session), name="Lisa")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
        grid = app.screen.query_one(DataTable)
        first = grid.get_row_at(0)
        names_shown = [str(grid.get_row_at(i)[1]) for i in range(grid.row_count)]
    assert first[0] == "2" and "you" in str(first[3])
    assert "Lisa" in names_shown and "Lisa 2" in names_shown


def test_a_deck_for_a_queen_table_is_refused_with_a_sentence() -> None:
    from tui.cli import _may_sit_bringing

    assert "takes no deck" in (_may_sit_bringing("deck.txt")("queen") or "")
    assert _may_sit_bringing(None)("queen") is None


class Recorder:
    """A session factory that records what the home screen asks for, and opens nothing."""

    def __init__(self) -> None:
        self.hosts: list[Any] = []

    def host(self, spec: Any) -> Any:
        self.hosts.append(spec)
        raise VampireError("recorded")


async def test_host_a_table_listens_on_the_lan_by_default_or_where_chosen() -> None:
    from textual.widgets import Select

    from tui.screens.home import HomeScreen, listen_choices

    places = listen_choices()
    default = places[0][1]
    assert default != "0.0.0.0"  # never every interface unless chosen
    assert {"127.0.0.1", "0.0.0.0"} <= {value for _, value in places}
    factory = Recorder()
    app = VampireApp(factory=factory, name="Mina")  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "home", pilot=pilot)
        home = app.screen
        home._go("host")
        home.query_one("#host-bind", Select).value = "127.0.0.1"
        home._go("host")
        await eventually(lambda: len(factory.hosts) == 2, 10, "two tables asked for", pilot=pilot)
    assert [spec.bind for spec in factory.hosts] == [default, "127.0.0.1"]


# --- the terminal it runs in ----------------------------------------------------------------------


def test_the_linux_console_is_detected_and_ascii_asks_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    assert console_mode({"TERM": "linux"})
    assert not console_mode({"TERM": "xterm-256color"})
    assert console_mode({"TERM": "xterm-256color", "VAMPIRE_ASCII": "1"})
    from tui.cli import main

    monkeypatch.setenv("VAMPIRE_ASCII", "0")  # and restored (unset) after the test, whatever main sets
    assert main(["rules", "--ascii"]) == 0
    assert os.environ.get("VAMPIRE_ASCII") == "1"


def _hunter(local: Any) -> bool:
    trick = local.table.gstate.trick
    return trick is not None and bool(trick.hunter) and len(trick.plays) >= 2


@pytest.mark.parametrize("where", ["home", "table", "hunter-trick", "game-end", "lobby", "replay"])
async def test_the_console_draws_only_characters_its_font_has(where: str, tmp_path: Path) -> None:
    """Each screen on the Linux console, drawn whole: ``table`` is a trick under way with a card
    picked, then F1's help over it, then the question Ctrl+Q asks; ``game-end`` is the last
    round's box, then the end of the game with its chart."""
    # The keys pressed before each look at the screen, and the screen they lead to.
    steps: list[tuple[tuple[str, ...], type | None]] = [((), None)]
    if where == "home":
        start, steps = Start(), [((), HomeScreen)]
    elif where == "lobby":
        session = LocalGameSession(build_local(5, PERSON, start=False, seated=3), 0, auto=False, address="h:7447")
        start, steps = Start("lobby", session), [((), LobbyScreen)]
    elif where == "replay":
        path = tmp_path / "game.vtlog"
        advance(build_local(3, THREE, {"rounds": 1}, save=path), 0, _over)
        start, steps = Start("replay", path), [(("end",), ReplayScreen)]
    elif where == "table":
        start = Start("table", _frozen(_mid, THREE, rounds=1))
        steps = [
            (("space",), TableScreen),
            (("f1",), HelpScreen),
            (("escape",), TableScreen),
            (("ctrl+q",), QuitScreen),
        ]
    elif where == "hunter-trick":
        start, steps = Start("table", _frozen(_hunter, PERSON, rounds=1)), [((), TableScreen)]
    else:
        start = Start("table", _frozen(_over, THREE, rounds=1))
        steps = [((), RoundEndScreen), (("enter",), GameEndScreen)]
    app = VampireApp(start, name="Mina", console=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for keys, screen in steps:
            await pilot.press(*keys)
            if screen is not None:
                await eventually(lambda s=screen: isinstance(app.screen, s), 10, screen.__name__, pilot=pilot)
            await settled(app, pilot)
            drawn = set("".join(screen_text(app)))
            assert drawn <= CONSOLE_FONT, (keys, sorted(drawn - CONSOLE_FONT))


# --- pictures -------------------------------------------------------------------------------------


def test_the_running_totals_chart_draws_each_players_total_by_round() -> None:
    session = _frozen(_over)
    state = session.table.gstate
    chart = running_chart(state, list(session.table.names), 0, width=40).plain.splitlines()
    assert chart[0].startswith("Running totals by round")
    bars = [sum(line.count(c) for c in "█▒") for line in chart[1:]]
    top = max(state.totals)
    for seat, cells in enumerate(bars):
        assert cells == round(state.totals[seat] * 40 / top)
        assert chart[1 + seat].rstrip().endswith(str(state.totals[seat]))


async def test_the_game_end_shows_the_chart() -> None:
    app = VampireApp(Start("table", _frozen(_over)), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, RoundEndScreen), 10, "the last round's end", pilot=pilot)
        await pilot.press("enter")
        await eventually(
            lambda: any("Running totals" in line for line in screen_text(app)), 10, "the chart", pilot=pilot
        )


def test_the_deal_says_who_does_what_and_learns_how_long_a_deal_takes() -> None:
    local = build_local(3, THREE, {"rounds": 2})
    memory: dict[Any, int] = {}
    texts: list[str] = []
    totals: dict[str, int] = {}
    for _ in range(5000):
        progress = work_progress(local.table, memory, 0)
        if progress is not None:
            texts.append(progress.text)
            phase = progress.text.split(":", 1)[0]
            assert 0 <= progress.done <= progress.total
            totals[phase] = progress.total
        if local.step():
            continue
        table = local.table
        if table.phase != "running":
            break
        seat = table.owed()[0][0]
        seat_obj = local.seats[seat]
        act = local.bots[seat].choose(seat_obj.view(), seat_obj.legal_acts()) if local.bots[seat] else None
        if act is None:
            act = find_game("queen").bot("random", random.Random(1)).choose(seat_obj.view(), seat_obj.legal_acts())
        local.submit(seat_obj, "move", seat_obj.move_body(act))
    assert texts[0].startswith("Drawing the first dealer: you, Lisa and Scott commit to random values")
    assert any(t.startswith("Shuffling for round 1: Lisa shuffles the cards and proves it") for t in texts)
    assert any(t.startswith("Dealing round 2:") for t in texts)
    # The table counts its work: even the first deal says how far it is, of how many entries.
    first_deal = [t for t in texts if t.startswith("Dealing round 1:")]
    total = totals["Dealing round 1"]
    assert first_deal and all(re.search(rf"\(\d+ of {total}\)$", t) for t in first_deal), first_deal[:3]
    assert first_deal[0].endswith(f"(0 of {total})")
    # Round 2's deal is as long as round 1's: its total is known from the start.
    first_of_round_2 = next(t for t in texts if t.startswith("Dealing round 2:"))
    assert first_of_round_2.endswith(f"(0 of {totals['Dealing round 1']})")
