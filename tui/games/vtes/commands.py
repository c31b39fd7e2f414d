"""The VTES command line's grammar: a player's words, JOL-like, turned into one act of
:mod:`engine.games.vtes` (shared/rules/vtes.md; the act vocabulary is the engine's). Its words
(the verbs, how a card or a Methuselah is named) are :mod:`tui.games.vtes.command_words`; the
``play`` command's reading, :mod:`tui.games.vtes.play_command`; the completion of what is being
typed is :mod:`tui.games.vtes.completion`.

A command is a verb and its arguments, separated by spaces, case ignored:

- ``cancel [CARD]``: while a card announced waits for answers, cancel it as it is played with
  CARD (default: the first card of the hand that cancels a card so: Sudden Reversal, Wash, Direct
  Intervention);
- ``next`` (or ``phase``), ``end``, ``edge``, ``draw [N]``, ``withdraw``, ``time``,
  ``deck CRYPT LIBRARY``;
- ``play CARD [to ready|torpor|removed] [on CARD] [pool N] [blood N [from MINION]] [keep]``
  (``keep``: no replacement card; during an action: an action modifier or a reaction, played by
  the selected minion of yours), ``discard CARD``, ``influence CARD``;
- the minion actions (shared/rules/vtes-actions.md): ``action KIND [MINION] [with CARD] [at
  METHUSELAH]`` (KIND: bleed, hunt, equip, employ, recruit, political, leave_torpor, rescue,
  diablerise, other; CARD: the action card, from the hand or in play; for a rescue or a diablerie
  the vampire in torpor), ``bleed [N] [with] [MINION] [METHUSELAH]`` (defaults: 1, the selected or
  first ready unlocked minion, its controller's prey), ``hunt [MINION]``; in the open action:
  ``block [MINION] [intercept N]``, ``pass``, ``stealth ±N``, ``intercept ±N``, ``amount ±N``
  (each ``[for CAUSE]`` or ``[by CARD]``: what changes it), ``end-action CARD`` (a card ends it);
  ``dispute N`` / ``accept N`` (act N, a change by hand to your things), ``retract N`` (your
  own), ``lapse N`` (another's, once its time has run out);
- by hand, with the cause the log records (required when it touches another Methuselah's pool or
  cards; else "by hand"): ``pool ±N [METHUSELAH] [for] [CAUSE]``, ``blood ±N CARD [for CAUSE]``,
  ``life ±N CARD [for CAUSE]``, ``burn CARD``, ``lock CARD``, ``unlock CARD``, ``move CARD to
  ZONE`` or ``move CARD on CARD`` (each ``[for CAUSE]``), ``burn edge [for CARD]`` (the Edge,
  which you hold, burned for what CARD of yours says: Emily Carson; default: the selected card of
  yours whose text speaks of the Edge, else the first), ``move top crypt|library to ZONE`` (the
  top card of your own pile, face down to you too: Effective Management's "move the top card of
  your crypt to your uncontrolled region"); ``handsize ±N [METHUSELAH] [for CAUSE]``;
- ``transfer N VAMPIRE`` (N pool to it), ``transfer -N VAMPIRE`` (N blood back to pool),
  ``transfer crypt``; without VAMPIRE: the selected one, else the one closest to its capacity;
  outside the influence phase, ``transfer ±1 [VAMPIRE]`` uses a card on a vampire of yours that
  moves blood between it and your pool (Blood Doll in your master phase, Vessel in your unlock);
- ``combat MINION, MINION [for CAUSE]``; ``shuffle library|crypt [NAME] [for CAUSE]`` (another's deck: a claim).

CARD is a card's name or the start of it, among the cards this seat may name: its hand for
``play``/``discard``, else every known card (in play, its own uncontrolled region, ash heaps).
METHUSELAH is a seat's name or its start, or ``me``, ``prey``, ``predator``.

The parser only builds the act; whether the rules allow it is the engine's check
(``session.check_move``), whose sentence the screen shows. A command that does not parse raises
:class:`CommandError` with a sentence for the player.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.games.base import Act, Pos
from engine.games.vtes.blood_intercept import with_blood
from engine.games.vtes.cancel_reading import cancel_of
from engine.games.vtes.card_play import blood_shifts
from engine.games.vtes.card_record import record
from engine.games.vtes.lasting import lock_offers
from engine.games.vtes.offers import plain_bleed
from engine.games.vtes.view import CardView
from engine.games.vtes.vocab import ActionKind, Do, Phase, Target, TransferKind, Zone
from tui.games.vtes.command_words import (
    VERBS,
    ZONE_WORDS,
    CommandError,
    Context,
    int_of,
    is_int,
    is_minion,
    no_rest,
    selected_or_first,
    split_clauses,
    take_card,
    take_seat,
    verb_of,
)
from tui.games.vtes.play_command import parse_play


def _pos(card: CardView) -> list[int]:
    return card.as_list()


def _signed(tokens: list[str], what: str) -> tuple[int, list[str]]:
    if not tokens:
        raise CommandError(f"Say by how much: {what} +1 or {what} -1.")
    return int_of(tokens[0], f"The change of {what}"), tokens[1:]


def _parse_cancel(rest: Sequence[str], ctx: Context) -> Act:
    """``cancel [CARD]``: the play of CARD from the hand, else of the first hand card that cancels
    a card as it is played (:func:`engine.games.vtes.cancel_reading.cancel_of`); the engine says
    whether it fits the card announced."""
    hand = ctx.candidates("hand")
    if rest:
        card, rest = take_card(rest, hand, "card in your hand")
        no_rest(rest, "cancel [CARD]")
        return {"do": Do.PLAY, "card": _pos(card)}
    first = next((c for c in hand if c.card and cancel_of(record(c.card)) is not None), None)
    if first is None:
        raise CommandError(
            "No card of your hand cancels a card as it is played (Sudden Reversal, Wash, Direct Intervention)."
        )
    return {"do": Do.PLAY, "card": _pos(first)}


def parse(line: str, ctx: Context) -> Act:
    """The act a command line makes (see the module's list). Raises CommandError with a
    sentence when the line names no command, a card or a Methuselah nobody has, or a number
    that is not one."""
    tokens = line.strip().removeprefix(":").split()
    if not tokens:
        raise CommandError("Type a command: next, draw, play CARD, bleed, hunt, block, pass, transfer N VAMPIRE, …")
    word = tokens[0].lower()
    verb = verb_of(word)
    if verb is None:
        close = [v for v in VERBS if v.word.startswith(word)]
        if len(close) == 1:
            verb = close[0]
        else:
            hint = f" (did you mean {' or '.join(v.word for v in close)}?)" if close else ""
            raise CommandError(f"{tokens[0]!r} is not a command{hint}. F1 lists them.")
    rest = tokens[1:]
    do = verb.do
    me = ctx.me
    match verb.word:
        case "bleed":
            return _parse_bleed(rest, ctx)
        case "hunt":
            return _parse_hunt(rest, ctx)
        case "action":
            return _parse_action(rest, ctx)
        case "cancel":
            return _parse_cancel(rest, ctx)
        case "stealth" | "intercept" | "amount":
            delta, rest = _signed(rest, verb.word)
            act = {"do": Do.ADJUST, verb.word: delta}
            act.update(_cause_or_card(rest, ctx, f"{verb.word} ±N"))
            return with_blood(ctx.view, act)  # a card's "burn 1 blood to get +1 intercept"
        case _:
            pass
    match do:
        case Do.PHASE | Do.END_TURN | Do.EDGE | Do.WITHDRAW | Do.TIME | Do.PASS:
            no_rest(rest, verb.word)
            return {"do": do}
        case Do.ACTION_END:
            if not rest:
                raise CommandError("Name the card that ends the action: end-action CARD.")
            card, rest = take_card(rest, ctx.candidates("any"), "card that ends the action")
            no_rest(rest, "end-action CARD")
            return {"do": do, "by": _pos(card)}
        case Do.DISPUTE | Do.ACCEPT | Do.LAPSE | Do.RETRACT:
            if len(rest) != 1:
                raise CommandError(f"Name the act by its number: {verb.word} N (the log numbers them).")
            return {"do": do, "act": int_of(rest[0].lstrip("#"), "The act's number")}
        case Do.BLOCK:
            return _parse_block(rest, ctx)
        case Do.DECK:
            if len(rest) != 2:
                raise CommandError("Say the deck's sizes: deck CRYPT LIBRARY, e.g. deck 12 60.")
            return {
                "do": do,
                "crypt": int_of(rest[0], "The crypt size"),
                "library": int_of(rest[1], "The library size"),
            }
        case Do.DRAW:
            n = int_of(rest[0], "The number of cards") if rest else 1
            no_rest(rest[1:], "draw N")
            return {"do": do, "n": n}
        case Do.PLAY:
            return parse_play(rest, ctx)
        case Do.DISCARD:
            card, rest = take_card(rest, ctx.candidates("hand"), "card in your hand")
            no_rest(rest, "discard CARD")
            return {"do": do, "card": _pos(card)}
        case Do.BURN if _edge_words(rest):
            return _parse_burn_edge(rest[_edge_words(rest) :], ctx)
        case Do.BURN | Do.LOCK | Do.UNLOCK:
            head, clauses = split_clauses(rest, frozenset({"for"}))
            card, rest = take_card(head, ctx.candidates("any"))
            no_rest(rest, f"{verb.word} CARD")
            return {"do": do, "cards": [_pos(card)], **_cause_for([card.controller], clauses, ctx, verb.word)}
        case Do.MOVE:
            head, clauses = split_clauses(rest, frozenset({"to", "on", "for"}))
            top = _top_of_pile(head, ctx)
            if top is not None:  # one's own face-down card: at once, no claim (docs/vtes-by-hand.md)
                to = " ".join(clauses.get("to", [])).lower().replace(" ", "_")
                if to not in ZONE_WORDS or "on" in clauses or "for" in clauses:
                    raise CommandError(f"Say where to: move top crypt|library to {'|'.join(ZONE_WORDS)}.")
                return {"do": do, "cards": [list(top)], "to": to}
            card, extra = take_card(head, ctx.candidates("any"))
            no_rest(extra, "move CARD")
            cause = _cause_for([card.controller], clauses, ctx, "move")
            if "on" in clauses:
                on, extra = take_card(clauses["on"], ctx.candidates("any"), "card to put it on")
                no_rest(extra, "move CARD on CARD")
                return {"do": do, "cards": [_pos(card)], "to": Target.ON, "on": _pos(on), **cause}
            to = " ".join(clauses.get("to", [])).lower().replace(" ", "_")
            if to not in ZONE_WORDS:
                raise CommandError(f"Say where to: move CARD to {'|'.join(ZONE_WORDS)}, or move CARD on CARD.")
            return {"do": do, "cards": [_pos(card)], "to": to, **cause}
        case Do.BLOOD | Do.LIFE:
            delta, rest = _signed(rest, verb.word)
            head, clauses = split_clauses(rest, frozenset({"for"}))
            card, rest = take_card(head, ctx.candidates("any"))
            no_rest(rest, f"{verb.word} ±N CARD")
            return {
                "do": do,
                "card": _pos(card),
                "delta": delta,
                **_cause_for([card.controller], clauses, ctx, verb.word, True),
            }
        case Do.POOL | Do.HAND_SIZE:
            delta, rest = _signed(rest, verb.word)
            head, clauses = split_clauses(rest, frozenset({"for"}))
            seat = me
            if head:
                seat, head = take_seat(head, ctx)
                if head:
                    # The words after the name are its cause: pool -3 Ben Govern the Unaligned.
                    clauses.setdefault("for", []).extend(head)
            if do == Do.HAND_SIZE:
                return {"do": do, "seat": seat, "delta": delta, **_cause_for([seat], clauses, ctx, verb.word)}
            return {"do": do, "seat": seat, "delta": delta, **_cause_for([seat], clauses, ctx, "pool", True)}
        case Do.COMBAT:
            rest, clauses = split_clauses(rest, frozenset({"for"}))
            text = " ".join(rest).replace(" vs ", ",").replace(" and ", ",")
            parts = [p.split() for p in text.split(",") if p.strip()]
            if len(parts) != 2:
                raise CommandError("Name the two minions: combat MINION, MINION.")
            a, extra_a = take_card(parts[0], ctx.candidates("any"), "minion")
            b, extra_b = take_card(parts[1], ctx.candidates("any"), "minion")
            no_rest(extra_a + extra_b, "combat MINION, MINION [for CAUSE]")
            return {
                "do": do,
                "minions": [_pos(a), _pos(b)],
                **_cause_for([a.controller, b.controller], clauses, ctx, "combat"),
            }
        case Do.INFLUENCE:
            mine = ctx.candidates("uncontrolled")
            if rest:
                card, rest = take_card(rest, mine, "vampire in your uncontrolled region")
                no_rest(rest, "influence VAMPIRE")
            else:
                # The selected (else the first) vampire whose blood reached its capacity, else any:
                # the engine then says why it cannot come in now, as it does for a named one.
                found = selected_or_first(ctx, mine, lambda c: bool(c.capacity) and c.counters >= c.capacity)
                found = found or selected_or_first(ctx, mine, lambda c: True)
                if found is None:
                    raise CommandError("Your uncontrolled region holds no vampire to influence out.")
                card = found
            return {"do": do, "card": _pos(card)}
        case Do.TRANSFER:
            return _parse_transfer(rest, ctx)
        case Do.CONTEST | Do.YIELD:
            due = ctx.candidates("contests")
            if rest:
                card, rest = take_card(rest, due, "card or title of yours under contest")
                no_rest(rest, f"{verb.word} CARD")
                return {"do": do, "card": _pos(card)}
            found = selected_or_first(ctx, due, lambda c: True)
            if found is None:
                raise CommandError("None of your cards or titles waits for its contest to be paid or yielded.")
            return {"do": do, "card": _pos(found)}
        case Do.SHUFFLE:
            zone = rest[0].lower() if rest else "library"
            if zone not in (Zone.LIBRARY, Zone.CRYPT):
                raise CommandError("Say which: shuffle library, or shuffle crypt.")
            head, clauses = split_clauses(rest[1:], frozenset({"for"}))
            if not head and not clauses:
                return {"do": do, "zone": zone}
            # Another Methuselah's deck: a claim they answer, with its cause (docs/vtes-by-hand.md).
            seat, head = take_seat(head, ctx) if head else (me, head)
            if head:
                clauses.setdefault("for", []).extend(head)  # shuffle library Ben Govern: its cause
            act = {"do": do, "zone": zone, **_cause_for([seat], clauses, ctx, f"shuffle {zone} NAME")}
            return {**act, "seat": seat} if seat != me else act
    raise CommandError(f"{verb.word!r} is not a command.")  # pragma: no cover - every verb is matched


def _edge_words(rest: Sequence[str]) -> int:
    """How many leading words of ``burn``'s arguments name the Edge (``edge``, ``the edge``, each
    alone or before ``for``), or 0: ``burn Edge Explosion`` burns a card."""
    said = [t.lower() for t in rest]
    for words in (["edge"], ["the", "edge"]):
        if said[: len(words)] == words and said[len(words) : len(words) + 1] in ([], ["for"]):
            return len(words)
    return 0


def _parse_burn_edge(words: Sequence[str], ctx: Context) -> Act:
    """``burn [the] edge [for CARD]`` (``words``: from ``for``): the Edge burned for what CARD, a
    face-up card of this seat's (in play or in its ash heap), says; without CARD, the selected card
    of its own whose text speaks of the Edge, else the first. The engine says whether the seat
    holds the Edge and whether the card is one it may name."""
    words = list(words[1:])  # after "for"
    own = ctx.candidates("own")
    if words:
        card, extra = take_card(words, own, "card of yours")
        no_rest(extra, "burn edge for CARD")
    else:
        found = selected_or_first(ctx, own, lambda c: "edge" in c.text.lower())
        if found is None:
            raise CommandError("Name the card of yours whose text lets you burn the Edge: burn edge for CARD.")
        card = found
    return {"do": Do.BURN_EDGE, "by": _pos(card)}


#: The cause a pool, blood or life change records when the command gives none (``for CAUSE``).
DEFAULT_CAUSE = "by hand"


def _cause_of(clauses: dict[str, list[str]]) -> str:
    words = " ".join(clauses.get("for", []))
    return words or DEFAULT_CAUSE


def _top_of_pile(words: Sequence[str], ctx: Context) -> Pos | None:
    """``top crypt`` / ``top library`` (``top of my crypt`` too): the position of the top card of
    this seat's own pile, which the seat cannot name (face down; rulebook, "Crypt", "Library": the
    top card is the first of the pile); None for other words. Raises CommandError when the pile
    is empty."""
    said = [w.lower() for w in words if w.lower() not in ("of", "my", "your", "the")]
    if len(said) != 2 or said[0] != "top" or said[1] not in ("crypt", "library"):
        return None
    me = ctx.view.players[ctx.me]
    pile = me.crypt if said[1] == "crypt" else me.library
    if not pile:
        raise CommandError(f"Your {said[1]} is empty.")
    return pile[0]


def _cause_for(
    seats: Sequence[int], clauses: dict[str, list[str]], ctx: Context, verb: str, always: bool = False
) -> Act:
    """The ``cause`` field of a change by hand: the ``for`` words; required when the change
    touches another Methuselah's pool or cards (shared/rules/vtes-actions.md P9: it is recorded as
    a claim they may dispute); else :data:`DEFAULT_CAUSE` when ``always`` (pool, blood, life), or
    nothing. Raises CommandError when a cause is required and missing."""
    words = " ".join(clauses.get("for", []))
    if words:
        return {"cause": words}
    others = [s for s in seats if 0 <= s != ctx.me]
    if others:
        who = ctx.names[others[0]] if others[0] < len(ctx.names) else "another Methuselah"
        raise CommandError(
            f"That changes {who}'s things: say why, e.g. {verb} … for Govern the Unaligned (a card, or a rule)."
        )
    return {"cause": DEFAULT_CAUSE} if always else {}


def _cause_or_card(rest: list[str], ctx: Context, verb: str) -> Act:
    """``for CAUSE`` (a phrase) or ``by CARD`` (a face-up card), as an ``adjust`` names what
    changes the action's numbers; nothing named: :data:`DEFAULT_CAUSE`."""
    head, clauses = split_clauses(rest, frozenset({"for", "by"}))
    if "by" in clauses:
        card, extra = take_card(clauses["by"], ctx.candidates("any"), "card that changes it")
        no_rest(extra + head, f"{verb} by CARD")
        if card.zone == Zone.HAND:
            return {"do": Do.PLAY, "card": _pos(card)}  # a card of the hand is played with the change
        return {"by": _pos(card)}
    words = " ".join(head + clauses.get("for", []))
    return {"cause": words or DEFAULT_CAUSE}


