"""A bot's referendum (shared/rules/vtes-actions.md 7, P7): the terms it records name the
choices its card asks for and the players they touch; once its referendum passes, the table applies
them; a vampire influenced with more blood than its capacity enters play with
its capacity (the rulebook's influence phase); a blood hunt has no calling card.

Tables from :func:`tests.support.vtes_fight.titled_table`: seats clockwise Ana, Ben, Cy, Dee in
Ana's minion phase, every hand the seven cards of FIGHT_LIBRARY (two Kine Resources Contested:
"Allocate 4 points among two or more Methuselahs. Successful referendum means each Methuselah burns
1 pool for each point allocated.")."""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.base import Note
from engine.games.vtes.bots import VtesBot
from engine.games.vtes.cards import card_base
from engine.games.vtes.offers import legal_acts
from engine.games.vtes.readings import TermsKind, terms_reading
from engine.games.vtes.simulate import vtes_table
from tests.support.vtes_fight import Fight, card, fight_table, in_hand, refused, titled_table
from tests.support.vtes_sim import act, copy_table

NAMES = ["Ana", "Ben", "Cy", "Dee"]


@pytest.fixture(scope="module")
def base() -> Fight:
    return titled_table()


@pytest.fixture
def f(base: Fight) -> Fight:
    return dataclasses.replace(base, t=copy_table(base.t))


def _id(name: str) -> int:
    found = card_base().lookup(name)
    assert found is not None
    return int(found.id)


def named(f: Fight, text: str) -> str:
    names = [""] * 4
    for seat, name in zip((f.ana, f.ben, f.cy, f.dee), NAMES, strict=True):
        names[seat] = name
    return Note(text).render(names)


def test_the_political_cards_a_bot_reads_and_those_it_does_not() -> None:
    assert terms_reading(_id("Kine Resources Contested")).kind == TermsKind.ALLOCATE
    assert terms_reading(_id("Banishment")).kind == TermsKind.BANISH
    stranglehold = terms_reading(_id("Political Stranglehold"))
    assert (stranglehold.kind, stranglehold.amount, stranglehold.capacity) == (TermsKind.EACH, 3, 8)
    ancilla = terms_reading(_id("Ancilla Empowerment"))
    assert (ancilla.kind, ancilla.amount, ancilla.counts) == (TermsKind.EACH, -1, "minion")
    assert terms_reading(_id("Ancient Influence")).kind == TermsKind.CHOSEN
    assert terms_reading(_id("Parity Shift")).titles == {"prince", "justicar"}
    assert terms_reading(_id("Praxis Seizure: Berlin")) is None  # a title on the vampire: by hand
    assert terms_reading(_id("Immortal Grapple")) is None  # not a political action card


def _call_then_terms(f: Fight, bot: VtesBot, chosen: dict) -> dict:
    """Ana plays the political action ``chosen``; nobody blocks; everyone passes both windows
    before votes; her bot chooses its terms, which she records. Returns the terms act."""
    t = f.t
    t.play(f.ana, chosen)
    t.run_ops()
    for _window in ("A", "C"):
        for seat in (f.ana, f.ben, f.dee, f.cy):
            act(t, seat, "pass")
    terms = bot.choose(t.view(f.ana), legal_acts(t.view(f.ana)))
    assert terms is not None
    t.play(f.ana, terms)
    return terms


def _bot_calls(f: Fight, bot: VtesBot) -> None:
    """Ana's bot calls a referendum with a Kine Resources Contested; nobody blocks; it records
    its terms; everyone passes before votes."""
    t = f.t
    chosen = bot.choose(t.view(f.ana), legal_acts(t.view(f.ana)))
    assert chosen is not None and (chosen["do"], chosen["kind"]) == ("action", "political")
    assert t.view(f.ana).card(tuple(chosen["card"])).name == "Kine Resources Contested"
    terms = _call_then_terms(f, bot, chosen)
    assert terms["do"] == "terms"
    for seat in (f.ana, f.ben, f.dee, f.cy):
        act(t, seat, "pass")
    assert t.state.open_referendum.step == "voting"


