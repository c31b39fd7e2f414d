"""Vampire: The Eternal Struggle, card-agnostic (shared/rules/vtes.md).

``VTES`` is the rules object (:class:`engine.games.base.Game`): name ``"vtes"``, 2–6 seats,
options ``library_size`` (bool, default on), ``polling`` (``done`` | ``15s``: referendums close when
all are done, or also 15 s after the last vote, timed by the players' screens), ``ruleset``
(``standard`` | ``tournament``; tournament needs 4 or 5 seats) and ``crypt_groups``
(``tournament`` | ``on`` | ``off``: a crypt holds one group or two consecutive groups, checked by
the seat that reads its deck, :func:`engine.games.vtes.decks.table_problems`). States are :class:`VtesState`, views :class:`VtesView`.

The game, step by step:

1. **joining**: every seat declares its public deck sizes with a ``deck`` act;
2. **seating**: a joint :class:`~engine.games.base.Draw` ``("seating", (n, n-1, …, 2))`` gives a
   Fisher–Yates permutation of the seats: the clockwise seating, its first seat taking the first
   turn;
3. **dealing**: one private-deck :class:`~engine.games.base.Shuffle` per crypt and per library
   (``deck="crypt/<seat>"`` / ``"library/<seat>"``, ``first=owner=<seat>``, every seat
   participating); then an :class:`~engine.games.base.Open` to each owner of its 7 library cards
   (hand) and 4 crypt cards (uncontrolled region);
4. **play**: turns of five phases; the acting Methuselah's minions act through announced actions
   whose windows pass the impulse in order; any Methuselah in the game may record a change by hand
   at any time;
5. **over**: one Methuselah left (or none), or time-out; every event not yet ended gets an
   :class:`~engine.games.base.EndEvent`, then ``result`` is ready.

Acts (``{"do": …}``, a :class:`Do`; positions are ``[event, index]``). The fields of each act,
their types, the ones it needs and what a left-out field means are stated once, by its record in
:mod:`engine.games.vtes.act_records` (:data:`~engine.games.vtes.acts.ACT_FIELDS` and
:data:`~engine.games.vtes.acts.REQUIRED` are read from the records); an act of the wrong shape
raises :class:`~engine.games.base.MalformedAct`, one the rules refuse now
:class:`~engine.games.base.IllegalMove`:

- ``deck``: joining only; crypt >= 12, library 60–90 if ``library_size``.
- ``phase``: the acting Methuselah ends the current phase (after discard: ends the turn).
- ``end_turn``: the acting Methuselah ends its turn (through every remaining phase).
- ``edge``: unlock phase, holder of the Edge: gain 1 pool, once a turn.
- ``burn_edge``: the holder of the Edge burns it (it then belongs to nobody) for what ``by``, a
  face-up card of its own whose text speaks of the Edge, says (Emily Carson); the effect is
  applied where the table reads it, at the time the card says (:mod:`engine.games.vtes.edge_burns`),
  else by hand. It answers no window and no wait, and no bot offers it.
- ``draw``: draw n cards from your library (an empty library refuses).
- ``play``: play a card from your hand (during an open action: on your impulse, an action modifier
  or reaction, changing the action's numbers); it is opened to everyone and goes to ``to``;
  ``pool``/``blood`` pay its cost (blood from ``minion``); the hand refills to hand size unless
  ``no_replace``; a master card in your master phase counts a master phase action (one per
  phase: a second is refused unless a card lifts ``once``; rulebook, "2. Master Phase").
- ``discard``: discard a card from hand to the ash heap and refill; in your discard phase it counts
  a discard phase action (one per phase: a second is refused unless a card lifts ``once``;
  rulebook, "5. Discard Phase").
- ``move``: move cards (any zone) to ready, torpor, ash, removed, hand, library, library_bottom,
  crypt, crypt_bottom, uncontrolled, or on another card; cards turning face up are opened; a hand
  that lost cards refills unless ``no_replace``.
- ``burn``: move cards to their owner's ash heap.
- ``lock`` / ``unlock``: cards in play.
- ``blood`` / ``life``: signed change of a card's counters (in play or in an uncontrolled region);
  never below 0.
- ``pool``: signed change of a Methuselah's pool (``changes``: ``[[seat, delta], …]``, several
  Methuselahs in one act); never below 0.
- ``action``: the acting Methuselah, in its minion phase, announces a minion's action
  (shared/rules/ vtes-actions.md, :mod:`engine.games.vtes.actions`): ``kind`` one of bleed, hunt,
  equip, employ, recruit, political, leave_torpor, rescue, diablerise, other; ``card`` an action
  card from hand (set aside face up until it resolves) or in play; ``cost_rescued``: a rescue's
  blood paid by the vampire in torpor (the acting vampire pays the rest of the 2 by default;
  rulebook, "Rescue a Vampire from Torpor"). The minion locks, window A opens.
- ``block``: a Methuselah entitled to block, on its impulse in window A.
- ``pass``: the holder of the impulse passes (in window A, an entitled blocker's final decline);
  the last pass of the impulse order closes the window; the action then succeeds (cost paid, basic
  effect applied: a bleed burns pool and takes the Edge, a hunt adds blood…) or is blocked (the
  card to the ash heap, the blocker locks, both minions enter combat).
- ``adjust``: change the open action's numbers (deltas) or its target, on one's impulse, as 4.3
  allows.
- ``action_end``: a face-up card ends the open action, with no cost and no effect.
- ``dispute``: a Methuselah disputes a change act ``act`` recorded by hand to its things (or, out
  of the game, the act that ousted it: the only act an out seat makes); ``accept``: a touched
  Methuselah accepts it; ``lapse``: a Methuselah other than its author says its time has run out
  (the entry's signed time at least its due time); ``retract``: its author takes it back
  (:mod:`engine.games.vtes.claims`, docs/vtes-by-hand.md).
- ``combat``: two minions in play enter combat (recorded for withdrawal).
- Any act may name a face-up card ``by`` with a rule ``lift`` (target, locked, once, hunt, timing,
  stealth, new_ally, requirement) to lift that one refusal for that act (P9); a change recorded by hand to
  another Methuselah's things (``pool``, ``blood``, ``life``, ``move``, ``burn``, ``lock``,
  ``unlock``, ``hand_size``, ``shuffle``, ``combat``) names its ``cause`` or ``by`` card (one the
  author controls) and is a claim: it takes effect once every touched Methuselah accepts it, or
  undisputed once its time has run out; another's hidden cards wait for their owner's answer.
  Changes by hand are bounded per seat (``claims.BY_HAND_RATE``, ``claims.SHUFFLE_RATE``).
- ``influence``: your influence phase: a vampire of your uncontrolled region whose blood has
  reached its capacity moves to your ready region (opened to everyone).
- ``transfer``: your influence phase: ``pool``: n transfers move n pool to an uncontrolled vampire;
  ``blood``: 2n transfers move n blood back to pool; ``crypt``: 4 transfers and 1 pool move the top
  crypt card to the uncontrolled region. Budget: 1, 2, 3 on the first turn of the first three
  players in turn order, else 4.
- ``hand_size``: change a hand size counter.
- ``shuffle``: reshuffle a zone (a new private-deck shuffle event from the cards at its positions).
- ``withdraw``: your unlock phase, library exhausted, turn begun with less than a full hand:
  announce withdrawal; it succeeds at your next unlock phase unless you lost or spent pool, a
  vampire you control lost or spent blood, or one of your minions entered combat meanwhile.
- ``contest`` / ``yield``: your unlock phase: pay the cost of a contest of yours (``card``: the
  contested card, 1 pool; or the vampire contesting a title, 1 blood from it), or yield it (the
  card and what is on it are burned; the title is lost for the game). The unlock phase does not
  end while one is unsettled (:mod:`engine.games.vtes.contests`, rulebook "Contested Cards").
- ``time``: tournament: call time; two different Methuselahs in the game end it.

The words of the table (steps, phases, zones, statuses, act names) are the StrEnums of
:mod:`engine.games.vtes.vocab`. Also here: :func:`parse_deck` and friends (deck files), :func:`result_table`,
:func:`result_text` and :func:`archon_problems` (the result for an organiser). Bots playing
whole games: :mod:`engine.games.vtes.simulate` (not imported here: it loads the bots, which read
this package's words).
"""

