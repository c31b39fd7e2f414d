"""What the table knows of a card (engine.games.vtes.card_record): printed numbers, costs,
requirements and effects read from krcg's data and the card's text, with the kept corrections."""

from __future__ import annotations

import pytest

from engine.games.vtes import card_corrections
from engine.games.vtes.card_corrections import CorrectionError, check, corrections, kept, parse, reasons
from engine.games.vtes.card_effects import ALLY_STAYS_LOCKED, NORMAL_ONLY, POOR, Effect, EffectKind
from engine.games.vtes.card_record import CardRecord, Coverage, Timing, read, record
from engine.games.vtes.card_sentences import SentenceKind, read_sentence
from engine.games.vtes.cards import card_base
from engine.games.vtes.vocab import LimitScope, Replacement


def rec(name: str) -> CardRecord:
    info = card_base().lookup(name)
    assert info is not None, name
    found = record(info.id)
    assert found is not None
    return found


def test_an_ally_has_its_printed_life_strength_and_bleed() -> None:
    legionnaire = rec("Emerald Legionnaire")
    assert (legionnaire.printed.life, legionnaire.printed.strength, legionnaire.printed.bleed) == (2, 2, 1)
    carlton = rec("Carlton Van Wyk")
    assert (carlton.printed.life, carlton.printed.strength, carlton.printed.bleed) == (2, 0, 0)
    assert carlton.requires.unique


def test_a_retainer_has_its_printed_life() -> None:
    assert rec("Tasha Morgan").printed.life == 1


def test_a_vampire_has_its_capacity_title_votes_sect_and_printed_bonus() -> None:
    mark = rec("Mark Decker")
    assert (mark.printed.capacity, mark.printed.title, mark.printed.votes, mark.printed.sect) == (
        8,
        "Prince",
        2,
        "Camarilla",
    )
    assert mark.printed.strength == 2  # "+1 strength." on top of a vampire's 1
    assert mark.requires.unique  # every crypt card is unique (rulebook "Unique Cards")
    assert rec("Theo Bell (G2)").printed.strength == 1


def test_costs_are_the_printed_ones() -> None:
    assert rec("Govern the Unaligned").costs.blood == 1
    assert rec("Zillah's Valley").costs.pool == 5
    assert rec("Blood Doll").costs.words() == ""


def test_requirements_clan_discipline_title_locked_and_unique() -> None:
    assert rec("Emerald Legionnaire").requires.clans == ("Harbinger of Skulls",)
    govern = rec("Govern the Unaligned").requires
    assert (govern.disciplines, govern.discipline_rule) == (("dom",), "Mono")
    assert rec("Parity Shift").requires.titles == ("prince", "justicar")
    assert rec("Wake with Evening's Freshness").requires.locked
    assert rec("Dreams of the Sphinx").requires.unique
    assert not rec("Villein").requires.unique
    assert rec("Direct Intervention").requires.timing[0] == Timing.OUT_OF_TURN
    assert rec("Conditioning").requires.only == ("only usable during a bleed action",)


def test_basic_and_superior_effects_are_read_per_level() -> None:
    conditioning = rec("Conditioning")
    basic, superior = conditioning.clauses_for(("dom",)), conditioning.clauses_for(("DOM",))
    assert [e for c in basic if c.levels for e in c.effects] == [Effect(EffectKind.BLEED, 2, limited=True)]
    assert [e.amount for c in superior if c.levels for e in c.effects] == [2, 3]  # a superior may play either
    assert conditioning.coverage == Coverage.FULLY
    crowds = rec("Lost in Crowds")
    assert [e for c in crowds.clauses if c.superior for e in c.effects] == [Effect(EffectKind.STEALTH, 2)]


def test_strikes_and_their_as_above_tails() -> None:
    bats = rec("Aid from Bats")
    basic, superior = bats.clauses
    assert basic.effects == (Effect(EffectKind.STRIKE, 1, ranged=True), Effect(EffectKind.MANEUVER, 1, optional=True))
    assert Effect(EffectKind.PRESS, 1, optional=True) in superior.effects
    assert rec("Majesty").clauses[0].effects == (Effect(EffectKind.END_COMBAT),)
    assert EffectKind.UNLOCK in {e.kind for e in rec("Majesty").clauses[1].effects}


