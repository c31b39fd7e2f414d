"""Unique cards and contests (rulebook, "Contested Cards", "Contested Titles", "Unique";
engine/games/vtes/contests.py; docs/vtes-contests.md): a Methuselah's own second copy, a contest
between two Methuselahs, paying and yielding in the unlock phase, what a contested vampire cannot
do, a contested title; the offers a seat and a bot read; a bot game full of contests still ends."""

from __future__ import annotations

import pytest

from engine.games.vtes import VTES, contests
from engine.games.vtes.bots import CONTEST_MARGIN, VtesBot
from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck, bundled_decks
from engine.games.vtes.offers import legal_acts
from engine.games.vtes.simulate import vtes_table
from engine.games.vtes.state import CardState
from engine.games.vtes.vocab import Do, Phase, Zone
from engine.sim import SimTable, play_game
from tests.support.vtes_fight import FIGHT_LIBRARY, refused
from tests.support.vtes_sim import act, deck_of

VOLKER = "Volker, The Puppet Prince"
LODIN, KEVIN = "Lodin (Olaf Holte)", "Kevin Jackson"
"""Lodin is the prince of Chicago, Kevin Jackson its baron: one city's titles contest each other."""


def _crypt(*names: str) -> Deck:
    base = card_base()
    ids = []
    for name in names:
        found = base.lookup(name)
        assert found is not None, name
        ids.append((found.id, 12 // len(names)))
    return Deck("contests", tuple(sorted(ids)), ())


def table(*crypts: tuple[str, ...], seed: int = 1, library: tuple[tuple[str, int], ...] = FIGHT_LIBRARY) -> SimTable:
    """Four seats; seat i's crypt is twelve cards of ``crypts[i]`` (the last for the others); the
    libraries are the seven fight cards (or ``library``); the first player is in its unlock phase."""
    decks = [deck_of(_crypt(*crypts[min(i, len(crypts) - 1)]), *library) for i in range(4)]
    return vtes_table(decks, {"library_size": False}, seed)


def name_of(t: SimTable, seat: int, c: CardState) -> str:
    info = card_base().info(c.card or t.known[seat].get(c.pos, ""))
    return info.character if info is not None else ""


def waiting(t: SimTable, seat: int, name: str) -> list[list[int]]:
    """``seat``'s uncontrolled copies of vampire ``name``."""
    return [
        list(c.pos)
        for c in t.state.cards
        if c.owner == seat and c.zone == Zone.UNCONTROLLED and name_of(t, seat, c).startswith(name.split(",")[0])
    ]


def zone(t: SimTable, pos: list[int]) -> Zone:
    return next(c.zone for c in t.state.cards if list(c.pos) == pos)


def bring(t: SimTable, seat: int, name: str, blood: int = 3) -> list[int]:
    """``seat`` moves an uncontrolled ``name`` to its ready region by hand, then (unless it is
    contested) gives it ``blood``."""
    pos = waiting(t, seat, name)[0]
    act(t, seat, "move", cards=[pos], to="ready")
    if zone(t, pos) == Zone.READY and blood:
        act(t, seat, "blood", card=pos, delta=blood, cause="effect")
    return pos


def to_next_turn(t: SimTable) -> None:
    """The acting Methuselah settles nothing and ends its turn (its unlock phase must be settled)."""
    act(t, t.state.acting, "end_turn")


def texts(t: SimTable) -> str:
    return "\n".join(n.text for n in t.notes)


# --- a Methuselah's own copies -------------------------------------------------------------------


def test_a_second_copy_of_ones_own_vampire_cannot_be_influenced_out():
    """Rulebook, "Contested Cards": "You cannot control more than one of the same unique card at a
    time, and you cannot voluntarily contest cards with yourself": the influence is refused with
    that sentence, and not offered."""
    t = table((VOLKER,))
    ana = t.state.seating[0]
    bring(t, ana, VOLKER)
    second = waiting(t, ana, VOLKER)[0]
    act(t, ana, "blood", card=second, delta=10, cause="effect")
    while t.state.phase != Phase.INFLUENCE:
        act(t, ana, "phase")
    assert not [a for a in legal_acts(t.view(ana)) if a["do"] == Do.INFLUENCE]
    refused(t, ana, {"do": "influence", "card": second}, "you cannot voluntarily contest cards with yourself")


def test_a_second_copy_forced_into_play_under_its_controller_is_burned():
    """Rulebook, "Contested Cards": "if some effect would force you to contest a card with yourself,
    then you simply burn the incoming copy of the unique card"."""
    t = table((VOLKER,))
    ana = t.state.seating[0]
    first = bring(t, ana, VOLKER)
    second = waiting(t, ana, VOLKER)[0]
    act(t, ana, "move", cards=[second], to="ready")
    assert zone(t, first) == Zone.READY and zone(t, second) == Zone.ASH
    assert "you simply burn the incoming copy of the unique card" in texts(t)
    assert not t.view(ana).contested(tuple(first))


# --- a contest between two Methuselahs -----------------------------------------------------------


@pytest.fixture
def contest() -> tuple[SimTable, int, int, list[int], list[int]]:
    """Ana (acting, in her unlock phase) and Ben both bring Volker into play: contested."""
    t = table((VOLKER,))
    ana, ben = t.state.seating[:2]
    mine = bring(t, ana, VOLKER)
    theirs = bring(t, ben, VOLKER)
    return t, ana, ben, mine, theirs


def test_a_vampire_another_methuselah_controls_is_contested_face_down(contest):
    """Rulebook, "Contested Cards": "If more than one unique card with the same name is brought into
    play, ... all of the contested cards are turned face down and are out of play"."""
    t, ana, ben, mine, theirs = contest
    assert zone(t, mine) == Zone.CONTESTED and zone(t, theirs) == Zone.CONTESTED
    assert "all of the contested cards are turned face down and are out of play" in texts(t)
    for seat in t.state.seating:
        view = t.view(seat)
        assert view.contested(tuple(mine)) and view.contested(tuple(theirs))
        assert not view.controlled(ana) and not view.controlled(ben)  # not ready: out of play
    assert next(c for c in t.state.cards if list(c.pos) == mine).counters == 3  # its blood stays on it
    refused(t, ana, {"do": "blood", "card": mine, "delta": 1, "cause": "effect"}, "it is face down and out of play")
    refused(t, ana, {"do": "lock", "cards": [mine]}, "it is face down and out of play")


def test_the_unlock_phase_does_not_end_before_the_contest_is_paid_or_yielded(contest):
    """Rulebook, "Contested Cards": "The cost to contest a card is 1 pool, which you pay during each of
    your unlock phases. Instead of paying the cost to contest the card, you may choose to yield the
    card." Ana is offered both, and neither moving on nor ending her turn until she chooses."""
    t, ana, _ben, mine, _theirs = contest
    offered = legal_acts(t.view(ana))
    assert {"do": Do.CONTEST, "card": mine} in offered and {"do": Do.YIELD, "card": mine} in offered
    assert not [a for a in offered if a["do"] in (Do.PHASE, Do.END_TURN)]
    words = "The cost to contest a card is 1 pool, which you pay during each of your unlock phases"
    refused(t, ana, {"do": "phase"}, words)
    refused(t, ana, {"do": "end_turn"}, words)
    pool = t.state.players[ana].pool
    act(t, ana, "contest", card=mine)
    assert t.state.players[ana].pool == pool - 1 and zone(t, mine) == Zone.CONTESTED
    refused(t, ana, {"do": "contest", "card": mine}, "you have paid for")
    act(t, ana, "phase")
    assert t.state.phase == Phase.MASTER


def test_a_contest_is_settled_only_in_its_methuselahs_unlock_phase(contest):
    t, ana, ben, mine, theirs = contest
    refused(t, ben, {"do": "yield", "card": theirs}, "a contest is settled in its Methuselah's unlock phase")
    refused(t, ana, {"do": "contest", "card": theirs}, "is not a card or title of yours under contest")


def test_a_yielded_card_is_burned_and_the_other_turns_face_up_at_its_next_unlock(contest):
    """Rulebook, "Contested Cards": "A yielded card is burned. ... If all other cards contesting your
    unique card are yielded, then the card is unlocked and turned face up during your next unlock
    phase, ending the contest"."""
    t, ana, ben, mine, theirs = contest
    act(t, ana, "contest", card=mine)
    to_next_turn(t)
    assert t.state.acting == ben and t.state.phase == Phase.UNLOCK
    act(t, ben, "yield", card=theirs)
    assert zone(t, theirs) == Zone.ASH and "A yielded card is burned" in texts(t)
    assert zone(t, mine) == Zone.CONTESTED  # until Ana's next unlock phase
    while t.state.acting != ana:
        to_next_turn(t)
    assert zone(t, mine) == Zone.READY and "turned face up during your next unlock phase" in texts(t)
    act(t, ana, "phase")  # nothing left to settle


def test_a_contested_vampire_neither_acts_nor_blocks(contest):
    t, ana, ben, mine, theirs = contest
    act(t, ana, "contest", card=mine)
    while t.state.phase != Phase.MINION:
        act(t, ana, "phase")
    assert not [a for a in legal_acts(t.view(ana)) if a["do"] == Do.ACTION]
    refused(t, ana, {"do": "action", "kind": "hunt", "minion": mine}, "it is face down and out of play")
    assert not t.view(ben).ready_unlocked(ben)  # no minion of Ben's may try to block


def test_a_third_copy_joins_the_contest():
    """Rulebook, "Contested Cards": "If another unique card with the same name is brought into play,
    it is immediately contested and turned face down as well"."""
    t = table((VOLKER,))
    ana, ben, cy = t.state.seating[:3]
    copies = [bring(t, seat, VOLKER) for seat in (ana, ben, cy)]
    assert all(zone(t, pos) == Zone.CONTESTED for pos in copies)


def test_a_bot_keeps_contesting_while_its_pool_allows_then_yields(contest):
    t, ana, _ben, mine, _theirs = contest
    bot = VtesBot(bundled_decks()[0], seed=1)
    assert bot.choose(t.view(ana), legal_acts(t.view(ana))) == {"do": Do.CONTEST, "card": mine}
    pool = t.state.players[ana].pool
    act(t, ana, "pool", delta=CONTEST_MARGIN - pool, cause="test")
    assert bot.choose(t.view(ana), legal_acts(t.view(ana))) == {"do": Do.YIELD, "card": mine}


def test_an_ousted_rivals_copy_ends_the_contest_at_the_next_unlock(contest):
    t, ana, ben, mine, _theirs = contest
    act(t, ana, "contest", card=mine)
    act(t, ben, "pool", delta=-t.state.players[ben].pool, cause="test")
    assert t.state.players[ben].status == "ousted"
    to_next_turn(t)
    while t.state.acting != ana:
        to_next_turn(t)
    assert zone(t, mine) == Zone.READY


# --- contested titles ----------------------------------------------------------------------------


TRADITION = "Fifth Tradition: Hospitality"
"""An action card requiring a prince or a justicar."""


@pytest.fixture
def titles() -> tuple[SimTable, int, int, list[int], list[int]]:
    """Ana brings Lodin (prince of Chicago), Ben Kevin Jackson (baron of Chicago): a title contest.
    Every crypt is six of each; the first seed that deals them so. The libraries hold
    :data:`TRADITION`."""
    for seed in range(1, 40):
        t = table((LODIN, KEVIN), seed=seed, library=((TRADITION, 1), *FIGHT_LIBRARY[1:]))
        ana, ben = t.state.seating[:2]
        if waiting(t, ana, LODIN) and waiting(t, ben, KEVIN):
            break
    prince = bring(t, ana, LODIN)
    baron = bring(t, ben, KEVIN)
    return t, ana, ben, prince, baron


def test_two_vampires_claiming_one_citys_titles_contest_them(titles):
    """Rulebook, "Contested Titles": "While the title is being contested, the vampires involved in the
    contest are treated as if they have no title, but they remain controlled and may act and block as
    normal"."""
    t, ana, _ben, prince, baron = titles
    assert zone(t, prince) == Zone.READY and zone(t, baron) == Zone.READY
    view = t.view(ana)
    assert view.title_contested(tuple(prince)) and view.title_contested(tuple(baron))
    assert "the vampires involved in the contest are treated as if they have no title" in texts(t)
    offered = legal_acts(view)
    assert {"do": Do.CONTEST, "card": prince} in offered and {"do": Do.YIELD, "card": prince} in offered
    blood = next(c.counters for c in t.state.cards if list(c.pos) == prince)
    act(t, ana, "contest", card=prince)
    assert next(c.counters for c in t.state.cards if list(c.pos) == prince) == blood - 1
    assert "The cost to contest a title is 1 blood" in texts(t)
    while t.state.phase != Phase.MINION:
        act(t, ana, "phase")
    assert [a for a in legal_acts(t.view(ana)) if a["do"] == Do.ACTION and a["minion"] == prince]


def test_a_yielded_title_is_lost_and_the_rival_acquires_it_at_its_next_unlock(titles):
    """Rulebook, "Contested Titles": "If all other vampires contesting a title with your vampire have
    yielded the contest, then your vampire acquires the title during your next unlock phase"; "The
    vampire yielding the title will now have no title ... for the remainder of the game"."""
    t, ana, ben, prince, baron = titles
    act(t, ana, "yield", card=prince)
    assert tuple(prince) in t.state.contests.yielded
    to_next_turn(t)
    assert t.state.acting == ben
    assert not t.view(ben).title_contested(tuple(baron))
    assert "acquires the title during your next unlock phase" in texts(t)
    assert t.view(ben).title_contested(tuple(prince))  # yielded: no title for the rest of the game


def test_a_title_contesting_vampire_in_torpor_yields(titles):
    """Rulebook, "Contested Titles": "Only ready vampires can contest titles. Vampires in torpor must
    yield during the unlock phase"."""
    t, ana, ben, prince, baron = titles
    act(t, ben, "move", cards=[baron], to="torpor")
    act(t, ana, "contest", card=prince)
    to_next_turn(t)
    assert tuple(baron) in t.state.contests.yielded and "Vampires in torpor must yield" in texts(t)


def test_a_contested_title_meets_no_title_requirement(titles):
    """Treated as if it had no title: a card requiring a prince is neither offered to Lodin nor
    taken from him while his title is contested."""
    t, ana, _ben, prince, _baron = titles
    assert not contests.has_title(t.state.contests, tuple(prince))
    act(t, ana, "contest", card=prince)
    while t.state.phase != Phase.MINION:
        act(t, ana, "phase")
    tradition = next(c for c in t.view(ana).hand if c.name == TRADITION)
    assert not [a for a in legal_acts(t.view(ana)) if a.get("card") == tradition.as_list()]
    words = "requires a prince or justicar, and Lodin (Olaf Holte) (G5) is untitled"
    refused(t, ana, {"do": "action", "kind": "other", "minion": prince, "card": tradition.as_list()}, words)


def test_title_keys_follow_the_rulebooks_unique_titles():
    base = card_base()

    def key(name: str) -> str:
        found = base.lookup(name)
        assert found is not None
        return contests.title_key(f"{found.id}-1")

    assert key(LODIN) == key(KEVIN) == "city:chicago"
    assert key("Anastasz di Zagreb") == "justicar:tremere"
    assert key("Reginald Moore") == ""  # a primogen: not unique


# --- a bot game full of contests -----------------------------------------------------------------


def test_a_bot_game_where_every_seat_brings_the_same_deck_still_ends():
    deck = bundled_decks()[0]
    private = {}
    for seat in range(4):
        private[(seat, f"crypt/{seat}")] = deck.crypt_identities()
        private[(seat, f"library/{seat}")] = deck.library_identities()
    bots = [VtesBot(deck, seed=seat) for seat in range(4)]
    record = play_game(VTES, bots, seed=5, private_decks=private, max_moves=20_000)
    said = "\n".join(n.text for n in record.notes)
    assert "is contested between" in said
    assert "yields" in said or "pays 1 pool to keep contesting" in said
    assert len(record.result.scores) == 4 and sum(record.result.scores) > 0


def test_a_contest_played_again_from_the_same_acts_gives_the_same_table():
    """The table replays a log act by act: the same acts give the same contests, payments and
    yields (nothing in the rule depends on anything but the acts)."""

    def played() -> SimTable:
        t = table((VOLKER,))
        ana, ben = t.state.seating[:2]
        mine, theirs = bring(t, ana, VOLKER), bring(t, ben, VOLKER)
        act(t, ana, "contest", card=mine)
        to_next_turn(t)
        act(t, ben, "yield", card=theirs)
        return t

    first, second = played(), played()
    assert first.state == second.state and first.state.contests == second.state.contests
    assert [n.text for n in first.notes] == [n.text for n in second.notes]


AIRPORT = "Cairo Int'l Airport"
"""A unique location ("Master: unique location.")."""


def test_a_unique_location_is_refused_twice_and_contested_between_two_methuselahs():
    t = table((VOLKER,), library=((AIRPORT, 2), *FIGHT_LIBRARY[2:]))
    ana, ben = t.state.seating[:2]
    while t.state.phase != Phase.MASTER:
        act(t, ana, "phase")
    first, second = [c.as_list() for c in t.view(ana).hand if c.name == AIRPORT]
    act(t, ana, "play", card=first, to="ready")
    assert zone(t, first) == Zone.READY
    refused(t, ana, {"do": "play", "card": second, "to": "ready"}, "you cannot voluntarily contest cards with yourself")
    theirs = next(c.as_list() for c in t.view(ben).hand if c.name == AIRPORT)
    act(t, ben, "move", cards=[theirs], to="ready")
    assert zone(t, first) == Zone.CONTESTED and zone(t, theirs) == Zone.CONTESTED
    to_next_turn(t)
    assert t.state.acting == ben and {"do": Do.YIELD, "card": theirs} in legal_acts(t.view(ben))
    act(t, ben, "yield", card=theirs)
    while t.state.acting != ana:
        to_next_turn(t)
    assert zone(t, first) == Zone.READY and zone(t, theirs) == Zone.ASH
