"""A structural VTES bot: it plays the table's structure without reading card texts
(shared/rules/vtes.md, "Turn sequence"; DESIGN.md: bots choose moves from a seat's view).

Each turn it takes the Edge's pool; in its minion phase it announces an action with every ready
unlocked minion through the table's windows (shared/rules/vtes-actions.md): its mandatory hunts,
a hunt for a vampire low on blood, else a bleed of its prey for 1; it passes the impulse at once,
and blocks a bleed at itself when it matters (the bleed would oust it, its pool is low, or by
chance); it transfers pool to the uncontrolled vampire closest to its capacity (or brings out a new crypt card),
influences out vampires at capacity, discards one card and draws, and ends the turn; it agrees
when another player calls time (tournament rules), and never calls it first. Of card texts it
plays only the simple ones :mod:`engine.games.vtes.readings` reads: combat cards' strikes, and
political action cards whose terms it can choose and apply (it records them naming the players,
and applies them by ordinary acts once its referendum passes), cancels each master card a rival
plays when its hand holds a card that may (and a minion card played against it:
:mod:`engine.games.vtes.cancel_choice`), and in its master phase plays a master card whose
effects the table applies and that serves it (:mod:`engine.games.vtes.master_bots`); its games end
by bleeds: whole games finish in a few thousand acts.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.games.base import Act, OptionError
from engine.games.vtes import bleed_burns, blood_intercept
from engine.games.vtes.cancel_choice import worth_canceling
from engine.games.vtes.cards import card_base
from engine.games.vtes.contests import own_copy, rivals_of
from engine.games.vtes.fair_answers import verdict
from engine.games.vtes.master_bots import master_play
from engine.games.vtes.offers import hunts_due, offers
from engine.games.vtes.readings import (
    StrikeReading,
    Terms,
    best_strike,
    bot_terms,
    strike_act,
    terms_acts,
    weapon_strikes,
)
from engine.games.vtes.referendum_cancels import bot_cancel
from engine.games.vtes.referendum_gains import bot_gain
from engine.games.vtes.terms_choices import terms_side
from engine.games.vtes.vocab import ActionKind, Do, Phase, Poll, Step, TransferKind, VoteSource, Window, Zone

if TYPE_CHECKING:  # the game package imports this module for its simulations
    from engine.games.vtes.decks import Deck
    from engine.games.vtes.state import Referendum
    from engine.games.vtes.view import CardView, VtesView

CONTEST_MARGIN = 8
"""The pool a bot keeps after paying 1 pool for a contested card; below it, it yields the card."""
_BASIC = frozenset({ActionKind.BLEED, ActionKind.HUNT})
"""The actions this bot takes with its minions (its political actions are chosen apart)."""


class VtesBot:
    """A bot for one seat: ``choose(view, legal)`` returns one of ``legal`` (or the seat's
    ``deck`` act in the joining step), or None when it is not this seat's turn.

    ``deck``: the :class:`engine.games.vtes.decks.Deck` it brings (its sizes are declared; None
    declares the shape ``legal`` offers). ``seed``: an int or a ``random.Random`` for its own
    random choices (which card to discard, ties). ``reserve``: pool it keeps out of transfers.
    ``max_vampires``: vampires it aims to control. ``block_chance``: chance (0–1) it blocks a bleed
    at itself that does not threaten it. ``randomness``: chance (0–1) of a random legal act instead of the structural one
    (0 for the heuristic level; the random level keeps a small value so games still end).
    """

    def __init__(
        self,
        deck: Deck | None = None,
        seed: int | random.Random = 0,
        reserve: int = 5,
        max_vampires: int = 4,
        randomness: float = 0.0,
        block_chance: float = 0.4,
    ) -> None:
        self.deck = deck
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.reserve = reserve
        self.max_vampires = max_vampires
        self.randomness = randomness
        self.block_chance = block_chance
        self._terms: Terms | None = None
        """The terms of this bot's referendum under way, or passed and not yet applied."""
        self._passing = False
        """Whether its referendum, at the last poll it saw, had more votes for than against."""
        self._apply: list[Act] = []
        """The acts that apply its passed referendum's terms, still to make (7.1 step 3)."""
        self._took: dict[int, tuple[int, int, str, str, int]] = {}
        """The claims it accepted, by act number: the turn, the claimant, the source and kind, and
        the size it counted (:func:`~engine.games.vtes.fair_answers.verdict`'s bound)."""

    def _answer_claim(self, view: VtesView, legal: list[Act]) -> Act | None:
        """A claim touching this bot's things: accepted or disputed as a fair opponent would
        (:func:`engine.games.vtes.fair_answers.verdict`; docs/vtes-by-hand.md, "A bot's answer"),
        a dispute saying why; a claim it disputed it never accepts after."""
        for a in legal:
            if a["do"] != Do.ACCEPT:
                continue
            claim = next((c for c in view.claims if c.act == a["act"]), None)
            if claim is None:
                return a
            if view.seat in claim.disputed:
                continue
            said = verdict(view, claim, lambda seat, source, kind: self._spent(view.turn, seat, source, kind))
            if not said.accept:
                return {"do": Do.DISPUTE, "act": a["act"], "why": said.why}
            if said.spends is not None:
                self._took[claim.act] = (view.turn, claim.author, *said.spends)
            return a
        return None

    def _spent(self, turn: int, seat: int, source: str, kind: str) -> int:
        """What ``seat`` took from this bot on turn ``turn`` by claims it accepted for ``source``
        and ``kind`` ("" and "": on its word)."""
        return sum(n for t, s, src, k, n in self._took.values() if (t, s, src, k) == (turn, seat, source, kind))

    def choose(self, view: VtesView, legal: list[Act]) -> Act | None:
        """The act this bot makes now, or None to let another seat act."""
        seat = view.seat
        if not legal or seat is None:
            return None
        if view.step == Step.JOINING:
            return self.deck.deck_act() if self.deck is not None else legal[0]
        claimed = self._answer_claim(view, legal)
        if claimed is not None:
            return claimed
        if view.time_calls and not view.time_called and seat not in view.time_calls:
            # Another player called time (tournament rules): agree, so that a person at a table
            # of bots can end the game on time (the rule needs two players to call it).
            agree = [a for a in legal if a["do"] == Do.TIME]
            if agree:
                return agree[0]
        answer = view.open_answer
        if answer is not None:
            # A card another plays waits for answers: a bot cancels it with the first card of its
            # hand that may, when it is worth it (engine.games.vtes.cancel_choice), else passes.
            if answer.loop.holder != seat:
                return None
            cancel = next((a for a in legal if a["do"] == Do.PLAY), None)
            return cancel if cancel is not None and worth_canceling(view, seat, answer) else {"do": Do.PASS}
        if view.referendum is not None:
            return self._poll(view, seat, legal)
        applying = self._applied(view, seat)
        if applying is not None:
            return applying
        if view.combat is not None:
            return self._fight(view, seat, legal)
        action = view.action
        if action is not None:
            if action.impulse != seat:
                return None
            if action.window == Window.DIABLERIE:
                return {"do": Do.DIABLERISE}
            burned = bleed_burns.bot_play(view, seat, legal)  # Archon Investigation against a big bleed
            if burned is not None:
                return burned
            numbers = _numbers_play(legal, action.actor == seat) or blood_intercept.bot_use(view, legal)
            if numbers is not None:
                return numbers
            # A minion whose block failed may try again, but this bot adds no intercept: it would
            # fail again, so the bot blocks only with minions that have not tried.
            fresh = view.untried(seat)
            blocks = [a for a in legal if a["do"] == Do.BLOCK and any(a["minion"] == c.as_list() for c in fresh)]
            if blocks and self._should_block(view, seat):
                strongest = max(fresh, key=lambda c: (c.counters, c.pos))
                return next((a for a in blocks if a["minion"] == strongest.as_list()), blocks[0])
            return {"do": Do.PASS}
        if view.acting != seat:
            return None
        # This bot's minions bleed and hunt, and take the actions of cards that burn a rival's card
        # or unlock their minion as they succeed; the other actions offered (other cards, rescue,
        # diablerie, leaving torpor, an action applied by hand) are left to a person or a stronger bot.
        legal = [a for a in legal if a["do"] != Do.ACTION or _bot_action(a)]
        if len(view.hand) > view.players[seat].hand_size and any(a["do"] == Do.DISCARD for a in legal):
            return next(a for a in legal if a["do"] == Do.DISCARD)  # down to its hand size (rulebook)
        if self.randomness and self.rng.random() < self.randomness:
            safe = [a for a in legal if a["do"] not in (Do.END_TURN, Do.TIME, Do.PLAY)]
            if safe:
                return self.rng.choice(safe)
        by_do: dict[str, list[Act]] = {}  # by the act's name (a Do member finds its string)
        for act in legal:
            by_do.setdefault(act["do"], []).append(act)
        phase = view.phase
        match phase:
            case Phase.UNLOCK if Do.YIELD in by_do:
                return self._contest(view, seat, by_do)
            case Phase.UNLOCK:
                for do in (Do.EDGE, Do.WITHDRAW):
                    if do in by_do:
                        return by_do[do][0]
            case Phase.MINION if (gains := bot_gain(view, legal)) is not None:
                return gains  # blood for the votes by which its referendum passed (Voter Captivation)
            case Phase.MASTER:
                master = master_play(view, seat, by_do.get(Do.PLAY, []), self.reserve)
                if master is not None:
                    return master
            case Phase.MINION if Do.ACTION in by_do:
                return self._politics(view, seat) or self._action(view, by_do[Do.ACTION])
            case Phase.INFLUENCE:
                chosen = self._influence(view, seat, by_do)
                if chosen is not None:
                    return chosen
            case Phase.DISCARD if view.discard_actions == 0 and Do.DISCARD in by_do:
                return self.rng.choice(by_do[Do.DISCARD])
            case _:
                pass
        return by_do[Do.PHASE][0]

    def _contest(self, view: VtesView, seat: int, by_do: dict[str, list[Act]]) -> Act:
        """The first contest due (rulebook, "Contested Cards", "Contested Titles"): keep a contested
        card while paying leaves at least :data:`CONTEST_MARGIN` pool, a contested title while the
        vampire keeps at least 1 blood; else yield it."""
        yielding = by_do[Do.YIELD][0]
        pay = next((a for a in by_do.get(Do.CONTEST, []) if a["card"] == yielding["card"]), None)
        card = next((c for c in view.cards if c.as_list() == yielding["card"]), None)
        if pay is None or card is None:
            return yielding
        if card.zone == Zone.CONTESTED:
            keep = view.players[seat].pool - 1 >= CONTEST_MARGIN
        else:
            keep = card.counters >= 2
        return pay if keep else yielding

    def _action(self, view: VtesView, acts: list[Act]) -> Act:
        """The next minion's action: a hunt for a vampire with at most 1 blood, else an action card
        that burns a rival's equipment or location, else a bleed (with a card that unlocks the
        minion or draws as it succeeds, when it holds one)."""
        first = acts[0]["minion"]
        mine = [a for a in acts if a["minion"] == first]
        card = next((c for c in view.cards if c.as_list() == first), None)
        hunt = next((a for a in mine if a["kind"] == ActionKind.HUNT), None)
        bleeds = [a for a in mine if a["kind"] == ActionKind.BLEED]
        bleed = next((a for a in bleeds if a.get("unlock") or a.get("draws")), bleeds[0] if bleeds else None)
        if hunt is not None and (bleed is None or (card is not None and card.crypt and card.counters <= 1)):
            return hunt
        burn = next((a for a in mine if a.get("burn")), None)
        if burn is not None:
            return burn
        return bleed if bleed is not None else mine[0]

    def _politics(self, view: VtesView, seat: int) -> Act | None:
        """A political action with a political action card from hand, once a turn, by a ready
        unlocked vampire with blood (none while a hunt is due): a card whose terms it can read and
        apply (:func:`engine.games.vtes.readings.bot_terms`) and that favour it, called by its
        vampire of highest capacity that may."""
        if hunts_due(view, seat) or any(d.kind == ActionKind.POLITICAL for d in view.done):
            return None
        vampires = sorted(
            (c for c in view.ready_unlocked(seat) if c.crypt and c.counters >= 1), key=lambda c: (-c.capacity, c.pos)
        )
        # Only what the table offers (its requirements: a title, a clan, a contested title).
        offered = {
            (o.minion, o.card) for o in offers(view) if o.do == Do.ACTION and o.act.get("kind") == ActionKind.POLITICAL
        }
        for card in (c for c in view.hand if "Political Action" in c.types):
            for vampire in vampires:
                if (vampire.pos, card.pos) not in offered:
                    continue
                terms = bot_terms(view, seat, card, vampire)
                if terms is not None and terms.worth > 0:
                    return {
                        "do": Do.ACTION,
                        "kind": ActionKind.POLITICAL,
                        "minion": vampire.as_list(),
                        "card": card.as_list(),
                    }
        return None

    def _applied(self, view: VtesView, seat: int) -> Act | None:
        """Once its referendum has closed: the next act applying its terms if it passed (pool,
        the banished vampire and its blood), in its own turn with nothing open; else None."""
        if self._terms is not None:
            if self._passing:
                self._apply = terms_acts(view, self._terms)
            self._terms, self._passing = None, False
        if not self._apply or view.acting != seat or view.action is not None or view.combat is not None:
            return None
        return self._apply.pop(0)

    def _poll(self, view: VtesView, seat: int, legal: list[Act]) -> Act | None:
        """A referendum: the terms of its card as it reads them (the choices made in its interest,
        :func:`engine.games.vtes.readings.bot_terms`; else the card's name and what it cannot
        apply), no card before votes, every vote it holds on the side :meth:`_side` says (what the
        terms do to it; a card that gives votes only for one it wants), then done.
        It follows the count of its own referendum to apply the terms once it passes."""
        r = view.referendum
        if r is None:
            return None
        if r.caller == seat and r.card and r.step == Poll.VOTING:
            self._passing = r.total(True) > r.total(False)
        if r.step == Poll.TERMS:
            if r.caller != seat:
                return None
            card = view.card(r.card) if r.card else None
            minion = view.card(r.minion) if r.minion else None
            terms = bot_terms(view, seat, card, minion) if card is not None and minion is not None else None
            # The table applies the terms it can (their choices on the act); the bot, the others.
            self._terms, self._passing, self._apply = (terms if terms and terms.choice is None else None), False, []
            if terms is not None:
                return terms.act()
            name = card.name if card is not None and card.name else "the card"
            return {"do": Do.TERMS, "text": f"{name}, as printed: this bot applies none of it (apply it by hand)"}
        if r.step == Poll.BEFORE:
            return {"do": Do.PASS} if r.impulse == seat else None
        if seat in r.done:
            return None
        side = self._side(view, seat, r)
        for act in legal:
            if act["do"] == Do.PLAY and act.get("votes") and side:
                return {**act, "for": side}  # a card that gives votes, for a referendum it wants
            if act["do"] != Do.VOTE:
                continue
            if act["source"] in (VoteSource.CARD, VoteSource.EDGE) and not side:
                continue  # burns a card or the Edge only for a referendum it wants
            return {**act, "for": side}
        return bot_cancel(view, seat, legal) or {"do": Do.DONE}  # its votes cast, a cancel if it would pass

    @staticmethod
    def _side(view: VtesView, seat: int, r: Referendum) -> bool:
        """How this bot votes: for its own referendum; else by what the terms do to it, as the
        screen's ``V`` fills in the side (:func:`engine.games.vtes.terms_choices.terms_side`:
        against a blood hunt on its vampire or terms that send its vampire back or burn its
        pool, for terms that give it pool, for a blood hunt on another's vampire); against
        another's referendum that does nothing for it."""
        if r.caller == seat and not r.hunted:
            return True
        side, why = terms_side(view, seat)
        return side if why or r.hunted else False

    def _fight(self, view: VtesView, seat: int, legal: list[Act]) -> Act | None:
        """Combat: a strike (:meth:`_strike`), with an aim card offered with it; a combat card the table applies as it is played in
        this step (a strength for the combat, damage each round, a grapple, blood gained); the
        prevention that saves the most blood or life; a press
        only with a press card in hand while its minion has more blood than the other; pass
        otherwise."""
        c = view.combat
        if c is None or c.impulse != seat:
            return None
        strikes = [a for a in legal if a["do"] == Do.STRIKE]
        if strikes:
            chosen = self._strike(view, strikes[0])
            # with an aim card when one is offered with that strike (Target Vitals: +2 damage if it lands)
            return next((a for a in strikes if "aim" in a and {**a, "aim": None} == {**chosen, "aim": None}), chosen)
        plays = [a for a in legal if a["do"] == Do.PLAY]  # a combat card's strength, damage, grapple, blood
        if plays:
            return plays[0]
        prevents = [a for a in legal if a["do"] == Do.PREVENT]
        if prevents:  # the prevention that saves the most, less the blood it burns
            best = max(prevents, key=lambda a: int(a.get("normal", 0)) + int(a.get("agg", 0)) - int(a.get("blood", 0)))
            if int(best.get("normal", 0)) + int(best.get("agg", 0)) > int(best.get("blood", 0)):
                return best
        presses = [a for a in legal if a["do"] == Do.PRESS]
        if presses and not c.press:
            mine, other = (c.acting, c.opposing) if presses[0]["minion"] == list(c.acting) else (c.opposing, c.acting)
            with_card = next((a for a in presses if "card" in a), None)  # a press card's, as offered
            me, them = view.card(mine), view.card(other)
            if with_card is not None and me is not None and them is not None and me.counters > them.counters + 1:
                return with_card
        return {"do": Do.PASS} if any(a["do"] == Do.PASS for a in legal) else None

    def _strike(self, view: VtesView, hand_strike: Act) -> Act:
        """The strike for the combatant of ``hand_strike`` (the default strike act offered): a
        combat card from hand with a plain strike it can use and pay for, or a weapon it holds
        (:mod:`engine.games.vtes.readings`), else the hand strike. It ends combat or dodges when the
        strike it faces would take its last blood or life, and ends combat when the other minion has more
        blood or life (or its own is down to 1);
        else it plays the card doing the most damage at the range, when that beats the hand strike."""
        c = view.combat
        me = view.card(tuple(hand_strike["minion"]))
        if c is None or me is None:
            return hand_strike
        other = c.opposing if me.pos == c.acting else c.acting
        pool = view.players[me.controller].pool
        options: list[tuple[CardView, StrikeReading]] = []
        them = view.card(other)
        for held in view.hand:
            reading = (
                best_strike(held.card, me.card, c.long, them, c.strength_of(me.pos), c.hand_only, me.disciplines)
                if held.card and "Combat" in held.types
                else None
            )
            info = card_base().info(held.card) if reading is not None else None
            if reading is None or info is None or (reading.additional and me.pos in c.extra_used):
                continue
            if (info.blood_cost and (not me.crypt or info.blood_cost >= me.counters)) or (
                info.pool_cost and info.pool_cost >= pool
            ):
                continue
            if (not reading.ranged and not reading.dodge and not reading.ends) and c.long:
                continue  # a melee strike does nothing at long range (5.5)
            options.append((held, reading))
        for weapon, reading in weapon_strikes(view, me, c.long):  # a weapon it holds strikes from play
            if reading.ranged or reading.dodge or reading.ends or not c.long:
                options.append((weapon, reading))

        def play(held: CardView, reading: StrikeReading) -> Act:
            return strike_act(list(me.pos), held.as_list(), reading)

        facing = next((s for s in c.strikes if s.minion == other), None)
        threatened = facing is not None and not facing.dodge and facing.damage >= max(me.counters, 1)
        losing = me.counters <= 1 or (them is not None and them.counters > me.counters)
        if threatened or losing:
            escape = sorted(
                (o for o in options if o[1].ends or (threatened and o[1].dodge)), key=lambda o: not o[1].ends
            )
            if escape:
                return play(*escape[0])
        sending = [o for o in options if o[1].torpor or o[1].burn]  # at this opponent (best_strike)
        if sending:
            return play(*sending[0])
        hitting = [o for o in options if o[1].damage or o[1].steal]
        if hitting:
            held, reading = max(hitting, key=lambda o: (o[1].damage + o[1].steal + o[1].aggravated, o[1].ranged))
            if reading.damage + reading.steal + reading.aggravated > (0 if c.long else 1):
                return play(held, reading)
        return hand_strike

    def _should_block(self, view: VtesView, seat: int) -> bool:
        """Block a bleed at this seat when it matters: it would oust, the pool is low, or by chance."""
        a = view.action
        if a is None or a.kind != ActionKind.BLEED or seat not in a.targets:
            return False
        pool = view.players[seat].pool
        return a.amount >= pool or pool <= 10 or self.rng.random() < self.block_chance

    def _influence(self, view: VtesView, seat: int, by_do: dict[str, list[Act]]) -> Act | None:
        if Do.INFLUENCE in by_do:
            return by_do[Do.INFLUENCE][0]
        me = view.players[seat]
        if me.pool <= self.reserve:
            return None
        controlled = [c for c in view.controlled(seat) if c.crypt]
        # never a vampire it controls already (it could not influence it out), a contest last
        waiting = [c for c in view.uncontrolled(seat) if c.capacity and not own_copy(view.cards, c, seat)]
        if len(controlled) >= self.max_vampires:
            return None
        # a card's free blood (Powerbase: Montreal, Dreams of the Sphinx: a transfer naming it) before a transfer
        transfers = sorted(by_do.get(Do.TRANSFER, []), key=lambda a: "by" in a)
        pool_moves = {(a["card"][0], a["card"][1]): a for a in transfers if a["kind"] == TransferKind.POOL}
        candidates = [c for c in waiting if c.pos in pool_moves]
        if candidates:
            # the vampire closest to capacity, if it can be reached with the pool above the reserve
            best = min(candidates, key=lambda c: (bool(rivals_of(view.cards, c)), c.capacity - c.counters, c.pos))
            if best.capacity - best.counters <= me.pool - self.reserve:
                return pool_moves[best.pos]
            affordable = [c for c in candidates if c.capacity - c.counters <= me.pool - self.reserve]
            if affordable:
                return pool_moves[min(affordable, key=lambda c: c.pos).pos]
            return None
        crypt = [a for a in by_do.get(Do.TRANSFER, []) if a["kind"] == TransferKind.CRYPT]
        if crypt and not waiting:
            return crypt[0]
        return None


