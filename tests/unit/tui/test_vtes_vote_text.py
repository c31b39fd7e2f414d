"""A referendum in words (shared/rules/vtes-actions.md 7.2, P7): the votes listed name the titled
vampire and the card they come from; a vote command that names a wrong source suggests only the
sources the engine would take (and says when there is none).

Worked example 4's table (:func:`tests.support.vtes_fight.titled_table`): Ana's prince Lucia and
Ben's justicar Marek are ready, Ben's primogen in torpor; two Kine Resources Contested in every hand.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes.terms_choices import terms_side
from tests.support.vtes_fight import Fight, in_hand, titled_table
from tests.support.vtes_sim import act, copy_table
from tui.games.vtes.command_words import CommandError, Context
from tui.games.vtes.fight_commands import parse_line
from tui.games.vtes.fight_text import referendum_lines

KINE = "Kine Resources Contested"
NAMES = ["Ana", "Ben", "Cy", "Dee"]


@pytest.fixture(scope="module")
def base() -> Fight:
    """Lucia's political action with a Kine Resources Contested succeeds; the terms; polling."""
    f = titled_table()
    t = f.t
    act(t, f.ana, "action", kind="political", minion=f.lucia, card=in_hand(t, f.ana, KINE))
    while t.state.open_action is not None:
        act(t, t.state.open_action.impulse, "pass")
    act(t, f.ana, "terms", text="Each Methuselah gains 1 pool")
    while t.state.open_referendum.step != "voting":
        act(t, t.state.open_referendum.impulse, "pass")
    return f


@pytest.fixture
def f(base: Fight) -> Fight:
    return dataclasses.replace(base, t=copy_table(base.t))


def names(f: Fight) -> list[str]:
    by_seat = dict(zip((f.ana, f.ben, f.cy, f.dee), NAMES, strict=True))
    return [by_seat[s] for s in range(4)]


def short(f: Fight, pos: list[int]) -> str:
    c = f.t.view(f.ana).card(tuple(pos))
    assert c is not None
    return c.name.split(" (")[0]


def parse(f: Fight, seat: int, line: str) -> Act:
    return parse_line(line, Context(f.t.view(seat), names(f)))


def test_the_votes_name_the_titled_vampire_and_the_card(f: Fight) -> None:
    t = f.t
    act(t, f.ana, "vote", source="calling", **{"for": True})
    act(t, f.ana, "vote", source="title", card=f.lucia, **{"for": True})
    act(t, f.ben, "vote", source="title", card=f.marek, **{"for": False})
    act(t, f.cy, "vote", source="card", card=in_hand(t, f.cy, KINE), **{"for": False})
    view = t.view(f.dee)
    assert view.referendum is not None
    _, detail = referendum_lines(view, names(f), view.referendum)
    assert f"for 3: Ana 1 (calling: {KINE}), Ana 2 (title: {short(f, f.lucia)})" in detail
    assert f"against 4: Ben 3 (title: {short(f, f.marek)}), Cy 1 (card: {KINE})" in detail


def test_a_wrong_title_suggests_only_titles_that_vote(f: Fight) -> None:
    marek = short(f, f.marek)
    with pytest.raises(CommandError) as err:
        parse(f, f.ben, "vote against title Zafira")
    text = str(err.value)
    assert "No titled vampire of yours called 'Zafira'" in text and marek in text
    assert short(f, f.extra["primogen"]) not in text  # in torpor: it abstains (7.3)
    assert parse(f, f.ben, f"vote against title {marek}")["card"] == f.marek
    act(f.t, f.ben, "vote", source="title", card=f.marek, **{"for": False})
    with pytest.raises(CommandError, match="None of your ready vampires has a title whose votes"):
        parse(f, f.ben, f"vote against title {marek}")


def test_a_wrong_card_suggests_only_political_action_cards(f: Fight) -> None:
    with pytest.raises(CommandError) as err:
        parse(f, f.ben, "vote card Patrol")
    text = str(err.value)
    assert f"(you may name: {KINE}" in text and "Immortal Grapple" not in text and "Patrol (" not in text
    assert parse(f, f.ben, "vote card Kine")["source"] == "card"
    # once Ana has cast the calling card's vote, no political action card vote is left to her (7.2)
    act(f.t, f.ana, "vote", source="calling", **{"for": True})
    with pytest.raises(CommandError, match="You have no political action card vote to cast"):
        parse(f, f.ana, "vote card Kine")


