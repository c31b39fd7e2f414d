"""`vampire play --seats N`: you and N-1 bots (what a newcomer types for a 4-player VTES game);
a count that disagrees with --bots, or one the game is not played by, is a sentence before any
screen opens."""

from __future__ import annotations

import pytest

from tui.cli import main


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["play", "--game", "vtes", "--seats", "4", "--bots", "2"], "--seats 4 is you and 3 bots, but --bots names 2"),
        (["play", "--game", "vtes", "--seats", "1"], "not 1 (you and 0 bots)"),
    ],
)
def test_play_seats_that_do_not_fit_are_refused_in_a_sentence(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code = main(argv)
    err = capsys.readouterr().err
    assert code != 0 and words in err and "Traceback" not in err


def test_play_seats_seats_you_and_the_rest_bots(monkeypatch: pytest.MonkeyPatch, at_a_terminal: None) -> None:
    from tui.app import VampireApp

    seen = {}

    def run(self: VampireApp) -> None:
        seen["spec"] = self.start_at.spec

    monkeypatch.setattr(VampireApp, "run", run)
    assert main(["play", "--game", "vtes", "--seats", "4"]) == 0
    assert list(seen["spec"].levels) == ["heuristic"] * 3 and seen["spec"].game == "vtes"
