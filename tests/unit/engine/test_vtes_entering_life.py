"""A retainer enters play with its printed life, or the life its level gives (Raven Spy: "Animal
with 1 life. [ani] The employer gets +1 intercept. [ANI] As above, but Raven Spy has 2 life."),
chosen with the level as the employ action is announced (the act's ``life``), checked against
what the acting vampire may play; narrated, and the log replays to the same state (rulebook,
"Retainers")."""

from __future__ import annotations

import re

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import announced_through, copy_table, one_vampire_table, replayed
from tests.support.vtes_sim import first_vampire as vampire
from tui.games.vtes.menus import announce_choices


def employs(t: SimTable) -> list[Act]:
    ana = t.state.acting
    view = t.view(ana)
    card = next(c.as_list() for c in view.hand if c.name == "Raven Spy")
    return [a for a in VTES.legal_acts(view) if a["do"] == "action" and a.get("card") == card]


def employed(t: SimTable, act: Act) -> tuple[list[tuple[int, Act]], list[str], int]:
    """``act`` announced and passed through: the acts, what the table said, the spy's life."""
    ana = t.state.acting
    done, said = announced_through(t, act)
    spy = next(c for c in t.view(ana).cards if c.as_list() == act["card"])
    assert spy.zone == "on" and list(spy.on) == vampire(t, ana)
    return done, said, spy.counters


@pytest.mark.parametrize("life", [1, 2])
def test_raven_spy_enters_play_with_the_life_of_the_level_chosen(life: int) -> None:
    start = one_vampire_table("Howler", (("Raven Spy", 7),), seed=5)  # ANI at superior
    t = copy_table(start)
    offered = employs(t)
    assert sorted(a.get("life", 1) for a in offered) == [1, 2]  # basic: its printed life, unsaid
    menu = [
        w for w, a in announce_choices(t.view(t.state.acting), ["Ana", "Ben", "Cy", "Dee"], None, None) if a in offered
    ]
    assert sorted(menu) == [
        "Your Howler employs a retainer with Raven Spy",
        "Your Howler employs a retainer with Raven Spy (it enters play with 2 life)",
    ]
    done, said, counters = employed(t, next(a for a in offered if a.get("life", 1) == life))
    assert counters == life
    assert any(s.endswith(f"Raven Spy goes on Howler (G2) with {life} life") for s in said), said
    assert replayed(start, done).state == t.state


def test_raven_spy_at_superior_is_refused_to_a_vampire_with_basic_animalism() -> None:
    t = one_vampire_table("Bothwell", (("Raven Spy", 7),), seed=5)  # ani at basic
    (offered,) = employs(t)
    assert "life" not in offered
    with pytest.raises(IllegalMove, match=re.escape("Raven Spy enters play with 1 life")):
        t.play(t.state.acting, {**offered, "life": 2})
