"""What ``:play CARD`` and the key ``p`` put into the act for a card whose record the table reads:
the same choice the engine offers (the key is a filter of the engine's offers), so the card's
effect happens whichever way the player plays it (shared/rules/vtes-actions.md 4.3, P2)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.sim import SimTable
from tests.support.vtes_sim import copy_table, first_vampire, one_vampire_table, played, to_the_strike
from tui.games.vtes import key_acts
from tui.games.vtes.command_words import CommandError, Context
from tui.games.vtes.fight_commands import parse_line
from tui.games.vtes.menu_keys import MenuKeys

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def _pass_all(t: SimTable) -> None:
    while (w := t.state.open_action) is not None:
        t.play(w.impulse, {"do": "pass"})


def test_freak_drive_by_command_and_by_key_unlocks_the_vampire_whose_bleed_succeeded() -> None:
    t = one_vampire_table("Arika", (("Freak Drive", 2), ("Lost in Crowds", 2)), seed=5)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    t.play(ana, {"do": "action", "kind": "bleed", "minion": first_vampire(t, ana), "target": ben})
    _pass_all(t)
    view = t.view(ana)
    card = next(c for c in view.hand if c.name == "Freak Drive")
    offered = [a for a in VTES.legal_acts(view) if a["do"] == "play" and a["card"] == card.as_list()]
    by_command = parse_line("play Freak Drive", Context(view, NAMES))
    by_key = key_acts.play_act(card, view, ana, None, Context(view, NAMES))
    assert by_command == by_key == offered[0]  # unlock, 1 blood from the vampire
    t.play(ana, by_command)
    assert not next(c for c in t.view(ana).controlled(ana) if c.crypt).locked


def test_villein_by_command_moves_the_blood_named_from_the_vampire_named_and_the_key_asks() -> None:
    """Villein ("move 2 to 5 blood from that vampire to your pool"): ``play Villein`` moves the
    most from the vampire it goes on; ``blood N`` names the amount; one out of its range is refused
    with a sentence; ``p`` offers each amount (a menu), the most first."""
    t = one_vampire_table("Arika", (("Villein", 2), ("Lost in Crowds", 2)), seed=5, blood=(7, 2, 2, 2), phase="master")
    ana = t.state.acting
    view = t.view(ana)
    ctx = Context(view, NAMES)
    arika = first_vampire(t, ana)
    most = parse_line("play Villein", ctx)
    assert (most["move_blood"], most["minion"], most["on"]) == (5, arika, arika)
    three = parse_line("play Villein blood 3", ctx)
    assert (three["move_blood"], three["minion"], three.get("blood")) == (3, arika, None)
    with pytest.raises(CommandError, match="cannot move 6 blood from that vampire: it moves 2 to 5 from Arika"):
        parse_line("play Villein blood 6", ctx)
    card = next(c for c in view.hand if c.name == "Villein")
    menu = key_acts.play_menu(card, view, ana, None, ctx)
    assert [act["move_blood"] for _, act in menu] == [5, 4, 3, 2]
    assert menu[1][0].startswith("4 blood from Arika")
    pool = view.players[ana].pool
    played(t, ana, three)  # the others let it through (engine.games.vtes.cancels)
    assert t.view(ana).players[ana].pool == pool + 3


def test_deflection_lets_the_bled_player_choose_the_new_target() -> None:
    """Deflection ("change the target of the bleed to another Methuselah other than the acting
    minion's controller"): ``p`` offers each Methuselah it may choose, at each level (a menu);
    ``play Deflection to NAME`` names one."""
    t = one_vampire_table("Arika", (("Deflection", 2), ("Lost in Crowds", 2)), seed=5)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    t.play(ana, {"do": "action", "kind": "bleed", "minion": first_vampire(t, ana), "target": ben})
    while (a := t.state.open_action) is not None and not (a.window == "C" and a.impulse == ben):
        t.play(a.impulse, {"do": "pass"})  # Ben's pass in window A declines to block
    view = t.view(ben)
    ctx = Context(view, NAMES)
    card = next(c for c in view.hand if c.name == "Deflection")
    menu = key_acts.play_menu(card, view, ben, None, ctx)
    others = [s for s in range(4) if s not in (ana, ben)]
    assert sorted({act["target"] for _, act in menu}) == others  # at each level it may be played at
    assert {words.rsplit(": ", 1)[1] for words, _ in menu} == {NAMES[s] for s in others}
    last = NAMES[others[-1]]
    assert parse_line(f"play Deflection to {last}", ctx)["target"] == others[-1]


def test_a_combat_card_is_played_at_the_level_named_in_combat() -> None:
    """``play Rolling with the Punches basic`` in the damage step prevents 1 ("[for] Prevent 1
    damage"), its superior ("[FOR] Burn 1 blood to prevent all damage …") prevents the strike's
    damage and the round's for the blood; ``play Torn Signpost superior`` by a vampire without it is refused with a sentence;
    a level in combat never reads as an action's."""
    t = one_vampire_table("Arika", (("Rolling with the Punches", 2), ("Torn Signpost", 2)), seed=5)
    ana, ben = to_the_strike(t, [])
    for seat in (ana, ben):
        t.play(seat, {"do": "strike", "minion": first_vampire(t, seat)})
    c = t.state.open_combat
    assert c is not None and c.step == "damage"
    me = c.impulse
    ctx = Context(t.view(me), NAMES)
    card = next(x.as_list() for x in ctx.view.hand if x.name == "Rolling with the Punches")
    basic = parse_line("play Rolling with the Punches basic", ctx)
    assert basic == {"do": "prevent", "minion": first_vampire(t, me), "card": card, "normal": 1}
    superior = parse_line("play Rolling with the Punches superior", ctx)
    assert superior == {**basic, "round": True, "blood": 1}
    with pytest.raises(CommandError, match="cannot play Torn Signpost at superior"):
        parse_line("play Torn Signpost superior", ctx)
    t.play(me, basic)


class _Acts:
    def __init__(self, t: SimTable) -> None:
        self.t = t

    def engine_refusal(self, act: Act) -> str | None:
        try:
            copy_table(self.t).play(self.t.state.acting, act)
        except IllegalMove as err:
            return str(err)
        return None


def test_a_with_no_minion_able_to_act_says_that_an_ally_recruited_this_turn_acts_from_the_next() -> None:
    """The rule (shared/rules/vtes-actions.md §3: an ally brought in by a recruit action does not
    act that turn), said when ``a`` finds no action to offer, instead of "None of your minions
    can act now"."""
    t = one_vampire_table("Arika", (("Mylan Horseed", 2), ("Lost in Crowds", 2)), seed=5)
    ana = t.state.acting
    ally = next(c.as_list() for c in t.view(ana).hand if c.name == "Mylan Horseed")
    t.play(ana, {"do": "action", "kind": "recruit", "minion": first_vampire(t, ana), "card": ally})
    _pass_all(t)
    screen = SimpleNamespace(
        _view=t.view(ana), session=SimpleNamespace(seat=ana), _acts=_Acts(t), selected_card=lambda: None
    )
    said = MenuKeys._why_no_action(screen)  # type: ignore[arg-type]
    assert "was recruited this turn and cannot act until your next turn" in said, said


def test_a_master_card_put_on_a_vampire_goes_on_one_and_the_key_asks_which() -> None:
    """Vessel ("Put this card on a vampire …"): ``p`` with no vampire selected asks which ready
    vampire it goes on (yours first), and the one chosen carries it; it no longer lands loose in
    the ready region by key (a tester's Vessel did, and its blood never moved)."""
    t = one_vampire_table("Arika", (("Vessel", 2), ("Lost in Crowds", 2)), seed=5, phase="master")
    ana = t.state.acting
    view = t.view(ana)
    ctx = Context(view, NAMES)
    card = next(c for c in view.hand if c.name == "Vessel")
    menu = key_acts.play_menu(card, view, ana, None, ctx)
    mine = first_vampire(t, ana)
    assert len(menu) == 4 and menu[0][1]["on"] == mine and menu[0][0] == "on Arika (G2)"
    assert all(act["to"] == "on" for _, act in menu)
    assert menu[1][0].removeprefix("on Arika (G2) (").rstrip(")") in NAMES  # another's names its Methuselah
    played(t, ana, menu[0][1])  # the others let it through (engine.games.vtes.cancels)
    vessel = next(c for c in t.state.cards if c.pos == card.pos)
    assert vessel.on == tuple(mine)


def test_strike_with_target_vitals_aims_the_hand_strike() -> None:
    """``:strike with Target Vitals`` is the hand strike with Target Vitals as its aim, as offered
    (docs/protocol.md 4.4.1 ``aim``), not a strike of the card's own for 1."""
    t = one_vampire_table("Arika", (("Target Vitals", 2), ("Conditioning", 2)), seed=5)
    ana, _ = to_the_strike(t, [])
    view = t.view(ana)
    vitals = next(c.as_list() for c in view.hand if c.name == "Target Vitals")
    act = parse_line("strike with Target Vitals", Context(view, NAMES))
    assert act == {"do": "strike", "minion": first_vampire(t, ana), "aim": vitals}
    assert act in VTES.legal_acts(view)