#: Where a card of yours that is not in play is, in words (a refused bleed names it).
_ZONE_PLACES: dict[Zone, str] = {
    Zone.UNCONTROLLED: "your uncontrolled region, not in play yet (influence it out first)",
    Zone.HAND: "your hand",
    Zone.ASH: "your ash heap",
    Zone.LIBRARY: "your library",
    Zone.CRYPT: "your crypt",
    Zone.REMOVED: "no game any more (removed)",
    Zone.CONTESTED: "contest, face down and out of play (pay or yield it in your unlock phase: Y)",
}


def _bleeder_or_target(
    rest: list[str], ctx: Context, mine: list[CardView]
) -> tuple[CardView | None, int | None, list[str]]:
    """The minion of yours, else the Methuselah, named first in ``rest``, and the tokens after it.
    A name that is neither says what it could be: a card of yours that is not in play, or the
    minions and Methuselahs a bleed may name."""
    try:
        minion, after = take_card(rest, mine, "minion of yours")
        return minion, None, after
    except CommandError:
        pass
    try:
        target, after = take_seat(rest, ctx)
        return None, target, after
    except CommandError:
        pass
    phrase = " ".join(rest)
    yours = [c for c in ctx.view.cards if c.owner == ctx.me and c.name and not c.zone.in_play]
    try:
        card, _ = take_card(rest, yours)
    except CommandError:
        pass
    else:
        where = _ZONE_PLACES.get(card.zone, f"your {card.zone.value}")
        raise CommandError(f"{card.name} is in {where}: only a minion in play bleeds.")
    minions = ", ".join(c.name for c in mine if is_minion(c)) or "none in play"
    raise CommandError(
        f"{phrase!r} is neither a minion of yours ({minions}) nor a Methuselah ({', '.join(ctx.names)})."
    )


