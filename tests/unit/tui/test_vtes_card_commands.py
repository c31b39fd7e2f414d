"""What ``:play CARD`` and the key ``p`` put into the act for a card whose record the table reads:
the same choice the engine offers (the key is a filter of the engine's offers), so the card's
effect happens whichever way the player plays it (shared/rules/vtes-actions.md 4.3, P2)."""

from __future__ import annotations

from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import first_vampire, one_vampire_table
from tui.games.vtes import key_acts
from tui.games.vtes.command_words import Context
from tui.games.vtes.fight_commands import parse_line

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def _pass_all(t: SimTable) -> None:
    while (w := t.state.open_action) is not None:
        t.play(w.impulse, {"do": "pass"})


def test_freak_drive_by_command_and_by_key_unlocks_the_vampire_whose_bleed_succeeded() -> None:
    t = one_vampire_table("Arika", (("Freak Drive", 2), ("Lost in Crowds", 2)), seed=5)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    t.play(ana, {"do": "action", "kind": "bleed", "minion": first_vampire(t, ana), "target": ben})
    _pass_all(t)
    view = t.view(ana)
    card = next(c for c in view.hand if c.name == "Freak Drive")
    offered = [a for a in VTES.legal_acts(view) if a["do"] == "play" and a["card"] == card.as_list()]
    by_command = parse_line("play Freak Drive", Context(view, NAMES))
    by_key = key_acts.play_act(card, view, ana, None, Context(view, NAMES))
    assert by_command == by_key == offered[0]  # unlock, 1 blood from the vampire
    t.play(ana, by_command)
    assert not next(c for c in t.view(ana).controlled(ana) if c.crypt).locked
