"""How much of a card the table applies when it is played (the ``fully`` / ``partly`` /
``by_hand`` of ``vampire cards --coverage``): an effect of a card's record counts as applied only
where the table puts it into the act that plays the card, as the offers do.

- stealth: an action modifier's, or an action card's (:mod:`engine.games.vtes.card_play`);
- intercept, a redirected bleed (the new target chosen by the player), "lock this reacting
  vampire", "this minion wakes" (a locked minion that may then react and block) and "reduce a
  bleed against you": a reaction's;
- bleed: an action modifier's, or an action card's bleed;
- a blocking minion's intercept lowered ("gets -1 intercept"), and a block attempt that fails, its
  minion barred from blocking this action again: an action modifier's, played during the attempt;
  a chosen vampire, or every vampire, that cannot block: an action modifier's, before any attempt;
  the action ended unsuccessfully as a block attempt would succeed, the acting minion unlocking, and
  its minion barred from performing the same action again this turn: an action modifier's or a
  reaction's
  (:func:`engine.games.vtes.plays.check_play`); the minions whose attempt fails locked before the
  action resolves: an action modifier's; blood a woken minion burns before the action resolves
  unless it blocks: a reaction's that wakes it
  (:func:`engine.games.vtes.action_success.before_resolution`);
- the blocker locked and the action ended before block resolution if it is blocked: an action
  modifier's, kept on the action (:func:`engine.games.vtes.actions.end_if_blocked`);
- the reacting vampire's block attempt, whoever may block by default: a reaction's
  (:func:`engine.games.vtes.plays.check_play`);
- votes: an action modifier's or a reaction's, played while a referendum polls
  (:func:`engine.games.vtes.card_play.vote_choices`);
- transfers added to the influence phase by a master card in play, and intercept a retainer or an
  equipment gives the minion it is on as it attempts to block, and an event every ally as it
  attempts to block a vampire (:mod:`engine.games.vtes.events`), and master phase actions a card in play
  gives as its controller locks it, the blood or pool a card in play gives as its controller locks it
  (with its counters), the pool of a third copy in play, and the pool a card in play burns in an
  unlock phase or as the vampire it is on goes to torpor, the hand size a card in play gives, and
  the block a master card on a minion bars, the blood it gives after a successful action with no
  reaction played (:mod:`engine.games.vtes.lasting`); the Discipline level and capacity a master card
  gives the vampire it is on, read wherever a vampire's Disciplines or capacity count
  (:mod:`engine.games.vtes.standing`); the directed action a master card in play gives minions to burn
  or steal it, a minion a master card locks as it is played (:mod:`engine.games.vtes.master_locks`),
  and the referendum a vampire may call to burn it (:mod:`engine.games.vtes.card_actions`); its control passing to its controller's
  predator in their discard phase (:func:`engine.games.vtes.lasting.turn_ended`); the ash heap's
  library cards a third copy recovers, chosen as it is played (:func:`engine.games.vtes.lasting.arrived`);
- the pool more a master card in play makes cards cost its controller: in the cost offered with the
  card (:func:`engine.games.vtes.card_play.printed_cost`, and per vampire in
  :func:`engine.games.vtes.card_play.master_choices`);
- blood moved from each ready vampire the player controls, the library's top cards burned for pool,
  and the crypt's top card moved to the uncontrolled region: a master card's, as it is played (:func:`engine.games.vtes.plays.master_effects`);
- blood moved from a vampire the player controls to their pool: a master card's (the vampire
  chosen as it is played, :func:`engine.games.vtes.card_play.master_choices`); or, once a turn in
  the phase it names, between the vampire a master card is on and the pool, either way
  (:func:`engine.games.vtes.card_play.blood_shifts`);
- blood the acting vampire gains for each vote by which its political action's referendum passed,
  and those moved to the pool instead: an action modifier's played after that action resolved
  (:mod:`engine.games.vtes.referendum_gains`);
- a card burned (an equipment, a location) and pool its controller burns: an action card's, the
  card named as it is announced, burned as it succeeds (:mod:`engine.games.vtes.action_success`);
- blood added to a vampire of the uncontrolled region: an action card's (the vampire chosen as it
  is announced, the blood added as it succeeds); pool gained when its bleed succeeds;
- a strike's damage (not a bonus to the hand strike), a dodge, combat ends (before the strikes, or
  once the card's strike resolved: "combat ends immediately after the resolution of this strike"), the opposing vampire
  sent to torpor or the opposing ally burned, and an unlock beside
  them ("and unlock this vampire before combat ends"): a combat card's clause read as a strike, or
  a weapon's, struck from play (:func:`engine.games.vtes.readings.strike_readings`);
- a maneuver or a press: a combat card's clause that is moves alone ("Maneuver or press",
  "Maneuver with 1 optional press": :func:`engine.games.vtes.combat_cards.combat_moves`); an optional one riding with a strike the
  table reads (a maneuver in the range step that chooses that strike, a press after it:
  :func:`engine.games.vtes.combat.maneuver`, :func:`engine.games.vtes.combat.press`);
- cards drawn as its action succeeds, the hand then discarded down to its size: an action card's;
- the minion unlocks as its action succeeds (burning the blood the card says): an action card's,
  or an action modifier's played during the action (:mod:`engine.games.vtes.action_success`);
- "unlock this vampire": an action modifier's played after its action resolved
  (:func:`engine.games.vtes.card_play.after_choices`);
- a prevention: a combat card's clause that is preventions alone, with an optional press (a number
  of points, X+N for X blood, all of the strike's damage, all damage this round for the blood its
  text burns: :func:`engine.games.vtes.combat_cards.prevent_acts`); an equipment's, burned from the
  minion it is on to prevent;
- a political action card's terms, of a shape the table applies (pool per minion, points
  allocated, a richer Methuselah's pool shared out, a younger vampire banished, pool per vampire
  of a chosen clan): chosen by the
  caller and applied as the referendum passes (:mod:`engine.games.vtes.referendum_terms`);
- additional strikes: a combat card's clause that gives them alone, played with the hand strike
  (:func:`engine.games.vtes.combat_cards.additional_strike_cards`), or with the strike it reads
  ("Strike: dodge, with 1 additional strike": :func:`engine.games.vtes.readings.strike_readings`);
- the aggravated damage a strike card's striker takes when it strikes at close range, with that
  strike (:func:`engine.games.vtes.readings.recoil_of`);
- an aim's damage more from the strike it is played with once some of that strike's damage lands,
  the opposing minion then barred from pressing this round (:mod:`engine.games.vtes.aims`);
- a strength for the combat, ranged damage each round, a grapple (only hand strikes this round,
  another round at close range), the blood the opposing vampire lost this round, and an optional
  press riding with them: a combat card's clause that is these alone, played in the step its text
  binds it to (:func:`engine.games.vtes.combat_cards.combat_plays`,
  :mod:`engine.games.vtes.combat_plays`);
- an optional maneuver a reaction gives its minion in the combat that follows its block, carried
  into that combat; an action card's combat with the minion it names, opened as it succeeds, and
  the maneuver it gives its acting minion there (:mod:`engine.games.vtes.carried_moves`);
- a political action's referendum canceled while it polls, the acting vampire unlocked, the calling
  card back to its owner's hand, the same political action barred for the acting Methuselah's
  minions this turn: a reaction's or action modifier's whose every clause cancels
  (:mod:`engine.games.vtes.referendum_cancels`);
- the minion bleeding the player for the amount printed or more burned, the bleed not successful:
  an out-of-turn master card's, played once blocks are declined (:mod:`engine.games.vtes.bleed_burns`);
- a cancel of a master card as it is played (another Methuselah's, or a predator's or prey's): a
  master card's, played in the answer window a master card opens as it is announced, the card
  canceled with its cost unpaid (:mod:`engine.games.vtes.cancels`).

Every other effect is read and shown, and left to the players. "Fully": every sentence of the text
is a condition the record reads or an effect applied; "partly": some effect applied; "by hand":
none. A printed limit on how often the card is played is a condition the record reads only where
its ``requires.limits`` hold it (:func:`engine.games.vtes.card_checks.take_limit` checks those;
one "at superior" where the act that plays the card tells its level,
:func:`engine.games.vtes.card_levels.known`): any other is not checked, so the card is partly at
most (one aim each strike is: an act names one aim).
"""

