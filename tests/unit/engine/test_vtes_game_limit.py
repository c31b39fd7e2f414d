"""A card printed "Only one … can be played in a game" (Giant's Blood): once one is played, a
second is refused in the card's words for the rest of the game, by any Methuselah, and not offered
(rulebook, "Requirements for Playing Cards"; the limit kept in the state's ``limited``)."""

from __future__ import annotations

from engine.games.vtes import VTES
from tests.support.vtes_fight import refused
from tests.support.vtes_sim import one_vampire_table


def _hand(t, seat: int, name: str) -> list[int]:
    return next(c.as_list() for c in t.view(seat).hand if c.name == name)


def test_a_second_giants_blood_is_refused_for_the_rest_of_the_game() -> None:
    t = one_vampire_table("Arika", (("Giant's Blood", 3),), seed=5, phase="master")
    ana = t.state.acting
    play = next(
        a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "play" and a["card"] == _hand(t, ana, "Giant's Blood")
    )
    t.play(ana, play)
    t.run_ops()
    while t.state.innermost is not None:  # the others pass on the announced card
        t.play(t.state.innermost.loop.holder, {"do": "pass"})
        t.run_ops()
    for _ in range(40):  # on to the next Methuselah's master phase
        if t.state.acting != ana and t.state.phase == "master":
            break
        seat = t.state.acting
        t.play(seat, {"do": "end_turn"} if t.state.phase == "discard" else {"do": "phase"})
        t.run_ops()
    ben = t.state.acting
    assert ben != ana and t.state.phase == "master"
    again = {**play, "card": _hand(t, ben, "Giant's Blood")}
    again.pop("add_to", None)
    again.pop("add_blood", None)
    refused(
        t,
        ben,
        again,
        "Giant's Blood says \"Only one Giant's Blood can be played in a game\": one has been played already",
    )
    offered = [
        a for a in VTES.legal_acts(t.view(ben)) if a["do"] == "play" and a["card"] == _hand(t, ben, "Giant's Blood")
    ]
    assert offered == []
