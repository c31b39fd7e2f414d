"""The VTES table's keys for what a player applies by hand (docs/vtes-by-hand.md): lock or unlock
(``k``), burn (``x``), move (``v``) the card selected on the board, a combat between two minions
(``f``), a counter up or down (``>`` ``<``; on another Methuselah's card, ``x`` and ``v`` open
the command line with the act and ``for`` typed, for its cause), and the answers to changes by hand to this seat's
things (``y`` accepts the newest that waits for it, the first the claims line shows; a claim whose time ran out on this computer's clock is said to
have lapsed). Each key builds an act record and sends it through the screen's
:class:`~tui.games.vtes.acting.ActSender`: the engine's check first, its sentence on a refusal.

:class:`ByHandKeys` is a part of :class:`~tui.games.vtes.table.VtesTableScreen` (a mixin: the
bindings name its ``action_*`` methods), kept apart so that the screen reads as what it draws.
"""

from __future__ import annotations

from engine.errors import VampireError
from engine.games.base import Act
from engine.games.vtes.view import CardView
from engine.games.vtes.vocab import Do, Target, Zone
from tui.games.vtes import commands, key_acts
from tui.games.vtes.action_text import PASS_KEY
from tui.games.vtes.screen_part import ScreenPart
from tui.games.vtes.widgets.claims import ClaimsLine, waiting_for
from tui.games.vtes.widgets.command_line import CommandLine


class ByHandKeys(ScreenPart):
    """The by-hand keys of a VTES seat (see the module)."""

    def action_accept_claim(self) -> None:
        """``y``: accept the change by hand to this seat's things shown first on the claims line (the newest
        that waits for its answer, never one it disputed: :func:`waiting_for`)."""
        claim = waiting_for(self._view, self.session.seat)
        if claim is None:
            self.say("No change by hand waits for your answer.", True)
            return
        act = {"do": Do.ACCEPT, "act": claim.act}
        self._acts.when_free(lambda: self._acts.try_act(act))

    def on_claims_line_lapse(self, message: ClaimsLine.Lapse) -> None:
        """A claim's time has run out on this computer's clock: say so for the table, if the
        table still lets it lapse (another seat may have said it first)."""
        if self.submitting or self._acts.queued:
            return  # an act of this seat is on its way: the line asks again in a second
        act = {"do": Do.LAPSE, "act": message.act}
        try:
            self.session.check_move(act)
        except VampireError:
            return  # taken, disputed or lapsed already: nothing to say
        self.submit(act)

    def _need_selected(self, what: str) -> CardView | None:
        card = self.selected_card()
        if card is None:
            self.say(f"✗ Select a card on the table first (Tab to the table, ↑ ↓), then {what}.", True)
        return card

    def action_lock(self) -> None:
        self._acts.when_free(self._lock)

    def _lock(self) -> None:
        card = self._need_selected("k")
        if card is not None:
            self._acts.try_act({"do": Do.UNLOCK if card.locked else Do.LOCK, "cards": [card.as_list()]})

    def action_burn(self) -> None:
        self._acts.when_free(self._burn)

    def _burn(self) -> None:
        card = self._need_selected("x")
        if card is not None and not self._with_cause(card, f"burn {card.name}"):
            self._acts.try_act({"do": Do.BURN, "cards": [card.as_list()]})

    def _with_cause(self, card: CardView, command: str) -> bool:
        """``card`` is another Methuselah's: a change to it names its cause (docs/vtes-by-hand.md),
        which a key cannot know, so the command line opens with ``command`` and ``for `` typed,
        for the player to type the cause and Enter (True); False: the card is this seat's own."""
        me = self.session.seat
        if me is None or card.controller < 0 or card.controller == me:
            return False
        self.query_one("#vt-cmd", CommandLine).prefill(f"{command} for ")
        who = self.session.table.names[card.controller]
        self.say(f"A change to {who}'s card names its cause: type it after “for” (a card or a rule), Enter.", False)
        return True

    def action_move(self) -> None:
        """A menu of where to move the selected card; the choice is a ``move`` act."""
        from tui.games.vtes.menus import MoveMenu

        card = self._need_selected("v")
        if card is None:
            return

        def chosen(target: Target | None) -> None:
            if target is not None and not self._with_cause(card, f"move {card.name} to {target}"):
                self._acts.try_act({"do": Do.MOVE, "cards": [card.as_list()], "to": target})

        self.app.push_screen(MoveMenu(card.name or "the card"), chosen)

    def action_combat(self) -> None:
        """Combat (rules, "Combat"): the selected minion (else your first ready one) against one
        chosen from a menu; the table runs a combat between two ready minions (the combat box),
        else a menu of what the strikes did, one result at a time."""
        from tui.games.vtes.menus import CombatMenu, opponents

        view = self._view
        me = self.session.seat
        if view is None or me is None:
            return
        if view.combat is not None:
            # The table runs the combat under way step by step (P5): the combat box says what is due.
            self.say(f"✗ A combat is under way: {PASS_KEY} passes each step, s strikes (:strike N … others).", True)
            return
        minion = key_acts.fighter(view, me, self.selected_card())
        if minion is None:
            self.say("✗ Select a minion on the table first (Tab to the table, ↑ ↓), then f.", True)
            return
        foes = opponents(view.cards, minion)
        if not foes:
            self.say(f"✗ No other minion is in play for {minion.name} to fight.", True)
            return

        def chosen(foe: CardView | None) -> None:
            act = {"do": Do.COMBAT, "minions": [minion.as_list(), foe.as_list()]} if foe is not None else {}
            if foe is not None and foe.controller != me:
                act["cause"] = commands.DEFAULT_CAUSE  # a claim on the foe's controller (docs/vtes-by-hand.md)
            if foe is None or not self._acts.try_act(act):
                return
            if foe.controller != me:
                who = self.session.table.names[foe.controller]
                self.say(f"{minion.name} and {foe.name} enter combat once {who} accepts (or in 30 s).", False)
            elif view.action is None and minion.zone == foe.zone == Zone.READY:
                # The table opens the combat and runs it step by step (P5): the combat box.
                self.say(f"{minion.name} and {foe.name} enter combat: {PASS_KEY} passes each step, s strikes.", False)
            else:
                self._strikes((minion, foe))  # only recorded: what the strikes did, by hand

        self.app.push_screen(CombatMenu(minion, foes, list(self.session.table.names)), chosen)

    def _strikes(self, pair: tuple[CardView, CardView]) -> None:
        """The strike menu for ``pair``, again after each result it sends, until combat ends."""
        from tui.games.vtes.menus import StrikeMenu

        def chosen(act: Act | None) -> None:
            if act is None:
                self.say(f"Combat between {pair[0].name} and {pair[1].name} ends.", False)
                return
            self._acts.when_free(lambda: self._acts.try_act(act))
            self._strikes(pair)

        self.app.push_screen(StrikeMenu(pair), chosen)

    def action_counter(self, delta: int) -> None:
        self._acts.when_free(lambda: self._counter(delta))

    def _counter(self, delta: int) -> None:
        card = self._need_selected("> or <")
        if card is not None:
            do = Do.BLOOD if card.crypt else Do.LIFE
            self._acts.try_act({"do": do, "card": card.as_list(), "delta": delta, "cause": commands.DEFAULT_CAUSE})


__all__ = ["ByHandKeys"]