from __future__ import annotations

import re

from engine.games.vtes import blood_intercept, card_levels, entering_life
from engine.games.vtes.bleed_burns import ACTING_MINION, burns_bleeder
from engine.games.vtes.block_readings import UNLESS_BLOCKED
from engine.games.vtes.cancel_reading import ANSWERED
from engine.games.vtes.card_effects import (
    AFTER_STRIKE,
    ALLIES_VS_VAMPIRES,
    ANY_MINION,
    FAILED_BLOCKERS,
    HAND_STRIKE,
    QUIET_SUCCESS,
    STRIKES,
    THREE_COPIES,
    UNLESS_BLOCKS,
    Effect,
    EffectKind,
)
from engine.games.vtes.card_record import CardRecord, Clause, Coverage
from engine.games.vtes.card_sentences import SentenceKind
from engine.games.vtes.carried_moves import IF_BLOCKS, IN_ITS_COMBAT, enters_combat
from engine.games.vtes.combat_cards import PLAYS, moves_alone, plays_alone
from engine.games.vtes.edge_readings import burn_time
from engine.games.vtes.margin_readings import MARGIN
from engine.games.vtes.poll_cancel_reading import WHOMS as POLL_CANCEL
from engine.games.vtes.poll_cancel_reading import cancels
from engine.games.vtes.readings import TABLE_TERMS, strike_readings, terms_reading
from engine.games.vtes.vocab import MODIFIER, REACTION


