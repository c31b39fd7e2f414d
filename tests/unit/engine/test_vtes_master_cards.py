"""Master cards in play whose lasting text the table applies (rulebook, "Master Cards"): Fame on a
vampire in torpor makes every Methuselah burn 1 pool as their unlock phase begins. The log replays
to the same state. A bot plays, in its master phase, the master cards the table applies that serve
it (a Discipline card on its vampire, a location adding transfers), never one that hurts it or
goes on another's minion.

Every crypt is twelve Arika (contested copies turned face up by hand)."""

from __future__ import annotations

from engine.games.base import Act
from engine.games.vtes import VTES
from engine.games.vtes.bots import VtesBot
from engine.sim import SimTable
from tests.support.vtes_sim import act, copy_table, first_vampire, one_vampire_table, replayed

WHO = ["Ana", "Ben", "Cy", "Dee"]


def said(t: SimTable) -> list[str]:
    return [n.render(WHO) for n in t.notes]


def test_fame_on_a_vampire_in_torpor_makes_each_methuselah_burn_1_pool_in_their_unlock_phase() -> None:
    start = one_vampire_table("Arika", (("Fame", 1), ("Minion Tap", 1)), seed=5, phase="master")
    ana = start.state.acting
    ben = start.view(ana).players[ana].prey
    arika = first_vampire(start, ana)
    fame = next(c.as_list() for c in start.view(ana).hand if c.name == "Fame")
    act(start, ana, "move", cards=[fame], to="on", on=arika, no_replace=True)
    act(start, ana, "move", cards=[arika], to="torpor")  # Fame: Ana burns 3 pool
    t = copy_table(start)
    pools = [p.pool for p in t.state.players]
    done: list[tuple[int, Act]] = [(ana, {"do": "end_turn"})]
    t.play(ana, {"do": "end_turn"})
    assert t.state.acting == ben and t.state.players[ben].pool == pools[ben] - 1
    assert f"Fame: Arika (G2) is in torpor, {WHO[ben]} burns 1 pool" in said(t), said(t)
    while t.state.acting != ana:
        done.append((t.state.acting, {"do": "end_turn"}))
        t.play(t.state.acting, {"do": "end_turn"})
    assert [p.pool for p in t.state.players] == [n - 1 for n in pools]  # everyone, Ana too
    assert replayed(start, done).state == t.state


def test_fame_on_a_ready_vampire_burns_no_pool_in_the_unlock_phase() -> None:
    t = one_vampire_table("Arika", (("Fame", 1), ("Minion Tap", 1)), seed=5, phase="master")
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    fame = next(c.as_list() for c in t.view(ana).hand if c.name == "Fame")
    act(t, ana, "move", cards=[fame], to="on", on=first_vampire(t, ana), no_replace=True)
    pool = t.state.players[ben].pool
    act(t, ana, "end_turn")
    assert t.state.players[ben].pool == pool


def _bot_choice(t: SimTable, seat: int) -> Act | None:
    view = t.view(seat)
    return VtesBot(seed=0).choose(view, VTES.legal_acts(view))


def test_a_bot_puts_a_discipline_card_on_its_vampire_in_its_master_phase() -> None:
    t = one_vampire_table("Beetleman", (("Dominate", 1), ("Fame", 1), ("Minion Tap", 1)), seed=5, phase="master")
    ana = t.state.acting
    chosen = _bot_choice(t, ana)
    dominate = next(c.as_list() for c in t.view(ana).hand if c.name == "Dominate")
    assert chosen is not None and chosen["card"] == dominate
    assert chosen["to"] == "on" and chosen["on"] == first_vampire(t, ana)
    t.play(ana, chosen)
    t.run_ops()
    assert _bot_choice(t, ana) == {"do": "phase"}  # its one master phase action is used


def test_a_bot_plays_a_location_that_adds_transfers_and_never_fame_or_pentex() -> None:
    library = (("Information Highway", 1), ("Fame", 1), ("Pentex™ Subversion", 1), ("Anarch Revolt", 1))
    t = one_vampire_table("Arika", library, seed=5, phase="master")
    ana = t.state.acting
    chosen = _bot_choice(t, ana)
    highway = next(c.as_list() for c in t.view(ana).hand if c.name == "Information Highway")
    assert chosen is not None and chosen["card"] == highway and chosen["to"] == "ready"
    t.play(ana, chosen)
    t.run_ops()
    t = one_vampire_table("Arika", library[1:], seed=5, phase="master")
    assert _bot_choice(t, t.state.acting) == {"do": "phase"}
