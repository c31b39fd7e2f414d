"""What ``--help`` says of an option is what the command does with it."""

from __future__ import annotations

import pytest

from tui.cli.parser import build_parser


def _help(capsys: pytest.CaptureFixture[str], *command: str) -> str:
    with pytest.raises(SystemExit):
        build_parser().parse_args([*command, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_host_help_says_it_listens_on_every_interface_and_gives_friends_the_lan_address(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = _help(capsys, "host")
    assert "default: 0.0.0.0, every interface" in text
    assert "friends are given this computer's LAN address" in text
    assert build_parser().parse_args(["host"]).bind == "0.0.0.0"  # what the help says is the default


def test_simulate_help_explains_seats_games_and_seed(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(capsys, "simulate")
    assert "--seats SEATS seats at each table (default: the game's usual number" in text
    assert "--games GAMES how many games to play (default: 1)" in text
    assert "--seed SEED the seed of every deal and bot choice: the same seed plays the same games (default: 0)" in text
