"""The VTES table screen's menus: where to move a card (the ``move`` act's targets, shared/rules/
vtes.md "Zones"), and combat (rules, "Combat"): whom the selected minion fights, then what the
strikes did to either minion (damage, torpor, burn), one choice after another.

The engine is card-agnostic: ``combat`` records that two minions entered combat (an announced
withdrawal fails with it), and its results are the ordinary acts (``blood``/``life`` changes
caused by "combat damage", ``move`` to torpor, ``burn``) that the menu sends for the player."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.games.base import Act
from engine.games.vtes.offers import offers
from engine.games.vtes.terms_choices import terms_choices
from engine.games.vtes.view import CardView, VtesView
from engine.games.vtes.vocab import ActionKind, Do, Poll, Target, Zone, action_phrase
from tui.games.vtes.present import named

#: The move menu's choices, in the order a player most often needs them, with their words.
MOVE_CHOICES: tuple[tuple[Target, str], ...] = (
    (Target.TORPOR, "to torpor"),
    (Target.READY, "to the ready region"),
    (Target.ASH, "to the ash heap"),
    (Target.HAND, "to its owner's hand"),
    (Target.UNCONTROLLED, "to the uncontrolled region"),
    (Target.REMOVED, "out of the game"),
    (Target.LIBRARY, "on top of the library"),
    (Target.LIBRARY_BOTTOM, "to the bottom of the library"),
    (Target.CRYPT, "on top of the crypt"),
    (Target.CRYPT_BOTTOM, "to the bottom of the crypt"),
)


class MoveMenu(ModalScreen[Target | None]):
    """Where to move ``card_name``: Enter picks, Esc cancels (dismissed with None)."""

    DEFAULT_CSS = """
    MoveMenu { align: center middle; background: $background 60%; }
    MoveMenu > Vertical { width: 48; height: auto; max-height: 16; border: thick $accent;
        background: $surface; padding: 0 1; }
    MoveMenu OptionList { height: auto; max-height: 11; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, card_name: str) -> None:
        super().__init__()
        self.card_name = card_name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Move {self.card_name}", classes="dialog-title")
            yield OptionList(*(Option(words, id=str(target)) for target, words in MOVE_CHOICES), id="vt-move")

    def on_mount(self) -> None:
        self.query_one("#vt-move").focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(Target(str(event.option.id)))

    def action_cancel(self) -> None:
        self.dismiss(None)


def opponents(cards: tuple[CardView, ...], minion: CardView) -> list[CardView]:
    """The minions ``minion`` may enter combat with: every other named minion in a ready region
    or in torpor (another Methuselah's first, in the order of the table)."""
    found = [c for c in cards if c.pos != minion.pos and c.name and c.zone in (Zone.READY, Zone.TORPOR)]
    minions = [c for c in found if c.crypt or "Ally" in c.types]
    return sorted(minions, key=lambda c: c.controller == minion.controller)


def _who(card: CardView, names: list[str]) -> str:
    owner = names[card.controller] if 0 <= card.controller < len(names) else "?"
    where = " (torpor)" if card.zone == Zone.TORPOR else ""
    return f"{card.name} — {owner}{where}"


