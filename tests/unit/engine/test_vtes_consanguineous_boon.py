"""Consanguineous Boon ("Boon. Choose a clan. Successful referendum means each Methuselah gains 1
pool for each vampire of the chosen clan they control."): the caller chooses the clan from the
offers (one per clan of the vampires in play) or names it on the ``terms`` act; the table counts,
as the referendum passes, the vampires of that clan each Methuselah controls, ready or in torpor,
and narrates the pool with the card's name; a name that is no clan, or a clan for another card, is
refused with a sentence; a bot picks the clan that serves it; the log replays to the same state.

Table from :func:`tests.support.vtes_fight.titled_table`: Ana's prince Lucia (Volker, Brujah)
calls; Ben controls Anastasz di Zagreb (Tremere, ready) and Reginald Moore (Brujah, in torpor)."""

from __future__ import annotations

from engine.games.base import Act
from engine.games.vtes.bots import VtesBot
from engine.games.vtes.offers import legal_acts
from tests.support.vtes_fight import Fight, fight_named, lucia_passes_it, refused, titled_table, to_terms
from tests.support.vtes_sim import copy_table, replayed

LIBRARY = (("Consanguineous Boon", 2), ("Kine Resources Contested", 2), ("Raven Spy", 1))


def _offered(f: Fight) -> list[Act]:
    return [a for a in legal_acts(f.t.view(f.ana)) if a["do"] == "terms"]


def test_the_chosen_clan_pays_each_methuselah_for_its_vampires_ready_or_in_torpor() -> None:
    f = titled_table(library=LIBRARY)
    t = f.t
    start, done = copy_table(t), []
    to_terms(f, "Consanguineous Boon", done)
    offered = _offered(f)
    assert [a.get("clan") for a in offered] == ["Brujah", "Tremere", None]  # the last: words alone
    assert fight_named(f, offered[0]["text"]) == "Consanguineous Boon: Brujah (Ana +1, Ben +1 pool as things stand)"
    pools = [p.pool for p in t.state.players]
    t.play(f.ana, offered[0])
    done.append((f.ana, offered[0]))
    r = t.state.open_referendum
    assert r.table and r.clan == "Brujah"
    assert r.terms == "Consanguineous Boon: Brujah; each Methuselah gains 1 pool for each Brujah vampire they control"
    assert [p.pool for p in t.state.players] == pools  # nothing until it passes
    lucia_passes_it(f, done)
    after = [p.pool for p in t.state.players]
    assert (after[f.ana], after[f.ben], after[f.cy], after[f.dee]) == (
        pools[f.ana] + 1,
        pools[f.ben] + 1,  # Reginald Moore, in torpor, is still his
        pools[f.cy],
        pools[f.dee],
    )
    said = [fight_named(f, n.text) for n in t.notes[-2:]]
    assert said == ["Consanguineous Boon: Ana gains 1 pool", "Consanguineous Boon: Ben gains 1 pool"]
    assert replayed(start, done).state == t.state


def test_a_clan_named_by_the_command_is_counted_as_itlucia_passes_it() -> None:
    f = titled_table(library=LIBRARY)
    t = f.t
    to_terms(f, "Consanguineous Boon", [])
    pools = [p.pool for p in t.state.players]
    t.play(f.ana, {"do": "terms", "text": "Tremere", "clan": "Tremere"})
    lucia_passes_it(f, [])
    after = [p.pool for p in t.state.players]
    assert (after[f.ana], after[f.ben]) == (pools[f.ana], pools[f.ben] + 1)


def test_a_name_that_is_no_clan_or_a_clan_for_another_card_is_refused() -> None:
    f = titled_table(library=LIBRARY)
    to_terms(f, "Consanguineous Boon", [])
    refused(f.t, f.ana, {"do": "terms", "text": "x", "clan": "Vampires"}, "'Vampires' is not a clan")
    refused(f.t, f.ana, {"do": "terms", "text": "x", "clan": "Brujah", "seat": f.ben}, "choose the clan")
    g = titled_table(library=LIBRARY)
    to_terms(g, "Kine Resources Contested", [])
    refused(g.t, g.ana, {"do": "terms", "text": "x", "clan": "Brujah"}, "Kine Resources Contested")


def test_a_bot_chooses_the_clan_that_serves_it() -> None:
    f = titled_table(library=LIBRARY)
    to_terms(f, "Consanguineous Boon", [])
    view = f.t.view(f.ana)
    chosen = VtesBot(None, seed=1).choose(view, legal_acts(view))
    assert chosen is not None and chosen["do"] == "terms" and chosen.get("clan") == "Brujah"
