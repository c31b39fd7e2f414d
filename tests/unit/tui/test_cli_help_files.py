"""Every ``--help`` of ``vampire`` and of each of its commands cites only files of this repository
(docs/protocol.md and its sections), never one a user of the repository does not have (the shared
PROTOCOL.md, DESIGN.md, STYLE.md or rules of the project's specification)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from tui.cli import main
from tui.cli.parser import build_parser

ROOT = Path(__file__).resolve().parents[3]
# A file name as help text would write it: a path ending in a file extension.
FILE = re.compile(r"[\w./-]*\w\.(?:md|rst|txt|py|toml|json|ya?ml|cfg|ini)\b")


def _commands() -> list[str]:
    parser = build_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(subs.choices)


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def test_every_command_is_covered() -> None:
    assert {"audit", "host", "join", "play", "replay", "result", "rules", "simulate", "deck"} <= set(_commands())


@pytest.mark.parametrize("argv", [[], *([c] for c in _commands())], ids=lambda argv: " ".join(argv) or "vampire")
def test_a_help_names_no_file_outside_the_repository(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # one line per help text: no file name is wrapped
    text = _help(argv, capsys)
    assert text.startswith("usage: vampire")
    for name in FILE.findall(text):
        assert (ROOT / name).is_file(), f"`vampire {' '.join(argv)} --help` cites {name}, not a file of the repository"
    for outside in ("PROTOCOL.md", "DESIGN.md", "STYLE.md", "shared/"):
        assert outside not in text


def test_the_strict_audit_cites_the_repositorys_protocol_document(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")
    text = _help(["audit"], capsys)
    assert 'docs/protocol.md 6.8, "Strict re-derivation"' in text
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = doc[doc.index("### 6.8 ") : doc.index("### 6.9 ")]
    assert "**Strict re-derivation**" in section and "vampire audit --strict" in section
