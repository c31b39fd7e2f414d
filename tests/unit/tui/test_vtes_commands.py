"""The VTES command line (tui.games.vtes.commands): JOL-like words to the engine's acts, errors
as sentences, completion of command words, card names and Methuselah names; every act it makes
is one the engine's check accepts in the right moment (and the engine's sentence otherwise)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.errors import VampireError
from engine.games.base import IllegalMove
from engine.games.vtes.card_play import printed_cost
from engine.games.vtes.cards import card_base, identity
from engine.games.vtes.offers import plain_bleed
from engine.games.vtes.view import CardView
from engine.games.vtes.vocab import Phase, Zone
from tests.support.local_session import NAMES
from tests.support.vtes_sim import held_card
from tests.support.vtes_table import advance, dealt_vtes
from tui.games.vtes.commands import CommandError, Context, parse
from tui.games.vtes.completion import completions
from tui.games.vtes.play_command import play_destination


@pytest.fixture(scope="module")
def table() -> Any:
    """Seat 0's table in its own influence phase, with a vampire in play."""
    local = dealt_vtes(11)
    advance(
        local,
        lambda v: (
            v.acting == 0 and v.phase == Phase.INFLUENCE and v.transfers >= 2 and len(v.controlled(0, Zone.READY)) >= 1
        ),
    )
    return local


@pytest.fixture
def ctx(table: Any) -> Context:
    view = table.seats[0].view()
    return Context(view, NAMES[: view.seats])


def check(table: Any, act: dict) -> None:
    table.seats[0].check_move(act)


def test_moving_on_and_simple_acts(ctx: Context) -> None:
    assert parse("next", ctx) == {"do": "phase"}
    assert parse(":phase", ctx) == {"do": "phase"}  # the key that opens the line may stay in it
    assert parse("End", ctx) == {"do": "end_turn"}
    assert parse("end_turn", ctx) == {"do": "end_turn"}
    assert parse("draw", ctx) == {"do": "draw", "n": 1}
    assert parse("draw 2", ctx) == {"do": "draw", "n": 2}
    assert parse("pass", ctx) == {"do": "pass"}
    assert parse("dispute 12", ctx) == {"do": "dispute", "act": 12}
    with pytest.raises(CommandError, match="Name the card that ends the action"):
        parse("end-action", ctx)
    assert parse("withdraw", ctx) == {"do": "withdraw"}
    assert parse("deck 12 60", ctx) == {"do": "deck", "crypt": 12, "library": 60}
    assert parse("wi", ctx) == {"do": "withdraw"}  # a unique start of a word is the word


def test_pool_names_a_methuselah_by_name_start_or_role(ctx: Context, table: Any) -> None:
    view = ctx.view
    prey = view.players[0].prey
    lisa = NAMES.index("Lisa")
    assert parse("pool -1 Lisa for test", ctx) == {"do": "pool", "seat": lisa, "delta": -1, "cause": "test"}
    # Another Methuselah's pool changes with a cause (a claim it may dispute): "for", or words after the name.
    assert parse("pool -3 Lisa Govern the Unaligned", ctx)["cause"] == "Govern the Unaligned"
    with pytest.raises(CommandError, match="say why"):
        parse("pool -1 Lisa", ctx)
    assert parse("pool -1 li for x", ctx)["seat"] == lisa
    assert parse("pool +2", ctx)["cause"] == "by hand"
    assert parse("pool +2", ctx) == {"do": "pool", "seat": 0, "delta": 2, "cause": "by hand"}
    assert parse("pool -3 prey for bleed", ctx) == {"do": "pool", "seat": prey, "delta": -3, "cause": "bleed"}
    check(table, parse("pool -1 Lisa for test", ctx))
    with pytest.raises(CommandError, match="Nobody at the table is called 'Vlad'"):
        parse("pool -1 Vlad", ctx)
    with pytest.raises(CommandError, match="is a number"):
        parse("pool lots", ctx)


