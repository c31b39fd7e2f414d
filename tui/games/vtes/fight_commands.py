"""The command line's words for combat and referendums (shared/rules/vtes-actions.md 5–7, P5–P7):
each line becomes one act of :mod:`engine.games.vtes`, read against the seat's view.

    strike [N] [agg] [ranged] [first] [dodge] [ends] [steal N] [+N] [other] [at RETAINER] [with CARD [basic|sup]]
    maneuver [with CARD]          press [with CARD]          prevent N [agg N] [with CARD]
    terms N | TEXT…               vote [for|against] calling | edge | title VAMPIRE [N] | ballot PRISCUS | card CARD | other CARD N
    done                          diablerise [leave equipment]
    … lift RULE by CARD           (after any command: a card sets that rule aside for it, P9)

The combatant is the seat's own minion in the combat (the one whose strike is due, for
``strike``). A bare ``strike`` is the hand strike; ``strike with CARD`` alone takes the card's
plain strike when its text has one ("[POT] Strike: 3R damage."), at basic where its levels
differ (``strike with CARD sup``: at superior).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.games.base import Act
from engine.games.vtes.card_play import LevelError
from engine.games.vtes.offers import strike_ways, strike_with, vote_sources, with_terms
from engine.games.vtes.terms_choices import terms_choices
from engine.games.vtes.view import CardView
from engine.games.vtes.vocab import Do, Lift, Poll, VoteSource
from tui.games.vtes import commands
from tui.games.vtes.command_words import FIGHT_WORDS, CommandError, Context, basic_note, take_card, take_level

WORDS: tuple[str, ...] = FIGHT_WORDS
"""The commands this module reads."""

HELP: tuple[tuple[str, str], ...] = (
    ("strike", "[N] [agg] [ranged] [first] [dodge] [ends] [steal N] [+N] [with CARD [basic|sup]]"),
    ("maneuver", "[with CARD]"),
    ("press", "[with CARD]"),
    ("prevent", "N [agg N] [with CARD]"),
    ("terms", "N|TEXT"),
    ("vote", "[for|against] calling|edge|title VAMPIRE [N]|ballot PRISCUS|card CARD|other CARD N"),
    ("done", ""),
    ("diablerise", "[leave equipment]"),
)
"""Each command and its arguments, for the help."""

_FLAGS = {"agg": "aggravated", "aggravated": "aggravated", "ranged": "ranged", "first": "first"}
_FLAGS |= {"dodge": "dodge", "ends": "ends", "other": "other"}


def _int(token: str, what: str) -> int:
    try:
        return int(token)
    except ValueError:
        raise CommandError(f"{what} is a number, not {token!r}.") from None


def _with_card(tokens: list[str], ctx: Context) -> tuple[list[str], Act]:
    """A trailing ``with CARD`` (a card of the hand, played with the act)."""
    lowered = [t.lower() for t in tokens]
    if "with" not in lowered:
        return tokens, {}
    i = lowered.index("with")
    card, rest = take_card(tokens[i + 1 :], list(ctx.view.hand), "card of your hand")
    if rest:
        raise CommandError(f"Nothing goes after the card, not {' '.join(rest)!r}.")
    return tokens[:i], {"card": card.as_list()}


def _my_combatant(ctx: Context, what: str) -> list[int]:
    combat = ctx.view.combat
    if combat is None:
        raise CommandError(f"There is no combat to {what} in.")
    if what == "strike":
        waiting = [m for m in combat.due() if (c := ctx.view.card(m)) is not None and c.controller == ctx.me]
        if waiting:
            return list(waiting[0])
    for m in (combat.acting, combat.opposing):
        card = ctx.view.card(m)
        if card is not None and card.controller == ctx.me:
            return list(m)
    raise CommandError(f"None of your minions is in this combat: you cannot {what}.")


def parse_line(line: str, ctx: Context) -> Act:
    """The act of a command line: a combat or referendum command of :data:`WORDS` read here, any
    other by :func:`tui.games.vtes.commands.parse`; an act that plays a hand card carries what
    its text says of its limit and replacement (:func:`engine.games.vtes.offers.with_terms`).
    Raises CommandError with a sentence."""
    tokens = line.strip().removeprefix(":").split()
    tokens, lift = _lift(tokens, ctx)
    if tokens and tokens[0].lower() in WORDS:
        act = parse(tokens[0].lower(), tokens[1:], ctx)
    else:
        act = commands.parse(" ".join(tokens), ctx)
    return with_terms(ctx.view, {**act, **lift})


def _lift(tokens: list[str], ctx: Context) -> tuple[list[str], Act]:
    """A trailing ``lift RULE by CARD`` (vtes-actions.md P9): a face-up card, or one of your hand
    the act plays, sets one rule aside for this act."""
    lowered = [t.lower() for t in tokens]
    if "lift" not in lowered:
        return tokens, {}
    i = lowered.index("lift")
    rest = tokens[i + 1 :]
    rules = [r.value for r in Lift]
    if not rest or rest[0].lower() not in rules:
        raise CommandError(f"Say which rule the card lifts: lift {'|'.join(rules)} by CARD.")
    rule = Lift(rest[0].lower())
    if len(rest) < 3 or rest[1].lower() != "by":
        raise CommandError(f"Name the card that lifts it: lift {rule} by CARD.")
    cards = [c for c in ctx.view.cards if c.name and not c.zone.hidden] + list(ctx.view.hand)
    card, after = take_card(rest[2:], cards, "card that lifts the rule")
    if after:
        raise CommandError(f"Nothing goes after the card, not {' '.join(after)!r}.")
    return tokens[:i], {"lift": rule, "by": card.as_list()}


def _terms(rest: list[str], ctx: Context) -> Act:
    """``terms N``: the Nth terms the table offers for a card whose terms it applies (as ``V``'s
    menu numbers them); ``terms TEXT``: terms in the caller's words, which the players apply."""
    r = ctx.view.referendum
    offered = terms_choices(ctx.view, r) if r is not None and r.step == Poll.TERMS else []
    if len(rest) == 1 and rest[0].isdigit() and offered:
        n = int(rest[0])
        if not 1 <= n <= len(offered):
            raise CommandError(f"Choose terms 1 to {len(offered)} (V lists them).")
        return offered[n - 1]
    if not rest:
        more = f"; or terms N, the Nth of the {len(offered)} the table applies (V lists them)" if offered else ""
        raise CommandError(f"Say the terms: terms TEXT (what the referendum decides){more}.")
    return {"do": Do.TERMS, "text": " ".join(rest)}