def _bot_votes(f: Fight, bot: VtesBot) -> None:
    """Ana's bot casts its votes and says it is done."""
    t = f.t
    while f.ana not in t.state.open_referendum.done:
        chosen = bot.choose(t.view(f.ana), legal_acts(t.view(f.ana)))
        assert chosen is not None
        act(t, f.ana, chosen["do"], **{k: v for k, v in chosen.items() if k != "do"})


def test_a_bot_chooses_real_terms_naming_the_players_and_the_table_applies_them_once_passed(f: Fight) -> None:
    t, bot = f.t, VtesBot(seed=0)
    pools = {s: t.state.players[s].pool for s in (f.ana, f.ben, f.cy, f.dee)}
    _bot_calls(f, bot)
    terms = t.state.open_referendum.terms
    # Its prey Ben takes 3 of the 4 points, the next Methuselah clockwise 1; the bot none.
    assert named(f, terms) == "Kine Resources Contested: Ben burns 3, Cy burns 1 (4 points allocated)"
    _bot_votes(f, bot)
    for seat in (f.ben, f.cy, f.dee):
        act(t, seat, "done")
    assert t.state.open_referendum is None
    passed = next(n for n in t.notes if "The referendum passes" in n.text)
    assert named(f, passed.text).endswith("Kine Resources Contested: Ben burns 3, Cy burns 1 (4 points allocated)")
    # The table applies the terms as it passes, each change narrated with the card's name.
    after = {s: t.state.players[s].pool for s in pools}
    assert after == {**pools, f.ben: pools[f.ben] - 3, f.cy: pools[f.cy] - 1}
    lines = [named(f, n.text) for n in t.notes[-3:]]
    assert lines[-2:] == ["Kine Resources Contested: Ben burns 3 pool", "Kine Resources Contested: Cy burns 1 pool"]
    # Applied once: the bot goes on with its turn and applies nothing itself.
    following = bot.choose(t.view(f.ana), legal_acts(t.view(f.ana)))
    assert following is None or following["do"] != "pool"


def test_a_bot_applies_nothing_when_its_referendum_fails(f: Fight) -> None:
    t, bot = f.t, VtesBot(seed=0)
    pools = [p.pool for p in t.state.players]
    _bot_calls(f, bot)
    act(t, f.ben, "vote", source="title", card=f.marek, **{"for": False})  # 3 against Ana's 3: a tie
    _bot_votes(f, bot)
    for seat in (f.ben, f.cy, f.dee):
        act(t, seat, "done")
    assert any("The referendum fails: a tie" in n.text for n in t.notes[-3:])
    chosen = bot.choose(t.view(f.ana), legal_acts(t.view(f.ana)))
    assert chosen is None or chosen["do"] != "pool"
    assert [p.pool for p in t.state.players] == pools


def test_a_blood_hunt_has_no_calling_card(f: Fight) -> None:
    """The blood hunt (6.4) is a referendum with no calling card: a vote from it is refused with
    that sentence, not the calling card's (P7)."""
    from engine.games.vtes.politics import open_blood_hunt
    from engine.games.vtes.work import Work

    t = f.t
    w = Work(t.state)
    open_blood_hunt(w, tuple(f.marek))
    t.state = w.freeze()
    for seat in (t.state.acting, f.ben, f.dee, f.cy):
        act(t, seat, "pass")
    assert t.state.open_referendum.step == "voting"
    refused(
        t,
        f.ana,
        {"do": "vote", "source": "calling", "for": False},
        "a blood hunt has no calling card: vote from a title, the Edge or a card (6.4)",
    )


