"""Where a seat's offers hold only the pass, the automatic pass takes it (shared/rules/vtes-actions.md
P1, P5; :func:`engine.games.vtes.autopass.auto_pass`), and a card whose effect needs a target that
does not exist is neither offered nor accepted (:func:`engine.games.vtes.card_checks.missing_target`).

Positions a tester met at 80×24 with the automatic pass on: the acting player's impulse after
Daring the Dawn with nobody left to block; combat steps whose only answer is a pass; a range step
whose ``m`` offered a maneuver no card gives; Minion Tap played with no vampire in play."""

from __future__ import annotations

import dataclasses

from engine.games.vtes.autopass import auto_pass
from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck
from engine.games.vtes.offers import answers, offers
from engine.games.vtes.vocab import CombatStep, Do
from tests.support.vtes_fight import bleed_blocked, fight_table, in_hand, one_crypt_fight, refused, to_step
from tests.support.vtes_sim import act


def test_after_daring_the_dawn_with_nobody_to_block_the_actor_passes_by_itself() -> None:
    """Lodin bleeds Ben and Ana plays Daring the Dawn ("vampires cannot block this action"; the
    damage after action resolution is left by hand): the impulse returns to her with only the pass
    offered, and nothing of the card to apply before the action resolves: she passes by herself
    (it waited for her ``.``)."""
    f = one_crypt_fight("Lodin (Olaf Holte)", [("Daring the Dawn", 7)])
    t = f.t
    act(t, f.ana, "action", kind="bleed", minion=f.lucia)
    daring = next(o for o in answers(t.view(f.ana)) if o.do == Do.PLAY)
    t.play(f.ana, dict(daring.act))
    t.run_ops()
    view = t.view(f.ana)
    assert view.action is not None and view.action.impulse == f.ana
    assert [o.do for o in answers(view)] == [Do.PASS]
    assert auto_pass(view) == {"do": "pass"}


def test_no_maneuver_is_offered_without_a_card_that_gives_one_and_the_range_step_passes() -> None:
    """The range step for a combatant whose hand holds no maneuver (the fight library's one combat
    card, Immortal Grapple, gives none): only the pass is offered (a maneuver by hand is the
    command ``:maneuver``, a claim), so ``m`` acts on nothing, and the automatic pass passes."""
    f = fight_table()
    t = f.t
    bleed_blocked(f)
    to_step(t, CombatStep.RANGE)
    c = t.state.open_combat
    assert c is not None
    view = t.view(c.impulse)
    assert [o.do for o in answers(view)] == [Do.PASS]
    assert auto_pass(view) == {"do": "pass"}


def test_after_its_own_maneuver_a_range_step_with_only_a_pass_passes_by_itself() -> None:
    """Arika blocks Arika; the first to hold the range step's impulse maneuvers to long range with
    Swallowed by the Night, and the other declines to maneuver back. The range step that returns
    to the mover offers only the pass (a combatant does not maneuver twice in a row), though a
    second Swallowed by the Night is in its hand: it passes by itself (the tester's "The combat
    waits for you (. pass)"); so does every later step whose offers hold only the pass."""
    arika = card_base().lookup("Arika")
    assert arika is not None
    library = (("Swallowed by the Night", 2), ("Rolling with the Punches", 2), ("Soak", 1), ("Conditioning", 2))
    f = fight_table(seed=3, blood=(4, 4, 1, 1), crypt=Deck("arika", ((arika.id, 12),), ()), library=library)
    t = f.t
    bleed_blocked(f)
    to_step(t, CombatStep.RANGE)
    c = t.state.open_combat
    assert c is not None
    mover = c.impulse
    minion = f.lucia if mover == f.ana else f.marek
    t.play(mover, {"do": "maneuver", "minion": minion, "card": in_hand(t, mover, "Swallowed by the Night")})
    t.run_ops()
    seen: set[tuple[str, int]] = set()
    while (c := t.state.open_combat) is not None and c.step != CombatStep.DAMAGE:
        view = t.view(c.impulse)
        chosen = auto_pass(view)
        if [o.do for o in answers(view)] == [Do.PASS]:
            assert chosen == {"do": "pass"}, (c.step, c.impulse)
            seen.add((c.step, c.impulse))
        if chosen is None:  # the other declines to maneuver back; each strikes with its hand
            chosen = {"do": "strike", "minion": list(c.due()[0])} if c.step == CombatStep.STRIKE else {"do": "pass"}
        t.play(c.impulse, chosen)
        t.run_ops()
    assert c is not None and c.long
    assert (CombatStep.RANGE, mover) in seen


def test_minion_tap_with_no_vampire_to_tap_is_not_offered_and_is_refused() -> None:
    """Minion Tap ("Move any amount of blood from a vampire you control to your pool") in Ana's
    master phase: with a vampire with blood it is offered for each amount; with none, it is not
    offered, and played anyway it is refused with a sentence, the table unchanged (it was taken:
    the card gone, nothing happened)."""
    f = fight_table(library=(("Minion Tap", 7),))
    t = f.t
    t.state = dataclasses.replace(t.state, phase="master")
    tap = in_hand(t, f.ana, "Minion Tap")
    plays = [o.act for o in offers(t.view(f.ana)) if o.do == Do.PLAY and o.card == tuple(tap)]
    assert plays and all(a.get("move_blood") for a in plays)
    act(t, f.ana, "blood", card=f.lucia, delta=-4, cause="effect")
    assert not [o for o in offers(t.view(f.ana)) if o.do == Do.PLAY and o.card == tuple(tap)]
    found = card_base().lookup("Minion Tap")
    assert found is not None
    refused(t, f.ana, {"do": "play", "card": tap}, "Minion Tap moves blood from a ready vampire you control")
