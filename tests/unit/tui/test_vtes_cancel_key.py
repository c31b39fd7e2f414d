"""The answer window on the VTES screen (engine.games.vtes.cancels): a bot plays a master card,
Mina holds Sudden Reversal, the status line says the card waits for her answer and which key
cancels it, and ``p`` plays the cancel: the card has no effect, both names in the log. Two seats,
Mina's library seven Sudden Reversals, the bot's seven Tributes to the Master."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.games.vtes.decks import bundled_decks
from engine.games.vtes.state import Answer
from engine.games.vtes.vocab import Phase, Step
from engine.local import LocalGame
from tests.support.local_session import NAMES, LocalGameSession
from tests.support.poll import eventually
from tests.support.positions import once_per_run
from tests.support.tui import shown
from tests.support.vtes_sim import deck_of, held_card
from tests.support.vtes_table import build_vtes, keys_after_a_look, notes_text
from tui.app import Start, VampireApp
from tui.games.vtes.commands import CommandError, Context, parse
from tui.games.vtes.key_acts import card_to_play
from tui.games.vtes.table import VtesTableScreen


def _tribute_announced(seed: int = 3) -> LocalGame:
    """See :func:`_announce` (built once per run, copied)."""
    return once_per_run(f"vtes-tribute-announced-{seed}", lambda: _announce(seed))


def _announce(seed: int) -> LocalGame:
    """The table once the bot (seat 1) has played Tribute to the Master in its master phase: the
    card waits for Mina's answer. Seat 0 is played by :func:`tests.support.vtes_table.advance`'s
    heuristic policy up to then."""
    import random

    from engine.games import find_game

    base = bundled_decks()
    decks = [deck_of(base[0], ("Sudden Reversal", 7)), deck_of(base[1], ("Tribute to the Master", 7))]
    local = build_vtes(seed, 2, {"library_size": False}, decks)
    mina, bot = local.seats
    policy = find_game("vtes").bot("heuristic", random.Random(7), None)
    for _ in range(5000):
        view = bot.view()
        if view is not None and view.step == Step.PLAY and view.acting == 1 and view.phase == Phase.MASTER:
            tribute = next((a for a in bot.legal_acts() if a["do"] == "play"), None)
            if tribute is not None and view.master_actions == 0:
                local.submit(bot, "move", bot.move_body(tribute))
                assert isinstance(mina.view().innermost, Answer)
                return local
        if local.step():
            continue
        mine = mina.view()
        act = (
            {"do": "deck", "crypt": len(mina.decks["crypt"]), "library": len(mina.decks["library"])}
            if mine.step == Step.JOINING
            else policy.choose(mine, mina.legal_acts())
        )
        assert act is not None
        local.submit(mina, "move", mina.move_body(act))
    raise AssertionError("the bot never reached its master phase")


async def test_p_cancels_a_master_card_with_the_card_the_hand_holds(tmp_path: Path) -> None:
    local = _tribute_announced()
    session = LocalGameSession(local, 0, log_path=tmp_path / "mina.vtlog")
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        screen: Any = app.screen
        await eventually(lambda: screen.hand_card() is not None, 10, "the hand", pilot=pilot)
        keys_after_a_look(app)
        # It says that the table waits for you, as every window that waits for a seat does.
        status = (
            "The table waits for you: Lisa's Tribute to the Master: p cancels (Sudden Reversal), . lets it through."
        )
        await eventually(lambda: status in shown(screen.query_one("#waiting")), 10, "the status line", pilot=pilot)
        await pilot.press("p")
        if "p again plays it" in shown(screen.query_one("#vt-say")):
            await pilot.press("p")
        await eventually(lambda: session.view().innermost is None, 10, "the cancel", pilot=pilot)
        assert "cancels" in notes_text(app) and "Tribute to the Master with Sudden Reversal" in notes_text(app)
        assert session.submitted[-1]["do"] == "play"


def test_the_cancel_command_plays_the_first_card_that_cancels_or_says_there_is_none() -> None:
    view = _tribute_announced().seats[0].view()
    ctx = Context(view, NAMES[:2])
    first = view.hand[0].as_list()  # seven Sudden Reversals
    assert parse("cancel", ctx) == {"do": "play", "card": first}
    assert parse(":cancel sudden", ctx) == {"do": "play", "card": first}
    none = Context(replace(view, hand=(held_card("Tribute to the Master"),)), NAMES[:2])
    with pytest.raises(CommandError, match="No card of your hand cancels a card as it is played"):
        parse("cancel", none)


def test_p_on_a_card_that_does_not_cancel_plays_the_cancel_the_hand_holds_two_copies_of() -> None:
    """The hand highlights a card that cancels nothing and holds two copies of one cancel: ``p``
    plays the first copy, as the status line's "p cancels (Sudden Reversal)" says."""
    view = _tribute_announced().seats[0].view()
    tribute = held_card("Tribute to the Master")
    two = replace(view, hand=(tribute, *view.hand[:2]))
    assert card_to_play(two, tribute) == view.hand[0]
    one_kind = replace(view, hand=(tribute,))
    assert card_to_play(one_kind, tribute) is tribute  # nothing offered: the highlighted card
