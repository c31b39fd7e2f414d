"""Screens learn what happened from a note's news (engine.games.base.Note.news), never from its
English: a chat line is chat because the table says so, and a VTES line that reads like chat
(``"{s1}: unlock phase"``) is not."""

from __future__ import annotations

from engine.games import all_rules
from engine.games.base import CHAT, Note, parse_options
from engine.protocol.identity import new_key
from engine.seat import now_ms
from engine.sequencer import Sequencer
from tui.games.vtes.widgets.say import moved_on
from tui.widgets.common.notes import is_chat


def test_a_chat_line_is_news_of_chat() -> None:
    games = all_rules()
    sequencer = Sequencer(new_key(), games, None, now_ms)
    sequencer.open_table("queen", dict(parse_options(games["queen"].option_schema, {})), 3, "chat table")
    start = len(sequencer.table.notes)
    sequencer.submit(sequencer.sign("chat", {"text": "The referendum passes"}))
    (note,) = sequencer.table.notes[start:]
    assert note.news == CHAT and is_chat(note)
    assert note.render(["Ana", "Ben", "Cy"]) == "The host: The referendum passes"
    assert not moved_on([note])


def test_a_line_that_reads_like_chat_is_not_chat() -> None:
    line = Note("{s1}: unlock phase", (1,))
    assert not is_chat(line) and moved_on([line])
    assert not is_chat(Note("{s1}: hello", ()))  # words alone make no chat
