"""Referendums (shared/rules/vtes-actions.md 7, P7): the page's worked example 4 act by act with
real titled vampires, and every refusal of P7 with its sentence.

Seats clockwise Ana, Ben, Cy, Dee (``t.state.seating``); Ana's minion phase, Dee holds the Edge.
Every crypt is four each of a prince, a justicar and a primogen
(:func:`tests.support.vtes_fight.titled_table` picks the first seed dealing Ana a prince and Ben
both others): Ana's prince Lucia and Ben's justicar Marek are ready, Ben's primogen is in torpor.
Every hand is the seven cards of :data:`tests.support.vtes_fight.FIGHT_LIBRARY`, two of them
political action cards (Kine Resources Contested).
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.vtes.offers import legal_acts
from engine.games.vtes.politics import poll_order, printed_title, title_votes
from engine.games.vtes.vocab import News
from engine.games.vtes.work import Work
from tests.support.vtes_fight import FIGHT_LIBRARY, KINE, Fight, called, card, in_hand, refused, titled_table
from tests.support.vtes_sim import act, copy_table


@pytest.fixture(scope="module")
def base() -> Fight:
    f = titled_table()
    w = Work(f.t.state)
    titles = [printed_title(w, tuple(p)) for p in (f.lucia, f.marek, f.extra["primogen"])]
    assert titles == ["Prince", "Justicar", "Primogen"]
    assert [title_votes(x) for x in titles] == [2, 3, 1]
    assert card(f.t, f.extra["primogen"]).zone == "torpor"
    assert (f.t.state.acting, f.t.state.phase, f.t.state.edge) == (f.ana, "minion", f.dee)
    return f


@pytest.fixture
def f(base: Fight) -> Fight:
    return dataclasses.replace(base, t=copy_table(base.t))


def vote(t, seat: int, source: str, side: bool = True, **fields: object):
    return act(t, seat, "vote", source=source, **{"for": side}, **fields)


def ballot(source: str, side: bool = True, **fields: object) -> dict:
    return {"do": "vote", "source": source, "for": side, **fields}


def polling(f: Fight) -> None:
    """The terms, then the loop before votes: pass ×4 in poll order (Ana, prey Ben, predator Dee,
    Cy)."""
    t = f.t
    act(t, f.ana, "terms", text="Each Methuselah gains 1 pool")
    assert poll_order(f.ana, t.state.seating) == (f.ana, f.ben, f.dee, f.cy)
    for seat in (f.ana, f.ben, f.dee, f.cy):
        r = t.state.open_referendum
        assert (r.step, r.impulse) == ("before", seat)
        act(t, seat, "pass")
    assert t.state.open_referendum.step == "voting"


def totals(f: Fight) -> tuple[int, int]:
    r = f.t.state.open_referendum
    return r.total(True), r.total(False)


def test_worked_example_4_a_referendum_with_the_edge_and_titles(f):
    t, ana, ben, cy, dee = f.t, f.ana, f.ben, f.cy, f.dee
    # 1. Lucia's political action with a political action card, stealth +1; pass ×4 in A and in C;
    #    success; Ana records the terms; the loop before votes: pass ×4.
    called(f)
    refused(t, ben, {"do": "terms", "text": "Ben's terms"}, "who called the referendum, records its terms")
    polling(f)
    assert t.state.open_referendum.terms == "Each Methuselah gains 1 pool"
    # 2. Ana: the calling card's vote, Lucia's prince title (2); a third from a card in hand is refused.
    vote(t, ana, "calling")
    assert totals(f) == (1, 0)
    vote(t, ana, "title", card=f.lucia)
    assert totals(f) == (3, 0)
    second = in_hand(t, ana, KINE)
    refused(
        t,
        ana,
        ballot("card", card=second),
        "you already have your vote from a political action card: at most 1 (7.2)",
    )
    # 3. Ben: the justicar's 3 against; the primogen in torpor abstains.
    vote(t, ben, "title", False, card=f.marek)
    assert totals(f) == (3, 3)
    refused(t, ben, ballot("title", False, card=f.extra["primogen"]), "is in torpor: it abstains (7.3)")
    # 4. Dee burns the Edge for; Cy burns a political action card from hand against.
    vote(t, dee, "edge")
    assert totals(f) == (4, 3) and t.state.edge == -1
    kine = in_hand(t, cy, KINE)
    vote(t, cy, "card", False, card=kine)
    assert totals(f) == (4, 4) and card(t, kine).zone == "ash"
    # 5. Done ×4: polling closes, 4–4, a tie fails.
    for seat in (ana, ben, cy, dee):
        assert t.state.open_referendum is not None
        act(t, seat, "done")
    assert t.state.open_referendum is None and t.state.open_action is None
    assert any("The referendum fails: a tie, 4 for and 4 against" in n.text for n in t.notes[-3:])


def test_more_votes_for_than_against_pass(f):
    t, ana, ben, cy, dee = f.t, f.ana, f.ben, f.cy, f.dee
    called(f)
    polling(f)
    vote(t, ana, "title", card=f.lucia)
    vote(t, ben, "card", False, card=in_hand(t, ben, KINE))
    for seat in (ana, ben, cy, dee):
        act(t, seat, "done")
    assert t.state.open_referendum is None
    assert any("The referendum passes, 2 for and 1 against" in n.text for n in t.notes[-3:])
    # The screen reads the news, not the words (tui/games/vtes/table.py).
    resolved = [n for n in t.notes if n.news == News.REFERENDUM_RESOLVED]
    assert len(resolved) == 1 and resolved[0].text.startswith("The referendum passes")
    assert "Apply its terms by hand" in t.notes[-1].text


def test_each_vote_reads_as_one_line_with_its_source_and_the_tally(f):
    """A vote is one line of the narration (the replay, a text feed), not the act's words and then
    the count: the source named (the calling card's own name), the votes and the tally after."""
    t, ana, ben, cy = f.t, f.ana, f.ben, f.cy
    names = [""] * 4
    for seat, name in ((ana, "Ana"), (ben, "Ben"), (cy, "Cy"), (f.dee, "Dee")):
        names[seat] = name
    called(f)
    polling(f)
    lines = [n.render(names) for n in vote(t, ana, "calling")]
    assert len(lines) == 1 and lines[0].startswith("Ana casts 1 vote for (calling: Kine Resources Contested")
    assert lines[0].endswith("; for 1, against 0")
    lines = [n.render(names) for n in vote(t, ben, "title", False, card=f.marek)]
    assert len(lines) == 1 and lines[0].startswith("Ben casts 3 votes against (title: ")
    assert lines[0].endswith("; for 1, against 3")
    kine = in_hand(t, cy, KINE)
    lines = [n.render(names) for n in vote(t, cy, "card", card=kine)]
    assert lines == ["Cy casts 1 vote for (card: Kine Resources Contested); for 2, against 3"]


def test_a_vote_after_done_needs_everyone_done_again(f):
    t, ana, ben, cy, dee = f.t, f.ana, f.ben, f.cy, f.dee
    called(f)
    polling(f)
    for seat in (ana, ben, cy):
        act(t, seat, "done")
    vote(t, dee, "edge")
    assert t.state.open_referendum.done == ()
    act(t, dee, "done")
    assert t.state.open_referendum is not None
    for seat in (ana, ben, cy):
        act(t, seat, "done")
    assert t.state.open_referendum is None


# --- P7: refusals --------------------------------------------------------------------------------------


def test_a_vote_outside_polling_is_refused(f):
    t, ana = f.t, f.ana
    refused(t, ana, ballot("calling"), "there is no referendum under way")
    called(f)
    refused(t, ana, ballot("calling"), "votes are cast during polling, which has not begun")
    refused(t, ana, {"do": "done"}, "polling has not begun: pass instead")
    act(t, ana, "terms", text="terms")
    refused(t, ana, {"do": "terms", "text": "again"}, "the terms are recorded once, before polling")
    refused(t, ana, ballot("title", card=f.lucia), "votes are cast during polling, which has not begun")
    refused(t, f.ben, {"do": "pass"}, "holds the impulse: you may pass when it reaches you (5.1)")


def test_a_source_cast_twice_is_refused(f):
    t, ana, ben = f.t, f.ana, f.ben
    called(f)
    polling(f)
    refused(t, ana, {"do": "pass"}, "polling is open: cast your votes, then say you are done")
    vote(t, ana, "title", card=f.lucia)
    words = "'s votes are cast already: a source votes once, all one way (7.3)"
    refused(t, ana, ballot("title", False, card=f.lucia), words)
    refused(t, ana, ballot("title", card=f.lucia, count=1), words)
    vote(t, ana, "calling")
    refused(t, ana, ballot("calling"), "you already have your vote from a political action card: at most 1 (7.2)")
    refused(t, ben, ballot("title", card=f.lucia), "is not a vampire you control")


def test_the_calling_card_vote_belongs_to_the_caller_and_counts_as_the_card_vote(f):
    t, ana, ben = f.t, f.ana, f.ben
    called(f)
    polling(f)
    refused(t, ben, ballot("calling"), "the calling card's vote belongs to the Methuselah whose vampire called it")
    vote(t, ana, "card", card=in_hand(t, ana, KINE))
    refused(t, ana, ballot("calling"), "you already have your vote from a political action card: at most 1 (7.2)")
    refused(t, ben, ballot("card", card=in_hand(t, ben, "Patrol")), "is not a political action card")


def test_a_titled_vampire_in_torpor_abstains(f):
    t, ben = f.t, f.ben
    called(f)
    polling(f)
    refused(t, ben, ballot("title", card=f.extra["primogen"]), "is in torpor: it abstains (7.3)")
    refused(t, ben, ballot("title", card=f.extra["primogen"], count=1), "is in torpor: it abstains (7.3)")


def test_the_edge_is_burned_only_by_its_holder(f):
    t, ana, dee = f.t, f.ana, f.dee
    called(f)
    polling(f)
    refused(t, ana, ballot("edge"), "only the holder of the Edge may burn it for a vote")
    vote(t, dee, "edge", False)
    refused(t, dee, ballot("edge"), "only the holder of the Edge may burn it for a vote")
    assert totals(f) == (0, 1)


def test_done_twice_is_refused(f):
    t, ana, ben = f.t, f.ana, f.ben
    called(f)
    polling(f)
    act(t, ana, "done")
    refused(t, ana, {"do": "done"}, "you are done already: the others may still vote")
    vote(t, ana, "title", card=f.lucia)  # a Methuselah who is done may still vote
    act(t, ana, "done")
    act(t, ben, "done")
    refused(t, ben, {"do": "done"}, "you are done already")


# --- prisci: ballots, and 3 votes to their majority (7.2) ------------------------------------------


PRISCI = ("Bronwen (G2)", "Genevieve (G2)", "Gisela Harden, The Winnower (G2)", "Gratiano (G2)")
"""Four prisci (krcg ``.title`` "Priscus")."""


@pytest.fixture(scope="module")
def prisci_base() -> Fight:
    """Every crypt is three each of :data:`PRISCI`; the first seed from 2 where the four ready
    vampires are four different prisci and Ana has, uncontrolled, the same vampire as Ben's Marek
    (``extra["rival"]``)."""
    from engine.games.vtes.cards import card_base
    from engine.games.vtes.decks import Deck
    from engine.games.vtes.state import CardState
    from tests.support.vtes_fight import fight_table

    base = card_base()
    ids = []
    for name in PRISCI:
        found = base.lookup(name)
        assert found is not None and str(found.title) == "Priscus"
        ids.append((found.id, 3))
    crypt = Deck("prisci", tuple(sorted(ids)), ())

    def who(t, c: CardState) -> str:
        info = base.info(t.known[c.owner].get(c.pos, "") or c.card)
        return info.character if info is not None else ""

    for seed in range(2, 60):
        f = fight_table(seed=seed, crypt=crypt)
        t = f.t
        ready = {tuple(p): card(t, p) for p in (f.lucia, f.marek, f.nico, f.sasha)}
        names = [who(t, c) for c in ready.values()]
        marek = who(t, card(t, f.marek))
        rival = next(
            (c for c in t.state.cards if c.owner == f.ana and c.zone == "uncontrolled" and who(t, c) == marek), None
        )
        if len(set(names)) == 4 and rival is not None:
            return dataclasses.replace(f, extra={"rival": list(rival.pos)})
    raise AssertionError("no seed dealt four different prisci and a rival for Marek")


def test_prisci_cast_ballots_and_their_majority_gives_3_votes(prisci_base: Fight):
    f = dataclasses.replace(prisci_base, t=copy_table(prisci_base.t))
    t, ana, ben, cy, dee = f.t, f.ana, f.ben, f.cy, f.dee
    called(f)
    polling(f)
    offered = [a for a in legal_acts(t.view(ben)) if a.get("source") == "ballot"]
    assert offered == [{"do": "vote", "source": "ballot", "card": f.marek}]
    refused(t, ben, ballot("title", card=f.marek), "has no printed title")
    refused(t, ben, ballot("ballot", card=f.marek, count=3), "a priscus casts one ballot")
    vote(t, ana, "ballot", card=f.lucia)
    assert totals(f) == (3, 0)  # one ballot for: the prisci's 3 votes go for
    vote(t, ben, "ballot", False, card=f.marek)
    assert totals(f) == (0, 0)  # a tie of ballots: the prisci abstain
    vote(t, cy, "ballot", card=f.nico)
    notes = vote(t, dee, "ballot", False, card=f.sasha)
    assert totals(f) == (0, 0) and "ballots 2 for, 2 against; for 0, against 0" in notes[-1].text
    vote(t, ana, "calling")
    for seat in (ana, ben, cy, dee):
        act(t, seat, "done")
    assert any("The referendum passes, 1 for and 0 against" in n.text for n in t.notes[-3:])


def test_only_a_ready_priscus_casts_a_ballot(f):
    t, ana = f.t, f.ana
    called(f)
    polling(f)
    refused(t, ana, ballot("ballot", card=f.lucia), "is not a priscus: only prisci cast ballots (7.2)")
    refused(t, f.ben, ballot("ballot", card=f.extra["primogen"]), "is in torpor: it abstains (7.3)")


def test_a_vampire_in_play_twice_is_contested_and_gives_no_votes(prisci_base: Fight):
    """Rulebook, "Contested Cards": "For the duration of the contest, all of the contested cards are
    turned face down and are out of play": Ben's Marek, contested by Ana's copy, casts no ballot."""
    f = dataclasses.replace(prisci_base, t=copy_table(prisci_base.t))
    t, ana, ben = f.t, f.ana, f.ben
    rival = f.extra["rival"]
    assert not t.view(ben).contested(tuple(f.marek))
    act(t, ana, "move", cards=[rival], to="ready")
    for seat in (ana, ben):
        view = t.view(seat)
        assert view.contested(tuple(f.marek)) and view.contested(tuple(rival))
        assert not view.contested(tuple(f.lucia))
    called(f)
    polling(f)
    assert not [a for a in legal_acts(t.view(ben)) if a.get("source") == "ballot"]
    refused(t, ben, ballot("ballot", card=f.marek), "is contested: it is face down and out of play")
    vote(t, ana, "ballot", card=f.lucia)  # Lucia is not contested


def test_votes_from_another_card_name_only_a_card_the_voter_controls(f):
    """A seat cannot vote with another Methuselah's face-up vampire as "another card" (P7, P9;
    docs/vtes-by-hand.md): the sentence names whose card it is; its own card may."""
    t, ben = f.t, f.ben
    called(f)
    polling(f)
    refused(t, ben, ballot("other", card=f.lucia, count=30), "must be a card you control, and Volker")
    vote(t, ben, "other", card=f.marek, count=1)
    assert totals(f) == (1, 0)


def test_in_a_political_actions_referendum_cards_keep_their_types_timing(f):
    """While the referendum of Ana's political action is the innermost window: no action card
    (an ally's recruit) and no combat card; an action modifier only by the acting Methuselah, a
    reaction only by another (§2; rulebook, "Card Types")."""
    t, ana, ben = f.t, f.ana, f.ben
    called(f)
    # The caller hears what it does first, in the second person (not its own name).
    refused(t, ana, {"do": "pass"}, "record the referendum's terms first (the terms act")
    act(t, ana, "terms", text="Each Methuselah gains 1 pool")
    refused(t, ana, {"do": "play", "card": in_hand(t, ana, "Patrol")}, "Patrol is a reaction")
    act(t, ana, "pass")  # the impulse before votes goes to Ben (poll order)
    refused(t, ben, {"do": "play", "card": in_hand(t, ben, "Threats")}, "Threats is an action modifier")
    refused(
        t,
        ben,
        {"do": "play", "card": in_hand(t, ben, "Carlton Van Wyk")},
        "Carlton Van Wyk is an action card: it cannot be played during a referendum",
    )
    refused(t, ben, {"do": "play", "card": in_hand(t, ben, "Immortal Grapple")}, "Immortal Grapple is a combat card")


@pytest.fixture(scope="module")
def justicar_base() -> Fight:
    return titled_table(library=(("Ventrue Justicar", 2), *FIGHT_LIBRARY[1:]))


def _title_called(justicar_base: Fight) -> tuple[Fight, list[int]]:
    f = dataclasses.replace(justicar_base, t=copy_table(justicar_base.t))
    t = f.t
    title = in_hand(t, f.ana, "Ventrue Justicar")
    act(t, f.ana, "action", kind="political", minion=f.lucia, card=title)
    for _window in ("A", "C"):
        for seat in (f.ana, f.ben, f.dee, f.cy):
            act(t, seat, "pass")
    assert card(t, title).zone == "aside"  # not on Lucia, the caller, before any vote
    polling(f)
    return f, title


def test_a_title_card_whose_referendum_fails_goes_to_the_ash_heap(justicar_base: Fight) -> None:
    """A political action card that goes on a vampire "if this referendum is successful" waits
    aside through its referendum; a failed referendum burns it (rulebook, "Political Actions"):
    it never stays on the caller, as a tester saw a failed Ventrue Justicar do."""
    f, title = _title_called(justicar_base)
    t = f.t
    vote(t, f.ana, "calling")
    vote(t, f.ben, "title", False, card=f.marek)  # a justicar's 3 votes against
    for seat in (f.ana, f.ben, f.cy, f.dee):
        if t.state.open_referendum is not None:
            act(t, seat, "done")
    assert t.state.open_referendum is None
    assert card(t, title).zone == "ash"
    assert any("Ventrue Justicar goes to the ash heap: its referendum failed" in n.text for n in t.notes)


def test_a_title_card_whose_referendum_passes_waits_for_its_vampire(justicar_base: Fight) -> None:
    f, title = _title_called(justicar_base)
    t = f.t
    vote(t, f.ana, "calling")
    for seat in (f.ana, f.ben, f.cy, f.dee):
        if t.state.open_referendum is not None:
            act(t, seat, "done")
    assert t.state.open_referendum is None
    assert card(t, title).zone == "aside"
    assert any("Put Ventrue Justicar on the vampire its terms chose" in n.text for n in t.notes)
    act(t, f.ana, "move", cards=[title], to="on", on=f.lucia)  # by hand, as the note says
    assert card(t, title).zone == "on"
