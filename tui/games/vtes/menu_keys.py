"""The VTES table's keys that open a menu of acts: ``a`` announces an action of a minion of
yours (bleed, hunt, an action card of the hand, rescue, leave torpor…: the offers of
:mod:`tui.games.vtes.menus`), ``Y`` pays for or yields each contest of yours in your unlock phase,
``V`` as the caller records a referendum's terms offers those the table applies, and ``a`` when
nothing can be announced says why in the engine's words. The act chosen goes
through the screen's :class:`~tui.games.vtes.acting.ActSender` (the engine's check first).

:class:`MenuKeys` is a part of :class:`~tui.games.vtes.table.VtesTableScreen` (a mixin: the
bindings name its ``action_*`` methods), kept apart so that the screen reads as what it draws.
"""

from __future__ import annotations

from engine.games.base import Act
from engine.games.vtes.view import CardView
from engine.games.vtes.vocab import ActionKind, Do, Phase, Step
from tui.games.vtes import key_acts
from tui.games.vtes.screen_part import ScreenPart

NO_MINION_ACTS = "None of your minions can act now (each acts once it is ready and unlocked)."
"""What ``a`` says in this seat's minion phase when no minion of its may act (P2)."""


class MenuKeys(ScreenPart):
    """The menu keys of a VTES seat (see the module)."""

    def _why_no_action(self) -> str:
        """``a`` when no action is offered: the engine's sentence for announcing one now (whose
        turn, which phase, a window still open: P2), else that no minion of yours can act."""
        view, me = self._view, self.session.seat
        if view is None or me is None or view.step != Step.PLAY or not view.cards:
            return "The table has not started yet."
        if view.acting == me and view.phase == Phase.MINION and not view.windows:
            # The time is right: no minion is. A ready unlocked one gets the engine's sentence for
            # a bleed by it (an ally recruited this turn acts from the next: its sentence says so).
            ready = view.ready_unlocked(me)
            chosen = next((c for c in ready if c == self.selected_card()), next(iter(ready), None))
            if chosen is None or view.players[me].prey < 0:
                return NO_MINION_ACTS
            bleed: Act = {"do": Do.ACTION, "kind": ActionKind.BLEED, "minion": chosen.as_list()}
            return self._acts.engine_refusal({**bleed, "target": view.players[me].prey}) or NO_MINION_ACTS
        # The engine checks the time (the turn, the phase, the open windows) before the minion:
        # a hunt by any card gets the time's sentence, as ":hunt" would.
        hunt: Act = {"do": Do.ACTION, "kind": ActionKind.HUNT, "minion": view.cards[0].as_list()}
        return self._acts.engine_refusal(hunt) or NO_MINION_ACTS

    def action_announce(self) -> None:
        """``a``: announce an action (a menu: bleed, hunt, an action card of the hand, leave
        torpor, rescue…) with the selected minion of yours, else your first ready unlocked one."""
        self._acts.when_free(lambda: self._announce(None))

    def _announce(self, card: CardView | None) -> None:
        from tui.games.vtes.menus import announce_choices

        view, me = self._view, self.session.seat
        if view is None or me is None:
            return
        minion = key_acts.announcer(view, me, self.selected_card())
        names = list(self.session.table.names)
        choices = announce_choices(view, names, minion, card)
        if not choices:
            self.say(f"✗ {self._why_no_action()}", True)
            return
        self._menu(choices, None)

    def action_contest(self) -> None:
        """``Y``: in your unlock phase, pay for or yield each contest of yours (a menu; rulebook,
        "Contested Cards", "Contested Titles")."""
        self._acts.when_free(self._contest)

    def _contest(self) -> None:
        from tui.games.vtes.menus import contest_choices

        view = self._view
        choices = contest_choices(view) if view is not None else []
        if not choices:
            self.say(f"✗ {self._acts.why('contest', view, self.session.seat)}", True)
            return
        self._menu(choices, "Your contests: pay to keep contesting, or yield (Esc cancels)")

    def _terms(self) -> None:
        """The terms the table applies for the referendum's card (``V`` as the caller records
        them; rulebook, "Political Actions"), else how to give them in words."""
        from tui.games.vtes.menus import terms_choices_words

        view = self._view
        choices = terms_choices_words(view, list(self.session.table.names)) if view is not None else []
        if not choices:
            self.say("✗ No terms to choose: give them in words (:terms TEXT); the players apply them.", True)
            return
        self._menu(choices, "The referendum's terms, applied if it passes (Esc cancels)")

    def _menu(self, choices: list[tuple[str, Act]], title: str | None) -> None:
        """A menu of ``choices`` (words, act) (``title``: its heading, None the announce
        menu's); the act chosen is tried (the engine's check first), Esc chooses nothing."""
        from tui.games.vtes.menus import AnnounceMenu

        def chosen(act: Act | None) -> None:
            if act is not None:
                self._acts.when_free(lambda: self._acts.try_act(act))

        self.app.push_screen(AnnounceMenu(choices, title) if title else AnnounceMenu(choices), chosen)


__all__ = ["NO_MINION_ACTS", "MenuKeys"]