def _ready_minion(ctx: Context, mine: Sequence[CardView], what: str) -> CardView:
    """The selected or first ready unlocked minion of yours; else a locked one (the engine then
    says why it cannot act). Raises CommandError when it is another Methuselah's turn (an action
    is announced in one's own turn; a block, ``what`` "block", in another's) or when you have none
    in your ready region."""
    acting = ctx.view.acting
    if what != "block" and 0 <= acting != ctx.me:
        who = ctx.names[acting] if acting < len(ctx.names) else f"seat {acting + 1}"
        raise CommandError(f"It is not your turn: {who} is the acting Methuselah; you {what} in your own minion phase.")
    minion = selected_or_first(ctx, mine, lambda c: is_minion(c) and c.zone == Zone.READY and not c.locked)
    minion = minion or selected_or_first(ctx, mine, lambda c: is_minion(c) and c.zone == Zone.READY)
    if minion is None:
        raise CommandError(f"You have no minion in your ready region to {what} with.")
    return minion


def _with_minion(rest: list[str], form: str) -> list[str]:
    """``rest`` without a leading ``with`` (every action word takes its minion so: ``hunt with
    Troius``, ``block with Marek``, ``bleed 2 with Lucia``). Raises CommandError when no name follows."""
    if rest and rest[0].lower() == "with":
        if len(rest) == 1:
            raise CommandError(f"Name the minion: {form}.")
        return rest[1:]
    return rest


