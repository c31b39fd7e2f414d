"""Every hint of a key at the VTES table derives from the seat's offers
(:func:`engine.games.vtes.offers.answers`): in another Methuselah's action, the action box's
``you:`` line shows ``p`` only when a reaction in hand is offered (and names it), and the status
line says "play" and the footer shows ``p`` only then (pressed anyway, it says why); a reaction in hand that fits nothing is not hinted (a tester saw
"you: p a modifier" with nothing to play: an action modifier whose "Only usable if a minion
attempts to block" the action did not meet). The table in one process, a Pilot waiting on
conditions; the offers on a table of the engine's simulation.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Label
from textual.widgets._footer import FooterKey

from engine.games.vtes.claims import window_held
from engine.games.vtes.offers import answers
from engine.games.vtes.vocab import REACTION, CombatStep, Do, Window
from tests.support.poll import eventually
from tests.support.tui import shown
from tests.support.vtes_fight import bleed_blocked, one_crypt_fight
from tests.support.vtes_sim import act
from tests.support.vtes_table import app_when, keys_after_a_look, said
from tui.games.vtes.action_text import Key, waiting_words, your_keys
from tui.games.vtes.table import VtesTableScreen
from tui.games.vtes.widgets.action import ActionBox
from tui.games.vtes.widgets.hand import HandList


def _impulse_with_an_idle_reaction(view: Any) -> bool:
    """Seat 0 holds the impulse in another's action, holds a reaction, and is offered no play."""
    a = view.action
    if a is None or a.actor == 0 or a.impulse != 0 or window_held(view.claims) or view.combat is not None:
        return False
    idle = any(REACTION in c.types for c in view.hand)
    return idle and not any(o.do == Do.PLAY for o in answers(view))


async def _your_keys_shown(app: Any, pilot: Any) -> ActionBox:
    """The table's action box, once it shows this seat's keys ("you: …")."""
    await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table", pilot=pilot)
    box = app.screen.query_one(ActionBox)
    await eventually(lambda: "you:" in shown(box), 10, "this seat's keys", pilot=pilot)
    return box


async def test_p_is_hinted_only_for_a_card_the_seat_is_offered() -> None:
    app, session = app_when(_impulse_with_an_idle_reaction, seed=12)  # a game whose seat 0 meets it
    async with app.run_test(size=(80, 24)) as pilot:
        box = await _your_keys_shown(app, pilot)
        view = session.view()
        offered = answers(view)
        assert not any(o.do == Do.PLAY for o in offered)
        keys = shown(box).split("you: ")[1].split("\n")[0]
        assert "p " not in keys and keys.endswith(". pass (no block)" if view.may_block(0) else ". pass"), keys
        status = shown(app.screen.query_one("#waiting", Label))
        assert "play" not in status, status
        # The footer leaves p out; pressed all the same, it says why and plays nothing.
        assert "p" not in [k.key_display for k in app.screen.query(FooterKey)]
        keys_after_a_look(app)
        await pilot.press("p")
        await eventually(lambda: said(app).startswith("✗"), 10, "why p plays nothing", pilot=pilot)
        assert "is not offered in this action" in said(app) or "No card of your hand" in said(app), said(app)
        assert session.submitted == []


def test_a_modifier_only_usable_if_a_minion_attempts_to_block_is_hinted_only_then() -> None:
    """Elder Impersonation ("[obf] +1 stealth. [OBF] Only usable if a minion attempts to block.
    …"): while nobody attempts to block, its stealth is not needed and its superior is not usable,
    so the acting Methuselah is offered nothing and ``p`` is not hinted; once a minion attempts to
    block, it is offered, and the hint names it."""
    f = one_crypt_fight("Gilbert Duane (G6)", [("Elder Impersonation", 7)])
    t = f.t
    act(t, f.ana, "action", kind="bleed", minion=f.lucia)
    view = t.view(f.ana)
    assert not [o for o in answers(view) if o.do == Do.PLAY]
    assert [k.key for k in your_keys(view, None, None)] == ["."]
    act(t, f.ana, "pass")
    while (a := t.state.open_action) is not None and a.window == Window.NO_ATTEMPT:
        blocker = next(iter(t.view(a.impulse).may_try(a.impulse)), None)
        act(t, a.impulse, "block", minion=blocker.as_list()) if blocker is not None else act(t, a.impulse, "pass")
    while (a := t.state.open_action) is not None and a.impulse != f.ana:
        act(t, a.impulse, "pass")
    view = t.view(f.ana)
    assert view.action is not None and view.action.window == Window.ATTEMPT
    assert {view.card(o.card).name for o in answers(view) if o.do == Do.PLAY and o.card} == {"Elder Impersonation"}
    assert Key("p", "a modifier: Elder Impersonation") in your_keys(view, None, None)


