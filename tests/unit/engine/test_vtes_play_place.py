"""Where a card played from the hand ends by default (engine.games.vtes.cards.play_place), read
from krcg's types and the card's own words: one case per kind of card (shared/rules/vtes.md,
"Zones")."""

from __future__ import annotations

import pytest

from engine.games.vtes.cards import PlayPlace, card_base, play_place


def _place(name: str) -> PlayPlace:
    base = card_base()
    card = base.lookup(name)
    assert card is not None, name
    info = base.info(card.id)
    assert info is not None
    return play_place(info)


@pytest.mark.parametrize(
    ("name", "place"),
    [
        ("Dreams of the Sphinx", PlayPlace.IN_PLAY),  # master: "Put this card in play."
        ("Anarch Revolt", PlayPlace.IN_PLAY),  # master without "Unique." first
        ("Information Highway", PlayPlace.IN_PLAY),  # "Unique location."
        ("Elysium: The Arboretum", PlayPlace.IN_PLAY),  # "Master: unique location."
        ("Carlton Van Wyk", PlayPlace.IN_PLAY),  # an ally
        ("Ivory Bow", PlayPlace.ON_MINION),  # equipment
        ("Mr. Winthrop", PlayPlace.ON_MINION),  # a retainer
        ("Blood Doll", PlayPlace.ON_MINION),  # master: "Put this card on a vampire you control."
        ("Pentex Subversion", PlayPlace.ON_MINION),  # master on anyone's ready minion
        ("Zip Gun", PlayPlace.ON_MINION),  # a combat card that stays as equipment
        ("Govern the Unaligned", PlayPlace.ASH),  # an action
        ("Minion Tap", PlayPlace.ASH),  # a master that is resolved and gone
        ("Conditioning", PlayPlace.ASH),  # an action modifier
        ("Deflection", PlayPlace.ASH),  # a reaction
        ("Parity Shift", PlayPlace.ASH),  # a political action
    ],
)
def test_a_played_card_goes_where_its_type_and_text_say(name: str, place: PlayPlace) -> None:
    assert _place(name) == place
