"""A vampire as it stands in play: its printed Disciplines and capacity, raised by the cards on it
(rulebook, "Master Cards": a Discipline card put on a vampire gives it one level of its
Discipline, "+1 level of Dominate [dom] and +1 capacity"; "Disciplines": a second level of a
Discipline is its superior level). A card on a vampire gives while it is there: a contested card
is out of play and gives nothing (its zone is no longer ``on``).

The requirement checks, the offers, the automatic pass and the strikes read a vampire through
:func:`at` (the table) or its :class:`~engine.games.vtes.view.CardView` (a seat's view, whose
``disciplines`` and ``capacity`` :func:`raised_view` fills in), never from its crypt card alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.games.base import Pos
from engine.games.vtes.acts import esc
from engine.games.vtes.card_effects import EffectKind
from engine.games.vtes.card_record import CardRecord, record
from engine.games.vtes.cards import card_base
from engine.games.vtes.vocab import Lift, Target, Zone

if TYPE_CHECKING:
    from engine.games.vtes.cards import CardInfo
    from engine.games.vtes.view import CardView, VtesView
    from engine.games.vtes.work import Work


def given(idents: Iterable[str]) -> tuple[tuple[str, ...], int]:
    """What the cards ``idents`` (protocol identities of the cards on one vampire) give it: the
    Disciplines (krcg's lower-case abbreviations, one per level given, in order) and the
    capacity added."""
    levels: list[str] = []
    capacity = 0
    for ident in idents:
        rec = record(ident) if ident else None
        for e in rec.effects if rec is not None else ():
            if e.kind == EffectKind.DISCIPLINE:
                levels += [e.whom.lower()] * e.amount
            elif e.kind == EffectKind.CAPACITY:
                capacity += e.amount
    return tuple(levels), capacity


def raised(printed: tuple[str, ...], levels: Iterable[str]) -> tuple[str, ...]:
    """The krcg Discipline levels ``printed`` (``("dom", "OBF")``) each raised by one level per
    Discipline in ``levels``: none becomes inferior (``"aus"``), inferior superior (``"AUS"``),
    superior stays superior."""
    have = {d.lower(): d for d in printed}
    for d in levels:
        have[d] = d if d not in have else d.upper()
    return tuple(have.values())


def standing(info: CardInfo, idents: Iterable[str]) -> CardInfo:
    """The vampire ``info`` with what the cards ``idents`` on it give (itself when they give
    nothing)."""
    levels, capacity = given(idents)
    if not levels and not capacity:
        return info
    return replace(info, disciplines=raised(info.disciplines, levels), capacity=info.capacity + capacity)


def on(w: Work, pos: Pos) -> list[str]:
    """The identities of the cards on the card at ``pos``, in position order."""
    return [c.card or w.revealed.get(p, "") for p, c in sorted(w.cards.items()) if c.zone == Zone.ON and c.on == pos]


def at(w: Work, pos: Pos) -> CardInfo | None:
    """The card at ``pos`` as it stands: a vampire in play with what the cards on it give
    (:func:`standing`); any other card as printed; None for a card the table does not know."""
    info = w.info(pos)
    c = w.cards[pos]
    if info is None or not c.crypt or not c.zone.in_play:
        return info
    return standing(info, on(w, pos))


def seen(card: CardView) -> CardInfo | None:
    """The card a seat sees as it stands: a known vampire with the Disciplines and capacity its
    view gives it (raised by the cards on it); any other known card as printed; None unknown."""
    info = card_base().info(card.card) if card.card else None
    if info is None or card.disciplines is None or not card.crypt:
        return info
    return replace(info, disciplines=card.disciplines, capacity=card.capacity)


def superior_already(rec: CardRecord, info: CardInfo) -> str | None:
    """Why the Discipline card ``rec`` cannot be put on the vampire ``info`` (as it stands): it has
    the superior level of the Discipline the card gives ("Cannot be put on a vampire with superior
    Dominate [DOM]"), as the refusal's sentence; None when it may."""
    for e in rec.effects:
        if e.kind == EffectKind.DISCIPLINE and e.whom.upper() in info.disciplines:
            return f"{esc(rec.name)} cannot be put on a vampire with superior [{e.whom.upper()}], and {esc(info.name)} has it"
    return None


def check_put(w: Work, pos: Pos, on: Pos | None) -> None:
    """Refuse (``w.refuse``, liftable: a requirement) the Discipline card at ``pos`` put ``on`` a
    vampire with the superior level of its Discipline (:func:`superior_already`); any other card or
    place goes through."""
    rec = record(w.cards[pos].card or w.revealed.get(pos, ""))
    if on is None or on not in w.cards or not w.cards[on].crypt or rec is None:
        return
    who = at(w, on)
    refused = superior_already(rec, who) if who is not None else None
    if refused is not None:
        w.refuse(Lift.REQUIREMENT, refused)


def put_choices(view: VtesView, card: CardView) -> list[dict[str, object]] | None:
    """The ``play`` fields (``to``, ``on``) that put the view seat's Discipline card ``card`` on
    each ready vampire it controls that has not the superior level of the card's
    Discipline, the vampires with an inferior level first (a second level is a superior one); []
    when none may take it; None for a card that gives no Discipline."""
    rec = record(card.card) if card.card else None
    if rec is None or not rec.has(EffectKind.DISCIPLINE) or view.seat is None:
        return None
    mine = [c for c in view.controlled(view.seat) if c.crypt]
    fits = [(c, who) for c in mine if (who := seen(c)) is not None and superior_already(rec, who) is None]
    wanted = {e.whom for e in rec.effects if e.kind == EffectKind.DISCIPLINE}
    fits.sort(key=lambda x: (not wanted & set(x[1].disciplines), -x[0].capacity, x[0].pos))
    return [{"to": Target.ON, "on": c.as_list()} for c, _ in fits]