def parse(word: str, rest: list[str], ctx: Context) -> Act:
    """The act for command ``word`` (one of :data:`WORDS`) with arguments ``rest``. Raises
    CommandError with a sentence."""
    match word:
        case "strike":
            return _strike(rest, ctx)
        case "maneuver" | "press":
            rest, card = _with_card(rest, ctx)
            if rest:
                raise CommandError(f"{word} takes only [with CARD], not {' '.join(rest)!r}.")
            return {"do": Do.MANEUVER if word == "maneuver" else Do.PRESS, "minion": _my_combatant(ctx, word), **card}
        case "prevent":
            return _prevent(rest, ctx)
        case "terms":
            return _terms(rest, ctx)
        case "vote":
            return _vote(rest, ctx)
        case "done":
            if rest:
                raise CommandError("done takes nothing after it.")
            return {"do": Do.DONE}
        case "diablerise":
            if [t.lower() for t in rest] == ["leave", "equipment"]:
                return {"do": Do.DIABLERISE, "take": False}
            if rest:
                raise CommandError(
                    "diablerise takes nothing after it, or 'leave equipment' (it burns with the victim)."
                )
            return {"do": Do.DIABLERISE}
    raise CommandError(f"{word!r} is not a command.")


def _strike(rest: list[str], ctx: Context) -> Act:
    rest, level = take_level(rest)
    rest, card = _with_card(rest, ctx)
    if level is not None and not card:
        raise CommandError("A level names how a card strikes: strike with CARD basic, or strike with CARD sup.")
    act: Act = {"do": Do.STRIKE, "minion": _my_combatant(ctx, "strike"), **card}
    tokens = list(rest)
    while tokens:
        t = tokens.pop(0).lower()
        if t in _FLAGS:
            act[_FLAGS[t]] = True
        elif t.startswith("+") and t[1:].isdigit():
            act["additional"] = int(t[1:])
        elif t == "steal":
            if not tokens:
                raise CommandError("Say how much blood: steal N.")
            act["steal"] = _int(tokens.pop(0), "The blood stolen")
        elif t == "at":
            combat = ctx.view.combat
            assert combat is not None
            other = combat.opposing if act["minion"] == list(combat.acting) else combat.acting
            retainers = [c for c in ctx.view.cards if c.on == other]
            target, tokens = take_card(tokens, retainers, "retainer on the opposing minion")
            act["retainer"] = target.as_list()
        elif t.lstrip("-").isdigit():
            act["damage"] = _int(t, "The damage")
        else:
            raise CommandError(
                f"{t!r} is not a strike word: N, agg, ranged, first, dodge, ends, steal N, +N, other, at RETAINER."
            )
    if card and not rest:
        return _card_reading(ctx, act, level)
    if level is not None:
        raise CommandError("A level goes with strike with CARD alone: the card's strike at that level.")
    return act