def test_transfer_influence_and_bleed_name_cards(ctx: Context, table: Any) -> None:
    view = ctx.view
    unc = [c for c in view.uncontrolled(0) if c.name]
    target = unc[0]
    act = parse(f"transfer 1 {target.name}", ctx)
    assert act == {"do": "transfer", "kind": "pool", "card": target.as_list(), "n": 1}
    check(table, act)
    # Without the group, by the start of the name, and blood back with a negative number.
    bare = target.name.split(" (")[0]
    assert parse(f"transfer 2 {bare}", ctx)["card"] == target.as_list()
    assert parse(f"transfer -1 {bare[:4]}", ctx)["kind"] == "blood"
    assert parse("transfer crypt", ctx) == {"do": "transfer", "kind": "crypt"}
    with pytest.raises(CommandError, match="No vampire in your uncontrolled region called 'Nobody Known'"):
        parse("transfer 1 Nobody Known", ctx)
    # Bleed: the first ready unlocked vampire by default; the engine says what is wrong now.
    ready = view.controlled(0, Zone.READY)[0]
    act = parse("bleed 2", ctx)
    assert act == {"do": "action", "kind": "bleed", "minion": ready.as_list(), "amount": 2}
    if ready.locked:
        with pytest.raises(IllegalMove, match="locked|minion phase"):
            check(table, act)  # the engine's sentence (its first refusal), not the command line's
    lisa = NAMES.index("Lisa")
    assert parse(f"bleed {ready.name} Lisa", ctx) == {
        "do": "action",
        "kind": "bleed",
        "minion": ready.as_list(),
        "amount": 1,
        "target": lisa,
    }


def test_play_a_hand_card_with_its_clauses(ctx: Context, table: Any) -> None:
    view = ctx.view
    card = view.hand[0]
    mine = [c for c in ctx.candidates("mine") if c.zone.in_play]
    cost = printed_cost(card, mine, None)  # its printed cost, paid as the key pays it
    assert parse(f"play {card.name}", ctx) == {
        "do": "play",
        "card": card.as_list(),
        **play_destination(card, ctx),
        **cost,
    }
    ready = view.controlled(0, Zone.READY)[0]
    act = parse(f"play {card.name.lower()} to ready pool 1 keep", ctx)
    assert act == {"do": "play", "card": card.as_list(), "to": "ready", "pool": 1, "no_replace": True}
    act = parse(f"play {card.name} on {ready.name} blood 1 from {ready.name}", ctx)
    assert act["to"] == "on" and act["on"] == ready.as_list() and act["minion"] == ready.as_list()
    with pytest.raises(CommandError, match="No card in your hand called"):
        parse("play Not A Card", ctx)
    discard = parse(f"discard {card.name}", ctx)
    assert discard == {"do": "discard", "card": card.as_list()}
    # Outside its Methuselah's own discard phase a discard is refused (rulebook, "5. Discard Phase").
    with pytest.raises(VampireError, match="discard phase action"):
        check(table, discard)


def test_counters_locks_moves_and_combat(ctx: Context, table: Any) -> None:
    ready = ctx.view.controlled(0, Zone.READY)[0]
    assert parse(f"blood -1 {ready.name} for cost", ctx) == {
        "do": "blood",
        "card": ready.as_list(),
        "delta": -1,
        "cause": "cost",
    }
    check(table, parse(f"blood +1 {ready.name}", ctx))
    assert parse(f"lock {ready.name}", ctx) == {"do": "lock", "cards": [ready.as_list()]}
    assert parse(f"burn {ready.name}", ctx) == {"do": "burn", "cards": [ready.as_list()]}
    assert parse(f"move {ready.name} to torpor", ctx) == {"do": "move", "cards": [ready.as_list()], "to": "torpor"}
    check(table, parse(f"move {ready.name} to torpor", ctx))
    with pytest.raises(CommandError, match="Say where to"):
        parse(f"move {ready.name} to nowhere", ctx)
    with pytest.raises(CommandError, match="two minions"):
        parse(f"combat {ready.name}", ctx)
    assert parse("shuffle crypt", ctx) == {"do": "shuffle", "zone": "crypt"}


def test_words_that_are_not_commands_say_so(ctx: Context) -> None:
    with pytest.raises(CommandError, match="'fly' is not a command"):
        parse("fly", ctx)
    with pytest.raises(CommandError, match="did you mean"):
        parse("d", ctx)  # draw, discard, done, deck
    with pytest.raises(CommandError, match="Type a command"):
        parse("  ", ctx)
    with pytest.raises(CommandError, match="takes nothing after"):
        parse("next please", ctx)


def test_completion_of_words_cards_zones_and_names(ctx: Context) -> None:
    view = ctx.view
    assert completions("ble", ctx) == ["bleed"]
    assert "transfer" in completions("t", ctx) and "time" in completions("t", ctx)
    card = view.hand[0]
    assert f"play {card.name}" in completions(f"play {card.name[:3]}", ctx)
    assert completions(f"play {card.name} to r", ctx) == [f"play {card.name} to ready", f"play {card.name} to removed"]
    assert completions("pool -1 Li", ctx) == ["pool -1 Lisa"]
    unc = next(c for c in view.uncontrolled(0) if c.name)
    assert f"transfer 4 {unc.name}" in completions(f"transfer 4 {unc.name[:2]}", ctx)
    assert "transfer crypt" in completions("transfer c", ctx)
    assert completions("fly away", ctx) == []


