"""``vampire replay FILE`` in the TUI reads a log of any size in bounded memory (docs/protocol.md
7.4, "Large logs"): the log is read as a stream, and the replay keeps a bounded number of frames
and checkpoints, making the others again from the file when they are shown. Memory is counted
(tracemalloc's peak), and the frames made again are counted, never time."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from tests.functional.test_net_big_log import MIB, big_log
from tests.support.chat_logs import write_chat_log
from tests.support.poll import eventually
from tests.support.tui import shown
from tui import replayer
from tui.app import Start, VampireApp
from tui.replayer import Frames
from tui.screens.replay import ReplayScreen


def long_log(path: Path, count: int) -> None:
    """A valid log of ``count`` entries: a genesis, then the host's chat lines, each its seq in words."""
    write_chat_log(path, count, name="long")


def _title(app: VampireApp) -> str:
    return shown(app.screen.query_one("#title"))


async def replay_peak(path: Path) -> tuple[int, ReplayScreen]:
    """Open ``path`` in the replay screen, wait for it to be read, step to the end and back;
    returns tracemalloc's peak over all of it and the screen."""
    tracemalloc.start()
    try:
        app = VampireApp(Start("replay", path), name="Mina")
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(
                lambda: (
                    isinstance(app.screen, ReplayScreen) and app.screen.replay is not None and app.screen.replay.done
                ),
                120,
                "the log to be read",
                pilot=pilot,
            )
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await pilot.press("right")
            assert "entry 1 of" in _title(app)
            await pilot.press("end", "left")
            assert screen.index == len(screen.frames) - 2
            await pilot.press("home")
            assert "entry 0 of" in _title(app)
        return tracemalloc.get_traced_memory()[1], screen
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("megabytes", [24, pytest.param(200, marks=pytest.mark.slow)])
async def test_a_big_log_opens_in_the_replay_screen_in_the_memory_of_a_few_frames(tmp_path, megabytes):
    small = tmp_path / "small.vtlog"
    big_log(small, 1)
    path = tmp_path / "big.vtlog"
    big_log(path, megabytes)
    assert path.stat().st_size >= megabytes * MIB
    base, _ = await replay_peak(small)
    peak, screen = await replay_peak(path)
    # The table refuses the first padded chat: two frames, the second saying so, as before.
    assert screen.replay is not None and screen.replay.total > megabytes // 2
    assert len(screen.frames) == 2 and screen.frames[-1].kind == "refused"
    assert peak - base < 16 * MIB, (peak, base)  # a few frames of about 1 MiB, whatever the size


async def test_a_long_log_is_stepped_through_holding_a_bounded_number_of_frames(tmp_path, monkeypatch):
    monkeypatch.setattr(replayer, "KEPT_FRAMES", 32)
    monkeypatch.setattr(replayer, "FIRST_SPACING", 16)
    monkeypatch.setattr(replayer, "CHECKPOINTS", 8)
    path = tmp_path / "long.vtlog"
    long_log(path, 1200)
    app = VampireApp(Start("replay", path), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(
            lambda: isinstance(app.screen, ReplayScreen) and app.screen.replay is not None and app.screen.replay.done,
            60,
            "the log to be read",
            pilot=pilot,
        )
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        frames = screen.frames
        assert isinstance(frames, Frames) and len(frames) == 1200
        # What the replay holds is bounded: three windows of frames, a few checkpoints.
        assert len(frames._checkpoints) <= 8 + 1 and frames._spacing > 16
        await pilot.press("end")
        assert "entry 1199 of 1199" in _title(app)
        # Back a whole window and more, one entry at a time: each frame shown is the one of its
        # entry, made again from a checkpoint every half window, never once per step.
        for _ in range(40):
            await pilot.press("left")
        assert "entry 1159 of 1199" in _title(app)
        assert "line 1159" in shown(screen.query_one("#replay-entries"))
        assert "line 1158" in shown(screen.query_one("#replay-entries"))  # the entries before it too
        assert 1 <= frames.refolds <= 3
        screen._go(600)  # the middle of the log, far from anything kept
        await pilot.pause()
        assert "entry 600 of" in _title(app) and "line 600" in shown(screen.query_one("#replay-entries"))
        assert len(frames._first) + len(frames._last) + len(frames._window) <= 3 * 32
        await pilot.press("home")
        assert "entry 0 of" in _title(app)