def _parse_bleed(rest: list[str], ctx: Context) -> Act:
    """``bleed [N] [with] [MINION] [METHUSELAH]``: announce a bleed action; with no ``N``, for
    the minion's bleed (:func:`engine.games.vtes.offers.plain_bleed`)."""
    amount: int | None = None
    if rest and is_int(rest[0]):
        amount, rest = int(rest[0]), rest[1:]
    rest = _with_minion(rest, "bleed N with MINION")
    mine = ctx.candidates("mine")
    minion: CardView | None = None
    target: int | None = None
    if rest:
        minion, target, rest = _bleeder_or_target(rest, ctx, mine)
    if rest and target is None:
        target, rest = take_seat(rest, ctx)
    no_rest(rest, "bleed [N] [with] [MINION] [METHUSELAH]")
    if minion is None:
        minion = _ready_minion(ctx, mine, "bleed")
    if amount is None:
        amount = plain_bleed(minion)
    act: Act = {"do": Do.ACTION, "kind": ActionKind.BLEED, "minion": _pos(minion), "amount": amount}
    if target is not None:
        act["target"] = target
    return act


def _parse_hunt(rest: list[str], ctx: Context) -> Act:
    """``hunt [MINION]``: announce a hunt (the selected or first ready unlocked vampire)."""
    vampires = [c for c in ctx.candidates("mine") if c.crypt]
    rest = _with_minion(rest, "hunt with VAMPIRE")
    if rest:
        minion, rest = take_card(rest, vampires, "vampire of yours")
        no_rest(rest, "hunt [VAMPIRE]")
    else:
        minion = _ready_minion(ctx, vampires, "hunt")
    return {"do": Do.ACTION, "kind": ActionKind.HUNT, "minion": _pos(minion)}