class CombatMenu(ModalScreen[CardView | None]):
    """Whom ``minion`` enters combat with (Enter picks; Esc cancels: dismissed with None)."""

    DEFAULT_CSS = """
    CombatMenu { align: center middle; background: $background 60%; }
    CombatMenu > Vertical { width: 64; height: auto; max-height: 18; border: thick $accent;
        background: $surface; padding: 0 1; }
    CombatMenu OptionList { height: auto; max-height: 13; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, minion: CardView, choices: list[CardView], names: list[str]) -> None:
        super().__init__()
        self.minion = minion
        self.choices = choices
        self.names = names

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"{self.minion.name} enters combat with…", classes="dialog-title")
            yield OptionList(
                *(Option(_who(c, self.names), id=f"c{i}") for i, c in enumerate(self.choices)), id="vt-foe"
            )

    def on_mount(self) -> None:
        self.query_one("#vt-foe").focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choices[int(str(event.option.id)[1:])])

    def action_cancel(self) -> None:
        self.dismiss(None)


#: A strike's results the combat menu offers for each minion: (words, what it does).
STRIKES: tuple[tuple[str, str], ...] = (
    ("1 damage", "-1"),
    ("2 damage", "-2"),
    ("3 damage", "-3"),
    ("to torpor", "torpor"),
    ("burned", "burn"),
)

#: The cause combat damage records in the log.
COMBAT_DAMAGE = "combat damage"


def strike_act(card: CardView, effect: str) -> Act:
    """The act for one result of a strike on ``card``: damage is blood lost by a vampire or life
    lost by an ally (cause "combat damage"), torpor a move, burn a burn."""
    if effect == "torpor":
        return {"do": Do.MOVE, "cards": [card.as_list()], "to": Target.TORPOR}
    if effect == "burn":
        return {"do": Do.BURN, "cards": [card.as_list()]}
    return {
        "do": Do.BLOOD if card.crypt else Do.LIFE,
        "card": card.as_list(),
        "delta": int(effect),
        "cause": COMBAT_DAMAGE,
    }


class StrikeMenu(ModalScreen[Act | None]):
    """What a round of strikes did to either minion of a combat: each choice is dismissed with
    its act (:func:`strike_act`); Esc, or "combat ends", with None."""

    DEFAULT_CSS = """
    StrikeMenu { align: center middle; background: $background 60%; }
    StrikeMenu > Vertical { width: 64; height: auto; max-height: 20; border: thick $accent;
        background: $surface; padding: 0 1; }
    StrikeMenu OptionList { height: auto; max-height: 15; }
    """

    BINDINGS = [Binding("escape", "cancel", "Combat ends")]

    def __init__(self, minions: tuple[CardView, CardView]) -> None:
        super().__init__()
        self.minions = minions

    def compose(self) -> ComposeResult:
        options = [Option("combat ends", id="end")]
        for i, card in enumerate(self.minions):
            options += [Option(f"{card.name}: {words}", id=f"s{i}-{k}") for k, (words, _) in enumerate(STRIKES)]
        a, b = self.minions
        with Vertical():
            yield Static(f"Combat: {a.name} and {b.name}. What did the strikes do?", classes="dialog-title")
            yield OptionList(*options, id="vt-strike")

    def on_mount(self) -> None:
        self.query_one("#vt-strike").focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        oid = str(event.option.id)
        if oid == "end":
            self.dismiss(None)
            return
        who, k = oid[1:].split("-")
        self.dismiss(strike_act(self.minions[int(who)], STRIKES[int(k)][1]))

    def action_cancel(self) -> None:
        self.dismiss(None)


def _short(name: str) -> str:
    return name.split(" (")[0]


def announce_choices(
    view: VtesView, names: list[str], minion: CardView | None, card: CardView | None
) -> list[tuple[str, Act]]:
    """The actions the announce menu offers (shared/rules/vtes-actions.md 3, P2), as (words, act):
    the seat's offered actions (:func:`engine.games.vtes.offers.offers`: a bleed, a hunt, each
    action card of the hand, a rescue or diablerie, leaving torpor, an action applied by hand),
    ``minion``'s only when it is given and may act, ``card``'s first."""
    me = view.seat
    if me is None:
        return []
    acts = [o.act for o in offers(view) if o.do == Do.ACTION]
    if minion is not None and any(a["minion"] == minion.as_list() for a in acts):
        acts = [a for a in acts if a["minion"] == minion.as_list()]
    if card is not None:
        acts.sort(key=lambda a: a.get("card") != card.as_list())
    found: list[tuple[str, Act]] = []
    for act in acts:
        kind = ActionKind(act["kind"])

        def name(pos: object) -> str | None:
            c = view.card(tuple(pos)) if isinstance(pos, list) else None
            return _short(c.name) if c is not None and c.name else None

        target = act.get("target", view.players[me].prey if kind == ActionKind.BLEED else None)
        words = action_phrase(
            kind,
            "Your",
            name(act["minion"]) or "minion",
            [names[target] if 0 <= target < len(names) else "your prey"] if isinstance(target, int) else [],
            target_card=name(act.get("target_card")),
            amount=act.get("amount"),
            card=name(act.get("card")),
        )
        extra = [f"stealth {act['stealth']}"] if act.get("stealth") else []
        if "card" not in act and view.basic_cost(kind):
            extra.append(f"{view.basic_cost(kind)} blood")
        if act.get("gain_pool"):
            extra.append(f"you gain {act['gain_pool']} pool if it succeeds")
        if act.get("unlock"):
            extra.append("it unlocks if it succeeds")
        if act.get("add_blood"):
            extra.append(f"{act['add_blood']} blood to {name(act.get('add_to')) or 'a vampire'} as it succeeds")
        if act.get("life"):
            extra.append(f"it enters play with {act['life']} life")
        if "card" not in act and kind == ActionKind.OTHER:
            extra.append("apply its card by hand")
        found.append((words + (f" ({', '.join(extra)})" if extra else ""), act))
    return found


def contest_choices(view: VtesView) -> list[tuple[str, Act]]:
    """The seat's answers to its contests in its unlock phase, as (words, act): for each contested
    card or title the offers hold (:func:`engine.games.vtes.offers.contest_acts`), paying to keep
    contesting it, then yielding it (rulebook, "Contested Cards", "Contested Titles")."""
    found: list[tuple[str, Act]] = []
    for o in offers(view):
        card = view.card(o.card) if o.card is not None else None
        if card is None or o.do not in (Do.CONTEST, Do.YIELD):
            continue
        name = _short(card.name)
        if card.zone == Zone.CONTESTED:
            words = f"Pay 1 pool to keep contesting {name}" if o.do == Do.CONTEST else f"Yield {name}: it is burned"
        elif o.do == Do.CONTEST:
            words = f"{name} pays 1 blood to keep contesting its title"
        else:
            words = f"{name} yields its title (for the rest of the game)"
        found.append((words, o.act))
    return found


def terms_choices_words(view: VtesView, names: list[str]) -> list[tuple[str, Act]]:
    """The terms the caller may choose for a referendum whose terms the table applies, as (words,
    act), numbered as ``:terms N`` takes them (:func:`engine.games.vtes.terms_choices.terms_choices`
    through the offers; shared/rules/vtes-actions.md 7.1); [] when the terms are text alone."""
    r = view.referendum
    if r is None or r.step != Poll.TERMS or r.caller != view.seat:
        return []
    acts = terms_choices(view, r)
    return [(f"{i}. {named(str(a['text']), names)}", a) for i, a in enumerate(acts, 1)]


class AnnounceMenu(ModalScreen[Act | None]):
    """Which action to announce (:func:`announce_choices`), or any list of acts to choose from
    (``title``): Enter makes it, Esc cancels (dismissed with None)."""

    DEFAULT_CSS = """
    AnnounceMenu { align: center middle; background: $background 60%; }
    AnnounceMenu > Vertical { width: 70; height: auto; max-height: 20; border: thick $accent;
        background: $surface; padding: 0 1; }
    AnnounceMenu OptionList { height: auto; max-height: 15; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self, choices: list[tuple[str, Act]], title: str = "Announce an action (the engine checks it; Esc cancels)"
    ) -> None:
        super().__init__()
        self.choices = choices
        self.title_words = title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_words, classes="dialog-title")
            yield OptionList(
                *(Option(words, id=f"a{i}") for i, (words, _) in enumerate(self.choices)), id="vt-announce"
            )

    def on_mount(self) -> None:
        self.query_one("#vt-announce").focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choices[int(str(event.option.id)[1:])][1])

    def action_cancel(self) -> None:
        self.dismiss(None)