def applied(rec: CardRecord, clause: Clause, e: Effect) -> bool:
    """The table applies effect ``e`` of ``clause`` when the card ``rec`` is played."""
    types = set(rec.types)
    match e.kind:
        case EffectKind.MANEUVER if e.whom == IF_BLOCKS:  # carried into the combat its block opens
            return REACTION in types and clause.type in ("", REACTION)
        case EffectKind.ENTER_COMBAT:  # Bum's Rush: the combat its success opens, and the maneuver it gives there
            return "Action" in types and clause.type in ("", "Action")
        case EffectKind.MANEUVER if e.whom == IN_ITS_COMBAT:  # only with the combat the table opens
            return "Action" in types and clause.type in ("", "Action") and enters_combat(rec)
        case EffectKind.CANCEL | EffectKind.UNLOCK | EffectKind.DRAW | EffectKind.NO_REPEAT if e.whom in POLL_CANCEL:
            return bool(types & {MODIFIER, REACTION}) and cancels(rec)  # a referendum canceled while it polls
        case EffectKind.UNLOCK | EffectKind.GAIN_POOL if burn_time(e) is not None:
            return True  # as the Edge is burned for the card (engine.games.vtes.edge_burns)
        case EffectKind.STEALTH | EffectKind.BLEED:
            return bool(types & {MODIFIER, "Action"}) and clause.type in ("", "Action Modifier", "Action")
        case EffectKind.BURN if e.whom == ACTING_MINION:  # out of turn, against a bleed (bleed_burns)
            return bool(burns_bleeder(rec))
        case EffectKind.BURN if e.whom:
            return "Action" in types and clause.type in ("", "Action")
        case EffectKind.BURN_POOL if e.whom == "controller":
            burns = any(x.kind == EffectKind.BURN and x.whom for x in clause.effects)
            return "Action" in types and clause.type in ("", "Action") and burns
        case EffectKind.ADD_BLOOD:
            return bool(types & {"Action", "Master"}) and clause.type in ("", "Action")
        case EffectKind.GAIN_POOL if e.whom == THREE_COPIES:
            return "Master" in types
        case EffectKind.GAIN_LIFE if e.whom == entering_life.ENTERS:  # chosen with the level as it is announced
            return bool(types & {"Retainer", "Ally"})
        case EffectKind.GAIN_POOL | EffectKind.GAIN_BLOOD if not e.whom:  # as an action card succeeds
            return "Action" in types and clause.type in ("", "Action")
        case EffectKind.GAIN_POOL if e.whom == "bleed":
            return "Action" in types and clause.type in ("", "Action")
        case (
            EffectKind.TRANSFERS
            | EffectKind.MASTER_ACTION
            | EffectKind.EXTRA_COST
            | EffectKind.CRYPT_DRAW
            | EffectKind.LIBRARY_BURN
            | EffectKind.LOCK_USE
            | EffectKind.LOCK_COUNTERS
            | EffectKind.UNLOCK_BURN
            | EffectKind.TORPOR_BURN
            | EffectKind.NO_BLOCK
        ):
            return "Master" in types
        case EffectKind.GAIN_BLOOD | EffectKind.MOVE_BLOOD if e.whom == MARGIN:
            return MODIFIER in types and rec.after_resolution
        case EffectKind.GAIN_BLOOD if e.whom == QUIET_SUCCESS:
            return "Master" in types
        case EffectKind.CANCEL if e.whom in ANSWERED:
            return "Master" in types
        case EffectKind.BURN_ACTION | EffectKind.STEAL_ACTION | EffectKind.TO_PREDATOR | EffectKind.RECOVER:
            return "Master" in types
        case EffectKind.BURN_VOTE:
            return True  # a card in play of any type (a master, a political action card's event)
        case EffectKind.DISCIPLINE | EffectKind.CAPACITY:
            return "Master" in types
        case EffectKind.HAND_SIZE:
            return bool(types & {"Master", "Equipment"})
        case EffectKind.CARRIED if e.whom == ALLIES_VS_VAMPIRES:
            return "Event" in types  # an event in play: every ally blocking a vampire (events.ally_intercept)
        case EffectKind.CARRIED:
            return bool(types & {"Retainer", "Equipment"})
        case EffectKind.MOVE_BLOOD | EffectKind.SHIFT_BLOOD:
            return "Master" in types
        case EffectKind.VOTES:
            return bool(types & {MODIFIER, REACTION}) and clause.type in ("", MODIFIER, REACTION)
        case EffectKind.TERMS:
            reading = terms_reading(rec.id)
            return "Political Action" in types and reading is not None and reading.kind in TABLE_TERMS
        case EffectKind.FAIL_BLOCK | EffectKind.BAR_BLOCK:
            return MODIFIER in types and clause.type in ("", MODIFIER)
        case EffectKind.END_IF_BLOCKED:
            return MODIFIER in types and clause.type in ("", MODIFIER)
        case EffectKind.ATTEMPT_BLOCK:
            return REACTION in types and clause.type in ("", REACTION)
        case EffectKind.NO_REPEAT:  # with the end of the action its clause makes
            ends = any(x.kind == EffectKind.END_ACTION for x in clause.effects)
            return ends and bool(types & {MODIFIER, REACTION}) and clause.type in ("", MODIFIER, REACTION)
        case EffectKind.END_ACTION:
            return bool(types & {MODIFIER, REACTION}) and clause.type in ("", MODIFIER, REACTION)
        case EffectKind.UNLOCK if not e.whom and any(x.kind == EffectKind.END_ACTION for x in clause.effects):
            return bool(types & {MODIFIER, REACTION})  # "Unlock this minion. The action ends (unsuccessfully)"
        case EffectKind.LOCK if e.whom == ANY_MINION:
            return "Master" in types
        case EffectKind.LOCK if e.whom == UNLESS_BLOCKED:  # as the action resolves
            return REACTION in types and clause.type in ("", REACTION)
        case EffectKind.LOCK if e.whom == FAILED_BLOCKERS:
            return MODIFIER in types and clause.type in ("", MODIFIER)
        case EffectKind.BURN_BLOOD if e.whom == UNLESS_BLOCKS:
            wakes = any(x.kind == EffectKind.WAKE for x in clause.effects)
            return REACTION in types and clause.type in ("", REACTION) and wakes
        case EffectKind.INTERCEPT if e.whom in blood_intercept.WHOMS:  # its vampire's, later in the action
            return REACTION in types and clause.type in ("", REACTION)
        case EffectKind.INTERCEPT if e.amount < 0:
            return MODIFIER in types and clause.type in ("", MODIFIER)
        case EffectKind.INTERCEPT | EffectKind.REDIRECT | EffectKind.LOCK | EffectKind.WAKE | EffectKind.REDUCE_BLEED:
            return REACTION in types and clause.type in ("", "Reaction")
        case EffectKind.END_COMBAT if e.whom == AFTER_STRIKE:
            return "Combat" in types and any(r.levels == clause.levels and r.after for r in strike_readings(rec.id))
        case EffectKind.RECOIL:
            return "Combat" in types and any(r.levels == clause.levels and r.recoil for r in strike_readings(rec.id))
        case EffectKind.AIM:
            return "Combat" in types and clause.type in ("", "Combat")
        case EffectKind.PREVENT:
            alone = all(x.kind == EffectKind.PREVENT or _rider(x) for x in clause.effects)
            worn = "Equipment" in types and alone  # burned from play to prevent; its other sentences aside
            alone = alone and not clause.by_hand
            return ("Combat" in types and clause.type in ("", "Combat") and alone) or worn
        case EffectKind.PRESS if _rider(e) and any(x.kind == EffectKind.PREVENT for x in clause.effects):
            alone = all(x.kind == EffectKind.PREVENT or _rider(x) for x in clause.effects) and not clause.by_hand
            return "Combat" in types and clause.type in ("", "Combat") and alone
        case EffectKind.MANEUVER | EffectKind.PRESS if moves_alone(clause):
            return "Combat" in types and clause.type in ("", "Combat")
        case EffectKind.ADDITIONAL_STRIKE:
            alone = all(x.kind == e.kind for x in clause.effects) and not clause.by_hand
            struck = any(r.levels == clause.levels and r.additional for r in strike_readings(rec.id))
            return "Combat" in types and clause.type in ("", "Combat") and (alone or struck)
        case kind if kind in PLAYS or (kind == EffectKind.PRESS and e.optional and plays_alone(clause)):
            return "Combat" in types and clause.type in ("", "Combat") and plays_alone(clause)
        case EffectKind.MANEUVER | EffectKind.PRESS if e.optional:
            struck = ("Combat" in types or "Equipment" in types) and clause.type in ("", "Combat")
            return struck and any(r.levels == clause.levels for r in strike_readings(rec.id))
        case kind if kind in STRIKES and (not e.hand or e.whom == HAND_STRIKE):
            struck = ("Combat" in types or "Equipment" in types) and clause.type in ("", "Combat")
            return struck and any(r.levels == clause.levels for r in strike_readings(rec.id))
        case EffectKind.UNLOCK | EffectKind.DRAW if e.whom == "success" and MODIFIER not in types:
            return "Action" in types and clause.type in ("", "Action")
        case EffectKind.UNLOCK if e.whom == "success":
            return bool(types & {MODIFIER, "Action"}) and clause.type in ("", MODIFIER, "Action")
        case EffectKind.UNLOCK if e.whom == "block":
            return REACTION in types and clause.type in ("", REACTION)
        case EffectKind.UNLOCK if MODIFIER in types and rec.after_resolution:
            return clause.type in ("", MODIFIER)
        case EffectKind.UNLOCK:
            return "Combat" in types and any(r.levels == clause.levels and r.unlock for r in strike_readings(rec.id))
        case _:
            return False