_KIND_WORDS: dict[str, ActionKind] = {
    **{k.value: k for k in ActionKind},
    "leave-torpor": ActionKind.LEAVE_TORPOR,
    "leave": ActionKind.LEAVE_TORPOR,
    "torpor": ActionKind.LEAVE_TORPOR,
    "politics": ActionKind.POLITICAL,
    "diablerie": ActionKind.DIABLERISE,
    "diablerize": ActionKind.DIABLERISE,
    "ally": ActionKind.RECRUIT,
    "retainer": ActionKind.EMPLOY,
}


def _parse_action(rest: list[str], ctx: Context) -> Act:
    """``action KIND [MINION] [with CARD] [at METHUSELAH]``: announce a minion action (P2). A
    rescue or a diablerie names its vampire in torpor with ``with`` (or ``at``)."""
    if not rest:
        raise CommandError(f"Say which action: action {'|'.join(k.value for k in ActionKind)} [MINION].")
    word = rest[0].lower()
    kind = _KIND_WORDS.get(word)
    if kind is None:
        close = [k for w, k in _KIND_WORDS.items() if w.startswith(word)]
        if len(set(close)) != 1:
            raise CommandError(f"{rest[0]!r} is not an action: {', '.join(k.value for k in ActionKind)}.")
        kind = close[0]
    head, clauses = split_clauses(rest[1:], frozenset({"with", "at", "stealth", "amount"}))
    mine = ctx.candidates("mine")
    if not head and "with" in clauses and kind not in (ActionKind.RESCUE, ActionKind.DIABLERISE):
        # action hunt with Troius: "with" names the acting minion when it names one of yours
        # (an action card, in the hand or in play, follows a named minion: action KIND MINION with CARD)
        try:
            _, extra = take_card(clauses["with"], [c for c in mine if is_minion(c)], "minion of yours")
        except CommandError:
            pass
        else:
            if not extra:
                head = clauses.pop("with")
    if head:
        minion, extra = take_card(head, mine, "minion of yours")
        no_rest(extra, "action KIND MINION")
    elif kind == ActionKind.LEAVE_TORPOR:
        found = selected_or_first(ctx, mine, lambda c: c.crypt and c.zone == Zone.TORPOR)
        if found is None:
            raise CommandError("You have no vampire in torpor to leave it.")
        minion = found
    else:
        minion = _ready_minion(ctx, mine, "act")
    act: Act = {"do": Do.ACTION, "kind": kind, "minion": _pos(minion)}
    victim_words = clauses.get("with") if kind in (ActionKind.RESCUE, ActionKind.DIABLERISE) else None
    if victim_words is not None or (kind in (ActionKind.RESCUE, ActionKind.DIABLERISE) and "at" in clauses):
        torpor = [c for c in ctx.view.cards if c.zone == Zone.TORPOR and c.crypt and c.name]
        victim, extra = take_card(victim_words or clauses["at"], torpor, "vampire in torpor")
        no_rest(extra, f"action {kind} MINION with VAMPIRE")
        act["target_card"] = _pos(victim)
    elif "with" in clauses:
        cards = ctx.candidates("hand") + [c for c in ctx.candidates("mine") if c.pos != minion.pos]
        card, extra = take_card(clauses["with"], cards, "action card (in your hand or in play)")
        no_rest(extra, "action KIND MINION with CARD")
        act["card"] = _pos(card)
    if "at" in clauses and "target_card" not in act:
        target, extra = take_seat(clauses["at"], ctx)
        no_rest(extra, "action KIND MINION at METHUSELAH")
        act["target"] = target
    for field in ("stealth", "amount"):
        if field in clauses:
            act[field] = int_of(" ".join(clauses[field]) or "?", f"The {field}")
    return _offered_numbers(act, ctx) if "card" in act else act


