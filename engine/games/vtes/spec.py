"""Vampire: The Eternal Struggle as the registry knows it (shared/rules/vtes.md): 2 to 6
Methuselahs, each bringing a deck (crypt and library) as private decks."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.games.base import Act, Game, SeatFact
from engine.games.spec import Bot, GameSpec, ResultFormat, ScoreUnit, SeatKit, TablePlace
from engine.games.vtes.vocab import DeckPart

if TYPE_CHECKING:  # listing the games loads neither the rules nor krcg
    from engine.games.spec import KitCheck
    from engine.games.vtes.decks import Deck
    from engine.games.vtes.state import VtesState


def _rules() -> Game:
    from engine.games.vtes.game import VTES

    return VTES


def _bot(level: str, rng: random.Random, brought: Deck | None) -> Bot:
    """A bot of ``level`` (the spec has checked it) bringing ``brought``."""
    from engine.games.vtes.bots import vtes_bot

    return vtes_bot(level, brought, rng)


class DeckKit:
    """A Methuselah brings a deck: a crypt and a library (rules, "Setup"), committed as two
    private deck lists."""

    noun = "deck"

    def load(self, path: str) -> Deck:
        """Read a deck file (TWD, VDB text or link, JOL, Lackey, krcg JSON or ``N Name`` lines,
        through krcg's parser; Lackey's and ARDB's XML). Raises DeckFileError. Its library's size
        is a table rule (``library_size``), checked by :meth:`check` with the table's options
        once they are known, and by the table on the seat's ``deck`` act."""
        from engine.games.vtes.decks import load_deck

        return load_deck(path, library_size=False)

    def for_bot(self, rng: random.Random, taken: Sequence[Deck] = ()) -> Deck:
        """One of the shipped tournament-winning decks, chosen by ``rng`` among those whose name
        no deck of ``taken`` has (a shipped deck, or a file named as one; all of them when every
        one is taken) and, of those, the ones sharing the fewest crypt cards with ``taken``, so
        that bots contest few vampires with the other seats (rulebook, "Contested Cards")."""
        from engine.games.vtes.decks import bundled_deck_names
        from engine.games.vtes.kept_decks import remembered_bundled_deck  # kept read: no krcg load

        names = bundled_deck_names()
        used = {deck.name for deck in taken}
        free = [n for n in names if n not in used] or names
        vampires = {card for deck in taken for card, _ in deck.crypt}
        shared = {n: len({card for card, _ in remembered_bundled_deck(n).crypt} & vampires) for n in free}
        fewest = min(shared.values())
        return remembered_bundled_deck(rng.choice([n for n in free if shared[n] == fewest]))

    def deck_lists(self, brought: Deck) -> dict[str, list[str]]:
        """The crypt and the library as private deck lists, part name to identities."""
        return {DeckPart.CRYPT: brought.crypt_identities(), DeckPart.LIBRARY: brought.library_identities()}

    def summary(self, brought: Deck) -> str:
        """``"<name>: crypt 12, library 60"``, then every note: each misspelt name krcg matched to
        a card (``'line 5: "Govern the Unalligned" read as Govern the Unaligned'``), each header
        whose count disagrees, so the player sees every guess before the game."""
        label = f"{brought.name}: " if brought.name else ""
        tail = "".join(f"; {note}" for note in brought.notes)
        return f"{label}crypt {brought.crypt_size}, library {brought.library_size}{tail}"

    def check(self, path: str, options: Mapping[str, Any], exact: bool = False) -> KitCheck:
        """The deck file ``path`` as a table with ``options`` reads it (its counts, every name read
        as a close match, every problem: :func:`engine.games.vtes.decks.check_deck_file`)."""
        from engine.games.vtes.decks import check_deck_file

        return check_deck_file(path, options, exact=exact)


VEKN = SeatFact("vekn", "VEKN id", 10, "1003456")
"""A player's VEKN id, the member number the VEKN gives a player (``"1003456"``): a `join` may
carry it (docs/protocol.md 4.1), a profile keeps it, and an organiser's result lists it."""


def _auto_act(view: Any) -> Act | None:
    """A pass when the seat holds the impulse with nothing it could do
    (:func:`engine.games.vtes.autopass.auto_pass`)."""
    from engine.games.vtes.autopass import auto_pass

    return auto_pass(view)


def _timed_act(view: Any, options: Mapping[str, Any]) -> tuple[float, Act, str] | None:
    """Table rule ``impulse_seconds`` (0: off): a pass, once the seat has held the impulse of a
    window's loop that long (shared/rules/vtes-actions.md 5.1); never for a step that is not a
    loop (a strike, the terms, polling)."""
    seconds = options.get("impulse_seconds", 0)
    top = view.windows[-1] if view.windows else None
    if not seconds or top is None or not top.loop.order or top.loop.holder != view.seat:
        return None
    return float(seconds), {"do": "pass"}, f"My impulse clock ran out after {seconds} s: I pass."


def _kit() -> SeatKit:
    return DeckKit()


def _carddb() -> str:
    """The card database's version: krcg's, the package VTES reads its cards from (``"krcg 5.1.2"``)."""
    from importlib.metadata import version

    return f"krcg {version('krcg')}"


def _load() -> object:
    """The card database (:func:`engine.games.vtes.cards.card_base`) and the corrections kept for
    card records (:func:`engine.games.vtes.card_corrections.kept`: a TOML file the first card
    played would read), read once per process."""
    from engine.games.vtes.card_corrections import kept
    from engine.games.vtes.cards import card_base

    kept()
    return card_base()


def _result(
    state: VtesState, names: list[str], place: TablePlace = TablePlace(), fmt: ResultFormat = ResultFormat.TEXT
) -> str:
    """The table's result as the Archon takes it (:func:`engine.games.vtes.scoring.result_text`)."""
    from engine.games.vtes.scoring import result_text

    return result_text(state, names, place, fmt)


def _cards(names: Sequence[str], coverage: bool, as_json: bool, archive: str | None, out: Callable[[str], None]) -> int:
    """``vampire cards`` (:func:`engine.games.vtes.card_report.cards_command`)."""
    from engine.games.vtes.card_report import cards_command

    return cards_command(names, coverage, as_json, archive, out)


SPEC = GameSpec(
    name="vtes",
    title="Vampire: The Eternal Struggle",
    min_seats=2,
    max_seats=6,
    default_seats=5,
    rules=_rules,
    bot_levels=("heuristic", "random"),
    default_bot="heuristic",
    filler_bot="random",
    make_bot=_bot,
    kit=_kit,
    seat_facts=(VEKN,),
    score=ScoreUnit("mean VP", 2, ""),
    organiser_result=_result,
    auto_act=_auto_act,
    timed_act=_timed_act,
    carddb=_carddb,
    load=_load,
    cards=_cards,
)
