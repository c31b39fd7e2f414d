"""Basic or superior, one rule for the key and the command: where the minion may play both levels
of a card and they differ, ``p`` asks with a menu, and a command names the level (``sup`` or
``superior``, ``basic``); a command that names none plays basic and its confirmation says so
(shared/rules/vtes-actions.md P2, P5). Strikes are offered one per level that differs."""

from __future__ import annotations

import pytest

from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import first_vampire, one_vampire_table, to_the_strike
from tui.games.vtes import key_acts
from tui.games.vtes.command_words import CommandError, Context
from tui.games.vtes.fight_commands import parse_line

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def _bleeding() -> tuple[SimTable, int]:
    """Arika (superior Dominate) bleeds her prey, Conditioning in hand."""
    t = one_vampire_table("Arika", (("Conditioning", 2), ("Majesty", 2)), seed=5)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    t.play(ana, {"do": "action", "kind": "bleed", "minion": first_vampire(t, ana), "target": ben})
    return t, ana


def test_p_asks_basic_or_superior_for_conditioning() -> None:
    """Conditioning ("[dom] +2 bleed (limited). [DOM] +3 bleed (limited).") by a vampire with
    superior Dominate: ``p`` shows a menu of both levels, basic first, instead of playing +3."""
    t, ana = _bleeding()
    view = t.view(ana)
    card = next(c for c in view.hand if c.name == "Conditioning")
    menu = key_acts.play_menu(card, view, ana, None, Context(view, NAMES))
    assert [(words.split(":")[0], act["amount"]) for words, act in menu] == [("basic", 2), ("superior", 3)]
    legal = VTES.legal_acts(view)
    assert all(act in legal for _, act in menu)


def test_the_play_command_plays_basic_unless_it_names_superior_and_says_so() -> None:
    t, ana = _bleeding()
    view = t.view(ana)
    ctx = Context(view, NAMES)
    basic = parse_line("play Conditioning", ctx)
    assert basic["amount"] == 2
    assert ctx.notes == ["Conditioning at basic: end the command with sup for superior ([DOM] +3 bleed (limited))."]
    for word in ("sup", "superior", "SUP"):
        named = Context(view, NAMES)
        assert parse_line(f"play Conditioning {word}", named)["amount"] == 3 and named.notes == []
    named = Context(view, NAMES)
    assert parse_line("play Conditioning basic", named) == basic and named.notes == []
    t.play(ana, basic)
    action = t.state.open_action
    assert action is not None and action.amount == 1 + 2


def test_a_strike_card_is_offered_at_each_level_that_differs_and_the_command_names_it() -> None:
    """Majesty ("[pre] Strike: combat ends. [PRE] As above, and unlock this vampire before combat
    ends.") by a vampire with superior Presence: both strikes are offered; ``strike with Majesty``
    is the basic one and says so, ``strike with Majesty sup`` unlocks."""
    t = one_vampire_table("Arika", (("Majesty", 2), ("Conditioning", 2)), seed=5)
    ana, _ = to_the_strike(t, [])
    view = t.view(ana)
    majesty = next(c.as_list() for c in view.hand if c.name == "Majesty")
    base = {"do": "strike", "minion": first_vampire(t, ana), "card": majesty, "ends": True}
    legal = VTES.legal_acts(view)
    assert base in legal and {**base, "unlock": True} in legal
    ctx = Context(view, NAMES)
    assert parse_line("strike with Majesty", ctx) == base
    assert ctx.notes and ctx.notes[0].startswith("Majesty at basic: end the command with sup for superior")
    named = Context(view, NAMES)
    assert parse_line("strike with Majesty sup", named) == {**base, "unlock": True} and named.notes == []
    assert parse_line("strike with Majesty basic", Context(view, NAMES)) == base
    with pytest.raises(CommandError, match="strike with CARD"):
        parse_line("strike 2 sup", Context(view, NAMES))
    t.play(ana, base)
