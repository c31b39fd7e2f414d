"""A card on a vampire that moves blood between it and its controller's pool once a turn, in the
phase the card names (Blood Doll: "During their master phase, this vampire's controller can move 1
blood from this vampire to their pool or from their pool to this vampire"; Vessel: the same in the
unlock phase): offered both ways as a ``transfer`` naming the card (``by``), applied by the table
with the card's name, once a turn, only in that phase; no transfer of the influence phase is
spent; the log replays to the same state.

Every crypt is twelve Arika; Ana's vampire has 4 blood."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import act, copy_table, one_vampire_table
from tests.support.vtes_sim import first_vampire as vampire

LIBRARY = (("Blood Doll", 1), ("Vessel", 1), ("Lost in Crowds", 2))


def table(phase: str, name: str) -> SimTable:
    """The first Methuselah in ``phase``, the card ``name`` moved from her hand onto her vampire."""
    t = one_vampire_table("Arika", LIBRARY, seed=5, phase=phase)
    ana = t.state.acting
    card = next(c.as_list() for c in t.view(ana).hand if c.name == name)
    act(t, ana, "move", cards=[card], to="on", on=vampire(t, ana), no_replace=True)
    return t


def shifts(t: SimTable) -> list[Act]:
    ana = t.state.acting
    return [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "transfer" and a.get("by")]


def numbers(t: SimTable) -> tuple[int, int]:
    ana = t.state.acting
    blood = next(c.counters for c in t.view(ana).cards if c.as_list() == vampire(t, ana))
    return blood, t.view(ana).players[ana].pool


@pytest.mark.parametrize(("phase", "name"), [("master", "Blood Doll"), ("unlock", "Vessel")])
@pytest.mark.parametrize("kind", ["blood", "pool"])
def test_the_card_moves_1_blood_either_way_once_a_turn(phase: str, name: str, kind: str) -> None:
    start = table(phase, name)
    t = copy_table(start)
    ana = t.state.acting
    offered = shifts(t)
    assert sorted(a["kind"] for a in offered) == ["blood", "pool"]
    assert all(a["card"] == vampire(t, ana) and a["n"] == 1 for a in offered)
    chosen = next(a for a in offered if a["kind"] == kind)
    blood, pool = numbers(t)
    notes = t.play(ana, chosen)
    step = 1 if kind == "pool" else -1
    assert numbers(t) == (blood + step, pool - step)
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes]
    assert any(s.startswith(f"{name}: 1 blood moved") for s in said), said
    assert shifts(t) == []  # once a turn
    with pytest.raises(IllegalMove, match="has moved blood this turn already"):
        t.play(ana, chosen)
    again = copy_table(start)
    again.play(ana, chosen)
    assert again.state == t.state


def test_blood_doll_moves_blood_only_in_the_master_phase() -> None:
    t = table("master", "Blood Doll")
    ana = t.state.acting
    chosen = shifts(t)[0]
    act(t, ana, "phase")  # the minion phase
    assert shifts(t) == []
    with pytest.raises(IllegalMove, match="moves blood during your master phase"):
        t.play(ana, chosen)


def test_the_transfer_command_uses_the_card_outside_the_influence_phase() -> None:
    from tui.games.vtes.commands import CommandError, Context, parse

    t = table("master", "Blood Doll")
    ana = t.state.acting
    ctx = Context(t.view(ana), ["Ana", "Ben", "Cy", "Dee"])
    doll = next(c.as_list() for c in t.view(ana).cards if c.name == "Blood Doll")
    to_pool = parse("transfer -1", ctx)
    assert to_pool == {"do": "transfer", "kind": "blood", "card": vampire(t, ana), "n": 1, "by": doll}
    assert parse("transfer 1 Arika", ctx)["kind"] == "pool"
    with pytest.raises(CommandError, match="No card of yours moves 2 blood"):
        parse("transfer -2", ctx)
    t.play(ana, to_pool)
    assert any(n.text.startswith("Blood Doll: 1 blood moved") for n in t.notes)
