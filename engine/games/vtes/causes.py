"""A cause in words names only the author's own cards and titles (vtes-actions.md P9;
docs/vtes-by-hand.md, "Sources are one's own").

A change by hand, or a number of an action changed with no card, gives its cause in the player's
words. Words that are exactly a card's name (krcg's, case and accents ignored) or a title name that
card or title, and a judge asks to see it: the card must be one of the author's that everyone can
see, and the title one a vampire the author controls holds. Other words ("judge ruling", "bleed",
"misplay") stay free: they are shown with the change, and a touched Methuselah disputes a cause
it doubts.

Which of the author's cards: a card in play that it controls or owns (a card it put on another's
minion), the card its open action has set aside, and a card of its gone to its ash heap this turn
(played, or burned: :attr:`~engine.games.vtes.state.VtesState.ashed`). A card in hand is not one
of them: no other peer can see it (its identity is hidden from the table), so it is played, or
named with ``by`` where an act may turn it face up. A Discipline's master card is named like its
Discipline ("Obfuscate"): those words name the Discipline of a minion the author controls (any
level), or the card.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.games.base import IllegalMove
from engine.games.vtes import standing
from engine.games.vtes.acts import esc
from engine.games.vtes.cards import CardInfo, card_base, card_id, name_key
from engine.games.vtes.contests import has_title
from engine.games.vtes.state import CardState
from engine.games.vtes.vocab import Zone
from engine.games.vtes.work import Work


def own_cause(w: Work, cause: str | None) -> None:
    """Raise IllegalMove when ``cause`` (a cause phrase, or None) names a card or a title that is
    not the author's (module docstring); free words pass."""
    if not cause:
        return
    ids = card_base().named(cause)
    if ids:
        _own_card(w, cause, ids)
        return
    title = _title(cause)
    if title and not any(_holds(w, c, title) for c in _minions(w)):
        raise IllegalMove(
            f"{title.title()} is not yours to name as a cause: no vampire you control holds that title; "
            "give the cause in other words"
        )


def _own_card(w: Work, cause: str, ids: tuple[int, ...]) -> None:
    """Refuse ``cause`` naming the cards ``ids`` unless one of them is the author's to name."""
    named = set(ids)
    if any(card_id(c.card) in named for c in _yours(w)):
        return
    infos = [i for i in map(card_base().info, ids) if i is not None]
    level = next((d for d in map(_discipline, infos) if d), "")
    if level and any(level in (x.lower() for x in _disciplines(w, c)) for c in _minions(w)):
        return
    name = esc((infos[0].character or infos[0].name) if infos else cause)
    mine = f"no minion you control has {name}, and no {name} card of yours" if level else f"no {name} of yours"
    raise IllegalMove(
        f"{name} is not yours to name as a cause: {mine} is in play, set aside by your action or put in your "
        "ash heap this turn; play it first, or give the cause in other words"
    )


def _yours(w: Work) -> Iterable[CardState]:
    """The author's face-up cards a cause may name."""
    ashed = set(w.ashed)
    for c in w.cards.values():
        in_play = c.zone.in_play and w.author in (c.controller, c.owner)
        just_played = c.owner == w.author and (c.zone == Zone.ASIDE or (c.zone == Zone.ASH and c.pos in ashed))
        if c.card and (in_play or just_played):
            yield c


def _minions(w: Work) -> Iterable[CardState]:
    """The author's vampires in play, face up."""
    return (c for c in w.cards.values() if c.card and c.crypt and c.controller == w.author and c.zone.in_play)


def _disciplines(w: Work, c: CardState) -> tuple[str, ...]:
    info = standing.at(w, c.pos)
    return info.disciplines if info is not None else ()


def _discipline(info: CardInfo) -> str:
    """The Discipline (krcg's lower-case abbreviation) a Discipline master card gives, or "":
    its text reads "… level of <its name> [abbreviation]"."""
    if not info.is_master:
        return ""
    found = re.search(rf"level of {re.escape(info.name)} \[(\w+)\]", info.text)
    return found.group(1).lower() if found else ""


def _title(cause: str) -> str:
    """The title ``cause`` names ("prince", from "Prince" or "prince of Seattle"), or ""."""
    words = name_key(cause)
    for title in card_base().titles():
        if words == title or words.startswith(title + " of "):
            return title
    return ""


def _holds(w: Work, c: CardState, title: str) -> bool:
    """The vampire ``c`` has ``title`` and its benefit (not contested, not yielded)."""
    info = card_base().info(c.card)
    return info is not None and name_key(info.title) == title and has_title(w.contests, c.pos)
