"""When a card is played or discarded (rulebook, "Card Types", "2. Master Phase", "5. Discard
Phase"): a master card in its Methuselah's own master phase, an out-of-turn master card also in
another's turn; a discard in one's own discard phase, else by a card that allows it (P9); a
master card's printed pool cost paid by the command that plays it, as by the key."""

from __future__ import annotations

from engine.games.vtes import VTES
from tests.support.vtes_fight import in_hand, refused
from tests.support.vtes_sim import act, one_vampire_table

LIBRARY = (("Villein", 2), ("Sudden Reversal", 1), ("The Parthenon", 2), ("Dreams of the Sphinx", 2))


def _table():
    t = one_vampire_table("Arika", LIBRARY, seed=5)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    return t, ana, ben


def test_a_master_card_is_played_in_ones_own_master_phase_and_an_out_of_turn_one_in_anothers_turn() -> None:
    t, ana, ben = _table()
    assert t.state.phase == "minion"
    refused(
        t,
        ana,
        {"do": "play", "card": in_hand(t, ana, "Villein")},
        'Villein is a master card: it is played in your master phase, and this is your minion phase (rulebook, "2. Master Phase")',
    )
    refused(
        t,
        ben,
        {"do": "play", "card": in_hand(t, ben, "Villein")},
        "Villein is a master card: it is played in your own master phase",
    )
    refused(
        t,
        ana,
        {"do": "play", "card": in_hand(t, ana, "Sudden Reversal")},
        "Sudden Reversal is an out-of-turn master card: in your own turn it is played in your master phase, and this "
        'is your minion phase (rulebook, "2. Master Phase"); it is also played in another Methuselah\'s turn',
    )
    # An out-of-turn master card in another Methuselah's turn meets its timing; a cancel still
    # needs a card to cancel (the refusal is no longer the timing's).
    refused(
        t,
        ben,
        {"do": "play", "card": in_hand(t, ben, "Sudden Reversal")},
        "Sudden Reversal cancels a master card as it is played, and no master card waits for answers now",
    )
    # Neither is offered outside the master phase (the offers and the table agree).
    offered = {tuple(a["card"]) for a in VTES.legal_acts(t.view(ana)) if a["do"] == "play"}
    assert tuple(in_hand(t, ana, "Villein")) not in offered


def test_a_discard_is_made_in_ones_own_discard_phase_else_by_a_card_that_allows_it() -> None:
    t, ana, ben = _table()
    for seat in (ana, ben):
        refused(
            t,
            seat,
            {"do": "discard", "card": in_hand(t, seat, "Villein")},
            'a card is discarded as a discard phase action, in its Methuselah\'s own discard phase (rulebook, "5. Discard Phase")',
        )
    villein = in_hand(t, ben, "Villein")  # as if its own text let it be discarded now
    act(t, ben, "discard", card=villein, lift="timing", by=villein)
    assert next(c for c in t.state.cards if list(c.pos) == villein).zone == "ash"


def test_the_play_command_pays_a_master_cards_printed_pool_cost() -> None:
    from tui.games.vtes.commands import Context, parse

    t, ana, _ben = _table()
    ctx = Context(t.view(ana), ["Ana", "Ben", "Cy", "Dee"])
    assert parse("play The Parthenon", ctx)["pool"] == 2
    assert parse("play The Parthenon pool 1", ctx)["pool"] == 1  # a cost named is the one paid
    assert "pool" not in parse("play Villein", ctx)