def test_a_vote_from_another_card_names_no_cause_and_says_the_form(f: Fight) -> None:
    """``vote for other CARD N`` takes the votes of a card of one's own; a cause after it is
    refused with the form to use, and another's card is refused by the table with its owner."""
    lucia, marek = short(f, f.lucia), short(f, f.marek)
    with pytest.raises(CommandError, match="A vote names no cause, not 'for Banishment'") as err:
        parse(f, f.ben, f"vote for other {marek} 3 for Banishment")
    assert "vote for other CARD N with a card you control" in str(err.value)
    theirs = parse(f, f.ben, f"vote for other {lucia} 3")
    with pytest.raises(IllegalMove, match="must be a card you control") as refused:
        act(f.t, f.ben, "vote", **{k: v for k, v in theirs.items() if k != "do"})
    assert "only its Methuselah may use it" in str(refused.value)


def test_a_seat_done_voting_by_itself_is_named_so_among_those_not_done(f: Fight) -> None:
    """While this seat's automatic ``done`` is on its way, the box says it is done by itself, and
    the list of those not done says the same of it (a tester read "done voting by itself" above
    "not done: …, you")."""
    view = f.t.view(f.dee)
    assert view.referendum is not None and f.dee not in view.referendum.done
    _, asked = referendum_lines(view, names(f), view.referendum)
    _, by_itself = referendum_lines(view, names(f), view.referendum, by_itself=True)
    assert asked.endswith(", you") and by_itself.endswith(", you (by itself)"), (asked, by_itself)


def test_the_side_the_terms_favour_follows_what_they_do_to_the_voter(f: Fight) -> None:
    """``V`` fills in the side :func:`terms_side` gives: against a blood hunt on one's own vampire,
    against terms the table applies that send one's vampire back or burn one's pool, for those
    that give pool; terms in words alone, and those that touch another only: for."""
    view = f.t.view(f.ben)
    r = view.referendum
    assert r is not None and not r.table
    assert terms_side(view, f.ben) == (True, "")  # the players' words: Ben weighs them

    def side(seat: int, **changed: object) -> tuple[bool, str]:
        return terms_side(dataclasses.replace(view, referendum=dataclasses.replace(r, **changed)), seat)

    marek = short(f, f.marek)
    assert side(f.ben, hunted=tuple(f.marek)) == (False, f"the blood hunt burns your {marek}")
    assert side(f.cy, hunted=tuple(f.marek)) == (True, "")
    assert side(f.ben, table=True, banish=tuple(f.marek)) == (False, f"the terms send your {marek} back")
    assert side(f.ben, banish=tuple(f.marek)) == (True, "")  # not the table's terms: nothing applied
    shares = ((f.ben, -3), (f.ana, 3))
    assert side(f.ben, table=True, shares=shares) == (False, "the terms burn 3 of your pool")
    assert side(f.ana, table=True, shares=shares) == (True, "the terms give you 3 pool")
    assert side(f.cy, table=True, shares=shares) == (True, "")


def test_a_bot_votes_the_side_the_terms_favour_for_it(f: Fight) -> None:
    """A bot votes by what the terms do to it, the side ``V`` fills in (:func:`terms_side`, one
    rule): for Ana's referendum when the table's terms give it pool, against when they burn its
    pool or send its vampire back; against another's referendum that does nothing for it."""
    from engine.games.vtes.bots import VtesBot
    from engine.games.vtes.offers import legal_acts

    view = f.t.view(f.ben)
    r = view.referendum
    assert r is not None and r.caller == f.ana

    def vote(**changed: object) -> bool:
        changed_view = dataclasses.replace(view, referendum=dataclasses.replace(r, **changed))
        chosen = VtesBot(seed=0).choose(changed_view, legal_acts(changed_view))
        assert chosen is not None and chosen["do"] == "vote", chosen
        return bool(chosen["for"])

    assert vote(table=True, shares=((f.ben, 2), (f.ana, 1))) is True  # before: against any other's
    assert vote(table=True, shares=((f.ben, -3), (f.ana, 3))) is False
    assert vote(table=True, banish=tuple(f.marek)) is False
    assert vote() is False  # terms in words, nothing the table applies to Ben
