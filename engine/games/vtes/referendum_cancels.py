"""A card that cancels a political action's referendum while it polls (Delaying Tactics: "Only
usable during the polling step of a political action. Cancel the referendum. Unlock the acting
vampire. If a political action card was played to call this referendum, return it to its owner's
hand (discard down afterward). Minions controlled by the acting Methuselah cannot perform the same
political action again this turn."; rulebook, "Political Actions").

Its sentences are read by :mod:`engine.games.vtes.poll_cancel_reading`; the card is offered while polling
(:func:`choices`) and played by bots against terms that hurt them (:func:`bot_cancel`), applied as it
is played (:func:`cancel`, from
:func:`engine.games.vtes.plays.check_play`): the referendum ends with no result (neither passed
nor failed, its terms not applied, the votes cast void), the acting vampire unlocks, the calling
card goes back to its owner's hand (who discards down to their hand size afterward), and the
political action is barred for the acting Methuselah's minions for the rest of the turn
(``Done.no_repeat``, checked by :func:`engine.games.vtes.actions.announce`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.games.base import Act, Pos, seat_ref
from engine.games.vtes import windows
from engine.games.vtes.action_success import after_action
from engine.games.vtes.card_effects import EffectKind
from engine.games.vtes.card_play import Choice, candidates, printed_cost
from engine.games.vtes.card_record import CardRecord, record
from engine.games.vtes.poll_cancel_reading import (
    ACTING_METHUSELAH,
    ACTING_UNLOCKS,
    CALLING_RETURNS,
    POLLING,
    cancels,
    has,
)
from engine.games.vtes.vocab import MODIFIER, REACTION, Do, Lift, Poll, Target, Zone

if TYPE_CHECKING:
    from engine.games.vtes.view import CardView, VtesView
    from engine.games.vtes.work import Work


def cancel(w: Work, rec: CardRecord, name: str, minion: Pos | None) -> None:
    """Play the card ``rec`` (one that :func:`cancels`), named ``name``, by ``minion`` in the open
    referendum: refused (liftable, timing) outside the polling step of a political action, with the
    card's sentence; a reaction refused (liftable, locked) without a ready unlocked vampire of the
    player's named to play it; else the referendum ends with no result, and what else the card says
    is done, each narrated with its name (see the module)."""
    r = w.open_referendum
    if r is None or r.step != Poll.VOTING or r.hunted or not r.minion:
        w.refuse(Lift.TIMING, f'{name} says "{POLLING.capitalize()}", and no political action\'s referendum polls')
        return
    if REACTION in rec.types and w.author != r.caller:
        c = w.cards.get(minion) if minion is not None else None
        if c is None or c.controller != w.author or c.zone != Zone.READY or c.locked or not c.crypt:
            w.refuse(Lift.LOCKED, f"{name} is played by a ready unlocked vampire of yours: name it (minion)")
    windows.pop(w, r)
    w.note(f"{name}: the referendum is canceled, its votes void: {r.terms}", w.author, r.caller)
    acting = r.minion
    unlocks = has(rec, EffectKind.UNLOCK, ACTING_UNLOCKS) and acting in w.cards
    if unlocks and w.cards[acting].zone.in_play and w.cards[acting].locked:
        w.setc(acting, locked=False)
        w.note(f"{name}: {w.name(acting)} unlocks", r.caller)
    calling = r.card
    if has(rec, EffectKind.DRAW, CALLING_RETURNS) and calling and _back_to_hand(w, calling):
        owner = w.cards[calling].owner
        w.note(f"{name}: {w.name(calling)} goes back to {seat_ref(owner)}'s hand (discard down afterward)", owner)
    if has(rec, EffectKind.NO_REPEAT, ACTING_METHUSELAH) and w.done:
        w.done = (*w.done[:-1], replace(w.done[-1], no_repeat=rec.id))
        w.note(
            f"{name}: {seat_ref(r.caller)}'s minions cannot perform the same political action again this turn",
            r.caller,
        )
    after_action(w)


def _back_to_hand(w: Work, calling: Pos) -> bool:
    """The calling card goes back to its owner's hand from where the action left it (the ash heap,
    or set aside for a title): True when it did."""
    c = w.cards.get(calling)
    info = w.info(calling)
    if c is None or info is None or "Political Action" not in info.types or c.zone not in (Zone.ASH, Zone.ASIDE):
        return False
    w.move(calling, Target.HAND)
    return True


def choices(view: VtesView, card: CardView) -> list[Choice]:
    """The ways the view's seat may play the hand ``card`` (one that :func:`cancels`) while a
    political action's referendum polls: a reaction by a ready unlocked vampire of its in
    another's referendum, an action modifier by the acting vampire of its own, able to pay the
    card's cost (``minion``, ``blood``); one per such vampire. Empty otherwise."""
    r, seat = view.referendum, view.seat
    rec = record(card.card) if card.card else None
    if r is None or seat is None or rec is None or not cancels(rec) or r.step != Poll.VOTING or r.hunted:
        return []
    acting = view.card(r.minion) if r.minion else None
    if acting is None or seat in r.done:
        return []
    if REACTION in card.types and seat != r.caller:
        minions, as_type = [c for c in view.ready_unlocked(seat) if c.crypt], REACTION
    elif MODIFIER in card.types and seat == r.caller:
        minions, as_type = [acting], MODIFIER
    else:
        return []
    out = []
    for minion in minions:
        if minion.zone != Zone.READY or not candidates(rec, minion, as_type):
            continue
        cost = printed_cost(card, view.controlled(seat), minion)
        if rec.costs.blood and cost.get("minion") != minion.as_list():
            continue  # this vampire cannot pay the blood
        fields = tuple(
            sorted({"minion": tuple(minion.pos), **{k: v for k, v in cost.items() if k != "minion"}}.items())
        )
        out.append(Choice(None, fields, f"{minion.name} cancels the referendum"))
    return out


def bot_cancel(view: VtesView, seat: int, legal: list[Act]) -> Act | None:
    """The play a bot makes of a card that :func:`cancels` among ``legal``: only while the
    referendum would pass as things stand and its terms hurt the bot (they burn its pool, send its
    vampire back: :func:`engine.games.vtes.terms_choices.terms_side`); else None."""
    from engine.games.vtes.terms_choices import terms_side  # it reads the offers' modules

    r = view.referendum
    if r is None or r.caller == seat or r.total(True) <= r.total(False):
        return None
    side, why = terms_side(view, seat)
    if side or not why:
        return None
    hand = {tuple(c.pos): c for c in view.hand}
    for a in legal:
        card = hand.get(tuple(a["card"])) if a["do"] == Do.PLAY and "votes" not in a else None
        rec = record(card.card) if card is not None and card.card else None
        if rec is not None and cancels(rec):
            return a
    return None