def _offered_numbers(act: Act, ctx: Context) -> Act:
    """An announced action that names a card takes, for each field the command left out, the
    numbers of the action the table offers with that card and minion (its printed bleed, stealth
    and cost: :func:`engine.games.vtes.offers.offers`), the same as the ``a`` menu's: the first
    level offered that agrees with every field the command gave. Unchanged when none agrees."""
    from engine.games.vtes.offers import of

    offered = [o.act for o in of(ctx.view, Do.ACTION) if o.act.get("card") == act["card"]]
    agrees = next((o for o in offered if all(o.get(k, v) == v for k, v in act.items())), None)
    return {**agrees, **act} if agrees is not None else act


def _parse_block(rest: list[str], ctx: Context) -> Act:
    """``block [MINION] [intercept N]``: attempt to block the open action (P3)."""
    head, clauses = split_clauses(rest, frozenset({"intercept"}))
    head = _with_minion(head, "block with MINION")
    mine = ctx.candidates("mine")
    if head:
        minion, extra = take_card(head, mine, "minion of yours")
        no_rest(extra, "block MINION")
    else:
        minion = _ready_minion(ctx, mine, "block")
    act: Act = {"do": Do.BLOCK, "minion": _pos(minion)}
    if "intercept" in clauses:
        act["intercept"] = int_of(" ".join(clauses["intercept"]) or "?", "The intercept")
    return act