def vtes_bot(level: str = "heuristic", deck: Deck | None = None, seed: int | random.Random = 0) -> VtesBot:
    """A VTES bot of ``level`` ("heuristic" or "random") bringing ``deck``. Both levels are
    structural bots (a uniformly random VTES player would never finish a game); "random" makes a
    random legal act one time in five. Raises OptionError for another level."""
    if level in ("heuristic", "structural"):
        return VtesBot(deck, seed)
    if level == "random":
        return VtesBot(deck, seed, randomness=0.2)
    raise OptionError(f"there is no VTES bot level {level!r} (the levels are heuristic and random)")


def _bot_action(act: Act) -> bool:
    """An action this bot takes: a bleed or hunt with no card, or an action card that burns a card
    or unlocks its minion as it succeeds."""
    return (act["kind"] in _BASIC and "card" not in act) or bool(
        act.get("burn") or act.get("unlock") or act.get("draws")
    )


def _numbers_play(legal: list[Act], acting: bool) -> Act | None:
    """The offered play that changes the open action most: stealth, intercept or bleed added, a
    bleed against the bot reduced (a card's numbers are offered only when they can change it: 4.3),
    for the acting bot its minion unlocked as the action succeeds or a block turned into the end of
    the action (Mirror Walk at superior), or, first of all, a block attempt
    made to fail (a blocked action does nothing; stealth may still be outdone by intercept), or a
    blocker barred; or None."""
    plays = [a for a in legal if a["do"] == Do.PLAY]
    weight = {
        id(a): sum(abs(int(a.get(k) or 0)) for k in ("stealth", "intercept", "amount"))
        + (acting and bool(a.get("unlock")))
        + (acting and bool(a.get("end_if_blocked")))  # Mirror Walk at superior over its basic
        + (10 if acting and a.get("fail_block") else 0)
        + (acting and ("bar" in a or bool(a.get("bar_vampires"))))
        for a in plays
    }
    best = max(plays, key=lambda a: weight[id(a)], default=None)
    return best if best is not None and weight[id(best)] > 0 else None
