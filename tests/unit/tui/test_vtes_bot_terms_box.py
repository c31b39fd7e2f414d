"""The referendum box names the players a bot's terms touch (shared/rules/vtes-actions.md P7):
a bot writes seats as placeholders; the box, like the narration, shows their names."""

from __future__ import annotations

from engine.games.vtes.bots import VtesBot
from engine.games.vtes.offers import legal_acts
from tests.support.vtes_fight import titled_table
from tests.support.vtes_sim import act
from tui.games.vtes.fight_text import referendum_lines


def test_the_box_shows_a_bots_terms_with_the_players_names() -> None:
    f = titled_table()
    t, bot = f.t, VtesBot(seed=0)
    names = [""] * 4
    for seat, name in zip((f.ana, f.ben, f.cy, f.dee), ("Ana", "Ben", "Cy", "Dee"), strict=True):
        names[seat] = name
    t.play(f.ana, bot.choose(t.view(f.ana), legal_acts(t.view(f.ana))))
    t.run_ops()
    for _window in ("A", "C"):
        for seat in (f.ana, f.ben, f.dee, f.cy):
            act(t, seat, "pass")
    t.play(f.ana, bot.choose(t.view(f.ana), legal_acts(t.view(f.ana))))
    head, _ = referendum_lines(t.view(f.ben), names, t.state.open_referendum)
    assert head == "Referendum called by Ana: Kine Resources Contested: Ben burns 3, Cy burns 1 (4 points allocated)"