def test_an_action_card_reads_its_bleed_and_stealth() -> None:
    govern = rec("Govern the Unaligned")
    assert govern.clauses[0].effects == (Effect(EffectKind.BLEED, 2),)
    assert Effect(EffectKind.STEALTH, 1) in govern.clauses[1].effects
    assert Effect(EffectKind.ADD_BLOOD, 3, whom="younger") in govern.clauses[1].effects
    assert govern.coverage == Coverage.FULLY
    assert rec("Thing").clauses[-1].effects == (Effect(EffectKind.ADD_BLOOD, 2, whom="gangrel"),)
    assert rec("Zillah's Valley").clauses[-1].effects == (
        Effect(EffectKind.ADD_BLOOD, 4, least=8),
    )  # capacity 8 or more
    assert rec("Zillah's Valley").coverage == Coverage.FULLY  # a master card adds it as it is played


def test_a_bleed_redirect_reads_its_new_target_and_the_lock_of_the_reacting_vampire() -> None:
    basic, superior = rec("Deflection").clauses[-2:]
    assert basic.effects == (Effect(EffectKind.LOCK), Effect(EffectKind.REDIRECT))
    assert superior.effects == (Effect(EffectKind.REDIRECT),)  # "as above, but do not lock this vampire"
    assert rec("My Enemy's Enemy").clauses[-1].effects[-1] == Effect(EffectKind.REDIRECT, whom="predator's predator")
    for name in ("Deflection", "Bait and Switch", "Telepathic Misdirection", "My Enemy's Enemy"):
        assert rec(name).coverage == Coverage.FULLY, name


def test_bonding_at_superior_gives_1_stealth_and_1_limited_bleed() -> None:
    superior = rec("Bonding").clauses[-1]
    assert superior.effects == (Effect(EffectKind.STEALTH, 1), Effect(EffectKind.BLEED, 1, limited=True))
    assert rec("Bonding").coverage == Coverage.FULLY


def test_a_press_is_read_only_where_the_card_gives_one() -> None:
    assert not rec("Target Vitals").has(EffectKind.PRESS)  # "they cannot press" gives no press
    assert rec("Aid from Bats").has(EffectKind.PRESS)


def test_a_prevention_from_the_opposing_strike_or_of_non_aggravated_damage_only() -> None:
    basic, superior = rec("Rego Motum").clauses[-2:]
    assert (basic.effects, superior.effects) == ((Effect(EffectKind.PREVENT, 2),), (Effect(EffectKind.PREVENT, 4),))
    soak = [e for c in rec("Soak").clauses for e in c.effects]
    assert soak == [Effect(EffectKind.PREVENT, 2, whom=NORMAL_ONLY), Effect(EffectKind.PREVENT, 4, whom=NORMAL_ONLY)]
    assert rec("Soak").coverage == rec("Rego Motum").coverage == Coverage.FULLY
    assert rec("Leathery Hide").effects == (Effect(EffectKind.PREVENT, 4, whom=NORMAL_ONLY),)  # "four" in words
    assert rec("Glancing Blow").effects == (Effect(EffectKind.PREVENT, 1),)


def test_an_additional_bleed_for_a_clan_is_read_with_the_clan() -> None:
    basic, superior = rec("Aire of Elation").clauses[-2:]
    assert basic.effects == (
        Effect(EffectKind.BLEED, 1, limited=True),
        Effect(EffectKind.BLEED, 1, limited=True, whom="toreador"),
    )
    assert [e.amount for e in superior.effects] == [2, 1]
    assert rec("Aire of Elation").coverage == Coverage.FULLY


