"""The VTES command line's ``play`` command: ``play CARD [to ready|torpor|removed|ash|METHUSELAH]
[on CARD] [pool N] [blood N [from MINION]] [keep] [basic|sup|superior]`` turned into one ``play`` act
(the grammar of the other commands is :mod:`tui.games.vtes.commands`; the words they share,
:mod:`tui.games.vtes.command_words`): the level, the numbers and the target the card gives in
the open action or combat, as the engine offers them; where it goes when no place is named
(:func:`play_destination`); the blood a master card moves; its printed cost.
"""

from __future__ import annotations

from engine.games.base import Act
from engine.games.vtes.card_play import printed_cost
from engine.games.vtes.cards import PlayPlace, card_base, play_place
from engine.games.vtes.view import CardView
from engine.games.vtes.vocab import Do, Target, Zone
from tui.games.vtes import command_words as words
from tui.games.vtes.command_words import CommandError, Context, take_card, take_seat


def parse_play(rest: list[str], ctx: Context) -> Act:
    rest, level = words.take_level(rest)
    head, clauses = words.split_clauses(rest, frozenset({"to", "on", "pool", "blood", "from", "keep"}))
    card, extra = take_card(head, ctx.candidates("hand"), "card in your hand")
    words.no_rest(extra, "play CARD")
    fought = _combat_level(card, ctx, level) if not clauses else None
    if fought is not None:
        return fought
    act: Act = {"do": Do.PLAY, "card": card.as_list()}
    target = None
    if "to" in clauses and " ".join(clauses["to"]).lower() not in _PLACES:
        target, extra = take_seat(clauses.pop("to"), ctx)  # a redirected bleed's new target
        words.no_rest(extra, "play CARD to METHUSELAH")
    act.update(_card_numbers(card, ctx, level, target))
    if "to" in clauses:
        to = " ".join(clauses["to"]).lower()
        if to not in _PLACES:
            raise CommandError("A card is played to ready, torpor, removed or ash, or on a card.")
        act["to"] = to
    if "on" in clauses:
        on, extra = take_card(clauses["on"], ctx.candidates("any"), "card to play it on")
        words.no_rest(extra, "play CARD on CARD")
        act["to"] = Target.ON
        act["on"] = on.as_list()
    if "to" not in act:
        act.update(play_destination(card, ctx))
    if "pool" in clauses:
        act["pool"] = words.int_of(" ".join(clauses["pool"]) or "?", "The pool cost")
    if "blood" in clauses:
        act["blood"] = words.int_of(" ".join(clauses["blood"]) or "?", "The blood cost")
        mine = ctx.candidates("mine")
        if "from" in clauses:
            minion, extra = take_card(clauses["from"], mine, "minion of yours")
            words.no_rest(extra, "blood N from MINION")
        else:
            found = words.selected_or_first(ctx, mine, lambda c: c.crypt)
            if found is None:
                raise CommandError("Say which vampire pays the blood: play CARD blood N from VAMPIRE.")
            minion = found
        act["minion"] = minion.as_list()
    if "keep" in clauses:
        act["no_replace"] = True
    act = _moved_blood(card, ctx, act)
    if "pool" not in act and "blood" not in act:
        mine = [c for c in ctx.candidates("mine") if c.zone.in_play]
        act.update(printed_cost(card, mine, ctx.view.card(ctx.selected) if ctx.selected else None))
    return act


_PLACES = frozenset({Target.READY, Target.TORPOR, Target.REMOVED, Target.ASH})


def _moved_blood(card: CardView, ctx: Context, act: Act) -> Act:
    """``act`` for a master card that moves blood from a vampire of yours to your pool (Villein:
    "move 2 to 5 blood"), as the engine offers it (:func:`engine.games.vtes.card_play.master_choices`):
    from the vampire it is played ``on`` (or ``from``), ``blood N`` the amount (else the most it
    may move); ``act`` unchanged for any other card. Raises CommandError when no offer fits."""
    from engine.games.vtes.card_play import master_choices

    if ctx.view.action is not None or "Master" not in card.types:
        return act
    moves = [c.act_fields() for c in master_choices(ctx.view, card)]
    moves = [m for m in moves if "move_blood" in m]
    if not moves:
        return act
    out = dict(act)
    amount = out.pop("blood", None)
    vampire = out.get("on", out.get("minion"))
    fits = [m for m in moves if vampire in (None, m["minion"]) and amount in (None, m["move_blood"])]
    if not fits:
        much = f"{amount} blood" if amount is not None else "blood"
        raise CommandError(f"{card.name} cannot move {much} from that vampire: {_moves_words(moves, ctx)}.")
    return {**out, **fits[0]}


def _moves_words(moves: list[Act], ctx: Context) -> str:
    """What a blood-moving master card may move, by vampire ("2 to 5 from Victor Donaldson")."""
    by: dict[str, list[int]] = {}
    for m in moves:
        found = ctx.view.card((m["minion"][0], m["minion"][1]))
        by.setdefault(found.name if found is not None else "a vampire", []).append(int(m["move_blood"]))
    return "it moves " + "; ".join(f"{min(v)} to {max(v)} from {k}" for k, v in by.items())


