"""``scripts/bench`` runs the sections asked for with ``--only`` (every one without it), and an
unknown section or argument is refused with the usage, before anything runs."""

from __future__ import annotations

import pytest

from bench.run import SECTIONS, USAGE, _sections, main


def test_every_section_runs_without_only() -> None:
    assert _sections([]) == set(SECTIONS) == _sections(["--quick"])


def test_only_names_the_sections_to_run() -> None:
    assert _sections(["--only", "first_turn,result_s"]) == {"first_turn", "result_s"}
    assert _sections(["--quick", "--only", "vtes"]) == {"vtes"}


@pytest.mark.parametrize("argv", [["--only", "nope"], ["--only", ","], ["--only"], ["--fast"]])
def test_a_bad_argument_is_refused_with_the_usage(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        _sections(argv)
    assert USAGE in str(refused.value)


def test_help_prints_the_sections(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in SECTIONS)
