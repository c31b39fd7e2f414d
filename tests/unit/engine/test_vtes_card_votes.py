"""An action modifier that gives its vampire votes while a referendum polls (Bewitching Oration:
"this vampire gets +2 votes", +4 at superior; rulebook 7.2) is offered to the caller for the acting
vampire, per level it may play; the table counts the votes at once, narrated with the card's name;
the log replays to the same state; a play with votes outside polling, or for another's vampire, is
refused with a sentence.

Every crypt is twelve Arika (PRE at superior); Ana's Arika calls Kine Resources Contested."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from engine.sim import SimTable
from tests.support.vtes_sim import card_plays as plays
from tests.support.vtes_sim import copy_table, one_vampire_table, replayed
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = (("Kine Resources Contested", 2), ("Bewitching Oration", 2))


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Arika", LIBRARY, seed=5)


def to_polling(t: SimTable) -> list[tuple[int, Act]]:
    """Ana's Arika calls Kine Resources Contested; everyone passes; Ana records the terms; the
    loop before votes passes: polling. Returns the acts, in order."""
    ana = t.state.acting
    kine = next(c.as_list() for c in t.view(ana).hand if c.name == "Kine Resources Contested")
    done: list[tuple[int, Act]] = [
        (ana, {"do": "action", "kind": "political", "minion": vampire(t, ana), "card": kine})
    ]
    t.play(*done[0])
    for _ in range(40):
        r = t.state.open_referendum
        if r is not None and r.step == "voting":
            return done
        if r is not None and r.step == "terms":
            step: tuple[int, Act] = (ana, {"do": "terms", "text": "as the card says"})
        else:
            w = t.state.open_action or r
            assert w is not None
            step = (w.impulse, {"do": "pass"})
        t.play(*step)
        done.append(step)
    raise AssertionError("polling never began")


@pytest.mark.parametrize(("level", "votes"), [("basic", 2), ("superior", 4)])
def test_bewitching_oration_gives_the_acting_vampire_its_levels_votes(start: SimTable, level: str, votes: int) -> None:
    t = copy_table(start)
    ana = t.state.acting
    assert [a.get("votes") for a in plays(t, ana, "Bewitching Oration") if a.get("votes")] == []  # not polling yet
    done = to_polling(t)
    offered = plays(t, ana, "Bewitching Oration")
    assert sorted(a["votes"] for a in offered) == [2, 4]
    assert all(a["minion"] == vampire(t, ana) for a in offered)
    chosen = next(a for a in offered if a["votes"] == votes)
    notes = t.play(ana, chosen)
    done.append((ana, chosen))
    r = t.state.open_referendum
    assert r is not None and r.total(True) == votes
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert any(s.startswith("Bewitching Oration: ") and f"casts {votes} votes for" in s for s in said), said
    assert replayed(start, done).state == t.state


def test_votes_from_a_card_are_refused_outside_polling_and_for_anothers_vampire(start: SimTable) -> None:
    t = copy_table(start)
    ana = t.state.acting
    card = next(c.as_list() for c in t.view(ana).hand if c.name == "Bewitching Oration")
    with pytest.raises(IllegalMove, match="gives votes while a referendum polls, and none is open"):
        t.play(ana, {"do": "play", "card": card, "votes": 2, "minion": vampire(t, ana)})
    to_polling(t)
    ben = t.view(ana).players[ana].prey
    with pytest.raises(IllegalMove):
        t.play(ana, {"do": "play", "card": card, "votes": 2, "minion": vampire(t, ben)})
    with pytest.raises(IllegalMove, match="name it"):
        t.play(ana, {"do": "play", "card": card, "votes": 2})