def _card_reading(ctx: Context, act: Act, level: str | None) -> Act:
    """``strike with CARD [basic|sup]`` and nothing else: the card's plain strike for this
    combatant at the range at that level (none named: basic where the levels differ, and the
    confirmation says so), or the strike it aims (Target Vitals with the hand strike), as offered
    (:func:`engine.games.vtes.offers.strike_with`); else ``act`` as typed (1 damage). Raises
    CommandError for a level the card's strike is not offered at."""
    pos = (act["card"][0], act["card"][1])
    try:
        offered = strike_with(ctx.view, pos, level)
    except LevelError as e:
        raise CommandError(f"{_card_name(ctx, pos)}: {e}.") from e
    if offered is None or offered.get("minion") != act["minion"]:
        return act
    ways = strike_ways(ctx.view, pos)
    if level is None and len(ways) > 1 and ways[-1][0] == "superior":
        ctx.notes.append(basic_note(_card_name(ctx, pos), _fields_words(ways[-1][1])))
    return dict(offered)


def _fields_words(act: Act) -> str:
    """A strike act's fields in words ("2 damage, ranged"; "ends, unlock")."""
    said = [k if v is True else f"{v} {k}" for k, v in act.items() if k not in ("do", "minion", "card")]
    return ", ".join(said)


def _card_name(ctx: Context, pos: tuple[int, int]) -> str:
    card = ctx.view.card(pos)
    return card.name if card is not None and card.name else "the card"


def _prevent(rest: list[str], ctx: Context) -> Act:
    rest, card = _with_card(rest, ctx)
    lowered = [t.lower() for t in rest]
    normal, agg = 0, 0
    if lowered and lowered[0].isdigit():
        normal = int(lowered.pop(0))
    if lowered[:1] in (["agg"], ["aggravated"]):
        lowered.pop(0)
        if not lowered or not lowered[0].isdigit():
            raise CommandError("Say how much aggravated damage: prevent N agg N.")
        agg = int(lowered.pop(0))
    if lowered or not (normal or agg):
        raise CommandError("Say how much: prevent N, or prevent N agg N.")
    return {"do": Do.PREVENT, "minion": _my_combatant(ctx, "prevent damage"), "normal": normal, "agg": agg, **card}


_NO_VOTES = {
    VoteSource.TITLE: "None of your ready vampires has a title whose votes you have not cast (7.2).",
    VoteSource.BALLOT: "None of your ready vampires is a priscus whose ballot you have not cast (7.2).",
    VoteSource.CARD: "You have no political action card vote to cast: none in your hand, or you have the "
    "1 vote political action cards give already (7.2).",
}