def test_a_card_name_that_two_copies_share_takes_the_first(ctx: Context) -> None:
    view = ctx.view
    card = view.hand[0]
    twin = CardView(pos=(999, 0), owner=0, controller=0, zone=Zone.HAND, crypt=False, card=card.card, name=card.name)
    doubled = Context(replace(view, hand=(card, twin, *view.hand[1:])), ctx.names)
    assert parse(f"play {card.name}", doubled)["card"] == card.as_list()


def test_a_transfer_without_a_vampire_goes_to_the_one_closest_to_its_capacity(ctx: Context) -> None:
    short = [c for c in ctx.view.uncontrolled(0) if c.capacity > c.counters]
    assert short
    closest = min(short, key=lambda c: (c.capacity - c.counters, c.pos))
    assert parse("transfer", ctx)["card"] == closest.as_list()
    assert parse("transfer 2", ctx)["card"] == closest.as_list()
    # A vampire selected on the board wins.
    other = next(c for c in ctx.view.uncontrolled(0) if c.pos != closest.pos)
    assert parse("transfer", replace(ctx, selected=other.pos))["card"] == other.as_list()


def _in_hand(ctx: Context, name: str) -> tuple[CardView, Context]:
    """``ctx`` with the card called ``name`` (krcg's) as the first card of the hand."""
    card = held_card(name)
    return card, replace(ctx, view=replace(ctx.view, hand=(card, *ctx.view.hand)))


def test_a_card_that_stays_in_play_is_played_into_play_and_to_overrides_it(ctx: Context, table: Any) -> None:
    ready = ctx.view.controlled(0, Zone.READY)[0]
    # A master that says "Put this card in play": into its player's area, not the ash heap.
    sphinx, c = _in_hand(ctx, "Dreams of the Sphinx")
    assert parse("play Dreams of the Sphinx", c) == {"do": "play", "card": [998, 0], "to": "ready", "pool": 1}
    assert parse("play Dreams of the Sphinx to ash", c)["to"] == "ash"  # "to" says otherwise
    # An ally: into play too.
    _, c = _in_hand(ctx, "Carlton Van Wyk")
    assert parse("play Carlton Van Wyk", c)["to"] == "ready"
    # Equipment and a retainer: on the minion selected on the table, else on your first vampire.
    for name in ("Ivory Bow", "Mr. Winthrop"):
        _, c = _in_hand(ctx, name)
        assert parse(f"play {name}", replace(c, selected=ready.pos))["on"] == ready.as_list()
        played = parse(f"play {name}", c)
        assert {k: played[k] for k in ("do", "card", "to", "on")} == {
            "do": "play",
            "card": [998, 0],
            "to": "on",
            "on": ready.as_list(),
        }
        assert parse(f"play {name} on {ready.name}", c)["on"] == ready.as_list()
    # A card put on anyone's minion: on the one selected, else in your area to be moved by hand.
    _, c = _in_hand(ctx, "Fame")
    assert parse("play Fame", c)["to"] == "ready"
    assert parse("play Fame", replace(c, selected=ready.pos))["on"] == ready.as_list()
    # An action is resolved and goes to the ash heap (the engine's default: no "to").
    _, c = _in_hand(ctx, "Govern the Unaligned")
    assert "to" not in parse("play Govern the Unaligned", c)
    # The engine reads the act as the command line makes it: the real first hand card (a master
    # card, here in the influence phase: refused by its timing, not by the act's shape).
    first = ctx.view.hand[0]
    if "Master" in first.types:
        with pytest.raises(VampireError, match="it is played in your master phase"):
            check(table, parse(f"play {first.name}", ctx))
    else:
        check(table, parse(f"play {first.name}", ctx))


def test_bleed_names_a_minion_of_yours_with_or_without_with(ctx: Context) -> None:
    ready = ctx.view.controlled(0, Zone.READY)[0]
    lisa = NAMES.index("Lisa")
    want = {"do": "action", "kind": "bleed", "minion": ready.as_list(), "amount": 2}
    assert parse(f"bleed 2 {ready.name}", ctx) == want
    assert parse(f"bleed 2 with {ready.name}", ctx) == want
    assert parse(f"bleed 2 with {ready.name.split(' (')[0]} Lisa", ctx) == {**want, "target": lisa}
    # Completion offers your minions after "bleed" (and after a number and "with").
    assert f"bleed {ready.name}" in completions("bleed ", ctx)
    assert f"bleed 2 with {ready.name}" in completions(f"bleed 2 with {ready.name[:3]}", ctx)