def test_an_amount_only_against_a_poor_target_or_a_titled_acting_minion() -> None:
    basic, superior = rec("Foreshadowing Destruction").clauses[-2:]
    assert superior.effects == (Effect(EffectKind.BLEED, 3, limited=True, whom=POOR, least=9),)
    assert rec("Protection Racket").effects == (
        Effect(EffectKind.INTERCEPT, 1),
        Effect(EffectKind.INTERCEPT, 1, whom="titled"),
    )
    assert rec("Foreshadowing Destruction").coverage == rec("Protection Racket").coverage == Coverage.FULLY


def test_a_choice_of_effects_is_one_clause_per_choice() -> None:
    """ "+1 bleed (limited), or +1 stealth and +1 bleed (limited)": two ways to play the level."""
    _, bleed, both = rec("Fata Morgana").clauses
    assert bleed.levels == both.levels == ("CHI",)
    assert bleed.effects == (Effect(EffectKind.BLEED, 1, limited=True),)
    assert both.effects == (Effect(EffectKind.STEALTH, 1), Effect(EffectKind.BLEED, 1, limited=True))
    assert rec("Fata Morgana").coverage == Coverage.FULLY
    maneuver, dodge = [c for c in rec("Outside the Hourglass").clauses if c.levels == ("tem",)]
    assert maneuver.effects == (Effect(EffectKind.MANEUVER, 1),)
    assert dodge.effects == (Effect(EffectKind.DODGE), Effect(EffectKind.MANEUVER, 1, optional=True))


def test_as_above_with_an_optional_press() -> None:
    superior = rec("Thrown Sewer Lid").clauses[-1]
    assert superior.effects == (Effect(EffectKind.STRIKE, 3, ranged=True), Effect(EffectKind.PRESS, 1, optional=True))
    assert rec("Thrown Sewer Lid").coverage == Coverage.FULLY


def test_stealth_to_the_acting_minion_played_by_another_vampire() -> None:
    veil = rec("Veil the Legions")
    assert veil.requires.other and veil.clauses[1].effects == (Effect(EffectKind.STEALTH, 1),)
    assert veil.coverage == Coverage.PARTLY  # the superior's stealth for the next X actions is by hand
    basic, superior = rec("Cloak the Gathering").clauses
    assert not rec("Cloak the Gathering").requires.other  # only its superior is played by another
    assert not basic.by_other and superior.by_other and superior.effects == (Effect(EffectKind.STEALTH, 1),)
    assert rec("Cloak the Gathering").coverage == Coverage.FULLY


def test_a_cards_printed_limit_on_its_plays_is_read_with_its_scope_and_words() -> None:
    (qui_vive,) = rec("On the Qui Vive").requires.limits
    assert (qui_vive.scope, qui_vive.minion) == (LimitScope.UNLOCK, True)
    assert qui_vive.words == "A minion can play only one On the Qui Vive between their unlock phases"
    assert [(x.scope, x.minion) for x in rec("Forced March").requires.limits] == [(LimitScope.TURN, True)]
    assert [(x.scope, x.minion) for x in rec("Soak").requires.limits] == [(LimitScope.ROUND, True)]
    assert [(x.scope, x.minion) for x in rec("Carrion Crows").requires.limits] == [(LimitScope.COMBAT, True)]
    assert [(x.scope, x.minion) for x in rec("Ashur Tablets").requires.limits] == [(LimitScope.TURN, False)]
    assert [(x.scope, x.minion) for x in rec("Veil the Legions").requires.limits] == [(LimitScope.ACTION, False)]
    assert rec("Form of Mist").requires.limits == ()  # "at superior": the table does not know the level played


def test_a_do_not_replace_until_sentence_is_read_as_the_moment_the_card_is_replaced() -> None:
    assert rec("Dodge").replacement == Replacement.AFTER_COMBAT
    assert rec("Glancing Blow").replacement == Replacement.UNLOCK
    assert rec("Wake with Evening's Freshness").replacement == Replacement.UNLOCK  # "your next unlock phase"
    assert rec("Wash").replacement == Replacement.UNLOCK  # "your unlock phase"
    assert rec("Mirror Walk").replacement == Replacement.DISCARD
    assert rec("Bum's Rush").replacement == Replacement.AFTER_ACTION
    assert rec("Sonar").replacement == Replacement.AFTER_TURN
    assert rec("Dragonbound").replacement == Replacement.NOW  # "as long as this card is in play": by hand
    assert "do not replace as long as this card is in play" in rec("Dragonbound").by_hand
    assert rec("Dodge").coverage == rec("Glancing Blow").coverage == Coverage.FULLY
    assert rec("Wake with Evening's Freshness").coverage == Coverage.FULLY