class CardBox(ModalScreen[None]):
    """A card's whole krcg text and its rulings in a box over the table (the card panel beside the
    hand shows their first lines when the terminal is small), or the whole game log (``at_end``:
    scrolled to its last line): ↑ ↓ scroll, Esc or ``e`` closes."""

    DEFAULT_CSS = """
    CardBox { align: center middle; background: $background 60%; }
    CardBox > VerticalScroll { width: 76; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1; }
    CardBox Static { height: auto; }
    CardBox #vt-box-rulings { margin-top: 1; }
    """

    BINDINGS = [Binding("escape", "close", "Close"), Binding("e", "close", "Close", show=False)]

    def __init__(self, text: Text, rulings: Text, at_end: bool = False) -> None:
        super().__init__()
        self.text = text
        self.rulings = rulings
        self.at_end = at_end  # a log: its last lines are the news

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="vt-box"):
            yield Static(self.text, id="vt-box-text")
            if self.rulings.plain:
                yield Static(self.rulings, id="vt-box-rulings")
            yield Static(Text("Esc closes.", style="dim"))

    def on_mount(self) -> None:
        box = self.query_one("#vt-box")
        box.focus()
        if self.at_end:
            # Anchored: at its end once laid out, however long the text takes to lay out (a
            # long log's first refresh may not know its height yet), until the person scrolls up.
            box.anchor()
            self.call_after_refresh(box.scroll_end, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = [
    "COMBAT_DAMAGE",
    "MOVE_CHOICES",
    "STRIKES",
    "AnnounceMenu",
    "CardBox",
    "CombatMenu",
    "MoveMenu",
    "StrikeMenu",
    "announce_choices",
    "opponents",
    "strike_act",
]