def _closest_to_capacity(vampires: Sequence[CardView]) -> CardView | None:
    """The vampire a transfer goes to when none is named or selected: the one with the least
    blood still missing to its capacity (the next to be influenced out), else the first."""
    short = [c for c in vampires if c.capacity > c.counters]
    if short:
        return min(short, key=lambda c: (c.capacity - c.counters, c.pos))
    return vampires[0] if vampires else None


def _parse_transfer(rest: list[str], ctx: Context) -> Act:
    if rest and rest[0].lower() == "crypt":
        no_rest(rest[1:], "transfer crypt")
        return {"do": Do.TRANSFER, "kind": TransferKind.CRYPT}
    n = 1
    if rest and is_int(rest[0]):
        n, rest = int(rest[0]), rest[1:]
    if n == 0:
        raise CommandError("Transfer at least 1: transfer 2 VAMPIRE, or transfer -1 VAMPIRE for blood back.")
    shifts = _card_transfers(ctx) if ctx.view.phase != Phase.INFLUENCE else []
    if shifts:
        return _shift(shifts, n, rest, ctx)
    mine = ctx.candidates("uncontrolled")
    if rest:
        card, rest = take_card(rest, mine, "vampire in your uncontrolled region")
        no_rest(rest, "transfer N VAMPIRE")
    else:
        found = next((c for c in mine if c.pos == ctx.selected), None) or _closest_to_capacity(mine)
        if found is None:
            raise CommandError("Your uncontrolled region is empty: transfer crypt moves a vampire there.")
        card = found
    kind = TransferKind.POOL if n > 0 else TransferKind.BLOOD
    return {"do": Do.TRANSFER, "kind": kind, "card": _pos(card), "n": abs(n)}


