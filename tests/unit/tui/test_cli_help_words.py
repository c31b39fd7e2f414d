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


def test_no_help_cites_a_document_a_user_of_the_repository_does_not_have(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A help names only pages this repository holds (``docs/…``, the README): the design pages
    (PROTOCOL.md, DESIGN.md, the rule pages) live beside it, where a user of it has none."""
    import re
    from pathlib import Path

    parser = build_parser()
    commands = [[]] + [[name] for name in parser._subparsers._group_actions[0].choices]  # type: ignore[union-attr]
    root = Path(__file__).resolve().parents[3]
    for command in commands:
        text = _help(capsys, *command)
        assert not re.search(r"PROTOCOL\.md|DESIGN\.md|STYLE\.md|shared/|rules/vtes", text), (command, text)
        for page in re.findall(r"docs/[\w./-]+\.md", text):
            assert (root / page).is_file(), (command, page)
