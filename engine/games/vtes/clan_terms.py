"""Terms that pay each Methuselah for the vampires of a clan the caller chooses (Consanguineous
Boon: "Choose a clan. Successful referendum means each Methuselah gains 1 pool for each vampire of
the chosen clan they control."; rulebook, "Political Actions").

The sentences are read as the card's terms (:func:`read`, consulted by
:func:`engine.games.vtes.card_sentences.read_sentence`); the caller names the clan on the ``terms``
act (``clan``, a clan's name as the card database spells it: ``"Tremere antitribu"``), the table
keeps it on the referendum and, as it passes, counts for each Methuselah the vampires of that clan
they control, ready or in torpor (:mod:`engine.games.vtes.referendum_terms`).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from engine.games.vtes.card_effects import Effect, EffectKind
from engine.games.vtes.cards import card_base, card_id
from engine.games.vtes.vocab import Zone

if TYPE_CHECKING:
    from engine.games.vtes.view import VtesView

CHOOSE = "choose a clan"
"""The sentence that asks the caller for a clan."""
_EACH = re.compile(
    r"successful referendum means each methuselah (?P<verb>gains|burns) (?P<n>\d+) pool for each vampire of the "
    r"chosen clan (?:they|he or she) controls?"
)


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effects of ``sentence`` (lower case, as :func:`engine.games.vtes.card_sentences.sentences`
    gives it) when it is one of this module's shapes (the terms), else None."""
    if sentence == CHOOSE or _EACH.fullmatch(sentence):
        return (Effect(EffectKind.TERMS),)
    return None


def per_vampire(line: str) -> int | None:
    """The pool each Methuselah gains (negative: burns) for each vampire of the chosen clan, from
    one whole line of a political action card's text (lower case, single spaces), or None for
    another line."""
    said = [s.strip() for s in line.rstrip(".").split(". ")]
    if len(said) != 2 or said[0] != CHOOSE or (m := _EACH.fullmatch(said[1])) is None:
        return None
    return int(m.group("n")) * (1 if m.group("verb") == "gains" else -1)


@functools.cache
def clans() -> frozenset[str]:
    """Every clan a crypt card of the card database is of (its spelling: ``"Banu Haqim"``)."""
    return frozenset(i.clan for i in card_base().every_info() if i.clan)


def counted(clan: str, card_clan: str, crypt: bool, zone: Zone) -> bool:
    """A card (its clan, a crypt card or not, its zone) is a vampire of ``clan`` its controller
    controls: a crypt card ready or in torpor."""
    return crypt and zone in (Zone.READY, Zone.TORPOR) and card_clan == clan


def clan_of(card: str) -> str:
    """The clan of a card identity (``"200001-1"``), "" for none or an unknown card."""
    cid = card_id(card) if card else None
    info = card_base().info(cid) if cid is not None else None
    return info.clan if info is not None else ""


def changes(view: VtesView, clan: str, per: int) -> list[tuple[int, int]]:
    """``(seat, pool delta)`` for each Methuselah in the game controlling vampires of ``clan`` that
    the view shows, ``per`` pool each (no delta 0)."""
    out = []
    for s in view.in_game():
        n = sum(1 for c in view.cards if c.controller == s and counted(clan, clan_of(c.card), c.crypt, c.zone))
        if n:
            out.append((s, per * n))
    return out


def in_play(view: VtesView) -> list[str]:
    """The clans of the vampires in play (ready or in torpor) the view shows, sorted."""
    return sorted({k for c in view.cards if c.crypt and c.zone in (Zone.READY, Zone.TORPOR) if (k := clan_of(c.card))})
