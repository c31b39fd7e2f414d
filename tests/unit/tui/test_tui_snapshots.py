"""Snapshots (pytest-textual-snapshot, SVG in tests/snapshots/) of the home, lobby, table
mid-trick, hunter trick, end of round and audit screens at 80×24.

Every state is reproducible: keys, secrets, bots and the clock come from fixed seeds
(tests/tui_local_session.py), so names, key fingerprints and head fingerprints never change.
Update with ``pytest tests/test_tui_snapshots.py --snapshot-update`` after checking the change.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytest_textual_snapshot import SVGImageExtension
from textual._doc import take_svg_screenshot

from tests.support.local_session import LocalGameSession, build_local, played_local
from tui.app import Start, VampireApp

PERSON = [None, "heuristic", "heuristic", "random"]


class SnapshotsDir(SVGImageExtension):
    """Keep the SVGs in tests/snapshots/<test module>/."""

    @classmethod
    def dirname(cls, *, test_location: Any) -> str:
        return str(Path(test_location.filepath).parent / "snapshots" / test_location.basename)


@pytest.fixture
def snap(snapshot: Any) -> Callable[..., bool]:
    def compare(
        app: VampireApp, press: tuple[str, ...] = (), size: tuple[int, int] = (80, 24), run_before: Any = None
    ) -> bool:
        svg = take_svg_screenshot(app=app, press=press, terminal_size=size, run_before=run_before)
        return snapshot.use_extension(SnapshotsDir) == svg

    return compare


@pytest.fixture(autouse=True)
def no_recent_logs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.screens.home.recent_logs", lambda *a, **k: [])


def _table_app(
    until: Callable[[Any], bool],
    seed: int = 3,
    rounds: int = 2,
    levels: list[str | None] | None = None,
    names: Any = None,
) -> VampireApp:
    local = played_local(seed, levels or PERSON, {"rounds": rounds}, until, names=names)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"), auto=False)
    return VampireApp(Start("table", session), name=local.seats[0].name)


def test_home(snap) -> None:
    assert snap(VampireApp(name="Mina"))


def test_lobby(snap) -> None:
    local = build_local(5, PERSON, start=False, seated=2)
    session = LocalGameSession(local, 0, auto=False, address="192.168.1.5:7447")
    assert snap(VampireApp(Start("lobby", session), name="Mina"))


def test_table_mid_trick(snap) -> None:
    def mid_trick(local: Any) -> bool:
        trick = local.table.gstate.trick
        return trick is not None and not trick.hunter and len(trick.plays) >= 2 and trick.size >= 2

    assert snap(_table_app(mid_trick), press=("right", "space"))


def test_table_hunter_trick(snap) -> None:
    def hunter_trick(local: Any) -> bool:
        trick = local.table.gstate.trick
        return trick is not None and trick.hunter and len(trick.plays) >= 2

    assert snap(_table_app(hunter_trick))


def test_end_of_round(snap) -> None:
    assert snap(_table_app(lambda local: len(local.table.gstate.round_scores) >= 1))


def test_audit(snap, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    local = build_local(9, ["heuristic", "random", "heuristic"], {"rounds": 1}, save=Path("game.vtlog"))
    local.run()
    local.host.log.close()
    assert snap(VampireApp(Start("audit", Path("game.vtlog")), name="Mina"))


# --- every screen at 80×24 with the longest texts it can show: 12 seats, 32-character names ---------

LONG_NAMES = [
    "Maximiliana Evangelista-Vantonge",
    "Bartholomew Featherstonehaugh-Sm",
    "Scott",
    "Justine de Bourgogne-Lancaster",
    "Richard",
    "Steve",
    "Ann",
    "Bob",
    "Cecilia Montgomery-Whitfield",
    "Dan",
    "Eve",
    "Fitzgerald Worthington III",
]
TWELVE: list[str | None] = [None] + ["heuristic"] * 11


def _mid_trick(local: Any) -> bool:
    trick = local.table.gstate.trick
    return trick is not None and not trick.hunter and len(trick.plays) >= 4


def test_twelve_long_names_mid_trick(snap) -> None:
    assert snap(_table_app(_mid_trick, levels=TWELVE, names=LONG_NAMES))


def test_twelve_long_names_end_of_round(snap) -> None:
    app = _table_app(lambda local: len(local.table.gstate.round_scores) >= 1, levels=TWELVE, names=LONG_NAMES)
    assert snap(app)


def test_twelve_long_names_game_end_with_the_chart(snap) -> None:
    # One round: twelve seats play a round in about 25 s on a loaded machine; five would take 100.
    app = _table_app(lambda local: local.table.gstate.phase == "over", rounds=1, levels=TWELVE, names=LONG_NAMES)
    assert snap(app, press=("enter",))


def test_twelve_long_names_lobby(snap) -> None:
    local = build_local(5, TWELVE, start=False, seated=9, names=LONG_NAMES)
    session = LocalGameSession(local, 0, auto=False, address="192.168.100.200:7447")
    assert snap(VampireApp(Start("lobby", session), name=LONG_NAMES[0]))


def _two_played(local: Any) -> bool:
    trick = local.table.gstate.trick
    return trick is not None and not trick.hunter and len(trick.plays) >= 2


def test_help_at_a_table(snap, monkeypatch: pytest.MonkeyPatch) -> None:
    # The help's last line names this program as the person can type it, which depends on the
    # working directory and PATH of the run (a relative or a full path): fixed here.
    monkeypatch.setattr("tui.screens.help.vampire_command", lambda: ".venv/bin/vampire")
    assert snap(_table_app(_two_played), press=("f1",))


def test_quit_asks_first(snap) -> None:
    assert snap(_table_app(_two_played), press=("ctrl+q",))


def test_replay_at_its_end(snap, tmp_path: Path) -> None:
    path = tmp_path / "20261130-192455-a-long-log-file-name-of-table-02eddb3a.vtlog"
    local = build_local(3, TWELVE, {"rounds": 1}, names=LONG_NAMES, save=path)
    local.run()
    local.host.log.close()

    async def read_then_end(pilot: Any) -> None:
        from tests.support.poll import eventually
        from tests.support.tui import settled
        from tui.screens.replay import ReplayScreen

        app = pilot.app
        await eventually(
            lambda: isinstance(app.screen, ReplayScreen) and app.screen.replay is not None and app.screen.replay.done,
            20,
            "the log read",
            pilot=pilot,
        )
        await pilot.press("end")
        screen = app.screen
        await eventually(lambda: screen.index == len(screen.frames) - 1, 10, "the last entry", pilot=pilot)
        await app.workers.wait_for_complete()
        await settled(app, pilot)  # the panels' heights follow the last frame's content

    assert snap(VampireApp(Start("replay", path), name="Mina"), run_before=read_then_end)


async def test_twelve_seats_leave_the_lobby_hint_and_rules_on_screen() -> None:
    # The seats list scrolls rather than push what the table waits for off an 80×24 screen.
    from tests.support.poll import eventually

    local = build_local(5, TWELVE, start=False, seated=9, names=LONG_NAMES)
    session = LocalGameSession(local, 0, auto=False, address="192.168.100.200:7447")
    app = VampireApp(Start("lobby", session), name=LONG_NAMES[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: app.screen.query("#lobby-hint"), 10, "the lobby", pilot=pilot)
        screen = app.screen

        def whole(selector: str) -> bool:
            region = screen.query_one(selector).region
            return region.height > 0 and region.y + region.height <= 23  # the footer's row is 23

        await eventually(lambda: whole("#lobby-hint") and whole("#lobby-options"), 10, "hint and rules", pilot=pilot)
