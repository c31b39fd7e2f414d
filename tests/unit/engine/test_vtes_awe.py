"""Awe ("Only usable during the polling step of a political action. [pre] This vampire gets +X+1
votes. [PRE] This vampire gets +2X+1 votes.", X blood): offered to the caller while polling, one
choice per X its acting vampire can pay, at each level it may play; the votes are cast and the
blood paid at once, narrated with the card's name; more votes than X gives are refused; the log
replays to the same state. Ana's vampire (4 blood) calls Kine Resources Contested."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from tests.support.vtes_sim import card_plays as plays
from tests.support.vtes_sim import first_vampire as vampire
from tests.support.vtes_sim import one_vampire_table, replayed
from tests.unit.engine.test_vtes_card_votes import to_polling

LIBRARY = (("Kine Resources Contested", 2), ("Awe", 2))


@pytest.mark.parametrize(("vampire_name", "per_blood"), [("Nettie Hale", 1), ("Arika", 2)])
def test_awe_gives_its_levels_votes_for_the_blood_paid(vampire_name: str, per_blood: int) -> None:
    start = one_vampire_table(vampire_name, LIBRARY, seed=5)
    t = one_vampire_table(vampire_name, LIBRARY, seed=5)
    ana = t.state.acting
    done = to_polling(t)
    offered = plays(t, ana, "Awe")
    blood = next(c for c in t.view(ana).controlled(ana) if c.crypt).counters
    assert blood == 4
    assert max(a["votes"] for a in offered) == per_blood * 4 + 1
    chosen = next(a for a in offered if a.get("blood") == 2 and a["votes"] == per_blood * 2 + 1)
    notes = t.play(ana, chosen)
    done.append((ana, chosen))
    r = t.state.open_referendum
    assert r is not None and r.total(True) == per_blood * 2 + 1
    assert next(c for c in t.view(ana).controlled(ana) if c.crypt).counters == 2
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert any(s.startswith("Awe: ") for s in said), said
    assert replayed(start, done).state == t.state


def test_more_votes_than_x_gives_are_refused() -> None:
    t = one_vampire_table("Nettie Hale", LIBRARY, seed=5)
    ana = t.state.acting
    to_polling(t)
    card = next(c.as_list() for c in t.view(ana).hand if c.name == "Awe")
    bad: Act = {"do": "play", "card": card, "minion": vampire(t, ana), "votes": 4, "blood": 1}
    before = t.state
    with pytest.raises(IllegalMove, match="Awe gives at most 2 votes for X = 1 blood paid, not 4"):
        t.play(ana, bad)
    assert t.state == before
