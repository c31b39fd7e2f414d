"""Unique cards and contests, in one place (rulebook, "Contested Cards", "Contested Titles",
"Unique"; docs/vtes-contests.md).

Every crypt card is unique (a vampire whatever its group or advanced version), and a library card
whose text says "Unique" (:attr:`~engine.games.vtes.card_record.Requirements.unique`). When a copy
of a unique card comes into play (:func:`arrive`, from :meth:`Work.move
<engine.games.vtes.work.Work.move>`):

- while its controller already controls a copy (in play or contested), a voluntary act is refused
  (:func:`check_own_copy`: influencing out, playing a card) and any other way burns the incoming
  copy ("you simply burn the incoming copy of the unique card");
- while another Methuselah controls one, every copy turns face down and out of play: zone
  ``contested`` (it neither acts, blocks, votes nor is targeted);
- a vampire whose unique title (a prince, baron or archbishop of a city; a clan's justicar, Inner
  Circle member or kholo; the regent) another vampire in play claims contests the title: both are
  treated as having no title, but act and block as usual.

In each of its unlock phases a Methuselah settles its contests (:func:`unlock`, then the acts
``contest`` and ``yield``, :func:`pay` and :func:`give_up`): a contested card whose rivals are all
gone turns face up, unlocked; a title whose rivals all yielded is acquired; a title-contesting
vampire in torpor, or with no blood, yields; for each other contest it pays (1 pool a card, 1 blood
from the vampire a title) or yields (the card and what is on it are burned; the title is lost for
the rest of the game). The unlock phase does not end while a contest is unsettled
(:func:`check_settled`). Views and offers read :func:`dues`, :func:`has_title` and
:func:`rivals_of`; nothing else restates these rules.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from engine.games.base import IllegalMove, Pos, seat_ref
from engine.games.vtes.acts import esc
from engine.games.vtes.card_record import record
from engine.games.vtes.cards import CardInfo, card_base, card_id
from engine.games.vtes.state import Contests, Placed
from engine.games.vtes.vocab import DeckPart, Phase, Target, Zone

if TYPE_CHECKING:
    from engine.games.vtes.act_records import ContestAct
    from engine.games.vtes.work import Work

# The rulebook's sentences, quoted in narration and refusals ("Contested Cards", "Contested Titles").
CONTESTED = (
    '"If more than one unique card with the same name is brought into play, that means control of the card is '
    "being contested. For the duration of the contest, all of the contested cards are turned face down and are "
    'out of play." (rulebook, "Contested Cards")'
)
OWN_COPY = (
    '"You cannot control more than one of the same unique card at a time, and you cannot voluntarily contest '
    'cards with yourself" (rulebook, "Contested Cards")'
)
FORCED = (
    '"if some effect would force you to contest a card with yourself, then you simply burn the incoming copy of '
    'the unique card" (rulebook, "Contested Cards")'
)
PAY = (
    '"The cost to contest a card is 1 pool, which you pay during each of your unlock phases. Instead of paying '
    'the cost to contest the card, you may choose to yield the card. A yielded card is burned." '
    '(rulebook, "Contested Cards")'
)
ENDED = (
    '"If all other cards contesting your unique card are yielded, then the card is unlocked and turned face up '
    'during your next unlock phase, ending the contest." (rulebook, "Contested Cards")'
)
OUT_OF_PLAY = (
    "{name} is contested: it is face down and out of play until the contest ends, so it neither acts, blocks "
    'nor votes (rulebook, "Contested Cards")'
)
TITLE = (
    '"If more than one vampire in play claims the same unique title, then the title is contested. While the '
    "title is being contested, the vampires involved in the contest are treated as if they have no title, but "
    'they remain controlled and may act and block as normal." (rulebook, "Contested Titles")'
)
TITLE_PAY = (
    '"The cost to contest a title is 1 blood, which is paid by the vampire during each of their unlock phases. '
    "Instead of paying the cost to contest the title, the vampire may choose to yield the title (or may be "
    'forced to yield, if they have no blood to pay)." (rulebook, "Contested Titles")'
)
TITLE_TORPOR = (
    '"Only ready vampires can contest titles. Vampires in torpor must yield during the unlock phase." '
    '(rulebook, "Contested Titles")'
)
TITLE_ENDED = (
    '"If all other vampires contesting a title with your vampire have yielded the contest, then your vampire '
    'acquires the title during your next unlock phase, ending the contest." (rulebook, "Contested Titles")'
)
TITLE_YIELDED = (
    '"The vampire yielding the title will now have no title and loses the benefits of the title for the '
    'remainder of the game." (rulebook, "Contested Titles")'
)

_CITY_TITLES = frozenset({"prince", "baron", "archbishop"})
"""Titles tied to a city: contested by a vampire claiming any title to the same city (rulebook,
"Camarilla", "Anarch", "Sabbat")."""
_CLAN_TITLES = frozenset({"justicar", "inner circle", "kholo"})
"""Titles unique to each clan (rulebook, "Camarilla", "Laibon")."""
_CITY = re.compile(r"\b(?:prince|baron|archbishop) of (.+)$")


class _Card(Placed, Protocol):
    """A card with its identity, as a state or a view holds it ("" while face down)."""

    @property
    def card(self) -> str: ...


@functools.cache
def _unique_key(cid: int) -> str:
    rec = record(cid)
    if rec is None:
        return ""
    info = rec.info
    if info.kind == DeckPart.CRYPT:
        return "vampire:" + (info.character or info.name)
    return "card:" + info.name if rec.requires.unique else ""


def unique_key(ident: str) -> str:
    """What makes copies of the card ``ident`` (a protocol identity) the same unique card: its
    vampire for a crypt card (any group, advanced or not: rulebook, "Advanced Vampires"), its name
    for a library card whose text says "Unique"; "" for a card that is not unique or unknown."""
    cid = card_id(ident) if ident else None
    return _unique_key(cid) if cid is not None else ""


@functools.cache
def _title_key(cid: int) -> str:
    info = card_base().info(cid)
    if info is None or not info.title:
        return ""
    title = " ".join(info.title.lower().split())
    if title in _CITY_TITLES:
        text = " ".join(info.text.split())
        head = text.split(":", 1)[0].lower() if ":" in text else ""
        city = _CITY.search(head)
        return f"city:{city.group(1).strip()}" if city else ""
    if title in _CLAN_TITLES:
        return f"{title}:{info.clan.lower()}"
    return "regent" if title == "regent" else ""


def title_key(ident: str) -> str:
    """The unique title the vampire ``ident`` claims, as contests compare it: ``"city:seattle"``
    (a prince, baron or archbishop), ``"justicar:nosferatu"``, ``"regent"``; "" for a title that
    is not unique (primogen, bishop, cardinal, priscus, magaji, an independent's votes) or none."""
    cid = card_id(ident) if ident else None
    return _title_key(cid) if cid is not None else ""


def _present(zone: Zone) -> bool:
    """In play or contested: a copy that counts for uniqueness."""
    return zone.in_play or zone == Zone.CONTESTED


def copies(cards: Iterable[_Card], card: _Card) -> list[_Card]:
    """The other copies of ``card``'s unique card in play or contested among ``cards`` (a
    state's or a view's), in their order; [] for a card that is not unique."""
    key = unique_key(card.card)
    if not key:
        return []
    return [o for o in cards if o.pos != card.pos and _present(o.zone) and o.card and unique_key(o.card) == key]


def own_copy(cards: Iterable[_Card], card: _Card, seat: int) -> bool:
    """``seat`` controls another copy of ``card``'s unique card (in play or contested): it may not
    bring ``card`` into play by choice (:func:`check_own_copy`)."""
    return any(o.controller == seat for o in copies(cards, card))


def rivals_of(cards: Iterable[_Card], card: _Card) -> tuple[int, ...]:
    """The other Methuselahs controlling a copy of ``card``'s unique card (in play or contested)."""
    return tuple(sorted({o.controller for o in copies(cards, card) if o.controller != card.controller}))


def has_title(contests: Contests, pos: Pos) -> bool:
    """The vampire at ``pos`` has the benefit of its printed title: its title is neither contested
    nor yielded (rulebook, "Contested Titles")."""
    return pos not in contests.titles and pos not in contests.yielded


def as_titled(info: CardInfo, contests: Contests, pos: Pos) -> CardInfo:
    """The vampire ``info`` at ``pos`` as the requirements read it: with no title while its title
    is contested or yielded ("treated as if they have no title", rulebook "Contested Titles")."""
    return info if has_title(contests, pos) or not info.title else replace(info, title="")


def dues(cards: Iterable[_Card], contests: Contests, seat: int) -> tuple[Pos, ...]:
    """``seat``'s contests whose cost is due in its unlock phase and not yet paid: its contested
    cards and its ready vampires contesting a title, in position order."""
    due = [
        c.pos
        for c in cards
        if c.controller == seat
        and c.pos not in contests.paid
        and (c.zone == Zone.CONTESTED or (c.zone == Zone.READY and c.pos in contests.titles))
    ]
    return tuple(sorted(due))


# --- changes, on a working copy ------------------------------------------------------------------


def check_in_play(w: Work, pos: Pos) -> None:
    """Refuse an act that names the card at ``pos`` as a card in play while it is contested (face
    down and out of play). Raises IllegalMove."""
    if w.card(pos).zone == Zone.CONTESTED:
        raise IllegalMove(OUT_OF_PLAY.format(name=w.name(pos)))


def check_own_copy(w: Work, pos: Pos, seat: int) -> None:
    """Refuse bringing the card at ``pos`` into play under ``seat`` by choice while ``seat``
    controls a copy of the same unique card (in play or contested). Raises IllegalMove."""
    ident = w.cards[pos].card or w.revealed.get(pos, "")
    if own_copy(w.cards.values(), replace(w.cards[pos], card=ident), seat):
        raise IllegalMove(f"you already control {esc(_name(ident))}: {OWN_COPY}")


def _name(ident: str) -> str:
    info = card_base().info(ident) if ident else None
    return info.name if info is not None else "that card"


def _drop(contests: Contests, pos: Pos) -> Contests:
    return Contests(
        titles=tuple(p for p in contests.titles if p != pos),
        yielded=tuple(p for p in contests.yielded if p != pos),
        paid=tuple(p for p in contests.paid if p != pos),
        torpor=tuple(p for p in contests.torpor if p != pos),
    )


def arrive(w: Work, pos: Pos) -> None:
    """The card at ``pos`` has just come into play (``Work.move``): burn it if its controller
    already controls a copy; contest it with every other Methuselah's copy; else contest its
    unique title with the vampires in play that claim it."""
    c = w.cards[pos]
    if not unique_key(c.card):
        return
    if pos in w.contests.titles or pos in w.contests.yielded or pos in w.contests.torpor:
        w.contests = _drop(w.contests, pos)  # a card back in play starts afresh
    same = copies(w.cards.values(), c)
    if not same:
        _claim_title(w, pos)
        return
    name = w.name(pos)
    if any(o.controller == c.controller for o in same):
        w.note(f"{name} is burned: {seat_ref(c.controller)} already controls {name}; {FORCED}", c.controller)
        w.move(pos, Target.ASH)
        return
    turned = [pos, *(o.pos for o in same if o.zone != Zone.CONTESTED)]
    for p in turned:
        _face_down(w, p)
    who = sorted({c.controller, *(o.controller for o in same)})
    w.note(
        f"{name} is contested between {' and '.join(seat_ref(s) for s in who)}: every copy is face down and out "
        f"of play; each pays 1 pool in their unlock phase or yields it. {CONTESTED}",
        *who,
    )


def _face_down(w: Work, pos: Pos) -> None:
    c = w.cards[pos]
    torpor = w.contests.torpor + ((pos,) if c.zone == Zone.TORPOR else ())
    w.contests = replace(
        w.contests, torpor=torpor, titles=tuple(p for p in w.contests.titles if p != pos), paid=w.contests.paid
    )
    w.setc(pos, zone=Zone.CONTESTED, locked=False)


def _claim_title(w: Work, pos: Pos) -> None:
    """A vampire in play whose unique title another vampire in play claims: the title is contested."""
    key = title_key(w.cards[pos].card)
    if not key or pos in w.contests.yielded:
        return
    others = [
        p
        for p, o in w.cards.items()
        if p != pos
        and o.crypt
        and o.zone in (Zone.READY, Zone.TORPOR)
        and p not in w.contests.yielded
        and title_key(o.card) == key
    ]
    if not others:
        return
    claim = [pos, *others]
    w.contests = replace(w.contests, titles=tuple(sorted(set(w.contests.titles) | set(claim))))
    names = " and ".join(w.name(p) for p in claim)
    w.note(
        f"{names} claim the same title: it is contested, and neither has its title's benefits until the contest "
        f"ends; each pays 1 blood in their unlock phase or yields. {TITLE}",
        *sorted({w.cards[p].controller for p in claim}),
    )


def unlock(w: Work, seat: int) -> None:
    """``seat``'s unlock phase begins (after its cards unlock): payments of the last unlock phase
    are forgotten; each of its contested cards whose rivals are gone turns face up, unlocked; each
    of its vampires contesting a title acquires it when no rival claims it any more, and yields it
    when in torpor or with no blood to pay."""
    w.contests = replace(w.contests, paid=())
    for pos in sorted(p for p, c in w.cards.items() if c.zone == Zone.CONTESTED and c.controller == seat):
        if not rivals_of(w.cards.values(), w.cards[pos]):
            _face_up(w, pos)
    for pos in sorted(w.contests.titles):
        c = w.cards[pos]
        if c.controller != seat or c.zone not in (Zone.READY, Zone.TORPOR):
            continue
        key = title_key(c.card)
        rivals = [
            p
            for p in w.contests.titles
            if p != pos and w.cards[p].zone in (Zone.READY, Zone.TORPOR) and title_key(w.cards[p].card) == key
        ]
        if not rivals:
            w.contests = replace(w.contests, titles=tuple(p for p in w.contests.titles if p != pos))
            w.note(f"{w.name(pos)} acquires its title: {TITLE_ENDED}", seat)
        elif c.zone == Zone.TORPOR:
            _yield_title(w, pos, f"{w.name(pos)} is in torpor and yields its title: {TITLE_TORPOR}")
        elif c.counters == 0:
            _yield_title(w, pos, f"{w.name(pos)} has no blood to pay and yields its title: {TITLE_PAY}")


def _face_up(w: Work, pos: Pos) -> None:
    c = w.cards[pos]
    host = w.cards.get(c.on) if c.on else None
    if c.on and (host is None or not host.zone.in_play):
        w.note(f"{w.name(pos)} is burned: the card it was on has left play", c.controller)
        w.move(pos, Target.ASH)
        return
    zone = Zone.ON if c.on else Zone.TORPOR if pos in w.contests.torpor else Zone.READY
    w.contests = _drop(w.contests, pos)
    w.setc(pos, zone=zone, locked=False)
    w.note(f"{w.name(pos)} turns face up: {ENDED}", c.controller)
    _claim_title(w, pos)


def _yield_title(w: Work, pos: Pos, text: str) -> None:
    c = w.cards[pos]
    w.contests = replace(
        w.contests,
        titles=tuple(p for p in w.contests.titles if p != pos),
        yielded=tuple(sorted({*w.contests.yielded, pos})),
    )
    w.note(f"{text} {TITLE_YIELDED}", c.controller)


def _own_contest(w: Work, act: ContestAct, what: str) -> Pos:
    """The contest ``act`` names: one of the author's, in its own unlock phase. Raises IllegalMove."""
    if w.author != w.acting or w.phase != Phase.UNLOCK:
        raise IllegalMove(f"a contest is settled in its Methuselah's unlock phase: you {what} it then. {PAY}")
    pos = act.card
    c = w.card(pos)
    if c.controller != w.author or not (c.zone == Zone.CONTESTED or pos in w.contests.titles):
        raise IllegalMove(f"{w.name(pos)} is not a card or title of yours under contest")
    if c.zone != Zone.CONTESTED and c.zone != Zone.READY:
        raise IllegalMove(f"{w.name(pos)} is in torpor: it yields its title in your unlock phase. {TITLE_TORPOR}")
    if pos in w.contests.paid:
        raise IllegalMove(f"you have paid for {w.name(pos)} in this unlock phase already")
    return pos


def pay(w: Work, act: ContestAct) -> None:
    """``contest``: pay this unlock phase's cost of a contest (1 pool for a card, 1 blood from the
    vampire for a title). Raises IllegalMove outside the author's unlock phase, for a card that is
    not contested, or without the pool or blood."""
    pos = _own_contest(w, act, "pay for")
    c = w.cards[pos]
    if c.zone == Zone.CONTESTED:
        if w.p(w.author).pool < 1:
            raise IllegalMove(f"you have no pool to pay for {w.name(pos)}: yield it. {PAY}")
        w.pool_delta(w.author, -1, "contest")
        w.note(f"{seat_ref(w.author)} pays 1 pool to keep contesting {w.name(pos)}. {PAY}", w.author)
    else:
        if c.counters < 1:
            raise IllegalMove(f"{w.name(pos)} has no blood to pay: it yields its title. {TITLE_PAY}")
        w.counters_delta(pos, -1, "contest")
        w.note(f"{w.name(pos)} pays 1 blood to keep contesting its title. {TITLE_PAY}", w.author)
    w.contests = replace(w.contests, paid=(*w.contests.paid, pos))


def give_up(w: Work, act: ContestAct) -> None:
    """``yield``: give up a contest in the author's unlock phase: a contested card is burned with
    the cards on it; a contested title is lost for the rest of the game. Raises IllegalMove as
    :func:`pay` does."""
    pos = _own_contest(w, act, "yield")
    c = w.cards[pos]
    if c.zone == Zone.CONTESTED:
        name = w.name(pos)
        for other in [p for p, x in w.cards.items() if x.zone == Zone.ON and x.on == pos]:
            w.move(other, Target.ASH)
        w.contests = _drop(w.contests, pos)
        w.move(pos, Target.ASH)
        w.note(f"{seat_ref(w.author)} yields {name}: it is burned. {PAY}", w.author)
        return
    _yield_title(w, pos, f"{w.name(pos)} yields its title.")


def check_settled(w: Work) -> None:
    """Refuse ending the acting Methuselah's unlock phase while a contest of theirs is unsettled
    (neither paid for nor yielded). Raises IllegalMove."""
    if w.phase != Phase.UNLOCK:
        return
    due = dues(w.cards.values(), w.contests, w.acting)
    if due:
        names = " and ".join(w.name(p) for p in due)
        raise IllegalMove(f"{names}: pay the contest's cost or yield before your unlock phase ends. {PAY}")