def test_a_bleed_naming_neither_a_minion_nor_a_methuselah_lists_what_it_could_be(ctx: Context) -> None:
    ready = ctx.view.controlled(0, Zone.READY)[0]
    with pytest.raises(CommandError) as err:
        parse("bleed 2 Gelasia Fotiou", ctx)
    words = str(err.value)
    assert "neither a minion of yours" in words and ready.name in words and "Lisa" in words
    # A vampire of yours still in the uncontrolled region: told where it is.
    unc = next(c for c in ctx.view.uncontrolled(0) if c.name)
    with pytest.raises(CommandError, match="uncontrolled region"):
        parse(f"bleed 2 {unc.name}", ctx)


def test_a_bleed_by_default_is_made_by_a_minion_never_by_a_location_in_play(ctx: Context) -> None:
    parthenon, _ = _in_hand(ctx, "The Parthenon")
    location = replace(parthenon, zone=Zone.READY)
    view = ctx.view
    mine = {c.pos for c in view.cards if c.controller == 0 and c.zone == Zone.READY}
    alone = replace(ctx, view=replace(view, cards=(location, *(c for c in view.cards if c.pos not in mine))))
    with pytest.raises(CommandError, match="no minion"):
        parse("bleed", alone)
    first = view.controlled(0, Zone.READY)[0]
    assert parse("bleed", replace(ctx, view=replace(view, cards=(location, *view.cards))))["minion"] == first.as_list()


def test_influence_with_no_vampire_named_lets_the_engine_say_why(table: Any, ctx: Context) -> None:
    """``influence`` (the ``i`` key) with no vampire at its capacity names the selected, else the
    first, vampire of the uncontrolled region, and the engine's check says why it cannot come in
    now: the same sentence as ``influence NAME``. With none there, a sentence says so."""
    view = ctx.view
    first = view.uncontrolled(0)[0]
    below = replace(first, counters=0)
    low = Context(replace(view, cards=tuple(below if c.pos == first.pos else c for c in view.cards)), ctx.names)
    act = parse("influence", low)
    with pytest.raises(IllegalMove, match="moves to the ready region only once its blood reaches its capacity"):
        check(table, act)
    empty = Context(replace(view, cards=tuple(c for c in view.cards if c.zone != Zone.UNCONTROLLED)), ctx.names)
    with pytest.raises(CommandError, match="holds no vampire to influence out"):
        parse("influence", empty)


def test_a_card_name_that_holds_a_clause_word_is_read_whole(ctx: Context) -> None:
    """``play On the Qui Vive`` names the card (a tester met "Name the card in your hand": the
    "On" was read as the ``on CARD`` clause); ``play Wake with Evening's Freshness`` too, and
    ``play Blood Doll`` ("Blood" is not the ``blood N`` clause there)."""
    for name in ("On the Qui Vive", "Wake with Evening's Freshness", "Blood Doll"):
        held, c = _in_hand(ctx, name)
        assert parse(f"play {name}", c)["card"] == held.as_list(), name
        assert parse(f"play {name.lower()}", c)["card"] == held.as_list(), name
    held, c = _in_hand(ctx, "Blood Doll")
    ready = ctx.view.controlled(0, Zone.READY)[0]
    on = parse(f"play Blood Doll on {ready.name.split(' (')[0]} blood 1", c)
    assert (on["card"], on["on"], on["blood"]) == (held.as_list(), ready.as_list(), 1)


def test_move_top_crypt_puts_ones_own_crypt_card_in_the_uncontrolled_region_free() -> None:
    """Effective Management ("Move the top card from your crypt to your uncontrolled region") by
    hand: ``move top crypt to uncontrolled`` names the top card of one's own crypt, which nobody
    can name; it goes at once (one's own cards: no claim), costs no transfer and no pool, and its
    owner alone learns it (through the table's deck protocol)."""
    local = dealt_vtes(11)
    advance(local, lambda v: True)
    seat = local.seats[0]
    before = seat.view()
    ctx = Context(before, NAMES[: before.seats])
    act = parse("move top of my crypt to uncontrolled", ctx)
    top = before.players[0].crypt[0]
    assert act == {"do": "move", "cards": [list(top)], "to": "uncontrolled"}
    local.submit(seat, "move", seat.move_body(act))
    local.run()
    after = seat.view()
    moved = after.card(top)
    assert moved is not None and moved.zone == Zone.UNCONTROLLED and moved.name, moved
    assert after.players[0].crypt == before.players[0].crypt[1:]
    assert (after.players[0].pool, after.transfers) == (before.players[0].pool, before.transfers)
    assert not after.claims
    other = local.seats[1].view().card(top)
    assert other is not None and other.zone == Zone.UNCONTROLLED and not other.name  # face down to the others
    with pytest.raises(CommandError, match="Say where to: move top crypt"):
        parse("move top crypt", ctx)