def test_the_status_line_in_a_combat_names_the_maneuver_the_seat_is_offered() -> None:
    """At the range step the status line names the keys of the holder's offers, as the combat box
    does: "m maneuver or . pass" when a maneuver is offered (Swallowed by the Night at [OBF]),
    ". pass" alone when not (before range, where nothing but a pass is offered)."""
    f = one_crypt_fight("Gilbert Duane (G6)", [("Swallowed by the Night", 7)])
    bleed_blocked(f)
    names = ["Ana", "Ben", "Cy", "Dee"]
    said = set()
    while (c := f.t.state.open_combat) is not None and c.step in (CombatStep.BEFORE_RANGE, CombatStep.RANGE):
        view = f.t.view(c.impulse)
        maneuver = any(o.do == Do.MANEUVER for o in answers(view))
        words = waiting_words(view, names)
        said.add(words)
        assert words == f"The combat waits for you ({'m maneuver or ' if maneuver else ''}. pass).", (c.step, words)
        act(f.t, c.impulse, "pass")
    assert said == {"The combat waits for you (. pass).", "The combat waits for you (m maneuver or . pass)."}


def _impulse_with_one_offered_card_and_another(view: Any) -> bool:
    """Seat 0 holds the impulse in an action, is offered exactly one card to play there, and
    holds another card that is not offered."""
    a = view.action
    if a is None or a.impulse != 0 or window_held(view.claims) or view.innermost is not a:
        return False
    offered = {o.card for o in answers(view) if o.do == Do.PLAY}
    return len(offered) == 1 and any(c.pos not in offered for c in view.hand)


def _impulse_with_copies_of_one_offered_card_and_another(view: Any) -> bool:
    """Seat 0 holds the impulse in an action, is offered two copies (or more) of one card and
    nothing else, and holds another card that is not offered."""
    a = view.action
    if a is None or a.impulse != 0 or window_held(view.claims) or view.innermost is not a:
        return False
    offered = {o.card for o in answers(view) if o.do == Do.PLAY}
    names = {c.name for c in view.hand if c.pos in offered}
    return len(offered) >= 2 and len(names) == 1 and any(c.pos not in offered for c in view.hand)


async def test_p_names_the_card_the_action_box_names_when_the_hand_holds_two_copies_of_it() -> None:
    """Two Deflections in hand, the highlight on another card, and the action box says "p a
    reaction: Deflection" (its name once): ``p`` names a Deflection, as the box reads (a tester met
    "✗ Govern the Unaligned is not offered in this action" instead)."""
    app, session = app_when(_impulse_with_copies_of_one_offered_card_and_another, seed=12)
    async with app.run_test(size=(80, 24)) as pilot:
        box = await _your_keys_shown(app, pilot)
        view = session.view()
        offered = {o.card for o in answers(view) if o.do == Do.PLAY}
        (name,) = {c.name.split(" (")[0] for c in view.hand if c.pos in offered}
        assert f"p a reaction: {name} " in shown(box) or f"p a modifier: {name} " in shown(box), shown(box)
        hand = app.screen.query_one(HandList)
        hand.focus()
        assert hand.highlight_pos(next(c for c in view.hand if c.pos not in offered).pos)
        await pilot.pause()
        keys_after_a_look(app)
        await pilot.press("p")
        await eventually(lambda: "p again plays it" in said(app), 10, "the card named", pilot=pilot)
        assert f"p plays {name} from your hand" in said(app) and not session.submitted, said(app)


async def test_p_plays_the_one_offered_card_the_action_box_names_whatever_is_highlighted() -> None:
    """The action box says "you: p a reaction: Deflection" while the hand's highlight is on
    another card: ``p`` plays the card named (highlighted first), as a newcomer reads it; not a
    refusal of the highlighted card (a tester met "✗ Rolling with the Punches is not offered")."""
    app, session = app_when(_impulse_with_one_offered_card_and_another, seed=12)
    async with app.run_test(size=(80, 24)) as pilot:
        box = await _your_keys_shown(app, pilot)
        view = session.view()
        (pos,) = {o.card for o in answers(view) if o.do == Do.PLAY}
        named = next(c for c in view.hand if c.pos == pos)
        assert named.name.split(" (")[0] in shown(box), shown(box)
        hand = app.screen.query_one(HandList)
        other = next(c for c in view.hand if c.pos != pos)
        hand.focus()
        assert hand.highlight_pos(other.pos)
        await pilot.pause()
        keys_after_a_look(app)
        await pilot.press("p")  # names the card offered (highlighted now), a second p plays it
        await eventually(lambda: "p again plays it" in said(app), 10, "the card named", pilot=pilot)
        assert named.name.split(" (")[0] in said(app) and not session.submitted, said(app)
        await pilot.press("p")
        await eventually(
            lambda: session.submitted or app.screen is not box.screen, 10, "the card played, or its menu", pilot=pilot
        )
        if session.submitted:
            assert session.submitted[-1]["do"] == "play" and tuple(session.submitted[-1]["card"]) == pos
        else:  # a choice to make first (which minion, which level): the menu is the named card's
            menu = app.screen
            words = f"{getattr(menu, 'title_words', '')} {getattr(menu, 'choices', '')}"
            assert named.name.split(" (")[0] in words, words
            await pilot.press("escape")
            await eventually(lambda: app.screen is box.screen, 10, "the menu closed", pilot=pilot)
        assert "is not offered" not in said(app), said(app)