def _votes_from(ctx: Context, source: VoteSource) -> list[CardView]:
    """The cards a ``vote … title|ballot|card`` may name: those whose votes the engine would take
    now (:func:`engine.games.vtes.offers.vote_sources`: a ready titled vampire or priscus of yours
    not cast yet, a political action card of your hand), so a refusal never suggests one it
    refuses; before polling, every vampire of yours or card of your hand (the engine says why).
    Raises CommandError with a sentence when there is none."""
    view, me = ctx.view, ctx.me
    if source == VoteSource.CARD:
        cards = [c for c in view.hand if "Political Action" in c.types]
    else:
        cards = [c for c in view.cards if c.controller == me and c.crypt and c.name and c.zone.in_play]
    r = view.referendum
    if r is None or r.step != Poll.VOTING:
        return cards if source != VoteSource.CARD else list(view.hand)
    offered = vote_sources(view, me)
    if source == VoteSource.CARD:
        cards = cards if any(v["source"] == VoteSource.CARD for v in offered) else []
    else:
        refs = {tuple(v["card"]) for v in offered if v["source"] == source}
        cards = [c for c in cards if c.pos in refs]
    if not cards:
        raise CommandError(_NO_VOTES[source])
    return cards


def _why_no_source(ctx: Context) -> str:
    """What ``vote`` with no source (the ``V`` key's command) says: why no vote can be cast now,
    or where the votes may come from."""
    r = ctx.view.referendum
    if r is None:
        return "There is no referendum under way."
    if r.step != Poll.VOTING:
        return "Votes are cast during polling, which has not begun."
    if ctx.me in r.done:
        return "You are done voting in this referendum."
    if not vote_sources(ctx.view, ctx.me):
        return "You hold no vote to cast: . says you are done."
    return "Say where the votes come from: vote for calling | edge | title VAMPIRE | card CARD."


def _vote(rest: list[str], ctx: Context) -> Act:
    side = True
    tokens = list(rest)
    if tokens and tokens[0].lower() in ("for", "against", "yes", "no"):
        side = tokens.pop(0).lower() in ("for", "yes")
    if not tokens:
        raise CommandError(_why_no_source(ctx))
    source = tokens.pop(0).lower()
    act: Act = {"do": Do.VOTE, "for": side}
    match source:
        case "calling" | "edge":
            act["source"] = VoteSource(source)
        case "title" | "ballot":
            what = "titled vampire of yours" if source == "title" else "priscus of yours"
            vampire, tokens = take_card(tokens, _votes_from(ctx, VoteSource(source)), what)
            act.update(source=VoteSource(source), card=vampire.as_list())
            if tokens and source == "title":
                act["count"] = _int(tokens.pop(0), "The votes")
        case "card":
            card, tokens = take_card(tokens, _votes_from(ctx, VoteSource.CARD), "political action card of your hand")
            act.update(source=VoteSource.CARD, card=card.as_list())
        case "other":
            cards: Sequence[CardView] = [c for c in ctx.view.cards if c.name]
            card, tokens = take_card(tokens, cards, "card that gives votes")
            if not tokens:
                raise CommandError("Say how many votes the card gives: vote for other CARD N.")
            act.update(source=VoteSource.OTHER, card=card.as_list(), count=_int(tokens.pop(0), "The votes"))
        case _:
            raise CommandError(f"{source!r} is not a source of votes: calling, edge, title, ballot, card or other.")
    if tokens and tokens[0].lower() in ("for", "by"):
        raise CommandError(
            f"A vote names no cause, not {' '.join(tokens)!r}: its votes come from a source of yours "
            "(vote for other CARD N with a card you control); another's card votes only by its Methuselah."
        )
    if tokens:
        raise CommandError(f"Nothing goes after that, not {' '.join(tokens)!r}.")
    return act
