"""A bleed or an additional strike "that does not count against the limit" is the plain effect,
not limited (Command of the Beast: "[dom] +1 bleed (limited). [DOM] +1 bleed that does not count
against the limit."; Quickness: "[cel] Additional strike (limited). [CEL] Additional strike that
does not count against the limit."): read, offered and applied as such, so both cards are applied
fully; the log replays to the same state."""

from __future__ import annotations

from engine.games.base import Act
from engine.games.vtes import VTES
from engine.games.vtes.card_coverage import coverage_of
from engine.games.vtes.card_effects import Effect, EffectKind
from engine.games.vtes.card_record import Coverage
from tests.support.vtes_sim import copy_table, one_vampire_table, record_named, replayed
from tests.support.vtes_sim import first_vampire as vampire


def test_the_sentences_read_as_the_plain_effects_and_the_cards_are_applied_fully() -> None:
    beast, quick = record_named("Command of the Beast"), record_named("Quickness")
    assert [c.effects for c in beast.clauses if c.superior] == [(Effect(EffectKind.BLEED, 1),)]
    assert [c.effects for c in quick.clauses if c.superior] == [(Effect(EffectKind.ADDITIONAL_STRIKE, 1),)]
    assert coverage_of(beast) == coverage_of(quick) == Coverage.FULLY


def test_command_of_the_beast_at_superior_adds_a_bleed_outside_the_limit() -> None:
    start = one_vampire_table("Arika", (("Command of the Beast", 7),), seed=5)  # DOM at superior
    t = copy_table(start)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    done: list[tuple[int, Act]] = [(ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})]
    t.play(*done[0])
    view = t.view(ana)
    card = next(c.as_list() for c in view.hand if c.name == "Command of the Beast")
    plays = [a for a in VTES.legal_acts(view) if a["do"] == "play" and a["card"] == card]
    assert sorted((a["amount"], bool(a.get("bleed_mod"))) for a in plays) == [(1, False), (1, True)]
    outside = next(a for a in plays if not a.get("bleed_mod"))
    t.play(ana, outside)
    done.append((ana, outside))
    a = t.state.open_action
    assert a is not None and a.amount == 2 and a.bleed_mods == 0  # the limit is left for another card
    assert replayed(start, done).state == t.state