def test_on_the_qui_vive_keeps_an_ally_locked_through_its_next_unlock_phase() -> None:
    qui_vive = rec("On the Qui Vive")
    assert qui_vive.effects == (Effect(EffectKind.WAKE), Effect(EffectKind.LOCK, whom=ALLY_STAYS_LOCKED))
    assert qui_vive.keeps_ally_locked and qui_vive.coverage == Coverage.FULLY
    assert not rec("Deflection").keeps_ally_locked


def test_a_move_only_usable_one_way_and_a_redirect_from_the_acting_vampire() -> None:
    assert rec("Apportation").clauses[0].effects == (Effect(EffectKind.PRESS, 1, whom="continue"),)
    assert rec("Read Intentions").clauses[0].effects == (Effect(EffectKind.PRESS, 1, whom="end"),)
    assert rec("Leapfrog").clauses[0].effects == (Effect(EffectKind.MANEUVER, 1, whom="long"),)
    basic, superior = rec("Redirection").clauses
    assert basic.effects == superior.effects == (Effect(EffectKind.LOCK), Effect(EffectKind.REDIRECT))
    assert not superior.by_hand  # "but the acting vampire can be the same age or older": a condition
    for name in ("Apportation", "Read Intentions", "Leapfrog", "Redirection", "Murmur of the False Will"):
        assert rec(name).coverage == Coverage.FULLY, name


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("+1 stealth", SentenceKind.EFFECT),
        ("only usable during a bleed action", SentenceKind.CONDITION),
        ("move any amount of blood from a vampire you control to your pool", SentenceKind.EFFECT),
        ("burn 7 cards from the top of your library to gain 3 pool", SentenceKind.EFFECT),  # Liquidation
        ("burn 7 cards from the top of your library", SentenceKind.BY_HAND),  # no pool: not that shape
        ("+1 stealth and +1 bleed (limited)", SentenceKind.EFFECT),  # Bonding at superior: both parts read
        ("strike: 1 damage and put this card on the opposing minion", SentenceKind.BY_HAND),  # not only a strike
        ("strike: 1r damage, with 1 optional maneuver", SentenceKind.EFFECT),
        ("a vampire may play only one leathery hide each round", SentenceKind.CONDITION),  # "may" as "can"
    ],
)
def test_a_sentence_is_an_effect_a_condition_or_by_hand(sentence: str, kind: SentenceKind) -> None:
    assert read_sentence(sentence).kind == kind


def test_each_kept_correction_differs_from_the_patterns_reading() -> None:
    kept = corrections()
    assert kept
    for name, fix in kept.items():
        info = card_base().lookup(name)
        assert info is not None, f"the corrections name {name!r}, no card"
        corrected, as_read = rec(name), read(card_base().info(info.id))  # type: ignore[arg-type]
        assert fix.reason and corrected.note == fix.reason
        assert corrected.clauses != as_read.clauses, f"{name}: the patterns now read it as corrected; drop it"


