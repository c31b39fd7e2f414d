"""A political action card's terms chosen by the person who calls the referendum, from the offers,
and applied by the table as it passes (shared/rules/vtes-actions.md 7.1, P7; rulebook, "Political
Actions"): points allocated (Kine Resources Contested), a richer Methuselah's pool shared out
(Parity Shift), pool burned per minion (Ancilla Empowerment: no choice), a younger vampire
banished (Banishment). Each refusal is a sentence and changes nothing; terms given as text alone
stay the players' to apply; the log replays to the same state.

Tables from :func:`tests.support.vtes_fight.titled_table`: seats clockwise Ana, Ben, Cy, Dee in
Ana's minion phase; Ana's prince Lucia (Volker, capacity 5, 3 blood) calls; Ben's justicar Marek
(Anastasz di Zagreb, capacity 8) is ready and his primogen (capacity 4) in torpor."""

from __future__ import annotations

from engine.games.base import Act
from engine.games.vtes.offers import legal_acts
from tests.support.vtes_fight import Fight, fight_named, lucia_passes_it, refused, titled_table, to_terms
from tests.support.vtes_sim import copy_table, replayed


def _offered_terms(f: Fight) -> list[Act]:
    return [a for a in legal_acts(f.t.view(f.ana)) if a["do"] == "terms"]


def test_the_caller_picks_kine_resources_contested_terms_from_the_offers_and_the_table_burns_them() -> None:
    f = titled_table()
    start, done = copy_table(f.t), []
    t = f.t
    pools = [p.pool for p in t.state.players]
    to_terms(f, "Kine Resources Contested", done)
    offered = _offered_terms(f)
    words = [fight_named(f, a["text"]) for a in offered]
    assert "Kine Resources Contested: Ben burns 3, Cy burns 1" in words
    assert "Kine Resources Contested: Ben and Dee burn 2 each" in words
    assert all("changes" in a for a in offered[:-1])  # the last, the terms in words: the players apply them
    assert offered[-1] == {"do": "terms", "text": "as the card says"}
    chosen = offered[words.index("Kine Resources Contested: Ben burns 3, Cy burns 1")]
    notes = t.play(f.ana, chosen)
    done.append((f.ana, chosen))
    lines = [fight_named(f, n.text) for n in notes]
    assert lines == [
        "Ana chooses the terms",
        "The terms, applied by the table if it passes: Kine Resources Contested: Ben burns 3, Cy burns 1 "
        "(4 points allocated)",
    ]
    assert [p.pool for p in t.state.players] == pools  # nothing until it passes
    lucia_passes_it(f, done)
    after = [p.pool for p in t.state.players]
    assert after[f.ben] == pools[f.ben] - 3 and after[f.cy] == pools[f.cy] - 1
    assert after[f.ana] == pools[f.ana] and after[f.dee] == pools[f.dee]
    said = [fight_named(f, n.text) for n in t.notes[-2:]]
    assert said == ["Kine Resources Contested: Ben burns 3 pool", "Kine Resources Contested: Cy burns 1 pool"]
    assert replayed(start, done).state == t.state


def test_an_allocation_the_card_does_not_allow_is_refused_with_its_sentence() -> None:
    f = titled_table()
    to_terms(f, "Kine Resources Contested", [])
    t = f.t
    before = t.state
    cases = [
        ([[f.ben, 3], [f.cy, 2]], "allocate exactly 4 points"),
        ([[f.ben, 4]], "allocate the points among two or more Methuselahs"),
        ([[f.ben, 3], [f.ben, 1]], "name each Methuselah once"),
        ([[f.ben, 4], [f.cy, 0]], "each Methuselah named gets 1 point or more"),
    ]
    for changes, sentence in cases:
        refused(t, f.ana, {"do": "terms", "text": "mine", "changes": changes}, sentence)
        assert t.state == before
    refused(
        t,
        f.ana,
        {"do": "terms", "text": "mine", "card": f.marek},
        "allocate the points: changes, [seat, points] pairs, and nothing else",
    )


def test_terms_given_as_text_alone_stay_the_players_to_apply() -> None:
    f = titled_table()
    to_terms(f, "Kine Resources Contested", [])
    t = f.t
    pools = [p.pool for p in t.state.players]
    t.play(f.ana, {"do": "terms", "text": "Ben burns 4"})
    assert t.state.open_referendum.terms == "Ben burns 4" and not t.state.open_referendum.table
    lucia_passes_it(f, [])
    assert [p.pool for p in t.state.players] == pools
    assert t.notes[-1].text == "Apply its terms by hand"


PARITY_LIBRARY = (("Parity Shift", 2), ("Ancilla Empowerment", 2), ("Banishment", 2), ("Kine Resources Contested", 1))