def test_shuffling_another_s_deck_names_them_and_a_cause_and_the_engine_takes_it_as_a_claim(
    table: Any, ctx: Context
) -> None:
    """``shuffle library Lisa for Govern``: another Methuselah's library, with its cause, which
    the engine takes (a claim Lisa answers: docs/vtes-by-hand.md); without a cause, the sentence
    asks for one; one's own deck needs none."""
    act = parse("shuffle library Lisa for Govern", ctx)
    assert act == {"do": "shuffle", "zone": "library", "seat": 1, "cause": "Govern"}
    assert parse("shuffle library Lisa Govern the Unaligned", ctx)["cause"] == "Govern the Unaligned"
    check(table, act)  # the engine's check: taken (it becomes a claim once recorded)
    with pytest.raises(CommandError, match="changes Lisa's things: say why"):
        parse("shuffle crypt Lisa", ctx)
    assert parse("shuffle library me", ctx) == {"do": "shuffle", "zone": "library"}
    with pytest.raises(CommandError, match="Nobody at the table is called .Zed."):
        parse("shuffle library Zed for x", ctx)


def test_a_bleed_with_no_number_is_for_the_minion_s_printed_bleed(ctx: Context) -> None:
    """``b`` and ``bleed`` with no N bleed for what the engine offers: Arika's 1 + 2 ("+2 bleed"),
    as the action menu does (rulebook, "Bleed"), never 1 (a tester's bleed for 1)."""
    view = ctx.view
    ready = view.controlled(0, Zone.READY)[0]
    arika = replace(ready, card=identity(card_base().named("Arika")[0], 1), name="Arika")
    cards = tuple(arika if c.pos == ready.pos else c for c in view.cards)
    arika_ctx = Context(replace(view, cards=cards), ctx.names)
    act = parse("bleed Arika", arika_ctx)
    assert act["amount"] == 3 == plain_bleed(arika)
    assert parse("bleed 1 Arika", arika_ctx)["amount"] == 1  # a number typed is the player's


def test_burn_edge_names_a_card_of_yours_whose_text_lets_you(ctx: Context, table: Any) -> None:
    """``burn edge for CARD`` (rulebook, "Requirements for Playing Cards": the Methuselah must
    control the Edge to burn it): CARD among this seat's own face-up cards; without it, the one
    whose text speaks of the Edge. ``burn Edge Explosion`` still names a card to burn."""
    view = ctx.view
    ready = view.controlled(0, Zone.READY)[0]
    (emily_id,) = card_base().named("Emily Carson")
    info = card_base().info(emily_id)
    assert info is not None
    emily = replace(ready, card=identity(emily_id, 1), name=info.name, text=info.text)
    mine = Context(replace(view, cards=tuple(emily if c.pos == ready.pos else c for c in view.cards)), ctx.names)
    burn = {"do": "burn_edge", "by": ready.as_list()}
    assert parse("burn edge for Emily", mine) == burn
    assert parse("burn the edge for emily carson", mine) == burn
    assert parse("burn edge", mine) == burn  # the card of yours whose text speaks of the Edge
    assert completions("burn e", mine)[0] == "burn edge for"
    assert completions("burn edge for em", mine) == ["burn edge for Emily Carson (G5)"]
    assert all(line.startswith("burn edge for ") for line in completions("burn edge for ", mine))
    others = next(c for c in view.cards if c.controller not in (0, -1) and c.zone.in_play and c.name)
    with pytest.raises(CommandError, match="No card of yours called"):
        parse(f"burn edge for {others.name}", mine)
    if not any("edge" in c.text.lower() for c in ctx.candidates("own")):
        with pytest.raises(CommandError, match="Name the card of yours whose text lets you burn the Edge"):
            parse("burn edge", ctx)
    with pytest.raises(CommandError, match="No card called 'Edge Explosion'"):
        parse("burn Edge Explosion", ctx)  # a card's name, not the Edge
    # The engine's sentence: the seat lacks the Edge, or its card says nothing of it.
    said = "says nothing of the Edge" if view.edge == 0 else "only the Methuselah who controls the Edge may burn it"
    with pytest.raises(IllegalMove, match=said):
        check(table, parse(f"burn edge for {ready.name}", ctx))
