"""What the table knows of a card, in one typed record (:class:`CardRecord`): its types, printed
numbers, costs, requirements, and the effects of its text at each Discipline level, with what is
left to the players.

Built from the card's :class:`~engine.games.vtes.cards.CardInfo` (krcg's data, kept in the
per-version cache file of :mod:`engine.games.vtes.cards`) and from its text, read sentence by
sentence (:mod:`engine.games.vtes.card_effects`) and corrected by the kept corrections file
(:mod:`engine.games.vtes.card_corrections`). The rules, offers, bots, the automatic pass and the
screen read a card through this record (:func:`record`): no other module reads krcg's card objects
or matches a card's text for what it does.

Requirements follow the rulebook ("Playing Cards", "Disciplines", "Unique Cards", "Contested
Cards"): every crypt card is unique; a library card is unique when its text says "Unique".
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from enum import StrEnum

from engine.games.vtes import card_levels
from engine.games.vtes.card_effects import ALLY_STAYS_LOCKED, HAND_STRIKE, Effect, EffectKind
from engine.games.vtes.card_sentences import EXCLUSIVE, Reading, SentenceKind, read_sentence, replacement, sentences
from engine.games.vtes.cards import CardInfo, card_base, card_id
from engine.games.vtes.vocab import DeckPart, LimitScope, Replacement


class Coverage(StrEnum):
    """How much of a card's text the table applies: ``fully`` (every clause that changes the
    table), ``partly`` (some), ``by_hand`` (none: the players apply it)."""

    FULLY = "fully"
    PARTLY = "partly"
    BY_HAND = "by_hand"


@dataclass(frozen=True)
class Printed:
    """A card's printed numbers: ``capacity`` (a vampire), ``life`` (an ally, a retainer),
    ``strength`` (an ally's; for a vampire its printed bonus "+1 strength", added to 1),
    ``bleed`` (an ally's; a vampire's bonus), ``stealth``/``intercept`` (a minion's printed
    bonus), ``title`` (a vampire's), ``votes`` (the title's votes, 7.2), ``sect`` (a vampire's:
    ``"Camarilla"``, ``"Sabbat"``, ``"Anarch"``, ``"Independent"``, ``"Laibon"``, "" unknown).
    ``None`` for a number the card does not print."""

    capacity: int = 0
    life: int | None = None
    strength: int | None = None
    bleed: int | None = None
    stealth: int = 0
    intercept: int = 0
    title: str = ""
    votes: int = 0
    sect: str = ""


@dataclass(frozen=True)
class Costs:
    """A card's printed cost: ``blood`` (paid by the vampire playing it), ``pool``,
    ``conviction``; ``x``: ``"blood"`` or ``"pool"`` for an X cost (the player states it)."""

    blood: int = 0
    pool: int = 0
    conviction: int = 0
    x: str = ""

    def words(self) -> str:
        """The cost in words (``"1 blood"``, ``"X pool"``), "" for none."""
        parts = [
            f"{n} {k}" for k, n in (("blood", self.blood), ("pool", self.pool), ("conviction", self.conviction)) if n
        ]
        if self.x:
            parts.append(f"X {self.x}")
        return ", ".join(parts)


class Timing(StrEnum):
    """When a card is played (rulebook "Card Types"; vtes-actions.md §2)."""

    MASTER = "master phase"
    OUT_OF_TURN = "out of turn (master)"
    ACTION = "as a minion's action"
    MODIFIER = "during its minion's action"
    REACTION = "during another's action"
    COMBAT = "in combat"
    VOTE = "as a political action"
    RECRUIT = "as a minion's action (recruit, employ, equip)"
    EVENT = "master phase (event)"
    CRYPT = "influenced out"
    OTHER = "as its text says"


_TIMINGS: tuple[tuple[str, Timing], ...] = (
    ("Master", Timing.MASTER),
    ("Action Modifier", Timing.MODIFIER),
    ("Reaction", Timing.REACTION),
    ("Combat", Timing.COMBAT),
    ("Political Action", Timing.VOTE),
    ("Action", Timing.ACTION),
    ("Ally", Timing.RECRUIT),
    ("Retainer", Timing.RECRUIT),
    ("Equipment", Timing.RECRUIT),
    ("Event", Timing.EVENT),
    ("Vampire", Timing.CRYPT),
    ("Imbued", Timing.CRYPT),
)


@dataclass(frozen=True)
class Limit:
    """A card's printed limit on how often it is played: once in ``scope``, by each minion
    (``minion``: "A minion can play only one On the Qui Vive between their unlock phases") or at
    all ("Only one Ashur Tablets can be played each turn"); ``words``: the sentence as printed
    (lower case), for a refusal; ``superior``: printed "at superior", it binds only a play at
    that level (:mod:`engine.games.vtes.card_levels`)."""

    scope: LimitScope
    minion: bool
    words: str
    superior: bool = False


@dataclass(frozen=True)
class CardTerms:
    """What an act that plays the card at ``card`` states of its printed limits and replacement
    (the act's ``limit``, ``limit_all``, ``replace``: docs/protocol.md 4.4.1): ``limits``, None
    where the act states none (the record's then); ``replacement``, None likewise."""

    card: tuple[int, int]
    limits: tuple[Limit, ...] | None
    replacement: Replacement | None
    kinds: frozenset[EffectKind] = frozenset()

    @classmethod
    def of(cls, act: object) -> CardTerms | None:
        """The terms an act record states (None: it plays no card), with the kinds of effect it
        carries of the card (``kinds``: :func:`engine.games.vtes.card_levels.shown`)."""
        card = getattr(act, "card", None)
        scope, every, when = (getattr(act, f, None) for f in ("limit", "limit_all", "replace"))
        if card is None:
            return None
        limits = (Limit(scope, not every, ""),) if scope is not None else None
        return cls(card, limits, when, card_levels.shown(*card_levels.act_fields(act)))

    def limits_of(self, rec: CardRecord) -> tuple[Limit, ...]:
        """The limits to keep for ``rec`` played by this act: the act's (in the record's words when
        the record prints the same), else the record's at the level the act plays it
        (:meth:`CardRecord.limits_at`)."""
        if self.limits is None:
            return rec.limits_at(card_levels.played_superior(rec, self.kinds))
        said = {(x.scope, x.minion): x.words for x in rec.requires.limits}
        return tuple(replace(x, words=said.get((x.scope, x.minion), _limit_words(rec.name, x))) for x in self.limits)


def _limit_words(name: str, limit: Limit) -> str:
    """A limit in the card's words' shape, for one the record does not print."""
    if limit.minion:
        return f"a minion can play only one {name.lower()} {limit.scope}"
    return f"only one {name.lower()} can be played {limit.scope}"


def card_terms(rec: CardRecord, superior: bool = False) -> dict[str, object]:
    """The ``limit``, ``limit_all`` and ``replace`` fields an act playing ``rec`` (at superior:
    ``superior``) carries (its first printed limit at that level, its "Do not replace until …");
    {} for a card with neither."""
    out: dict[str, object] = {}
    if limits := rec.limits_at(superior):
        first = limits[0]
        out["limit"] = str(first.scope)
        if not first.minion:
            out["limit_all"] = True
    if rec.replacement != Replacement.NOW:
        out["replace"] = str(rec.replacement)
    return out


_LIMIT = re.compile(
    r"(?:an? (?:vampire|minion|ally) (?:can|may) play only one (?P<card>.+?)|only one (?P<any>.+?) can be played)"
    r"(?P<superior> at superior)? (?P<scope>each action|each round|each combat|each turn|between their unlock phases|in a game)"
)
"""A condition that limits how often the card is played; "at superior": a play at that level
(:mod:`engine.games.vtes.card_levels`)."""


@dataclass(frozen=True)
class Requirements:
    """What playing a card requires: ``clans`` (any one of them), ``disciplines`` (krcg's lower
    case; ``discipline_rule`` ``"Mono"``, ``"Choice"`` any one, ``"Combo"`` all), ``titles``
    (lower case, any one), ``sect`` (lower case, the first the text names), ``sects`` (lower
    case: the minion is of one of them) and ``not_sects`` (of none of them; both empty where the
    sentence mixes a sect with another kind of alternative, "a Laibon or non-titled vampire"),
    ``capacity`` (at least), ``unique`` (one copy
    in play: a second contests, rulebook "Contested Cards"), ``ready``: a ready vampire of yours,
    ``locked``: played by a locked minion ("Only usable by a locked vampire"), ``locked_too``: by a
    locked minion as well as an unlocked one ("Usable by a locked vampire"), ``timing``: when it is played, ``only``: the text's
    other "Only usable …" conditions, as printed (lower case); ``exclusive``: the names (lower
    case) of cards it cannot be played with during one action; ``other``: an action modifier
    played by a ready unlocked vampire of the acting Methuselah other than the acting minion
    ("Only usable by a ready unlocked vampire other than the acting minion"); ``limits``: the
    limits its text prints on how often it is played (:class:`Limit`)."""

    clans: tuple[str, ...] = ()
    disciplines: tuple[str, ...] = ()
    discipline_rule: str = ""
    titles: tuple[str, ...] = ()
    sect: str = ""
    sects: tuple[str, ...] = ()
    not_sects: tuple[str, ...] = ()
    capacity: int = 0
    unique: bool = False
    ready: bool = False
    locked: bool = False
    locked_too: bool = False
    timing: tuple[Timing, ...] = ()
    only: tuple[str, ...] = ()
    exclusive: tuple[str, ...] = ()
    other: bool = False
    limits: tuple[Limit, ...] = ()


@dataclass(frozen=True)
class Clause:
    """One part of a card's text: the Discipline ``levels`` it needs (krcg's spelling: ``("dom",)``
    basic, ``("DOM",)`` superior; () for the whole card), the card ``type`` it is played as when
    the card has two (``"Combat"``, "" for any), and its sentences as read (``readings``)."""

    levels: tuple[str, ...]
    type: str
    readings: tuple[Reading, ...]

    @property
    def effects(self) -> tuple[Effect, ...]:
        """Every effect of the clause, in printed order."""
        return tuple(e for r in self.readings for e in r.effects)

    @property
    def by_hand(self) -> tuple[str, ...]:
        """The clause's sentences the table leaves to the players."""
        return tuple(dict.fromkeys(r.sentence for r in self.readings if r.kind == SentenceKind.BY_HAND))

    @property
    def by_other(self) -> bool:
        """The clause says it is played by a vampire other than the acting minion."""
        return any(r.kind == SentenceKind.CONDITION and BY_OTHER in r.sentence for r in self.readings)

    @property
    def about_blocks(self) -> bool:
        """The clause changes only blocks: the table reads no effect of it but the minions barred from
        blocking (:attr:`EffectKind.BAR_BLOCK`), and of the sentences it leaves to the players one
        speaks of blocking (or the bar is read) ("Vampires cannot block this action", "if this
        action is blocked, …") and each other is the choice of whom that binds ("choose a younger
        vampire") or the price its own minion pays (Daring the Dawn's "this vampire takes 2
        unpreventable … damage", Day Operation's "goes to torpor"). Once no block can come, it
        cannot change the action."""
        said = self.by_hand
        if any(e.kind != EffectKind.BAR_BLOCK for e in self.effects):
            return False  # an effect the table applies beside blocks ("vampires cannot block" is one)
        if not self.effects and not any(_BLOCKS.search(s) for s in said):
            return False
        return all(_BLOCKS.search(s) or _CHOICE_OR_PRICE.match(s) for s in said)

    @property
    def superior(self) -> bool:
        """The clause needs a Discipline at superior."""
        return any(lv.isupper() for lv in self.levels)

    def usable_by(self, disciplines: frozenset[str] | tuple[str, ...]) -> bool:
        """A vampire with these krcg Discipline levels may play this clause: a superior level
        needs the superior Discipline, an inferior one either level (rulebook "Disciplines")."""
        have = frozenset(disciplines)
        return all(lv in have or (lv.islower() and lv.upper() in have) for lv in self.levels)


@dataclass(frozen=True)
class CardRecord:
    """What the table knows of one card. ``info``: krcg's facts (name, types, text, …);
    ``printed``, ``costs``, ``requires``; ``clauses``: the text's parts (:class:`Clause`);
    ``note``: a kept correction's reason, "" for none; ``replacement``: when the card is replaced
    in its player's hand once played (its "Do not replace until …"; at once by default)."""

    info: CardInfo
    printed: Printed
    costs: Costs
    requires: Requirements
    clauses: tuple[Clause, ...]
    note: str = ""
    replacement: Replacement = Replacement.NOW

    @property
    def id(self) -> int:
        """krcg's card id."""
        return self.info.id

    @property
    def name(self) -> str:
        """The card's unique name."""
        return self.info.name

    @property
    def types(self) -> tuple[str, ...]:
        """The card's types (krcg's)."""
        return self.info.types

    @property
    def effects(self) -> tuple[Effect, ...]:
        """Every effect of every clause."""
        return tuple(e for c in self.clauses for e in c.effects)

    @property
    def by_hand(self) -> tuple[str, ...]:
        """Every sentence the table leaves to the players."""
        return tuple(dict.fromkeys(s for c in self.clauses for s in c.by_hand))

    @property
    def in_referendum(self) -> bool:
        """The card's text speaks of a referendum, votes, ballots or a political action: a card
        that may be played before votes are cast (7.1) or gives votes."""
        if self.has(EffectKind.VOTES):
            return True
        said = [r.sentence for c in self.clauses for r in c.readings]
        return any(word in s for s in said for word in _POLL_WORDS)

    @property
    def in_polling(self) -> bool:
        """The card is played while polling for votes (7.2), not before: it gives votes, or its
        text makes it "only usable during the polling step" (Awe, Delaying Tactics)."""
        return self.has(EffectKind.VOTES) or any("during the polling step" in s for s in self.requires.only)

    @property
    def after_resolution(self) -> bool:
        """Some clause of the card is "only usable after (action) resolution" (of a successful
        action, …): it is played once its minion's action has resolved, not during it."""
        said = (r.sentence for c in self.clauses for r in c.readings if r.kind == SentenceKind.CONDITION)
        return any(s.startswith("only usable after") and "resolution" in s for s in said)

    @property
    def keeps_ally_locked(self) -> bool:
        """The card keeps an ally that plays it locked through its next unlock phase ("If this
        minion is an ally, they do not unlock as normal during their next unlock phase"): the
        play is kept among the state's ``limited`` until then."""
        return any(e.kind == EffectKind.LOCK and e.whom == ALLY_STAYS_LOCKED for e in self.effects)

    def limits_at(self, superior: bool) -> tuple[Limit, ...]:
        """The printed limits binding a play of the card at superior (``superior``) or basic: a
        limit printed "at superior" binds only the former."""
        return tuple(x for x in self.requires.limits if superior or not x.superior)

    def has(self, kind: EffectKind) -> bool:
        """Some clause of the card has an effect of this kind."""
        return any(e.kind == kind for e in self.effects)

    def clauses_for(self, disciplines: frozenset[str] | tuple[str, ...], type: str = "") -> tuple[Clause, ...]:
        """The clauses a minion with these Discipline levels may play (as card type ``type``
        when given): the whole-card clauses and the Discipline clauses it has."""
        return tuple(c for c in self.clauses if c.usable_by(disciplines) and (not type or c.type in ("", type)))

    @property
    def coverage(self) -> Coverage:
        """How much of the card the table applies (:func:`engine.games.vtes.card_coverage.coverage_of`)."""
        from engine.games.vtes.card_coverage import coverage_of

        return coverage_of(self)


def burnable(target: CardRecord, whom: str) -> bool:
    """A card in play of record ``target`` is of a kind a :attr:`EffectKind.BURN` effect's
    ``whom`` names ("equipment", "location", "equipment or location"; a trailing "(…)" ignored):
    equipment by its type, a location by its text's first sentence ("Unique location.")."""
    kinds = whom.partition(" (")[0].split(" or ")
    first = " ".join(target.info.text.lower().split()).split(".")[0]
    location = "Master" in target.types and "location" in first
    return ("equipment" in kinds and "Equipment" in target.types) or ("location" in kinds and location)


def meets_disciplines(rec: CardRecord, have: frozenset[str]) -> bool:
    """A minion with these krcg Discipline levels has what the card requires (rulebook
    "Disciplines"): its one Discipline, any one of a choice, all of a combination, at either
    level; a card that requires none: True."""
    need = rec.requires.disciplines
    if not need:
        return True
    lower = {d.lower() for d in have}
    if rec.requires.discipline_rule == "Combo":
        return all(d.lower() in lower for d in need)
    return any(d.lower() in lower for d in need)


BY_OTHER = "other than the acting minion"
"""The words of a condition that has an action modifier played by another vampire than the acting
minion (Veil the Legions; Cloak the Gathering at superior)."""
_BLOCKS = re.compile(r"\bblock|unblockable")
"""A sentence that speaks of blocking (block, blocked, blocking, unblockable)."""
_CHOICE_OR_PRICE = re.compile(r"^(?:choose |(?:but )?(?:this|the acting) (?:vampire|minion) (?:takes|goes to torpor))")
"""A sentence that chooses whom the card binds, or is the price the card's own minion pays."""
_POLL_WORDS = ("referendum", "vote", "ballot", "political action", "polling")
_LEVELS = re.compile(r"^((?:\[[a-zA-Z]{3}\]\s*)+)")
_TYPE = re.compile(r"^\[(ACTION MODIFIER|REACTION|COMBAT|ACTION|POLITICAL ACTION)\]\s*")
_SECTS = ("camarilla", "sabbat", "anarch", "independent", "laibon")
_TITLES = frozenset(
    {
        "primogen",
        "prince",
        "baron",
        "justicar",
        "bishop",
        "archbishop",
        "cardinal",
        "regent",
        "priscus",
        "inner circle",
        "titled vampire",
        "magaji",
        "kholo",
    }
)
_ALLY = re.compile(
    r"^(?:unique )?[\w' -]+? with (\d+) life(?:\. (\d+) strength, (\d+) bleed)?",
)
_REQUIRES = re.compile(r"^requires an? (.+)$")
_CAPACITY = re.compile(r"(?:vampire )?with capacity (\d+) or more")


def _clauses(text: str) -> list[Clause]:
    """The text's clauses: each line with a Discipline prefix one clause of those levels, the
    other lines one whole-card clause each; "As above, but for X" repeats the clause before with
    X's amounts, "As above, and/with X" adds X's effects to it."""
    out: list[Clause] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        levels: tuple[str, ...] = ()
        m = _LEVELS.match(line)
        if m:
            levels = tuple(re.findall(r"\[([a-zA-Z]{3})\]", m.group(1)))
            line = line[m.end() :]
        kind = ""
        t = _TYPE.match(line)
        if t:
            kind = t.group(1).title()
            line = line[t.end() :]
        readings: list[Reading] = []
        for sentence in (part for said in sentences(line) for part in _trailing_condition(said)):
            above = _AS_ABOVE.match(sentence)
            level = above.group("level") if above else None
            named = [c for c in out if c.levels == (level,)] if level else out
            if above and named:
                readings += _as_above(sentence, named[-1])
            else:
                readings.append(read_sentence(sentence))
        out += [Clause(levels, kind, alternative) for alternative in _alternatives(readings)]
    return out


_TRAILING = re.compile(r"^(.+?), (not usable .+)$")


def _trailing_condition(sentence: str) -> tuple[str, ...]:
    """A sentence whose effect carries its condition after a comma ("+1 stealth, not usable during
    a bleed action": Shroud of Night) as two, the effect then the condition; else the sentence."""
    m = _TRAILING.match(sentence)
    return (m.group(1), m.group(2)) if m else (sentence,)


def _alternatives(readings: list[Reading]) -> list[tuple[Reading, ...]]:
    """The ways to play a clause whose sentence offers a choice of effects ("+1 bleed (limited),
    or +1 stealth and +1 bleed (limited)"): one list of readings per choice, each with the
    clause's other sentences; the readings alone when no sentence is such a choice."""
    for i, r in enumerate(readings):
        if r.kind != SentenceKind.BY_HAND or ", or " not in r.sentence:
            continue
        parts = [read_sentence(p) for p in r.sentence.split(", or ")]
        if all(p.kind == SentenceKind.EFFECT for p in parts):
            return [(*readings[:i], p, *readings[i + 1 :]) for p in parts]
    return [tuple(readings)]


_AS_ABOVE = re.compile(r"as (?:\[(?P<level>[a-z]{3})\] )?above\b,?\s*")
"""The opening of a sentence that repeats the clause before ("As above, …"), or the clause of the
Discipline level it names ("As [obe] above, …")."""


def _as_above(sentence: str, before: Clause) -> list[Reading]:
    """The readings of an "As above …" sentence, from the clause ``before``; "with first strike"
    makes its strike a first strike (rulebook, "First Strike")."""
    rest = _AS_ABOVE.sub("", sentence, count=1)
    inherited = [r for r in before.readings if r.kind != SentenceKind.BY_HAND or r.sentence]
    if not rest:
        return inherited
    if rest == "with first strike" and any(e.kind == EffectKind.STRIKE for r in inherited for e in r.effects):
        return [
            replace(r, effects=tuple(replace(e, first=True) if e.kind == EffectKind.STRIKE else e for e in r.effects))
            for r in inherited
        ]
    if rest == "but do not unlock the acting vampire":  # Obedience at superior
        return [
            replace(r, effects=tuple(replace(e, whom="") if e.kind == EffectKind.END_ACTION else e for e in r.effects))
            for r in inherited
        ]
    if rest == "but do not lock this vampire":
        return [r for r in inherited if not any(e.kind == EffectKind.LOCK for e in r.effects)]
    if rest.startswith("but for ") or rest.startswith("but with "):
        new = read_sentence(rest.split(" ", 2)[2])
        if new.kind != SentenceKind.EFFECT:
            return [*inherited, Reading(sentence, SentenceKind.BY_HAND)]
        kinds = {e.kind for e in new.effects}
        kept = [r for r in inherited if not ({e.kind for e in r.effects} & kinds)]
        return [*kept, new]
    if rest.startswith(("and ", "with ", "but ")):
        tail = rest.split(" ", 1)[1]
        whole = read_sentence(tail)  # one shape with an "and" of its own ("… attempt to block and fail …")
        if whole.kind == SentenceKind.EFFECT:
            return [*inherited, whole]
        parts = [read_sentence(p.strip()) for p in re.split(r",? and ", tail) if p.strip()]
        if all(p.kind != SentenceKind.BY_HAND for p in parts):  # effects, or a condition ("but … older")
            return [*inherited, *parts]
        return [*inherited, Reading(rest, SentenceKind.BY_HAND)]
    return [*inherited, Reading(rest, SentenceKind.BY_HAND)]


_UNIQUE = re.compile(r"(?:master(?: \(trifle\))?: )?unique\b")
"""A sentence that makes its card unique: "Unique location.", "Master: unique location." (rulebook,
"Unique")."""


def _requirements(info: CardInfo, clauses: list[Clause]) -> Requirements:
    """The card's requirements, from krcg's data and its condition sentences."""
    titles: tuple[str, ...] = ()
    sect = ""
    sects: tuple[str, ...] = ()
    not_sects: tuple[str, ...] = ()
    capacity = 0
    ready = locked = locked_too = other = False
    unique = info.kind == DeckPart.CRYPT
    only: list[str] = []
    exclusive: list[str] = []
    limits: list[Limit] = []
    at_superior: list[Limit] = []
    for clause in clauses:
        for r in clause.readings:
            if pair := EXCLUSIVE.fullmatch(r.sentence):
                exclusive.append(pair.group("other"))
        if clause.levels:
            at_superior += [x for r in clause.readings if clause.superior and (x := _limit(info, r.sentence))]
            continue
        # One of two ways the card is played ("[REACTION] +2 intercept." and "[REACTION] Only
        # usable by a locked prince …"): its conditions are that way's, not the whole card's.
        if clause.type and sum(c.type == clause.type and not c.levels for c in clauses) > 1:
            continue
        for r in clause.readings:
            s = r.sentence
            if _UNIQUE.match(s):
                unique = True
            if (lim := _limit(info, s)) is not None and not lim.superior:
                limits.append(lim)
            if "only usable by a locked" in s:
                locked = True
            elif s.startswith("usable by a locked"):
                locked_too = True
            if s.startswith("only usable"):
                only.append(s)
                other = other or BY_OTHER in s
            m = _REQUIRES.match(s)
            if m is None:
                continue
            words = m.group(1)
            if cap := _CAPACITY.search(words):
                capacity = int(cap.group(1))
            if "ready vampire" in words or "ready minion" in words:
                ready = True
            first = words.split()[0]
            if first in _SECTS:
                sect = first
            sects, not_sects = _sect_requirement(words) or (sects, not_sects)
            named = [w.strip() for w in re.split(r",? or |, ", re.sub(r" vampire$", "", words))]
            found = tuple(w for w in named if w in _TITLES)
            if found:
                titles = found
    if not limits:  # one limit an act states (its ``limit``): "at superior" alone, but of one action
        limits = [x for x in at_superior if x.scope != LimitScope.ACTION][:1]
    timing = tuple(t for name, t in _TIMINGS if name in info.types)
    if any(r.sentence == "out-of-turn" for c in clauses for r in c.readings):
        timing = (Timing.OUT_OF_TURN, *timing)
    return Requirements(
        clans=info.clan_requirement,
        disciplines=info.discipline_requirement,
        discipline_rule=info.discipline_rule if info.discipline_requirement else "",
        titles=titles,
        sect=sect,
        sects=sects,
        not_sects=not_sects,
        capacity=capacity,
        unique=unique,
        ready=ready,
        locked=locked,
        locked_too=locked_too,
        timing=timing or (Timing.OTHER,),
        only=tuple(only),
        exclusive=tuple(dict.fromkeys(exclusive)),
        other=other,
        limits=tuple(limits),
    )


def _limit(info: CardInfo, sentence: str) -> Limit | None:
    """The limit ``sentence`` prints on how often the card ``info`` is played, or None."""
    lim = _LIMIT.fullmatch(sentence)
    if lim is None or (lim.group("card") or lim.group("any")) != info.name.lower():
        return None
    words = _printed_words(info.text, sentence)
    return Limit(LimitScope(lim.group("scope")), bool(lim.group("card")), words, bool(lim.group("superior")))


_SECT_WORD = re.compile(r"\b(non-)?(" + "|".join(_SECTS) + r")\b")


def _sect_requirement(words: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The sects a "Requires …" sentence's ``words`` ask of the minion (any one of them) and
    those it bars ("a ready non-Camarilla vampire"), or None when it names no sect, or offers an
    alternative that is no sect ("a Laibon or non-titled vampire": left to the players)."""
    found = _SECT_WORD.findall(words)
    if not found:
        return None
    alternatives = re.split(r" or (?!more\b)", words)
    if len(alternatives) > 1 and not all(_SECT_WORD.search(a) for a in alternatives):
        return None
    return tuple(s for neg, s in found if not neg), tuple(s for neg, s in found if neg)


def _printed_words(text: str, sentence: str) -> str:
    """``sentence`` (lower case, as :func:`sentences` gives it) as the card's ``text`` prints it."""
    flat = " ".join(text.split())
    at = flat.lower().find(sentence)
    return flat[at : at + len(sentence)] if at >= 0 else sentence


def _printed(info: CardInfo, clauses: list[Clause]) -> Printed:
    """The card's printed numbers (see :class:`Printed`)."""
    from engine.games.vtes.politics import title_votes

    first = " ".join(info.text.lower().split())
    if info.kind == DeckPart.CRYPT:
        # "Camarilla Prince of Seattle: …", "Sabbat.", "Advanced, Camarilla: …"
        head = re.split(r"[:.]", first, maxsplit=1)[0].removeprefix("advanced, ")
        sect = next((s.title() for s in _SECTS if head.startswith(s)), "")
        bonus = {k: 0 for k in ("strength", "bleed", "stealth", "intercept")}
        for clause in clauses:
            for r in clause.readings:
                for e in r.effects:
                    if e.kind == EffectKind.STRIKE and e.hand and e.whom != HAND_STRIKE:
                        bonus["strength"] += e.amount
                    elif e.kind in (EffectKind.BLEED, EffectKind.STEALTH, EffectKind.INTERCEPT):
                        bonus[str(e.kind)] += e.amount
        return Printed(
            capacity=info.capacity,
            strength=1 + bonus["strength"],
            bleed=1 + bonus["bleed"],
            stealth=bonus["stealth"],
            intercept=bonus["intercept"],
            title=info.title,
            votes=title_votes(info.title) if info.title else 0,
            sect=sect,
        )
    m = _ALLY.match(first)
    if m and ({"Ally", "Retainer"} & set(info.types)):
        life = int(m.group(1))
        if "Ally" in info.types:
            return Printed(
                life=life,
                strength=int(m.group(2)) if m.group(2) else 1,
                bleed=int(m.group(3)) if m.group(3) else 1,
            )
        return Printed(life=life)
    return Printed()


def _clean_crypt_clauses(info: CardInfo, clauses: list[Clause]) -> list[Clause]:
    """A crypt card's text begins with its sect and title ("Camarilla Prince of Seattle: …"):
    that head is no sentence to apply."""
    if info.kind != DeckPart.CRYPT or not clauses:
        return clauses
    first = clauses[0]
    readings = list(first.readings)
    if readings and ":" in readings[0].sentence:
        head, _, rest = readings[0].sentence.partition(":")
        readings[0] = read_sentence(rest.strip()) if rest.strip() else Reading(head, SentenceKind.CONDITION)
    return [replace(first, readings=tuple(readings)), *clauses[1:]]


def _ally_clauses(info: CardInfo, clauses: list[Clause]) -> list[Clause]:
    """An ally's or retainer's first sentences print its life, strength and bleed: numbers the
    record holds (:class:`Printed`), not sentences to apply."""
    if not {"Ally", "Retainer"} & set(info.types) or not clauses:
        return clauses
    first = clauses[0]
    readings = tuple(
        Reading(r.sentence, SentenceKind.CONDITION)
        if re.fullmatch(r"(?:unique )?[\w' -]+? with \d+ life|\d+ strength, \d+ bleed|red list", r.sentence)
        else r
        for r in first.readings
    )
    return [replace(first, readings=readings), *clauses[1:]]


def read(info: CardInfo) -> CardRecord:
    """The record of the card ``info`` as the patterns read it, without its kept correction
    (:func:`build` applies it)."""
    clauses = _ally_clauses(info, _clean_crypt_clauses(info, _clauses(info.text)))
    costs = Costs(info.blood_cost, info.pool_cost, info.conviction_cost, info.x_cost)
    said = (replacement(r.sentence) for c in clauses if not c.levels for r in c.readings)
    when = next((x for x in said if x is not None), Replacement.NOW)
    return CardRecord(info, _printed(info, clauses), costs, _requirements(info, clauses), tuple(clauses), "", when)


def build(info: CardInfo) -> CardRecord:
    """The record of the card ``info``, its kept correction applied
    (:mod:`engine.games.vtes.card_corrections`)."""
    from engine.games.vtes.card_corrections import corrected

    return corrected(read(info))


@functools.cache
def _record_of(cid: int) -> CardRecord | None:
    info = card_base().info(cid)
    return build(info) if info is not None else None


def record(ident: str | int | None) -> CardRecord | None:
    """The record of a card id or protocol identity (``"100845-2"``), or None for no card."""
    if ident is None:
        return None
    cid = card_id(ident) if isinstance(ident, str) else ident
    return _record_of(cid) if cid is not None else None


def every_record() -> list[CardRecord]:
    """Every card's record, by id."""
    return [r for r in (record(i.id) for i in card_base().every_info()) if r is not None]