def test_parity_shift_shares_out_three_of_a_richer_methuselahs_pool_as_the_caller_chose() -> None:
    f = titled_table(library=PARITY_LIBRARY)
    t = f.t
    to_terms(f, "Parity Shift", [])
    assert _offered_terms(f) == [{"do": "terms", "text": "as the card says"}]  # nobody is richer: no choice
    refused(
        t,
        f.ana,
        {"do": "terms", "text": "mine", "seat": f.ben, "changes": [[f.ana, 3]]},
        f"{{s{f.ben}}} has no more pool than you: choose a Methuselah who has more",
    )
    f = titled_table(library=PARITY_LIBRARY)
    t = f.t
    t.play(f.ana, {"do": "pool", "delta": -2, "cause": "effect"})
    start, done = copy_table(t), []
    pools = [p.pool for p in t.state.players]
    to_terms(f, "Parity Shift", done)
    words = [fight_named(f, a["text"]) for a in _offered_terms(f)]
    assert "Parity Shift: 3 of Ben's pool, 2 to you and 1 to Cy" in words
    refused(
        t,
        f.ana,
        {"do": "terms", "text": "x", "seat": f.ben, "changes": [[f.ben, 3]]},
        f"the pool goes to other Methuselahs than {{s{f.ben}}}",
    )
    chosen = {"do": "terms", "text": "x", "seat": f.ben, "changes": [[f.ana, 2], [f.cy, 1]]}
    t.play(f.ana, chosen)
    done.append((f.ana, chosen))
    lucia_passes_it(f, done)
    after = [p.pool for p in t.state.players]
    assert (after[f.ben], after[f.ana], after[f.cy]) == (pools[f.ben] - 3, pools[f.ana] + 2, pools[f.cy] + 1)
    said = [fight_named(f, n.text) for n in t.notes[-3:]]
    assert said == ["Parity Shift: Ben burns 3 pool", "Parity Shift: Ana gains 2 pool", "Parity Shift: Cy gains 1 pool"]
    assert replayed(start, done).state == t.state


def test_ancilla_empowerment_leaves_no_choice_and_burns_pool_for_each_minion_counted_as_itlucia_passes_it() -> None:
    f = titled_table(library=PARITY_LIBRARY)
    t = f.t
    to_terms(f, "Ancilla Empowerment", [])
    offered = [fight_named(f, a["text"]) for a in _offered_terms(f)]
    assert offered == ["Ancilla Empowerment, as printed", "as the card says"]
    refused(
        t,
        f.ana,
        {"do": "terms", "text": "x", "changes": [[f.ben, 1], [f.cy, 1]]},
        "Ancilla Empowerment leaves no choice: its terms are as printed",
    )
    pools = [p.pool for p in t.state.players]
    t.play(f.ana, _offered_terms(f)[0])
    assert (
        t.state.open_referendum.terms
        == "Ancilla Empowerment: each Methuselah burns 1 pool for each minion they control"
    )
    lucia_passes_it(f, [])
    after = [p.pool for p in t.state.players]
    # Ana controls Lucia; Ben his ready justicar and his primogen in torpor; Cy and Dee no minion.
    assert (after[f.ana], after[f.ben]) == (pools[f.ana] - 1, pools[f.ben] - 2)
    assert (after[f.cy], after[f.dee]) == (pools[f.cy], pools[f.dee])


def test_terms_in_words_alone_stay_the_players_even_for_a_card_that_leaves_no_choice() -> None:
    """A ``terms`` act with text alone is the players' to apply, whatever the card (so a log
    written before the table applied Ancilla Empowerment, whose players applied it by hand, folds
    as it did): only the table's own terms (``changes`` []) move pool as it passes."""
    f = titled_table(library=PARITY_LIBRARY)
    t = f.t
    to_terms(f, "Ancilla Empowerment", [])
    pools = [p.pool for p in t.state.players]
    refused(t, f.ana, {"do": "terms", "text": "x", "printed": True, "seat": f.ben}, "terms 'as printed' are for")
    t.play(f.ana, {"do": "terms", "text": "each burns 1 per minion"})
    assert t.state.open_referendum.terms == "each burns 1 per minion"
    lucia_passes_it(f, [])
    assert [p.pool for p in t.state.players] == pools


def test_banishment_refuses_a_vampire_neither_ready_nor_younger() -> None:
    f = titled_table(library=PARITY_LIBRARY)
    t = f.t
    to_terms(f, "Banishment", [])
    # Ben's justicar is older, his primogen in torpor: nothing to choose, the terms as text only.
    assert _offered_terms(f) == [{"do": "terms", "text": "as the card says"}]
    refused(
        t,
        f.ana,
        {"do": "terms", "text": "x", "card": f.marek},
        "Anastasz di Zagreb (G3) is not younger than the acting vampire (a lower capacity)",
    )
    refused(
        t,
        f.ana,
        {"do": "terms", "text": "x", "card": f.extra["primogen"]},
        "Reginald Moore (G4) is not a ready vampire",
    )
