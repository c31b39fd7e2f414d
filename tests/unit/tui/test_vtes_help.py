"""The VTES help (F1) as the screen renders its markup: every command's arguments in brackets
survive (Textual markup would otherwise read ``[N]`` as a tag and drop it), and it fits 80 columns."""

from __future__ import annotations

from textual.markup import to_content

from tui.games.vtes.front import HELP
from tui.screens.help import HELP_WIDTH


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
        "burn edge for CARD",
    ):
        assert words in text, words
    assert max(len(line) for line in text.splitlines()) <= HELP_WIDTH  # inside the help's border and scroll bar


async def test_at_80x24_no_line_of_any_games_help_wraps_under_its_indent() -> None:
    """F1 at 80×24 (the help of both games, a VTES table's rules, the keys of every screen): each
    line is drawn on one line, so a key's words never fall back to the left edge."""
    from textual.widgets import Static

    from tests.support.poll import eventually
    from tui.app import VampireApp
    from tui.screens.help import HelpScreen

    app = VampireApp(name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        for options in (None, {"ruleset": "tournament"}):
            games = None if options is None else ["vtes"]
            app.push_screen(HelpScreen(games, options))
            await eventually(lambda: isinstance(app.screen, HelpScreen), 10, "the help", pilot=pilot)
            await pilot.pause()
            body = app.screen.query_one("#help Static", Static)
            lines = str(body.render()).splitlines()
            assert body.size.height == len(lines), [line for line in lines if len(line) > body.content_size.width]
            app.pop_screen()


def test_the_lobby_reads_each_table_rule_as_a_plain_sentence() -> None:
    import re

    from tui.screens.help import table_rules_words

    for options in ({}, {"polling": "15s", "ruleset": "tournament", "impulse_seconds": 20, "abandon_by_all": True}):
        words = table_rules_words("vtes", options)
        assert len(words) == 7, words  # the five VTES rules and the two every table has
        for line in words:
            # a sentence: no option value tacked on after a colon ("…: done.", "…: off.", "…: 30.")
            assert line[0].isupper() and line.endswith(".") and not re.search(r": \w+\.$", line), line
    said = table_rules_words("vtes", {"polling": "15s"})
    assert "Polling closes when every Methuselah is done voting, or 15 s after the last vote." in said
    assert "Polling closes when every Methuselah is done voting." in table_rules_words("vtes", {})