def _combat_level(card: CardView, ctx: Context, level: str | None) -> Act | None:
    """``play CARD [basic|sup]`` of a combat card during a combat of your minion's: the strike,
    prevention, maneuver or press that level gives
    (:func:`engine.games.vtes.combat_cards.combat_level_act`); no level named: the basic one where
    the levels differ (:func:`engine.games.vtes.combat_cards.combat_levels`; the confirmation says
    so, :func:`tui.games.vtes.command_words.basic_note`), else the one the table applies. None
    outside such a combat or for a level whose text is applied by hand (the card is played).
    Raises CommandError when your minion cannot play that level."""
    from engine.games.vtes.card_play import LevelError
    from engine.games.vtes.combat_cards import combat_level_act, combat_levels

    combat = ctx.view.combat
    if combat is None or "Combat" not in card.types:
        return None
    mine = [m for m in (ctx.view.card(combat.acting), ctx.view.card(combat.opposing)) if m and m.controller == ctx.me]
    if not mine:
        return None
    if level is None:
        ways = combat_levels(ctx.view, mine[0], card)
        if len(ways) > 1:
            ctx.notes.append(words.basic_note(card.name, ways[-1][0].removeprefix("superior: ")))
        return dict(ways[0][1]) if ways else None
    try:
        return combat_level_act(ctx.view, mine[0], card, level)
    except LevelError as e:
        raise CommandError(f"{e}.") from e


def _card_numbers(card: CardView, ctx: Context, level: str | None, target: int | None = None) -> Act:
    """The stealth, intercept or bleed the card adds to the open action at ``level`` (basic,
    superior; None: basic where both levels may be played and differ, said in the confirmation,
    else the most it may add), as its record reads it, and the bleed's new ``target``
    of a card that redirects it (None: the first it may choose); once an action of yours resolved,
    the unlock of a card played after it; nothing else outside an action."""
    from engine.games.vtes.card_play import LevelError, after_choices, pick, window_choices

    if ctx.view.combat is not None and "Combat" in card.types and target is None:
        return {}  # in combat a level gives a strike, a prevention… (_combat_level), else its text by hand
    if ctx.view.action is None:
        choices = after_choices(ctx.view, card)  # after an action of yours resolved (Freak Drive)
        if not choices and (level is not None or target is not None):
            said = level if level is not None else "to METHUSELAH"
            raise CommandError(f"{said} names how a card is played during an action; no action is open.")
    else:
        choices = window_choices(ctx.view, card)
    if target is not None:
        choices = [c for c in choices if dict(c.fields).get("target") == target]
        if not choices:
            who = ctx.names[target] if target < len(ctx.names) else "that Methuselah"
            raise CommandError(f"{card.name} cannot make {who} the bleed's target now.")
    woken = [c for c in choices if dict(c.fields).keys() & {"wake", "unlock"}]
    if len({dict(c.fields).get("minion") for c in woken}) > 1:  # which locked minion it wakes
        chosen = [c for c in woken if ctx.selected is not None and dict(c.fields).get("minion") == ctx.selected]
        if not chosen:
            names = ", ".join(dict.fromkeys(c.words.rsplit(": ", 1)[-1] for c in woken))
            raise CommandError(
                f"{card.name} wakes one locked minion: select it first ({names}), or press p for a menu."
            )
        choices = chosen
    leveled = {c.superior for c in choices if c.clause is not None and c.clause.levels}
    if level is None and len(leveled) > 1:  # both levels, and they differ: basic, said so
        best_superior = pick(choices, "superior")
        ctx.notes.append(words.basic_note(card.name, best_superior.words if best_superior is not None else ""))
        level = "basic"
    try:
        best = pick(choices, level)
    except LevelError as e:
        raise CommandError(f"{card.name}: {e}.") from e
    return best.act_fields() if best is not None else {}


def play_destination(card: CardView, ctx: Context) -> Act:
    """The ``to`` (and ``on``) of playing ``card`` when the player names no place, from
    :func:`engine.games.vtes.cards.play_place`: ``{}`` (the engine's default, the ash heap) for a
    card that is resolved and gone; ``to: ready`` (its player's area) for one put in play; ``on``
    a minion for equipment, a retainer or a card "put on" a minion: the minion selected on the
    board, else (a card for a minion of yours) your first ready vampire, else its player's area,
    from where it is moved on a minion by hand (``p`` asks which: :func:`minions_to_put_on`)."""
    info = card_base().info(card.card) if card.known else None
    place = play_place(info) if info is not None else PlayPlace.ASH
    if place == PlayPlace.ASH:
        return {}
    if place == PlayPlace.IN_PLAY:
        return {"to": Target.READY}
    minions = minions_to_put_on(card, ctx)
    chosen = next((c for c in minions if c.pos == ctx.selected), None)
    if chosen is None and _mine_only(card):  # a card for a minion of yours: your first ready vampire
        chosen = next((c for c in minions if c.crypt), None)
    if chosen is None:
        return {"to": Target.READY}
    return {"to": Target.ON, "on": chosen.as_list()}


def _mine_only(card: CardView) -> bool:
    """A card that goes on a minion of its player's only: equipment, a retainer, or one whose text
    says "you control"."""
    return bool(set(card.types) & {"Equipment", "Retainer"}) or "you control" in card.text.lower()


def minions_to_put_on(card: CardView, ctx: Context) -> list[CardView]:
    """The ready minions a card "put on" a minion may go on (:func:`play_destination`'s, yours first):
    ``p`` asks which when none is selected and there are several, or the one is another's. Empty for
    a card that does not go on a minion."""
    info = card_base().info(card.card) if card.known else None
    if info is None or play_place(info) != PlayPlace.ON_MINION:
        return []
    minions = [c for c in ctx.view.cards if c.zone == Zone.READY and c.known and words.is_minion(c)]
    minions = [c for c in minions if c.controller == ctx.me or not _mine_only(card)]
    return sorted(minions, key=lambda c: (c.controller != ctx.me, not c.crypt))


__all__ = ["minions_to_put_on", "parse_play", "play_destination"]