def test_a_vampire_influenced_past_its_capacity_enters_play_with_its_capacity() -> None:
    """An uncontrolled vampire may hold more blood than its capacity; moved to the ready region,
    the excess goes to the blood bank at once, and the narration says so."""
    from engine.games.vtes.decks import bundled_decks

    decks = bundled_decks()
    t = vtes_table([decks[0], decks[1]], {}, 0)
    first = t.state.seating[0]
    vampire = t.view(first).uncontrolled(first)[0]
    act(t, first, "blood", card=list(vampire.pos), delta=vampire.capacity + 1, cause="effect")
    while t.state.phase != "influence":
        act(t, first, "phase")
    act(t, first, "transfer", kind="pool", card=list(vampire.pos))
    assert card(t, vampire.pos).counters == vampire.capacity + 2  # uncontrolled: no limit
    pool = t.state.players[first].pool
    notes = t.play(first, {"do": "influence", "card": list(vampire.pos)})
    assert (card(t, vampire.pos).zone, card(t, vampire.pos).counters) == ("ready", vampire.capacity)
    assert t.state.players[first].pool == pool  # the excess goes to the bank, not to pool
    assert any(f"capacity of {vampire.capacity} blood: the excess 2 goes to the blood bank" in n.text for n in notes)


def test_the_caller_is_offered_a_political_card_from_hand_as_its_card_vote(f: Fight) -> None:
    t = f.t
    act(t, f.ana, "action", kind="political", minion=f.lucia, card=in_hand(t, f.ana, "Kine Resources Contested"))
    for _window in ("A", "C"):
        for seat in (f.ana, f.ben, f.dee, f.cy):
            act(t, seat, "pass")
    act(t, f.ana, "terms", text="Each Methuselah gains 1 pool")
    for seat in (f.ana, f.ben, f.dee, f.cy):
        act(t, seat, "pass")
    sources = [a["source"] for a in legal_acts(t.view(f.ana)) if a["do"] == "vote"]
    assert sources == ["calling", "title", "card"]
    act(t, f.ana, "vote", source="calling")
    sources = [a["source"] for a in legal_acts(t.view(f.ana)) if a["do"] == "vote"]
    assert sources == ["title"]  # one vote from political action cards at most (7.2)


BANISH_LIBRARY = (
    ("Banishment", 2),
    ("Immortal Grapple", 1),
    ("Raven Spy", 1),
    ("Carlton Van Wyk", 1),
    ("Threats", 1),
    ("Patrol", 1),
)


def test_a_bots_banishment_names_the_vampire_and_moves_it_with_its_blood() -> None:
    """Ana's Aksinya Daclau (capacity 9) calls Banishment: the bot chooses its prey Ben's Alexander
    Silverson (capacity 8, younger), names it in the terms, and once the referendum passes moves
    it to Ben's uncontrolled region, its blood kept on it (the card: "counters … stay with them")."""
    f = fight_table(seed=1, library=BANISH_LIBRARY)
    t, bot = f.t, VtesBot(seed=0)
    chosen = bot.choose(t.view(f.ana), legal_acts(t.view(f.ana)))
    assert chosen is not None and chosen["kind"] == "political" and chosen["minion"] == f.lucia
    _call_then_terms(f, bot, chosen)
    expected = "Banishment: Ben's Alexander Silverson (G6) moves to the uncontrolled region"
    assert named(f, t.state.open_referendum.terms) == expected
    for seat in (f.ana, f.ben, f.dee, f.cy):
        act(t, seat, "pass")
    _bot_votes(f, bot)
    for seat in (f.ben, f.cy, f.dee):
        act(t, seat, "done")
    assert any("The referendum passes" in n.text for n in t.notes[-3:])
    silverson = card(t, f.marek)
    assert (silverson.zone, silverson.controller, silverson.counters) == ("uncontrolled", f.ben, 1)
    moved = "Banishment: Alexander Silverson (G6) moves to Ben's uncontrolled region with its 1 blood"
    assert named(f, t.notes[-1].text) == moved
    following = bot.choose(t.view(f.ana), legal_acts(t.view(f.ana)))
    assert following is None or following["do"] not in ("move", "blood")
