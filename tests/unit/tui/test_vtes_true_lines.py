"""VTES lines that say what is true: ``b`` out of turn says it is not your turn, one counter is
one counter, a vampire holding more blood than its capacity shows both numbers, a name shared by
a card in play and a burned copy is the card in play, a cause is the player's own words, and the
announce menu offers leaving torpor only to a vampire with the blood it costs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.games.vtes.vocab import Phase, Zone
from tests.support.local_session import NAMES, LocalGameSession
from tests.support.poll import eventually
from tests.support.vtes_table import advance, dealt_vtes, influence_vtes, keys_after_a_look, said
from tui.app import Start, VampireApp
from tui.games.vtes.commands import CommandError, Context, parse
from tui.games.vtes.menus import announce_choices
from tui.games.vtes.present import card_label
from tui.games.vtes.table import VtesTableScreen


def _context(local: Any) -> Context:
    view = local.seats[0].view()
    return Context(view, NAMES[: view.seats])


async def test_b_out_of_turn_says_it_is_not_your_turn() -> None:
    local = dealt_vtes(11)
    advance(local, lambda v: v.acting != 0 and v.phase == Phase.MINION and v.action is None)
    acting = NAMES[local.seats[0].view().acting]
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"), auto=False)
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        keys_after_a_look(app)
        await pilot.press("b")
        await eventually(lambda: "✗" in said(app), 10, "the refusal", pilot=pilot)
        assert f"It is not your turn: {acting} is the acting Methuselah" in said(app)
        assert "no minion" not in said(app)
    assert session.submitted == []
    # The command says the same, whether or not this seat has a minion ready.
    with pytest.raises(CommandError, match="It is not your turn"):
        parse("bleed", _context(local))
    with pytest.raises(CommandError, match="It is not your turn"):
        parse("hunt", _context(local))


def test_one_counter_reads_one_counter() -> None:
    view = influence_vtes().seats[0].view()
    library = next(c for c in view.cards + view.hand if c.name and not c.crypt)
    assert card_label(replace(library, counters=1, zone=Zone.READY), 0).endswith("(1 counter)")
    assert card_label(replace(library, counters=2, zone=Zone.READY), 0).endswith("(2 counters)")


def test_a_vampire_with_more_blood_than_its_capacity_shows_both_as_they_are() -> None:
    view = influence_vtes().seats[0].view()
    vampire = next(c for c in view.cards if c.crypt and c.name and c.capacity)
    over = replace(vampire, counters=vampire.capacity + 4, zone=Zone.UNCONTROLLED)
    label = card_label(over, 0)
    assert f"{vampire.capacity + 4} blood, capacity {vampire.capacity}" in label
    assert f"{vampire.capacity + 4}/{vampire.capacity}" not in label
    under = replace(vampire, counters=1)
    assert f"1/{vampire.capacity} blood" in card_label(under, 0)


def test_life_names_the_card_in_play_before_a_burned_copy() -> None:
    local = influence_vtes()
    ctx = _context(local)
    view = ctx.view
    in_play = view.controlled(0, Zone.READY)[0]
    burned = replace(in_play, pos=(999, 0), zone=Zone.ASH)
    # The burned copy comes first among the table's cards: the name still means the one in play.
    ctx = Context(replace(view, cards=(burned, *view.cards)), ctx.names)
    act = parse(f"blood +2 {in_play.name}", ctx)
    assert act["card"] == in_play.as_list()


def test_a_cause_in_plain_words_is_taken_like_one_word() -> None:
    local = influence_vtes()
    ctx = _context(local)
    seat = local.seats[0]
    lisa = NAMES.index("Lisa")
    for line in (
        "pool -1 Lisa for bleed",
        "pool -1 Lisa for her +1 bleed ability",
        "amount +1 for Aching Beauty: +1 bleed",
    ):
        act = parse(line, ctx)
        if act.get("seat") == lisa:
            seat.check_move(act)  # the engine takes the cause as the player wrote it
    assert parse("pool -1 Lisa for her +1 bleed ability", ctx)["cause"] == "her +1 bleed ability"
    from engine.games.base import MalformedAct
    from engine.games.vtes.acts import read_cause

    assert read_cause({"do": "pool", "cause": "her +1 bleed ability"}) == "her +1 bleed ability"
    for bad in ("", " bleed", "{s1} cheats", "[b]bold[/b]", "x" * 61, "line\nbreak"):
        with pytest.raises(MalformedAct):
            read_cause({"do": "pool", "cause": bad})


def test_leaves_torpor_is_offered_only_to_a_vampire_with_the_blood_to_pay() -> None:
    """The announce menu lists the offered actions: in the minion phase, leaving torpor for a
    vampire that has the 2 blood it costs, and for no other."""
    view = replace(influence_vtes().seats[0].view(), phase=Phase.MINION)
    mine = next(c for c in view.cards if c.crypt and c.name and c.controller == 0 and c.zone == Zone.READY)
    for blood, offered in ((0, False), (1, False), (2, True), (5, True)):
        resting = replace(mine, zone=Zone.TORPOR, counters=blood, locked=False)
        cards = tuple(resting if c.pos == mine.pos else c for c in view.cards)
        words = [w for w, _ in announce_choices(replace(view, cards=cards), list(NAMES[:4]), None, None)]
        leave = [w for w in words if "leaves torpor" in w]
        assert leave == ([f"Your {mine.name.split(' (')[0]} leaves torpor (2 blood)"] if offered else []), blood


def test_a_seat_out_of_the_game_is_not_told_its_auto_pass_is_off() -> None:
    """The turn line says "Auto-pass off (A)" while this seat asks every time; once the seat is
    out of the game (ousted, or its seat given up after a long wait) it has nothing to pass, and
    the line does not say it (a tester's abandoned seat was still told so)."""
    from engine.games.vtes.vocab import Status
    from tui.games.vtes.status_line import AUTO_OFF, turn_now

    view = dealt_vtes(11).seats[0].view()
    turn = turn_now(view, NAMES[: view.seats], False)
    assert turn is not None and turn[0].endswith(AUTO_OFF)
    players = list(view.players)
    players[0] = replace(players[0], status=Status.ABANDONED)
    turn = turn_now(replace(view, players=tuple(players)), NAMES[: view.seats], False)
    assert turn is not None and not turn[0].endswith(AUTO_OFF)
