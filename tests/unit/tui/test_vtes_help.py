"""The VTES help (F1) as the screen renders its markup: every command's arguments in brackets
survive (Textual markup would otherwise read ``[N]`` as a tag and drop it), and it fits 80 columns."""

from __future__ import annotations

from textual.markup import to_content

from tui.games.vtes.front import HELP


def test_the_help_shows_every_bracketed_argument_and_fits_80_columns() -> None:
    text = to_content(HELP).plain
    for words in (
        "draw [N]",
        "[on CARD] [pool N] [blood N [from MINION]]",
        "bleed [N] [with MINION] [NAME]",
        "◆ holds the Edge",
        "pool ±N [NAME] [for CAUSE]",
        "handsize ±N [NAME]",
        "f       combat",
        "C       top crypt card",
    ):
        assert words in text, words
    assert max(len(line) for line in text.splitlines()) <= 76  # inside the help screen's border