def test_a_card_kept_by_hand_has_no_effect_applied(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``[[card]]`` correction with ``by_hand = true`` leaves every sentence to the players (the
    kept file holds none today: Delaying Tactics, the last, is applied; a file of one is read)."""
    assert rec("Delaying Tactics").coverage == Coverage.FULLY  # its record cached as kept, before the patch
    text = "[[card]]\nname = 'Delaying Tactics'\nreason = 'the referendum by hand'\nby_hand = true\n"
    monkeypatch.setattr(card_corrections, "kept", lambda: parse(text))
    info = card_base().info(card_base().lookup("Delaying Tactics").id)
    tactics = card_corrections.corrected(read(info))
    assert tactics.coverage == Coverage.BY_HAND and not tactics.effects and tactics.note == "the referendum by hand"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[[card]]\nname = 'X'\n", "a name and a one-line reason"),
        ("[[by_hand]]\nname = 'X'\n", "by_hand.. entry needs a name and a one-line reason"),
        ("[[by_hand]]\nname = 'X'\nreason = '  '\n", "a one-line reason"),
        ('[[by_hand]]\nname = \'X\'\nreason = """two\nlines"""\n', "more than one line"),
        ("[[by_hand]]\nname = 'X'\nreason = 'r'\nclauses = []\n", "only a name and a reason"),
        ("[[by_hand]]\nname = 'X'\nreason = 'r'\n[[by_hand]]\nname = 'X'\nreason = 's'\n", "X has a reason twice"),
        ("[[card]]\nname = 'X'\nreason = 'r'\nby_hand = true\n[[by_hand]]\nname = 'X'\nreason = 's'\n", "twice"),
        ("[[card]]\nname = 'X'\nreason = 'r'\n", "one of them"),
        (
            "[[card]]\nname = 'X'\nreason = 'r'\nby_hand = true\n[[card]]\nname = 'X'\nreason = 'r'\nby_hand = true\n",
            "twice",
        ),
        ("[[card]]\nname = 'X'\nreason = 'r'\nclauses = [{ effects = [{ kind = 'fly' }] }]\n", "no effect kind"),
        ("[[card]]\nname = 'X'\nreason = 'r'\nclauses = [{ colour = 'red' }]\n", "a clause is"),
        ("not = toml = at all", "not TOML"),
    ],
)
def test_a_bad_correction_is_refused_with_a_sentence(text: str, words: str) -> None:
    with pytest.raises(CorrectionError, match=words):
        parse(text)


def test_the_kept_file_parses() -> None:
    assert card_corrections.kept.__wrapped__().cards  # read anew, not from the cache


def _by_name(name: str) -> CardRecord | None:
    info = card_base().lookup(name)
    return record(info.id) if info is not None else None


def test_the_kept_file_names_cards_and_keeps_no_stale_reason() -> None:
    check(kept(), _by_name)  # raises for a name no card has, or a reason for a card applied


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("Direct Internvention", "Direct Internvention is no card's name"),
        ("Conditioning", "Conditioning has a by-hand reason but the table applies it fully"),
        ("Veil the Legions", "Veil the Legions has a by-hand reason but the table applies it partly"),
    ],
)
def test_a_reason_for_no_card_or_for_a_card_the_table_applies_is_refused(name: str, words: str) -> None:
    text = f"[[by_hand]]\nname = {name!r}\nreason = 'the table has no window for it'\n"
    with pytest.raises(CorrectionError, match=words):
        check(parse(text), _by_name)


def test_a_by_hand_reason_is_the_records_note_and_changes_no_reading() -> None:
    why = reasons()["Golconda: Inner Peace"]
    info = card_base().lookup("Golconda: Inner Peace")
    assert info is not None
    kept_rec, as_read = rec("Golconda: Inner Peace"), read(card_base().info(info.id))  # type: ignore[arg-type]
    assert kept_rec.note == why and "cancel it as played" in why
    assert kept_rec.clauses == as_read.clauses and kept_rec.coverage == Coverage.BY_HAND


def test_sect_requirements_name_the_sects_asked_and_barred() -> None:
    assert rec("Protection Racket").requires.sects == ("anarch",)
    assert rec("Reckless Agitation").requires.sects == ("independent", "anarch")
    assert rec("Fee Stake: Boston").requires.sects == ("anarch",)  # "…with capacity 5 or more"
    assert rec("Go Anarch").requires.not_sects == ("anarch",)
    assert rec("Mozambique Allure").requires.sects == ()  # "a Laibon or non-titled vampire"
    assert rec("Aaron Bathurst").printed.sect == "Sabbat"  # a text that is "Sabbat." alone