from __future__ import annotations

import importlib
from typing import Any

#: Where each name this package exports lives. They load on first use: the registry reads this
#: package's spec to list the games, and krcg's card data must not load for that.
_EXPORTS: dict[str, str] = {
    "ACT_FIELDS": "acts",
    "Action": "state",
    "ActionKind": "vocab",
    "Window": "vocab",
    "Lift": "vocab",
    "CardInfo": "cards",
    "CardView": "view",
    "Deck": "decks",
    "DeckFileError": "decks",
    "DeckPart": "vocab",
    "Do": "vocab",
    "End": "vocab",
    "PHASES": "vocab",
    "Phase": "vocab",
    "PlayerView": "view",
    "ResultRow": "scoring",
    "Ruleset": "vocab",
    "Status": "vocab",
    "Step": "vocab",
    "Target": "vocab",
    "TransferKind": "vocab",
    "VTES": "game",
    "VtesGame": "game",
    "VtesState": "state",
    "VtesView": "view",
    "Zone": "vocab",
    "archon_problems": "scoring",
    "bundled_deck": "decks",
    "bundled_deck_names": "decks",
    "bundled_decks": "decks",
    "card_base": "cards",
    "describe_act": "game",
    "format_vp": "state",
    "game_win": "scoring",
    "load_deck": "decks",
    "parse_deck": "decks",
    "result_table": "scoring",
    "result_text": "scoring",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = sorted(_EXPORTS)