def _card_transfers(ctx: Context) -> list[dict[str, object]]:
    """The ``transfer`` fields of the seat's cards in play that move or add blood now: a card on a
    vampire moving blood with the pool (:func:`blood_shifts`), a card locked to add blood
    (:func:`engine.games.vtes.lasting.lock_offers`: Dreams of the Sphinx, The Coven)."""
    locks = [{k: v for k, v in a.items() if k != "do"} for a in lock_offers(ctx.view, ctx.me) if a["do"] == Do.TRANSFER]
    return blood_shifts(ctx.view, ctx.me) + locks


def _shift(shifts: list[dict[str, object]], n: int, rest: list[str], ctx: Context) -> Act:
    """``transfer ±N [VAMPIRE]`` outside the influence phase: a card on a vampire of yours that
    moves blood between it and your pool (Blood Doll, Vessel; :func:`blood_shifts`): 1 pool to the
    named (else selected, else first) vampire, or -1: 1 blood from it to your pool; or a card in
    play locked to add N blood to a vampire (:func:`_card_transfers`): N is the number the card moves."""
    kind = TransferKind.POOL if n > 0 else TransferKind.BLOOD
    fits = [x for x in shifts if x["kind"] == kind and abs(n) == int(x["n"])]  # type: ignore[call-overload]
    vampires = [c for c in ctx.view.cards if any(x["card"] == c.as_list() for x in fits)]
    if not vampires:
        way = "to a vampire" if n > 0 else "from a vampire to your pool"
        raise CommandError(f"No card of yours moves {abs(n)} blood {way} now.")
    if rest:
        card, rest = take_card(rest, vampires, "vampire with such a card")
        no_rest(rest, "transfer ±1 VAMPIRE")
    else:
        card = next((c for c in vampires if c.pos == ctx.selected), vampires[0])
    chosen = next(x for x in fits if x["card"] == card.as_list())
    return {"do": Do.TRANSFER, **chosen, "n": abs(n)}


__all__ = [
    "DEFAULT_CAUSE",
    "CommandError",
    "Context",
    "parse",
]