def _rider(e: Effect) -> bool:
    """An optional press riding with another effect ("with 1 optional press")."""
    return e.kind == EffectKind.PRESS and e.optional


_PLAY_LIMIT = re.compile(r"(?:an? (?:vampire|minion|ally) (?:can|may) play only one |only one )(?!aim each strike)")
"""A condition sentence that limits how often the card is played (one aim each strike aside)."""


def unchecked_limit(rec: CardRecord) -> str | None:
    """The first printed limit on the card's plays that the table does not check (see the module),
    as its sentence, or None."""
    held = {x.words.lower().rstrip(".") for x in rec.requires.limits if not x.superior or card_levels.known(rec)}
    said = (r.sentence for c in rec.clauses for r in c.readings if r.kind == SentenceKind.CONDITION)
    return next((s for s in said if _PLAY_LIMIT.match(s) and s not in held), None)


def coverage_of(rec: CardRecord) -> Coverage:
    """The :class:`Coverage` of ``rec`` (see the module)."""
    effects = [(c, e) for c in rec.clauses for e in c.effects]
    done = [applied(rec, c, e) for c, e in effects]
    if not rec.by_hand and all(done) and unchecked_limit(rec) is None:
        return Coverage.FULLY
    return Coverage.PARTLY if any(done) else Coverage.BY_HAND
