"""The replay's frames in bounded memory (docs/protocol.md 7.4, "Large logs"): a frame the replay
no longer holds is made again from a checkpoint of the folded table, and is the frame it was;
jumps by the game's units find the same frames; a refused entry ends the frames as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.games import all_rules
from tests.support.chat_logs import write_chat_log
from tests.support.local_session import build_local
from tui import replayer
from tui.games import find_front_end
from tui.replayer import Frames, fold_frames, front_end_for, open_replay


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "game.vtlog"
    local = build_local(5, ["heuristic", "random", "heuristic", "random"], {"rounds": 2}, save=path)
    local.run()
    local.host.log.close()
    return path


def _fold(path: Path) -> tuple[replayer.Replay, Frames]:
    replay = open_replay(path)
    front = front_end_for(replay)
    kit = front.replay() if front.replay is not None else None
    for _ in fold_frames(replay, all_rules(), kit):
        pass
    assert isinstance(replay.frames, Frames)
    return replay, replay.frames


def test_frames_made_again_from_checkpoints_are_the_frames_first_made(game_log, monkeypatch):
    whole = list(_fold(game_log)[1])  # short enough for every frame to be kept
    monkeypatch.setattr(replayer, "KEPT_FRAMES", 8)
    monkeypatch.setattr(replayer, "FIRST_SPACING", 4)
    monkeypatch.setattr(replayer, "CHECKPOINTS", 4)  # forces the spacing to double, then again
    replay, frames = _fold(game_log)
    assert len(frames) == len(whole) == replay.total and replay.done and not replay.error
    assert len(frames._checkpoints) <= 5 and frames._spacing > 4
    assert frames.refolds == 0
    # Forward, then backward, one step at a time (as the keys do), then by jumps.
    assert [frames[i] for i in range(len(whole))] == whole
    assert [frames[i] for i in reversed(range(len(whole)))] == whole[::-1]
    assert frames[len(whole) // 2] == whole[len(whole) // 2] and frames[-1] == whole[-1]
    # Stepping costs a refold every half window (4 frames here) either way, never one a frame.
    assert 0 < frames.refolds <= 2 * (len(whole) // 4 + 2) + 2
    # The units' index finds what scanning the frames finds.
    for unit in ("trick", "round"):
        for i in range(0, len(whole), 7):
            for step in (1, -1):
                order = range(i + 1, len(whole)) if step > 0 else range(i - 1, -1, -1)
                scanned = next((j for j in order if unit in whole[j].marks.starts), None)
                assert frames.starting(unit, i, step) == scanned


def test_a_refused_entry_ends_the_frames_made_again_too(tmp_path, monkeypatch):
    monkeypatch.setattr(replayer, "KEPT_FRAMES", 4)
    monkeypatch.setattr(replayer, "FIRST_SPACING", 2)
    path = tmp_path / "chat.vtlog"
    write_chat_log(path, 30, body=lambda seq: {"text": f"line {seq}"} if seq < 29 else {"text": "x", "pad": b"?"})
    replay, frames = _fold(path)
    assert replay.error.startswith("[  29] REFUSED") and len(frames) == 30 and frames[-1].kind == "refused"
    assert [f.seq for f in frames] == list(range(30)) and frames.refolds > 0
    assert "line 12" in " ".join(frames[12].lines)
    assert find_front_end("queen").replay is not None
